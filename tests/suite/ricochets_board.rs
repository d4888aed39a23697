//! Random Ricochets boards (RULES B.2, issue 17): `ricochet board --random` and `ricochet play
//! --random-board`. A hundred seeds each give a board the loader takes, with every target
//! reachable by its robot from the bases under R-B1 and R-B2 (a game's first mission, checked
//! again here with the solver's default budget); the same seed the same file; flags from
//! strangers refused in words; a drawing and a game snapshotted.

use crate::support::{robots, robots_with_stdin, stderr, stdout};
use rayon::prelude::*;
use robots_games::ricochet::board::{Board, Colour};
use robots_games::ricochet::files::parse_custom;
use robots_games::ricochet::generate::{Generated, Spec, generate, yaml};
use robots_games::ricochet::play::game::SEARCH_LIMIT;
use robots_games::ricochet::position::{Goal, Position};
use robots_games::ricochet::rules::Rules;
use robots_games::ricochet::solve::solve;
use std::sync::Arc;

/// What makes a board legal for a game of Ricochets, told of the board the file reads back
/// as: the generated board itself, four bases and four targets (one a colour) on distinct
/// cells off the centre, and each robot able to reach its target from the bases under R-B1
/// and R-B2 within the game's search limit. Returns the fewest moves of each mission.
fn legal(g: &Generated) -> Vec<u32> {
    let text = yaml(g);
    let b: Board = parse_custom("random.yaml", &text).unwrap_or_else(|d| panic!("{d}\n{text}"));
    assert_eq!(
        (&b.walls, &b.blocked, &b.targets, &b.bases),
        (
            &g.board.walls,
            &g.board.blocked,
            &g.board.targets,
            &g.board.bases
        )
    );
    let colours = [Colour::Red, Colour::Green, Colour::Blue, Colour::Yellow];
    // The robots in colour order, as a game puts them on their bases.
    let robots: Vec<_> = colours
        .iter()
        .map(|&c| *b.bases.iter().find(|(k, _)| *k == c).unwrap())
        .collect();
    assert_eq!(b.bases.len(), 4);
    let mut cells: Vec<u16> = b.bases.iter().map(|&(_, c)| c).collect();
    cells.extend(b.targets.iter().map(|t| t.cell));
    assert!(cells.iter().all(|&c| !b.blocked[usize::from(c)]));
    cells.sort_unstable();
    cells.dedup();
    assert_eq!(cells.len(), 8, "bases and targets on distinct cells");
    let board = Arc::new(b);
    let within = g.moves.map(|m| m.min(SEARCH_LIMIT));
    colours
        .iter()
        .enumerate()
        .map(|(i, &colour)| {
            let target = board.targets.iter().find(|t| t.colour == Some(colour));
            let p = Position {
                board: Arc::clone(&board),
                robots: robots.clone(),
                goal: Goal {
                    cell: target.unwrap().cell,
                    robot: Some(colour),
                },
                // R-B1 and R-B2: a game of Ricochets.
                rules: Rules {
                    must_ricochet: true,
                    no_single_move: true,
                },
            };
            // Within the generator's own count: an upper bound, and a quicker search.
            let s = solve(&p, within[i]).unwrap_or_else(|e| panic!("{colour}: {e}\n{text}"));
            s.moves
        })
        .collect()
}

#[test]
fn a_hundred_seeds_give_legal_boards_with_every_target_reachable() {
    let started = std::time::Instant::now();
    let fewest: Vec<Vec<u32>> = (1..=100u64)
        .into_par_iter()
        .map(|seed| {
            let g = generate(&Spec::default(), seed).unwrap();
            assert_eq!(g.barriers, 40);
            let fewest = legal(&g);
            // The generator's own ways are solutions: never fewer moves than the fewest.
            assert!(g.moves.iter().zip(&fewest).all(|(own, best)| own >= best));
            fewest
        })
        .collect();
    assert!(fewest.iter().flatten().all(|&m| m >= 2), "R-B2");
    eprintln!("100 boards drawn and checked in {:?}", started.elapsed());
}

#[test]
fn other_sizes_and_the_centre_give_legal_boards() {
    let specs = [
        ((10, 8), None, true),
        ((16, 16), Some(64), true),
        ((4, 4), None, false),
        ((7, 5), Some(0), false),
        ((24, 12), None, true),
    ];
    for (size, barriers, centre) in specs {
        for seed in 1..=4 {
            let spec = Spec {
                size,
                barriers,
                centre,
            };
            let g = generate(&spec, seed).unwrap_or_else(|e| panic!("{spec:?}: {e}"));
            legal(&g);
            let (w, h) = size;
            let centre_at = ((w - 2) / 2, (h - 2) / 2, 2, 2);
            assert_eq!(g.spec.centre, centre.then_some(centre_at));
        }
    }
}

