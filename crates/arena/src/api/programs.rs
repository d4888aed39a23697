//! The API's programs, matches and replays (docs/ARENA.md, "The API"): submissions checked
//! as `robots check` checks them, then queued; a program's text only to whom may read it.

use super::bodies::{Diagnostic, MatchView, Page, Submission, Submitted};
use super::check::{check_program, fits};
use super::error::{ApiError, ApiResult, blocking, body};
use super::hills::hill;
use crate::App;
use crate::auth::Caller;
use crate::db::ids::{AccountId, MatchId, ProgramId};
use crate::replays::Doc;
use crate::store::{self, Refused, Status};
use crate::views::{self, Lookup, match_view, program_view};
use axum::Extension;
use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use robots_games::battle::compare::tournament::hill::is_safe_name;
use robots_games::battle::lang::Keywords;
use std::sync::Arc;

/// Queues a program on a hill for `account`: its id and warnings, or the refusal.
pub async fn submit(
    app: &App,
    account: AccountId,
    hill: &store::Hill,
    s: Submission,
) -> Result<(ProgramId, Vec<Diagnostic>), ApiError> {
    let diagnostics = checked(&s.name, &s.source, hill.settings.keywords).await?;
    let (db, hill_id, limits) = (
        Arc::clone(&app.db),
        hill.id,
        (app.opts.queue, app.opts.per_hour),
    );
    let queued = blocking(move || {
        let now = crate::db::now();
        Ok(db.write(|c| {
            store::submit(
                c,
                (account, hill_id),
                (&s.name, &s.source),
                (now, limits.0, limits.1),
            )
        })?)
    })
    .await?;
    match queued {
        Ok(id) => {
            app.bell.ring();
            Ok((id, diagnostics))
        }
        Err(Refused::Taken) => Err(ApiError::new(
            StatusCode::CONFLICT,
            "conflict",
            "another account has a program of that name on this hill",
        )),
        Err(Refused::Busy) => Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "busy",
            "too many submissions wait for placement; try again later",
        )),
        Err(Refused::TooMany) => Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_requests",
            "this account's submissions for the hour are spent",
        )),
    }
}

/// A program's name and text checked as a submission is (the name, the size, `check`): its
/// warnings, or the refusal (422 with the diagnostics).
pub async fn checked(
    name: &str,
    source: &str,
    keywords: Keywords,
) -> Result<Vec<Diagnostic>, ApiError> {
    if !is_safe_name(name) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid",
            "a program's name is 1 to 64 ASCII letters, digits, `_` and `-`",
        ));
    }
    fits(source)?;
    let source = source.to_string();
    let (ok, diagnostics) = blocking(move || Ok(check_program(&source, keywords))).await?;
    if !ok {
        let mut e = ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_program",
            "the program has errors",
        );
        e.diagnostics = Some(diagnostics);
        return Err(e);
    }
    Ok(diagnostics)
}

pub async fn post_program(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    Path(name): Path<String>,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let s: Submission = body(bytes)?;
    let hill = hill(&app, name).await?;
    let account = caller
        .account
        .as_ref()
        .map(|a| a.id)
        .ok_or_else(ApiError::internal)?;
    let program = s.name.clone();
    let (id, warnings) = submit(&app, account, &hill, s).await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(Submitted {
            hill: hill.name,
            id,
            name: program,
            status: Status::Queued,
            warnings,
        }),
    )
        .into_response())
}

/// A program and its rank (when placed).
pub async fn program(
    app: &Arc<App>,
    id: ProgramId,
) -> Result<(store::Program, Option<usize>), ApiError> {
    let app2 = Arc::clone(app);
    blocking(move || {
        let p = app2
            .db
            .read(|c| store::program(c, id))?
            .ok_or_else(|| ApiError::not_found("program"))?;
        if p.status != Status::Placed {
            return Ok((p, None));
        }
        let Some(hill) = app2.db.read(|c| store::hill_by_id(c, p.hill))? else {
            return Ok((p, None));
        };
        let rows = views::standings_of(&app2.db, &app2.cache, &hill)?;
        let rank = rows.iter().find(|r| r.id == p.id).map(|r| r.rank);
        Ok((p, rank))
    })
    .await
}

