//! Every route of the arena, each with the rule that says who may use it: the router is
//! built from this one table, and the route's guard applies the rule before the handler
//! runs. The authorisation matrix test (`tests.rs`) walks the same table.

use super::App;
use super::api::{self, ApiError};
use super::auth::{self, CSRF_COOKIE, Caller, SESSION_COOKIE};
use super::db::ids::ProgramId;
use super::store;
use super::{accounts, challenges, events, forms, front, pages, play, rooms, versions};
use axum::Router;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{MethodRouter, delete, get, post};
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

/// Who may use a route.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    Anyone,
    SignedIn,
    /// The author of the program named by the path's `{id}`.
    Author,
    /// Its author or an administrator.
    AuthorOrAdmin,
    Admin,
    /// The account that made the challenge named by the path's `{id}`.
    Challenger,
    /// Its challenger, or the author of the program it met.
    ChallengeParty,
}

/// How a route authenticates and answers: the API by bearer token, in JSON; pages by the
/// session cookie, in HTML.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Face {
    Api,
    Page,
}

#[derive(Clone, Debug)]
pub struct Route {
    pub method: Method,
    pub path: &'static str,
    pub rule: Rule,
    pub face: Face,
}

type Handler = MethodRouter<Arc<App>>;

fn r(
    method: Method,
    path: &'static str,
    rule: Rule,
    face: Face,
    handler: Handler,
) -> (Route, Handler) {
    (
        Route {
            method,
            path,
            rule,
            face,
        },
        handler,
    )
}

