//! Rooms at the protocol level, without a network: what each seat and a spectator are sent
//! keeps the other player's secrets (R-A23), and a room's game stopped mid-match is played
//! again from the database to where it stood, then to the same end. The rooms of Ricochet
//! and Micro Robots: `turn_tests.rs`.

use super::live::{Asked, Command, Handle};
use super::protocol::Message;
use super::{Rooms, store};
use crate::db::Db;
use crate::db::ids::{AccountId, RoomId};
use crate::store as arena;
use serde_json::Value;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

const MARK_A: &str = "secret-of-alice-91c";
const MARK_B: &str = "secret-of-bob-27d";

pub(crate) struct Place {
    /// The folder removed at the end (none for a database elsewhere).
    dir: std::path::PathBuf,
    pub(crate) db: Arc<Db>,
    pub(crate) ids: [AccountId; 2],
}

impl Drop for Place {
    fn drop(&mut self) {
        if !self.dir.as_os_str().is_empty() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

pub(super) fn place(tag: &str) -> Place {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("robots-rooms-{tag}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = Arc::new(Db::open(&dir.join("a.sqlite")).unwrap());
    let mut ids = [AccountId(0); 2];
    for (i, name) in ["alice", "bob"].into_iter().enumerate() {
        ids[i] = db
            .write(|c| arena::account_insert(c, name, "!", 0))
            .unwrap()
            .unwrap();
    }
    Place { dir, db, ids }
}

pub(crate) fn battle_room(p: &Place, code: &str, pace: f64, rounds: u32) {
    let settings = game_settings("battle", "duel", (rounds, pace, 600));
    let seats = ["green", "violet"];
    p.db.write(|c| store::insert(c, (code, p.ids[0]), &settings, &seats, (7, 0)))
        .unwrap();
}

fn program(name: &str, mark: &str) -> String {
    format!(
        "# {mark}\n{}",
        robots_games::battle::files::shipped::program(name).unwrap()
    )
}

pub(crate) fn say(
    h: &Handle,
    (account, name): (AccountId, &str),
    message: Message,
) -> Result<Option<Value>, String> {
    let (reply, answer) = tokio::sync::oneshot::channel();
    h.commands
        .send(Command::Act(Asked {
            account,
            name: name.into(),
            message,
            reply,
        }))
        .unwrap();
    let answer = answer.blocking_recv().unwrap()?;
    Ok(answer.map(|a| serde_json::to_value(a).unwrap()))
}

/// Waits until the room's thread has ended (its last writes done): a room stopped then
/// opened again by a new server is read from a database nobody writes any more.
pub(crate) fn wait_ended(h: &Handle) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while h.published.has_changed().is_ok() {
        assert!(Instant::now() < deadline, "the room's thread does not end");
        std::thread::sleep(Duration::from_millis(5));
    }
}

pub(crate) fn view(h: &Handle, account: AccountId) -> Value {
    serde_json::from_str(&h.published.borrow().view_for(account)).unwrap()
}

/// Both seated with programs, the game started, every robot placed on the first free point
/// facing 1.
pub(crate) fn set_up_room(p: &Place, h: &Handle) {
    let (a, b) = ((p.ids[0], "alice"), (p.ids[1], "bob"));
    say(
        h,
        a,
        Message::Sit {
            colour: "green".into(),
        },
    )
    .unwrap();
    say(
        h,
        b,
        Message::Sit {
            colour: "violet".into(),
        },
    )
    .unwrap();
    let bad = say(
        h,
        a,
        Message::Program {
            source: "1 GO 99\n".into(),
        },
    )
    .unwrap()
    .unwrap();
    assert_eq!(bad["diagnostics"][0]["severity"], "error", "{bad}");
    assert!(
        say(h, a, Message::Ready { ready: true }).is_err(),
        "no program yet"
    );
    say(
        h,
        a,
        Message::Program {
            source: program("hunter", MARK_A),
        },
    )
    .unwrap();
    say(
        h,
        b,
        Message::Program {
            source: program("turret", MARK_B),
        },
    )
    .unwrap();
    assert!(say(h, a, Message::Start).is_err(), "not ready");
    say(h, a, Message::Ready { ready: true }).unwrap();
    say(h, b, Message::Ready { ready: true }).unwrap();
    assert!(say(h, b, Message::Start).is_err(), "bob is not the host");
    say(h, a, Message::Start).unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while view(h, p.ids[0])["phase"] == "placing" {
        assert!(Instant::now() < deadline, "placement does not end");
        let v = view(h, p.ids[0]);
        let (Some(waiting), Some(free)) =
            (v["waiting_for"].as_str(), v["place"]["free"].as_array())
        else {
            std::thread::sleep(Duration::from_millis(5));
            continue;
        };
        let who = if waiting == "green" { a } else { b };
        let other = if waiting == "green" { b } else { a };
        let at = [0, 1].map(|k| i32::try_from(free[0][k].as_i64().unwrap()).unwrap());
        assert!(
            say(h, other, Message::Place { at, facing: 1 }).is_err(),
            "not the other's turn"
        );
        say(h, who, Message::Place { at, facing: 1 }).unwrap();
    }
}

/// A view sent to someone else than alice: no text of hers before the end, never the step
/// of a signal of her robots, set or waiting.
fn keeps_alices_secrets(who: &str, text: &str, over: bool) {
    let v: Value = serde_json::from_str(text).unwrap();
    if !over {
        assert!(!text.contains(MARK_A), "{who} was sent alice's program");
    }
    let green = |s: &Value| s["robot"].as_str().unwrap_or("").starts_with("green");
    assert!(
        !v["my_signals"].as_array().unwrap().iter().any(green),
        "{who}: {v}"
    );
    assert!(
        !v["ask_signal"].get("armed").is_some_and(green),
        "{who}: {v}"
    );
}

/// Every view sent until the game is over: bob's and a spectator's never hold alice's text
/// nor the step of her signal; hers holds her signal; at the end both texts are revealed.
#[test]
fn each_view_keeps_the_other_players_secrets() {
    let p = place("secrets");
    battle_room(&p, "secretroom", 200.0, 80);
    let stop = Arc::new(AtomicBool::new(false));
    let rooms = Rooms::new(Arc::clone(&p.db), Arc::clone(&stop));
    let h = rooms.get("secretroom").unwrap().unwrap();
    set_up_room(&p, &h);
    say(
        &h,
        (p.ids[0], "alice"),
        Message::Signal {
            robot: "green.1".into(),
            step: 3,
        },
    )
    .unwrap();
    let theirs = Message::Signal {
        robot: "green.1".into(),
        step: 3,
    };
    assert!(say(&h, (p.ids[1], "bob"), theirs).is_err());
    // The state a message made is published before its answer: alice's signal is set now.
    let mut saw_armed = view(&h, p.ids[0])["ask_signal"]["armed"]["step"] == 3;
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let published = h.published.borrow().clone();
        let (mine, bobs, spectator) = (
            published.view_for(p.ids[0]),
            published.view_for(p.ids[1]),
            Arc::clone(&published.spectator),
        );
        let over = bobs.contains("\"phase\":\"over\"");
        for (who, text) in [("bob", &bobs), ("a spectator", &spectator)] {
            keeps_alices_secrets(who, text, over);
        }
        assert!(
            !mine.contains(MARK_B) || over,
            "alice was sent bob's program"
        );
        let v: Value = serde_json::from_str(&mine).unwrap();
        saw_armed |= v["ask_signal"]["armed"]["step"] == 3;
        if over {
            assert!(
                bobs.contains(MARK_A) && spectator.contains(MARK_B),
                "the texts are revealed at the end"
            );
            break;
        }
        assert!(Instant::now() < deadline, "the game does not end: {mine}");
        std::thread::sleep(Duration::from_millis(1));
    }
    assert!(saw_armed, "alice saw her signal set");
    let stored =
        p.db.read(|c| store::actions(c, p.db_room("secretroom")))
            .unwrap();
    assert!(
        stored.iter().any(|a| a.contains("\"signal\"")),
        "the signal was sent and stored: {stored:?}"
    );
    stop.store(true, Ordering::Relaxed);
}

impl Place {
    /// Two accounts already made in `db` (PostgreSQL: `pg_tests.rs`).
    pub(crate) fn on(db: Arc<Db>, ids: [AccountId; 2]) -> Place {
        Place {
            dir: std::path::PathBuf::new(),
            db,
            ids,
        }
    }

