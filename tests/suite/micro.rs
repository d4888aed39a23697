//! Micro Robots: board files and their errors, the shipped faces wherever a face is taken, the
//! solver against a plain reference on every pair of several boards, the waypoint, the
//! analysis, a whole game with a fixed seed, and a human's game typed on standard input.

use crate::support::{
    file_name, micro_face, robots, robots_with_stdin, root, shown, stderr, stdout,
};
use robots_games::micro::board::{self, render};
use robots_games::micro::file::parse;
use robots_games::micro::solve::{Moves, solve};
use robots_games::micro::{Arrangement, Board, Cell, Face, MicroFile, reference};
use std::path::Path;

fn face(name: &str) -> Face {
    micro_face(name).unwrap()
}

fn load(path: &Path) -> Result<Board, robots_games::text::diagnostic::Diagnostic> {
    let text = std::fs::read_to_string(path).unwrap();
    parse(&shown("micro", path), &text, &micro_face).map(|f| match f {
        MicroFile::Board(b) => b,
        MicroFile::Face(f) => Board::arrange(&f, Arrangement::PLAIN),
    })
}

fn cell(text: &str) -> Cell {
    Cell::parse(text).unwrap()
}

#[test]
fn board_files() {
    insta::glob!("../micro", "*.yaml", |path| {
        let name = file_name(path);
        let input = std::fs::read_to_string(path).unwrap();
        let result = load(path);
        assert_eq!(result.is_err(), name.starts_with("err_"), "{name}");
        let output = match result {
            Err(d) => d.to_string(),
            Ok(b) => {
                let mut out = render(&b, false);
                for (from, to) in [("P1", "W2"), ("B1", "W6"), ("Y5", "R3")] {
                    out.push_str(&match solve(&b, cell(from), cell(to), None) {
                        Some(s) => format!(
                            "{from} → {to}: {} moves: {}\n",
                            s.moves,
                            s.path
                                .iter()
                                .map(Cell::to_string)
                                .collect::<Vec<_>>()
                                .join(" ")
                        ),
                        None => format!("{from} → {to}: unreachable\n"),
                    });
                }
                out
            }
        };
        snapshot!(
            "board_files",
            format!("{input}\n---- result ----\n{output}")
        );
    });
}

/// Every shipped face: the tile sets of public programs, then the stand-ins.
const FACES: [&str; 4] = ["public-silver", "public-copper", "silver", "copper"];

#[test]
fn shipped_faces() {
    let shipped: Vec<&str> = robots_games::micro::shipped::MICRO_FACES
        .iter()
        .map(|(n, _)| *n)
        .collect();
    assert_eq!(shipped, FACES);
    for name in FACES {
        let f = face(name);
        snapshot!(name, render(&Board::arrange(&f, Arrangement::PLAIN), false));
    }
}

/// The solver agrees with a plain breadth-first search on every pair, and every path it
/// gives is legal and as long as it says.
fn check_every_pair(b: &Board) -> usize {
    let moves = Moves::new(b);
    let mut pairs = 0;
    for from in Cell::all() {
        for to in Cell::all() {
            let expected = reference::distance(b, from, to);
            let got = solve(b, from, to, None);
            assert_eq!(
                got.as_ref().map(|s| s.moves),
                expected,
                "{}: {from} → {to}",
                b.name()
            );
            if let Some(s) = got {
                assert_eq!(s.path.first(), Some(&from));
                assert_eq!(s.path.last(), Some(&to));
                assert_eq!(s.path.len(), s.moves + 1);
                moves
                    .check(b, from, &s.path[1..])
                    .unwrap_or_else(|e| panic!("{}: {from} → {to}: {e}", b.name()));
            }
            pairs += 1;
        }
    }
    pairs
}

#[test]
fn the_solver_is_optimal_on_every_pair_of_several_boards() {
    let mut boards: Vec<Board> = Vec::new();
    for name in FACES {
        let f = face(name);
        let all = robots_games::micro::analyse::arrangements();
        boards.extend(all.iter().step_by(97).map(|a| Board::arrange(&f, *a)));
    }
    for file in ["full_board.yaml", "layout.yaml", "disconnected.yaml"] {
        boards.push(load(&root().join("tests/micro").join(file)).unwrap());
    }
    let pairs: usize = boards.iter().map(check_every_pair).sum();
    assert_eq!(pairs, boards.len() * 36 * 36);
    assert!(boards.len() >= 60);
}

