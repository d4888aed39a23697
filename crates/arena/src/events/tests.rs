//! Events: one scheduled now is started by the worker with the hill's top N as they stand,
//! played through a dead worker's piece, each match stored once, its table the round robin's
//! played directly; the hill's standings, history and matches are as before it; a later
//! submission changes nothing of it; done, it is frozen (a piece played again stores
//! nothing); one scheduled later waits (SQLite and PostgreSQL: `walk`). Its replays show a
//! program's steps and tests to its author only, and no page or answer carries a secret text.

use super::queue::{claim, start_due};
use super::{Detail, event, schedule_on, view};
use crate::api::bodies::EventView;
use crate::db::Db;
use crate::db::ids::{AccountId, EventId, HillId, ProgramId};
use crate::store::{self, Program, Status};
use crate::tests::{Role, SECRET_MARK, hunter, send, world};
use crate::views::{self, ranked};
use crate::worker::{self, tournament};
use axum::http::{Method, StatusCode};
use robots_games::battle::compare::tournament::{GameResult, play_all, schedule};
use robots_games::battle::files::shipped;
use std::sync::atomic::AtomicBool;

/// The hill's standings (ratings included), history and matches, as JSON and counts.
fn hill_state(db: &Db, name: &str) -> (String, Vec<store::HistoryLine>, usize) {
    let hill = db.read(|c| store::hill_by_name(c, name)).unwrap().unwrap();
    let rows = views::standings_of(db, &views::Cache::default(), &hill).unwrap();
    let history = db.read(|c| store::history_of_hill(c, hill.id)).unwrap();
    let matches = db.read(|c| store::hill_matches(c, hill.id)).unwrap().len();
    (serde_json::to_string(&*rows).unwrap(), history, matches)
}

fn full(db: &Db, id: EventId) -> EventView {
    db.read(|c| view(c, &event(c, id)?.unwrap(), Detail::Full))
        .unwrap()
}

/// The event's table as the round robin of its programs, played here directly.
fn played_directly(db: &Db, e: &EventView) -> String {
    let hill = db
        .read(|c| store::hill_by_name(c, &e.hill))
        .unwrap()
        .unwrap();
    let members: Vec<Program> = e
        .programs
        .iter()
        .map(|p| db.read(|c| store::program(c, p.id)).unwrap().unwrap())
        .collect();
    let entrants: Vec<_> = members
        .iter()
        .map(|p| tournament::entrant(p, &hill).unwrap())
        .collect();
    let mut config = tournament::config(&hill).unwrap();
    config.seeds = 1..=e.seeds;
    let games = schedule(members.len(), &config.seeds);
    let stop = AtomicBool::new(false);
    let results: Vec<GameResult> = play_all(&entrants, &config, &games, &stop, &|| {})
        .unwrap()
        .into_iter()
        .map(Option::unwrap)
        .collect();
    serde_json::to_string(&ranked(&members, &results)).unwrap()
}

