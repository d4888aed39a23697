//! Accounts their owners control, in-process on SQLite: a password change ends another
//! browser's session and an old token, a revoked token gets 401, a token's last use is
//! written at most once a minute, a deleted account's texts leave the database file (read
//! as bytes), its name cools off, and every new form needs its CSRF token and this site.

use super::fixtures::{CSRF, MARK, fresh, hunter, secret};
use super::store;
use crate::api::bodies::Credentials;
use crate::db::Db;
use crate::db::ids::{AccountId, HillId, ProgramId};
use crate::{App, auth, service, worker};
use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use std::path::PathBuf;
use std::sync::Arc;
use tower::ServiceExt;

struct Arena {
    app: Arc<App>,
    router: Router,
    dir: PathBuf,
    hill: HillId,
}

impl Drop for Arena {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl Arena {
    async fn new() -> Arena {
        let dir =
            std::env::temp_dir().join(fresh(&format!("robots-accounts-{}-", std::process::id())));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.sqlite");
        let db = Arc::new(Db::open(&path).unwrap());
        let app = Arc::new(App::new(
            Arc::clone(&db),
            &crate::tests::test_config(path),
            Arc::new(worker::Bell::default()),
            Arc::default(),
        ));
        let settings = crate::tests::duel_hill(2, 100);
        let hill = crate::admin::create_hill(&db, "h", settings, None)
            .unwrap()
            .unwrap();
        Arena {
            router: service(Arc::clone(&app)),
            app,
            dir,
            hill: hill.id,
        }
    }

    async fn sign_up(&self, name: &str) -> AccountId {
        let c = Credentials {
            name: name.into(),
            password: format!("password-{name}"),
        };
        crate::api::create_account(&self.app, c)
            .await
            .unwrap()
            .unwrap()
            .id
    }

    /// A request as a browser with `session` (or none), its CSRF cookie and the form's token.
    async fn form(&self, session: Option<&str>, path: &str, fields: &str) -> (StatusCode, String) {
        self.form_with(session, path, &format!("{fields}csrf={CSRF}"), None)
            .await
    }

    async fn form_with(
        &self,
        session: Option<&str>,
        path: &str,
        body: &str,
        origin: Option<&str>,
    ) -> (StatusCode, String) {
        let cookie = match session {
            Some(s) => format!("robots_session={s}; robots_csrf={CSRF}"),
            None => format!("robots_csrf={CSRF}"),
        };
        let mut b = Request::post(path)
            .header(header::COOKIE, cookie)
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
        if let Some(o) = origin {
            b = b.header(header::ORIGIN, o);
        }
        self.send(b.body(Body::from(body.to_string())).unwrap())
            .await
    }

    async fn page(&self, session: &str, path: &str) -> (StatusCode, String) {
        let req = Request::get(path)
            .header(header::COOKIE, format!("robots_session={session}"))
            .body(Body::empty())
            .unwrap();
        self.send(req).await
    }

    async fn api(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: &str,
    ) -> (StatusCode, String) {
        let mut b = Request::builder()
            .method(method)
            .uri(path)
            .header(header::CONTENT_TYPE, "application/json");
        if let Some(t) = token {
            b = b.header(header::AUTHORIZATION, format!("Bearer {t}"));
        }
        self.send(b.body(Body::from(body.to_string())).unwrap())
            .await
    }

    async fn send(&self, req: Request<Body>) -> (StatusCode, String) {
        let response = self.router.clone().oneshot(req).await.unwrap();
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), 16 << 20)
            .await
            .unwrap();
        (status, String::from_utf8_lossy(&bytes).into_owned())
    }

    fn submit(&self, account: AccountId, name: &str, source: &str) -> ProgramId {
        self.app
            .db
            .write(|c| crate::store::submit(c, (account, self.hill), (name, source), (0, 100, 100)))
            .unwrap()
            .unwrap()
    }
}

