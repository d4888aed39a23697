//! Files from strangers (Ricochet Robots and Micro Robots): inputs that once panicked, hung,
//! overflowed the stack or grew without bound are refused with a located error, or stopped by a
//! budget.

use robots_games::ricochet::board::Colour;
use robots_games::ricochet::files;
use robots_games::ricochet::position::Position;
use std::process::Output;
use std::time::{Duration, Instant};

use super::support::{robots, robots_command, stderr, stdout};

/// Runs the binary, killed after `seconds` (the test harness has no time limit of its own).
fn robots_within(seconds: u64, args: &[&str]) -> Output {
    let mut child = robots_command()
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(seconds) {
            child.kill().unwrap();
            panic!("robots {args:?} still running after {seconds} s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

/// A fresh folder for this test's files.
fn folder(name: &str) -> crate::support::Scratch {
    crate::support::Scratch::new("robots-hostile", name)
}

fn no_file(_: &str) -> Result<String, String> {
    Err("no board files here".to_string())
}

/// Positions whose robots are `red` and `RED`: the map's keys differ, the colours do not.
#[test]
fn duplicate_robot_colours_are_refused_not_a_panic() {
    let standard = "board: {quadrants: [4B, 3B, 2B, 1A]}
robots: {red: [2, 14], RED: [0, 3], blue: [11, 2], yellow: [2, 1]}
target: {color: blue, symbol: triangle}
rules: {must_ricochet: false}
";
    let seven = "board: {quadrants: [4B, 3B, 2B, 1A]}
robots: {red: [2, 14], Red: [0, 3], blue: [11, 2], yellow: [2, 1], green: [5, 5], silver: [9, 9], transparent: [12, 12]}
target: {color: blue, symbol: triangle}
";
    // A position built in code, past the checks: the solver says no, it does not panic.
    let mut p = files::parse("p.yaml", &standard.replace("RED", "green"), &no_file).unwrap();
    p.robots[1].0 = Colour::Red;
    assert!(robots_games::ricochet::solve::solve(&p, 30).is_err());
    let mut seven_robots: Position = p.clone();
    seven_robots.robots = (0..7).map(|i| (Colour::Green, 16 * i)).collect();
    assert!(robots_games::ricochet::solve::solve(&seven_robots, 3).is_err());
    for text in [standard, seven] {
        let e = files::parse("p.yaml", text, &no_file)
            .unwrap_err()
            .to_string();
        assert!(e.contains("robot `") && e.contains("given twice"), "{e}");
        assert!(e.starts_with("p.yaml:2:"), "located at the robots: {e}");
    }
    // Custom boards' bases, through the binary.
    let dir = folder("bases");
    let file = dir.join("twice.yaml");
    std::fs::write(&file, "size: [5, 5]\nbases: {red: [0, 0], RED: [4, 4]}\n").unwrap();
    let out = robots(&["ricochet", "board", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(stderr(&out).contains("given twice"), "{}", stderr(&out));
    assert!(stderr(&out).contains("twice.yaml:2:1:"), "{}", stderr(&out));
}

/// A custom board whose bases leave no free cell: `ricochet play` once looked for one forever.
#[test]
fn ricochet_play_with_no_free_cell_is_an_error_not_a_hang() {
    let dir = folder("play");
    let rows = [
        (
            "tiny.yaml",
            "size: [2, 2]\ntargets: [[0, 0, red, circle], [1, 0, green, circle], [0, 1, blue, circle]]\nbases: {red: [1, 1]}\n",
            "no free cell",
        ),
        (
            "centre.yaml",
            "size: [5, 5]\ncentre: [1, 1, 3, 3]\nbases: {red: [2, 2]}\n",
            "centre",
        ),
        (
            "stacked.yaml",
            "size: [5, 5]\nbases: {red: [1, 1], blue: [1, 1]}\n",
            "two bases",
        ),
    ];
    for (name, text, want) in rows {
        let file = dir.join(name);
        std::fs::write(&file, text).unwrap();
        let out = robots_within(20, &["ricochet", "play", "--board", file.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{name}: {}", stderr(&out));
        assert!(stderr(&out).contains(want), "{name}: {}", stderr(&out));
    }
}

/// A Micro Robots board whose `face:` names itself, or two that name each other.
#[test]
fn micro_board_naming_itself_as_its_face_is_an_error_not_a_stack_overflow() {
    let dir = folder("micro");
    // A `face:` is read relative to the file that names it.
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    write("self.yaml", "name: loop\nface: self.yaml\n");
    write("a.yaml", "face: b.yaml\n");
    write("b.yaml", "face: a.yaml\n");
    for (name, line) in [("self.yaml", 2), ("a.yaml", 1)] {
        let path = dir.join(name);
        let out = robots(&["micro", "board", path.to_str().unwrap()]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(&format!("{name}:{line}:1:")), "located: {err}");
        assert!(err.contains("a board file"), "{err}");
    }
}

/// An open 64×64 board with five robots and a target nobody can reach in time: the search once
/// grew past 2.9 GB; it now stops at its state budget, exit 1.
#[test]
fn ricochet_solve_stops_at_its_state_budget() {
    let dir = folder("budget");
    std::fs::write(
        dir.join("open.yaml"),
        "size: [64, 64]\nwalls: [[10, 10, S]]\n",
    )
    .unwrap();
    let position = dir.join("p.yaml");
    std::fs::write(
        &position,
        "board: open.yaml\nrobots: {red: [0, 0], green: [63, 63], blue: [5, 7], yellow: [30, 40], silver: [50, 2]}\ntarget: {at: [33, 33], robot: red}\n",
    )
    .unwrap();
    let out = robots_within(
        60,
        &[
            "ricochet",
            "solve",
            position.to_str().unwrap(),
            "--max-states",
            "100000",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("gave up after") && stderr(&out).contains("--max-states"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).is_empty());
}

/// A game id with five robots and the vortex (`fuzz/regressions/ricochet/`) goes to the general
/// search: within 6 moves it answers at once, and without a limit it stops at its state budget.
#[test]
fn a_five_robot_vortex_game_id_is_bounded() {
    let id = "2122+5F+0114641663+37";
    let out = robots_within(30, &["ricochet", "solve", "--id", id, "--max-moves", "6"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("no solution within 6 moves"));
    let out = robots_within(
        30,
        &["ricochet", "solve", "--id", id, "--max-states", "100000"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("gave up after"), "{}", stderr(&out));
}
