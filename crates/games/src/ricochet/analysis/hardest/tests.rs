//! The hardest starts checked against the solver on small boards, with one thread or two,
//! and questions refused before the work.

use super::*;
use crate::ricochet::position::Position;
use crate::ricochet::rules::Rules;
use crate::ricochet::solve::solve;
use std::sync::Arc;

/// A 6×5 board with a centre cell and a few walls.
fn board() -> Board {
    let text = "size: [6, 5]\ncentre: [2, 2, 1, 1]\nwalls: [[1, 0, E], [4, 1, S], [0, 3, N], [3, 4, E], [5, 2, W]]\n";
    crate::ricochet::files::parse_custom("t", text).unwrap()
}

/// Every placement's fewest moves from the retrograde search, against `solve` on the
/// placement as a position (R-B1 off).
fn agrees_with_the_solver(goal: Goal, robots: usize, must_ricochet: bool) {
    let b = board();
    let plan = Plan::new(&b, goal, robots, must_ricochet, 1 << 20).unwrap();
    let dist = layers(&plan, &|_| {}).unwrap();
    let answer = search(&plan, 0, &|_| {}).unwrap();
    let by_moves = answer.by_moves;
    let board = Arc::new(b);
    let mut counted = vec![0u64; by_moves.len()];
    let mut unsolvable = 0;
    for (i, d) in dist
        .iter()
        .take(usize::try_from(plan.placements).unwrap())
        .enumerate()
    {
        let placement = plan.placement(i);
        let mut robots: Vec<(Colour, u16)> = placement
            .iter()
            .map(|&(c, (x, y))| (c, board.cell(x, y)))
            .collect();
        robots.sort_unstable();
        let p = Position {
            board: Arc::clone(&board),
            robots,
            goal,
            rules: Rules {
                must_ricochet,
                no_single_move: false,
            },
        };
        assert_eq!(plan.index(&cells_of(&plan, &placement), 0), i);
        let want = solve(&p, 60).map_or(0, |s| s.moves);
        let got = u32::from(d.load(Relaxed));
        assert_eq!(got, want, "placement {i}: {placement:?}");
        if got > 0 {
            counted[usize::try_from(got).unwrap()] += 1;
        } else {
            unsolvable += 1;
        }
    }
    assert_eq!(counted, by_moves);
    assert_eq!(unsolvable, answer.unsolvable);
}

fn cells_of(plan: &Plan, placement: &[(Colour, (u16, u16))]) -> Vec<u16> {
    placement
        .iter()
        .map(|&(_, (x, y))| {
            let cell = y * plan.width + x;
            u16::try_from(plan.free.iter().position(|&c| c == cell).unwrap()).unwrap()
        })
        .collect()
}

#[test]
fn every_placement_agrees_with_the_solver() {
    let b = board();
    let blue = Goal {
        cell: b.cell(4, 1),
        robot: Some(Colour::Blue),
    };
    agrees_with_the_solver(blue, 3, false);
    agrees_with_the_solver(blue, 3, true);
    agrees_with_the_solver(
        Goal {
            cell: b.cell(0, 4),
            robot: None,
        },
        3,
        false,
    );
    let red = Goal {
        cell: b.cell(3, 3),
        robot: Some(Colour::Red),
    };
    agrees_with_the_solver(red, 1, false);
    agrees_with_the_solver(red, 1, true);
    agrees_with_the_solver(
        Goal {
            cell: b.cell(1, 1),
            robot: Some(Colour::Green),
        },
        2,
        true,
    );
}

#[test]
fn one_thread_or_two_give_the_same_answer() {
    let b = board();
    let goal = Goal {
        cell: b.cell(4, 1),
        robot: Some(Colour::Yellow),
    };
    let plan = Plan::new(&b, goal, 4, true, 1 << 20).unwrap();
    let answers: Vec<Answer> = [1, 2]
        .map(|threads| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| search(&plan, 10, &|_| {})).unwrap()
        })
        .into();
    assert_eq!(answers[0], answers[1]);
    assert!(answers[0].most().is_some_and(|(m, _)| m >= 3));
}

#[test]
fn questions_too_big_or_malformed_are_refused_before_the_work() {
    let b = board();
    let goal = Goal {
        cell: b.cell(4, 1),
        robot: Some(Colour::Red),
    };
    let plan = |goal, robots, rb1, limit| Plan::new(&b, goal, robots, rb1, limit).err();
    assert_eq!(plan(goal, 0, false, 1 << 20), Some(HardestError::Robots(0)));
    assert_eq!(plan(goal, 6, false, 1 << 20), Some(HardestError::Robots(6)));
    let small = HardestError::TooBig {
        states: 10_962,
        limit: 100,
    };
    assert_eq!(plan(goal, 3, false, 100), Some(small));
    let big = HardestError::TooBig {
        states: 4 * 10_962,
        limit: 40_000,
    };
    assert_eq!(plan(goal, 3, true, 40_000), Some(big));
    let centre = Goal {
        cell: b.cell(2, 2),
        robot: Some(Colour::Red),
    };
    assert_eq!(plan(centre, 2, false, 1 << 20), Some(HardestError::Target));
    let vortex = Goal {
        cell: b.cell(0, 0),
        robot: None,
    };
    assert_eq!(
        plan(vortex, 2, true, 1 << 20),
        Some(HardestError::VortexRicochet)
    );
    assert_eq!(plan(goal, 5, false, 1 << 40), None);
}
