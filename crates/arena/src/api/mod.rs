//! The JSON API (docs/ARENA.md, "The API"): accounts and tokens (`accounts.rs`), hills and
//! their standings (`hills.rs`), `check` (`check.rs`), submissions, programs, matches and
//! replays (`programs.rs`; the replays played once and kept, `replays.rs`). Every body is parsed from bounded bytes, so that every refusal
//! is JSON `{error, detail}` (`error.rs`); every body is a type of `bodies.rs`, which the
//! `robots arena` client shares.

use crate::App;
use crate::store;
use axum::Json;
use axum::extract::State;
use axum::response::IntoResponse;
use std::sync::Arc;

mod accounts;
pub mod bodies;
mod check;
mod error;
mod hills;
mod programs;
pub mod replays;

pub use accounts::{create_account, hashing, new_token, post_account, post_token, sign_in};
pub use check::{MAX_SOURCE, check_program, fits, post_check};
pub use error::{ApiError, ApiResult, blocking, body};
pub use hills::{get_hill, get_hills, get_standings, hill, post_hill, standings};
pub use programs::{
    checked, delete_program, get_match, get_program, get_program_matches, get_replay, heavy,
    post_program, program, program_matches, publish_program, replay, submit,
};

pub async fn healthz(State(app): State<Arc<App>>) -> ApiResult {
    let db = Arc::clone(&app.db);
    let queued = blocking(move || Ok(db.read(store::queued)?)).await?;
    let health = bodies::Health {
        queued,
        status: "ok".into(),
    };
    Ok(Json(health).into_response())
}
