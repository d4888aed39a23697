//! The challenges' API (docs/ARENA.md, "Challenges"): a challenge checked and queued within
//! the limits, the caller's challenges, one challenge (its matches for the challenger), a
//! match's replay (the challenger's, the opponent's text left out unless they may read it).

use super::{Challenge, Limit, Limits, MAX_SEEDS, New, Opponent, Played, Side};
use crate::App;
use crate::api::bodies::Outcome;
use crate::api::bodies::{ChallengeMatch, ChallengeView, NewChallenge, Opposed};
use crate::api::{self, ApiError, ApiResult, blocking, body};
use crate::auth::Caller;
use crate::db::ids::{AccountId, ChallengeId};
use crate::store::{self, Status};
use crate::views::{may_read, played_again};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use robots_games::battle::compare::tournament::{Game, Score};
use robots_games::battle::show::view::ViewDoc;
use std::sync::Arc;

fn invalid(detail: &str) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, "invalid", detail)
}

/// The caller's account (the route's guard has let only the signed in through).
fn account(caller: &Caller) -> Result<AccountId, ApiError> {
    caller
        .account
        .as_ref()
        .map(|a| a.id)
        .ok_or_else(ApiError::internal)
}

/// A refusal by the limits, 429 with the words and `Retry-After`.
pub fn too_many(limit: Limit) -> Response {
    let (seconds, detail) = match limit {
        Limit::Hourly(s) => (
            s,
            format!(
                "this account's challenges for the hour are spent; try again in {} minute(s)",
                (s + 59) / 60
            ),
        ),
        Limit::Queue => (
            60,
            "too many challenge matches wait to be played; try again in a minute".to_string(),
        ),
    };
    let mut response =
        ApiError::new(StatusCode::TOO_MANY_REQUESTS, "too_many_requests", detail).into_response();
    if let Ok(v) = HeaderValue::from_str(&seconds.to_string()) {
        response.headers_mut().insert(header::RETRY_AFTER, v);
    }
    response
}

/// Checks a challenge and queues it: its id, or the refusal (a response: 429's carries its
/// `Retry-After`).
pub async fn create(
    app: &Arc<App>,
    account: AccountId,
    n: NewChallenge,
) -> Result<ChallengeId, Response> {
    let new = checked(app, account, n)
        .await
        .map_err(IntoResponse::into_response)?;
    let db = Arc::clone(&app.db);
    let limits = Limits {
        per_hour: app.opts.challenges_per_hour,
        queue: app.opts.challenge_queue,
    };
    let made = blocking(move || {
        let now = crate::db::now();
        Ok(db.write(|c| super::create(c, &new, now, limits))?)
    })
    .await
    .map_err(IntoResponse::into_response)?;
    match made {
        Ok(id) => {
            app.bell.ring();
            Ok(id)
        }
        Err(limit) => Err(too_many(limit)),
    }
}

/// A new challenge as the store takes it: the sides found and checked on the hill.
async fn checked(app: &Arc<App>, account: AccountId, n: NewChallenge) -> Result<New, ApiError> {
    if !(1..=MAX_SEEDS).contains(&n.seeds) {
        return Err(invalid("seeds: 1 to 20"));
    }
    let (hill, side) = match (n.program, n.hill, n.name, n.source) {
        (Some(id), None, None, None) => {
            let db = Arc::clone(&app.db);
            let p = blocking(move || Ok(db.read(|c| store::program(c, id))?)).await?;
            let p = p.ok_or_else(|| ApiError::not_found("program"))?;
            if p.account != account {
                return Err(ApiError::new(
                    StatusCode::FORBIDDEN,
                    "forbidden",
                    "a challenge is made with one's own program",
                ));
            }
            let hill = api::hill(app, p.hill_name.clone()).await?;
            (hill, Side::Program(p.id, p.name))
        }
        (None, Some(hill), Some(name), Some(source)) => {
            let hill = api::hill(app, hill).await?;
            api::checked(&name, &source, hill.settings.keywords).await?;
            (hill, Side::Text(name, source))
        }
        _ => {
            return Err(invalid(
                "the challenger is `program` (one's own), or `hill`, `name` and `source` (a text)",
            ));
        }
    };
    let opponent = match (n.opponent, n.shipped) {
        (Some(id), None) => {
            let (db, hill_id) = (Arc::clone(&app.db), hill.id);
            let p = blocking(move || Ok(db.read(|c| store::program(c, id))?)).await?;
            if !p.is_some_and(|p| p.hill == hill_id && p.status == Status::Placed) {
                return Err(ApiError::not_found("program placed on this hill"));
            }
            Opponent::Program(id)
        }
        (None, Some(name)) => {
            if super::shipped_entrant(&name, &hill).is_none() {
                return Err(ApiError::not_found("shipped program for this hill"));
            }
            Opponent::Shipped(name)
        }
        _ => {
            return Err(invalid(
                "the opponent is `opponent` (a program on the hill) or `shipped` (a shipped program's name)",
            ));
        }
    };
    Ok(New {
        account,
        hill: hill.id,
        side,
        opponent,
        seeds: n.seeds,
    })
}

