//! The Ricochet and Micro Robots methods natively, through [`crate::call`]: answers, the
//! games crate's own figures, and hostile requests answered with errors. That the wasm gives
//! the binary's move counts is `web/test/puzzles-agree.mjs`'s.

use crate::call;
use serde_json::{Value, json};

fn answer(method: &str, request: &Value) -> Value {
    serde_json::from_str(&call(method, &request.to_string())).unwrap()
}

fn ok(method: &str, request: &Value) -> Value {
    let a = answer(method, request);
    a.get("ok").cloned().unwrap_or_else(|| panic!("{a}"))
}

/// The error's kind and message.
fn error(method: &str, request: &Value) -> (String, String) {
    let a = answer(method, request);
    let e = &a["error"];
    assert!(e.is_object(), "{a}");
    (
        e["kind"].as_str().unwrap().into(),
        e["message"].as_str().unwrap().into(),
    )
}

/// Each request answered with an error of its kind.
fn refused(bad: &[(&str, Value, &str)]) {
    for (method, request, kind) in bad {
        let (k, message) = error(method, request);
        assert_eq!(k, *kind, "{method} {request}: {message}");
    }
}

const HARD_24: &str = "0765+42+2E21BD0F+93";

#[test]
fn a_game_id_is_drawn_solved_and_its_solution_checks() {
    let p = ok("ricochetPosition", &json!({"id": HARD_24}));
    assert_eq!(p["id"], HARD_24);
    assert_eq!(p["position"]["width"], 16);
    assert_eq!(p["position"]["goal"]["robot"], "blue");
    assert_eq!(p["targets"].as_array().unwrap().len(), 17);
    let spec = json!({"id": "0271+40+67FC9838+E2", "mustRicochet": false});
    let s = ok("ricochetSolve", &json!({"spec": spec}));
    let moves = s["moves"].as_u64().unwrap();
    let r = ok(
        "ricochetReplay",
        &json!({"spec": spec, "moves": s["solution"]}),
    );
    assert_eq!(r["check"]["valid"], true, "{r}");
    assert_eq!(r["check"]["moves"].as_u64(), Some(moves));
    assert_eq!(r["steps"].as_array().unwrap().len() as u64, moves);
}

#[test]
fn a_seed_is_ricochet_randoms_position() {
    let p = ok("ricochetPosition", &json!({"seed": 1}));
    assert_eq!(p["id"], "0271+40+67FC9838+E2");
    let many = ok(
        "ricochetSolveMany",
        &json!({"ids": ["0271+40+67FC9838+E2"], "mustRicochet": true}),
    );
    let one = ok("ricochetSolve", &json!({"spec": {"seed": 1}}));
    assert_eq!(many[0], one["moves"]);
}

#[test]
fn hints_say_what_ricochet_hint_says_level_by_level() {
    let spec = json!({"seed": 7});
    let best = ok("ricochetSolve", &json!({"spec": spec}))["moves"].clone();
    let one = ok("ricochetHint", &json!({"spec": spec, "level": 1}));
    assert_eq!(one["lines"][0], format!("fewest moves: {best}"));
    let two = ok("ricochetHint", &json!({"spec": spec, "level": 2}));
    let line = two["lines"][0].as_str().unwrap();
    assert!(line.contains("every optimal solution moves"), "{two}");
    let three = ok("ricochetHint", &json!({"spec": spec, "level": 3}));
    assert!(
        three["lines"][0]
            .as_str()
            .unwrap()
            .starts_with("first move of an optimal solution: "),
        "{three}"
    );
    let all = ok("ricochetAll", &json!({"spec": spec, "limit": 5}));
    assert_eq!(all["moves"], best);
    assert!(all["count"].as_u64().unwrap() >= 1);
}

#[test]
fn a_move_that_cannot_be_played_is_refused_with_its_number() {
    let spec = json!({"id": HARD_24});
    // Red moves north until the wall, then cannot move north again.
    let (kind, message) = error(
        "ricochetReplay",
        &json!({"spec": spec, "moves": [{"robot": "red", "dir": "N"}, {"robot": "red", "dir": "N"}]}),
    );
    assert_eq!(kind, "setup");
    assert!(message.starts_with("move 2 (red N)"), "{message}");
}