/// The table.
#[rustfmt::skip]
pub fn table() -> Vec<(Route, Handler)> {
    use Face::{Api, Page};
    use Method as M;
    use Rule::{Admin, Anyone, Author, AuthorOrAdmin, ChallengeParty, Challenger, SignedIn};
    use challenges::{api as ch, pages as chp};
    use events::{api as ev, pages as evp};
    vec![
        r(M::GET, "/healthz", Anyone, Api, get(api::healthz)),
        r(M::POST, "/api/v1/accounts", Anyone, Api, post(api::post_account)),
        r(M::POST, "/api/v1/tokens", Anyone, Api, post(api::post_token)),
        r(M::GET, "/api/v1/hills", Anyone, Api, get(api::get_hills)),
        r(M::POST, "/api/v1/hills", Admin, Api, post(api::post_hill)),
        r(M::GET, "/api/v1/hills/{hill}", Anyone, Api, get(api::get_hill)),
        r(M::GET, "/api/v1/hills/{hill}/standings", Anyone, Api, get(api::get_standings)),
        r(M::POST, "/api/v1/hills/{hill}/programs", SignedIn, Api, post(api::post_program)),
        r(M::POST, "/api/v1/check", Anyone, Api, post(api::post_check)),
        r(M::GET, "/api/v1/programs/{id}", Anyone, Api, get(api::get_program)),
        r(M::DELETE, "/api/v1/programs/{id}", AuthorOrAdmin, Api, delete(api::delete_program)),
        r(M::POST, "/api/v1/programs/{id}/publish", Author, Api, post(api::publish_program)),
        r(M::GET, "/api/v1/programs/{id}/matches", Anyone, Api, get(api::get_program_matches)),
        r(M::GET, "/api/v1/matches/{id}", Anyone, Api, get(api::get_match)),
        r(M::GET, "/api/v1/matches/{id}/replay", Anyone, Api, get(api::get_replay)),
        r(M::GET, "/", Anyone, Page, get(front::home)),
        r(M::GET, "/tutorial", Anyone, Page, get(front::tutorial)),
        r(M::GET, "/signup", Anyone, Page, get(pages::signup_form)),
        r(M::POST, "/signup", Anyone, Page, post(forms::signup)),
        r(M::GET, "/signin", Anyone, Page, get(pages::signin_form)),
        r(M::POST, "/signin", Anyone, Page, post(forms::signin)),
        r(M::POST, "/signout", SignedIn, Page, post(forms::signout)),
        r(M::GET, "/account", SignedIn, Page, get(accounts::pages::account)),
        r(M::POST, "/account/tokens", SignedIn, Page, post(accounts::pages::new_token)),
        r(M::POST, "/account/tokens/{token}/revoke", SignedIn, Page, post(accounts::pages::revoke)),
        r(M::POST, "/account/password", SignedIn, Page, post(accounts::pages::password)),
        r(M::POST, "/account/signout-everywhere", SignedIn, Page, post(accounts::pages::signout_everywhere)),
        r(M::POST, "/account/delete", SignedIn, Page, post(accounts::pages::delete)),
        r(M::GET, "/api/v1/tokens", SignedIn, Api, get(accounts::api::get_tokens)),
        r(M::DELETE, "/api/v1/tokens/{token}", SignedIn, Api, delete(accounts::api::delete_token)),
        r(M::POST, "/api/v1/account/password", SignedIn, Api, post(accounts::api::post_password)),
        r(M::POST, "/api/v1/account/signout", SignedIn, Api, post(accounts::api::post_signout)),
        r(M::DELETE, "/api/v1/account", SignedIn, Api, delete(accounts::api::delete_account)),
        r(M::GET, "/hills/{hill}", Anyone, Page, get(pages::hill)),
        r(M::GET, "/hills/{hill}/history.svg", Anyone, Page, get(pages::hill_history)),
        r(M::GET, "/hills/{hill}/submit", SignedIn, Page, get(pages::submit_form)),
        r(M::POST, "/hills/{hill}/submit", SignedIn, Page, post(forms::submit)),
        r(M::GET, "/programs/{id}", Anyone, Page, get(pages::program)),
        r(M::GET, "/programs/{id}/history.svg", Anyone, Page, get(pages::program_history)),
        r(M::POST, "/programs/{id}/publish", Author, Page, post(forms::publish)),
        r(M::POST, "/programs/{id}/withdraw", AuthorOrAdmin, Page, post(forms::withdraw)),
        r(M::GET, "/api/v1/programs/{id}/versions", Anyone, Api, get(versions::api::get_versions)),
        r(M::GET, "/api/v1/programs/{id}/versions/{n}", Author, Api, get(versions::api::get_version)),
        r(M::GET, "/api/v1/programs/{id}/diff", Author, Api, get(versions::api::get_diff)),
        r(M::POST, "/api/v1/programs/{id}/versions/{n}/resubmit", Author, Api, post(versions::api::post_resubmit)),
        r(M::GET, "/programs/{id}/diff", Author, Page, get(versions::pages::diff_page)),
        r(M::POST, "/programs/{id}/versions/{n}/resubmit", Author, Page, post(versions::pages::resubmit_form)),
        r(M::GET, "/matches/{id}", Anyone, Page, get(pages::viewer)),
        r(M::GET, "/rooms", SignedIn, Page, get(rooms::pages::list)),
        r(M::POST, "/rooms", SignedIn, Page, post(rooms::pages::create)),
        r(M::GET, "/rooms/{code}", SignedIn, Page, get(rooms::pages::room)),
        r(M::GET, "/rooms/{code}/ws", SignedIn, Page, get(rooms::ws::socket)),
        r(M::GET, "/rooms/{code}/match.yaml", SignedIn, Page, get(rooms::pages::match_file)),
        r(M::GET, "/static/{file}", Anyone, Page, get(pages::asset)),
        r(M::POST, "/api/v1/challenges", SignedIn, Api, post(ch::post_challenge)),
        r(M::GET, "/api/v1/challenges", SignedIn, Api, get(ch::get_challenges)),
        r(M::GET, "/api/v1/challenges/{id}", ChallengeParty, Api, get(ch::get_challenge)),
        r(M::GET, "/api/v1/challenges/{id}/matches/{n}/replay", Challenger, Api, get(ch::get_challenge_replay)),
        r(M::POST, "/programs/{id}/challenge", Author, Page, post(chp::challenge_program)),
        r(M::POST, "/hills/{hill}/challenge", SignedIn, Page, post(chp::challenge_text)),
        r(M::GET, "/challenges", SignedIn, Page, get(chp::list)),
        r(M::GET, "/challenges/{id}", ChallengeParty, Page, get(chp::challenge)),
        r(M::GET, "/challenges/{id}/matches/{n}", Challenger, Page, get(chp::viewer)),
        r(M::POST, "/api/v1/hills/{hill}/events", Admin, Api, post(ev::post_event)),
        r(M::GET, "/api/v1/hills/{hill}/events", Anyone, Api, get(ev::get_hill_events)),
        r(M::GET, "/api/v1/events/{id}", Anyone, Api, get(ev::get_event)),
        r(M::GET, "/api/v1/events/{id}/matches/{n}/replay", Anyone, Api, get(ev::get_event_replay)),
        r(M::GET, "/hills/{hill}/events", Anyone, Page, get(evp::hill_events)),
        r(M::GET, "/events/{id}", Anyone, Page, get(evp::event)),
        r(M::GET, "/events/{id}/matches/{n}", Anyone, Page, get(evp::viewer)),
        r(M::GET, "/play", Anyone, Page, get(play::to_folder)),
        r(M::GET, "/play/", Anyone, Page, get(play::index)),
        r(M::GET, "/play/{file}", Anyone, Page, get(play::file)),
    ]
}

