//! The TI-57 rule (RULES A.12) from the command line: `--keywords ti57` where programs come
//! without a match file, `rules.keywords` in match files, logs and replays of a match that
//! uses the keywords.

use crate::support::{robots, root, stderr, stdout};

#[test]
fn check_takes_the_keywords_and_names_the_rule_without_them() {
    let file = "programs/ti57/patrol.robot";
    let o = robots(&["check", file]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("belongs to the TI-57 keywords, an optional rule: turn it on with `keywords: ti57` under `rules:` in the match file, or `--keywords ti57` (RULES A.12)"),
        "{}",
        stderr(&o)
    );
    let o = robots(&["check", "--deny-warnings", "--keywords", "ti57", file]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // The rule only adds words: a plain program checks the same with it.
    let o = robots(&["check", "--keywords", "ti57", "programs/hunter.robot"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn a_duel_of_ti57_programs_needs_the_rule() {
    let (a, b) = ("programs/ti57/tracker.robot", "programs/ti57/patrol.robot");
    let o = robots(&["duel", a, b, "--seeds", "2"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let o = robots(&["duel", a, b, "--seeds", "2", "--keywords", "ti57"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("tracker"), "{}", stdout(&o));
}

#[test]
fn the_sample_match_logs_its_keywords_and_replays_to_the_same_log() {
    let log = robots(&["run", "matches/ti57.yaml", "--log"]);
    assert_eq!(log.status.code(), Some(0), "{}", stderr(&log));
    let text = stdout(&log);
    for words in [
        ": DSZ, R0 = ",
        ": SBR 1, on to step ",
        ": INV SBR, back to step ",
    ] {
        assert!(text.contains(words), "no `{words}` in the log");
    }
    assert!(text.contains(" R0-R7=["), "robot lines show the memories");
    let dir = std::env::temp_dir().join(format!("robots-ti57-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let replay = dir.join("ti57.jsonl");
    let replay = replay.to_str().unwrap();
    let o = robots(&["run", "matches/ti57.yaml", "--replay", replay]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let header = std::fs::read_to_string(replay).unwrap();
    let header: serde_json::Value = serde_json::from_str(header.lines().next().unwrap()).unwrap();
    assert_eq!(header["format_version"], 3);
    assert_eq!(header["rules"]["keywords"], "ti57");
    let back = robots(&["replay", replay]);
    assert_eq!(back.status.code(), Some(0), "{}", stderr(&back));
    assert_eq!(
        stdout(&back),
        text,
        "the replay reads back as run --log prints it"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_match_file_names_its_language() {
    let dir = root().join("tests/scenarios");
    let text = std::fs::read_to_string(dir.join("R-A29-pause-stop-and-nop.yaml"))
        .unwrap()
        .replace(
            "../boards/arena.yaml",
            root().join("tests/boards/arena.yaml").to_str().unwrap(),
        );
    let check = ["check", "--allow-outside", "-"];
    let o = crate::support::robots_with_stdin(&check, text.as_bytes());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let plain = text.replace("keywords: ti57, ", "");
    let o = crate::support::robots_with_stdin(&check, plain.as_bytes());
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("-:12:14: error: `NOP` belongs to the TI-57 keywords"),
        "{}",
        stderr(&o)
    );
    let bad = text.replace("keywords: ti57", "keywords: ti58");
    let o = crate::support::robots_with_stdin(&check, bad.as_bytes());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o)
            .contains("keywords: `ti58` is not a language: expected `plain` (RULES A.4) or `ti57`"),
        "{}",
        stderr(&o)
    );
}
