//! Rooms across two servers on one PostgreSQL (a private cluster started by the test): a room
//! played from the server that does not run its game, each player sent only their own view;
//! then the server running it stops, and the other takes the game over from the database and
//! plays it to its end.

use super::Rooms;
use super::actor::Message;
use super::tests::{Place, say, set_up_room, view};
use crate::cli::serve::db::{Db, Target};
use crate::cli::serve::pg_cluster::PgCluster;
use crate::cli::serve::store as arena;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

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
    super::tests::battle_room(&p, "sharedroom", 40.0, 400);
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
        .read(|c| super::store::by_code(c, "sharedroom"))
        .unwrap()
        .unwrap();
    assert_eq!(ended.state, "over");
    let b = server_b.cluster.as_ref().expect("PostgreSQL rooms");
    assert!(b.owns(ended.id), "server B took the game over");
    assert!(!server_a.cluster.as_ref().is_some_and(|a| a.owns(ended.id)));
    stop_b.store(true, Ordering::Relaxed);
}
