//! The events' API (docs/ARENA.md, "Events"): an administrator schedules one on a hill;
//! anyone reads a hill's events, an event (its programs, its table, every match) and a
//! match's replay, whose steps and tests of a program are shown only to whoever may read its
//! text (its author, or anyone once it is published), as the hill's replays are.

use super::{Detail, ScheduleError};
use crate::App;
use crate::api::bodies::{EventView, NewEvent};
use crate::api::{self, ApiError, ApiResult, blocking, body};
use crate::auth::Caller;
use crate::db::ids::EventId;
use crate::store;
use crate::views::{may_read, played_again};
use crate::worker::tournament::entrant;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::{Extension, Json};
use robots_games::battle::compare::tournament::Game;
use robots_games::battle::show::view::ViewDoc;
use std::sync::Arc;

/// An event and, with `Detail::Full`, its table and matches.
pub async fn load(app: &Arc<App>, id: EventId, detail: Detail) -> Result<EventView, ApiError> {
    let db = Arc::clone(&app.db);
    blocking(move || {
        let found = db.read(|c| match super::event(c, id)? {
            Some(e) => super::view(c, &e, detail).map(Some),
            None => Ok(None),
        })?;
        found.ok_or_else(|| ApiError::not_found("event"))
    })
    .await
}

/// A hill's events, newest first (their programs and progress).
pub async fn of_hill(app: &Arc<App>, hill: String) -> Result<Vec<EventView>, ApiError> {
    let hill = api::hill(app, hill).await?;
    let db = Arc::clone(&app.db);
    blocking(move || {
        Ok(db.read(|c| {
            super::of_hill(c, hill.id)?
                .iter()
                .map(|e| super::view(c, e, Detail::Summary))
                .collect()
        })?)
    })
    .await
}

/// The viewer's document of an event's match `n`: a program's steps and tests only for
/// whoever may read its text.
pub async fn replay(
    app: &Arc<App>,
    id: EventId,
    n: u32,
    caller: &Caller,
) -> Result<ViewDoc, ApiError> {
    let (db, who) = (Arc::clone(&app.db), caller.account.as_ref().map(|a| a.id));
    api::heavy(app, move || {
        let loaded = db.read(|c| {
            let (Some(m), Some(e)) = (super::one_match(c, id, n)?, super::event(c, id)?) else {
                return Ok(None);
            };
            let (Some(hill), Some(g), Some(v)) = (
                store::hill_by_id(c, e.hill)?,
                store::program(c, m.green)?,
                store::program(c, m.violet)?,
            ) else {
                return Ok(None);
            };
            Ok(Some((m, hill, g, v)))
        })?;
        let Some((m, hill, green, violet)) = loaded else {
            return Err(ApiError::not_found("match"));
        };
        let (Some(ge), Some(ve)) = (entrant(&green, &hill), entrant(&violet, &hill)) else {
            return Err(ApiError::new(
                StatusCode::GONE,
                "gone",
                "a program of this match was deleted with its account: the match cannot be replayed",
            ));
        };
        let game = Game {
            a: 0,
            b: 1,
            swapped: false,
            seed_index: m.seed_index,
        };
        let hidden = [!may_read(&green, who), !may_read(&violet, who)];
        played_again(&hill, [ge, ve], game, m.seed, hidden)
            .ok_or_else(|| ApiError::not_found("match"))
    })
    .await
}

pub async fn post_event(
    State(app): State<Arc<App>>,
    Path(hill): Path<String>,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let n: NewEvent = body(bytes)?;
    let db = Arc::clone(&app.db);
    let made = blocking(move || {
        super::schedule_on(&db, &hill, &n.at, (n.top, n.seeds)).map_err(|e| match e {
            ScheduleError::NoHill(_) => ApiError::not_found("hill"),
            ScheduleError::Refused(r) => {
                ApiError::new(StatusCode::BAD_REQUEST, "invalid", r.to_string())
            }
            ScheduleError::Db(e) => e.into(),
        })
    })
    .await?;
    app.bell.ring();
    let view = load(&app, made.id, Detail::Summary).await?;
    Ok((StatusCode::CREATED, Json(view)).into_response())
}

pub async fn get_event(State(app): State<Arc<App>>, Path(id): Path<EventId>) -> ApiResult {
    Ok(Json(load(&app, id, Detail::Full).await?).into_response())
}

pub async fn get_hill_events(State(app): State<Arc<App>>, Path(hill): Path<String>) -> ApiResult {
    Ok(Json(of_hill(&app, hill).await?).into_response())
}

pub async fn get_event_replay(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    Path((id, n)): Path<(EventId, u32)>,
) -> ApiResult {
    Ok(Json(replay(&app, id, n, &caller).await?).into_response())
}
