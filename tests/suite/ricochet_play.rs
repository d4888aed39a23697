//! `ricochet play --human` from a script (standard input not a terminal): lines on a virtual
//! clock, `@SECONDS` giving a line its time (docs/FORMATS.md, "Ricochet play scripts"). A bid
//! lowered before the sand timer runs out wins; `quit` and the end of the input end the game
//! with the scores so far; late and raised bids are refused with the rule's reason (RULES
//! B.1, "Bidding"); a script gives the same transcript and record every run. And the games
//! of `tests/ricochet/games/*.game`, each ending within a time bound: R-B3, a whole pass of
//! the pile with no token won, ends a game no robot can go on with.

use crate::support::{robots_with_stdin, run_within, stderr, stdout};
use serde_json::Value;
use std::time::Duration;

/// Zoe's game. With seed 2, round 1 is the blue square at [6, 5], 7 moves at best; Ada
/// (strength 3) bids 7 after 21.6 s.
const GAME: [&str; 4] = ["ricochet", "play", "--human", "Zoe"];

/// The transcript of a scripted game (standard output), its exit checked: Zoe against Ada
/// with seed 2 unless `extra` flags say otherwise.
fn transcript(extra: &[&str], script: &str) -> String {
    let mut args: Vec<&str> = GAME.to_vec();
    for (flag, default) in [("--players", "2"), ("--seed", "2")] {
        if !extra.contains(&flag) {
            args.extend([flag, default]);
        }
    }
    args.extend(extra);
    let o = robots_with_stdin(&args, script.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
}

/// The record of a scripted game (`--json`), a line each.
fn record(script: &str) -> Vec<Value> {
    transcript(&["--json"], script)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Zoe bids 9 after 5 s, lowers to 7 after 21 s (Ada bids 7 after 21.6 s: equal bids, the
/// earlier first), is done bidding, shows 7 moves and wins; then quits in round 2.
const LOWERED: &str = "@5 9\n\
                       @21 7\n\
                       pass\n\
                       blue W, red N, blue N, blue W, blue S, blue E, blue N\n\
                       quit\n";

#[test]
fn a_scripted_human_lowers_a_bid_and_the_lowered_bid_wins() {
    let out = transcript(&[], LOWERED);
    for line in [
        "  after 5 s, Zoe bids 9",
        "  the sand timer runs out at 65 s",
        "  after 21 s, Zoe lowers to 7",
        "  after 22 s, Ada bids 7",
        "  time is up: the sand timer ran out at 65 s",
        "  Zoe shows 7 moves: blue W, red N, blue N, blue W, blue S, blue E, blue N; wins the token (1 now)",
        "  Zoe quit: the game ends here",
        "end after 2 rounds: Zoe quit; tokens: Zoe 1, Ada 0",
    ] {
        assert!(out.lines().any(|l| l == line), "no `{line}` in:\n{out}");
    }
    assert_eq!(
        out,
        transcript(&[], LOWERED),
        "the same transcript every run"
    );
    snapshot!("lowered-bid-wins", out);
    let lines = record(LOWERED);
    let round = &lines[1];
    assert_eq!(round["scorer"], "Zoe");
    let bids: Vec<(&str, f64, u64)> = round["bids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["player"].as_str().unwrap(),
                b["seconds"].as_f64().unwrap(),
                b["moves"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(bids, [("Zoe", 5.0, 9), ("Zoe", 21.0, 7), ("Ada", 21.6, 7)]);
    assert_eq!(lines[2]["result"], "interrupted", "round 2: Zoe quit");
    assert_eq!(lines[3]["reason"], "Zoe quit");
}

#[test]
fn quit_at_any_question_ends_the_game_with_the_scores_so_far() {
    // While bidding.
    let out = transcript(&[], "@5 9\nquit\n");
    assert!(
        out.ends_with(
            "  Zoe quit: the game ends here\n\
             end after 1 round: Zoe quit; tokens: Zoe 0, Ada 0\n\
             winners: Zoe, Ada\n"
        ),
        "{out}"
    );
    // When asked for the moves of a bid.
    let out = transcript(&[], "@5 3\npass\nQUIT\n");
    assert!(out.contains("Zoe: show your 3 moves"), "{out}");
    assert!(
        out.ends_with("end after 1 round: Zoe quit; tokens: Zoe 0, Ada 0\nwinners: Zoe, Ada\n")
    );
}

/// Ctrl-D at a terminal is the end of the input: the game ends there, cleanly.
#[test]
fn the_end_of_the_input_ends_the_game_cleanly() {
    let out = transcript(&[], "");
    assert!(
        out.ends_with(
            "  the input ended: the game ends here\n\
             end after 1 round: the input ended; tokens: Zoe 0, Ada 0\n\
             winners: Zoe, Ada\n"
        ),
        "{out}"
    );
    // At the question for the moves: the same.
    let out = transcript(&[], "@5 3\npass\n");
    assert!(out.ends_with("winners: Zoe, Ada\n"), "{out}");
    assert!(out.contains("the input ended: the game ends here"), "{out}");
    let lines = record("@5 3\npass\n");
    assert_eq!(lines[1]["result"], "interrupted");
    assert_eq!(lines[2]["reason"], "the input ended");
}

#[test]
fn a_late_bid_is_refused_with_its_reason() {
    let script = "@5 9\n@70 6\nquit\n";
    let out = transcript(&[], script);
    assert!(
        out.contains(
            "  after 70 s, Zoe bids 6: refused, too late, the sand timer ran out at 65 s \
             (RULES B.1: bids until it runs out)\n"
        ),
        "{out}"
    );
    // The late bid comes after the timer ran out, before the demonstrations.
    let late = out.find("Zoe bids 6: refused").unwrap();
    assert!(out.find("time is up").unwrap() < late);
    assert!(late < out.find("Ada shows").unwrap(), "{out}");
    let lines = record(script);
    let refused = &lines[1]["refused"][0];
    assert_eq!(refused["player"], "Zoe");
    assert_eq!(refused["seconds"], 70.0);
    assert_eq!(refused["moves"], 6);
    assert!(refused["reason"].as_str().unwrap().starts_with("too late"));
    assert_eq!(lines[1]["bids"][0]["moves"], 9, "the bid in time stands");
}

#[test]
fn a_raised_bid_and_a_bad_line_are_refused_in_words() {
    let out = transcript(&[], "@5 7\n@6 9\nseven\n@7 Max 5\n@8 0\nquit\n");
    for line in [
        "  after 6 s, Zoe bids 9: refused, a player cannot raise their own bid, 7 stands (RULES B.1)",
        "  `seven`: a bid is a number of moves; or `pass` (done bidding this round), `hint`, `quit`",
        "  after 8 s, Zoe bids 0: refused, a bid is at least 1 move",
    ] {
        assert!(out.lines().any(|l| l == line), "no `{line}` in:\n{out}");
    }
    // `Max` is nobody at this table: the line is not a bid.
    assert!(out.contains("`Max 5`: a bid is a number of moves"), "{out}");
}

/// Two humans name themselves; a line with no name is refused, not given to either.
#[test]
fn two_humans_bid_by_name() {
    let out = transcript(
        &["--human", "Max", "--players", "3"],
        "@3 8\n@4 Zoe 8\n@5 max 6\nZoe pass\nMax pass\nquit\n",
    );
    assert!(out.contains("say who: a name first, such as `Zoe 5` (humans: Zoe, Max)"));
    assert!(out.contains("  after 4 s, Zoe bids 8\n"), "{out}");
    assert!(out.contains("  after 5 s, Max bids 6\n"), "{out}");
    assert!(out.contains("Max: show your 6 moves"), "{out}");
}

/// Five minutes with no bid: the timer is turned anyway, and bids count until it runs out
/// (RULES B.1). Seed 1 at strength 1: round 1 needs 10 moves, more than Ada sees.
#[test]
fn with_no_bid_for_five_minutes_the_timer_is_turned() {
    let out = transcript(
        &["--strength", "1", "--seed", "1"],
        "@310 12\n@400 10\nquit\n",
    );
    for line in [
        "  no bid after 300 s: the sand timer is turned (RULES B.1); it runs out at 360 s",
        "  after 310 s, Zoe bids 12",
        "  after 400 s, Zoe bids 10: refused, too late, the sand timer ran out at 360 s (RULES B.1: bids until it runs out)",
    ] {
        assert!(out.lines().any(|l| l == line), "no `{line}` in:\n{out}");
    }
}

/// The rules are said in a line at the start, and `hint` gives the solver's hints in turn
/// (the fewest moves, the robots moved, a first move), to the table, without a bid (in a
/// script's transcript; live, on the terminal).
#[test]
fn the_rules_are_said_and_hints_come_graded() {
    let o = robots_with_stdin(
        &[
            "ricochet",
            "play",
            "--human",
            "Zoe",
            "--players",
            "2",
            "--seed",
            "2",
        ],
        b"hint\nhint\nhint\nhint\nquit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let told = stdout(&o);
    assert!(
        told.contains("The rules in a line: a robot slides until a wall or a robot stops it"),
        "{told}"
    );
    assert!(told.contains("turning on the way (R-B1)"), "{told}");
    let hints: Vec<&str> = told.lines().filter(|l| l.starts_with("  hint ")).collect();
    assert_eq!(hints.len(), 4, "{told}");
    assert_eq!(hints[0], "  hint 1 of 3: fewest moves: 7");
    assert!(
        hints[1].starts_with("  hint 2 of 3: an optimal solution moves "),
        "{told}"
    );
    assert!(
        hints[2].starts_with("  hint 3 of 3: first move of an optimal solution: "),
        "{told}"
    );
    assert_eq!(hints[3], hints[2], "the third level is the last");
}

/// The arguments of a game file: its lines other than `#` comments, split at spaces.
fn game_args(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .flat_map(str::split_whitespace)
        .collect()
}

/// A game played to its end within a time bound (a few rounds take seconds each: a target
/// no robot can reach is searched to the end): its standard output.
fn played(args: &[&str]) -> String {
    let (o, _) = run_within(Duration::from_secs(300), args);
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
}

/// Each game of `tests/ricochet/games` (its comment says what it shows) ends within a time
/// bound; its input beside the transcript, the same every run.
#[test]
fn the_games_of_tests_ricochet_games_end() {
    let dir = crate::support::root().join("tests/ricochet/games");
    let mut games: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "game"))
        .collect();
    games.sort();
    assert!(!games.is_empty(), "no game in tests/ricochet/games");
    for path in games {
        let text = std::fs::read_to_string(&path).unwrap();
        let out = played(&game_args(&text));
        assert!(out.contains("\nend after "), "{out}");
        let name = format!("games@{}", crate::support::file_name(&path));
        snapshot!(name, format!("{text}\n---- transcript ----\n{out}"));
    }
}

/// R-B3 (`tests/ricochet/games/R-B3-random-board-seed-7.game`): on the random board of seed
/// 7, computers only, the red circle at [5, 8] was drawn again for ever. The game now ends
/// when every treasure left has been drawn and gone back with none won; the players with the
/// most treasures win; the log and the record name R-B3.
#[test]
fn r_b3_a_game_of_computers_on_a_random_board_ends_after_a_whole_pass_with_none_won() {
    let text = crate::support::read("tests/ricochet/games/R-B3-random-board-seed-7.game");
    // The log's words are the snapshot of `the_games_of_tests_ricochet_games_end`.
    let json = played(&[&game_args(&text)[..], &["--json"]].concat());
    let lines: Vec<Value> = json
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let last = lines.last().unwrap();
    assert_eq!(last["record"], "end");
    assert_eq!(last["ruling"], "R-B3", "{last}");
    assert_eq!(
        last["reason"],
        "a whole pass of the treasures went by with no treasure won (R-B3)"
    );
    let scores = last["scores"].as_array().unwrap();
    let most = scores.iter().map(|s| s["tokens"].as_u64().unwrap()).max();
    let winners: Vec<&Value> = scores
        .iter()
        .filter(|s| s["tokens"].as_u64() == most)
        .map(|s| &s["player"])
        .collect();
    assert_eq!(
        last["winners"]
            .as_array()
            .unwrap()
            .iter()
            .collect::<Vec<_>>(),
        winners,
        "the players with the most treasures win"
    );
    // The rounds after the last treasure won: each treasure left drawn, none won.
    let rounds = &lines[1..lines.len() - 1];
    let after = rounds
        .iter()
        .rposition(|r| r["result"] == "scored")
        .map_or(0, |i| i + 1);
    assert!(
        rounds[after..]
            .iter()
            .all(|r| r["result"] == "no_bid" || r["result"] == "all_failed"),
        "{json}"
    );
    assert!(rounds.len() < 200, "before the round limit");
}