    fn db_room(&self, code: &str) -> RoomId {
        self.db
            .read(|c| store::by_code(c, code))
            .unwrap()
            .unwrap()
            .id
    }
}

/// A game stopped in the middle (the server's threads ended) is played again from the
/// database by a new server, goes on, and ends as the same game played through.
#[test]
fn a_stopped_room_plays_on_from_where_it_stood() {
    let p = place("resume");
    let end = |code: &str, stop_after: Option<Duration>| -> (Value, u64) {
        battle_room(&p, code, 150.0, 120);
        let stop = Arc::new(AtomicBool::new(false));
        let first = Rooms::new(Arc::clone(&p.db), Arc::clone(&stop));
        let h = first.get(code).unwrap().unwrap();
        set_up_room(&p, &h);
        let mut stopped_at = 0;
        let h = if let Some(after) = stop_after {
            std::thread::sleep(after);
            stop.store(true, Ordering::Relaxed);
            wait_ended(&h);
            stopped_at =
                p.db.read(|c| store::by_code(c, code))
                    .unwrap()
                    .unwrap()
                    .turn;
            let again = Rooms::new(Arc::clone(&p.db), Arc::new(AtomicBool::new(false)));
            let h = again.get(code).unwrap().unwrap();
            assert!(
                view(&h, p.ids[0])["turn"].as_u64().unwrap() >= stopped_at,
                "played again to where it stood"
            );
            std::mem::forget(again);
            h
        } else {
            h
        };
        let deadline = Instant::now() + Duration::from_secs(60);
        while view(&h, p.ids[0])["phase"] != "over" {
            assert!(Instant::now() < deadline, "the game does not end");
            std::thread::sleep(Duration::from_millis(10));
        }
        let mut v = view(&h, p.ids[0]);
        v["seats"] = Value::Null;
        (v, stopped_at)
    };
    let (through, _) = end("roomone", None);
    let (resumed, stopped_at) = end("roomtwo", Some(Duration::from_millis(300)));
    assert!(stopped_at > 0, "the first server played some turns");
    let strip = |mut v: Value| {
        v["log"] = Value::Null;
        v
    };
    assert_eq!(through["result"], resumed["result"]);
    assert_eq!(through["log"], resumed["log"]);
    assert_eq!(strip(through), strip(resumed));
}

mod hostile {
    use super::*;
    use proptest::prelude::*;

