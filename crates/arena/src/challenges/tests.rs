//! Challenges: the challenger never receives the opponent's text (the API, the replays, the
//! pages, the errors), the opponent's author sees the result only, a challenge played during
//! a placement leaves the standings, ratings and history as a run without it (SQLite and
//! PostgreSQL), the limits answer 429 with words.

use super::*;
use crate::api::bodies::ChallengeView;
use crate::db::Db;
use crate::db::ids::{AccountId, ChallengeId, HillId, ProgramId};
use crate::routes::{Face, Route, Rule};
use crate::store;
use crate::tests::{Role, SECRET_MARK, World, hunter, request, send, test_config, world};
use crate::worker::Did;
use crate::worker::{Bell, Worker};
use crate::{App, service, views};
use axum::Router;
use axum::body::Body;
use axum::http::{Method, StatusCode, header};
use robots_games::battle::compare::tournament::hill_file::HillSettings;
use robots_games::battle::files::shipped;
use std::sync::Arc;
use std::time::Duration;

/// A request of `role` on `w` to `path`, with a JSON body for a POST.
pub(crate) fn api(
    w: &World,
    role: Role,
    method: Method,
    path: &str,
    body: Option<String>,
) -> axum::http::Request<Body> {
    // A GET's request, its method and body set after.
    let route = Route {
        method: Method::GET,
        path: "/",
        rule: Rule::Anyone,
        face: if path.starts_with("/api/") {
            Face::Api
        } else {
            Face::Page
        },
    };
    let mut req = request(w, &route, role);
    *req.uri_mut() = path.parse().unwrap();
    *req.method_mut() = method;
    if let Some(body) = body {
        *req.body_mut() = Body::from(body);
    }
    req
}

async fn call(
    router: &Router,
    w: &World,
    role: Role,
    (method, path): (Method, &str),
    body: Option<String>,
) -> (StatusCode, axum::http::HeaderMap, String) {
    send(router, api(w, role, method, path, body)).await
}

/// Bob challenges alice's secret program (with his program, and with an unsaved text):
/// nothing he receives holds a line of it; alice sees the challenge and its tally, no
/// match and no replay.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_challenger_never_receives_the_opponents_text() {
    let w = world().await;
    let turret = robots_games::battle::files::shipped::program("turret").unwrap();
    let bodies = [
        serde_json::json!({"program": w.other, "opponent": w.program, "seeds": 2}),
        serde_json::json!({"hill": "h", "name": "mine", "source": turret, "opponent": w.program, "seeds": 1}),
    ];
    let mut ids = Vec::new();
    for b in bodies {
        let (status, _, body) = call(
            &w.router,
            &w,
            Role::Other,
            (Method::POST, "/api/v1/challenges"),
            Some(b.to_string()),
        )
        .await;
        assert_eq!(status, StatusCode::ACCEPTED, "{body}");
        let v: ChallengeView = serde_json::from_str(&body).unwrap();
        assert_eq!(
            (v.role.as_str(), v.state.as_str()),
            ("challenger", "queued")
        );
        ids.push(v.id);
    }
    crate::worker::drain(&w.app.db).unwrap();
    let mut paths = vec![
        "/api/v1/challenges".to_string(),
        "/challenges".to_string(),
        format!("/programs/{}", w.other),
    ];
    for (id, seeds) in ids.iter().zip([2, 1]) {
        paths.push(format!("/api/v1/challenges/{id}"));
        paths.push(format!("/challenges/{id}"));
        let (_, _, body) = call(
            &w.router,
            &w,
            Role::Other,
            (Method::GET, &format!("/api/v1/challenges/{id}")),
            None,
        )
        .await;
        let v: ChallengeView = serde_json::from_str(&body).unwrap();
        assert_eq!(v.state, "done");
        assert_eq!(v.played, 2 * seeds);
        assert_eq!(v.wins + v.draws + v.losses, 2 * seeds);
        for n in 0..2 * seeds {
            let replay = format!("/api/v1/challenges/{id}/matches/{n}/replay");
            let (status, _, body) =
                call(&w.router, &w, Role::Other, (Method::GET, &replay), None).await;
            assert_eq!(status, StatusCode::OK, "{replay}: {body}");
            clean(&replay, &body);
            // The challenger's robots keep their steps, the opponent's are dropped.
            let doc: serde_json::Value = serde_json::from_str(&body).unwrap();
            let green_is_challenger = n % 2 == 0;
            for r in doc["robots"].as_array().unwrap() {
                let mine = (r["team"] == 0) == green_is_challenger;
                let steps = r["steps"].as_array().map_or(0, Vec::len);
                assert_eq!(steps > 0, mine, "{replay}: {r}");
            }
            paths.push(format!("/challenges/{id}/matches/{n}"));
        }
    }
    for path in &paths {
        let (status, _, body) = call(&w.router, &w, Role::Other, (Method::GET, path), None).await;
        assert_eq!(status, StatusCode::OK, "{path}: {body:.300}");
        clean(path, &body);
    }
    refusals(&w, ids[0]).await;
    the_opponents_author_sees_the_tally(&w, ids[0]).await;
    drop(w);
}

