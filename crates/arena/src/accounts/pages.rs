//! The account page (`/account`) and its forms: a new API token, the tokens listed with
//! their creation and last use (each with its Revoke button), the password changed (the
//! current one asked; this browser's session stays, every other session and token ends),
//! sign out everywhere, and the account deleted (its password asked again). Each form
//! carries the CSRF token, checked before anything is done (`forms::checked`).

use super::store::TokenRow;
use crate::App;
use crate::api::{self, ApiError};
use crate::auth::{self, Caller, SESSION_COOKIE};
use crate::forms::{CsrfForm, checked, session_cookie};
use crate::pages::{api_error, error_page, layout, respond};
use axum::Extension;
use axum::extract::rejection::FormRejection;
use axum::extract::{Form, Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use maud::{Markup, html};
use serde::Deserialize;
use std::sync::Arc;

#[derive(Deserialize)]
pub struct PasswordForm {
    pub password: String,
    pub new_password: String,
    pub csrf: String,
}

#[derive(Deserialize)]
pub struct DeleteForm {
    pub password: String,
    pub csrf: String,
}

/// A time (seconds since 1970) as `YYYY-MM-DD HH:MM UTC`.
pub fn utc(seconds: i64) -> String {
    let (days, rest) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    // Howard Hinnant's days-to-civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC",
        rest / 3600,
        rest % 3600 / 60
    )
}

/// What the page says after a form: a new token, a change done, or an error.
#[derive(Default)]
pub struct Said<'a> {
    pub token: Option<&'a str>,
    pub done: Option<String>,
    pub error: Option<String>,
}

/// The account page.
pub fn account_page(caller: &Caller, tokens: &[TokenRow], said: Said) -> Markup {
    let csrf = html! { input type="hidden" name="csrf" value=(caller.csrf); };
    let body = html! {
        h1 { "Your account" }
        @if let Some(e) = &said.error { p #error { (e) } }
        @if let Some(d) = &said.done { p #done { (d) } }
        h2 { "API tokens" }
        p { "An API token lets a script or " code { "robots arena submit" } " act for you (docs/ARENA.md). It is shown once; keep it secret." }
        @if let Some(t) = said.token { p { "Your new token: " code #token { (t) } } }
        form #new-token method="post" action="/account/tokens" {
            (csrf)
            button type="submit" { "Make a new API token" }
        }
        @if tokens.is_empty() {
            p #no-tokens { "You have no API token." }
        } @else {
            div.scroll {
                table #tokens {
                    tr { th { "token" } th { "made" } th { "last used" } th {} }
                    @for t in tokens {
                        tr data-token=(t.id) {
                            td { "#" (t.id) }
                            td.created { (utc(t.created)) }
                            td.used { @match t.used { Some(u) => (utc(u)), None => "never" } }
                            td {
                                form.revoke method="post" action={ "/account/tokens/" (t.id) "/revoke" } {
                                    (csrf)
                                    button type="submit" { "Revoke" }
                                }
                            }
                        }
                    }
                }
            }
        }
        h2 { "Password" }
        p { "Changing it ends every other session and every API token of the account; this browser stays signed in." }
        form #password method="post" action="/account/password" {
            (csrf)
            label { "current password " input name="password" type="password" required maxlength="128" autocomplete="current-password"; }
            label { "new password " input name="new_password" type="password" required minlength="8" maxlength="128" autocomplete="new-password"; }
            button type="submit" { "Change the password" }
        }
        h2 { "Sign out everywhere" }
        p { "Ends every session of the account (this one too) and every API token." }
        form #signout-everywhere method="post" action="/account/signout-everywhere" {
            (csrf)
            button type="submit" { "Sign out everywhere" }
        }
        h2 { "Delete the account" }
        p {
            "Your programs leave their hills and their texts are erased; their matches stay in their opponents' records, under a deleted account's name, and cannot be replayed. "
            "The rooms you host or sit in end. Your name is free again for anyone after "
            (super::store::COOLING_OFF / 86_400) " days. This cannot be undone."
        }
        form #delete-account method="post" action="/account/delete" {
            (csrf)
            label { "password " input name="password" type="password" required maxlength="128" autocomplete="current-password"; }
            button type="submit" { "Delete the account" }
        }
    };
    layout("Account", caller, body)
}

/// The page for the caller, with what it should say; `status` its code.
async fn page(app: &App, caller: &Caller, status: StatusCode, said: Said<'_>) -> Response {
    let Some(account) = &caller.account else {
        return error_page(StatusCode::UNAUTHORIZED, "sign in first", caller);
    };
    match super::tokens(app, account.id).await {
        Ok(tokens) => respond(status, account_page(caller, &tokens, said)),
        Err(e) => api_error(e, caller),
    }
}

/// An error of a form, shown on the page under its own status (a server error as its page).
async fn refused(app: &App, caller: &Caller, e: ApiError) -> Response {
    if e.status.is_server_error() {
        return api_error(e, caller);
    }
    let said = Said {
        error: Some(e.detail.clone()),
        ..Said::default()
    };
    page(app, caller, e.status, said).await
}