    /// A message a stranger might send: any JSON with the room's keys, or any text.
    fn message() -> impl Strategy<Value = String> {
        let word = prop_oneof![
            Just("sit"),
            Just("program"),
            Just("ready"),
            Just("start"),
            Just("place"),
            Just("signal"),
            Just("skip"),
            Just("pace"),
            Just("pause"),
            Just("resume"),
            Just("bid"),
            Just("pass"),
            Just("show"),
            Just("announce"),
            Just("hint"),
        ];
        let number = prop_oneof![
            any::<i64>().prop_map(Value::from),
            (-10.0f64..1e6).prop_map(Value::from),
            Just(Value::Null)
        ];
        let seat = prop_oneof![Just("green"), Just("violet"), Just("1"), Just("2")];
        let typed = (word, number.clone(), number, ".{0,12}", any::<bool>(), seat).prop_map(|(t, a, b, text, flag, seat)| {
            serde_json::json!({"type": t, "colour": seat, "source": text,
                "ready": flag, "at": [a.clone(), b.clone()], "facing": a, "robot": text, "step": 3,
                "turns_per_second": 1000, "moves": if flag { b } else { Value::from(text) }, "level": 2})
            .to_string()
        });
        prop_oneof![typed, ".{0,40}"]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
        /// Any sequence of messages, from the host, the other player or a stranger, before and
        /// during the game, in a room of each game: each is answered, the room's thread lives
        /// on, every view is JSON.
        #[test]
        fn any_messages_leave_the_room_standing(game in 0usize..3, messages in prop::collection::vec((0usize..3, message()), 1..40)) {
            let p = place("hostile");
            let (game, board, seats) = [("battle", "duel", ["green", "violet"]), ("ricochet", "original", ["1", "2"]),
                ("micro", "public-silver", ["1", "2"])][game];
            let mut settings = game_settings(game, board, (30, 500.0, 600));
            settings.hints = true;
            p.db.write(|c| store::insert(c, ("hostileroom", p.ids[0]), &settings, &seats, (7, 0))).unwrap();
            let stop = Arc::new(AtomicBool::new(false));
            let rooms = Rooms::new(Arc::clone(&p.db), Arc::clone(&stop));
            let h = rooms.get("hostileroom").unwrap().unwrap();
            let stranger = p.db.write(|c| arena::account_insert(c, "carol", "!", 0)).unwrap().unwrap();
            let who = [(p.ids[0], "alice"), (p.ids[1], "bob"), (stranger, "carol")];
            for (i, text) in &messages {
                // The socket's own parse: what does not parse is answered there.
                if let Ok(m) = serde_json::from_str::<Message>(text) {
                    let (reply, answer) = tokio::sync::oneshot::channel();
                    h.commands.send(Command::Act(Asked { account: who[*i].0, name: who[*i].1.into(), message: m, reply })).unwrap();
                    prop_assert!(answer.blocking_recv().is_ok(), "the room's thread answers");
                }
                for account in [p.ids[0], p.ids[1], stranger] {
                    let v: Value = serde_json::from_str(&h.published.borrow().view_for(account)).unwrap();
                    prop_assert_eq!(&v["type"], "state");
                }
            }
            stop.store(true, Ordering::Relaxed);
        }
    }
}

/// A room's settings for the tests.
pub(crate) fn game_settings(
    game: &str,
    board: &str,
    (rounds, pace, timeout): (u32, f64, u32),
) -> store::Settings {
    store::Settings {
        game: game.parse().unwrap(),
        board: board.into(),
        scenario: 1,
        robots: 1,
        rounds,
        pace,
        timeout,
        spectators: true,
        players: 2,
        variant: "standard".into(),
        hints: false,
    }
}

/// A new room `code` with `seats`, its thread started; the flag that stops it.
pub(super) fn open_room(
    p: &Place,
    code: &str,
    settings: &store::Settings,
    seats: [&str; 2],
    seed: u64,
) -> (Handle, Arc<AtomicBool>) {
    p.db.write(|c| store::insert(c, (code, p.ids[0]), settings, &seats, (seed, 0)))
        .unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let rooms = Rooms::new(Arc::clone(&p.db), Arc::clone(&stop));
    let h = rooms.get(code).unwrap().unwrap();
    std::mem::forget(rooms);
    (h, stop)
}

/// Alice and bob sit in `seats`, send `programs` (battle), say ready; alice starts.
pub(super) fn sit_and_start(
    h: &Handle,
    p: &Place,
    seats: [&str; 2],
    programs: Option<[String; 2]>,
) {
    let who = [(p.ids[0], "alice"), (p.ids[1], "bob")];
    for (i, seat) in seats.iter().enumerate() {
        say(
            h,
            who[i],
            Message::Sit {
                colour: (*seat).into(),
            },
        )
        .unwrap();
        if let Some(programs) = &programs {
            say(
                h,
                who[i],
                Message::Program {
                    source: programs[i].clone(),
                },
            )
            .unwrap();
        }
        say(h, who[i], Message::Ready { ready: true }).unwrap();
    }
    say(h, who[0], Message::Start).unwrap();
}

/// Waits for the end of a room's game.
pub(super) fn wait_over(h: &Handle, p: &Place) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    while view(h, p.ids[0])["phase"] != "over" {
        assert!(Instant::now() < deadline, "{}", view(h, p.ids[0]));
        std::thread::sleep(Duration::from_millis(10));
    }
    view(h, p.ids[0])
}

/// In a battle room the computer places the robots of a player away longer than the timeout
/// (a free start point and a facing drawn from the room's seed), and the match plays on.
#[test]
fn a_battle_room_places_for_players_away() {
    let p = place("battle-away");
    let settings = game_settings("battle", "duel", (20, 500.0, 0));
    let (h, stop) = open_room(&p, "awaybattle", &settings, ["green", "violet"], 3);
    let programs = [program("hunter", MARK_A), program("turret", MARK_B)];
    sit_and_start(&h, &p, ["green", "violet"], Some(programs));
    let v = wait_over(&h, &p);
    assert_eq!(v["seats"][0]["computer"], true, "{v}");
    assert_eq!(v["robots"].as_array().unwrap().len(), 2);
    stop.store(true, Ordering::Relaxed);
}
