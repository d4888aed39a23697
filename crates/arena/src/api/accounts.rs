//! Accounts and their tokens: an account created or signed into (passwords hashed on the
//! hashing threads), a new secret stored hashed, the API's `accounts` and `tokens`.

use super::bodies::{Credentials, NewAccount, Token};
use super::error::{ApiError, ApiResult, blocking, body};
use crate::App;
use crate::auth::{self, Caller};
use crate::db::ids::AccountId;
use crate::store;
use axum::Extension;
use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use std::sync::Arc;

/// Runs password work on the hashing threads (`App::hashing`).
pub async fn hashing<T: Send + 'static>(
    app: &App,
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let (send, receive) = tokio::sync::oneshot::channel();
    app.hashing.spawn(move || {
        let _ = send.send(f());
    });
    receive.await.map_err(|_| ApiError::internal())?
}

/// Creates an account; `Ok(None)` when the name is taken; 409 with words when it was a
/// deleted account's less than its cooling-off period ago.
pub async fn create_account(app: &App, c: Credentials) -> Result<Option<store::Account>, ApiError> {
    if !auth::is_account_name(&c.name) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid",
            "an account's name is 1 to 32 ASCII letters, digits, `_` and `-`",
        ));
    }
    if let Some(problem) = auth::password_problem(&c.password) {
        return Err(ApiError::new(StatusCode::BAD_REQUEST, "invalid", problem));
    }
    let db = Arc::clone(&app.db);
    hashing(app, move || {
        let now = crate::db::now();
        if let Some(free) = db.read(|r| crate::accounts::store::retired_until(r, &c.name, now))? {
            return Err(cooling_off(free, now));
        }
        let hash = auth::hash_password(&c.password)?;
        let id = db.write(|w| store::account_insert(w, &c.name, &hash, now))?;
        Ok(id.map(|id| store::Account {
            id,
            name: c.name,
            admin: false,
        }))
    })
    .await
}

/// The refusal of a sign-up whose name a deleted account held until `free` (seconds).
pub fn cooling_off(free: i64, now: i64) -> ApiError {
    let days = ((free - now).max(1) + 24 * 3600 - 1) / (24 * 3600);
    ApiError::new(
        StatusCode::CONFLICT,
        "conflict",
        format!(
            "that name belonged to an account deleted less than {} days ago: it is free again in {days} day{}",
            crate::accounts::store::COOLING_OFF / (24 * 3600),
            if days == 1 { "" } else { "s" }
        ),
    )
}

/// The account a name and password open, if they do.
pub async fn sign_in(app: &App, c: Credentials) -> Result<Option<store::Account>, ApiError> {
    if c.name.len() > auth::MAX_ACCOUNT_NAME || c.password.len() > auth::MAX_PASSWORD {
        return Ok(None);
    }
    let db = Arc::clone(&app.db);
    hashing(app, move || {
        let found = db.read(|r| store::account_by_name(r, &c.name))?;
        let hash = found.as_ref().map(|(_, h)| h.as_str());
        Ok(auth::check_password(&c.password, hash)
            .then(|| found.map(|(a, _)| a))
            .flatten())
    })
    .await
}

/// A new secret of `kind` for `account`, stored hashed.
pub async fn new_token(
    app: &App,
    account: AccountId,
    kind: &'static str,
    csrf: Option<String>,
) -> Result<String, ApiError> {
    let db = Arc::clone(&app.db);
    blocking(move || {
        let secret = auth::new_secret()?;
        let now = crate::db::now();
        let expires = (kind == "session").then_some(now + auth::SESSION_SECONDS);
        db.write(|w| {
            store::token_insert(
                w,
                account,
                &auth::secret_hash(&secret),
                kind,
                csrf.as_deref(),
                (now, expires),
            )
        })?;
        Ok(secret)
    })
    .await
}

/// A name and password from the body, within the address's allowance of attempts.
fn credentials(
    app: &App,
    caller: &Caller,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<Credentials, ApiError> {
    let c: Credentials = body(bytes)?;
    if !app.limits.auth(caller.ip) {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_requests",
            "too many attempts from this address; wait a minute",
        ));
    }
    Ok(c)
}

pub async fn post_account(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let c = credentials(&app, &caller, bytes)?;
    let name = c.name.clone();
    let Some(account) = create_account(&app, c).await? else {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "conflict",
            "that name is taken",
        ));
    };
    let token = new_token(&app, account.id, "api", None).await?;
    Ok((StatusCode::CREATED, Json(NewAccount { name, token })).into_response())
}

pub async fn post_token(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let c = credentials(&app, &caller, bytes)?;
    let Some(account) = sign_in(&app, c).await? else {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "no account has that name and password",
        ));
    };
    let token = new_token(&app, account.id, "api", None).await?;
    Ok((StatusCode::CREATED, Json(Token { token })).into_response())
}
