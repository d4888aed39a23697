//! What the accounts' tests share, and the authorisation matrix's requests (`crate::tests`)
//! for the routes that end secrets or accounts, or revoke a token: each on a fresh account
//! of its own, so that the accounts the matrix walks with keep their secrets.

use super::store;
use crate::db::ids::AccountId;
use crate::routes::{Face, Route};
use crate::{App, auth};
use axum::body::Body;
use axum::http::{Method, Request, header};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

pub(crate) const CSRF: &str = "5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed";
pub(crate) const MARK: &str = "erase-me-4b1d";
static FRESH: AtomicUsize = AtomicUsize::new(0);

pub(crate) fn fresh(prefix: &str) -> String {
    format!("{prefix}{}", FRESH.fetch_add(1, Ordering::Relaxed))
}

/// A fresh account whose password is `password-fresh` (hashed once for all of them).
fn fresh_account(app: &App) -> AccountId {
    static HASH: OnceLock<String> = OnceLock::new();
    let hash = HASH.get_or_init(|| auth::hash_password("password-fresh").unwrap());
    let name = fresh("fresh");
    app.db
        .write(|c| crate::store::account_insert(c, &name, hash, 0))
        .unwrap()
        .unwrap()
}

/// A new secret of `kind` (`session` or `api`) for `account`, stored as the server stores it.
pub(crate) fn secret(app: &App, account: AccountId, kind: &str) -> String {
    let secret = auth::new_secret().unwrap();
    let hash = auth::secret_hash(&secret);
    app.db
        .write(|c| crate::store::token_insert(c, account, &hash, kind, None, (1, None)))
        .unwrap();
    secret
}

/// The matrix's request of the routes that end secrets or accounts, or revoke a token: as
/// a fresh account (signed in) or a stranger, so that the accounts the matrix walks with
/// keep their secrets. `None` for every other route.
pub(crate) fn matrix_request(app: &App, route: &Route, signed_in: bool) -> Option<Request<Body>> {
    let body = match (&route.method, route.path) {
        (&Method::POST, "/account/password") => {
            "password=password-fresh&new_password=password-new&"
        }
        (&Method::POST, "/account/delete") => "password=password-fresh&",
        (&Method::POST, "/account/signout-everywhere" | "/account/tokens/{token}/revoke") => "",
        (&Method::POST, "/api/v1/account/password") => {
            r#"{"password": "password-fresh", "new_password": "password-new"}"#
        }
        (&Method::DELETE, "/api/v1/account") => r#"{"password": "password-fresh"}"#,
        (&Method::POST, "/api/v1/account/signout")
        | (&Method::DELETE, "/api/v1/tokens/{token}") => "",
        _ => return None,
    };
    let account = fresh_account(app);
    let token = secret(app, account, "api");
    let id: i64 = app
        .db
        .read(|c| store::tokens(c, account))
        .unwrap()
        .last()
        .unwrap()
        .id;
    let uri = route.path.replace("{token}", &id.to_string());
    let mut b = Request::builder().method(route.method.clone()).uri(uri);
    let body = match route.face {
        Face::Api => {
            if signed_in {
                b = b.header(header::AUTHORIZATION, format!("Bearer {token}"));
            }
            b = b.header(header::CONTENT_TYPE, "application/json");
            body.to_string()
        }
        Face::Page => {
            let cookie = if signed_in {
                let session = secret(app, account, "session");
                format!("robots_session={session}; robots_csrf={CSRF}")
            } else {
                format!("robots_csrf={CSRF}")
            };
            b = b
                .header(header::COOKIE, cookie)
                .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
            format!("{body}csrf={CSRF}")
        }
    };
    Some(b.body(Body::from(body)).unwrap())
}

pub(crate) fn hunter() -> String {
    format!(
        "# {MARK}\n{}",
        robots_games::battle::files::shipped::program("hunter").unwrap()
    )
}
