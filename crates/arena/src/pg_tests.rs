//! The arena on PostgreSQL, tested against a private cluster each test starts: `initdb` in a
//! new temporary folder, the server on a free loopback port with its socket in that folder,
//! stopped by its pid when dropped (a fast shutdown, then SIGKILL). As root the cluster
//! belongs to the user `postgres` (PostgreSQL refuses root). Needs Debian's `postgresql`
//! (scripts/test installs it). The placement queue across processes is tested live by
//! scripts/postgres/e2e.sh.
//!
//! Rooms across two servers on one database: a room played from the server that does not
//! run its game, each player sent only their own view; then the server running it stops,
//! and the other takes the game over from the database and plays it to its end.
//!
//! Names: a database of version 4 holding accounts whose names differ only in case migrates,
//! every account still signs in, and no new look-alike is taken.

use super::auth;
use super::limit_tests::{look_alikes, look_alikes_sign_in};
use super::rooms::Rooms;
use super::rooms::actor::Message;
use super::rooms::tests::{Place, battle_room, say, set_up_room, view};
use crate::db::{Db, Target, dialect};
use crate::store as arena;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

struct PgCluster {
    dir: PathBuf,
    pid: Option<u32>,
    runner: Option<Child>,
    url: String,
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
    fn start(tag: &str) -> PgCluster {
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
    let mut ids = [0; 2];
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
    assert_eq!(ended.state, "over");
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
