//! Ricochet Robots: the 96 original boards, the rule options (R-B1, R-B2), the vortex, the
//! silver robot, diagonals and the transparent robot, the solver against a plain search, and
//! every answer replayed by the checker.

use crate::support::{file_name, read, root, shown};
use proptest::prelude::*;
use robots_games::ricochet::board::{Colour, Dir};
use robots_games::ricochet::files::quarters::{from_quadrants, original_arrangements};
use robots_games::ricochet::position::{self, Position, parse_moves};
use robots_games::ricochet::solve::{self, reference};
use std::path::Path;

fn load(path: &Path) -> Result<Position, robots_games::text::diagnostic::Diagnostic> {
    let text = std::fs::read_to_string(path).unwrap();
    let base = path.parent().unwrap().to_path_buf();
    robots_games::ricochet::files::parse(&shown("ricochet", path), &text, &|name| {
        std::fs::read_to_string(base.join(name)).map_err(|e| e.to_string())
    })
}

fn position(name: &str) -> Position {
    load(&root().join("tests/ricochet").join(name)).expect("a valid position")
}

#[test]
fn all_96_original_boards_build_with_17_targets_and_a_closed_centre() {
    let boards = original_arrangements();
    assert_eq!(boards.len(), 96);
    let distinct: std::collections::HashSet<_> = boards.iter().collect();
    assert_eq!(distinct.len(), 96);
    for names in &boards {
        let b = from_quadrants(names).unwrap();
        assert_eq!(b.targets.len(), 17, "{names:?}");
        assert_eq!(
            b.targets.iter().filter(|t| t.colour.is_none()).count(),
            1,
            "one vortex"
        );
        for colour in [Colour::Red, Colour::Green, Colour::Blue, Colour::Yellow] {
            assert_eq!(
                b.targets
                    .iter()
                    .filter(|t| t.colour == Some(colour))
                    .count(),
                4,
                "{names:?}: 4 {colour} targets"
            );
        }
        for (x, y) in [(7, 7), (8, 7), (7, 8), (8, 8)] {
            let c = b.cell(x, y);
            assert!(b.blocked[usize::from(c)], "{names:?}: the centre is closed");
            assert!(Dir::ALL.iter().all(|&d| b.wall(c, d)));
        }
        // Walls are two-sided: a wall on one side of a cell is on the facing side of its neighbour.
        for c in 0..u16::try_from(b.len()).unwrap() {
            for d in Dir::ALL {
                if let Some(n) = b.neighbour(c, d) {
                    assert_eq!(b.wall(c, d), b.wall(n, d.opposite()));
                }
            }
        }
    }
}

#[test]
fn positions_draw_solve_and_check() {
    insta::glob!("../ricochet", "*.yaml", |path| {
        let name = file_name(path);
        let input = std::fs::read_to_string(path).unwrap();
        let result = load(path);
        assert_eq!(result.is_err(), name.starts_with("err_"), "{name}");
        let output = match result {
            Err(d) => d.to_string(),
            Ok(p) => {
                let s = solve::solve(&p, 30).unwrap();
                assert_eq!(
                    solve::check(&p, &s.solution),
                    Ok(s.moves),
                    "{name}: the answer replays"
                );
                let moves: Vec<String> = s.solution.iter().map(ToString::to_string).collect();
                format!(
                    "{}{}: {}\n",
                    robots_games::ricochet::draw::text::position(&p, false),
                    robots_games::text::count(s.moves, "move"),
                    moves.join(", ")
                )
            }
        };
        snapshot!(
            "positions_draw_solve_and_check",
            format!("{input}\n---- result ----\n{output}")
        );
    });
}

fn moves_of(name: &str) -> u32 {
    solve::solve(&position(name), 30).expect("a solution").moves
}

#[test]
fn r_b1_must_ricochet_makes_the_straight_route_illegal() {
    assert_eq!(moves_of("R-B1-must-ricochet.yaml"), 3);
    assert_eq!(moves_of("R-B1-off-straight-route-counts.yaml"), 1);
    let p = position("R-B1-must-ricochet.yaml");
    let straight = solve::check(&p, &parse_moves("red E").unwrap());
    assert!(straight.unwrap_err().to_string().contains("R-B1"));
}

#[test]
fn r_b2_refuses_a_single_move() {
    let p = position("R-B2-no-single-move.yaml");
    assert_eq!(moves_of("R-B2-no-single-move.yaml"), 2);
    assert!(
        solve::check(&p, &parse_moves("red E").unwrap())
            .unwrap_err()
            .to_string()
            .contains("R-B2")
    );
    // A solution ends with the move that brings the robot onto the target.
    assert!(
        solve::check(&p, &parse_moves("red E, green N").unwrap())
            .unwrap_err()
            .to_string()
            .contains("before the last move")
    );
    assert_eq!(
        solve::check(&p, &parse_moves("green W, red E").unwrap()),
        Ok(2)
    );
}

