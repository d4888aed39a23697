//! Versions through the router, on either database (`walk`; SQLite here, PostgreSQL in
//! `pg_tests.rs`): three submissions of one name are three versions, the diff of the first
//! and the third is the one expected, the first submitted again is the fourth, on the hill
//! with the first's text; and no one but the author reads a version's text or a diff.

use crate::api::bodies::{Credentials, DiffView, ProgramView, StandingRow, Submitted, VersionView};
use crate::db::Db;
use crate::db::ids::ProgramId;
use crate::tests::test_app;
use crate::{App, admin, api, service, store, worker};
use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use std::sync::Arc;
use tower::ServiceExt;

const MARK: &str = "secret-versions-3b1";

/// The text of version `n` (1, 2 or 3): its first line differs in each, v2 comments its
/// third step and v3 its fourth as well.
fn text(n: u32) -> String {
    let step3 = if n >= 2 {
        "3: D+1        # step"
    } else {
        "3: D+1"
    };
    let step4 = if n >= 3 {
        "4: RAZ        # again"
    } else {
        "4: RAZ"
    };
    format!(
        "# {MARK} v{n}\nname: climber\n\n1: ?1          # a shot worth firing?\n2: GO 5\n{step3}\n{step4}\n5: T\n6: RAZ\n\ntest 1: shots > 0 and enemy ahead 1\n"
    )
}

/// What `GET …/diff?from=1&to=3` answers, its lines exactly.
const V1_V3: &str = "--- v1\n+++ v3\n@@ -1,10 +1,10 @@\n\
-# secret-versions-3b1 v1\n\
+# secret-versions-3b1 v3\n \
name: climber\n \n \
1: ?1          # a shot worth firing?\n \
2: GO 5\n\
-3: D+1\n\
-4: RAZ\n\
+3: D+1        # step\n\
+4: RAZ        # again\n \
5: T\n \
6: RAZ\n \n";

struct Client {
    router: Router,
}

impl Client {
    /// `method path` with `token` (an API token) or a session cookie (`page`), and its
    /// status and body.
    async fn send(
        &self,
        (method, path): (Method, &str),
        who: Option<&str>,
        page: bool,
    ) -> (StatusCode, String) {
        let mut b = Request::builder().method(method.clone()).uri(path);
        let csrf = "c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00";
        b = match (who, page) {
            (Some(t), false) => b.header(header::AUTHORIZATION, format!("Bearer {t}")),
            (Some(s), true) => b.header(
                header::COOKIE,
                format!("robots_session={s}; robots_csrf={csrf}"),
            ),
            (None, true) => b.header(header::COOKIE, format!("robots_csrf={csrf}")),
            (None, false) => b,
        };
        let body = match (method == Method::POST, page) {
            (true, true) => Body::from(format!("csrf={csrf}")),
            _ => Body::empty(),
        };
        let kind = if page {
            "application/x-www-form-urlencoded"
        } else {
            "application/json"
        };
        let req = b.header(header::CONTENT_TYPE, kind).body(body).unwrap();
        let response = self.router.clone().oneshot(req).await.unwrap();
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), 16 << 20)
            .await
            .unwrap();
        (status, String::from_utf8_lossy(&bytes).into_owned())
    }

    async fn get<T: serde::de::DeserializeOwned>(&self, path: &str, token: &str) -> T {
        let (status, body) = self.send((Method::GET, path), Some(token), false).await;
        assert_eq!(status, StatusCode::OK, "{path}: {body}");
        serde_json::from_str(&body).unwrap()
    }

    async fn submit(&self, token: &str, (name, source): (&str, &str)) -> ProgramId {
        let req = Request::post("/api/v1/hills/v/programs")
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(
                serde_json::json!({"name": name, "source": source}).to_string(),
            ))
            .unwrap();
        let response = self.router.clone().oneshot(req).await.unwrap();
        assert_eq!(response.status(), StatusCode::ACCEPTED);
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .unwrap();
        let submitted: Submitted = serde_json::from_slice(&bytes).unwrap();
        submitted.id
    }
}

