//! The `robots` binary as a user runs it: exit codes, output shapes, determinism.

use crate::support::{robots, robots_command, robots_with_stdin, root, stderr, stdout};

#[test]
fn run_plays_the_default_match_and_prints_the_result() {
    let o = robots(&["run"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("default on classic (scenario 1, seed 1); green plays first\n"),
        "it says which match it plays:\n{out}"
    );
    assert_eq!(
        out.matches("directions: 1 → E").count(),
        2,
        "the starting and the final board are drawn:\n{out}"
    );
    assert!(
        out.contains(" wins (") || out.contains("draw ("),
        "a result line:\n{out}"
    );
    assert!(out.contains("green robots left:") && out.contains("violet robots left:"));
}

#[test]
fn run_json_prints_one_object_with_the_documented_keys() {
    let o = robots(&["run", "--json", "--seed", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("one JSON object");
    assert_eq!(v["format_version"], 1);
    assert_eq!(v["seed"], 3);
    assert!(v["winner"].is_null() || v["winner"].is_string());
    assert!(v["reason"].is_string());
    assert!(v["verdict"].is_string());
    assert!(v["rounds"].as_u64().is_some_and(|r| (1..=200).contains(&r)));
    let survivors = v["survivors"].as_object().expect("survivors per team");
    assert!(survivors.contains_key("green") && survivors.contains_key("violet"));
    // Robots are named one way everywhere: `green.1`.
    for (team, names) in survivors {
        assert!(names.as_array().unwrap().iter().all(|n| {
            let n = n.as_str().unwrap();
            ["1", "2", "3"].iter().any(|k| n == format!("{team}.{k}"))
        }));
    }
    // The winner, if any, is the only team with survivors in scenario 1.
    if let Some(w) = v["winner"].as_str() {
        for (team, numbers) in survivors {
            assert_eq!(team == w, !numbers.as_array().unwrap().is_empty(), "{v}");
        }
    }
}

#[test]
fn rounds_flag_caps_the_match() {
    let o = robots(&["run", "--json", "--rounds", "2"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["rounds"], 2);
    assert_eq!(v["reason"], "round_limit");
    assert_eq!(v["verdict"], "draw (round limit)");
    assert!(v["winner"].is_null());
}

#[test]
fn replay_is_byte_identical_for_a_seed_and_differs_for_another() {
    let dir = std::env::temp_dir().join(format!("robots-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str| dir.join(name).display().to_string();
    for (name, seed) in [("a.json", "11"), ("b.json", "11"), ("c.json", "12")] {
        let o = robots(&["run", "--seed", seed, "--replay", &file(name)]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let read = |name: &str| std::fs::read(dir.join(name)).unwrap();
    assert_eq!(
        read("a.json"),
        read("b.json"),
        "same match and seed, same bytes"
    );
    assert_ne!(
        read("a.json"),
        read("c.json"),
        "another seed, another match"
    );
    let text = String::from_utf8(read("a.json")).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["format_version"], 3);
    assert_eq!(lines[1][0]["event"], "turn");
    let turns = &lines[1..lines.len() - 1];
    let end = turns.last().unwrap().as_array().unwrap().last().unwrap();
    assert_eq!(end["event"], "end");
    assert_eq!(lines.last().unwrap()["result"]["reason"], end["reason"]);
    // One spelling per enum: the reason is the same code as in `run --json`.
    let result = robots(&["run", "--seed", "11", "--json"]);
    let result: serde_json::Value = serde_json::from_str(stdout(&result).trim()).unwrap();
    assert_eq!(end["reason"], result["reason"]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn log_prints_every_event() {
    let o = robots(&["run", "--log", "--rounds", "3"]);
    let out = stdout(&o);
    assert!(out.contains("plays first"));
    assert_eq!(
        out.lines().filter(|l| l.starts_with("round ")).count(),
        18,
        "6 robots x 3 rounds:\n{out}"
    );
    assert!(out.contains("end after round 3: draw (round limit)"));
}

#[test]
fn check_accepts_every_shipped_file() {
    let mut args = vec!["check".to_string()];
    for dir in [
        "programs",
        "boards",
        "boards/micro",
        "boards/ricochet",
        "matches",
        "tests/ricochet",
    ] {
        for entry in std::fs::read_dir(root().join(dir)).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy().into_owned();
            if entry.file_type().unwrap().is_file() && !name.starts_with("err_") {
                args.push(format!("{dir}/{}", entry.file_name().to_string_lossy()));
            }
        }
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = robots(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o)
            .lines()
            .filter(|l| l.ends_with(')') && l.contains(": ok ("))
            .count(),
        args.len() - 1
    );
}

#[test]
fn check_rejects_bad_files_with_exit_2_and_a_located_message() {
    for file in [
        "tests/programs/err_unknown_instruction.robot",
        "tests/programs/err_binary_garbage.robot",
        "tests/boards/err_ragged_row.yaml",
        "tests/boards/err_binary_garbage.yaml",
        "tests/scenarios/err_unknown_team_colour.yaml",
        "tests/scenarios/err_binary_garbage.yaml",
    ] {
        let o = robots(&["check", "programs/hunter.robot", file]);
        assert_eq!(o.status.code(), Some(2), "{file}");
        let err = stderr(&o);
        let first = err.lines().next().unwrap_or("");
        let located = first.starts_with(&format!("{file}:"))
            && first
                .split(':')
                .nth(1)
                .is_some_and(|l| l.parse::<u32>().is_ok());
        assert!(located, "{file}: a file:line:col message, got:\n{err}");
        assert!(err.contains("error:"), "{err}");
        assert!(
            stdout(&o).contains("programs/hunter.robot: ok"),
            "good files are still reported"
        );
    }
}

#[test]
fn check_explains_missing_and_unknown_files() {
    let o = robots(&["check", "nowhere.robot"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("nowhere.robot: error: cannot read the file"));
    let o = robots(&["check", "Cargo.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("expected .robot (a program) or .yaml"));
}

#[test]
fn check_warns_exits_0_and_denies_warnings_on_request() {
    let file = "tests/lints/W-past-the-end.robot";
    let o = robots(&["check", file]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("ok (program, 3 steps), 1 warning"),
        "{}",
        stdout(&o)
    );
    let err = stderr(&o);
    assert!(
        err.starts_with(&format!(
            "{file}:5:1: warning[W-past-the-end]: after step 3"
        )),
        "{err}"
    );
    assert!(err.contains("5 | 3: R+1\n  | ^"), "{err}");
    let o = robots(&["check", "--deny-warnings", file, "programs/hunter.robot"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("1 of 2 files have warnings, and --deny-warnings makes them errors"),
        "{}",
        stderr(&o)
    );
    let o = robots(&["check", "--deny-warnings", "programs/hunter.robot"]);
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn check_format_json_prints_one_diagnostic_a_line() {
    let o = robots(&[
        "check",
        "--format",
        "json",
        "tests/lints/W-stall.robot",
        "tests/programs/err_move_distance.robot",
        "programs/hunter.robot",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let out = stdout(&o);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{out}");
    let keys = |v: &serde_json::Value| {
        v.as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect::<Vec<String>>()
    };
    for v in &lines {
        assert_eq!(
            keys(v),
            ["column", "end", "file", "id", "line", "message", "severity"],
            "{v}"
        );
    }
    assert_eq!(lines[0]["severity"], "warning");
    assert_eq!(lines[0]["id"], "W-stall");
    assert_eq!(
        (lines[0]["line"].as_u64(), lines[0]["column"].as_u64()),
        (Some(5), Some(1))
    );
    assert_eq!(lines[0]["end"]["column"], 6);
    assert_eq!(lines[1]["severity"], "error");
    assert_eq!(lines[1]["file"], "tests/programs/err_move_distance.robot");
    assert_eq!(lines[1]["id"], serde_json::Value::Null);
    assert_eq!(lines[1]["message"], "a move goes 1 or 2 hexes, not 3");
}

#[test]
fn a_file_of_the_wrong_kind_is_named_with_the_command_that_reads_it() {
    let o = robots(&["run", "programs/hunter.robot"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("programs/hunter.robot: error: `robots run` needs a match file; this file is a program: check it with `robots check programs/hunter.robot`; to play it, name it in a match file"),
        "{err}"
    );
    assert!(!err.contains("unknown field"), "{err}");
    let o = robots(&["debug", "boards/duel.yaml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("this file is a hex board"),
        "{}",
        stderr(&o)
    );
    let o = robots(&["board", "boards/ricochet/ricochets-10x8.yaml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("this file is a Ricochet board: draw it with `robots ricochet board boards/ricochet/ricochets-10x8.yaml`"),
        "{}",
        stderr(&o)
    );
    let o = robots(&["board", "matches/duel.yaml"]);
    assert!(
        stderr(&o)
            .contains("this file is a match file: play it with `robots run matches/duel.yaml`")
    );
}

#[test]
fn board_draws_shipped_boards_by_name_and_files_by_path() {
    let by_name = robots(&["board", "classic"]);
    let by_path = robots(&["board", "boards/classic.yaml"]);
    assert!(by_name.status.success());
    assert_eq!(stdout(&by_name), stdout(&by_path));
    assert!(stdout(&by_name).starts_with("classic (13 x 12 hexes)"));
    let bad = robots(&["board", "tests/boards/err_unknown_symbol.yaml"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad)
            .starts_with("tests/boards/err_unknown_symbol.yaml:3:6: error: unknown map symbol")
    );
}

#[test]
fn bad_flags_are_refused_without_a_panic() {
    for args in [
        &["run", "--seed", "x"][..],
        &["run", "--rounds", "0"],
        &["run", "nowhere.yaml"],
        &["bench", "--matches", "-1"],
        &["fly"],
    ] {
        let o = robots(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(!stderr(&o).contains("panicked"), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn bench_reports_robot_turns_per_second_last() {
    let o = robots(&["bench", "--matches", "20"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let last = out.lines().last().unwrap();
    let rate: f64 = last
        .strip_prefix("robot-turns/s: ")
        .expect(last)
        .parse()
        .unwrap();
    assert!(rate > 0.0);
    let o = robots(&["bench", "--matches", "20", "--json"]);
    assert!(o.status.success());
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["format_version"], 1);
    assert_eq!(doc["matches"], 20);
    assert!(doc["robot_turns_per_second"].as_f64().unwrap() > 0.0);
    assert_eq!(doc["debugger"]["robot_turns"], 3000);
}

/// Regression: `robots run --log | head -1` used to panic ("failed printing to stdout").
#[test]
fn a_reader_that_stops_early_is_not_a_panic() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let mut child = robots_command()
        .args(["run", "--log"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // The reader is dropped here: the pipe closes with most of the log unwritten.
    let out = child.wait_with_output().unwrap();
    assert!(first.contains("plays first"));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn micro_solve_answers_in_json_and_says_when_there_is_no_way() {
    let o = robots(&[
        "micro", "solve", "silver", "--from", "P1", "--to", "W2", "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let path = v["path"].as_array().unwrap();
    assert_eq!(
        usize::try_from(v["moves"].as_u64().unwrap()).unwrap(),
        path.len() - 1
    );
    assert_eq!(
        (path[0].as_str(), path.last().unwrap().as_str()),
        (Some("P1"), Some("W2"))
    );
    let via = robots(&[
        "micro", "solve", "silver", "--from", "P1", "--to", "W2", "--via", "R3", "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(stdout(&via).trim()).unwrap();
    assert!(v["path"].as_array().unwrap().iter().any(|c| c == "R3"));
    let none = robots(&[
        "micro",
        "solve",
        "tests/micro/disconnected.yaml",
        "--from",
        "W5",
        "--to",
        "P4",
    ]);
    assert_eq!(none.status.code(), Some(1));
    assert!(stderr(&none).contains("no way from W5 to P4"));
    let bad = robots(&["micro", "solve", "silver", "--from", "X9", "--to", "P4"]);
    assert_eq!(bad.status.code(), Some(2));
    let bad_file = robots(&[
        "micro",
        "solve",
        "tests/micro/err_short_row.yaml",
        "--from",
        "P1",
        "--to",
        "P4",
    ]);
    assert_eq!(bad_file.status.code(), Some(2));
    assert!(stderr(&bad_file).starts_with("tests/micro/err_short_row.yaml:3:6: error:"));
}

#[test]
fn micro_analyse_and_play_report() {
    let o = robots(&["micro", "analyse", "copper"]);
    assert!(o.status.success());
    assert!(
        stdout(&o).contains("1536 arrangements") && stdout(&o).contains("unreachable: 0 pairs")
    );
    let j = robots(&["micro", "analyse", "silver", "--json"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&j).trim()).unwrap();
    assert_eq!(v["arrangements"], 1536);
    let game = robots(&[
        "micro",
        "play",
        "--players",
        "4",
        "--seed",
        "3",
        "--variant",
        "waypoint",
    ]);
    assert!(game.status.success(), "{}", stderr(&game));
    assert!(stdout(&game).lines().last().unwrap().starts_with("winner"));
}

#[test]
fn ricochet_solve_check_random_and_play() {
    let o = robots(&[
        "ricochet",
        "solve",
        "tests/ricochet/original-board-8-moves.yaml",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let moves = v["solution"].as_array().unwrap();
    assert_eq!(
        usize::try_from(v["moves"].as_u64().unwrap()).unwrap(),
        moves.len()
    );
    assert!(
        moves.iter().all(|m| m["robot"].is_string()
            && ["N", "E", "S", "W"].contains(&m["dir"].as_str().unwrap()))
    );
    // The answer, written back as text, is accepted by check.
    let text: Vec<String> = moves
        .iter()
        .map(|m| {
            format!(
                "{} {}",
                m["robot"].as_str().unwrap(),
                m["dir"].as_str().unwrap()
            )
        })
        .collect();
    let ok = robots(&[
        "ricochet",
        "check",
        "tests/ricochet/original-board-8-moves.yaml",
        &text.join(", "),
    ]);
    assert!(
        ok.status.success() && stdout(&ok).starts_with("valid: 8 moves"),
        "{}",
        stderr(&ok)
    );
    let bad = robots(&[
        "ricochet",
        "check",
        "tests/ricochet/original-board-8-moves.yaml",
        "green S, green W",
    ]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(stderr(&bad).contains("not valid"));
    let limit = robots(&[
        "ricochet",
        "solve",
        "tests/ricochet/original-board-8-moves.yaml",
        "--max-moves",
        "3",
    ]);
    assert_eq!(limit.status.code(), Some(1));
    assert!(stderr(&limit).contains("no solution within 3 moves"));
    let random = robots(&["ricochet", "random", "--seed", "9", "--robots", "5"]);
    assert!(stdout(&random).contains("silver:"));
    let game = robots(&["ricochet", "play", "--players", "3", "--seed", "4"]);
    assert!(game.status.success());
    assert!(stdout(&game).lines().last().unwrap().starts_with("winner"));
    let bad_flag = robots(&["ricochet", "random", "--robots", "7"]);
    assert_eq!(bad_flag.status.code(), Some(2));
}

#[test]
fn ricochet_boards_are_drawn_and_quarter_files_checked() {
    let o = robots(&["ricochet", "board", "boards/ricochet/ricochets-10x8.yaml"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    // Column numbers above, row numbers beside, a legend under the board.
    assert!(
        out.starts_with("    0   1   2")
            && out.contains("\n  +---+")
            && out.contains("\n7 | B ")
            && out.contains("###")
            && out.contains("B blue, G green, R red, Y yellow (on their bases)")
            && out.contains("### the centre"),
        "{out}"
    );
    let bad = robots(&["check", "tests/ricochet/boards/err_quarters.yaml"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad)
            .starts_with("tests/ricochet/boards/err_quarters.yaml:2:1: error: 1A: wall [9, 1, NW]"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn a_debug_script_with_a_refused_command_exits_1() {
    let script = std::env::temp_dir().join(format!("robots-debug-{}.script", std::process::id()));
    std::fs::write(&script, "step\nfly\nbreak green.1 step 99\nstep\n").unwrap();
    let path = script.display().to_string();
    let o = robots(&["debug", "--script", &path]);
    std::fs::remove_file(&script).unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("2 of 4 commands failed"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).contains("error: unknown command `fly`"));
    let o = robots(&[
        "debug",
        "--script",
        "tests/debugger/tour-of-the-default-match.script",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn a_dash_reads_standard_input_and_writes_standard_output() {
    let hunter = std::fs::read(root().join("programs/hunter.robot")).unwrap();
    let o = robots_with_stdin(&["check", "-"], &hunter);
    assert_eq!(
        stdout(&o).trim(),
        "-: ok (program `hunter`, 14 steps)",
        "{}",
        stderr(&o)
    );
    let duel = std::fs::read(root().join("matches/duel.yaml")).unwrap();
    let o = robots_with_stdin(&["check", "-"], &duel);
    assert!(
        stdout(&o).starts_with("-: ok (match `duel`"),
        "{}",
        stderr(&o)
    );
    let position =
        std::fs::read(root().join("tests/ricochet/original-board-8-moves.yaml")).unwrap();
    let from_file = robots(&[
        "ricochet",
        "solve",
        "tests/ricochet/original-board-8-moves.yaml",
    ]);
    let o = robots_with_stdin(&["ricochet", "solve", "-"], &position);
    assert_eq!(o.status.code(), from_file.status.code(), "{}", stderr(&o));
    assert_eq!(stdout(&o), stdout(&from_file));
    // `--replay -`: the replay alone on standard output, one JSON document a line.
    let o = robots(&["run", "--rounds", "2", "--replay", "-"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let first = stdout(&o).lines().next().unwrap().to_string();
    let doc: serde_json::Value = serde_json::from_str(&first).unwrap();
    assert_eq!(doc["format_version"], 3);
    assert!(!std::path::Path::new(&root().join("-")).exists());
    let o = robots(&["run", "--replay", "-", "--log"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn log_and_json_together_are_refused_and_counts_agree_with_their_nouns() {
    let o = robots(&["run", "--log", "--json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot be used with"), "{}", stderr(&o));
    let o = robots(&["run", "--rounds", "1"]);
    assert!(
        stdout(&o).contains("draw (round limit) after 1 round\n"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn ricochet_check_tells_bad_input_from_a_wrong_answer() {
    let position = "tests/ricochet/original-board-8-moves.yaml";
    let o = robots(&["ricochet", "check", position, "silver N"]);
    assert_eq!(o.status.code(), Some(2), "no silver robot: bad input");
    assert!(
        stderr(&o).contains("there is no silver robot"),
        "{}",
        stderr(&o)
    );
    let o = robots(&["ricochet", "check", position, "blue N"]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "a real move that does not reach: not valid"
    );
    assert!(stderr(&o).contains("after 1 move,"), "{}", stderr(&o));
}

#[test]
fn colour_only_when_asked_or_on_a_terminal_and_never_with_no_color() {
    let o = robots(&["micro", "board", "silver", "--color", "always"]);
    assert!(stdout(&o).contains('\x1b'), "--color always colours");
    let o = robots(&["micro", "board", "silver", "--color", "never"]);
    assert!(!stdout(&o).contains('\x1b'));
    // Not a terminal (a pipe), or NO_COLOR set: no escape codes by default.
    let o = crate::support::robots_command()
        .args(["micro", "board", "silver"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(o.status.success());
    assert!(!stdout(&o).contains('\x1b'));
}

#[test]
fn ricochet_check_and_bench_answer_in_json() {
    let position = "tests/ricochet/original-board-8-moves.yaml";
    let moves = "green S, green W, green N, green E, green S, red S, green W, green N";
    let o = robots(&["ricochet", "check", position, moves, "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), r#"{"valid":true,"moves":8}"#);
    let o = robots(&["ricochet", "check", position, "blue N", "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["valid"], false);
    assert!(
        v["reason"].as_str().unwrap().contains("not on the target"),
        "{v}"
    );
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    let o = robots(&["ricochet", "check", position, "silver N", "--json"]);
    assert_eq!(o.status.code(), Some(2));
}
