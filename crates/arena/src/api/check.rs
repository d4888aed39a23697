//! A program checked as `robots check` checks it: within [`MAX_SOURCE`], then its errors or
//! its warnings as `robots check --format json` prints them (the API's `check`, every
//! submission, a room's programs).

use super::bodies::{CheckRequest, Checked, Diagnostic};
use super::error::{ApiError, ApiResult, blocking, body};
use super::hills::hill;
use crate::App;
use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use robots_games::battle::files::match_file;
use robots_games::battle::lang::Keywords;
use std::sync::Arc;

/// The longest program text taken, in bytes.
pub const MAX_SOURCE: usize = 64 * 1024;

/// A program's text within [`MAX_SOURCE`], or the refusal.
pub fn fits(source: &str) -> Result<(), ApiError> {
    if source.len() > MAX_SOURCE {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            "a program has at most 64 KiB",
        ));
    }
    Ok(())
}

/// What `check` says of a program on a hill: the program, or the diagnostics as
/// `robots check --format json` prints them; and the warnings.
pub fn check_program(source: &str, keywords: Keywords) -> (bool, Vec<Diagnostic>) {
    let file = "program.robot";
    match match_file::parse_program_file_in(file, source, keywords) {
        Ok(p) => {
            let warnings =
                match_file::program_warnings(file, robots_games::text::strip_bom(source), &p);
            (true, warnings.iter().filter_map(Diagnostic::of).collect())
        }
        Err(d) => (false, Diagnostic::of(&d).into_iter().collect()),
    }
}

pub async fn post_check(
    State(app): State<Arc<App>>,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let b: CheckRequest = body(bytes)?;
    fits(&b.source)?;
    let keywords = match b.hill {
        Some(name) => hill(&app, name).await?.settings.keywords,
        None => Keywords::Plain,
    };
    let (ok, diagnostics) = blocking(move || Ok(check_program(&b.source, keywords))).await?;
    Ok(Json(Checked { diagnostics, ok }).into_response())
}
