//! A kept replay is the freshly played one for every caller, kept once a match, erased with
//! its account.

use super::{Doc, store};
use crate::api::replays::Replays;
use crate::db::Db;
use crate::db::ids::{AccountId, MatchId};
use crate::store::{self as rows, MatchRow, Program};
use crate::tests::world;
use crate::views::{self, Lookup, may_read, played_again};
use crate::worker::tournament::entrant;
use robots_games::battle::compare::tournament::Game;

/// The document as `views::replay` gives it (playing it when not kept), as JSON, and whether
/// it was found kept.
fn served(db: &Db, replays: &Replays, id: MatchId, who: Option<AccountId>) -> (Vec<u8>, bool) {
    let (doc, kept) = match views::replay(db, replays, id, who).unwrap() {
        Lookup::Found(doc) => (doc, true),
        Lookup::Play(to) => (views::play_kept(db, replays, &to).unwrap().unwrap(), false),
        Lookup::Missing => panic!("match {id} missing"),
    };
    (doc.json().unwrap().to_vec(), kept)
}

/// The match's programs, green then violet.
fn sides(db: &Db, m: &MatchRow) -> (Program, Program) {
    let (g, v) = db
        .read(|c| {
            Ok((
                rows::program(c, m.green.id)?,
                rows::program(c, m.violet.id)?,
            ))
        })
        .unwrap();
    (g.unwrap(), v.unwrap())
}

/// The document played now, as the caller may see it.
fn fresh(db: &Db, m: &MatchRow, who: Option<AccountId>) -> Vec<u8> {
    let (g, v) = sides(db, m);
    let hill = db.read(|c| rows::hill_by_id(c, g.hill)).unwrap().unwrap();
    let game = Game {
        a: 0,
        b: 1,
        swapped: false,
        seed_index: m.seed_index,
    };
    let entrants = [entrant(&g, &hill).unwrap(), entrant(&v, &hill).unwrap()];
    let hidden = [!may_read(&g, who), !may_read(&v, who)];
    let doc = played_again(&hill, entrants, game, m.seed, hidden).unwrap();
    serde_json::to_vec(&doc).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kept_replay_is_the_freshly_played_one_for_every_caller() {
    let w = world().await;
    let db = &w.app.db;
    let matches = db.read(|c| rows::matches_of(c, w.program, 100, 0)).unwrap();
    assert!(matches.len() >= 2, "{}", matches.len());
    // Alice wrote one side, Bob the other, Carol neither; and a stranger.
    let callers = [Some(w.ids[0]), Some(w.ids[1]), Some(w.ids[2]), None];
    for m in &matches {
        let replays = Replays::default();
        for (i, who) in callers.into_iter().enumerate() {
            let want = fresh(db, m, who);
            let (got, kept) = served(db, &replays, m.id, who);
            assert_eq!(
                kept,
                i > 0,
                "match {}: played at the first request only",
                m.id
            );
            assert_eq!(got, want, "match {} for {who:?}", m.id);
            // Kept in memory, then in the database alone (a restarted server).
            for replays in [&replays, &Replays::default()] {
                let (again, kept) = served(db, replays, m.id, who);
                assert!(kept, "match {} for {who:?}", m.id);
                assert_eq!(again, want, "match {} for {who:?}, kept", m.id);
            }
        }
        // The stranger's (and Carol's) document is the kept bytes themselves, with no step.
        let Lookup::Found(Doc::Gzip(_)) = views::replay(db, &replays, m.id, None).unwrap() else {
            panic!("a stranger's replay is not the kept bytes");
        };
        let text = String::from_utf8(served(db, &replays, m.id, None).0).unwrap();
        assert!(text.contains(r#""steps":[],"tests":[]"#), "{text}");
        assert!(!text.contains(r#""steps":["?1""#), "{text}");
    }
    // One row a match, however often it was asked for.
    let (count, bytes) = db.read(store::size).unwrap();
    assert_eq!(usize::try_from(count).unwrap(), matches.len());
    assert!(bytes > 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_kept_replays_of_a_deleted_account_are_erased() {
    let w = world().await;
    let db = &w.app.db;
    let replays = Replays::default();
    let matches = db.read(|c| rows::matches_of(c, w.program, 100, 0)).unwrap();
    for m in &matches {
        served(db, &replays, m.id, None);
    }
    let kept = |id| store::kept_in(db, id);
    assert!(matches.iter().all(|m| kept(m.id)));
    db.write(|c| crate::accounts::store::delete(c, w.ids[0], 0))
        .unwrap()
        .unwrap();
    assert!(!matches.iter().any(|m| kept(m.id)));
    // Not served from memory either: the text it was played from is gone.
    for m in &matches {
        let Lookup::Play(to) = views::replay(db, &replays, m.id, None).unwrap() else {
            panic!("match {} still served", m.id);
        };
        assert!(views::play_kept(db, &replays, &to).unwrap().is_none());
    }
    assert_eq!(db.read(store::size).unwrap(), (0, 0));
}

/// The table's queries on `db` (SQLite here, PostgreSQL in `pg_tests.rs`): a replay kept
/// once, found only as it was played, erased with its account.
pub(crate) fn the_queries_work_on(db: &Db) {
    let hill = crate::admin::create_hill(db, "kept", crate::tests::duel_hill(1, 100), None)
        .unwrap()
        .unwrap();
    let mut programs = Vec::new();
    for (name, program) in [("kept_a", "hunter"), ("kept_b", "turret")] {
        let account = db
            .write(|c| rows::account_insert(c, name, "!", 0))
            .unwrap()
            .unwrap();
        let text = robots_games::battle::files::shipped::program(program).unwrap();
        let id = db
            .write(|c| rows::submit(c, (account, hill.id), (name, text), (0, 100, 100)))
            .unwrap()
            .unwrap();
        programs.push((account, id));
    }
    crate::worker::drain(db).unwrap();
    let m = db
        .read(|c| rows::matches_of(c, programs[0].1, 1, 0))
        .unwrap()
        .remove(0);
    let replays = Replays::default();
    let (json, kept) = served(db, &replays, m.id, None);
    assert!(!kept);
    assert_eq!(json, fresh(db, &m, None));
    let (count, bytes) = db.read(store::size).unwrap();
    assert_eq!(count, 1);
    let (g, v) = sides(db, &m);
    let played = super::Played::of(m.seed, &g.source, &v.source);
    let row = db.read(|c| store::get(c, m.id, played)).unwrap().unwrap();
    assert_eq!(i64::try_from(row.gz.len()).unwrap(), bytes);
    assert_eq!(super::json(&row).unwrap(), json);
    assert!(
        db.read(|c| store::get(c, m.id, super::Played::of(m.seed, "", "")))
            .unwrap()
            .is_none()
    );
    // Kept again: still one row.
    db.write(|c| store::put(c, m.id, &row)).unwrap();
    assert_eq!(db.read(store::size).unwrap(), (1, bytes));
    db.write(|c| crate::accounts::store::delete(c, programs[0].0, 0))
        .unwrap()
        .unwrap();
    assert_eq!(db.read(store::size).unwrap(), (0, 0));
}

#[test]
fn the_queries_work_on_sqlite() {
    let dir = std::env::temp_dir().join(format!("robots-kept-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = Db::open(&dir.join("a.sqlite")).unwrap();
    the_queries_work_on(&db);
    drop(db);
    let _ = std::fs::remove_dir_all(&dir);
}
