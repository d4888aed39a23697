//! The methods natively, through [`crate::call`] as the wire calls them: answers and their
//! failures. That they agree with the binary byte for byte is `web/test/agree.mjs`'s.

use crate::call;
use serde_json::{Value, json};

/// The answer's value, or the test fails with the error.
fn ok(method: &str, request: &Value) -> Value {
    let answer: Value = serde_json::from_str(&call(method, &request.to_string())).unwrap();
    answer
        .get("ok")
        .cloned()
        .unwrap_or_else(|| panic!("{answer}"))
}

/// The answer's error kind and message.
fn error(method: &str, request: &str) -> (String, String) {
    let answer: Value = serde_json::from_str(&call(method, request)).unwrap();
    let e = &answer["error"];
    assert!(e.is_object(), "{answer}");
    (
        e["kind"].as_str().unwrap().into(),
        e["message"].as_str().unwrap().into(),
    )
}

#[test]
fn check_gives_the_line_and_column_of_a_mistake_and_did_you_mean() {
    let v = ok(
        "check",
        &json!({"text": "1 GO 1\n2 ROT +1\n", "file": "x.robot"}),
    );
    assert_eq!(v["summary"], Value::Null);
    let d = &v["diagnostics"][0];
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(2), Some(3)),
        "{d}"
    );
    assert_eq!(d["severity"], "error");
    assert_eq!(d["file"], "x.robot");
    let v = ok("check", &json!({"text": "1 GO 1\n"}));
    assert!(
        v["summary"]
            .as_str()
            .unwrap()
            .starts_with("program.robot: ok (program, 1 step"),
        "{v}"
    );
}

#[test]
fn check_refuses_a_program_over_the_command_lines_limit() {
    let text = "# x\n".repeat(robots_games::text::MAX_INPUT_BYTES / 4 + 1);
    let v = ok("check", &json!({"text": text}));
    let message = v["diagnostics"][0]["message"].as_str().unwrap();
    assert!(message.contains("larger than 4 MiB"), "{message}");
}

#[test]
fn play_gives_the_run_the_log_and_the_viewers_document() {
    let v = ok("play", &json!({"seed": 5}));
    let text = v["text"].as_str().unwrap();
    assert!(
        text.starts_with("default on classic (scenario 1, seed 5)"),
        "{text}"
    );
    assert!(text.contains(" of play …\n\n"), "{text}");
    let log = v["log"].as_str().unwrap();
    assert!(log.len() > text.len() && log.contains("fires"), "{log}");
    let doc: Value = serde_json::from_str(v["docJson"].as_str().unwrap()).unwrap();
    assert_eq!(doc["v"], 3);
    assert_eq!(doc["seed"], "5");
    assert!(doc["frames"].as_array().unwrap().len() > 10);
}

#[test]
fn play_takes_teams_and_programs_of_its_own() {
    let request = json!({
        "teams": [{"colour": "green", "program": "mine"}, {"colour": "violet", "program": "hunter"}],
        "robots": 2, "board": "duel", "scenario": 2, "files": {"mine.robot": "1 GO 1\n"}, "rounds": 30,
    });
    let v = ok("play", &request);
    assert!(
        v["text"].as_str().unwrap().contains("green: mine ×2"),
        "{v}"
    );
    let doc: Value = serde_json::from_str(v["docJson"].as_str().unwrap()).unwrap();
    assert_eq!(
        (doc["scenario"].as_u64(), doc["rounds"].as_u64()),
        (Some(2), Some(30))
    );
}

#[test]
fn a_match_too_long_for_a_page_is_refused_not_played_to_its_end() {
    let request = r#"{"teams": [{"colour": "green", "program": "sentinel"}, {"colour": "violet", "program": "sentinel"}], "rounds": 2000000}"#;
    let (kind, message) = error("play", request);
    assert_eq!(kind, "limit");
    assert!(message.contains("100000 robot turns"), "{message}");
}