#[test]
fn a_ricochets_board_file_is_a_position_its_robots_on_their_bases() {
    let text = include_str!("../../../boards/ricochet/ricochets-10x8.yaml");
    let p = ok("ricochetPosition", &json!({"board": text, "target": 0}));
    assert_eq!(p["position"]["width"], 10);
    assert_eq!(p["noSingleMove"], true);
    let s = ok(
        "ricochetSolve",
        &json!({"spec": {"board": text, "target": 1}}),
    );
    assert!(s["moves"].as_u64().unwrap() >= 2, "{s}");
}

#[test]
fn the_puzzle_of_the_day_is_the_same_for_the_same_date() {
    let day = json!({"date": "2026-11-28", "moves": 7});
    let a = ok("ricochetDaily", &day);
    assert_eq!(a, ok("ricochetDaily", &day));
    let s = ok("ricochetSolve", &json!({"spec": {"id": a["id"]}}));
    assert_eq!(s["moves"], 7);
    let other = ok("ricochetDaily", &json!({"date": "2026-11-29", "moves": 7}));
    assert_ne!(a["id"], other["id"]);
}

#[test]
fn hostile_ricochet_requests_get_errors() {
    let bad = [
        (
            "ricochetPosition",
            json!({"id": "0765+42+2E21BD0F"}),
            "request",
        ),
        (
            "ricochetPosition",
            json!({"id": "0".repeat(100_000)}),
            "request",
        ),
        (
            "ricochetPosition",
            json!({"id": HARD_24, "seed": 3}),
            "request",
        ),
        ("ricochetPosition", json!({}), "request"),
        (
            "ricochetPosition",
            json!({"seed": 1, "robots": 9}),
            "request",
        ),
        (
            "ricochetPosition",
            json!({"board": "size: [5000, 5000]\n"}),
            "file",
        ),
        (
            "ricochetPosition",
            json!({"position": "board: {file: x.yaml}\n"}),
            "file",
        ),
    ];
    refused(&bad);
}

#[test]
fn hostile_ricochet_searches_get_errors() {
    let bad = [
        (
            "ricochetSolve",
            json!({"spec": {"seed": 1}, "maxStates": 1u64 << 40}),
            "limit",
        ),
        (
            "ricochetSolve",
            json!({"spec": {"seed": 1}, "maxMoves": 0}),
            "limit",
        ),
        (
            "ricochetSolve",
            json!({"spec": {"id": "7650+42+E2302B12+C9"}, "maxStates": 1000}),
            "unsolved",
        ),
        (
            "ricochetSolve",
            json!({"spec": {"seed": 1}, "maxMoves": 1}),
            "unsolved",
        ),
        (
            "ricochetReplay",
            json!({"spec": {"seed": 1}, "moves": [{"robot": "pink", "dir": "N"}]}),
            "request",
        ),
        (
            "ricochetReplay",
            json!({"spec": {"seed": 1}, "moves": [{"robot": "red", "dir": "NE"}]}),
            "request",
        ),
        (
            "ricochetAll",
            json!({"spec": {"seed": 1}, "limit": 1_000_000}),
            "limit",
        ),
        (
            "ricochetDaily",
            json!({"date": "tomorrow", "moves": 5}),
            "request",
        ),
        (
            "ricochetDaily",
            json!({"date": "2026-11-28", "moves": 40}),
            "limit",
        ),
        (
            "ricochetSolveMany",
            json!({"ids": vec!["x"; 6000]}),
            "limit",
        ),
    ];
    refused(&bad);
}

