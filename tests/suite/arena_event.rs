//! An event survives `kill -9` of its worker (docs/ARENA.md, "Events"): eight programs are
//! placed on a hill, an event of them over ten seeds (8 × 7 × 10 = 560 matches) is scheduled
//! with `robots serve event create … --at now`, and the only worker, a `robots worker`
//! process beside a `robots serve --workers 0`, is killed with SIGKILL in the middle of it
//! and started again. The event ends `done` with exactly the table, head-to-head and matches
//! of an uninterrupted run, every match stored once (counted by its unique key).

use crate::arena::{Server, TempDir, hill_create, tail};
use rusqlite::{Connection, OpenFlags};
use serde_json::{Value, json};
use std::fs::File;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_robots");
const HILL: &str = "ev";
const PROGRAMS: [&str; 8] = [
    "hunter", "sentinel", "kamikaze", "sniper", "wanderer", "bomber", "turret", "seeker",
];
/// Every ordered pairing of the eight over ten seeds.
const TOTAL: i64 = 8 * 7 * 10;
const BOUND: Duration = Duration::from_secs(120);

/// `robots worker` on `db`: one worker, a short lease.
fn worker(db: &Path, log: &Path) -> Child {
    Command::new(BIN)
        .args(["worker", "--jobs", "1", "--lease", "2", "--db"])
        .arg(db)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(File::create(log).unwrap())
        .spawn()
        .unwrap()
}

fn count(db: &Path, sql: &str) -> i64 {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(db, flags).unwrap();
    conn.busy_timeout(Duration::from_secs(5)).unwrap();
    conn.query_row(sql, [], |row| row.get(0)).unwrap()
}

fn stored(db: &Path) -> i64 {
    count(db, "SELECT count(*) FROM event_matches")
}

/// Waits (bounded) until `done` says so.
fn wait(what: &str, log: &Path, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < BOUND,
            "{what}: not after {BOUND:?}; log:\n{}",
            tail(log)
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The server, an account, the eight programs submitted and placed by a worker (returned),
/// then the event scheduled now from the command line.
fn set_up(dir: &Path, tag: &str) -> (std::path::PathBuf, Server, Child) {
    let db = dir.join(format!("{tag}.sqlite"));
    hill_create(
        &db,
        HILL,
        &["--size", "8", "--seeds", "1", "--rounds", "1000"],
    );
    let server = Server::start_with(&db, &dir.join(format!("{tag}.log")), &["--workers", "0"]);
    let account = json!({"name": "eventer", "password": "event-password"});
    let token = server.json("POST", "/api/v1/accounts", None, Some(&account), 201)["token"]
        .as_str()
        .unwrap()
        .to_string();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("programs");
    for name in PROGRAMS {
        let source = std::fs::read_to_string(root.join(format!("{name}.robot"))).unwrap();
        let body = json!({"name": name, "source": source});
        let path = format!("/api/v1/hills/{HILL}/programs");
        server.json("POST", &path, Some(&token), Some(&body), 202);
    }
    let log = dir.join(format!("{tag}.worker.log"));
    let placing = worker(&db, &log);
    wait("the placements", &log, || {
        count(&db, "SELECT count(*) FROM programs WHERE status = 'placed'") == 8
    });
    let out = Command::new(BIN)
        .args([
            "serve", "event", "create", HILL, "--at", "now", "--seeds", "10", "--db",
        ])
        .arg(&db)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        said.starts_with("event 1 on hill ev: scheduled at "),
        "{said}"
    );
    (db, server, placing)
}

/// The event as the API gives it, without its times (which differ between runs).
fn event(server: &Server) -> Value {
    let mut e = server.json("GET", "/api/v1/events/1", None, None, 200);
    assert_eq!(e["state"], "done", "{e:#}");
    for time in ["at", "created", "started", "finished"] {
        e.as_object_mut().unwrap().remove(time);
    }
    e
}

/// Every match once: as many rows as matches, as many distinct keys and distinct games.
fn assert_once(db: &Path) {
    assert_eq!(stored(db), TOTAL);
    let keys = "SELECT count(*) FROM (SELECT DISTINCT event, number FROM event_matches)";
    assert_eq!(count(db, keys), TOTAL);
    let games =
        "SELECT count(*) FROM (SELECT DISTINCT green, violet, seed_index FROM event_matches)";
    assert_eq!(count(db, games), TOTAL);
    let hill = count(db, "SELECT count(*) FROM matches");
    assert_eq!(hill, 8 * 7, "the hill's own matches only (one seed)");
}

fn interrupted(dir: &Path) -> Value {
    let (db, server, mut first) = set_up(dir, "killed");
    let log = dir.join("killed.worker.log");
    wait("a third of the event", &log, || stored(&db) >= TOTAL / 3);
    first.kill().unwrap();
    first.wait().unwrap();
    let at_kill = stored(&db);
    eprintln!("worker killed with {at_kill} of {TOTAL} event matches stored");
    assert!(
        at_kill < TOTAL,
        "the event ended before the kill: more rounds"
    );
    let log = dir.join("again.worker.log");
    let mut again = worker(&db, &log);
    wait("the event's end", &log, || {
        count(&db, "SELECT count(*) FROM events WHERE state = 'done'") == 1
    });
    let e = event(&server);
    again.kill().unwrap();
    again.wait().unwrap();
    assert_once(&db);
    e
}

fn uninterrupted(dir: &Path) -> Value {
    let (db, server, mut only) = set_up(dir, "whole");
    let log = dir.join("whole.worker.log");
    wait("the event's end", &log, || {
        count(&db, "SELECT count(*) FROM events WHERE state = 'done'") == 1
    });
    let e = event(&server);
    only.kill().unwrap();
    only.wait().unwrap();
    assert_once(&db);
    e
}

#[test]
fn an_event_resumes_after_kill_9_of_its_worker() {
    let dir = TempDir::new();
    let start = Instant::now();
    let resumed = interrupted(&dir.0);
    eprintln!("interrupted run: {:?}", start.elapsed());
    let start = Instant::now();
    let reference = uninterrupted(&dir.0);
    eprintln!("uninterrupted run: {:?}", start.elapsed());
    assert_eq!(resumed["programs"].as_array().map(Vec::len), Some(8));
    assert_eq!(resumed["table"].as_array().map(Vec::len), Some(8));
    assert_eq!(resumed["played"], TOTAL);
    assert_eq!(
        resumed, reference,
        "the events differ:\nresumed {resumed:#}\nreference {reference:#}"
    );
}