/// A password change (the current one asked) ends another browser's session and an old API
/// token; the browser that changed it stays signed in; the new password opens the account
/// and the old one does not. Through the API, every secret ends and the answer's token works.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_password_change_ends_the_other_sessions_and_the_tokens() {
    let a = Arena::new().await;
    let alice = a.sign_up("alice").await;
    let (mine, other, token) = (
        secret(&a.app, alice, "session"),
        secret(&a.app, alice, "session"),
        secret(&a.app, alice, "api"),
    );
    // The wrong current password changes nothing.
    let (status, page) = a
        .form(
            Some(&mine),
            "/account/password",
            "password=not-it-at-all&new_password=password-new&",
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{page}");
    assert!(page.contains("id=\"error\"") && page.contains("not the account"));
    assert_eq!(a.page(&other, "/account").await.0, StatusCode::OK);
    // A new password too short is refused with words.
    let (status, page) = a
        .form(
            Some(&mine),
            "/account/password",
            "password=password-alice&new_password=short&",
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{page}");
    let (status, page) = a
        .form(
            Some(&mine),
            "/account/password",
            "password=password-alice&new_password=password-new&",
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(
        page.contains("2 other sessions and API tokens ended"),
        "{page}"
    );
    assert_eq!(a.page(&mine, "/account").await.0, StatusCode::OK);
    assert_eq!(a.page(&other, "/account").await.0, StatusCode::SEE_OTHER);
    let (status, _) = a.api(Method::GET, "/api/v1/tokens", Some(&token), "").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let sign_in =
        |password: &str| serde_json::json!({"name": "alice", "password": password}).to_string();
    let (status, _) = a
        .api(
            Method::POST,
            "/api/v1/tokens",
            None,
            &sign_in("password-alice"),
        )
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, body) = a
        .api(
            Method::POST,
            "/api/v1/tokens",
            None,
            &sign_in("password-new"),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let fresh: serde_json::Value = serde_json::from_str(&body).unwrap();
    let fresh = fresh["token"].as_str().unwrap().to_string();
    through_the_api(&a, &mine, &fresh).await;
}

/// A password change through the API: every secret ends, the one that asked too; the
/// answer's token works.
async fn through_the_api(a: &Arena, mine: &str, fresh: &str) {
    let change = r#"{"password": "password-new", "new_password": "password-third"}"#;
    let (status, body) = a
        .api(
            Method::POST,
            "/api/v1/account/password",
            Some(fresh),
            change,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["ended"], 2, "{body}");
    let newest = v["token"].as_str().unwrap();
    assert_eq!(a.page(mine, "/account").await.0, StatusCode::SEE_OTHER);
    let (status, _) = a.api(Method::GET, "/api/v1/tokens", Some(fresh), "").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = a.api(Method::GET, "/api/v1/tokens", Some(newest), "").await;
    assert_eq!(status, StatusCode::OK);
}

/// The tokens are listed with their creation and last use; a revoked token gets 401; a
/// token of another account cannot be revoked; signing out everywhere ends every secret.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_are_listed_and_a_revoked_token_gets_401() {
    let a = Arena::new().await;
    let (alice, bob) = (a.sign_up("alice").await, a.sign_up("bob").await);
    let (one, two) = (secret(&a.app, alice, "api"), secret(&a.app, alice, "api"));
    let bobs = secret(&a.app, bob, "api");
    let (status, body) = a.api(Method::GET, "/api/v1/tokens", Some(&one), "").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let list: Vec<serde_json::Value> = serde_json::from_str(&body).unwrap();
    assert_eq!(list.len(), 2, "{body}");
    assert_eq!(list[0]["created"], 1);
    // The token that asked was used (now); the other never.
    assert!(list[0]["used"].as_i64().unwrap() > 1_700_000_000, "{body}");
    assert!(list[1]["used"].is_null(), "{body}");
    let (first, second) = (
        list[0]["id"].as_i64().unwrap(),
        list[1]["id"].as_i64().unwrap(),
    );
    // Bob cannot revoke Alice's token.
    let (status, body) = a
        .api(
            Method::DELETE,
            &format!("/api/v1/tokens/{first}"),
            Some(&bobs),
            "",
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    let (status, _) = a.api(Method::GET, "/api/v1/tokens", Some(&one), "").await;
    assert_eq!(status, StatusCode::OK);
    // Alice revokes her second through the API, her first through the page.
    let (status, body) = a
        .api(
            Method::DELETE,
            &format!("/api/v1/tokens/{second}"),
            Some(&one),
            "",
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = a.api(Method::GET, "/api/v1/tokens", Some(&two), "").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    assert!(body.contains("\"unauthorized\""));
    let session = secret(&a.app, alice, "session");
    let (_, page) = a.page(&session, "/account").await;
    assert!(page.contains(&format!("data-token=\"{first}\"")), "{page}");
    assert!(!page.contains(&format!("data-token=\"{second}\"")));
    let (status, _) = a
        .form(
            Some(&session),
            &format!("/account/tokens/{first}/revoke"),
            "",
        )
        .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let (status, _) = a.api(Method::GET, "/api/v1/tokens", Some(&one), "").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (_, page) = a.page(&session, "/account").await;
    assert!(page.contains("id=\"no-tokens\""), "{page}");
    // Signing out everywhere ends every session and token of the account.
    let (three, other) = (
        secret(&a.app, alice, "api"),
        secret(&a.app, alice, "session"),
    );
    let (status, _) = a
        .form(Some(&session), "/account/signout-everywhere", "")
        .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(a.page(&session, "/account").await.0, StatusCode::SEE_OTHER);
    assert_eq!(a.page(&other, "/account").await.0, StatusCode::SEE_OTHER);
    let (status, _) = a.api(Method::GET, "/api/v1/tokens", Some(&three), "").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // Bob's secrets stay.
    let (status, _) = a.api(Method::GET, "/api/v1/tokens", Some(&bobs), "").await;
    assert_eq!(status, StatusCode::OK);
}

/// A token's last use is written when it is a minute old or more, not at every request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tokens_last_use_is_written_at_most_once_a_minute() {
    let a = Arena::new().await;
    let alice = a.sign_up("alice").await;
    let token = secret(&a.app, alice, "api");
    let hash = auth::secret_hash(&token);
    let set = |used: i64| {
        a.app
            .db
            .write(|c| {
                c.execute(
                    "UPDATE tokens SET used = ?2 WHERE hash = ?1",
                    rusqlite::params![hash, used],
                )
            })
            .unwrap();
    };
    let used = || {
        a.app.db.read(|c| store::tokens(c, alice)).unwrap()[0]
            .used
            .unwrap()
    };
    let now = crate::db::now();
    set(now - 30);
    assert_eq!(
        a.api(Method::GET, "/api/v1/tokens", Some(&token), "")
            .await
            .0,
        StatusCode::OK
    );
    assert_eq!(used(), now - 30, "a use 30 s after the last is not written");
    set(now - 61);
    a.api(Method::GET, "/api/v1/tokens", Some(&token), "").await;
    assert!(used() >= now, "a use a minute after the last is written");
}

/// Every byte of the database's files, SQLite's write-ahead log beside it included.
fn database_bytes(dir: &std::path::Path) -> Vec<u8> {
    let mut all = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        all.extend(std::fs::read(entry.unwrap().path()).unwrap());
    }
    all
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w == needle.as_bytes())
}