#[test]
fn micro_boards_rolls_solutions_and_walks() {
    let faces = ok("microFaces", &json!({}));
    assert_eq!(faces["faces"].as_array().unwrap().len(), 4);
    assert_eq!(faces["arrangements"], 1536);
    let b = ok(
        "microBoard",
        &json!({"face": "silver", "tiles": [2, 1, 3, 4], "turns": [1, 0, 0, 3]}),
    );
    assert_eq!(b["rows"].as_array().unwrap().len(), 6);
    assert_eq!(b["tiles"], json!([2, 1, 3, 4]));
    let on = json!({"seed": 9});
    let r = ok(
        "microRoll",
        &json!({"on": on, "roll": 4, "variant": "waypoint"}),
    );
    assert!(r["via"].is_string(), "{r}");
    let s = ok(
        "microSolve",
        &json!({"on": on, "from": r["from"], "to": r["to"], "via": r["via"]}),
    );
    assert_eq!(s["moves"], r["moves"]);
    let path: Vec<Value> = s["path"].as_array().unwrap()[1..].to_vec();
    let c = ok(
        "microCheck",
        &json!({"on": on, "from": r["from"], "to": r["to"], "via": r["via"], "stops": path}),
    );
    assert_eq!(
        (c["legal"].clone(), c["won"].clone()),
        (json!(true), json!(true)),
        "{c}"
    );
    let c = ok(
        "microCheck",
        &json!({"on": on, "from": r["from"], "to": r["to"], "stops": [r["from"]]}),
    );
    assert_eq!(c["legal"], false);
    assert!(c["illegal"].as_str().unwrap().contains("must move"), "{c}");
    let h = ok(
        "microHint",
        &json!({"on": on, "from": r["from"], "to": r["to"], "level": 2}),
    );
    assert!(h["line"].as_str().unwrap().starts_with("first stop"), "{h}");
}

#[test]
fn hostile_micro_requests_get_errors() {
    let bad = [
        ("microBoard", json!({"face": "gold"}), "request"),
        ("microBoard", json!({"tiles": [1, 1, 2, 3]}), "request"),
        (
            "microBoard",
            json!({"tiles": [1, 2, 3, 4], "seed": 3}),
            "request",
        ),
        ("microBoard", json!({"board": "rows: [[B1]]\n"}), "file"),
        (
            "microSolve",
            json!({"on": {}, "from": "Q1", "to": "B2"}),
            "request",
        ),
        (
            "microRoll",
            json!({"on": {}, "roll": 1, "variant": "fast"}),
            "request",
        ),
        ("microAnalyse", json!({"face": "../etc/passwd"}), "request"),
    ];
    refused(&bad);
}

/// A 64 x 64 Ricochets board with no wall: the red robot's target in the middle, which only
/// robots stopping one another reach, so the general search grows without end.
const BIG_BOARD: &str = "name: big 64x64\nsize: [64, 64]\ntargets:\n  - [31, 33, red, circle]\nbases:\n  red: [0, 0]\n  green: [63, 0]\n  blue: [0, 63]\n  yellow: [63, 63]\n";

#[test]
fn a_hostile_big_board_stops_at_the_pages_budget_with_words() {
    use crate::ricochet::{MAX_GENERAL_STATES, MAX_STATES};
    let started = std::time::Instant::now();
    let (kind, message) = error(
        "ricochetSolve",
        &json!({"spec": {"board": BIG_BOARD, "target": 0}}),
    );
    assert_eq!(kind, "unsolved", "{message}");
    // Seconds, not minutes: 60 s would be the command line's 7 million states' pace.
    assert!(started.elapsed().as_secs() < 60, "{:?}", started.elapsed());
    assert_eq!(
        message,
        format!(
            "gave up after {MAX_GENERAL_STATES} states, the most the page searches on a board other than the standard 16 x 16 (`robots ricochet solve` searches up to {MAX_STATES})"
        )
    );
    // The command line's budget is not the page's on such a board, even when asked.
    let (kind, message) = error(
        "ricochetHint",
        &json!({"spec": {"board": BIG_BOARD}, "maxStates": MAX_STATES}),
    );
    assert_eq!(
        (kind.as_str(), message.as_str()),
        ("limit", "maxStates: 1 to 500000 on this board")
    );
    // A standard position keeps the command line's budget: the hardest of the bench solves.
    let s = ok(
        "ricochetSolve",
        &json!({"spec": {"id": "7650+42+E2302B12+C9", "mustRicochet": false}}),
    );
    assert_eq!(s["moves"], 25);
}