#[test]
fn hostile_requests_are_errors_in_words() {
    for (method, request, kind) in [
        ("play", "{garbage", "request"),
        ("play", r#"{"sede": 1}"#, "request"),
        ("play", r#"{"seed": "-1"}"#, "request"),
        ("play", r#"{"rounds": 0}"#, "limit"),
        ("play", &"[".repeat(100_000), "request"),
        (
            "play",
            r#"{"match": "board: nowhere\nteams: []\n"}"#,
            "file",
        ),
        ("debugRun", r#"{"session": 99, "line": "step"}"#, "session"),
        (
            "duel",
            r#"{"a": "hunter", "b": "sentinel", "firstSeed": 1, "count": 0}"#,
            "limit",
        ),
        (
            "duel",
            r#"{"a": "hunter", "b": "x", "firstSeed": 1, "count": 1}"#,
            "request",
        ),
        ("bench", r#"{"matches": 2000000}"#, "limit"),
        ("nothing", "{}", "request"),
    ] {
        assert_eq!(error(method, request).0, kind, "{method} {request:.40}");
    }
}

#[test]
fn a_debugger_session_answers_as_the_script_mode_and_goes_back() {
    let opened = ok("debugOpen", &json!({"seed": 3}));
    let session = opened["session"].clone();
    assert!(
        opened["text"].as_str().unwrap().contains("round 1"),
        "{opened}"
    );
    let run = |line: &str| ok("debugRun", &json!({"session": session, "line": line}));
    let first = run("step");
    assert!(
        first["text"].as_str().unwrap().starts_with("> step\n"),
        "{first}"
    );
    assert_eq!(first["state"]["turn"], 1);
    // `turn` plays the rest of the team's turn: its three robots.
    assert_eq!(run("turn")["state"]["turn"], 3);
    let back = run("back");
    assert_eq!(back["state"]["turn"], 2);
    assert_eq!(back["state"]["frame"]["d"].as_array().unwrap().len(), 6);
    assert_eq!(run("# a comment")["text"], "");
    assert_eq!(run("nonsense")["failed"], true);
    ok("debugClose", &json!({"session": session}));
    let (kind, _) = error("debugClose", &json!({"session": session}).to_string());
    assert_eq!(kind, "session");
}

#[test]
fn duels_in_chunks_add_up_to_the_whole() {
    let duel = |first: u32, count: u32| {
        ok(
            "duel",
            &json!({"a": "hunter", "b": "sentinel", "firstSeed": first, "count": count}),
        )
    };
    let whole = duel(1, 6);
    let parts = [duel(1, 2), duel(3, 4)];
    for key in ["wins", "draws", "losses"] {
        let sum: u64 = parts.iter().map(|p| p[key].as_u64().unwrap()).sum();
        assert_eq!(Some(sum), whole[key].as_u64(), "{key}");
    }
    assert_eq!(whole["games"].as_array().unwrap().len(), 12);
    assert_eq!(whole["a"], "hunter");
}

#[test]
fn bench_plays_the_workload() {
    let v = ok("bench", &json!({"matches": 3}));
    assert_eq!(v["matches"], 3);
    assert!(v["turns"].as_u64().unwrap() > 100, "{v}");
}

#[test]
fn bench_prepared_plays_the_same_matches() {
    // The workload parsed once and kept (the scripts/wasm-bench clock starts after it).
    let before = ok("bench", &json!({"matches": 40}));
    assert_eq!(ok("benchPrepare", &json!({}))["setups"], 36);
    assert_eq!(ok("bench", &json!({"matches": 40})), before);
}

#[test]
fn shipped_lists_the_programs_boards_and_the_default_match() {
    let v = ok("shipped", &json!({}));
    assert_eq!(v["programs"].as_array().unwrap().len(), 16);
    assert!(
        v["boards"]
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b["name"] == "classic")
    );
    assert_eq!(v["matches"][0]["name"], "default");
}