/// Asserts that `body` holds neither the secret mark nor a line of alice's program.
fn clean(what: &str, body: &str) {
    let secret_line = hunter().lines().nth(3).unwrap().to_string();
    assert!(!body.contains(SECRET_MARK), "{what} shows the secret");
    assert!(
        !body.contains(&secret_line),
        "{what} shows a line of the program"
    );
}

/// Bob's refusals: a match that is not there, a challenge with another's program, a text
/// that does not load, too many seeds, an unknown shipped program; none quotes alice's text.
async fn refusals(w: &World, id: ChallengeId) {
    let ids = [id];
    // Errors: a match that is not there, a challenge with another's program, a text that
    // does not load.
    let refusals = [
        (
            Method::GET,
            format!("/api/v1/challenges/{}/matches/99/replay", ids[0]),
            None,
            StatusCode::NOT_FOUND,
        ),
        (
            Method::GET,
            format!("/challenges/{}/matches/99", ids[0]),
            None,
            StatusCode::NOT_FOUND,
        ),
        (
            Method::POST,
            "/api/v1/challenges".into(),
            Some(serde_json::json!({"program": w.program, "opponent": w.other, "seeds": 1})),
            StatusCode::FORBIDDEN,
        ),
        (
            Method::POST,
            "/api/v1/challenges".into(),
            Some(
                serde_json::json!({"hill": "h", "name": "x", "source": "1 GO 9\n", "opponent": w.program, "seeds": 1}),
            ),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            Method::POST,
            "/api/v1/challenges".into(),
            Some(serde_json::json!({"program": w.other, "opponent": w.program, "seeds": 21})),
            StatusCode::BAD_REQUEST,
        ),
        (
            Method::POST,
            "/api/v1/challenges".into(),
            Some(serde_json::json!({"program": w.other, "shipped": "nothing", "seeds": 1})),
            StatusCode::NOT_FOUND,
        ),
    ];
    for (method, path, body, expected) in refusals {
        let (status, _, text) = call(
            &w.router,
            w,
            Role::Other,
            (method, &path),
            body.map(|b| b.to_string()),
        )
        .await;
        assert_eq!(status, expected, "{path}: {text}");
        clean(&path, &text);
    }
}

