//! The game records of `ricochet play --json` and `micro play --json` (docs/FORMATS.md,
//! "Game records"): every line parses, has the documented keys in the documented order, and
//! agrees with the game's log in words; a record is the same bytes run after run.

use crate::support::{read, robots, robots_with_stdin, stderr, stdout};
use serde_json::Value;

/// Each record's keys in the order docs/FORMATS.md shows them; optional keys in `[…]`.
const RICOCHET_GAME: &[&str] = &[
    "record",
    "format_version",
    "game",
    "board",
    "seed",
    "ricochets",
    "must_ricochet",
    "no_single_move",
    "players",
    "robots",
];
const ROUND: &[&str] = &[
    "record",
    "round",
    "result",
    "target",
    "fewest",
    "bids",
    "[refused]",
    "attempts",
    "scorer",
    "[target_moves_to]",
];
const MICRO_GAME: &[&str] = &[
    "record",
    "format_version",
    "game",
    "board",
    "rows",
    "seed",
    "variant",
    "players",
];
const MISSION: &[&str] = &[
    "record",
    "mission",
    "rolled_by",
    "result",
    "start",
    "waypoint",
    "target",
    "token",
    "fewest",
    "announcement",
    "demonstration",
    "scorer",
    "penalty",
];
const END: &[&str] = &[
    "record",
    "[rounds]",
    "[missions]",
    "reason",
    "[ruling]",
    "scores",
    "winners",
];

/// The keys of a JSON object in the order written (`Value` sorts them).
struct Keys(Vec<String>);

impl<'de> serde::Deserialize<'de> for Keys {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Keys;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Keys, A::Error> {
                let mut keys = Vec::new();
                while let Some((key, _)) = map.next_entry::<String, serde::de::IgnoredAny>()? {
                    keys.push(key);
                }
                Ok(Keys(keys))
            }
        }
        d.deserialize_map(Visitor)
    }
}

/// The record's lines parsed, each checked against `expected` keys for its `record`.
fn parse_record(text: &str) -> Vec<Value> {
    let formats = read("docs/FORMATS.md");
    let section = &formats[formats.find("### Game records").unwrap()..];
    let section = &section[..section.find("\n## ").unwrap()];
    text.lines()
        .map(|line| {
            let value: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
            let object = value.as_object().unwrap();
            let expected = match object["record"].as_str().unwrap() {
                "game" if object["game"] == "ricochet" => RICOCHET_GAME,
                "game" => MICRO_GAME,
                "round" => ROUND,
                "mission" => MISSION,
                "end" => END,
                other => panic!("unknown record {other}"),
            };
            let Keys(keys) = serde_json::from_str(line).unwrap();
            let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
            let wanted: Vec<&str> = expected
                .iter()
                .map(|k| k.trim_matches(['[', ']']))
                .filter(|k| keys.contains(k) || !expected.contains(&format!("[{k}]").as_str()))
                .collect();
            assert_eq!(keys, wanted, "{line}");
            for key in &keys {
                assert!(
                    section.contains(&format!("`{key}`")),
                    "docs/FORMATS.md does not document `{key}`"
                );
            }
            value
        })
        .collect()
}

fn run(args: &[&str]) -> String {
    let o = robots(args);
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
}

#[test]
fn a_ricochet_record_has_the_documented_keys_and_tells_the_log() {
    let args = ["ricochet", "play", "--players", "2", "--seed", "2"];
    let json = run(&[&args[..], &["--json"]].concat());
    assert_eq!(json, run(&[&args[..], &["--json"]].concat()), "same bytes");
    let lines = parse_record(&json);
    let log = run(&args);
    // As many rounds as the log has, the same scorers, the same end.
    let rounds = &lines[1..lines.len() - 1];
    assert_eq!(
        rounds.len(),
        log.lines().filter(|l| l.starts_with("round ")).count()
    );
    let wins: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("wins the token"))
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    let scorers: Vec<&str> = rounds.iter().filter_map(|r| r["scorer"].as_str()).collect();
    assert_eq!(scorers, wins);
    let end = lines.last().unwrap();
    let winners = end["winners"].as_array().unwrap();
    assert!(log.ends_with(&format!("winner: {}\n", winners[0].as_str().unwrap())));
    snapshot!("ricochet-2-players-seed-2", json);
}