pub async fn get_program(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    Path(id): Path<ProgramId>,
) -> ApiResult {
    let (p, rank) = program(&app, id).await?;
    Ok(Json(program_view(&p, rank, caller.account.map(|a| a.id))).into_response())
}

pub async fn delete_program(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    Path(id): Path<ProgramId>,
) -> ApiResult {
    let db = Arc::clone(&app.db);
    blocking(move || Ok(db.write(|c| store::withdraw(c, id))?)).await?;
    get_program(State(app), Extension(caller), Path(id)).await
}

pub async fn publish_program(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    Path(id): Path<ProgramId>,
) -> ApiResult {
    let db = Arc::clone(&app.db);
    blocking(move || Ok(db.write(|c| store::publish(c, id))?)).await?;
    get_program(State(app), Extension(caller), Path(id)).await
}

pub async fn program_matches(
    app: &Arc<App>,
    id: ProgramId,
    limit: u32,
    offset: u32,
) -> Result<Vec<MatchView>, ApiError> {
    let db = Arc::clone(&app.db);
    blocking(move || {
        db.read(|c| store::program(c, id))?
            .ok_or_else(|| ApiError::not_found("program"))?;
        let rows = db.read(|c| store::matches_of(c, id, limit, offset))?;
        Ok(rows.iter().map(|m| match_view(m, Some(id))).collect())
    })
    .await
}

pub async fn get_program_matches(
    State(app): State<Arc<App>>,
    Path(id): Path<ProgramId>,
    page: Result<Query<Page>, axum::extract::rejection::QueryRejection>,
) -> ApiResult {
    let Query(page) = page.map_err(|_| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid",
            "limit and offset are whole numbers",
        )
    })?;
    let limit = page.limit.unwrap_or(100);
    if !(1..=500).contains(&limit) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid",
            "limit: 1 to 500",
        ));
    }
    Ok(Json(program_matches(&app, id, limit, page.offset.unwrap_or(0)).await?).into_response())
}

pub async fn get_match(State(app): State<Arc<App>>, Path(id): Path<MatchId>) -> ApiResult {
    let db = Arc::clone(&app.db);
    let m = blocking(move || {
        db.read(|c| store::match_by_id(c, id))?
            .ok_or_else(|| ApiError::not_found("match"))
    })
    .await?;
    Ok(Json(match_view(&m, None)).into_response())
}

/// The viewer's document of a match, for this caller: a kept one without waiting for the
/// `heavy` permits; one not kept yet played once under them.
pub async fn replay(app: &Arc<App>, id: MatchId, caller: &Caller) -> Result<Doc, ApiError> {
    let (db, who) = (Arc::clone(&app.db), caller.account.as_ref().map(|a| a.id));
    let replays = Arc::clone(&app.replays);
    let (db2, replays2) = (Arc::clone(&db), Arc::clone(&replays));
    let found = blocking(move || Ok(views::replay(&db2, &replays2, id, who)?)).await?;
    let doc = match found {
        Lookup::Found(doc) => Some(doc),
        Lookup::Play(to) => {
            let (db, replays) = (Arc::clone(&db), Arc::clone(&replays));
            heavy(app, move || Ok(views::play_kept(&db, &replays, &to)?)).await?
        }
        Lookup::Missing => None,
    };
    if let Some(doc) = doc {
        return Ok(doc);
    }
    // A match whose side's account was deleted: its text is erased, it cannot be played.
    if blocking(move || Ok(db.read(|c| crate::accounts::store::match_erased(c, id))?)).await? {
        return Err(ApiError::new(
            StatusCode::GONE,
            "gone",
            "a program of this match was deleted with its account: the match cannot be replayed",
        ));
    }
    Err(ApiError::not_found("match"))
}

/// Blocking work that plays a whole match again (a replay): at most four at once.
pub async fn heavy<T: Send + 'static>(
    app: &App,
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let permit = app
        .heavy
        .acquire()
        .await
        .map_err(|_| ApiError::internal())?;
    let out = blocking(f).await;
    drop(permit);
    out
}

pub async fn get_replay(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    Path(id): Path<MatchId>,
    headers: HeaderMap,
) -> ApiResult {
    Ok(replay(&app, id, &caller).await?.response(&headers))
}
