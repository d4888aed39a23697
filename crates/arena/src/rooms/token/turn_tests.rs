//! The rooms played in turns of questions, at the protocol level: Ricochet Robots (bids,
//! passes, demonstrations checked, hints for the asker alone, a restart) and Micro Robots
//! (the race to announce, the demonstration checked, the penalty, a restart).

use crate::rooms::live::Handle;
use crate::rooms::protocol::Message;
use crate::rooms::tests::{
    Place, game_settings, open_room, place, say, sit_and_start, view, wait_over,
};
use crate::rooms::{Rooms, store};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

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
    let settings = game_settings("ricochet", "original", (1, 1.0, 60));
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
    crate::rooms::tests::wait_ended(&h);
    let again = Rooms::new(Arc::clone(&p.db), Arc::new(AtomicBool::new(false)));
    let h = again.get("ricoroom").unwrap().unwrap();
    let after = view(&h, p.ids[0]);
    assert_eq!(after["round"], 3, "played again to the round it stood at");
    assert_eq!(after["log"], before["log"]);
    assert_eq!(after["seats"][1]["tokens"], before["seats"][1]["tokens"]);
}

/// Players away longer than the room's timeout are played by the computer: in a Ricochet
/// room they pass, so a game nobody attends ends on its own: R-B3, once every token has
/// been drawn and gone back with none won; the view's result names the ruling.
#[test]
fn r_b3_a_ricochet_room_nobody_attends_ends_after_a_whole_pass_of_the_pile() {
    let p = place("ricochet-away");
    let settings = game_settings("ricochet", "original", (1, 1.0, 0));
    let (h, stop) = open_room(&p, "awayroom", &settings, ["1", "2"], 5);
    sit_and_start(&h, &p, ["1", "2"], None);
    let v = wait_over(&h, &p);
    assert!(v["log"].to_string().contains("passes"), "{v}");
    assert_eq!(v["result"]["ruling"], "R-B3", "{}", v["result"]);
    let reason = v["result"]["reason"].as_str().unwrap();
    assert!(reason.contains("with no token won (R-B3)"), "{reason}");
    assert!(v["round"].as_u64().unwrap() < 200, "before the round limit");
    assert!(v["log"].to_string().contains("(R-B3)"), "the log says it");
    stop.store(true, Ordering::Relaxed);
}

/// Hints, when the host allows them: the solver's answer goes to the asker alone (the other
/// player's view never has it); everyone's log says that a hint was asked; a room without
/// hints gives none.
#[test]
fn a_ricochet_hint_goes_to_the_asker_alone() {
    let p = place("ricochet-hint");
    let mut settings = game_settings("ricochet", "original", (1, 1.0, 60));
    settings.hints = true;
    let (h, stop) = open_room(&p, "hintroom", &settings, ["1", "2"], 11);
    sit_and_start(&h, &p, ["1", "2"], None);
    ricochet_wait(&h, &p, "bidding", 1);
    let (a, b) = ((p.ids[0], "alice"), (p.ids[1], "bob"));
    let hint = say(&h, a, Message::Hint { level: 1 }).unwrap().unwrap();
    let text = hint["text"].as_str().unwrap();
    let fewest: u32 = text
        .strip_prefix("fewest moves: ")
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=20).contains(&fewest), "{hint}");
    let first = say(&h, a, Message::Hint { level: 3 }).unwrap().unwrap();
    assert!(
        first["text"]
            .as_str()
            .unwrap()
            .starts_with("first move of an optimal solution: "),
        "{first}"
    );
    assert!(
        say(&h, b, Message::Hint { level: 4 }).is_err(),
        "levels 1 to 3"
    );
    let theirs = view(&h, p.ids[1]).to_string();
    assert!(
        theirs.contains("player 1 asks for a hint (level 1)"),
        "{theirs}"
    );
    assert!(!theirs.contains(text), "bob's view has alice's hint");
    assert!(!h.published.borrow().spectator.contains("fewest moves"));
    stop.store(true, Ordering::Relaxed);
    let none = game_settings("ricochet", "original", (1, 1.0, 60));
    let (h, stop) = open_room(&p, "nohints", &none, ["1", "2"], 11);
    sit_and_start(&h, &p, ["1", "2"], None);
    ricochet_wait(&h, &p, "bidding", 1);
    assert!(
        say(&h, a, Message::Hint { level: 1 }).is_err(),
        "no hints here"
    );
    stop.store(true, Ordering::Relaxed);
}