#[test]
fn the_vortex_takes_any_robot() {
    let p = position("vortex-any-robot.yaml");
    assert_eq!(moves_of("vortex-any-robot.yaml"), 1);
    assert_eq!(solve::check(&p, &parse_moves("green S").unwrap()), Ok(1));
    // The vortex on an original board is reached by whichever robot is quickest.
    let b = from_quadrants(&["1A".into(), "2A".into(), "3A".into(), "4A".into()]).unwrap();
    assert!(
        b.targets
            .iter()
            .any(|t| t.colour.is_none() && t.symbol == "vortex")
    );
}

#[test]
fn the_silver_robot_moves_and_blocks() {
    assert_eq!(moves_of("silver-robot-as-a-blocker.yaml"), 2);
    let p = position("silver-robot-as-a-blocker.yaml");
    assert_eq!(
        solve::check(&p, &parse_moves("silver N, red E").unwrap()),
        Ok(2)
    );
}

#[test]
fn diagonals_turn_other_colours_and_let_their_own_through() {
    let p = position("diagonal-turns-other-colours.yaml");
    let mut after = p.clone();
    assert_eq!(
        after
            .play(position::Move {
                robot: Colour::Red,
                dir: Dir::E,
                to: None
            })
            .unwrap()
            .0,
        p.board.cell(2, 0)
    );
    let q = position("diagonal-lets-its-colour-through.yaml");
    let mut after = q.clone();
    assert_eq!(
        after
            .play(position::Move {
                robot: Colour::Blue,
                dir: Dir::E,
                to: None
            })
            .unwrap()
            .0,
        q.board.cell(4, 2)
    );
    // On the D sides the diagonals are real: every original D board builds with them.
    let d = from_quadrants(&["1D".into(), "2D".into(), "3D".into(), "4D".into()]).unwrap();
    assert_eq!(d.diagonals.iter().filter(|x| x.is_some()).count(), 8);
}

#[test]
fn the_transparent_robot_crosses_walls_for_an_extra_move() {
    let p = position("transparent-robot-crosses-a-wall.yaml");
    let s = solve::solve(&p, 10).unwrap();
    assert_eq!(
        (s.moves, s.solution.len()),
        (2, 1),
        "one move, counted twice"
    );
    // Stopping at the wall is also allowed, and costs one.
    let at_wall = parse_moves("transparent E to 1 0").unwrap();
    let mut q = p.clone();
    assert_eq!(q.play(at_wall[0]).unwrap(), (p.board.cell(1, 0), 1));
    // Never through the board's edge.
    let mut r = p.clone();
    assert!(
        r.play(parse_moves("transparent W to 0 0").unwrap()[0])
            .is_err()
    );
}

/// The solver's optimum equals the plain search's on short random positions of the original
/// boards, with and without R-B1.
#[test]
fn the_solver_matches_a_plain_search_on_short_positions() {
    let mut compared = 0;
    for seed in 0..400u64 {
        let text = robots_games::ricochet::files::random_yaml(seed, 4);
        let mut p =
            robots_games::ricochet::files::parse("random", &text, &|_| Err("no".into())).unwrap();
        p.rules.must_ricochet = seed % 2 == 0;
        let Ok(s) = solve::solve(&p, 3) else { continue };
        let plain = reference::fewest_moves(&p, 3);
        assert_eq!(plain, Some(s.moves), "seed {seed}:\n{text}");
        compared += 1;
    }
    assert!(compared >= 20, "only {compared} short positions");
}