/// The event's matches stored, and how many distinct numbers they hold.
fn stored(db: &Db, id: EventId) -> (i64, i64) {
    db.read(|c| {
        c.query_row(
            "SELECT count(*), count(DISTINCT number) FROM event_matches WHERE event = ?1",
            rusqlite::params![id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
    })
    .unwrap()
}

/// Submits the shipped program `shipped_name` as `name` on `hill`.
fn submit(
    db: &Db,
    (account, hill): (AccountId, HillId),
    name: &str,
    shipped_name: &str,
) -> ProgramId {
    let text = shipped::program(shipped_name).unwrap();
    db.write(|c| store::submit(c, (account, hill), (name, text), (0, 100, 100)))
        .unwrap()
        .unwrap()
}

/// The walk on `db` (a fresh database).
pub(crate) fn walk(db: &Db) {
    let hill = crate::admin::create_hill(db, "e", crate::tests::duel_hill(2, 100), None)
        .unwrap()
        .unwrap();
    let account = db
        .write(|c| store::account_insert(c, "eve", "!", 0))
        .unwrap()
        .unwrap();
    for name in ["hunter", "turret", "sniper", "sentinel"] {
        submit(db, (account, hill.id), name, name);
    }
    worker::drain(db).unwrap();
    let before = hill_state(db, "e");
    let later = schedule_on(db, "e", "2100-01-01T00:00:00Z", (None, 1)).unwrap();
    let now = schedule_on(db, "e", "now", (Some(3), 2)).unwrap();
    assert_eq!(
        (later.state.as_str(), now.state.as_str()),
        ("scheduled", "scheduled")
    );
    assert_eq!(db.write(start_due).unwrap(), Some(now.id));
    // A worker that dies holding a piece: its lease (0 ms) runs out, another plays it.
    let ghost = db.write(|c| claim(c, "ghost.1", 0)).unwrap().unwrap();
    assert_eq!(ghost.1, now.id);
    std::thread::sleep(std::time::Duration::from_millis(5));
    worker::drain(db).unwrap();
    let e = full(db, now.id);
    assert_eq!(e.state, "done");
    assert_eq!(
        (e.played, e.total),
        (12, 12),
        "3 programs, 2 seeds both ways"
    );
    assert_eq!(stored(db, now.id), (12, 12), "each match once");
    // Its programs: the hill's top 3 when it started, seated by name.
    let top: Vec<serde_json::Value> = serde_json::from_str::<Vec<serde_json::Value>>(&before.0)
        .unwrap()
        .into_iter()
        .take(3)
        .collect();
    let mut names: Vec<&str> = top.iter().map(|r| r["name"].as_str().unwrap()).collect();
    names.sort_unstable();
    let seated: Vec<&str> = e.programs.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(seated, names);
    assert!(e.programs.iter().all(|p| p.rank <= 3 && p.version == 1));
    assert_eq!(
        serde_json::to_string(&e.table).unwrap(),
        played_directly(db, &e)
    );
    assert_eq!(
        hill_state(db, "e"),
        before,
        "the hill counts no event match"
    );
    // A new version of its first program, placed: the event keeps the old one, and its table.
    let first = e.programs[0].clone();
    submit(db, (account, hill.id), &first.name, "kamikaze");
    worker::drain(db).unwrap();
    let old = db.read(|c| store::program(c, first.id)).unwrap().unwrap();
    assert_eq!(old.status, Status::Replaced);
    let after = full(db, now.id);
    assert_eq!(
        serde_json::to_string(&after).unwrap(),
        serde_json::to_string(&e).unwrap()
    );
    // Frozen: its pieces played again store nothing, and it stays as it was.
    db.write(|c| {
        c.execute(
            "UPDATE event_pieces SET state = 'queued' WHERE event = ?1",
            rusqlite::params![now.id],
        )
    })
    .unwrap();
    worker::drain(db).unwrap();
    assert_eq!(stored(db, now.id), (12, 12));
    assert_eq!(
        serde_json::to_string(&full(db, now.id)).unwrap(),
        serde_json::to_string(&e).unwrap()
    );
    let waiting = full(db, later.id);
    assert_eq!(waiting.state, "scheduled");
    assert!(waiting.programs.is_empty() && waiting.table.is_empty());
}

#[test]
fn an_event_is_played_once_frozen_and_counted_nowhere() {
    let dir = std::env::temp_dir().join(format!("robots-event-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    walk(&Db::open(&dir.join("e.sqlite")).unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_event_is_played_once_frozen_and_counted_nowhere_on_postgresql() {
    let cluster = crate::pg_tests::PgCluster::start("events");
    walk(&Db::connect(&crate::db::Target::Postgres(cluster.url.clone())).unwrap());
}

#[test]
fn times_are_rfc_3339_in_utc_or_now() {
    use super::{At, Refused, parse_at};
    assert_eq!(parse_at("now"), Ok(At::Now));
    assert_eq!(parse_at("1970-01-01T00:00:00Z"), Ok(At::Seconds(0)));
    assert_eq!(
        parse_at("2030-01-31T18:00:00Z"),
        Ok(At::Seconds(1_896_112_800))
    );
    assert_eq!(
        parse_at("2024-02-29T12:30:05.25+00:00"),
        Ok(At::Seconds(1_709_209_805))
    );
    for bad in [
        "",
        "tomorrow",
        "2030-01-31T18:00:00",
        "2030-01-31T18:00:00+02:00",
        "2023-02-29T00:00:00Z",
        "2030-13-01T00:00:00Z",
        "2030-01-31T24:00:00Z",
        "2030-1-31T18:00:00Z",
        "+030-01-31T18:00:00Z",
        "２０３０-01-31T18:00:00Z",
    ] {
        assert_eq!(parse_at(bad), Err(Refused::At), "{bad:?}");
    }
}

/// A GET of `role` to `path` on the matrix's world.
async fn get(w: &crate::tests::World, role: Role, path: &str) -> (StatusCode, String) {
    let req = crate::challenges::tests::api(w, role, Method::GET, path, None);
    let (status, _, body) = send(&w.router, req).await;
    (status, body)
}

/// The world's event (alice's secret program against bob's): its replays show the steps
/// and tests of alice's robot to alice only; no answer or page of it carries her text.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_replay_shows_a_program_to_its_author_only() {
    let w = world().await;
    let id = w.event;
    let secret_line = hunter().lines().nth(3).unwrap().to_string();
    for role in [Role::Owner, Role::Other, Role::Anonymous, Role::Admin] {
        for n in 1..=2 {
            let (status, body) =
                get(&w, role, &format!("/api/v1/events/{id}/matches/{n}/replay")).await;
            assert_eq!(status, StatusCode::OK, "{body:.300}");
            let doc: serde_json::Value = serde_json::from_str(&body).unwrap();
            for robot in doc["robots"].as_array().unwrap() {
                let shown = !robot["steps"].as_array().unwrap().is_empty();
                // Alice's robot to alice only, bob's (unpublished too) to bob only.
                let author = match robot["origin"].as_str() {
                    Some("secret_one") => Role::Owner,
                    _ => Role::Other,
                };
                assert_eq!(shown, author == role, "{role:?} {robot:.200}");
            }
            if role != Role::Owner {
                assert!(!body.contains(SECRET_MARK) && !body.contains(&secret_line));
            }
        }
        for path in [
            format!("/api/v1/events/{id}"),
            format!("/events/{id}"),
            format!("/events/{id}/matches/1"),
            "/api/v1/hills/h/events".into(),
            "/hills/h/events".into(),
        ] {
            let (status, body) = get(&w, role, &path).await;
            assert_eq!(status, StatusCode::OK, "{path}");
            if role != Role::Owner {
                assert!(!body.contains(SECRET_MARK), "{path} as {role:?}");
            }
        }
    }
    let (status, _) = get(&w, Role::Other, &format!("/events/{id}/matches/3")).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "an event of two matches");
    drop(w);
}
