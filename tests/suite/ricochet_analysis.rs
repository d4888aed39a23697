//! `ricochet hint`, `ricochet solve --all` and `ricochet hardest` from the command line: hint
//! levels that say what they are asked, every listed solution checked, the count told when
//! the list is cut, the hardest placements the same on one thread or two, hostile flags.

use crate::support::{robots, stderr, stdout};
use robots_games::ricochet::position::{Move, parse_moves};

/// The positions every kind of rule and robot: R-B1 on and off, R-B2, the vortex, the silver
/// robot, diagonals, custom boards, the transparent robot.
const POSITIONS: &[&str] = &[
    "original-board-8-moves",
    "R-B1-must-ricochet",
    "R-B1-off-straight-route-counts",
    "R-B2-no-single-move",
    "diagonal-lets-its-colour-through",
    "diagonal-turns-other-colours",
    "silver-robot-as-a-blocker",
    "transparent-robot-crosses-a-wall",
    "vortex-any-robot",
];

fn path(name: &str) -> String {
    format!("tests/ricochet/{name}.yaml")
}

fn position(name: &str) -> robots_games::ricochet::position::Position {
    let root = crate::support::root().join("tests/ricochet");
    let read = |file: &str| std::fs::read_to_string(root.join(file)).map_err(|e| e.to_string());
    robots_games::ricochet::files::parse(name, &crate::support::read(path(name)), &read).unwrap()
}

#[test]
fn hint_levels_say_what_they_are_asked() {
    let mut shown = String::new();
    for name in POSITIONS {
        shown.push_str(&format!("{name}:\n"));
        for level in ["1", "2", "3"] {
            let o = robots(&["ricochet", "hint", &path(name), "--level", level]);
            assert!(o.status.success(), "{name} {level}: {}", stderr(&o));
            shown.push_str(&format!(
                "  {level}: {}",
                stdout(&o).replace('\n', "\n     ")
            ));
            shown = shown.trim_end().to_string();
            shown.push('\n');
        }
    }
    snapshot!("hint_levels", shown);
}

/// The moves of `solve --all`'s text lines (after the header).
fn listed(text: &str) -> Vec<Vec<Move>> {
    text.lines()
        .skip(1)
        .map(|l| parse_moves(l).unwrap())
        .collect()
}