/// Alice, the opponent's author: the challenge and its tally, not its matches or replays.
async fn the_opponents_author_sees_the_tally(w: &World, id: ChallengeId) {
    // Alice, the opponent's author: the challenge and its tally, not its matches or replays.
    let (status, _, body) = call(
        &w.router,
        w,
        Role::Owner,
        (Method::GET, &format!("/api/v1/challenges/{id}")),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let seen: ChallengeView = serde_json::from_str(&body).unwrap();
    assert_eq!((seen.role.as_str(), seen.played), ("opponent", 4));
    assert!(seen.matches.is_none(), "{body}");
    let (_, _, page) = call(
        &w.router,
        w,
        Role::Owner,
        (Method::GET, &format!("/programs/{}", w.program)),
        None,
    )
    .await;
    assert!(
        page.contains(&format!("data-challenge=\"{id}\"")),
        "alice's program page lists the challenge"
    );
    let replay = format!("/api/v1/challenges/{id}/matches/0/replay");
    let (status, _, _) = call(&w.router, w, Role::Owner, (Method::GET, &replay), None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

/// A router on `w`'s database with other challenge limits.
fn limited(w: &World, per_hour: u32, queue: u32) -> Router {
    let mut run = test_config(std::env::temp_dir().join("unused.sqlite"));
    run.challenges_per_hour = per_hour;
    run.challenge_queue = queue;
    let app = App::new(
        Arc::clone(&w.app.db),
        &run,
        Arc::new(Bell::default()),
        Arc::default(),
    );
    service(Arc::new(app))
}

/// Past the hour's challenges, or the queue's matches, a challenge is answered 429 with
/// words saying when to try again, and `Retry-After`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_limits_answer_429_with_words() {
    let w = world().await;
    let post = |seeds: u32| {
        Some(
            serde_json::json!({"program": w.other, "shipped": "hunter", "seeds": seeds})
                .to_string(),
        )
    };
    let hourly = limited(&w, 2, 100_000);
    for expected in [
        StatusCode::ACCEPTED,
        StatusCode::ACCEPTED,
        StatusCode::TOO_MANY_REQUESTS,
    ] {
        let (status, headers, body) = call(
            &hourly,
            &w,
            Role::Other,
            (Method::POST, "/api/v1/challenges"),
            post(1),
        )
        .await;
        assert_eq!(status, expected, "{body}");
        if status == StatusCode::TOO_MANY_REQUESTS {
            let v: serde_json::Value = serde_json::from_str(&body).unwrap();
            assert_eq!(v["error"], "too_many_requests");
            assert!(
                v["detail"].as_str().unwrap().contains("try again in"),
                "{body}"
            );
            let after: i64 = headers[header::RETRY_AFTER]
                .to_str()
                .unwrap()
                .parse()
                .unwrap();
            assert!((1..=3600).contains(&after), "{after}");
        }
    }
    // Another account still may; the queue holds 4 matches now (2 challenges of 1 seed).
    let queue = limited(&w, 100, 44);
    let (status, _, body) = call(
        &queue,
        &w,
        Role::Owner,
        (Method::POST, "/api/v1/challenges"),
        Some(
            serde_json::json!({"program": w.program, "shipped": "hunter", "seeds": 20}).to_string(),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    let (status, headers, body) = call(
        &queue,
        &w,
        Role::Owner,
        (Method::POST, "/api/v1/challenges"),
        Some(
            serde_json::json!({"program": w.program, "shipped": "hunter", "seeds": 1}).to_string(),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert!(body.contains("try again in a minute"), "{body}");
    assert_eq!(headers[header::RETRY_AFTER], "60");
    drop(w);
}

/// A hill `p` with programs `a` and `b` placed, then `c` queued and, with `challenged`, a
/// challenge of `a` against `b` of 20 seeds; the worker stepped to the end. The standings
/// (ratings included), the history and the hill's matches; the challenge's matches stored.
fn placement(db: &Db, challenged: bool) -> (String, Vec<store::HistoryLine>, usize, usize) {
    let settings = HillSettings {
        size: 5,
        seeds: [1, 3],
        board: "duel".into(),
        scenario: 1,
        robots: 1,
        rounds: 100,
        keywords: robots_games::battle::lang::Keywords::Plain,
    };
    let hill = crate::admin::create_hill(db, "p", settings, None)
        .unwrap()
        .unwrap();
    let account = db
        .write(|c| store::account_insert(c, "pat", "!", 0))
        .unwrap()
        .unwrap();
    let program = |name: &str| shipped::program(name).unwrap();
    let submit = |name: &str, text: &str| {
        db.write(|c| store::submit(c, (account, hill.id), (name, text), (0, 100, 100)))
            .unwrap()
            .unwrap()
    };
    let a = submit("a", program("hunter"));
    submit("b", program("turret"));
    crate::worker::drain(db).unwrap();
    submit("c", program("sniper"));
    if challenged {
        play_behind(db, (account, hill.id), a);
    } else {
        crate::worker::drain(db).unwrap();
    }
    let hill = db.read(|c| store::hill_by_name(c, "p")).unwrap().unwrap();
    let rows = views::standings_of(db, &views::Cache::default(), &hill).unwrap();
    let history = db.read(|c| store::history_of_hill(c, hill.id)).unwrap();
    let matches = db.read(|c| store::hill_matches(c, hill.id)).unwrap().len();
    (
        serde_json::to_string(&*rows).unwrap(),
        history,
        matches,
        usize::try_from(played(db)).unwrap(),
    )
}

/// The challenges' matches stored.
fn played(db: &Db) -> i64 {
    db.read(|c| c.query_row("SELECT count(*) FROM challenge_matches", &[], |r| r.get(0)))
        .unwrap()
}

/// A challenge of `a` against the shipped turret, 20 seeds, within limits it then fills;
/// the worker stepped to the end: the challenge is played once the placement is done.
fn play_behind(db: &Db, (account, hill): (AccountId, HillId), a: ProgramId) {
    let new = New {
        account,
        hill,
        side: Side::Program(a, "a".into()),
        opponent: Opponent::Shipped("turret".into()),
        seeds: 20,
    };
    let generous = Limits {
        per_hour: 1,
        queue: 40,
    };
    let id = db
        .write(|c| create(c, &new, 100, generous))
        .unwrap()
        .unwrap();
    // The hour's one challenge, and the queue's 40 matches, are taken.
    let again = db.write(|c| create(c, &new, 200, generous)).unwrap();
    assert_eq!(again, Err(Limit::Hourly(3500)));
    let wide = Limits {
        per_hour: 10,
        queue: 40,
    };
    assert_eq!(
        db.write(|c| create(c, &new, 200, wide)).unwrap(),
        Err(Limit::Queue)
    );
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut worker = Worker::new("test.1".into(), Duration::from_secs(10));
    loop {
        let did = worker.step(db, &stop).unwrap();
        if played(db) > 0 {
            // Played once the placement was done: it waited behind it.
            let pending: i64 = db
                .read(|c| {
                    c.query_row(
                        "SELECT count(*) FROM jobs WHERE state != 'done'",
                        &[],
                        |r| r.get(0),
                    )
                })
                .unwrap();
            assert_eq!(pending, 0, "a challenge was played before the placement");
            assert_eq!(
                db.read(|c| challenge(c, id)).unwrap().unwrap().state,
                "done"
            );
        }
        if did == Did::Idle {
            break;
        }
    }
}

/// Runs `placement` with and without a challenge: the same standings, history and matches.
fn assert_uncounted(with: &Db, without: &Db) {
    let (rows, history, matches, played) = placement(with, true);
    let expected = placement(without, false);
    assert_eq!(played, 40, "the challenge's matches");
    assert_eq!(expected.3, 0);
    assert_eq!(rows, expected.0, "the standings and ratings");
    assert_eq!(history, expected.1, "the rank history");
    assert_eq!(matches, expected.2, "the hill's matches");
    assert_eq!(matches, 3 * 2 * 3, "three programs, three seeds both ways");
}

#[test]
fn a_challenge_during_a_placement_counts_nowhere() {
    let dir = std::env::temp_dir().join(format!("robots-challenge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let with = Db::open(&dir.join("with.sqlite")).unwrap();
    let without = Db::open(&dir.join("without.sqlite")).unwrap();
    assert_uncounted(&with, &without);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_challenge_during_a_placement_counts_nowhere_on_postgresql() {
    let cluster = crate::pg_tests::PgCluster::start("challenge");
    let mut c = postgres::Client::connect(&cluster.url, postgres::NoTls).unwrap();
    c.batch_execute("CREATE DATABASE other").unwrap();
    drop(c);
    let with = Db::connect(&crate::db::Target::Postgres(cluster.url.clone())).unwrap();
    let url = cluster.url.replace("/postgres", "/other");
    let without = Db::connect(&crate::db::Target::Postgres(url)).unwrap();
    assert_uncounted(&with, &without);
}