/// Waits for `phase` in mission `mission` of a Micro Robots room.
fn micro_wait(h: &Handle, p: &Place, phase: &str, mission: u32) -> serde_json::Value {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let now = view(h, p.ids[0]);
        if now["phase"] == phase && now["mission"] == mission {
            return now;
        }
        assert!(
            Instant::now() < deadline,
            "no {phase} in mission {mission}: {now}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The fewest moves of the mission a view shows, and the cells stopped on (start first).
fn micro_best(view: &serde_json::Value, seed: u64) -> robots_games::micro::solve::Solution {
    use robots_games::micro::board::{Board, Cell};
    let text = robots_games::micro::shipped::micro_face("public-silver").unwrap();
    let face = robots_games::micro::file::parse_face("public-silver", text).unwrap();
    let board = Board::arrange(&face, robots_games::micro::game::draw_arrangement(seed));
    let cell = |k: &str| Cell::parse(view[k].as_str().unwrap()).unwrap();
    robots_games::micro::solve::solve(&board, cell("start"), cell("target"), None).unwrap()
}

fn stops(s: &robots_games::micro::solve::Solution) -> String {
    let words: Vec<String> = s.path[1..].iter().map(ToString::to_string).collect();
    words.join(", ")
}

/// Missions 1 to 3 of the Micro room: alice wins the first, fails the second (her token goes
/// to bob), both pass the third; the view of mission 4.
fn micro_missions(h: &Handle, p: &Place) -> serde_json::Value {
    let (a, b) = ((p.ids[0], "alice"), (p.ids[1], "bob"));
    let first = micro_wait(h, p, "racing", 1);
    assert!(
        first["svg"]
            .as_str()
            .unwrap()
            .contains("class=\"cell cell-")
    );
    assert!(!first.to_string().contains("fewest"), "{first}");
    let best = micro_best(&first, 13);
    let moves = u32::try_from(best.moves).unwrap();
    assert!(
        say(
            h,
            b,
            Message::Announce {
                moves: 0,
                mission: None
            }
        )
        .is_err(),
        "1 to 99 moves"
    );
    say(
        h,
        a,
        Message::Announce {
            moves,
            mission: Some(1),
        },
    )
    .unwrap();
    micro_wait(h, p, "showing", 1);
    assert!(
        say(
            h,
            b,
            Message::Announce {
                moves: 1,
                mission: None
            }
        )
        .is_err(),
        "the race is over"
    );
    let by_bob = Message::Show {
        moves: stops(&best),
    };
    assert!(say(h, b, by_bob).is_err(), "alice shows");
    let bad = Message::Show { moves: "Z9".into() };
    assert!(say(h, a, bad).is_err(), "not a cell");
    say(
        h,
        a,
        Message::Show {
            moves: stops(&best),
        },
    )
    .unwrap();
    micro_penalty_and_passes(h, p, &first)
}

/// Mission 2: alice announces one too many and fails (her token to bob); both pass mission
/// 3; the view of mission 4.
fn micro_penalty_and_passes(h: &Handle, p: &Place, first: &serde_json::Value) -> serde_json::Value {
    let (a, b) = ((p.ids[0], "alice"), (p.ids[1], "bob"));
    // Mission 2: alice announces one too many and shows the fewest: she fails and gives her
    // token to bob (RULES C.1, the penalty).
    let second = micro_wait(h, p, "racing", 2);
    assert_eq!(second["seats"][0]["tokens"], 1, "{second}");
    assert_eq!(second["reserve"], 24);
    assert_eq!(
        second["start"], first["target"],
        "the target is the next start"
    );
    let best = micro_best(&second, 13);
    let stale = Message::Announce {
        moves: 2,
        mission: Some(1),
    };
    assert!(
        say(h, b, stale).is_err(),
        "an announcement for mission 1 is late"
    );
    say(
        h,
        a,
        Message::Announce {
            moves: u32::try_from(best.moves).unwrap() + 1,
            mission: Some(2),
        },
    )
    .unwrap();
    micro_wait(h, p, "showing", 2);
    say(
        h,
        a,
        Message::Show {
            moves: stops(&best),
        },
    )
    .unwrap();
    let third = micro_wait(h, p, "racing", 3);
    assert_eq!(third["seats"][0]["tokens"], 0, "{third}");
    assert_eq!(third["seats"][1]["tokens"], 1, "{third}");
    say(h, a, Message::Pass).unwrap();
    assert!(
        say(
            h,
            a,
            Message::Announce {
                moves: 3,
                mission: None
            }
        )
        .is_err(),
        "alice passed"
    );
    say(h, b, Message::Pass).unwrap();
    micro_wait(h, p, "racing", 4)
}

/// A Micro Robots room (RULES C.1): the first announcement wins the race and its player
/// shows the cells, checked by the game (a token); a wrong count fails and costs a token to
/// the one with the fewest (the penalty); both passing, nobody finds; no view tells the
/// fewest moves; a restarted server plays the game again to the mission it stood at.
#[test]
fn a_micro_room_races_checks_and_resumes() {
    let p = place("micro");
    let mut settings = game_settings("micro", "public-silver", (1, 1.0, 60));
    settings.variant = "standard".into();
    let (h, stop) = open_room(&p, "microroom", &settings, ["1", "2"], 13);
    sit_and_start(&h, &p, ["1", "2"], None);
    let before = micro_missions(&h, &p);
    let words = before["log"].to_string();
    for said in [
        "wins the token",
        "fails",
        "gives a token to bob",
        "nobody finds",
    ] {
        assert!(words.contains(said), "{said}: {words}");
    }
    stop.store(true, Ordering::Relaxed);
    crate::rooms::tests::wait_ended(&h);
    let again = Rooms::new(Arc::clone(&p.db), Arc::new(AtomicBool::new(false)));
    let h = again.get("microroom").unwrap().unwrap();
    let after = micro_wait(&h, &p, "racing", 4);
    assert_eq!(
        after["log"], before["log"],
        "played again from the stored answers"
    );
    assert_eq!(after["seats"], before["seats"]);
    assert_eq!(after["start"], before["start"]);
}