#[test]
fn a_seed_gives_the_same_board_every_time() {
    let spec = Spec::default();
    for seed in [0, 7, u64::MAX] {
        assert_eq!(
            yaml(&generate(&spec, seed).unwrap()),
            yaml(&generate(&spec, seed).unwrap())
        );
    }
    assert_ne!(
        yaml(&generate(&spec, 1).unwrap()),
        yaml(&generate(&spec, 2).unwrap())
    );
    let args = ["ricochet", "board", "--random", "--seed", "9", "--out", "-"];
    let once = robots(&args);
    assert!(once.status.success(), "{}", stderr(&once));
    assert_eq!(stdout(&once), stdout(&robots(&args)));
    assert_eq!(stdout(&once), yaml(&generate(&spec, 9).unwrap()));
}

/// The file `--out` writes is a board `robots check` takes, drawn by `ricochet board FILE` as
/// `--random` drew it; `ricochet play --random-board` plays on the board of its seed.
#[test]
fn the_written_file_checks_draws_and_is_the_game_board() {
    let dir = std::env::temp_dir().join(format!("robots-rboard-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("random.yaml");
    let path = file.to_str().unwrap();
    let drawn = robots(&[
        "ricochet", "board", "--random", "--seed", "4", "--centre", "--out", path,
    ]);
    assert!(drawn.status.success(), "{}", stderr(&drawn));
    assert_eq!(stderr(&drawn), format!("wrote board {path}\n"));
    let checked = robots(&["check", path]);
    assert!(checked.status.success(), "{}", stderr(&checked));
    assert_eq!(
        stdout(&drawn),
        stdout(&robots(&["ricochet", "board", path]))
    );
    // The game's board: the same seed, the default size, no centre.
    let plain = dir.join("plain.yaml");
    let plain = plain.to_str().unwrap();
    let o = robots(&[
        "ricochet", "board", "--random", "--seed", "4", "--out", plain,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let play = |board: &[&str]| {
        let mut args = vec!["ricochet", "play", "--players", "2", "--seed", "4"];
        args.extend(board);
        let o = robots(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o).lines().skip(1).collect::<Vec<_>>().join("\n")
    };
    assert_eq!(play(&["--random-board"]), play(&["--board", plain]));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Pictures replace the drawing, as for a board file.
#[test]
fn a_random_board_as_a_picture() {
    let o = robots(&["ricochet", "board", "--random", "--seed", "2", "--svg", "-"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let svg = stdout(&o);
    assert!(svg.starts_with("<svg"), "{svg}");
    let g = generate(&Spec::default(), 2).unwrap();
    assert_eq!(
        svg,
        robots_games::ricochet::draw::svg::board(&g.board, &g.board.bases)
    );
}

#[test]
fn a_random_board_drawn() {
    let o = robots(&[
        "ricochet", "board", "--random", "--seed", "7", "--size", "10x8", "--centre",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    snapshot!("random-10x8-seed-7", stdout(&o));
}

/// A game of Ricochets on a fresh board: Zoe passes the first round and quits in the second;
/// the first target is drawn with its fewest moves (no mission is hopeless at the start).
#[test]
fn a_game_on_a_random_board_plays() {
    let args = [
        "ricochet",
        "play",
        "--random-board",
        "--players",
        "2",
        "--seed",
        "5",
        "--human",
        "Zoe",
    ];
    let o = robots_with_stdin(&args, b"pass\nquit\n");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("Ricochet Robots on random 16x16 (2 players, seed 5)\n"));
    snapshot!("play-random-board-seed-5", out);
}

#[test]
fn hostile_flags_are_refused_in_words() {
    let rows: &[&[&str]] = &[
        &["--random", "--size", "0x5"],
        &["--random", "--size", "1000x1000"],
        &["--random", "--size", "64x65"],
        &["--random", "--size", "70000x2"],
        &["--random", "--size", "16"],
        &["--random", "--size", "-3x4"],
        &["--random", "--barriers", "65"],
        &["--random", "--size", "10x8", "--barriers", "21"],
        &["--random", "--barriers", "-1"],
        &["--random", "--size", "4x4", "--centre"],
        &["--random", "boards/ricochet/ricochets-10x8.yaml"],
        &["--random", "--solution", "--svg", "-"],
        &["--random", "--out", "-", "--svg", "-"],
        &["boards/ricochet/ricochets-10x8.yaml", "--seed", "3"],
        &["boards/ricochet/ricochets-10x8.yaml", "--centre"],
        &[],
    ];
    let mut shown = String::new();
    for row in rows {
        let mut args = vec!["ricochet", "board"];
        args.extend(*row);
        let o = robots(&args);
        assert_eq!(o.status.code(), Some(2), "{row:?}");
        assert!(stdout(&o).is_empty(), "{row:?}");
        let first = stderr(&o).lines().next().unwrap_or_default().to_string();
        let given = if row.is_empty() {
            "(no POSITION, no --random)".to_string()
        } else {
            row.join(" ")
        };
        shown.push_str(&format!("{given}\n  {first}\n"));
    }
    let o = robots(&[
        "ricochet",
        "play",
        "--random-board",
        "--board",
        "boards/ricochet/ricochets-10x8.yaml",
    ]);
    assert_eq!(o.status.code(), Some(2));
    shown.push_str(&format!(
        "play --random-board --board …\n  {}\n",
        stderr(&o).lines().next().unwrap_or_default()
    ));
    snapshot!("err_flags", shown);
}