/// A deleted account (its password asked again): its programs leave the hill, their texts
/// and the room it sat in leave the database's file (read as bytes), its secrets end, its
/// opponents' records stay readable, its matches' replays are gone (410), and its name
/// cools off before anyone may take it again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_accounts_texts_leave_the_database_and_its_name_cools_off() {
    let a = Arena::new().await;
    let (alice, bob) = (a.sign_up("alice").await, a.sign_up("bob").await);
    let mine = a.submit(alice, "hunter_a", &hunter());
    let turret = robots_games::battle::files::shipped::program("turret").unwrap();
    let theirs = a.submit(bob, "turret_b", turret);
    worker::drain(&a.app.db).unwrap();
    let game = a
        .app
        .db
        .read(|c| crate::store::matches_of(c, theirs, 1, 0))
        .unwrap()[0]
        .id;
    // Its replay asked for once: kept (`replays/`), to be erased with the account.
    let replay = format!("/api/v1/matches/{game}/replay");
    let (status, body) = a.api(Method::GET, &replay, None, "").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(crate::replays::store::kept_in(&a.app.db, game));
    // A challenge of Alice's with a text she did not submit (kept with the challenge).
    crate::worker::challenge::queue_one(
        &a.app.db,
        (alice, a.hill),
        crate::challenges::Side::Text("draft".into(), hunter()),
        crate::challenges::Opponent::Program(theirs),
    );
    // A room Bob hosts where Alice sits with her text, its published view and a message.
    let settings = crate::rooms::tests::game_settings("battle", "duel", (50, 4.0, 60));
    let code = "feedfacefeedfacefeedfacefeedface";
    a.app
        .db
        .write(|c| {
            let room =
                crate::rooms::store::insert(c, (code, bob), &settings, &["green", "violet"], (1, 0))?;
            c.execute(
                "UPDATE room_seats SET account = ?2, source = ?3 WHERE room = ?1 AND colour = 'green'",
                rusqlite::params![room, alice, hunter()],
            )?;
            c.execute(
                "INSERT INTO room_published (room, version, body) VALUES (?1, 1, ?2)",
                rusqlite::params![room, format!("{{\"program\": \"{MARK}\"}}")],
            )?;
            c.execute(
                "INSERT INTO room_inbox (room, command, created) VALUES (?1, ?2, 0)",
                rusqlite::params![room, format!("{{\"source\": \"{MARK}\"}}")],
            )
        })
        .unwrap();
    a.app
        .db
        .write(|c| c.batch("PRAGMA wal_checkpoint(TRUNCATE)"))
        .unwrap();
    assert!(
        contains(&database_bytes(&a.dir), MARK),
        "the test's text is in the file"
    );
    let (session, token) = (
        secret(&a.app, alice, "session"),
        secret(&a.app, alice, "api"),
    );
    deleted(&a, (alice, bob), (mine, theirs, game), (&session, &token)).await;
    the_name_cools_off(&a).await;
}