/// The router: every route of the table behind its guard.
pub fn router(app: Arc<App>) -> Router {
    let mut router = Router::new();
    for (route, handler) in table() {
        let path = route.path;
        let guarded = handler.layer(middleware::from_fn_with_state(
            (Arc::clone(&app), route),
            guard,
        ));
        router = router.route(path, guarded);
    }
    router.fallback(not_found).with_state(app)
}

async fn not_found(req: Request) -> Response {
    if req.uri().path().starts_with("/api/") {
        ApiError::not_found("route").into_response()
    } else {
        pages::error_page(
            StatusCode::NOT_FOUND,
            "There is no such page.",
            &Caller::default(),
        )
    }
}

/// The `{id}` of a program route's path.
fn program_id(path: &str) -> Option<ProgramId> {
    let rest = path.split("/programs/").nth(1)?;
    rest.split('/').next()?.parse().ok()
}

/// The caller: by bearer token for the API, by session cookie for the pages (with the
/// forms' CSRF token, made when missing).
async fn caller(
    app: &Arc<App>,
    headers: &HeaderMap,
    ip: Option<IpAddr>,
    face: Face,
) -> Result<Caller, ApiError> {
    let header_text = |name| {
        headers
            .get(name)
            .and_then(|v: &HeaderValue| v.to_str().ok())
    };
    let cookies = header_text(header::COOKIE).unwrap_or("");
    let (secret, kind) = match face {
        Face::Api => (
            header_text(header::AUTHORIZATION).and_then(|h| h.strip_prefix("Bearer ")),
            "api",
        ),
        Face::Page => (auth::cookie(cookies, SESSION_COOKIE), "session"),
    };
    let account = match secret.filter(|s| auth::looks_like_secret(s)) {
        Some(secret) => {
            let (db, hash) = (Arc::clone(&app.db), auth::secret_hash(secret));
            let read = hash.clone();
            let found = api::blocking(move || {
                Ok(db.read(|c| accounts::store::token_account(c, &read, kind, super::db::now()))?)
            })
            .await?;
            if let Some((_, used)) = &found {
                accounts::touch(app, hash, *used).await;
            }
            found.map(|(a, _)| a)
        }
        None => None,
    };
    let (csrf, new_csrf) =
        match auth::cookie(cookies, CSRF_COOKIE).filter(|s| auth::looks_like_secret(s)) {
            Some(c) => (c.to_string(), false),
            None if face == Face::Page => (auth::new_secret()?, true),
            None => (String::new(), false),
        };
    Ok(Caller {
        account,
        csrf,
        new_csrf,
        ip,
    })
}

/// Why a caller is refused a route, if they are.
async fn refusal(
    app: &Arc<App>,
    rule: Rule,
    caller: &Caller,
    path: &str,
) -> Result<Option<(StatusCode, &'static str)>, ApiError> {
    let Some(account) = &caller.account else {
        return Ok((rule != Rule::Anyone).then_some((StatusCode::UNAUTHORIZED, "sign in first")));
    };
    let owner = match rule {
        Rule::Anyone | Rule::SignedIn => return Ok(None),
        Rule::Admin => {
            return Ok(
                (!account.admin).then_some((StatusCode::FORBIDDEN, "for administrators only"))
            );
        }
        Rule::Author | Rule::AuthorOrAdmin => {
            let Some(id) = program_id(path) else {
                return Ok(Some((StatusCode::NOT_FOUND, "no such program")));
            };
            let db = Arc::clone(&app.db);
            let p = api::blocking(move || Ok(db.read(|c| store::program(c, id))?)).await?;
            let Some(p) = p else {
                return Ok(Some((StatusCode::NOT_FOUND, "no such program")));
            };
            p.account
        }
        Rule::Challenger | Rule::ChallengeParty => {
            let id = path
                .split("/challenges/")
                .nth(1)
                .and_then(|rest| rest.split('/').next()?.parse().ok());
            let db = Arc::clone(&app.db);
            let parties = match id {
                Some(id) => {
                    api::blocking(move || Ok(db.read(|c| challenges::challenge(c, id))?)).await?
                }
                None => None,
            };
            let Some(ch) = parties else {
                return Ok(Some((StatusCode::NOT_FOUND, "no such challenge")));
            };
            let met = ch.opponent.map(|o| o.1);
            let allowed = ch.account == account.id
                || (rule == Rule::ChallengeParty && met == Some(account.id));
            return Ok(
                (!allowed).then_some((StatusCode::FORBIDDEN, "for the challenge's parties only"))
            );
        }
    };
    let allowed = owner == account.id || (rule == Rule::AuthorOrAdmin && account.admin);
    Ok((!allowed).then_some((StatusCode::FORBIDDEN, "for the program's author only")))
}

