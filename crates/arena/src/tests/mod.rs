//! The arena in-process (no network): the authorisation matrix over every route of the
//! table, the secrecy of program texts, CSRF, and hostile JSON.

use super::api::bodies::Credentials;
use super::db::ids::{AccountId, ChallengeId, EventId, MatchId, ProgramId};
use super::routes::{Face, Route, Rule, table};
use super::{App, Config, auth, db::Db, service, store, worker};
use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Method, Request, StatusCode, header};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use tower::ServiceExt;

pub(super) const SECRET_MARK: &str = "secret-mark-7f3a";
static FRESH: AtomicUsize = AtomicUsize::new(0);

fn fresh(prefix: &str) -> String {
    format!("{prefix}{}", FRESH.fetch_add(1, Ordering::Relaxed))
}

pub(super) fn hunter() -> String {
    format!(
        "# {SECRET_MARK} <script>alert(1)</script>\n{}",
        robots_games::battle::files::shipped::program("hunter").unwrap()
    )
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Role {
    Anonymous,
    Other,
    Owner,
    Admin,
}

const ROLES: [Role; 4] = [Role::Anonymous, Role::Other, Role::Owner, Role::Admin];

/// An arena with a hill `h`, accounts `alice` (the owner of program `program`), `bob` (who
/// owns `other`) and `carol` (an administrator), every program placed.
pub(super) struct World {
    pub(super) app: Arc<App>,
    pub(super) router: Router,
    dir: PathBuf,
    pub(super) ids: [AccountId; 3],
    pub(super) program: ProgramId,
    pub(super) other: ProgramId,
    game: MatchId,
    /// A challenge of alice's program against bob's, played.
    pub(super) challenge: ChallengeId,
    /// An event of the hill's programs over one seed, played.
    pub(super) event: EventId,
}

impl Drop for World {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The settings of a test's arena on the database `db`: `robots serve`'s defaults with
/// limits no test reaches.
pub(super) fn test_config(db: PathBuf) -> Config {
    Config {
        db: super::db::Target::File(db),
        listen: std::net::SocketAddr::from(([127, 0, 0, 1], 8080)),
        demo: false,
        workers: None,
        lease: std::time::Duration::from_secs(10),
        queue: 100,
        submissions_per_hour: 100_000,
        challenges_per_hour: 100_000,
        challenge_queue: 100_000,
        auth_per_minute: 100_000,
        secure_cookies: false,
        tls: None,
        head_timeout: std::time::Duration::from_secs(10),
        request_timeout: std::time::Duration::from_secs(30),
        shutdown_deadline: std::time::Duration::from_secs(10),
        play: None,
    }
}

/// A small hill's settings: five programs on the duel board, one robot a side, seeds 1 to
/// `last`, `rounds` rounds.
pub(super) fn duel_hill(
    last: u32,
    rounds: u32,
) -> robots_games::battle::compare::tournament::hill_file::HillSettings {
    robots_games::battle::compare::tournament::hill_file::HillSettings {
        size: 5,
        seeds: [1, last],
        board: "duel".into(),
        scenario: 1,
        robots: 1,
        rounds,
        keywords: robots_games::battle::lang::Keywords::Plain,
    }
}

/// A test's arena on `db` (`test_config`'s settings), and the settings of a small hill:
/// duel, one robot a side, 2 seeds, 100 rounds.
pub(super) fn test_app(
    db: &Arc<Db>,
) -> (
    Arc<App>,
    robots_games::battle::compare::tournament::hill_file::HillSettings,
) {
    let run = test_config(std::env::temp_dir().join("unused.sqlite"));
    let app = Arc::new(App::new(
        Arc::clone(db),
        &run,
        Arc::new(worker::Bell::default()),
        Arc::default(),
    ));
    (app, duel_hill(2, 100))
}

pub(super) async fn world() -> World {
    let dir = std::env::temp_dir().join(fresh(&format!("robots-arena-{}-", std::process::id())));
    std::fs::create_dir_all(&dir).unwrap();
    let db = Arc::new(Db::open(&dir.join("a.sqlite")).unwrap());
    let (app, settings) = test_app(&db);
    let hill = super::admin::create_hill(&db, "h", settings, None)
        .unwrap()
        .unwrap();
    let mut ids = [AccountId(0); 3];
    for (i, name) in ["alice", "bob", "carol"].into_iter().enumerate() {
        let c = Credentials {
            name: name.into(),
            password: format!("password-{name}"),
        };
        ids[i] = super::api::create_account(&app, c)
            .await
            .unwrap()
            .unwrap()
            .id;
    }
    db.write(|c| store::set_admin(c, "carol")).unwrap();
    let submit = |account, name: &str, source: &str| {
        db.write(|c| store::submit(c, (account, hill.id), (name, source), (0, 100, 100)))
            .unwrap()
            .unwrap()
    };
    let program = submit(ids[0], "secret_one", &hunter());
    let other = submit(
        ids[1],
        "turret_b",
        robots_games::battle::files::shipped::program("turret").unwrap(),
    );
    let challenge = crate::worker::challenge::queue_one(
        &db,
        (ids[0], hill.id),
        crate::challenges::Side::Program(program, "secret_one".into()),
        crate::challenges::Opponent::Program(other),
    );
    worker::drain(&db).unwrap();
    let event = crate::events::schedule_on(&db, "h", "now", (None, 1))
        .unwrap()
        .id;
    worker::drain(&db).unwrap();
    let game = db.read(|c| store::matches_of(c, program, 1, 0)).unwrap()[0].id;
    let room = crate::rooms::tests::game_settings("battle", "duel", (50, 4.0, 60));
    let seats = ["green", "violet"];
    db.write(|c| super::rooms::store::insert(c, (ROOM, ids[0]), &room, &seats, (1, 0)))
        .unwrap();
    World {
        router: service(Arc::clone(&app)),
        app,
        dir,
        ids,
        program,
        other,
        game,
        challenge,
        event,
    }
}

/// A session cookie and an API token of `role`, made directly in the database.
pub(super) fn credentials(w: &World, role: Role) -> Option<(String, String)> {
    let account = match role {
        Role::Anonymous => return None,
        Role::Owner => w.ids[0],
        Role::Other => w.ids[1],
        Role::Admin => w.ids[2],
    };
    let mut out = Vec::new();
    for kind in ["session", "api"] {
        let secret = auth::new_secret().unwrap();
        let hash = auth::secret_hash(&secret);
        w.app
            .db
            .write(|c| store::token_insert(c, account, &hash, kind, None, (0, None)))
            .unwrap();
        out.push(secret);
    }
    Some((out[0].clone(), out[1].clone()))
}

/// The room of the world (alice hosts it).
const ROOM: &str = "0123456789abcdef0123456789abcdef";

const CSRF: &str = "c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00";

/// The world's address for a route's `path`: its placeholders filled with the world's
/// challenge, match, program, room and hill.
fn uri_of(w: &World, path: &str) -> String {
    let id = if path.contains("/events/") {
        w.event.to_string()
    } else if path.contains("/challenges/") {
        w.challenge.to_string()
    } else if path.contains("/matches/") {
        w.game.to_string()
    } else {
        w.program.to_string()
    };
    path.replace("{code}", ROOM)
        .replace("{hill}", "h")
        .replace("{id}", &id)
        .replace("{n}", "1")
        .replace("{file}", "arena.js")
}

/// A valid request of `route`, as `role`.
pub(super) fn request(w: &World, route: &Route, role: Role) -> Request<Body> {
    if let Some(req) =
        crate::accounts::fixtures::matrix_request(&w.app, route, role != Role::Anonymous)
    {
        return req;
    }
    let uri = uri_of(w, route.path);
    let form = |fields: &str| {
        format!(
            "{fields}{}csrf={CSRF}",
            if fields.is_empty() { "" } else { "&" }
        )
    };
    let enc = |s: &str| s.bytes().map(|b| format!("%{b:02X}")).collect::<String>();
    let challenge = challenge_body(w, route.path, &enc);
    let body: Option<String> = match (&route.method, route.path) {
        (&Method::POST, _) if challenge.is_some() => challenge,
        (&Method::POST, "/api/v1/accounts") => Some(format!(
            r#"{{"name": "{}", "password": "password1"}}"#,
            fresh("acct")
        )),
        (&Method::POST, "/api/v1/tokens") => {
            Some(r#"{"name": "alice", "password": "password-alice"}"#.into())
        }
        (&Method::POST, "/api/v1/hills") => Some(format!(
            r#"{{"name": "{}", "size": 5, "seeds": [1, 2], "board": "duel", "scenario": 1, "robots": 1, "rounds": 100}}"#,
            fresh("hill")
        )),
        (&Method::POST, "/api/v1/hills/{hill}/events") => {
            Some(r#"{"at": "now", "top": 2, "seeds": 1}"#.into())
        }
        (&Method::POST, "/api/v1/hills/{hill}/programs") => {
            Some(serde_json::json!({"name": fresh("p"), "source": hunter()}).to_string())
        }
        (&Method::POST, "/api/v1/check") => {
            Some(serde_json::json!({"source": hunter()}).to_string())
        }
        (&Method::POST, "/signup") => {
            Some(form(&format!("name={}&password=password1", fresh("acct"))))
        }
        (&Method::POST, "/signin") => Some(form("name=alice&password=password-alice")),
        (&Method::POST, "/hills/{hill}/submit") => Some(form(&format!(
            "name={}&source={}",
            fresh("p"),
            enc(&hunter())
        ))),
        (&Method::POST, "/rooms") => Some(form(
            "board=duel&scenario=1&robots=1&rounds=50&pace=4&timeout=60&spectators=on",
        )),
        (&Method::POST, _) if route.face == Face::Page => Some(form("")),
        (
            &Method::POST,
            "/api/v1/programs/{id}/publish" | "/api/v1/programs/{id}/versions/{n}/resubmit",
        ) => Some(String::new()),
        (&Method::GET | &Method::DELETE, _) => None,
        (m, p) => panic!("no request for the route {m} {p}: add one to the matrix"),
    };
    let mut b = Request::builder().method(route.method.clone()).uri(uri);
    if let Some((session, token)) = credentials(w, role) {
        b = match route.face {
            Face::Api => b.header(header::AUTHORIZATION, format!("Bearer {token}")),
            Face::Page => b.header(
                header::COOKIE,
                format!("robots_session={session}; robots_csrf={CSRF}"),
            ),
        };
    } else if route.face == Face::Page {
        b = b.header(header::COOKIE, format!("robots_csrf={CSRF}"));
    }
    let kind = if route.face == Face::Api {
        "application/json"
    } else {
        "application/x-www-form-urlencoded"
    };
    b.header(header::CONTENT_TYPE, kind)
        .body(body.map_or_else(Body::empty, Body::from))
        .unwrap()
}

/// The body of a POST that makes a challenge (the matrix's), if `path` is one.
fn challenge_body(w: &World, path: &str, enc: &dyn Fn(&str) -> String) -> Option<String> {
    let fields = match path {
        "/api/v1/challenges" => {
            let body = serde_json::json!({"hill": "h", "name": fresh("c"), "source": hunter(), "shipped": "turret", "seeds": 1});
            return Some(body.to_string());
        }
        "/programs/{id}/challenge" => format!("opponent=program:{}&seeds=1", w.other),
        "/hills/{hill}/challenge" => format!(
            "name={}&source={}&opponent=shipped:turret&seeds=1",
            fresh("c"),
            enc(&hunter())
        ),
        _ => return None,
    };
    Some(format!("{fields}&csrf={CSRF}"))
}

pub(super) async fn send(router: &Router, req: Request<Body>) -> (StatusCode, HeaderMap, String) {
    let response = router.clone().oneshot(req).await.unwrap();
    let (parts, body) = response.into_parts();
    let bytes = axum::body::to_bytes(body, 16 << 20).await.unwrap();
    (
        parts.status,
        parts.headers,
        String::from_utf8_lossy(&bytes).into_owned(),
    )
}

fn allowed(rule: Rule, role: Role) -> bool {
    match rule {
        Rule::Anyone => true,
        Rule::SignedIn => role != Role::Anonymous,
        Rule::Author => role == Role::Owner,
        Rule::AuthorOrAdmin => matches!(role, Role::Owner | Role::Admin),
        Rule::Admin => role == Role::Admin,
        // The world's challenge: alice's (the owner) against bob's (the other).
        Rule::Challenger => role == Role::Owner,
        Rule::ChallengeParty => matches!(role, Role::Owner | Role::Other),
    }
}

/// What an allowed request of `route` is answered: a WebSocket cannot be opened by a request
/// that is not an upgrade (426), a room's match file waits for the end of its game (409).
fn success(route: &Route) -> Vec<StatusCode> {
    match route.path {
        "/rooms/{code}/ws" => vec![StatusCode::UPGRADE_REQUIRED, StatusCode::BAD_REQUEST],
        "/rooms/{code}/match.yaml" => vec![StatusCode::CONFLICT],
        _ => vec![
            StatusCode::OK,
            StatusCode::CREATED,
            StatusCode::ACCEPTED,
            StatusCode::SEE_OTHER,
        ],
    }
}

/// Every route of the table × anonymous, another account, the program's author, an
/// administrator: allowed requests succeed, the others are refused as the rule says.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_authorisation_matrix_covers_every_route() {
    let w = world().await;
    let routes = table();
    assert!(routes.len() >= 30, "the table lost routes");
    for (route, _) in &routes {
        for role in ROLES {
            let (status, headers, body) = send(&w.router, request(&w, route, role)).await;
            let what = format!(
                "{} {} as {role:?}: {status} {body:.200}",
                route.method, route.path
            );
            if allowed(route.rule, role) {
                assert!(success(route).contains(&status), "{what}");
            } else if role == Role::Anonymous
                && route.face == Face::Page
                && route.method == Method::GET
            {
                assert_eq!(status, StatusCode::SEE_OTHER, "{what}");
                assert_eq!(headers[header::LOCATION], "/signin", "{what}");
            } else if role == Role::Anonymous {
                assert_eq!(status, StatusCode::UNAUTHORIZED, "{what}");
            } else {
                assert_eq!(status, StatusCode::FORBIDDEN, "{what}");
            }
            if route.face == Face::Api && !status.is_success() {
                let v: serde_json::Value = serde_json::from_str(&body).expect(&what);
                assert!(v["error"].is_string() && v["detail"].is_string(), "{what}");
            }
            assert_cache_control(route, role, &headers, &what);
        }
    }
    drop(w);
}

/// What may keep an answer: the static files are the same for everyone (public, and they set
/// no cookie); an answer that depends on who asks (a token or a cookie sent, a cookie set, a
/// POST) is kept by nobody.
fn assert_cache_control(route: &Route, role: Role, headers: &HeaderMap, what: &str) {
    let cache = headers
        .get(header::CACHE_CONTROL)
        .map(|v| v.to_str().unwrap());
    if route.path == "/static/{file}" {
        assert_eq!(cache, Some("public, max-age=300"), "{what}");
        assert!(!headers.contains_key(header::SET_COOKIE), "{what}");
    } else if role != Role::Anonymous || route.face == Face::Page || route.method != Method::GET {
        assert_eq!(cache, Some("private, no-store"), "{what}");
    }
}

/// A first visit (no cookie): a page sets the visitor's CSRF cookie and is kept by nobody; a
/// static file sets none and may be kept by anyone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_static_files_may_be_kept_by_caches() {
    let w = world().await;
    let get = |uri: &str| Request::get(uri).body(Body::empty()).unwrap();
    let (_, page, _) = send(&w.router, get("/hills/h")).await;
    assert!(page.contains_key(header::SET_COOKIE));
    assert_eq!(page[header::CACHE_CONTROL], "private, no-store");
    let (status, file, _) = send(&w.router, get("/static/arena.css")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(!file.contains_key(header::SET_COOKIE));
    assert_eq!(file[header::CACHE_CONTROL], "public, max-age=300");
    drop(w);
}

/// Nothing another account or a stranger can fetch carries the text of a program that is
/// not published: not the API, not the pages, not the replay (also when kept after its
/// author's request).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_program_text_stays_with_its_author() {
    let w = world().await;
    let (p, g) = (w.program, w.game);
    let paths = [
        format!("/api/v1/programs/{p}"),
        format!("/api/v1/programs/{p}/matches"),
        format!("/api/v1/programs/{p}/versions"),
        format!("/api/v1/matches/{g}"),
        format!("/api/v1/matches/{g}/replay"),
        "/api/v1/hills/h/standings".to_string(),
        format!("/programs/{p}"),
        format!("/matches/{g}"),
        "/hills/h".to_string(),
    ];
    let secret_line = hunter().lines().nth(3).unwrap().to_string();
    // Its author's replay first: the match is played once and kept whole (`api/replays.rs`), and
    // what each caller sees is still decided at each request.
    let replay = Route {
        method: Method::GET,
        path: "/api/v1/matches/{id}/replay",
        rule: Rule::Anyone,
        face: Face::Api,
    };
    let mut req = request(&w, &replay, Role::Owner);
    *req.uri_mut() = format!("/api/v1/matches/{g}/replay").parse().unwrap();
    let (_, _, body) = send(&w.router, req).await;
    assert!(
        body.contains(r#""origin":"secret_one","steps":["?1""#),
        "the author's replay shows the steps"
    );
    assert_eq!(w.app.replays.size().0, 1);
    for role in [Role::Anonymous, Role::Other, Role::Admin] {
        for path in &paths {
            let face = if path.starts_with("/api/") {
                Face::Api
            } else {
                Face::Page
            };
            let route = Route {
                method: Method::GET,
                path: "/",
                rule: Rule::Anyone,
                face,
            };
            let mut req = request(&w, &route, role);
            *req.uri_mut() = path.parse().unwrap();
            let (status, _, body) = send(&w.router, req).await;
            assert_eq!(status, StatusCode::OK, "{path} as {role:?}");
            assert!(
                !body.contains(SECRET_MARK),
                "{path} as {role:?} shows the secret"
            );
            assert!(
                !body.contains(&secret_line),
                "{path} as {role:?} shows a line of the program"
            );
        }
    }
    // Its author reads it, escaped on the page (the comment's markup stays text).
    let route = Route {
        method: Method::GET,
        path: "/programs/{id}",
        rule: Rule::Anyone,
        face: Face::Page,
    };
    let (_, _, page) = send(&w.router, request(&w, &route, Role::Owner)).await;
    assert!(page.contains(SECRET_MARK) && page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(!page.contains("<script>alert"));
    drop(w);
}

/// A form without the CSRF cookie's value, or sent from another site, does nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forms_need_their_csrf_token_and_this_site() {
    let w = world().await;
    let route = Route {
        method: Method::POST,
        path: "/programs/{id}/withdraw",
        rule: Rule::AuthorOrAdmin,
        face: Face::Page,
    };
    let mut forged = request(&w, &route, Role::Owner);
    *forged.body_mut() = Body::from("csrf=0000");
    assert_eq!(send(&w.router, forged).await.0, StatusCode::FORBIDDEN);
    let mut other_site = request(&w, &route, Role::Owner);
    other_site
        .headers_mut()
        .insert(header::ORIGIN, "http://evil.example".parse().unwrap());
    assert_eq!(send(&w.router, other_site).await.0, StatusCode::FORBIDDEN);
    let status = w
        .app
        .db
        .read(|c| store::program(c, w.program))
        .unwrap()
        .unwrap()
        .status;
    assert_eq!(
        status,
        store::Status::Placed,
        "a refused form changed nothing"
    );
    assert_eq!(
        send(&w.router, request(&w, &route, Role::Owner)).await.0,
        StatusCode::SEE_OTHER
    );
    let status = w
        .app
        .db
        .read(|c| store::program(c, w.program))
        .unwrap()
        .unwrap()
        .status;
    assert_eq!(status, store::Status::Withdrawn);
    let _ = w.other;
    drop(w);
}

/// A program with an error is refused with `check`'s diagnostics; a name of another's is
/// refused; a too large body is refused before it is read.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn submissions_are_checked_before_they_are_queued() {
    let w = world().await;
    let route = Route {
        method: Method::POST,
        path: "/api/v1/hills/{hill}/programs",
        rule: Rule::SignedIn,
        face: Face::Api,
    };
    let with = |body: String| {
        let mut r = request(&w, &route, Role::Other);
        *r.body_mut() = Body::from(body);
        r
    };
    let (status, _, body) = send(
        &w.router,
        with(r#"{"name": "bad", "source": "1 GO 99\n"}"#.into()),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["error"], "invalid_program");
    assert_eq!(v["diagnostics"][0]["line"], 1);
    let taken = serde_json::json!({"name": "secret_one", "source": hunter()}).to_string();
    assert_eq!(send(&w.router, with(taken)).await.0, StatusCode::CONFLICT);
    let huge = format!(
        r#"{{"name": "x", "source": "{}"}}"#,
        "#".repeat(super::MAX_BODY + 10)
    );
    assert_eq!(
        send(&w.router, with(huge)).await.0,
        StatusCode::PAYLOAD_TOO_LARGE
    );
    drop(w);
}

mod hostile;
