//! The API's refusals, each JSON `{error, detail}` with its status, and what every handler
//! shares to reach them: a body parsed from bounded bytes, blocking work off the async
//! threads.

use super::bodies::{Diagnostic, Refusal};
use crate::auth;
use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;

/// An error as the API gives it.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub detail: String,
    pub diagnostics: Option<Vec<Diagnostic>>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, detail: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            detail: detail.into(),
            diagnostics: None,
        }
    }

    pub fn not_found(what: &str) -> ApiError {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("no such {what}"),
        )
    }

    pub fn internal() -> ApiError {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "the server failed; it is logged",
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = Refusal {
            detail: self.detail,
            diagnostics: self.diagnostics,
            error: self.code.to_string(),
        };
        (self.status, Json(body)).into_response()
    }
}

impl From<crate::db::DbError> for ApiError {
    fn from(e: crate::db::DbError) -> ApiError {
        tracing::error!(error = %e, "database");
        ApiError::internal()
    }
}

impl From<auth::CryptoError> for ApiError {
    fn from(e: auth::CryptoError) -> ApiError {
        tracing::error!(error = %e, "crypto");
        ApiError::internal()
    }
}

pub type ApiResult = Result<Response, ApiError>;

/// A JSON body: bounded by the router's body limit, then parsed with every field checked.
pub fn body<T: DeserializeOwned>(bytes: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    let bytes = bytes.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "too_large",
                "the body is too large",
            )
        } else {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "invalid",
                "the body cannot be read",
            )
        }
    })?;
    serde_json::from_slice(&bytes).map_err(|e| {
        // serde's message names the field or the place, never the value.
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid",
            format!(
                "the body is not the JSON expected: {}",
                robots_games::text::escape(&e.to_string())
            ),
        )
    })
}

/// Runs blocking work (the database, argon2, the engine) off the async threads.
pub async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|_| ApiError::internal())?
}
