//! The arena on PostgreSQL, tested against a private cluster each test starts: `initdb` in a
//! new temporary folder, the server on a free loopback port with its socket in that folder,
//! stopped by its pid when dropped (a fast shutdown, then SIGKILL). As root the cluster
//! belongs to the user `postgres` (PostgreSQL refuses root). Needs Debian's `postgresql`
//! (scripts/test installs it). The placement queue across processes is tested live by
//! scripts/postgres/e2e.sh.
//!
//! Rooms across two servers on one database: a room played from the server that does not
//! run its game, each player sent only their own view; then the server running it stops,
//! and the other takes the game over from the database and plays it to its end. And the
//! room's lock connection killed mid-game (`pg_terminate_backend`): its game stops on the
//! server that ran it, which writes nothing more, the other server takes it, and every
//! decision sent before and after is stored once.
//!
//! Names: a database of version 4 holding accounts whose names differ only in case migrates,
//! every account still signs in, and no new look-alike is taken.

use super::auth;
use super::limit_tests::{look_alikes, look_alikes_sign_in};
use super::rooms::Rooms;
use super::rooms::protocol::Message;
use super::rooms::tests::{Place, battle_room, say, set_up_room, view, wait_ended};
use crate::db::ids::{AccountId, RoomId};
use crate::db::{Db, DbError, Target, dialect};
use crate::store as arena;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

pub(crate) struct PgCluster {
    dir: PathBuf,
    pid: Option<u32>,
    runner: Option<Child>,
    pub(crate) url: String,
}

fn bin() -> PathBuf {
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path().join("bin")))
                .collect()
        })
        .unwrap_or_default();
    found.retain(|p| p.join("initdb").exists());
    found.sort_by_key(|p| {
        p.parent()
            .and_then(|v| v.file_name())
            .and_then(|v| v.to_str())
            .and_then(|v| v.parse::<u32>().ok())
    });
    found
        .pop()
        .expect("PostgreSQL is not installed (apt-get install postgresql; scripts/test does)")
}

fn root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.trim_ascii() == b"0")
}

/// `program args…`, as the user `postgres` when root.
fn as_owner(program: PathBuf) -> Command {
    if root() {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(program);
        c
    } else {
        Command::new(program)
    }
}