#[test]
fn every_listed_solution_is_optimal_and_checked() {
    for name in POSITIONS {
        let p = position(name);
        let best = robots_games::ricochet::solve::solve(&p, 40).unwrap();
        let o = robots(&["ricochet", "solve", &path(name), "--all", "--limit", "1000"]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        let text = stdout(&o);
        let solutions = listed(&text);
        assert!(!solutions.is_empty(), "{name}");
        for s in &solutions {
            assert_eq!(
                robots_games::ricochet::solve::check(&p, s),
                Ok(best.moves),
                "{name}: {s:?}"
            );
        }
        let mut sorted = solutions.clone();
        sorted.dedup();
        assert_eq!(sorted.len(), solutions.len(), "{name}: listed twice");
        if solutions.len() < 1000 {
            assert!(
                solutions.contains(&best.solution),
                "{name}: the solver's own is missing"
            );
        }
        let header = text.lines().next().unwrap();
        assert!(
            header.starts_with(&format!("{} optimal solution", solutions.len())),
            "{name}: {header}"
        );
        // The JSON says the same.
        let o = robots(&[
            "ricochet",
            "solve",
            &path(name),
            "--all",
            "--limit",
            "1000",
            "--json",
        ]);
        let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(doc["moves"], best.moves, "{name}");
        assert_eq!(doc["listed"], solutions.len(), "{name}");
        assert_eq!(doc["solutions"].as_array().unwrap().len(), solutions.len());
    }
}

#[test]
fn a_cut_list_tells_the_whole_count() {
    let name = path("original-board-8-moves");
    let whole = stdout(&robots(&[
        "ricochet", "solve", &name, "--all", "--limit", "100000",
    ]));
    let all = listed(&whole);
    assert!(all.len() > 2, "{whole}");
    let o = robots(&["ricochet", "solve", &name, "--all", "--limit", "2"]);
    let cut = stdout(&o);
    assert_eq!(
        cut.lines().next().unwrap(),
        format!(
            "{} optimal solutions of 8 moves; the first 2 (--limit 2):",
            all.len()
        )
    );
    assert_eq!(listed(&cut), all[..2].to_vec());
    // Sorted: by robot (colour order), then direction (N, E, S, W), move after move.
    let key = |s: &Vec<Move>| s.iter().map(|m| (m.robot, m.dir as u8)).collect::<Vec<_>>();
    assert!(all.windows(2).all(|w| key(&w[0]) < key(&w[1])));
}

/// Each command is refused (exit 2) and says `want`.
fn refused_in_words(rows: &[(&[&str], &str)]) {
    for (args, want) in rows {
        let o = robots(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn hostile_solve_and_hint_flags_are_refused_in_words() {
    let name = path("original-board-8-moves");
    refused_in_words(&[
        (&["ricochet", "solve", &name, "--limit", "3"], "--all"),
        (&["ricochet", "solve", &name, "--all", "--limit", "0"], "0"),
        (&["ricochet", "hint", &name, "--level", "4"], "4"),
        (&["ricochet", "hint", &name, "--level", "0"], "0"),
        (&["ricochet", "hint", &name, "--max-states", "0"], "0"),
    ]);
    // A solve cut short by the budget says so (exit 1), whichever search ran out.
    let o = robots(&["ricochet", "solve", &name, "--all", "--max-states", "50"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("raise --max-states"), "{}", stderr(&o));
}

#[test]
fn hostile_hardest_flags_are_refused_in_words() {
    let rows: &[(&[&str], &str)] = &[
        (&["ricochet", "hardest", "1A,2A,3A,4A"], "name the target"),
        (
            &[
                "ricochet",
                "hardest",
                "1A,2A,3A,9Z",
                "--target",
                "red circle",
            ],
            "9Z",
        ),
        (
            &["ricochet", "hardest", "1A,2A,3A,4A", "--target", "red moon"],
            "no red moon",
        ),
        (
            &["ricochet", "hardest", "1A,2A,3A,4A", "--target", "99 1 red"],
            "off the board",
        ),
        (
            &["ricochet", "hardest", "1A,2A,3A,4A", "--target", "1 1 pink"],
            "unknown robot",
        ),
        (
            &["ricochet", "hardest", "1A,2A,3A,4A", "--target", "7 7 red"],
            "centre",
        ),
        (
            &[
                "ricochet",
                "hardest",
                "1A,2A,3A,4A",
                "--target",
                "red circle",
                "--robots",
                "6",
            ],
            "6",
        ),
        (
            &[
                "ricochet",
                "hardest",
                "1A,2A,3A,4A",
                "--target",
                "red circle",
                "--max-memory",
                "100",
            ],
            "raise --max-memory",
        ),
        (
            &[
                "ricochet",
                "hardest",
                "tests/ricochet/boards/diagonal-5x5.yaml",
                "--target",
                "0 0 red",
            ],
            "diagonals",
        ),
        (
            &[
                "ricochet",
                "hardest",
                "no/such/file.yaml",
                "--target",
                "0 0 red",
            ],
            "no/such/file",
        ),
    ];
    refused_in_words(rows);
}

#[test]
fn the_hardest_placements_are_the_same_on_one_thread_or_two() {
    let args = |jobs: &'static str| {
        [
            "ricochet",
            "hardest",
            "tests/ricochet/boards/walled-5x5.yaml",
            "--target",
            "4 0 red",
            "--robots",
            "3",
            "--jobs",
            jobs,
        ]
    };
    let one = robots(&args("1"));
    let two = robots(&args("2"));
    assert!(one.status.success(), "{}", stderr(&one));
    assert_eq!(stdout(&one), stdout(&two));
    assert!(stderr(&one).contains("on 1 threads"), "{}", stderr(&one));
    snapshot!("hardest_walled_5x5", stdout(&one));
    // Each placement shown needs the most moves, as the solver says.
    let text = stdout(&one);
    let most: u32 = text
        .lines()
        .find_map(|l| l.strip_prefix("most moves: "))
        .and_then(|l| l.split(',').next())
        .unwrap()
        .parse()
        .unwrap();
    for line in text.lines().filter_map(|l| l.strip_prefix("  robots: ")) {
        let yaml = format!(
            "board: boards/walled-5x5.yaml\nrobots: {line}\ntarget: {{at: [4, 0], robot: red}}\nrules: {{must_ricochet: false}}\n"
        );
        let root = crate::support::root().join("tests/ricochet");
        let read = |file: &str| std::fs::read_to_string(root.join(file)).map_err(|e| e.to_string());
        let p = robots_games::ricochet::files::parse("shown", &yaml, &read).unwrap();
        assert_eq!(
            robots_games::ricochet::solve::solve(&p, 40).unwrap().moves,
            most,
            "{line}"
        );
    }
}
