//! The accounts' queries on a database of either kind (SQLite here, PostgreSQL in
//! `pg_tests.rs`), and the dates the account page writes.

use super::fixtures::{fresh, hunter};
use super::store;
use crate::db::Db;
use crate::db::ids::{AccountId, HillId};
use crate::{auth, worker};

#[test]
fn times_are_written_as_utc_dates() {
    use super::pages::utc;
    assert_eq!(utc(0), "1970-01-01 00:00 UTC");
    assert_eq!(utc(951_782_400), "2000-02-29 00:00 UTC");
    assert_eq!(utc(1_795_000_000 + 59), "2026-11-18 11:07 UTC");
}

/// The store's queries of this module on `db` (SQLite here, PostgreSQL in `pg_tests.rs`):
/// last use, listing, revoking, a password set with one session kept, and a deletion.
pub(crate) fn the_queries_work_on(db: &Db) {
    let settings = crate::tests::duel_hill(1, 60);
    let hill = crate::admin::create_hill(db, "q", settings, None)
        .unwrap()
        .unwrap();
    let account = |name: &str| {
        db.write(|c| crate::store::account_insert(c, name, "!", 0))
            .unwrap()
            .unwrap()
    };
    let (alice, bob) = (account("alice"), account("bob"));
    let insert = |who, secret: &str, kind| {
        let hash = auth::secret_hash(secret);
        db.write(|c| crate::store::token_insert(c, who, &hash, kind, None, (5, None)))
            .unwrap();
        hash
    };
    let (kept, api, other) = (
        insert(alice, "kept", "session"),
        insert(alice, "api", "api"),
        insert(alice, "other", "api"),
    );
    let bobs = insert(bob, "bobs", "api");
    let now = crate::db::now();
    db.write(|c| store::touch(c, &api, now)).unwrap();
    db.write(|c| store::touch(c, &api, now + 5)).unwrap();
    let (found, used) = db
        .read(|c| store::token_account(c, &api, "api", now))
        .unwrap()
        .unwrap();
    assert_eq!(
        (found.id, used),
        (alice, Some(now)),
        "a use within the minute is not written"
    );
    let listed = db.read(|c| store::tokens(c, alice)).unwrap();
    assert_eq!(listed.len(), 2, "sessions are not listed");
    assert!(!db.write(|c| store::revoke(c, bob, listed[1].id)).unwrap());
    assert!(db.write(|c| store::revoke(c, alice, listed[1].id)).unwrap());
    assert!(
        db.read(|c| store::token_account(c, &other, "api", now))
            .unwrap()
            .is_none()
    );
    assert_eq!(
        db.write(|c| store::set_password(c, alice, "$new", Some(&kept)))
            .unwrap(),
        1
    );
    assert_eq!(
        db.read(|c| store::password(c, alice)).unwrap().as_deref(),
        Some("$new")
    );
    assert!(
        db.read(|c| store::token_account(c, &kept, "session", now))
            .unwrap()
            .is_some()
    );
    assert!(
        db.read(|c| store::token_account(c, &api, "api", now))
            .unwrap()
            .is_none()
    );
    deletion_works_on(db, hill.id, (alice, bob), (&kept, &bobs));
}

fn deletion_works_on(
    db: &Db,
    hill: HillId,
    (alice, bob): (AccountId, AccountId),
    (kept, bobs): (&[u8], &[u8]),
) {
    let now = crate::db::now();
    // A deletion: the programs withdrawn and erased, the secrets gone, the name cooling off.
    let submit = |who, name: &str, source: &str| {
        db.write(|c| crate::store::submit(c, (who, hill), (name, source), (0, 100, 100)))
            .unwrap()
            .unwrap()
    };
    let mine = submit(alice, "hunter_a", &hunter());
    let theirs = submit(
        bob,
        "turret_b",
        robots_games::battle::files::shipped::program("turret").unwrap(),
    );
    worker::drain(db).unwrap();
    let game = db
        .read(|c| crate::store::matches_of(c, theirs, 1, 0))
        .unwrap()[0]
        .id;
    assert!(!db.read(|c| store::match_erased(c, game)).unwrap());
    let deleted = db.write(|c| store::delete(c, alice, now)).unwrap().unwrap();
    assert_eq!((deleted.withdrawn, deleted.erased), (1, 1));
    assert!(
        db.write(|c| store::delete(c, alice, now))
            .unwrap()
            .is_none(),
        "deleted once"
    );
    assert!(db.read(|c| store::match_erased(c, game)).unwrap());
    let p = db
        .read(|c| crate::store::program(c, mine))
        .unwrap()
        .unwrap();
    assert!(p.source.is_empty() && p.status == crate::store::Status::Withdrawn);
    assert!(
        db.read(|c| store::token_account(c, kept, "session", now))
            .unwrap()
            .is_none()
    );
    assert!(db.read(|c| store::password(c, alice)).unwrap().is_none());
    assert_eq!(
        db.read(|c| store::retired_until(c, "ALICE", now)).unwrap(),
        Some(now + store::COOLING_OFF)
    );
    assert_eq!(
        db.read(|c| store::retired_until(c, "alice", now + store::COOLING_OFF))
            .unwrap(),
        None
    );
    assert!(
        db.read(|c| crate::store::account_by_name(c, "alice"))
            .unwrap()
            .is_none()
    );
    assert!(
        db.read(|c| store::token_account(c, bobs, "api", now))
            .unwrap()
            .is_some()
    );
}

#[test]
fn the_queries_work_on_sqlite() {
    let dir =
        std::env::temp_dir().join(fresh(&format!("robots-accounts-q-{}-", std::process::id())));
    std::fs::create_dir_all(&dir).unwrap();
    let db = Db::open(&dir.join("a.sqlite")).unwrap();
    the_queries_work_on(&db);
    drop(db);
    std::fs::remove_dir_all(&dir).unwrap();
}