/// On the standard positions the fast search and the general one agree.
#[test]
fn the_fast_and_general_searches_agree() {
    for seed in 0..40u64 {
        let text = robots_games::ricochet::files::random_yaml(seed, 4);
        let mut p =
            robots_games::ricochet::files::parse("random", &text, &|_| Err("no".into())).unwrap();
        p.rules.must_ricochet = false;
        if p.goal.robot.is_none() {
            continue;
        }
        assert!(robots_games::ricochet::solve::standard::applies(&p));
        let fast = solve::solve(&p, 9).map(|s| s.moves);
        let general = solve::general(&p, 9).map(|s| s.moves);
        assert_eq!(fast, general, "seed {seed}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    /// Every answer replays, move by move, to the target under the position's rules.
    #[test]
    fn every_answer_replays_to_the_target(seed in 0..100_000u64, five in any::<bool>(), r_b1 in any::<bool>(), r_b2 in any::<bool>()) {
        let text = robots_games::ricochet::files::random_yaml(seed, if five { 5 } else { 4 });
        let mut p = robots_games::ricochet::files::parse("random", &text, &|_| Err("no".into())).unwrap();
        p.rules.must_ricochet = r_b1;
        p.rules.no_single_move = r_b2;
        if let Ok(s) = solve::solve(&p, 7) {
            prop_assert_eq!(solve::check(&p, &s.solution), Ok(s.moves));
            prop_assert!(!r_b2 || s.solution.len() >= 2);
        }
    }
}

#[test]
fn a_three_player_game_runs_to_its_end_and_names_the_winner() {
    use robots_games::ricochet::play::game::{Kind, NoHumans, Player, play, tokens_to_win};
    let board = from_quadrants(&original_arrangements()[17]).unwrap();
    let players: Vec<Player> = ["Ada", "Blaise", "Carl"]
        .iter()
        .zip([2u8, 3, 4])
        .map(|(n, s)| Player {
            name: n.to_string(),
            kind: Kind::Computer { strength: s },
            tokens: 0,
        })
        .collect();
    let mut log = Vec::new();
    let outcome = play(
        &board,
        players,
        11,
        robots_games::ricochet::rules::Rules::default(),
        &mut NoHumans,
        &mut |l| log.extend(l.to_string().lines().map(String::from)),
    );
    assert_eq!(outcome.winners.len(), 1);
    let winner = outcome
        .players
        .iter()
        .find(|p| p.name == outcome.winners[0])
        .unwrap();
    assert_eq!(Some(winner.tokens), tokens_to_win(3));
    assert_eq!(log.last().unwrap(), &format!("winner: {}", winner.name));
    snapshot!("game-3-players", log.join("\n"));
}

#[test]
fn a_game_of_ricochets_plays_the_treasures_out() {
    use robots_games::ricochet::play::game::{Kind, NoHumans, Player, play};
    let text = read("boards/ricochet/ricochets-10x8.yaml");
    let board = robots_games::ricochet::files::parse_custom("ricochets-10x8.yaml", &text).unwrap();
    let players: Vec<Player> = ["Ada", "Blaise"]
        .iter()
        .map(|n| Player {
            name: n.to_string(),
            kind: Kind::Computer { strength: 3 },
            tokens: 0,
        })
        .collect();
    let mut log = Vec::new();
    let outcome = play(
        &board,
        players,
        2,
        robots_games::ricochet::rules::Rules::default(),
        &mut NoHumans,
        &mut |l| log.extend(l.to_string().lines().map(String::from)),
    );
    assert_eq!(outcome.reason, "the treasures have run out");
    assert_eq!(
        outcome.players.iter().map(|p| p.tokens).sum::<u32>(),
        8,
        "8 treasures, all won"
    );
    // R-B2 holds in every demonstration, and played targets move.
    assert!(log.iter().any(|l| l.contains("target moves to")));
    snapshot!("game-ricochets", log.join("\n"));
}

/// Game ids (docs/FORMATS.md): `random --id` names the position `random` writes, `solve --id`
/// solves it as the file is solved, and `bench --ids` times a file of them and ends with the
/// median, p99 and maximum. The shipped bench set is seeds 1 to 200.
#[test]
fn game_ids_name_solve_and_time_positions() {
    use crate::support::{robots, stderr, stdout};
    let id = stdout(&robots(&["ricochet", "random", "--seed", "7", "--id"]));
    let id = id.trim();
    let file = std::env::temp_dir().join(format!("robots-ids-{}", std::process::id()));
    std::fs::create_dir_all(&file).unwrap();
    let yaml = file.join("random-7.yaml");
    std::fs::write(
        &yaml,
        stdout(&robots(&["ricochet", "random", "--seed", "7"])),
    )
    .unwrap();
    let by_file = stdout(&robots(&["ricochet", "solve", yaml.to_str().unwrap()]));
    let by_id = stdout(&robots(&["ricochet", "solve", "--id", id]));
    assert_eq!(by_id, by_file);
    let ids = file.join("three.ids");
    std::fs::write(
        &ids,
        format!("# three\n{id}\n\n0532+42+E18C08CA+63\n{id}\n"),
    )
    .unwrap();
    let ids_path = ids.to_str().unwrap();
    let out = stdout(&robots(&["ricochet", "bench", "--ids", ids_path]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 6, "{out}");
    assert!(lines[1].starts_with("0532+42+E18C08CA+63") && lines[1].contains(" 2 moves"));
    assert!(lines[3].starts_with("median: ") && lines[3].ends_with(" ms"));
    assert!(lines[4].starts_with("p99: ") && lines[5].starts_with("max: "));
    let off = stdout(&robots(&[
        "ricochet",
        "bench",
        "--ids",
        ids_path,
        "--must-ricochet",
        "off",
    ]));
    assert!(off.lines().nth(1).unwrap().contains(" 2 moves"), "{off}");
    std::fs::write(&ids, format!("{id}\n0765+42+2E21BD0F+9Z\n")).unwrap();
    let bad = robots(&["ricochet", "bench", "--ids", ids_path]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("three.ids:2: the target part"),
        "{}",
        stderr(&bad)
    );
    let bad = robots(&["ricochet", "solve", "--id", "0765+42+7721BD0F+93"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("--id:") && stderr(&bad).contains("centre"));
    std::fs::remove_dir_all(&file).unwrap();
    let shipped: Vec<String> = read("boards/ricochet/bench/random-200.ids")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(String::from)
        .collect();
    let drawn: Vec<String> = (1..=200)
        .map(|seed| robots_games::ricochet::files::random_id(seed, 4).to_string())
        .collect();
    assert_eq!(shipped, drawn);
}

/// `ricochet board --id ID --json` states a position with nothing left out: a robot moved by
/// its `walls` bits alone (and the other robots) follows the solver's solution to the goal, on
/// positions with the central block, the vortex and walls everywhere. `--id` draws the same
/// position as the file does.
#[test]
fn a_position_as_json_holds_every_wall() {
    use crate::support::{robots, stderr, stdout};
    for seed in 1..=12 {
        let id = stdout(&robots(&[
            "ricochet",
            "random",
            "--seed",
            &seed.to_string(),
            "--id",
        ]));
        let id = id.trim();
        let o = robots(&["ricochet", "board", "--id", id, "--json"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let p: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        let walls: Vec<u8> = serde_json::from_value(p["walls"].clone()).unwrap();
        assert_eq!(walls.len(), 256);
        assert_eq!(
            p["blocked"].as_array().unwrap().len(),
            4,
            "the central block"
        );
        let xy = |v: &serde_json::Value| (v[0].as_i64().unwrap(), v[1].as_i64().unwrap());
        let mut at: Vec<(String, (i64, i64))> = p["robots"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["robot"].as_str().unwrap().to_string(), xy(&r["at"])))
            .collect();
        let off = [
            "ricochet",
            "solve",
            "--id",
            id,
            "--must-ricochet",
            "off",
            "--json",
        ];
        let solution: serde_json::Value = serde_json::from_str(&stdout(&robots(&off))).unwrap();
        for m in solution["solution"].as_array().unwrap() {
            let i = at
                .iter()
                .position(|(r, _)| r == m["robot"].as_str().unwrap());
            at[i.unwrap()].1 = slide(&walls, &at, at[i.unwrap()].1, m["dir"].as_str().unwrap());
        }
        let goal = xy(&p["goal"]["at"]);
        let who = p["goal"]["robot"].as_str().unwrap();
        assert!(
            at.iter()
                .any(|(r, c)| *c == goal && (who == "any" || r == who)),
            "{id}: {solution}"
        );
    }
    let yaml = stdout(&robots(&["ricochet", "random", "--seed", "7"]));
    let dir = std::env::temp_dir().join(format!("robots-json-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("p.yaml"), yaml).unwrap();
    let by_file = robots(&["ricochet", "board", dir.join("p.yaml").to_str().unwrap()]);
    let id = stdout(&robots(&["ricochet", "random", "--seed", "7", "--id"]));
    let by_id = robots(&["ricochet", "board", "--id", id.trim()]);
    assert_eq!(stdout(&by_id), stdout(&by_file));
    std::fs::remove_dir_all(&dir).unwrap();
    let custom = [
        "ricochet",
        "board",
        "boards/ricochet/ricochets-10x8.yaml",
        "--json",
    ];
    let bad = robots(&custom);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("--json prints a position"),
        "{}",
        stderr(&bad)
    );
}

/// Where a robot at `from` stops going `dir`, by the walls' bits and the other robots alone.
fn slide(walls: &[u8], robots: &[(String, (i64, i64))], from: (i64, i64), dir: &str) -> (i64, i64) {
    let (bit, dx, dy) = match dir {
        "N" => (1, 0, -1),
        "E" => (2, 1, 0),
        "S" => (4, 0, 1),
        _ => (8, -1, 0),
    };
    let (mut x, mut y) = from;
    loop {
        let next = (x + dx, y + dy);
        let wall = walls[usize::try_from(y * 16 + x).unwrap()] & bit != 0;
        if wall || robots.iter().any(|(_, c)| *c == next) {
            return (x, y);
        }
        (x, y) = next;
    }
}