/// A challenge as `caller` sees it: the challenger with its matches, the opponent's author
/// with the tally only.
pub fn view(ch: &Challenge, played: &[Played], caller: Option<AccountId>) -> ChallengeView {
    let challenger = caller == Some(ch.account);
    let count = |s: Score| u32::try_from(played.iter().filter(|m| m.score() == s).count());
    ChallengeView {
        id: ch.id,
        hill: ch.hill_name.clone(),
        challenger: ch.challenger.clone(),
        program: ch.program,
        name: ch.name.clone(),
        opponent: Opposed {
            id: ch.opponent.as_ref().map(|o| o.0),
            name: ch.opponent_name.clone(),
            author: ch.opponent.as_ref().map(|o| o.2.clone()),
            shipped: ch.shipped.is_some(),
        },
        seeds: ch.seeds,
        state: ch.state.clone(),
        created: ch.created,
        role: if challenger { "challenger" } else { "opponent" }.into(),
        played: u32::try_from(played.len()).unwrap_or(u32::MAX),
        wins: count(Score::Win).unwrap_or(0),
        draws: count(Score::Draw).unwrap_or(0),
        losses: count(Score::Loss).unwrap_or(0),
        matches: challenger.then(|| {
            played
                .iter()
                .map(|m| ChallengeMatch {
                    n: m.number(),
                    seed_index: m.seed_index,
                    colour: if m.green { "green" } else { "violet" }.into(),
                    seed: m.seed.to_string(),
                    winner: m.winner.clone(),
                    rounds: m.rounds,
                    reason: m.reason.clone(),
                    result: match m.score() {
                        Score::Win => Outcome::Win,
                        Score::Draw => Outcome::Draw,
                        Score::Loss => Outcome::Loss,
                    },
                })
                .collect()
        }),
    }
}

/// A challenge and its matches, as `caller` sees it.
pub async fn load(
    app: &Arc<App>,
    id: ChallengeId,
    caller: &Caller,
) -> Result<ChallengeView, ApiError> {
    let (db, who) = (Arc::clone(&app.db), caller.account.as_ref().map(|a| a.id));
    blocking(move || {
        let (ch, played) = db
            .read(|c| {
                let Some(ch) = super::challenge(c, id)? else {
                    return Ok(None);
                };
                let played = super::matches(c, id)?;
                Ok(Some((ch, played)))
            })?
            .ok_or_else(|| ApiError::not_found("challenge"))?;
        Ok(view(&ch, &played, who))
    })
    .await
}

/// The caller's challenges, made or met, newest first (at most 100).
pub async fn list(app: &Arc<App>, caller: &Caller) -> Result<Vec<ChallengeView>, ApiError> {
    let (db, who) = (Arc::clone(&app.db), account(caller)?);
    blocking(move || {
        Ok(db.read(|c| {
            let mut out = Vec::new();
            for ch in super::of_account(c, who, 100)? {
                let played = super::matches(c, ch.id)?;
                out.push(view(&ch, &played, Some(who)));
            }
            Ok(out)
        })?)
    })
    .await
}

/// The viewer's document of a challenge's match `n`, for its challenger.
pub async fn replay(
    app: &Arc<App>,
    id: ChallengeId,
    n: u32,
    caller: &Caller,
) -> Result<ViewDoc, ApiError> {
    let (db, who) = (Arc::clone(&app.db), caller.account.as_ref().map(|a| a.id));
    api::heavy(app, move || {
        let loaded = db.read(|c| {
            let Some(ch) = super::challenge(c, id)? else {
                return Ok(None);
            };
            let Some(m) = super::matches(c, id)?.into_iter().find(|m| m.number() == n) else {
                return Ok(None);
            };
            let Some(hill) = store::hill_by_id(c, ch.hill)? else {
                return Ok(None);
            };
            let opponent = match &ch.opponent {
                Some((p, _, _)) => store::program(c, *p)?,
                None => None,
            };
            let entrants = super::entrants(c, &ch, &hill)?;
            Ok(Some((m, hill, opponent, entrants)))
        })?;
        let Some((m, hill, opponent, Some(entrants))) = loaded else {
            return Err(ApiError::not_found("match"));
        };
        // The challenger's own side is theirs; a shipped opponent is public.
        let hidden = [false, opponent.is_some_and(|p| !may_read(&p, who))];
        let game = Game {
            a: 0,
            b: 1,
            swapped: !m.green,
            seed_index: m.seed_index,
        };
        played_again(&hill, entrants, game, m.seed, hidden)
            .ok_or_else(|| ApiError::not_found("match"))
    })
    .await
}

pub async fn post_challenge(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let n: NewChallenge = body(bytes)?;
    let id = match create(&app, account(&caller)?, n).await {
        Ok(id) => id,
        Err(refusal) => return Ok(refusal),
    };
    let view = load(&app, id, &caller).await?;
    Ok((StatusCode::ACCEPTED, Json(view)).into_response())
}

pub async fn get_challenges(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
) -> ApiResult {
    Ok(Json(list(&app, &caller).await?).into_response())
}

pub async fn get_challenge(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    Path(id): Path<ChallengeId>,
) -> ApiResult {
    Ok(Json(load(&app, id, &caller).await?).into_response())
}

pub async fn get_challenge_replay(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    Path((id, n)): Path<(ChallengeId, u32)>,
) -> ApiResult {
    Ok(Json(replay(&app, id, n, &caller).await?).into_response())
}
