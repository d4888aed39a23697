//! `robots play` from a script (standard input not a terminal): two players at the table
//! place every robot by hand with its facing (R-A12), send a signal that acts at their next
//! turn (A.8, R-A14), are refused with the rule (R-A13), play to the end and save the game;
//! the saved match plays the same match again. A signal's step is nowhere in the transcript
//! before it acts (R-A23).

use crate::support::{read, robots, robots_with_stdin, stderr, stdout};

const GAME: [&str; 6] = [
    "play",
    "matches/duel.yaml",
    "--human",
    "green",
    "--human",
    "violet",
];

fn transcript(script: &str) -> String {
    let o = robots_with_stdin(&GAME, script.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
}

#[test]
fn two_players_place_by_hand_signal_and_play_to_the_end() {
    let dir = std::env::temp_dir().join(format!("robots-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let saved = dir.join("game.yaml");
    let _ = std::fs::remove_file(&saved);
    let script = format!(
        "{}match {}\ndone\n",
        read("tests/play/duel-by-hand.script"),
        saved.display()
    );
    let out = transcript(&script);
    let lines: Vec<&str> = out.lines().collect();
    let at = |line: &str| {
        lines
            .iter()
            .position(|l| *l == line)
            .unwrap_or_else(|| panic!("no `{line}` in:\n{out}"))
    };
    // Every robot placed by hand, with its facing.
    for line in [
        "  green.1: [3, 6] facing 6 ↗ (placed)",
        "  violet.1: [2, 1] facing 3 ↙ (placed)",
        "  green.2: [5, 6] facing 5 ↖ (placed)",
        "  violet.2: [4, 1] facing 2 ↘ (placed)",
    ] {
        at(line);
    }
    // The signal is sent at the end of green's turn in round 1 and acts at green.2's turn in
    // round 2, instead of its programmed step, its pointer unmoved (A.8).
    let sent = at("> signal green.2 *");
    let acts = at("  green.2 obeys the signal: step 11");
    assert!(sent < acts);
    assert_eq!(lines[acts - 1], "round 2: green.2");
    assert_eq!(lines[acts + 1], "  green.2 step 11: turns to face 6 ↗");
    // Refusals name their rule.
    at("refused: green.1 is not a violet robot: a player signals one of their own robots (R-A13)");
    at(
        "refused: step 99 is not a step of the program (1 to 15): a signal names a step of the program (RULES A.8, R-A14)",
    );
    at("the match is over: green wins (last team standing) after round 7");
    let shown = out.replace(&saved.display().to_string(), "DIR/game.yaml");
    snapshot!("duel_by_hand", shown);
    // The saved match plays the same match again: placements, first player, signal, end.
    let match_file = std::fs::read_to_string(&saved).unwrap();
    assert!(
        match_file.contains("  - {round: 1, robot: green.2, step: 11}"),
        "{match_file}"
    );
    let o = robots(&["run", saved.to_str().unwrap(), "--log"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let log = stdout(&o);
    assert!(
        log.contains("  green.2 obeys the signal: step 11\n"),
        "{log}"
    );
    assert!(
        log.contains("green wins (last team standing) after 7 rounds"),
        "{log}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_signal_step_is_nowhere_in_the_transcript_before_it_acts() {
    // The same game with step 11 or step 9 (both actions): word for word the same until the
    // robot obeys.
    let script = read("tests/play/duel-by-hand.script");
    let other = script.replace("signal green.2 11", "signal green.2 9");
    assert_ne!(script, other);
    let (a, b) = (transcript(&script), transcript(&other));
    let until = |t: &str| t[..t.find("green.2 obeys the signal").unwrap()].to_string();
    assert_eq!(until(&a), until(&b));
    assert!(b.contains("  green.2 obeys the signal: step 9\n"), "{b}");
}

#[test]
fn with_no_player_at_the_table_the_placements_are_those_of_run() {
    // R-A12: the generator places every robot in the same alternation as `robots run`.
    let run = stdout(&robots(&["run", "matches/duel.yaml", "--log"]));
    let o = robots_with_stdin(&["play", "matches/duel.yaml"], b"start\ndone\n");
    assert!(o.status.success(), "{}", stderr(&o));
    let drawn: Vec<String> = stdout(&o)
        .lines()
        .filter(|l| l.starts_with("  ") && l.ends_with("(drawn)"))
        .map(|l| {
            l.trim()
                .trim_end_matches(" (drawn)")
                .replace(": [", ": at [")
        })
        .collect();
    assert_eq!(drawn.len(), 4, "{}", stdout(&o));
    for robot in drawn {
        let (name, rest) = robot.split_once(": ").unwrap();
        let (cell, facing) = rest.split_once(" facing ").unwrap();
        let line = format!("{name}: {cell} facing {facing}, pointer start, 10 shots");
        assert!(run.contains(&line), "no `{line}` in `run`:\n{run}");
    }
}

#[test]
fn err_bad_tables_are_refused_with_their_reason() {
    for (args, says) in [
        (
            vec!["play", "--human", "purple"],
            "--human purple: expected a team colour",
        ),
        (
            vec!["play", "--human", "red"],
            "there is no red team in this match (its teams: green, violet)",
        ),
        (
            vec!["play", "--human", "green", "--human", "green"],
            "green is named twice",
        ),
        (
            vec!["play", "--team", "green=hunter"],
            "--team: a game at the table has 2 to 4 teams, not 1",
        ),
        (
            vec!["play", "--team", "green", "--team", "violet=hunter"],
            "--team green: expected COLOUR=PROGRAM",
        ),
        (
            vec![
                "play",
                "--team",
                "green=hunter",
                "--team",
                "violet=hunter",
                "--robots",
                "10",
            ],
            "--robots 10: a team has 1 to 9 robots",
        ),
        (
            vec!["play", "--team", "green=nothing", "--team", "violet=hunter"],
            "nothing",
        ),
    ] {
        let o = robots_with_stdin(&args, b"");
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
    // A placement off the start points, a facing out of range, junk: refused, asked again.
    let out = transcript("0 0 1\n3 6 7\nhello\nquit\n");
    assert_eq!(out.matches("refused: ").count(), 3, "{out}");
    assert!(out.contains(
        "refused: that hex is not a free start point of the team's camp or an outer one (R-A12)"
    ));
    assert!(out.contains("refused: a facing is 1 to 6 (R-A1)"));
}

#[test]
fn teams_from_the_command_line_play_on_the_board_named() {
    let o = robots_with_stdin(
        &[
            "play",
            "--team",
            "green=hunter",
            "--team",
            "violet=sentinel",
            "--robots",
            "1",
            "--board",
            "duel",
            "--human",
            "violet",
        ],
        b"2 1 3\nstart\nskip\nquit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with(
            "play on duel, scenario 1, seed 1: green (the file), violet (at the table)\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("  violet.1: [2, 1] facing 3 ↙ (placed)"),
        "{out}"
    );
}

#[test]
fn hostile_answers_are_refused_and_shown_escaped() {
    // Terminal escapes, numbers past any type, a NUL: refused in words, never echoed raw,
    // the game still waiting for a good answer. A line past the bound (64 KiB) ends the
    // game as bad input, unread and unechoed.
    let mut script =
        String::from("\u{1b}[2J 3 6 6\n99999999999999999999 6 6\n3 6 -1\n3 6 6\u{0}\n3 6 6\n");
    script.push_str(&"3 ".repeat(40_000));
    script.push_str("\nquit\n");
    let o = robots_with_stdin(&GAME, script.as_bytes());
    let out = stdout(&o);
    assert!(!out.contains('\u{1b}') && !out.contains('\u{0}'), "{out}");
    assert!(out.contains("> \\u{1b}[2J 3 6 6"), "{out}");
    assert!(
        out.contains("refused: the column `99999999999999999999` is not a number"),
        "{out}"
    );
    assert!(out.contains("refused: a facing is 1 to 6 (R-A1)"), "{out}");
    assert!(
        out.contains("refused: the facing `6\\u{0}` is not a number"),
        "{out}"
    );
    assert!(
        out.contains("  green.1: [3, 6] facing 6 ↗ (placed)"),
        "{out}"
    );
    assert!(
        out.len() < 4_000,
        "the long line is not echoed: {} bytes",
        out.len()
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("a line longer than 65536 bytes"),
        "{}",
        stderr(&o)
    );
}
