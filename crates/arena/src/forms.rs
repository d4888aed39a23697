//! The pages' forms: sign up, sign in and out, API tokens, submissions, publishing and
//! withdrawing. Each checks the form's CSRF token against the cookie (constant time) before
//! it does anything; the route's guard has checked who may post it.

use super::App;
use super::api::bodies::{Credentials, Submission};
use super::api::{self, ApiError};
use super::auth::{self, Caller, SESSION_COOKIE};
use super::db::ids::{AccountId, ProgramId};
use super::pages::{api_error, credentials_form, error_page, has_editor, respond, submit_page};
use super::store;
use axum::Extension;
use axum::extract::rejection::FormRejection;
use axum::extract::{Form, Path, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;
use std::sync::Arc;

#[derive(Deserialize)]
pub struct CredentialsForm {
    pub name: String,
    pub password: String,
    pub csrf: String,
}

#[derive(Deserialize)]
pub struct CsrfForm {
    pub csrf: String,
}

#[derive(Deserialize)]
pub struct SubmitForm {
    pub name: String,
    pub source: String,
    pub csrf: String,
}

/// The form, when it parses and carries the caller's CSRF token; else the page saying why.
pub fn checked<T>(
    form: Result<Form<T>, FormRejection>,
    csrf: impl Fn(&T) -> &str,
    caller: &Caller,
) -> Result<T, Box<Response>> {
    let Ok(Form(form)) = form else {
        return Err(Box::new(error_page(
            StatusCode::BAD_REQUEST,
            "The form is not what this page sends.",
            caller,
        )));
    };
    if caller.new_csrf || !auth::same_secret(csrf(&form), &caller.csrf) {
        return Err(Box::new(error_page(
            StatusCode::FORBIDDEN,
            "The form's security token is missing or stale: reload the page and send it again.",
            caller,
        )));
    }
    Ok(form)
}

pub fn session_cookie(app: &App, value: &str, max_age: i64) -> Option<HeaderValue> {
    let secure = if app.opts.secure_cookies {
        "; Secure"
    } else {
        ""
    };
    HeaderValue::from_str(&format!(
        "{SESSION_COOKIE}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age}{secure}"
    ))
    .ok()
}

/// Signed in: a session, its cookie, and on to `to`.
async fn start_session(app: &App, account: AccountId, to: &str) -> Result<Response, ApiError> {
    let secret = api::new_token(app, account, "session", None).await?;
    let mut response = Redirect::to(to).into_response();
    if let Some(v) = session_cookie(app, &secret, auth::SESSION_SECONDS) {
        response.headers_mut().append(header::SET_COOKIE, v);
    }
    Ok(response)
}

/// The name and password of a sign-up or sign-in form (`id`), once its CSRF token and the
/// address's allowance are checked; else the page saying why.
fn credentials(
    app: &App,
    caller: &Caller,
    form: Result<Form<CredentialsForm>, FormRejection>,
    id: &str,
) -> Result<Credentials, Box<Response>> {
    let f = checked(form, |f| &f.csrf, caller)?;
    if !app.limits.auth(caller.ip) {
        let e = "Too many attempts from this address: wait a minute.";
        let page = credentials_form(id, caller, Some(e));
        return Err(Box::new(respond(StatusCode::TOO_MANY_REQUESTS, page)));
    }
    Ok(Credentials {
        name: f.name,
        password: f.password,
    })
}

pub async fn signup(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    form: Result<Form<CredentialsForm>, FormRejection>,
) -> Response {
    let c = match credentials(&app, &caller, form, "signup") {
        Ok(c) => c,
        Err(page) => return *page,
    };
    let refuse = |status, e: &str| respond(status, credentials_form("signup", &caller, Some(e)));
    match api::create_account(&app, c).await {
        Ok(Some(account)) => start_session(&app, account.id, "/")
            .await
            .unwrap_or_else(|e| api_error(e, &caller)),
        Ok(None) => refuse(StatusCode::CONFLICT, "That name is taken."),
        // A name or password refused, or a deleted account's name still cooling off.
        Err(e) if e.status == StatusCode::BAD_REQUEST || e.status == StatusCode::CONFLICT => {
            refuse(e.status, &e.detail)
        }
        Err(e) => api_error(e, &caller),
    }
}

pub async fn signin(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    form: Result<Form<CredentialsForm>, FormRejection>,
) -> Response {
    let c = match credentials(&app, &caller, form, "signin") {
        Ok(c) => c,
        Err(page) => return *page,
    };
    match api::sign_in(&app, c).await {
        Ok(Some(account)) => start_session(&app, account.id, "/")
            .await
            .unwrap_or_else(|e| api_error(e, &caller)),
        Ok(None) => respond(
            StatusCode::UNAUTHORIZED,
            credentials_form(
                "signin",
                &caller,
                Some("No account has that name and password."),
            ),
        ),
        Err(e) => api_error(e, &caller),
    }
}

pub async fn signout(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    headers: axum::http::HeaderMap,
    form: Result<Form<CsrfForm>, FormRejection>,
) -> Response {
    if let Err(page) = checked(form, |f| &f.csrf, &caller) {
        return *page;
    }
    let cookies = headers
        .get(header::COOKIE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if let Some(secret) = auth::cookie(cookies, SESSION_COOKIE) {
        let (db, hash) = (Arc::clone(&app.db), auth::secret_hash(secret));
        if let Err(e) =
            api::blocking(move || Ok(db.write(|c| store::token_delete(c, &hash))?)).await
        {
            return api_error(e, &caller);
        }
    }
    let mut response = Redirect::to("/").into_response();
    if let Some(v) = session_cookie(&app, "", 0) {
        response.headers_mut().append(header::SET_COOKIE, v);
    }
    response
}

pub async fn submit(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    Path(hill): Path<String>,
    form: Result<Form<SubmitForm>, FormRejection>,
) -> Response {
    let f = match checked(form, |f| &f.csrf, &caller) {
        Ok(f) => f,
        Err(page) => return *page,
    };
    let hill = match api::hill(&app, hill).await {
        Ok(h) => h,
        Err(e) => return api_error(e, &caller),
    };
    let Some(account) = &caller.account else {
        return error_page(StatusCode::UNAUTHORIZED, "sign in first", &caller);
    };
    let typed = (f.name.clone(), f.source.clone());
    match api::submit(
        &app,
        account.id,
        &hill,
        Submission {
            name: f.name,
            source: f.source,
        },
    )
    .await
    {
        Ok((id, _)) => Redirect::to(&format!("/programs/{id}")).into_response(),
        Err(e) => {
            let diagnostics = e.diagnostics.clone().unwrap_or_default();
            let error = if diagnostics.is_empty() {
                e.detail.clone()
            } else {
                "The program has errors: see below.".into()
            };
            let challenge = crate::challenges::section::submit_fieldset(&app, &hill).await;
            respond(
                e.status,
                submit_page(
                    &caller,
                    &hill,
                    (&typed.0, &typed.1),
                    Some(&error),
                    &diagnostics,
                    (has_editor(&app), challenge),
                ),
            )
        }
    }
}

/// A program's form (publish, withdraw): `change` done once the CSRF token is checked.
async fn change_program(
    app: &App,
    caller: &Caller,
    id: ProgramId,
    form: Result<Form<CsrfForm>, FormRejection>,
    change: fn(&super::db::sql::Sql, ProgramId) -> super::db::sql::SqlResult<()>,
) -> Response {
    if let Err(page) = checked(form, |f| &f.csrf, caller) {
        return *page;
    }
    let db = Arc::clone(&app.db);
    match api::blocking(move || Ok(db.write(|c| change(c, id))?)).await {
        Ok(()) => Redirect::to(&format!("/programs/{id}")).into_response(),
        Err(e) => api_error(e, caller),
    }
}

pub async fn publish(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    Path(id): Path<ProgramId>,
    form: Result<Form<CsrfForm>, FormRejection>,
) -> Response {
    change_program(&app, &caller, id, form, store::publish).await
}

pub async fn withdraw(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    Path(id): Path<ProgramId>,
    form: Result<Form<CsrfForm>, FormRejection>,
) -> Response {
    change_program(&app, &caller, id, form, store::withdraw).await
}