async fn drain(db: &Arc<Db>) {
    let db = Arc::clone(db);
    tokio::task::spawn_blocking(move || worker::drain(&db).unwrap())
        .await
        .unwrap();
}

/// An account and its API token and session.
async fn account(app: &Arc<App>, name: &str) -> (String, String) {
    let c = Credentials {
        name: name.into(),
        password: format!("password-{name}"),
    };
    let a = api::create_account(app, c).await.unwrap().unwrap();
    (
        api::new_token(app, a.id, "api", None).await.unwrap(),
        api::new_token(app, a.id, "session", None).await.unwrap(),
    )
}

/// The walk's arena: alice's three versions of `climber` and bob's `turret_b` placed.
struct Walk {
    db: Arc<Db>,
    client: Client,
    alice: (String, String),
    bob: (String, String),
    ids: Vec<ProgramId>,
}

async fn set_up(db: Arc<Db>) -> Walk {
    let (app, settings) = test_app(&db);
    let db2 = Arc::clone(&db);
    tokio::task::spawn_blocking(move || admin::create_hill(&db2, "v", settings, None))
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    let client = Client {
        router: service(Arc::clone(&app)),
    };
    let alice = account(&app, "alice").await;
    let bob = account(&app, "bob").await;
    let turret = robots_games::battle::files::shipped::program("turret").unwrap();
    client.submit(&bob.0, ("turret_b", turret)).await;
    let mut ids = Vec::new();
    for n in 1..=3 {
        ids.push(client.submit(&alice.0, ("climber", &text(n))).await);
        drain(&db).await;
    }
    Walk {
        db,
        client,
        alice,
        bob,
        ids,
    }
}

/// Three versions listed (no text), v1 read, v1 and v3 compared by the API and the page.
async fn three_versions(w: &Walk) {
    let (client, alice, ids) = (&w.client, &w.alice, &w.ids);
    let v3 = ids[2];
    let list: Vec<VersionView> = client
        .get(&format!("/api/v1/programs/{v3}/versions"), &alice.0)
        .await;
    let seen: Vec<(u32, ProgramId, store::Status)> =
        list.iter().map(|v| (v.version, v.id, v.status)).collect();
    use store::Status::{Placed, Replaced};
    assert_eq!(
        seen,
        [
            (3, ids[2], Placed),
            (2, ids[1], Replaced),
            (1, ids[0], Replaced)
        ]
    );
    for v in &list {
        assert!(v.source.is_none(), "the list holds no text");
        assert!(v.best_rank.is_some(), "v{} was placed", v.version);
        let played = v.wins + v.draws + v.losses;
        assert_eq!(played, 4, "v{}: 2 seeds × 2 colours", v.version);
    }
    let one: VersionView = client
        .get(&format!("/api/v1/programs/{v3}/versions/1"), &alice.0)
        .await;
    assert_eq!((one.id, one.source), (ids[0], Some(text(1))));
    let d: DiffView = client
        .get(&format!("/api/v1/programs/{v3}/diff?from=1&to=3"), &alice.0)
        .await;
    assert_eq!((d.from, d.to, d.unified.as_str()), (1, 3, V1_V3));
    let path = format!("/programs/{v3}/diff?from=1&to=3");
    let (status, page) = client
        .send((Method::GET, &path), Some(&alice.1), true)
        .await;
    assert_eq!(status, StatusCode::OK);
    for row in [
        "<td class=\"old\">6</td><td class=\"new\"></td><td class=\"text\"><code>-3: D+1</code>",
        "<td class=\"old\"></td><td class=\"new\">7</td><td class=\"text\"><code>+4: RAZ        # again</code>",
    ] {
        assert!(page.contains(row), "{row} in {page}");
    }
}