/// Alice deletes her account: what is left of it.
async fn deleted(
    a: &Arena,
    (alice, bob): (AccountId, AccountId),
    (mine, theirs, game): (ProgramId, ProgramId, crate::db::ids::MatchId),
    (session, token): (&str, &str),
) {
    // The wrong password deletes nothing.
    let (status, page) = a
        .form(Some(session), "/account/delete", "password=password-wrong&")
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{page}");
    let (status, page) = a
        .form(Some(session), "/account/delete", "password=password-alice&")
        .await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(page.contains("1 program left its hill"), "{page}");
    assert!(
        !contains(&database_bytes(&a.dir), MARK),
        "a deleted account's text is still in the database's files"
    );
    let p = a
        .app
        .db
        .read(|c| crate::store::program(c, mine))
        .unwrap()
        .unwrap();
    assert_eq!(p.status, crate::store::Status::Withdrawn);
    assert!(p.source.is_empty() && !p.published);
    assert_eq!(p.author, format!("(deleted {alice})"));
    // Its secrets are gone.
    assert_eq!(a.page(session, "/account").await.0, StatusCode::SEE_OTHER);
    let (status, _) = a.api(Method::GET, "/api/v1/tokens", Some(token), "").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // The hill holds Bob alone; his record and the match stay readable; the replay is gone.
    let (_, standings) = a
        .api(Method::GET, "/api/v1/hills/h/standings", None, "")
        .await;
    let rows: Vec<serde_json::Value> = serde_json::from_str(&standings).unwrap();
    assert_eq!(rows.len(), 1, "{standings}");
    assert_eq!(rows[0]["name"], "turret_b");
    let (status, body) = a
        .api(
            Method::GET,
            &format!("/api/v1/programs/{theirs}/matches"),
            None,
            "",
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(body.contains("hunter_a"), "{body}");
    let (status, body) = a
        .api(
            Method::GET,
            &format!("/api/v1/matches/{game}/replay"),
            None,
            "",
        )
        .await;
    assert_eq!(status, StatusCode::GONE, "{body}");
    assert!(!body.contains(MARK));
    assert!(!crate::replays::store::kept_in(&a.app.db, game));
    let bobs = secret(&a.app, bob, "session");
    let (status, page) = a.page(&bobs, &format!("/programs/{mine}")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(!page.contains(MARK) && !page.contains("id=\"source\""));
    // The room is gone.
    let rooms: i64 = a
        .app
        .db
        .read(|c| c.query_row("SELECT count(*) FROM rooms", &[], |r| r.get(0)))
        .unwrap();
    assert_eq!(rooms, 0);
}

async fn the_name_cools_off(a: &Arena) {
    // The name cools off, in any case, on the form and in the API; then it is free.
    let (status, page) = a
        .form(None, "/signup", "name=ALICE&password=password-alice&")
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{page}");
    assert!(page.contains("free again in 30 days"), "{page}");
    let again = serde_json::json!({"name": "alice", "password": "password-other"}).to_string();
    let (status, body) = a.api(Method::POST, "/api/v1/accounts", None, &again).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(body.contains("deleted less than 30 days ago"), "{body}");
    let sign_in = serde_json::json!({"name": "alice", "password": "password-alice"}).to_string();
    let (status, _) = a.api(Method::POST, "/api/v1/tokens", None, &sign_in).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    a.app
        .db
        .write(|c| c.execute("UPDATE retired_names SET free_at = 0", &[]))
        .unwrap();
    let (status, body) = a.api(Method::POST, "/api/v1/accounts", None, &again).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
}

/// Every new form does nothing without its CSRF token, or when sent from another site.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_account_forms_need_their_csrf_token_and_this_site() {
    let a = Arena::new().await;
    let alice = a.sign_up("alice").await;
    let session = secret(&a.app, alice, "session");
    let token = secret(&a.app, alice, "api");
    let id = a.app.db.read(|c| store::tokens(c, alice)).unwrap()[0].id;
    let forms = [
        (
            "/account/password".to_string(),
            "password=password-alice&new_password=password-new&",
        ),
        ("/account/delete".to_string(), "password=password-alice&"),
        ("/account/signout-everywhere".to_string(), ""),
        (format!("/account/tokens/{id}/revoke"), ""),
        ("/account/tokens".to_string(), ""),
    ];
    for (path, fields) in &forms {
        for (body, origin, refused) in [
            (format!("{fields}csrf=0000"), None, StatusCode::FORBIDDEN),
            (
                format!("{fields}csrf={}", &CSRF[..63]),
                None,
                StatusCode::FORBIDDEN,
            ),
            (
                fields.trim_end_matches('&').to_string(),
                None,
                StatusCode::BAD_REQUEST,
            ),
            (
                format!("{fields}csrf={CSRF}"),
                Some("http://evil.example"),
                StatusCode::FORBIDDEN,
            ),
        ] {
            let (status, page) = a.form_with(Some(&session), path, &body, origin).await;
            assert_eq!(status, refused, "{path} {body}: {page}");
        }
    }
    // Nothing changed: the account, its password, its session and its one token stay.
    assert_eq!(a.page(&session, "/account").await.0, StatusCode::OK);
    let (status, body) = a.api(Method::GET, "/api/v1/tokens", Some(&token), "").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        serde_json::from_str::<Vec<serde_json::Value>>(&body)
            .unwrap()
            .len(),
        1
    );
    let hash = a
        .app
        .db
        .read(|c| store::password(c, alice))
        .unwrap()
        .unwrap();
    assert!(auth::check_password("password-alice", Some(&hash)));
}
