//! Hills and their standings: listed, shown, created by an administrator.

use super::bodies::{NewHill, StandingRow};
use super::error::{ApiError, ApiResult, blocking, body};
use crate::App;
use crate::store;
use crate::views::{self, hill_view};
use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use robots_games::battle::lang::Keywords;
use std::sync::Arc;

pub async fn hill(app: &App, name: String) -> Result<store::Hill, ApiError> {
    let db = Arc::clone(&app.db);
    blocking(move || {
        db.read(|c| store::hill_by_name(c, &name))?
            .ok_or_else(|| ApiError::not_found("hill"))
    })
    .await
}

pub async fn get_hills(State(app): State<Arc<App>>) -> ApiResult {
    let db = Arc::clone(&app.db);
    let hills = blocking(move || Ok(db.read(store::hills)?)).await?;
    Ok(Json(hills.iter().map(hill_view).collect::<Vec<_>>()).into_response())
}

pub async fn get_hill(State(app): State<Arc<App>>, Path(name): Path<String>) -> ApiResult {
    Ok(Json(hill_view(&hill(&app, name).await?)).into_response())
}

pub async fn standings(
    app: &Arc<App>,
    hill: &store::Hill,
) -> Result<Arc<Vec<StandingRow>>, ApiError> {
    let (app, hill) = (Arc::clone(app), hill.clone());
    blocking(move || Ok(views::standings_of(&app.db, &app.cache, &hill)?)).await
}

pub async fn get_standings(State(app): State<Arc<App>>, Path(name): Path<String>) -> ApiResult {
    let hill = hill(&app, name).await?;
    let rows = standings(&app, &hill).await?;
    Ok(Json(rows.as_slice()).into_response())
}

pub async fn post_hill(
    State(app): State<Arc<App>>,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let h: NewHill = body(bytes)?;
    let keywords = match h.keywords.as_deref() {
        None => Keywords::Plain,
        Some(k) => Keywords::parse(k).ok_or_else(|| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "invalid",
                "keywords: plain or ti57",
            )
        })?,
    };
    let settings = robots_games::battle::compare::tournament::hill_file::HillSettings {
        size: h.size,
        seeds: h.seeds,
        board: h.board,
        scenario: h.scenario,
        robots: h.robots,
        rounds: h.rounds,
        keywords,
    };
    let db = Arc::clone(&app.db);
    let name = h.name;
    let created = blocking(move || {
        crate::admin::create_hill(&db, &name, settings, None)
            .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, "invalid", e.to_string()))
    })
    .await?;
    let Some(hill) = created else {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "conflict",
            "a hill has that name",
        ));
    };
    Ok((StatusCode::CREATED, Json(hill_view(&hill))).into_response())
}