/// Back to v1 by the API: v4, with v1's text, on the hill; then v2 by the page's form: v5.
async fn roll_back(w: &Walk) -> ProgramId {
    let (client, alice, bob) = (&w.client, &w.alice, &w.bob);
    let v3 = w.ids[2];
    let path = format!("/api/v1/programs/{v3}/versions/1/resubmit");
    let (status, body) = client
        .send((Method::POST, &path), Some(&alice.0), false)
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    drain(&w.db).await;
    let v4: Submitted = serde_json::from_str(&body).unwrap();
    let v4 = v4.id;
    let p: ProgramView = client
        .get(&format!("/api/v1/programs/{v4}"), &alice.0)
        .await;
    assert_eq!(
        (p.version, p.status, p.source),
        (4, store::Status::Placed, Some(text(1)))
    );
    let rows: Vec<StandingRow> = client.get("/api/v1/hills/v/standings", &bob.0).await;
    let row = rows.iter().find(|r| r.name == "climber").unwrap();
    assert_eq!((row.id, row.version), (v4, 4));
    let list: Vec<VersionView> = client
        .get(&format!("/api/v1/programs/{v3}/versions"), &bob.0)
        .await;
    assert_eq!(list.len(), 4);
    assert!(list.iter().all(|v| v.source.is_none()));
    let path = format!("/programs/{v4}/versions/2/resubmit");
    let (status, _) = client
        .send((Method::POST, &path), Some(&alice.1), true)
        .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    drain(&w.db).await;
    let path = format!("/programs/{v4}");
    let (status, page) = client
        .send((Method::GET, &path), Some(&alice.1), true)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("data-version=\"5\""), "{page}");
    v4
}

/// No one else reads a version's text or a diff, nor submits one again: not bob, not a
/// stranger; the refusal carries no text.
async fn only_the_author(w: &Walk, v4: ProgramId) {
    for id in [w.ids[0], w.ids[2], v4] {
        let mut refused = vec![
            (
                Method::GET,
                format!("/api/v1/programs/{id}/diff?from=1&to=3"),
            ),
            (Method::GET, format!("/programs/{id}/diff?from=1&to=3")),
            (
                Method::POST,
                format!("/api/v1/programs/{id}/versions/1/resubmit"),
            ),
            (Method::POST, format!("/programs/{id}/versions/1/resubmit")),
        ];
        for n in 1..=5 {
            refused.push((Method::GET, format!("/api/v1/programs/{id}/versions/{n}")));
        }
        for (method, path) in refused {
            let page = !path.starts_with("/api/");
            let bob = if page { &w.bob.1 } else { &w.bob.0 };
            for caller in [Some(bob.as_str()), None] {
                let (status, body) = w.client.send((method.clone(), &path), caller, page).await;
                let expected = match (caller, page, &method) {
                    (Some(_), ..) => StatusCode::FORBIDDEN,
                    (None, true, &Method::GET) => StatusCode::SEE_OTHER,
                    (None, ..) => StatusCode::UNAUTHORIZED,
                };
                assert_eq!(status, expected, "{method} {path} as {caller:?}: {body}");
                assert!(
                    !body.contains(MARK) && !body.contains("climber\n"),
                    "{path}: {body}"
                );
            }
        }
    }
    let list: Vec<VersionView> = w
        .client
        .get(&format!("/api/v1/programs/{v4}/versions"), &w.bob.0)
        .await;
    assert_eq!(list.len(), 5, "bob's tries added no version");
}

/// The whole walk on `db` (a new, empty database).
pub(crate) async fn walk(db: Arc<Db>) {
    let w = set_up(db).await;
    three_versions(&w).await;
    let v4 = roll_back(&w).await;
    only_the_author(&w, v4).await;
}

#[test]
fn versions_are_kept_compared_and_submitted_again_on_sqlite() {
    let dir = std::env::temp_dir().join(format!("robots-versions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = Arc::new(Db::open(&dir.join("a.sqlite")).unwrap());
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
        .block_on(walk(db));
    let _ = std::fs::remove_dir_all(&dir);
}