#[test]
fn the_waypoint_is_stopped_on_and_costs_both_legs() {
    let b = Board::arrange(&face("silver"), Arrangement::PLAIN);
    let moves = Moves::new(&b);
    for (from, via, to) in [
        ("P1", "R3", "W2"),
        ("B1", "Y6", "G2"),
        ("W5", "W5", "B3"),
        ("G1", "R6", "G1"),
    ] {
        let (from, via, to) = (cell(from), cell(via), cell(to));
        let s = solve(&b, from, to, Some(via)).unwrap();
        let legs =
            reference::distance(&b, from, via).unwrap() + reference::distance(&b, via, to).unwrap();
        assert_eq!(s.moves, legs, "{from} via {via} to {to}");
        assert!(s.path.contains(&via));
        moves.check(&b, from, &s.path[1..]).unwrap();
    }
}

#[test]
fn faces_repeat_nothing_and_each_arrangement_is_a_valid_board() {
    for name in FACES {
        let f = face(name);
        for a in robots_games::micro::analyse::arrangements()
            .into_iter()
            .step_by(61)
        {
            let b = Board::arrange(&f, a);
            let mut seen: Vec<Cell> = b.rows().iter().flatten().copied().collect();
            seen.sort();
            assert_eq!(seen, Cell::all().collect::<Vec<_>>());
        }
    }
    // A quarter turn of the whole board changes no distance: arrangements differ by it.
    let f = face("copper");
    let a = Arrangement::new([0, 1, 2, 3], [1, 0, 3, 2]).unwrap();
    let turned = Arrangement::new([3, 0, 1, 2], [3, 2, 1, 0]).unwrap();
    let (b, t) = (Board::arrange(&f, a), Board::arrange(&f, turned));
    for x in Cell::all() {
        for y in Cell::all() {
            assert_eq!(reference::distance(&b, x, y), reference::distance(&t, x, y));
        }
    }
    let _ = board::POSITIONS;
}

#[test]
fn the_analysis_covers_every_arrangement_once() {
    for name in FACES {
        let mut calls = 0;
        let a = robots_games::micro::analyse::analyse(&face(name), &mut |done, total| {
            calls += 1;
            assert!(done <= total);
        });
        assert_eq!((a.arrangements, calls), (1536, 1536));
        let counted: u64 = a.distribution.iter().sum::<u64>() + a.unreachable;
        assert_eq!(counted, 1536 * 630);
        assert_eq!(
            a.unreachable, 0,
            "{name}: every arrangement of the tiles lets the robot reach every cell"
        );
        assert!(a.hardest_pairs.len() == 10 && a.longest_worst_cases.len() == 5);
        if name.starts_with("public-") {
            snapshot!(
                format!("analyse-{name}"),
                robots_games::micro::analyse::report(&a)
            );
        }
    }
    // Arrangements are distinct, with the first tile at NW.
    let all = robots_games::micro::analyse::arrangements();
    let distinct: std::collections::HashSet<_> = all.iter().collect();
    assert_eq!(distinct.len(), 1536);
    assert!(all.iter().all(|a| a.tiles()[0] == 0));
}

#[test]
fn a_game_is_played_to_its_end() {
    use robots_games::micro::game::{Kind, NoHumans, Player, Variant, play};
    let b = Board::arrange(
        &face("silver"),
        robots_games::micro::analyse::arrangements()[5],
    );
    for (variant, name) in [
        (Variant::Standard, "standard"),
        (Variant::Waypoint, "waypoint"),
        (Variant::NoToken, "no-token"),
    ] {
        let players: Vec<Player> = ["Ada", "Blaise", "Carl"]
            .iter()
            .zip([1u8, 2, 3])
            .map(|(n, s)| Player {
                name: n.to_string(),
                kind: Kind::Computer { strength: s },
                tokens: 0,
            })
            .collect();
        let mut log = Vec::new();
        let outcome = play(&b, players, variant, 7, &mut NoHumans, &mut |l| {
            log.extend(l.to_string().lines().map(String::from))
        });
        assert!(!outcome.winners.is_empty());
        let held: u32 = outcome.players.iter().map(|p| p.tokens).sum();
        assert!(held <= 25);
        assert!(
            outcome.players.iter().any(|p| p.tokens >= 5) || held == 25,
            "{}",
            outcome.reason
        );
        assert!(log.last().unwrap().starts_with("winner"));
        snapshot!(format!("game-{name}"), log.join("\n"));
    }
}