/// Whether a form post comes from this site: an `Origin` header, when sent, names the host.
fn same_origin(req: &Request) -> bool {
    let Some(origin) = req
        .headers()
        .get(header::ORIGIN)
        .and_then(|v| v.to_str().ok())
    else {
        return true;
    };
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    origin.split_once("://").is_some_and(|(_, h)| h == host)
}

async fn guard(
    State((app, route)): State<(Arc<App>, Route)>,
    mut req: Request,
    next: Next,
) -> Response {
    let head_of_get = route.method == Method::GET && req.method() == Method::HEAD;
    if req.method() != route.method && !head_of_get {
        // Another method on this path: the router answers 405, whoever asks.
        let response = next.run(req).await;
        return if route.face == Face::Api {
            json_errors(response).await
        } else {
            response
        };
    }
    let ip = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    let caller = match caller(&app, req.headers(), ip, route.face).await {
        Ok(c) => c,
        Err(e) => return e.into_response(),
    };
    let refused = match refusal(&app, route.rule, &caller, req.uri().path()).await {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    if route.face == Face::Page && req.method() == Method::POST && !same_origin(&req) {
        return pages::error_page(
            StatusCode::FORBIDDEN,
            "This form was sent from another site.",
            &caller,
        );
    }
    if let Some((status, detail)) = refused {
        return match route.face {
            Face::Api => ApiError::new(
                status,
                if status == StatusCode::UNAUTHORIZED {
                    "unauthorized"
                } else if status == StatusCode::FORBIDDEN {
                    "forbidden"
                } else {
                    "not_found"
                },
                detail,
            )
            .into_response(),
            Face::Page if status == StatusCode::UNAUTHORIZED && req.method() == Method::GET => {
                Redirect::to("/signin").into_response()
            }
            Face::Page => pages::error_page(status, detail, &caller),
        };
    }
    req.extensions_mut().insert(caller.clone());
    let mut response = next.run(req).await;
    if route.face == Face::Api {
        response = json_errors(response).await;
    }
    // A public answer (a static file) is the same for everyone and may be kept by caches:
    // it carries no visitor's cookie.
    let public = response
        .headers()
        .get(header::CACHE_CONTROL)
        .is_some_and(|v| v.as_bytes().starts_with(b"public"));
    if caller.new_csrf && !public {
        let cookie = format!(
            "{CSRF_COOKIE}={}; Path=/; HttpOnly; SameSite=Strict{}",
            caller.csrf,
            if app.opts.secure_cookies {
                "; Secure"
            } else {
                ""
            }
        );
        if let Ok(v) = HeaderValue::from_str(&cookie) {
            response.headers_mut().append(header::SET_COOKIE, v);
        }
    }
    response
}

/// An API error the framework made (a path that does not parse, a method not allowed), in
/// the API's JSON.
async fn json_errors(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if is_json || !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let code = match status {
        StatusCode::NOT_FOUND => "not_found",
        StatusCode::METHOD_NOT_ALLOWED => "method_not_allowed",
        StatusCode::PAYLOAD_TOO_LARGE => "too_large",
        s if s.is_server_error() => "internal",
        _ => "invalid",
    };
    let detail = status
        .canonical_reason()
        .unwrap_or("refused")
        .to_ascii_lowercase();
    ApiError::new(status, code, detail).into_response()
}
