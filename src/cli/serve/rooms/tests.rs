//! Rooms at the protocol level, without a network: what each seat and a spectator are sent
//! keeps the other player's secrets (R-A23), and a room's game stopped mid-match is played
//! again from the database to where it stood, then to the same end.

use super::actor::{Command, Message};
use super::{Handle, Rooms, store};
use crate::cli::serve::db::Db;
use crate::cli::serve::store as arena;
use serde_json::Value;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

const MARK_A: &str = "secret-of-alice-91c";
const MARK_B: &str = "secret-of-bob-27d";

struct Place {
    dir: std::path::PathBuf,
    db: Arc<Db>,
    ids: [i64; 2],
}

impl Drop for Place {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn place(tag: &str) -> Place {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("robots-rooms-{tag}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = Arc::new(Db::open(&dir.join("a.sqlite")).unwrap());
    let mut ids = [0; 2];
    for (i, name) in ["alice", "bob"].into_iter().enumerate() {
        ids[i] = db
            .write(|c| arena::account_insert(c, name, "!", 0))
            .unwrap()
            .unwrap();
    }
    Place { dir, db, ids }
}

fn room(p: &Place, code: &str, pace: f64, rounds: u32) {
    let settings = store::Settings {
        game: "battle".into(),
        board: "duel".into(),
        scenario: 1,
        robots: 1,
        rounds,
        pace,
        timeout: 600,
        spectators: true,
        players: 2,
    };
    let seats = ["green", "violet"];
    p.db.write(|c| store::insert(c, (code, p.ids[0]), &settings, &seats, (7, 0)))
        .unwrap();
}

fn program(name: &str, mark: &str) -> String {
    format!(
        "# {mark}\n{}",
        robots::battle::files::shipped::program(name).unwrap()
    )
}

fn say(
    h: &Handle,
    (account, name): (i64, &str),
    message: Message,
) -> Result<Option<Value>, String> {
    let (reply, answer) = tokio::sync::oneshot::channel();
    h.commands
        .send(Command::Act {
            account,
            name: name.into(),
            message,
            reply,
        })
        .unwrap();
    answer.blocking_recv().unwrap()
}

fn view(h: &Handle, account: i64) -> Value {
    serde_json::from_str(&h.published.borrow().view_for(account)).unwrap()
}

/// Both seated with programs, the game started, every robot placed on the first free point
/// facing 1.
fn set_up(p: &Place, h: &Handle) {
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
    room(&p, "secretroom", 200.0, 80);
    let stop = Arc::new(AtomicBool::new(false));
    let rooms = Rooms::new(Arc::clone(&p.db), Arc::clone(&stop));
    let h = rooms.get("secretroom").unwrap().unwrap();
    set_up(&p, &h);
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
    let mut saw_armed = false;
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
    fn db_room(&self, code: &str) -> i64 {
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
        room(&p, code, 150.0, 120);
        let stop = Arc::new(AtomicBool::new(false));
        let first = Rooms::new(Arc::clone(&p.db), Arc::clone(&stop));
        let h = first.get(code).unwrap().unwrap();
        set_up(&p, &h);
        let mut stopped_at = 0;
        let h = if let Some(after) = stop_after {
            std::thread::sleep(after);
            stop.store(true, Ordering::Relaxed);
            std::thread::sleep(Duration::from_millis(700));
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
        ];
        let number = prop_oneof![
            any::<i64>().prop_map(Value::from),
            (-10.0f64..1e6).prop_map(Value::from),
            Just(Value::Null)
        ];
        let typed = (word, number.clone(), number, ".{0,12}", any::<bool>()).prop_map(|(t, a, b, text, flag)| {
            serde_json::json!({"type": t, "colour": if flag { "green" } else { "violet" }, "source": text,
                "ready": flag, "at": [a.clone(), b], "facing": a, "robot": text, "step": 3,
                "turns_per_second": 1000})
            .to_string()
        });
        prop_oneof![typed, ".{0,40}"]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
        /// Any sequence of messages, from the host, the other player or a stranger, before and
        /// during the game: each is answered, the room's thread lives on, every view is JSON.
        #[test]
        fn any_messages_leave_the_room_standing(messages in prop::collection::vec((0usize..3, message()), 1..40)) {
            let p = place("hostile");
            room(&p, "hostileroom", 500.0, 30);
            let stop = Arc::new(AtomicBool::new(false));
            let rooms = Rooms::new(Arc::clone(&p.db), Arc::clone(&stop));
            let h = rooms.get("hostileroom").unwrap().unwrap();
            let stranger = p.db.write(|c| arena::account_insert(c, "carol", "!", 0)).unwrap().unwrap();
            let who = [(p.ids[0], "alice"), (p.ids[1], "bob"), (stranger, "carol")];
            for (i, text) in &messages {
                // The socket's own parse: what does not parse is answered there.
                if let Ok(m) = serde_json::from_str::<Message>(text) {
                    let (reply, answer) = tokio::sync::oneshot::channel();
                    h.commands.send(Command::Act { account: who[*i].0, name: who[*i].1.into(), message: m, reply }).unwrap();
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

/// Waits for `phase` in `round` of a Ricochet room.
fn ricochet_wait(h: &Handle, p: &Place, phase: &str, round: u32) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while view(h, p.ids[0])["phase"] != phase || view(h, p.ids[0])["round"] != round {
        let now = view(h, p.ids[0]);
        assert!(
            Instant::now() < deadline,
            "no {phase} in round {round}: {now}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// One round: alice bids 9 (a raise to 12 refused), bob 5, both pass; bob shows a line that
/// misses, then alice one that cannot move: the server checks both.
fn ricochet_round(h: &Handle, p: &Place, round: u32) {
    let (a, b) = ((p.ids[0], "alice"), (p.ids[1], "bob"));
    ricochet_wait(h, p, "bidding", round);
    assert!(
        view(h, p.ids[0])["svg"]
            .as_str()
            .unwrap()
            .starts_with("<svg")
    );
    say(h, a, Message::Bid { moves: 9 }).unwrap();
    say(h, a, Message::Bid { moves: 12 }).unwrap();
    assert_eq!(
        view(h, p.ids[0])["bids"][0],
        9,
        "a raise is refused (RULES B.1)"
    );
    say(h, b, Message::Bid { moves: 5 }).unwrap();
    say(h, a, Message::Pass).unwrap();
    say(h, b, Message::Pass).unwrap();
    ricochet_wait(h, p, "showing", round);
    assert_eq!(
        view(h, p.ids[1])["showing"]["colour"],
        "2",
        "the lowest bidder shows first"
    );
    let early = Message::Show {
        moves: "red N".into(),
    };
    assert!(say(h, a, early).is_err(), "not alice's turn");
    say(
        h,
        b,
        Message::Show {
            moves: "red N, red E".into(),
        },
    )
    .unwrap();
    ricochet_wait(h, p, "showing", round);
    say(
        h,
        a,
        Message::Show {
            moves: "blue S".into(),
        },
    )
    .unwrap();
}

/// A Ricochet room: bids, passes, demonstrations checked by the server; nothing in any view
/// tells the fewest moves; a restarted server plays the game again from its stored answers.
#[test]
fn a_ricochet_room_plays_its_rounds_and_resumes() {
    let p = place("ricochet");
    let settings = store::Settings {
        game: "ricochet".into(),
        board: "original".into(),
        scenario: 1,
        robots: 1,
        rounds: 1,
        pace: 1.0,
        timeout: 60,
        spectators: true,
        players: 2,
    };
    p.db.write(|c| store::insert(c, ("ricoroom", p.ids[0]), &settings, &["1", "2"], (11, 0)))
        .unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let rooms = Rooms::new(Arc::clone(&p.db), Arc::clone(&stop));
    let h = rooms.get("ricoroom").unwrap().unwrap();
    let (a, b) = ((p.ids[0], "alice"), (p.ids[1], "bob"));
    say(&h, a, Message::Sit { colour: "1".into() }).unwrap();
    say(&h, b, Message::Sit { colour: "2".into() }).unwrap();
    say(&h, a, Message::Ready { ready: true }).unwrap();
    say(&h, b, Message::Ready { ready: true }).unwrap();
    say(&h, a, Message::Start).unwrap();
    for round in 1..=2 {
        ricochet_round(&h, &p, round);
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    while view(&h, p.ids[0])["round"] != 3 {
        assert!(
            Instant::now() < deadline,
            "no third round: {}",
            view(&h, p.ids[0])
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let before = view(&h, p.ids[0]);
    for text in [
        h.published.borrow().spectator.to_string(),
        before.to_string(),
    ] {
        assert!(!text.contains("fewest"), "a view tells the fewest moves");
    }
    let log = before["log"].as_array().unwrap().len();
    let words = before["log"].to_string();
    assert!(
        words.contains("fails") || words.contains("Fails") || words.contains("not"),
        "the demonstrations were checked: {words}"
    );
    assert!(log > 4, "{before}");
    stop.store(true, Ordering::Relaxed);
    std::thread::sleep(Duration::from_millis(700));
    let again = Rooms::new(Arc::clone(&p.db), Arc::new(AtomicBool::new(false)));
    let h = again.get("ricoroom").unwrap().unwrap();
    let after = view(&h, p.ids[0]);
    assert_eq!(after["round"], 3, "played again to the round it stood at");
    assert_eq!(after["log"], before["log"]);
    assert_eq!(after["seats"][1]["tokens"], before["seats"][1]["tokens"]);
}

/// A room's settings for the tests.
fn game_settings(
    game: &str,
    board: &str,
    (rounds, pace, timeout): (u32, f64, u32),
) -> store::Settings {
    store::Settings {
        game: game.into(),
        board: board.into(),
        scenario: 1,
        robots: 1,
        rounds,
        pace,
        timeout,
        spectators: true,
        players: 2,
    }
}

/// A new room `code` with `seats`, its thread started; the flag that stops it.
fn open_room(
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
fn sit_and_start(h: &Handle, p: &Place, seats: [&str; 2], programs: Option<[String; 2]>) {
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
fn wait_over(h: &Handle, p: &Place) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    while view(h, p.ids[0])["phase"] != "over" {
        assert!(Instant::now() < deadline, "{}", view(h, p.ids[0]));
        std::thread::sleep(Duration::from_millis(10));
    }
    view(h, p.ids[0])
}

/// Players away longer than the room's timeout are played by the computer: in a Ricochet
/// room they pass, so a game nobody attends ends on its own.
#[test]
fn a_ricochet_room_plays_on_for_players_away() {
    let p = place("ricochet-away");
    let settings = game_settings("ricochet", "original", (1, 1.0, 0));
    let (h, stop) = open_room(&p, "awayroom", &settings, ["1", "2"], 5);
    sit_and_start(&h, &p, ["1", "2"], None);
    let v = wait_over(&h, &p);
    assert!(v["log"].to_string().contains("passes"), "{v}");
    stop.store(true, Ordering::Relaxed);
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