impl PgCluster {
    pub(crate) fn start(tag: &str) -> PgCluster {
        let bin = bin();
        let dir = std::env::temp_dir().join(format!("robots-pg-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        if root() {
            let ok = Command::new("chown")
                .arg("postgres")
                .arg(&dir)
                .status()
                .is_ok_and(|s| s.success());
            assert!(ok, "chown postgres {}", dir.display());
        }
        let data = dir.join("data");
        let init = as_owner(bin.join("initdb"))
            .arg("-D")
            .arg(&data)
            .args(["-U", "robots", "-A", "trust", "--no-sync", "-E", "UTF8"])
            .output()
            .expect("initdb runs");
        assert!(
            init.status.success(),
            "initdb: {}",
            String::from_utf8_lossy(&init.stderr)
        );
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let runner = as_owner(bin.join("postgres"))
            .arg("-D")
            .arg(&data)
            .args(["-p", &port.to_string(), "-k"])
            .arg(&dir)
            .args(["-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("postgres starts");
        let url = format!("postgres://robots@127.0.0.1:{port}/postgres");
        let mut cluster = PgCluster {
            dir,
            pid: None,
            runner: Some(runner),
            url,
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if postgres::Client::connect(&cluster.url, postgres::NoTls).is_ok() {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "PostgreSQL did not start in 30 s"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        cluster.pid = std::fs::read_to_string(data.join("postmaster.pid"))
            .ok()
            .and_then(|t| t.lines().next().and_then(|l| l.trim().parse().ok()));
        cluster
    }
}

impl Drop for PgCluster {
    fn drop(&mut self) {
        if let Some(pid) = self.pid {
            let alive = || std::path::Path::new(&format!("/proc/{pid}")).exists();
            let _ = Command::new("kill")
                .args(["-INT", &pid.to_string()])
                .status();
            let deadline = Instant::now() + Duration::from_secs(10);
            while alive() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(20));
            }
            if alive() {
                let _ = Command::new("kill")
                    .args(["-KILL", &pid.to_string()])
                    .status();
            }
        }
        if let Some(mut runner) = self.runner.take() {
            let _ = runner.kill();
            let _ = runner.wait();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

const MARK_A: &str = "secret-of-alice-91c";

#[test]
fn a_room_is_played_from_either_server_and_survives_its_owner() {
    let cluster = PgCluster::start("rooms");
    let target = Target::Postgres(cluster.url.clone());
    let (db_a, db_b) = (
        Arc::new(Db::connect(&target).unwrap()),
        Arc::new(Db::connect(&target).unwrap()),
    );
    let mut ids = [AccountId(0); 2];
    for (i, name) in ["alice", "bob"].into_iter().enumerate() {
        ids[i] = db_a
            .write(|c| arena::account_insert(c, name, "!", 0))
            .unwrap()
            .unwrap();
    }
    let p = Place::on(Arc::clone(&db_b), ids);
    battle_room(&p, "sharedroom", 40.0, 400);
    let (stop_a, stop_b) = (
        Arc::new(AtomicBool::new(false)),
        Arc::new(AtomicBool::new(false)),
    );
    let server_a = Rooms::new(Arc::clone(&db_a), Arc::clone(&stop_a));
    let server_b = Rooms::new(Arc::clone(&db_b), Arc::clone(&stop_b));
    let owner = server_a.get("sharedroom").unwrap().unwrap();
    let relayed = server_b.get("sharedroom").unwrap().unwrap();
    // Every decision goes through server B; the game runs on server A.
    set_up_room(&p, &relayed);
    let deadline = Instant::now() + Duration::from_secs(10);
    while view(&owner, ids[0])["phase"] == "placing" || view(&relayed, ids[1])["phase"] == "placing"
    {
        assert!(
            Instant::now() < deadline,
            "the views do not agree: {} / {}",
            view(&owner, ids[0]),
            view(&relayed, ids[1])
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let signal = Message::Signal {
        robot: "green.1".into(),
        step: 3,
    };
    say(&relayed, (ids[0], "alice"), signal).unwrap();
    let bobs = relayed.published.borrow().view_for(ids[1]);
    assert!(!bobs.contains(MARK_A), "bob was sent alice's program");
    assert!(!bobs.contains("\"step\":3"), "bob was sent alice's signal");
    // Server A stops mid-match: server B plays the game on from the database, to its end.
    assert_ne!(
        view(&relayed, ids[1])["phase"],
        "over",
        "the match ended too soon"
    );
    stop_a.store(true, Ordering::Relaxed);
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let published = relayed.published.borrow().clone();
        let bobs = published.view_for(ids[1]);
        let over = bobs.contains("\"phase\":\"over\"");
        assert!(
            over || !bobs.contains(MARK_A),
            "bob was sent alice's program"
        );
        if over {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "server B does not play the game on: {bobs}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let ended = db_b
        .read(|c| super::rooms::store::by_code(c, "sharedroom"))
        .unwrap()
        .unwrap();
    assert_eq!(ended.state, super::rooms::room::RoomState::Over);
    let b = server_b.cluster.as_ref().expect("PostgreSQL rooms");
    assert!(b.owns(ended.id), "server B took the game over");
    assert!(!server_a.cluster.as_ref().is_some_and(|a| a.owns(ended.id)));
    stop_b.store(true, Ordering::Relaxed);
}

#[test]
fn migration_5_keeps_look_alike_accounts_on_postgresql() {
    let cluster = PgCluster::start("names");
    let hash = auth::hash_password("password-1").unwrap();
    let mut c = postgres::Client::connect(&cluster.url, postgres::NoTls).unwrap();
    for sql in &dialect::PG_MIGRATIONS[..4] {
        c.batch_execute(sql).unwrap();
    }
    c.batch_execute("CREATE TABLE schema_version (version BIGINT NOT NULL)")
        .unwrap();
    c.batch_execute("INSERT INTO schema_version (version) VALUES (4)")
        .unwrap();
    c.batch_execute(&look_alikes(&hash)).unwrap();
    drop(c);
    let db = Db::connect(&Target::Postgres(cluster.url.clone())).unwrap();
    look_alikes_sign_in(&db, &hash);
}

/// A test's own connection to the private cluster.
fn psql(url: &str) -> postgres::Client {
    postgres::Client::connect(url, postgres::NoTls).expect("a connection to the test cluster")
}

/// Every write of a room's game, with the room's generation as it was written (the writer's:
/// the guard holds it) and the start of the writer's transaction.
const AUDIT: &str = "
CREATE TABLE audit (at TIMESTAMPTZ NOT NULL, what TEXT NOT NULL, generation BIGINT NOT NULL);
CREATE FUNCTION audited() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE g BIGINT;
BEGIN
    IF TG_TABLE_NAME = 'rooms' THEN
        g := NEW.generation;
    ELSE
        SELECT generation INTO g FROM rooms WHERE id = NEW.room;
    END IF;
    INSERT INTO audit VALUES (now(), TG_TABLE_NAME, g);
    RETURN NEW;
END $$;
CREATE TRIGGER audit_actions AFTER INSERT OR UPDATE ON room_actions
    FOR EACH ROW EXECUTE FUNCTION audited();
CREATE TRIGGER audit_seats AFTER INSERT OR UPDATE ON room_seats
    FOR EACH ROW EXECUTE FUNCTION audited();
CREATE TRIGGER audit_published AFTER INSERT OR UPDATE ON room_published
    FOR EACH ROW EXECUTE FUNCTION audited();
CREATE TRIGGER audit_rooms AFTER UPDATE ON rooms FOR EACH ROW
    WHEN ((OLD.state, OLD.turn, OLD.paused, OLD.pace) IS DISTINCT FROM (NEW.state, NEW.turn, NEW.paused, NEW.pace))
    EXECUTE FUNCTION audited();
CREATE TRIGGER audit_taken AFTER UPDATE ON room_inbox FOR EACH ROW
    WHEN (OLD.taken = 0 AND NEW.taken = 1) EXECUTE FUNCTION audited();
";

/// The backend holding the room's advisory lock, if any.
fn lock_holder(c: &mut postgres::Client, room: RoomId) -> Option<i32> {
    c.query_opt(
        "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 1 \
         AND (classid::bigint << 32) + objid::bigint = $1",
        &[&crate::db::dialect::room_lock(room)],
    )
    .unwrap()
    .map(|r| r.get(0))
}

/// The room's decisions as stored, each as its JSON.
fn decisions(db: &Db, room: RoomId) -> Vec<serde_json::Value> {
    db.read(|c| super::rooms::store::actions(c, room))
        .unwrap()
        .iter()
        .map(|a| serde_json::from_str(a).unwrap())
        .collect()
}

/// Waits until the signal `(robot, step)` is stored as a decision (sent at the end of its
/// team's turn).
fn wait_signal(db: &Db, room: RoomId, (robot, step): (&str, u64)) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !decisions(db, room)
        .iter()
        .any(|d| d["kind"] == "signal" && d["robot"] == robot && d["step"] == step)
    {
        assert!(
            Instant::now() < deadline,
            "the signal {robot} {step} is not stored: {:?}",
            decisions(db, room)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn signal(robot: &str, step: u8) -> Message {
    Message::Signal {
        robot: robot.into(),
        step,
    }
}

#[test]
fn a_broken_lock_connection_moves_the_room_and_fences_its_old_owner() {
    let cluster = PgCluster::start("fence");
    let target = Target::Postgres(cluster.url.clone());
    let (db_a, db_b) = (
        Arc::new(Db::connect(&target).unwrap()),
        Arc::new(Db::connect(&target).unwrap()),
    );
    let mut test = psql(&cluster.url);
    test.batch_execute(AUDIT).unwrap();
    let mut ids = [AccountId(0); 2];
    for (i, name) in ["alice", "bob"].into_iter().enumerate() {
        ids[i] = db_a
            .write(|c| arena::account_insert(c, name, "!", 0))
            .unwrap()
            .unwrap();
    }
    let p = Place::on(Arc::clone(&db_b), ids);
    battle_room(&p, "fencedroom", 20.0, 400);
    let (alice, bob) = ((ids[0], "alice"), (ids[1], "bob"));
    let stop = Arc::new(AtomicBool::new(false));
    let server_a = Rooms::new(Arc::clone(&db_a), Arc::clone(&stop));
    let server_b = Rooms::new(Arc::clone(&db_b), Arc::clone(&stop));
    let owner = server_a.get("fencedroom").unwrap().unwrap();
    let relayed = server_b.get("fencedroom").unwrap().unwrap();
    let room = owner.room.id;
    let (a, b) = (
        server_a.cluster.as_ref().expect("PostgreSQL rooms"),
        server_b.cluster.as_ref().expect("PostgreSQL rooms"),
    );
    assert!(a.owns(room) && !b.owns(room));
    // Before: the game set up and a signal sent, through server B; server A stores them.
    set_up_room(&p, &relayed);
    say(&relayed, alice, signal("green.1", 3)).unwrap();
    wait_signal(&db_b, room, ("green.1", 3));
    let old = generation(&mut test, room);
    assert_eq!(owner_generation(a, room), Some(old));
    let (pid, lost) = kill_lock_session(&mut test, room);
    // After the kill, before any take-over: a signal sent through server B.
    say(&relayed, bob, signal("violet.1", 2)).unwrap();
    // Server A's game stopped, server B took the room, once.
    wait_ended(&owner);
    let deadline = Instant::now() + Duration::from_secs(20);
    while !b.owns(room) {
        assert!(Instant::now() < deadline, "server B does not take the room");
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(!a.owns(room), "server A still counts the room as its own");
    let new = generation(&mut test, room);
    assert_eq!(new, old + 1, "one new owner");
    assert_eq!(owner_generation(b, room), Some(new));
    // After the take-over: another signal, to the game now on server B.
    say(&relayed, alice, signal("green.1", 5)).unwrap();
    wait_signal(&db_b, room, ("violet.1", 2));
    wait_signal(&db_b, room, ("green.1", 5));
    assert_each_once(&decisions(&db_b, room));
    assert_audit(&mut test, (old, new), lost);
    assert_fenced(&db_a, (room, old, pid));
    // Server B plays on.
    let turn = view(&relayed, ids[1])["turn"].as_u64().unwrap_or(0);
    let deadline = Instant::now() + Duration::from_secs(20);
    while view(&relayed, ids[1])["turn"].as_u64().unwrap_or(0) <= turn {
        assert!(
            Instant::now() < deadline,
            "server B does not play the game on"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    stop.store(true, Ordering::Relaxed);
}

fn generation(c: &mut postgres::Client, room: RoomId) -> i64 {
    c.query_one("SELECT generation FROM rooms WHERE id = $1", &[&room.get()])
        .unwrap()
        .get(0)
}

/// Kills the session holding the room's lock, found as an operator would (the room's lock in
/// `pg_locks`, held by the connection named `robots-room-locks`), and waits until its lock is
/// gone: its pid, and the database's time then (from when its server must write nothing).
fn kill_lock_session(test: &mut postgres::Client, room: RoomId) -> (i32, std::time::SystemTime) {
    let pid = lock_holder(test, room).expect("a server holds the room's lock");
    let name: String = test
        .query_one(
            "SELECT application_name FROM pg_stat_activity WHERE pid = $1",
            &[&pid],
        )
        .unwrap()
        .get(0);
    assert_eq!(name, "robots-room-locks");
    let killed: bool = test
        .query_one("SELECT pg_terminate_backend($1)", &[&pid])
        .unwrap()
        .get(0);
    assert!(killed);
    let deadline = Instant::now() + Duration::from_secs(10);
    while lock_holder(test, room) == Some(pid) {
        assert!(
            Instant::now() < deadline,
            "the killed session keeps its lock"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    let lost = test
        .query_one("SELECT clock_timestamp()", &[])
        .unwrap()
        .get(0);
    (pid, lost)
}

/// Both placements and the three signals stored, each once.
fn assert_each_once(stored: &[serde_json::Value]) {
    let count = |kind: &str, robot: &str, step: u64| {
        stored
            .iter()
            .filter(|d| {
                d["kind"] == kind && (kind != "signal" || d["robot"] == robot && d["step"] == step)
            })
            .count()
    };
    assert_eq!(count("place", "", 0), 2, "{stored:?}");
    for (robot, step) in [("green.1", 3), ("violet.1", 2), ("green.1", 5)] {
        assert_eq!(
            count("signal", robot, step),
            1,
            "{robot} {step}: {stored:?}"
        );
    }
}

/// The generation the cluster owns the room at, if it does.
fn owner_generation(cluster: &super::rooms::relay::Cluster, room: RoomId) -> Option<i64> {
    cluster
        .owns(room)
        .then(|| cluster.try_own(room).map(|claim| claim.owner.generation))
        .flatten()
}

/// The old owner's writes are refused by the guard, its old generation as its lock session
/// (gone), and nothing is written.
fn assert_fenced(db: &Db, (room, old, pid): (RoomId, i64, i32)) {
    use super::rooms::store::{self, Fence, Owner, RoomState};
    let before = decisions(db, room).len();
    let stale = Owner {
        generation: old,
        session: pid,
    };
    let written = db.write(|c| store::push_action(c, Fence { room, owner: stale }, "{}", None));
    assert!(matches!(written, Err(DbError::Fenced)), "{written:?}");
    let generation: i64 = db
        .read(|c| {
            c.query_row(
                "SELECT generation FROM rooms WHERE id = ?1",
                rusqlite::params![room],
                |r| r.get(0),
            )
        })
        .unwrap();
    // The generation current, the lock session gone: refused too.
    let lockless = Owner {
        generation,
        session: pid,
    };
    let written = db.write(|c| {
        store::set_state(
            c,
            Fence {
                room,
                owner: lockless,
            },
            (RoomState::Over, 1),
            (false, 1.0),
        )
    });
    assert!(matches!(written, Err(DbError::Fenced)), "{written:?}");
    assert_eq!(decisions(db, room).len(), before);
}

/// Every write of the room's game after the old owner's lock was gone is the new owner's;
/// before, the old owner's.
fn assert_audit(test: &mut postgres::Client, (old, new): (i64, i64), lost: std::time::SystemTime) {
    let rows = test
        .query("SELECT at, what, generation FROM audit ORDER BY at", &[])
        .unwrap();
    let writes: Vec<(std::time::SystemTime, String, i64)> = rows
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .collect();
    assert!(
        writes.iter().any(|w| w.2 == old && w.0 < lost),
        "the old owner's writes are seen"
    );
    let late: Vec<_> = writes
        .iter()
        .filter(|w| w.0 >= lost && w.2 != new)
        .collect();
    assert!(
        late.is_empty(),
        "written after the lock was gone, not by the new owner: {late:?}"
    );
    assert!(writes.iter().any(|w| w.2 == new && w.1 == "room_actions"));
}

#[test]
fn versions_are_kept_compared_and_submitted_again_on_postgresql() {
    let cluster = PgCluster::start("versions");
    let db = Arc::new(Db::connect(&Target::Postgres(cluster.url.clone())).unwrap());
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
        .block_on(super::versions::tests::walk(db));
}

/// The account controls' queries (`accounts::store`) on PostgreSQL, as on SQLite.
#[test]
fn the_account_controls_work_on_postgresql() {
    let cluster = PgCluster::start("accounts");
    let db = Db::connect(&Target::Postgres(cluster.url.clone())).unwrap();
    crate::accounts::query_tests::the_queries_work_on(&db);
}

/// The kept replays' queries (`replays::store`) on PostgreSQL, as on SQLite.
#[test]
fn the_kept_replays_work_on_postgresql() {
    let cluster = PgCluster::start("replays");
    let db = Db::connect(&Target::Postgres(cluster.url.clone())).unwrap();
    crate::replays::tests::the_queries_work_on(&db);
}
