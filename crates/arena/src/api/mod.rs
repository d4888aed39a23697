//! The JSON API (docs/ARENA.md, "The API"): accounts and tokens, hills and their standings,
//! submissions with `check`'s diagnostics, programs, matches and replays. Every body is
//! parsed here from bounded bytes, so that every refusal is JSON `{error, detail}`. Programs,
//! matches and replays: `programs.rs`.

use super::App;
use super::auth::{self, Caller};
use super::store;
use super::views::{self, hill_view};
use axum::Extension;
use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use robots_games::battle::files::match_file;
use robots_games::battle::lang::Keywords;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use std::sync::Arc;

mod programs;
pub use programs::{
    Submission, delete_program, get_match, get_program, get_program_matches, get_replay,
    post_program, program, program_matches, publish_program, replay, submit,
};

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

/// An error as the API gives it.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub detail: String,
    pub diagnostics: Option<Vec<Value>>,
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
        let mut body = json!({"error": self.code, "detail": self.detail});
        if let Some(d) = self.diagnostics {
            body["diagnostics"] = Value::Array(d);
        }
        (self.status, Json(body)).into_response()
    }
}

impl From<super::db::DbError> for ApiError {
    fn from(e: super::db::DbError) -> ApiError {
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

/// Runs password work on the hashing threads (`App::hashing`).
async fn hashing<T: Send + 'static>(
    app: &App,
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let (send, receive) = tokio::sync::oneshot::channel();
    app.hashing.spawn(move || {
        let _ = send.send(f());
    });
    receive.await.map_err(|_| ApiError::internal())?
}

pub async fn healthz(State(app): State<Arc<App>>) -> ApiResult {
    let db = Arc::clone(&app.db);
    let queued = blocking(move || Ok(db.read(store::queued)?)).await?;
    Ok(Json(json!({"status": "ok", "queued": queued})).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    pub name: String,
    pub password: String,
}

/// Creates an account; `Ok(None)` when the name is taken.
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
        let hash = auth::hash_password(&c.password)?;
        let id = db.write(|w| store::account_insert(w, &c.name, &hash, super::db::now()))?;
        Ok(id.map(|id| store::Account {
            id,
            name: c.name,
            admin: false,
        }))
    })
    .await
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
    account: i64,
    kind: &'static str,
    csrf: Option<String>,
) -> Result<String, ApiError> {
    let db = Arc::clone(&app.db);
    blocking(move || {
        let secret = auth::new_secret()?;
        let now = super::db::now();
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

fn too_many() -> ApiError {
    ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "too_many_requests",
        "too many attempts from this address; wait a minute",
    )
}

pub async fn post_account(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let c: Credentials = body(bytes)?;
    if !app.limits.auth(caller.ip) {
        return Err(too_many());
    }
    let name = c.name.clone();
    let Some(account) = create_account(&app, c).await? else {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "conflict",
            "that name is taken",
        ));
    };
    let token = new_token(&app, account.id, "api", None).await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({"name": name, "token": token})),
    )
        .into_response())
}

pub async fn post_token(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let c: Credentials = body(bytes)?;
    if !app.limits.auth(caller.ip) {
        return Err(too_many());
    }
    let Some(account) = sign_in(&app, c).await? else {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "no account has that name and password",
        ));
    };
    let token = new_token(&app, account.id, "api", None).await?;
    Ok((StatusCode::CREATED, Json(json!({"token": token}))).into_response())
}

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
) -> Result<Arc<Vec<views::StandingRow>>, ApiError> {
    let (app, hill) = (Arc::clone(app), hill.clone());
    blocking(move || Ok(views::standings_of(&app.db, &app.cache, &hill)?)).await
}

pub async fn get_standings(State(app): State<Arc<App>>, Path(name): Path<String>) -> ApiResult {
    let hill = hill(&app, name).await?;
    Ok(Json(standings(&app, &hill).await?.as_ref().clone()).into_response())
}

/// The hill's settings from the API's JSON (as `robots serve hill create` takes them).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewHill {
    pub name: String,
    pub size: usize,
    pub seeds: [u32; 2],
    pub board: String,
    pub scenario: u8,
    pub robots: u8,
    pub rounds: u32,
    #[serde(default)]
    pub keywords: Option<String>,
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
        super::admin::create_hill(&db, &name, settings, None)
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

/// What `check` says of a program on a hill: the program, or the diagnostics as
/// `robots check --format json` prints them; and the warnings.
pub fn check_program(source: &str, keywords: Keywords) -> (bool, Vec<Value>) {
    let file = "program.robot";
    let as_json = |d: &robots_games::text::diagnostic::Diagnostic| {
        serde_json::from_str::<Value>(&d.json()).unwrap_or(Value::Null)
    };
    match match_file::parse_program_file_in(file, source, keywords) {
        Ok(p) => {
            let warnings =
                match_file::program_warnings(file, robots_games::text::strip_bom(source), &p);
            (true, warnings.iter().map(as_json).collect())
        }
        Err(d) => (false, vec![as_json(&d)]),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckBody {
    pub source: String,
    #[serde(default)]
    pub hill: Option<String>,
}

pub async fn post_check(
    State(app): State<Arc<App>>,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let b: CheckBody = body(bytes)?;
    fits(&b.source)?;
    let keywords = match b.hill {
        Some(name) => hill(&app, name).await?.settings.keywords,
        None => Keywords::Plain,
    };
    let (ok, diagnostics) = blocking(move || Ok(check_program(&b.source, keywords))).await?;
    Ok(Json(json!({"ok": ok, "diagnostics": diagnostics})).into_response())
}
