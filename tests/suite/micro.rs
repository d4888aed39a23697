//! Micro Robots: board files and their errors, the solver against a plain reference on every
//! pair of several boards, the waypoint, the analysis, and a whole game with a fixed seed.

use crate::support::{file_name, micro_face, root, shown};
use robots::micro::board::{self, render};
use robots::micro::file::parse;
use robots::micro::solve::{Moves, solve};
use robots::micro::{Arrangement, Board, Cell, Face, MicroFile, reference};
use std::path::Path;

fn face(name: &str) -> Face {
    micro_face(name).unwrap()
}

fn load(path: &Path) -> Result<Board, robots::text::diagnostic::Diagnostic> {
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

#[test]
fn shipped_faces() {
    for name in ["silver", "copper"] {
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
    for name in ["silver", "copper"] {
        let f = face(name);
        let all = robots::micro::analyse::arrangements();
        boards.extend(all.iter().step_by(97).map(|a| Board::arrange(&f, *a)));
    }
    for file in ["full_board.yaml", "layout.yaml", "disconnected.yaml"] {
        boards.push(load(&root().join("tests/micro").join(file)).unwrap());
    }
    let pairs: usize = boards.iter().map(check_every_pair).sum();
    assert_eq!(pairs, boards.len() * 36 * 36);
    assert!(boards.len() >= 30);
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
    for name in ["silver", "copper"] {
        let f = face(name);
        for a in robots::micro::analyse::arrangements()
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
    for name in ["silver", "copper"] {
        let mut calls = 0;
        let a = robots::micro::analyse::analyse(&face(name), &mut |done, total| {
            calls += 1;
            assert!(done <= total);
        });
        assert_eq!((a.arrangements, calls), (1536, 1536));
        let counted: u64 = a.distribution.iter().sum::<u64>() + a.unreachable;
        assert_eq!(counted, 1536 * 630);
        assert_eq!(
            a.unreachable, 0,
            "{name}: the stand-in tiles are connected in every arrangement"
        );
        assert!(a.hardest_pairs.len() == 10 && a.longest_worst_cases.len() == 5);
    }
    // Arrangements are distinct, with the first tile at NW.
    let all = robots::micro::analyse::arrangements();
    let distinct: std::collections::HashSet<_> = all.iter().collect();
    assert_eq!(distinct.len(), 1536);
    assert!(all.iter().all(|a| a.tiles()[0] == 0));
}

#[test]
fn a_game_is_played_to_its_end() {
    use robots::micro::game::{Kind, NoHumans, Player, Variant, play};
    let b = Board::arrange(&face("silver"), robots::micro::analyse::arrangements()[5]);
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