#[test]
fn a_ricochets_record_says_where_each_played_target_moved() {
    let json = run(&[
        "ricochet",
        "play",
        "--board",
        "boards/ricochet/ricochets-10x8.yaml",
        "--json",
    ]);
    let lines = parse_record(&json);
    assert_eq!(lines[0]["ricochets"], true);
    assert_eq!(lines[0]["no_single_move"], true, "R-B2 in Ricochets");
    for round in lines.iter().filter(|l| l["result"] == "scored") {
        assert!(round.get("target_moves_to").is_some(), "{round}");
    }
}

#[test]
fn a_micro_record_has_the_documented_keys_and_tells_the_log() {
    for variant in ["standard", "waypoint", "no-token"] {
        let args = ["micro", "play", "--seed", "3", "--variant", variant];
        let json = run(&[&args[..], &["--json"]].concat());
        let lines = parse_record(&json);
        let log = run(&args);
        let missions = &lines[1..lines.len() - 1];
        assert_eq!(
            missions.len(),
            log.lines().filter(|l| l.starts_with("mission ")).count()
        );
        assert!(
            missions
                .iter()
                .all(|m| m["waypoint"].is_null() == (variant != "waypoint")
                    && m["token"] == (variant != "no-token"))
        );
        let given = log.lines().filter(|l| l.contains("gives a token")).count();
        let penalties = missions.iter().filter(|m| !m["penalty"].is_null()).count();
        assert_eq!(given, penalties);
        if variant == "waypoint" {
            snapshot!("micro-waypoint-seed-3", json);
        }
    }
}

/// With human players, questions go to standard error and standard output stays a record.
#[test]
fn a_record_with_a_human_keeps_the_questions_off_standard_output() {
    let o = robots_with_stdin(
        &[
            "micro",
            "play",
            "--players",
            "2",
            "--seed",
            "4",
            "--human",
            "Zoe",
            "--json",
        ],
        b"3\nP1 P2 P3\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let lines = parse_record(&stdout(&o));
    assert_eq!(lines[0]["players"][0]["kind"], "human");
    assert!(stderr(&o).contains("Zoe: from"), "{}", stderr(&o));
    let o = robots_with_stdin(
        &[
            "ricochet",
            "play",
            "--players",
            "2",
            "--seed",
            "4",
            "--human",
            "Zoe",
            "--json",
        ],
        b"3\npass\nred N\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let lines = parse_record(&stdout(&o));
    assert_eq!(lines[1]["attempts"][0]["player"], "Zoe");
    assert_eq!(lines[1]["attempts"][0]["valid"], false);
    assert!(
        stderr(&o).contains("goal: the blue robot"),
        "{}",
        stderr(&o)
    );
}

/// With `--json`, the drawings for human players go to standard error: `--color always`
/// colours them there, and the record on standard output stays plain.
#[test]
fn the_drawings_on_standard_error_follow_the_colour_policy() {
    use crate::support::{robots_with_stdin, stderr, stdout};
    let args = [
        "ricochet",
        "play",
        "--players",
        "2",
        "--seed",
        "2",
        "--human",
        "Zoe",
        "--json",
    ];
    let plain = robots_with_stdin(&args, b"quit\n");
    assert!(!stderr(&plain).contains('\x1b'));
    let mut coloured = vec!["--color", "always"];
    coloured.extend(args);
    let o = robots_with_stdin(&coloured, b"quit\n");
    assert!(stderr(&o).contains("\x1b["), "{}", stderr(&o));
    assert!(!stdout(&o).contains('\x1b'));
    let micro = [
        "--color",
        "always",
        "micro",
        "play",
        "--players",
        "2",
        "--human",
        "Zoe",
        "--json",
    ];
    let o = robots_with_stdin(&micro, b"quit\n");
    assert!(stderr(&o).contains("\x1b["), "{}", stderr(&o));
}

/// A Micro human who leaves the table mid-mission ends it `interrupted` in the record, not
/// `nobody_found`.
#[test]
fn a_micro_mission_left_by_a_human_is_interrupted() {
    use crate::support::{robots_with_stdin, stdout};
    let args = [
        "micro",
        "play",
        "--players",
        "2",
        "--seed",
        "5",
        "--human",
        "Zoe",
        "--json",
    ];
    let o = robots_with_stdin(&args, b"4\nquit\n");
    let mission = stdout(&o).lines().nth(1).unwrap_or_default().to_string();
    assert!(mission.contains(r#""result":"interrupted""#), "{mission}");
}