/// Each shipped face works wherever a face is taken, and the help of each command names it.
#[test]
fn shipped_faces_work_in_every_command_and_their_help_names_them() {
    for command in ["board", "solve", "analyse", "play"] {
        let help = stdout(&robots(&["micro", command, "--help"]));
        for name in FACES {
            assert!(
                help.contains(name),
                "micro {command} --help: no {name}:\n{help}"
            );
        }
    }
    for name in FACES {
        let board = robots(&["micro", "board", name]);
        assert!(board.status.success(), "{name}: {}", stderr(&board));
        assert!(stdout(&board).starts_with(&format!("{name} (NW tile 1")));
        let solve = robots(&["micro", "solve", name, "--from", "P1", "--to", "W2"]);
        assert!(solve.status.success(), "{name}: {}", stderr(&solve));
        let analyse = robots(&["micro", "analyse", name, "--json"]);
        assert!(analyse.status.success(), "{name}: {}", stderr(&analyse));
        let play = robots(&["micro", "play", "--players", "2", "--face", name]);
        assert!(play.status.success(), "{name}: {}", stderr(&play));
        assert!(stdout(&play).starts_with(&format!("Micro Robots on {name} (")));
    }
    // With no --face, the game is played on the public silver face.
    let play = robots(&["micro", "play", "--players", "2"]);
    assert!(stdout(&play).starts_with("Micro Robots on public-silver ("));
    // A name that is neither: the shipped faces are listed.
    let unknown = robots(&["micro", "board", "gold"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert_eq!(
        stderr(&unknown).trim(),
        "gold: no such file, nor a shipped face (public-silver, public-copper, silver, copper)"
    );
}

/// The first mission of `micro play --players 2 --seed 5 --human Zoe`, Zoe rolling.
const SEED: &str = "5";
const START: &str = "Y2";
const TARGET: &str = "Y5";

/// A human game typed on standard input: Zoe answers the first mission with the path as
/// `micro solve` prints it, the start cell first, and wins the token; she passes the second and
/// quits at the third. The board marks the robot and the target; the prompts say what to type.
#[test]
fn a_human_answer_with_the_start_cell_is_accepted() {
    let face = micro_face("public-silver").unwrap();
    let board = Board::arrange(
        &face,
        robots_games::micro::game::draw_arrangement(SEED.parse().unwrap()),
    );
    let s = solve(&board, cell(START), cell(TARGET), None).unwrap();
    // As `micro solve` prints it: `Y2 → … → Y5`.
    let path: Vec<String> = s.path.iter().map(Cell::to_string).collect();
    let input = format!("{}\n{}\n\nquit\n", s.moves, path.join(" → "));
    let args = human_args();
    let o = robots_with_stdin(&args, input.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains(&format!(
            "Zoe shows {}: {} moves as announced, and wins the token (1 now)",
            path.join(" → "),
            s.moves
        )),
        "{out}"
    );
    assert!(
        out.contains("end after 3 missions: Zoe leaves the table"),
        "{out}"
    );
    // A human's seconds are measured: the only words that can change from run to run.
    let seconds = unmeasured(&out);
    snapshot!("human-game", seconds);
}

/// `after 0 s, Zoe announces` with the measured seconds written `…`.
fn unmeasured(log: &str) -> String {
    log.lines()
        .map(
            |line| match (line.find("after "), line.find(" s, Zoe announces")) {
                (Some(a), Some(b)) if a < b => format!("{}after … s{}", &line[..a], &line[b + 2..]),
                _ => line.to_string(),
            },
        )
        .collect::<Vec<_>>()
        .join("\n")
}

/// Ctrl-D (the end of the input) or `quit` at either question ends the game at once, cleanly.
#[test]
fn the_end_of_the_input_or_quit_ends_a_human_game() {
    let args = human_args();
    for input in ["", "quit\n", "3\n", "3\nexit\n", "3\nnot cells\nQ\n"] {
        let o = robots_with_stdin(&args, input.as_bytes());
        assert!(o.status.success(), "{input:?}: {}", stderr(&o));
        let out = stdout(&o);
        assert!(
            out.contains("end after 1 mission: Zoe leaves the table; tokens: Zoe 0, Ada 0"),
            "{input:?}: {out}"
        );
        assert!(
            !out.contains("fails"),
            "{input:?}: quitting costs nothing: {out}"
        );
    }
    let o = robots_with_stdin(&args, b"three\n");
    assert!(stdout(&o).contains("a number of moves, such as 3"));
    let o = robots_with_stdin(&args, b"3\nY2 X9\n");
    assert!(stdout(&o).contains("`X9` is not a cell"));
}

/// In colour (`--color always`) the marks stay, and the robot's cell is in reverse video.
#[test]
fn a_human_game_in_colour_marks_the_robot_and_the_target() {
    let mut coloured = human_args().to_vec();
    coloured.extend(["--color", "always"]);
    let o = robots_with_stdin(&coloured, b"");
    let out = stdout(&o);
    assert!(
        out.contains(&format!("[\x1b[1;33;7m{START}\x1b[0m]")),
        "{out}"
    );
    assert!(
        out.contains(&format!("(\x1b[1;33;4m{TARGET}\x1b[0m)")),
        "{out}"
    );
    let plain = robots_with_stdin(&human_args(), b"");
    assert!(!stdout(&plain).contains('\x1b'));
}

/// The 1,536 arrangements fall into 384 classes of four whose boards have the same distance
/// between any two cells: the analysis lists its worst cases once a class.
#[test]
fn equivalent_arrangements_have_the_same_distances() {
    use robots_games::micro::analyse::{arrangements, equivalents};
    let all = arrangements();
    let mut classes = std::collections::HashSet::new();
    for a in &all {
        let class = equivalents(*a);
        assert_eq!(class.len(), 4, "{a}");
        assert!(class.contains(a) && class.iter().all(|b| b.tiles()[0] == 0));
        classes.insert(class.iter().map(ToString::to_string).collect::<Vec<_>>());
    }
    assert_eq!(classes.len(), 384);
    for name in ["public-silver", "copper"] {
        let f = face(name);
        for a in all.iter().step_by(29) {
            let distances = |a: Arrangement| {
                let b = Board::arrange(&f, a);
                let d = Moves::new(&b).all_distances();
                Cell::all()
                    .flat_map(|x| Cell::all().map(move |y| (x, y)))
                    .map(|(x, y)| d[b.position(x)][b.position(y)])
                    .collect::<Vec<u8>>()
            };
            let expected = distances(*a);
            for b in equivalents(*a) {
                assert_eq!(distances(b), expected, "{name}: {a} and {b}");
            }
        }
    }
}

/// `micro play` with one human, Zoe, against one computer, on the seed of these tests.
fn human_args() -> [&'static str; 8] {
    [
        "micro",
        "play",
        "--players",
        "2",
        "--seed",
        SEED,
        "--human",
        "Zoe",
    ]
}

/// A human at the table is told the movement rule once, before the first announcement.
#[test]
fn a_human_is_told_the_movement_rule() {
    let o = crate::support::robots_with_stdin(
        &["micro", "play", "--human", "ann", "--players", "2"],
        b"\n\nquit\n",
    );
    let told = format!(
        "{}{}",
        crate::support::stdout(&o),
        crate::support::stderr(&o)
    );
    assert_eq!(
        told.matches("A move: the robot slides along its row or its column")
            .count(),
        1,
        "{told}"
    );
    assert!(told.contains("stops only on a cell of its colour or of its number (RULES C.1)"));
}