/// A form of the account page once its CSRF token is checked, with the caller's account;
/// else the page saying why.
fn signed_in<T>(
    form: Result<Form<T>, FormRejection>,
    csrf: impl Fn(&T) -> &str,
    caller: &Caller,
) -> Result<(T, &crate::store::Account), Box<Response>> {
    let f = checked(form, csrf, caller)?;
    match &caller.account {
        Some(account) => Ok((f, account)),
        None => Err(Box::new(error_page(
            StatusCode::UNAUTHORIZED,
            "sign in first",
            caller,
        ))),
    }
}

pub async fn account(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
) -> Response {
    page(&app, &caller, StatusCode::OK, Said::default()).await
}

pub async fn new_token(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    form: Result<Form<CsrfForm>, FormRejection>,
) -> Response {
    let account = match signed_in(form, |f| &f.csrf, &caller) {
        Ok((_, account)) => account,
        Err(page) => return *page,
    };
    match api::new_token(&app, account.id, "api", None).await {
        Ok(token) => {
            let said = Said {
                token: Some(&token),
                ..Said::default()
            };
            page(&app, &caller, StatusCode::CREATED, said).await
        }
        Err(e) => api_error(e, &caller),
    }
}

pub async fn revoke(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    Path(id): Path<i64>,
    form: Result<Form<CsrfForm>, FormRejection>,
) -> Response {
    let account = match signed_in(form, |f| &f.csrf, &caller) {
        Ok((_, account)) => account,
        Err(page) => return *page,
    };
    match super::revoke(&app, account.id, id).await {
        Ok(()) => Redirect::to("/account").into_response(),
        Err(e) => refused(&app, &caller, e).await,
    }
}

/// The hash of the caller's session (from its cookie).
fn session_hash(headers: &HeaderMap) -> Option<Vec<u8>> {
    let cookies = headers.get(header::COOKIE)?.to_str().ok()?;
    auth::cookie(cookies, SESSION_COOKIE)
        .filter(|s| auth::looks_like_secret(s))
        .map(auth::secret_hash)
}

pub async fn password(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    headers: HeaderMap,
    form: Result<Form<PasswordForm>, FormRejection>,
) -> Response {
    let (f, account) = match signed_in(form, |f| &f.csrf, &caller) {
        Ok(signed) => signed,
        Err(page) => return *page,
    };
    let keep = session_hash(&headers);
    let changed = super::change_password(
        &app,
        caller.ip,
        account.id,
        (f.password, f.new_password),
        keep,
    )
    .await;
    match changed {
        Ok(ended) => {
            let said = Said {
                done: Some(format!(
                    "Your password is changed; {ended} other session{} and API token{} ended.",
                    if ended == 1 { "" } else { "s" },
                    if ended == 1 { "" } else { "s" }
                )),
                ..Said::default()
            };
            page(&app, &caller, StatusCode::OK, said).await
        }
        Err(e) => refused(&app, &caller, e).await,
    }
}

/// Signed out: the session cookie cleared, on to `to`.
fn signed_out(app: &App, mut response: Response) -> Response {
    if let Some(v) = session_cookie(app, "", 0) {
        response.headers_mut().append(header::SET_COOKIE, v);
    }
    response
}

pub async fn signout_everywhere(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    form: Result<Form<CsrfForm>, FormRejection>,
) -> Response {
    let account = match signed_in(form, |f| &f.csrf, &caller) {
        Ok((_, account)) => account,
        Err(page) => return *page,
    };
    match super::end_all(&app, account.id).await {
        Ok(_) => signed_out(&app, Redirect::to("/").into_response()),
        Err(e) => api_error(e, &caller),
    }
}

pub async fn delete(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    form: Result<Form<DeleteForm>, FormRejection>,
) -> Response {
    let (f, account) = match signed_in(form, |f| &f.csrf, &caller) {
        Ok(signed) => signed,
        Err(page) => return *page,
    };
    match super::delete(&app, caller.ip, account.id, f.password).await {
        Ok(d) => {
            let gone = Caller {
                account: None,
                ..caller.clone()
            };
            let body = html! {
                h1 { "Your account is deleted" }
                p #done {
                    (d.withdrawn) " program" (if d.withdrawn == 1 { "" } else { "s" }) " left " (if d.withdrawn == 1 { "its hill" } else { "their hills" }) "; "
                    "the texts of " (d.erased) " program" (if d.erased == 1 { "" } else { "s" }) " are erased. "
                    "The name " (account.name) " is free again in " (super::store::COOLING_OFF / 86_400) " days."
                }
            };
            let page = respond(StatusCode::OK, layout("Account deleted", &gone, body));
            signed_out(&app, page)
        }
        Err(e) => refused(&app, &caller, e).await,
    }
}
