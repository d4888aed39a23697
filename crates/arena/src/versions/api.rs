//! The API of versions (docs/ARENA.md, "The API"): a name's versions for anyone (no text),
//! a version's text, a diff between two and "submit this version again" for the author
//! only (the routes' rule; the versions of a name are all its author's).

use crate::App;
use crate::api::bodies::{DiffQuery, DiffView, Submission, Submitted, VersionView};
use crate::api::{self, ApiError, ApiResult, blocking};
use crate::auth::Caller;
use crate::db::ids::ProgramId;
use crate::store::{self, Program, Status};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::{Extension, Json};
use std::sync::Arc;

/// The program `id`, or 404.
pub async fn program(app: &App, id: ProgramId) -> Result<Program, ApiError> {
    let db = Arc::clone(&app.db);
    blocking(move || {
        db.read(|c| store::program(c, id))?
            .ok_or_else(|| ApiError::not_found("program"))
    })
    .await
}

/// The versions of program `id`'s name, newest first.
pub async fn versions(app: &App, id: ProgramId) -> Result<(Program, Vec<VersionView>), ApiError> {
    let p = program(app, id).await?;
    let db = Arc::clone(&app.db);
    blocking(move || {
        let list = db.read(|c| super::list(c, &p))?;
        Ok((p, list))
    })
    .await
}

/// Version `n` of program `id`'s name, whole (its text: for its author only), or 404.
pub async fn version(app: &App, id: ProgramId, n: u32) -> Result<Program, ApiError> {
    let p = program(app, id).await?;
    let db = Arc::clone(&app.db);
    blocking(move || {
        db.read(|c| super::nth_program(c, &p, n))?
            .ok_or_else(|| ApiError::not_found("version"))
    })
    .await
}

/// Versions `from` and `to` of program `id`'s name compared (by default the version before
/// the program's and the program's); at most `heavy` diffs at once with the replays.
pub async fn diff(app: &App, id: ProgramId, q: &DiffQuery) -> Result<DiffView, ApiError> {
    let p = program(app, id).await?;
    let to = q.to.unwrap_or(p.version);
    let from = q.from.unwrap_or(to.saturating_sub(1).max(1));
    let (old, new) = (
        version(app, id, from).await?.source,
        version(app, id, to).await?.source,
    );
    let permit = app
        .heavy
        .acquire()
        .await
        .map_err(|_| ApiError::internal())?;
    let view = blocking(move || Ok(super::diff::compare((from, &old), (to, &new)))).await;
    drop(permit);
    view
}

/// Submits version `n` of program `id`'s name again, for the caller (its author): a new
/// version with its text, checked and queued as any submission.
pub async fn resubmit(
    app: &App,
    caller: &Caller,
    id: ProgramId,
    n: u32,
) -> Result<Submitted, ApiError> {
    let account = caller
        .account
        .as_ref()
        .map(|a| a.id)
        .ok_or_else(ApiError::internal)?;
    let old = version(app, id, n).await?;
    let hill = api::hill(app, old.hill_name.clone()).await?;
    let s = Submission {
        name: old.name.clone(),
        source: old.source,
    };
    let (id, warnings) = api::submit(app, account, &hill, s).await?;
    Ok(Submitted {
        hill: hill.name,
        id,
        name: old.name,
        status: Status::Queued,
        warnings,
    })
}

pub async fn get_versions(State(app): State<Arc<App>>, Path(id): Path<ProgramId>) -> ApiResult {
    Ok(Json(versions(&app, id).await?.1).into_response())
}

pub async fn get_version(
    State(app): State<Arc<App>>,
    Path((id, n)): Path<(ProgramId, u32)>,
) -> ApiResult {
    let p = version(&app, id, n).await?;
    let db = Arc::clone(&app.db);
    let view = blocking(move || Ok(db.read(|c| super::one(c, &p))?)).await?;
    Ok(Json(view).into_response())
}

pub async fn get_diff(
    State(app): State<Arc<App>>,
    Path(id): Path<ProgramId>,
    q: Result<Query<DiffQuery>, QueryRejection>,
) -> ApiResult {
    let Query(q) = q.map_err(|_| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid",
            "from and to are version numbers",
        )
    })?;
    Ok(Json(diff(&app, id, &q).await?).into_response())
}

pub async fn post_resubmit(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    Path((id, n)): Path<(ProgramId, u32)>,
) -> ApiResult {
    let submitted = resubmit(&app, &caller, id, n).await?;
    Ok((StatusCode::ACCEPTED, Json(submitted)).into_response())
}
