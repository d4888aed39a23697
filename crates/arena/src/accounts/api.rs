//! The API's routes of an account's own controls (docs/ARENA.md, "The API"): its tokens
//! listed and revoked, its password changed, every secret ended, the account deleted. The
//! caller is the account of the bearer token.

use crate::App;
use crate::api::{ApiError, ApiResult, body, new_token};
use crate::auth::Caller;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::response::IntoResponse;
use axum::{Extension, Json};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// `POST /api/v1/account/password`'s body.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    pub password: String,
    pub new_password: String,
}

/// `DELETE /api/v1/account`'s body: the password, asked again.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Password {
    pub password: String,
}

/// The account of the caller (the guard let only signed-in callers through).
fn account(caller: &Caller) -> Result<crate::db::ids::AccountId, ApiError> {
    caller.account.as_ref().map(|a| a.id).ok_or_else(|| {
        ApiError::new(
            axum::http::StatusCode::UNAUTHORIZED,
            "unauthorized",
            "sign in first",
        )
    })
}

/// `GET /api/v1/tokens`: `[{id, created, used}]`, oldest first.
pub async fn get_tokens(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
) -> ApiResult {
    let rows = super::tokens(&app, account(&caller)?).await?;
    Ok(Json(rows).into_response())
}

/// `DELETE /api/v1/tokens/{token}`: revokes one of the caller's tokens.
pub async fn delete_token(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    Path(id): Path<i64>,
) -> ApiResult {
    super::revoke(&app, account(&caller)?, id).await?;
    Ok(Json(serde_json::json!({ "revoked": id })).into_response())
}

/// `POST /api/v1/account/password`: every session and token of the account ends, this one
/// too; the answer carries a new token.
pub async fn post_password(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let id = account(&caller)?;
    let b: PasswordChange = body(bytes)?;
    let ended =
        super::change_password(&app, caller.ip, id, (b.password, b.new_password), None).await?;
    let token = new_token(&app, id, "api", None).await?;
    Ok(Json(serde_json::json!({ "ended": ended, "token": token })).into_response())
}

/// `POST /api/v1/account/signout`: every session and token of the account ends, this one too.
pub async fn post_signout(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
) -> ApiResult {
    let ended = super::end_all(&app, account(&caller)?).await?;
    Ok(Json(serde_json::json!({ "ended": ended })).into_response())
}

/// `DELETE /api/v1/account`: the account deleted, its password asked again.
pub async fn delete_account(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let id = account(&caller)?;
    let b: Password = body(bytes)?;
    let d = super::delete(&app, caller.ip, id, b.password).await?;
    Ok(Json(serde_json::json!({
        "deleted": caller.account.as_ref().map(|a| a.name.clone()),
        "withdrawn": d.withdrawn,
        "erased": d.erased,
        "rooms": d.rooms,
    }))
    .into_response())
}
