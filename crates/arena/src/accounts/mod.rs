//! Accounts their owners control (docs/ARENA.md, "Your account"): the password changed
//! (every other session and every API token ends), the API tokens listed with their creation
//! and last use and revoked one by one, every session and token ended at once, and the
//! account deleted — its programs withdrawn and their texts erased, its rooms ended, its
//! name kept from new accounts for a cooling-off period (`store.rs`). The password is asked
//! again for a change and a deletion, within the address's allowance of attempts. The API's
//! routes are `api.rs`, the account page and its forms `pages.rs`.

pub mod api;
#[cfg(test)]
pub(crate) mod fixtures;
pub mod pages;
#[cfg(test)]
pub(crate) mod query_tests;
pub mod store;
#[cfg(test)]
mod tests;

use crate::App;
use crate::api::{ApiError, blocking, hashing};
use crate::auth;
use crate::db::ids::AccountId;
use axum::http::StatusCode;
use std::net::IpAddr;
use std::sync::Arc;

/// Refused: the password given is not the account's.
fn wrong_password() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        "forbidden",
        "that is not the account's password",
    )
}

/// Checks `password` against the account's, within the address's allowance of attempts
/// (the same as sign-ins'): an error saying why when it does not open it.
async fn confirm(
    app: &App,
    ip: Option<IpAddr>,
    account: AccountId,
    password: String,
) -> Result<(), ApiError> {
    if !app.limits.auth(ip) {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_requests",
            "too many attempts from this address; wait a minute",
        ));
    }
    if password.len() > auth::MAX_PASSWORD {
        return Err(wrong_password());
    }
    let db = Arc::clone(&app.db);
    let ok = hashing(app, move || {
        let hash = db.read(|c| store::password(c, account))?;
        Ok(auth::check_password(&password, hash.as_deref()))
    })
    .await?;
    if ok { Ok(()) } else { Err(wrong_password()) }
}

/// Changes the password once the current one is confirmed: every session and token of the
/// account ends but `keep` (the hash of the session that asked). Returns how many ended.
pub async fn change_password(
    app: &App,
    ip: Option<IpAddr>,
    account: AccountId,
    (current, new): (String, String),
    keep: Option<Vec<u8>>,
) -> Result<usize, ApiError> {
    if let Some(problem) = auth::password_problem(&new) {
        return Err(ApiError::new(StatusCode::BAD_REQUEST, "invalid", problem));
    }
    confirm(app, ip, account, current).await?;
    let db = Arc::clone(&app.db);
    hashing(app, move || {
        let hash = auth::hash_password(&new)?;
        Ok(db.write(|c| store::set_password(c, account, &hash, keep.as_deref()))?)
    })
    .await
}

/// Deletes the account once its password is confirmed (`store::delete`).
pub async fn delete(
    app: &App,
    ip: Option<IpAddr>,
    account: AccountId,
    password: String,
) -> Result<store::Deleted, ApiError> {
    confirm(app, ip, account, password).await?;
    let db = Arc::clone(&app.db);
    let deleted = blocking(move || Ok(db.write(|c| store::delete(c, account, crate::db::now()))?))
        .await?
        .ok_or_else(|| ApiError::not_found("account"))?;
    app.bell.ring();
    tracing::info!(
        account = account.get(),
        withdrawn = deleted.withdrawn,
        erased = deleted.erased,
        rooms = deleted.rooms,
        "account deleted"
    );
    Ok(deleted)
}

/// Ends every session and token of the account; returns how many.
pub async fn end_all(app: &App, account: AccountId) -> Result<usize, ApiError> {
    let db = Arc::clone(&app.db);
    blocking(move || Ok(db.write(|c| store::end_secrets(c, account, None))?)).await
}

/// The account's API tokens.
pub async fn tokens(app: &App, account: AccountId) -> Result<Vec<store::TokenRow>, ApiError> {
    let db = Arc::clone(&app.db);
    blocking(move || Ok(db.read(|c| store::tokens(c, account))?)).await
}

/// Revokes one of the account's API tokens: 404 when it has none of that id.
pub async fn revoke(app: &App, account: AccountId, id: i64) -> Result<(), ApiError> {
    let db = Arc::clone(&app.db);
    let done = blocking(move || Ok(db.write(|c| store::revoke(c, account, id))?)).await?;
    if done {
        Ok(())
    } else {
        Err(ApiError::not_found("token of this account"))
    }
}

/// Records a token's use when its last recorded use is a minute old or more (one write a
/// minute a token, whatever the rate of its requests).
pub async fn touch(app: &App, hash: Vec<u8>, used: Option<i64>) {
    let now = crate::db::now();
    if !store::stale(used, now) {
        return;
    }
    let db = Arc::clone(&app.db);
    if let Err(e) = blocking(move || Ok(db.write(|c| store::touch(c, &hash, now))?)).await {
        tracing::warn!(status = %e.status, "a token's last use cannot be recorded");
    }
}
