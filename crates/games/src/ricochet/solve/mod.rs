//! Optimal solutions (RULES B.1, B.2, C.2): fewest moves, the transparent robot's crossings
//! counted. Standard positions go to the A* of [`astar`], and those that outgrow it
//! without R-B1 to [`parallel_bfs`]; the vortex on a standard board to the A* once per
//! robot; every other case to [`dijkstra`]. And the checker, which replays a proposed solution
//! under the same rules. Their parts: [`standard`]'s packed states and successors, the
//! [`bound`], the A*'s [`states`], the [`bucket`] queue, the [`solution`] and its budget; a
//! plain [`reference`] search the tests compare with.

pub mod astar;
pub mod bound;
pub mod bucket;
pub mod dijkstra;
pub mod parallel_bfs;
pub mod reference;
pub mod solution;
pub mod standard;
pub mod states;

use crate::ricochet::board::Colour;
use crate::ricochet::position::{Move, MoveError, Position};
use crate::ricochet::rules::Axis;
use bound::Bound;
use standard::{Tables, applies, applies_to_any};
use std::collections::HashMap;

use solution::Meter;

pub use dijkstra::general;
pub use solution::{Budget, NoSolution, Solution};

/// Fewest moves to the goal, up to `max` counted moves, within the default [`Budget`].
pub fn solve(p: &Position, max: u32) -> Result<Solution, NoSolution> {
    solve_within(p, max, Budget::default(), &mut |_| {})
}

/// Fewest moves to the goal, up to `max` counted moves; `NoSolution::Budget` once the search
/// holds `budget` states. `progress` hears the states held now and then (about every 250,000).
pub fn solve_within(
    p: &Position,
    max: u32,
    budget: Budget,
    progress: &mut dyn FnMut(u64),
) -> Result<Solution, NoSolution> {
    if !p.is_well_formed() {
        return Err(NoSolution::Malformed);
    }
    let mut meter = Meter::new(budget, progress);
    if p.goal.robot.is_none()
        && applies_to_any(p)
        && let Some(answer) = vortex(p, max, &mut meter)
    {
        return answer;
    }
    if !applies(p) {
        return dijkstra::search(p, max, &mut meter);
    }
    let t = Tables::new(p);
    let lb = Bound::new(&p.board, t.goal, p.rules);
    match astar::search(p, &t, &lb, max, &mut meter) {
        Some(answer) => answer,
        None => parallel_bfs::search(p, &t, max, &mut meter),
    }
}

/// The vortex (any robot) on a standard board: each robot in turn as the target's robot,
/// with a limit raised one move at a time, so that no robot's search goes deeper than the
/// answer. The walls and the bound depend on the target's cell alone: built once. `None` when
/// one outgrew the small tier (the general search takes the position).
fn vortex(p: &Position, max: u32, meter: &mut Meter) -> Option<Result<Solution, NoSolution>> {
    let each: Vec<Position> = p
        .robots
        .iter()
        .map(|&(robot, _)| {
            let mut one = p.clone();
            one.goal.robot = Some(robot);
            one
        })
        .collect();
    let t = Tables::new(p);
    let lb = Bound::new(&p.board, t.goal, p.rules);
    for limit in 0..=max {
        for one in &each {
            match astar::search(one, &t, &lb, limit, meter)? {
                Ok(s) => return Some(Ok(s)),
                Err(NoSolution::Limit(_)) => {}
                Err(e) => return Some(Err(e)),
            }
        }
    }
    Some(Err(NoSolution::Limit(max)))
}

/// Why a proposed solution is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    /// Move `index` (from 1) cannot be played.
    #[error("move {index} ({played}): {why}")]
    Illegal {
        index: usize,
        played: Move,
        why: MoveError,
    },
    #[error("after {}, {} is not on the target", crate::text::count(*.moves, "move"), who(*.robot))]
    NotOnTarget { moves: usize, robot: Option<Colour> },
    #[error(
        "the {0} robot is on the target before the last move: a solution ends with the move that brings it there"
    )]
    ArrivedEarly(Colour),
    #[error("the {0} robot reaches the target without ever turning: it must ricochet (R-B1)")]
    NoRicochet(Colour),
    #[error("a one-move solution does not count (R-B2)")]
    SingleMove,
}

fn who(robot: Option<Colour>) -> String {
    robot.map_or("a robot".to_string(), |c| format!("the {c} robot"))
}

/// Replays a proposed solution: `Ok(counted moves)`, or which move failed and why.
pub fn check(p: &Position, moves: &[Move]) -> Result<u32, CheckError> {
    let mut pos = p.clone();
    let mut counted = 0;
    let mut axes: HashMap<Colour, Axis> = HashMap::new();
    for (i, m) in moves.iter().enumerate() {
        let (_, cost) = pos.play(*m).map_err(|why| CheckError::Illegal {
            index: i + 1,
            played: *m,
            why,
        })?;
        counted += cost;
        let a = axes.entry(m.robot).or_default();
        *a = a.after(m.dir);
    }
    let on_goal = pos
        .robots
        .iter()
        .find(|(c, cell)| *cell == p.goal.cell && p.goal.robot.is_none_or(|g| g == *c));
    let Some(&(robot, _)) = on_goal else {
        return Err(CheckError::NotOnTarget {
            moves: moves.len(),
            robot: p.goal.robot,
        });
    };
    if moves.last().is_some_and(|m| m.robot != robot) {
        return Err(CheckError::ArrivedEarly(robot));
    }
    if !p
        .rules
        .ricocheted(axes.get(&robot).copied().unwrap_or_default())
    {
        return Err(CheckError::NoRicochet(robot));
    }
    let played = u32::try_from(moves.len()).unwrap_or(u32::MAX);
    if !p.rules.counts(played) {
        return Err(CheckError::SingleMove);
    }
    Ok(counted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ricochet::position::Goal;
    use crate::ricochet::rules::Rules;
    use std::sync::Arc;

    /// An open 64×64 board, five robots: the general search stops at its budget, having
    /// reported its progress on the way, and so do the standard tiers.
    #[test]
    fn the_solver_stops_at_its_state_budget_and_reports_progress() {
        let mut board = crate::ricochet::board::Board::empty("open", 64, 64);
        board.add_wall(board.cell(10, 10), crate::ricochet::board::Dir::S);
        let robots = [(Colour::Red, 0), (Colour::Green, 4095), (Colour::Blue, 455)];
        let p = Position {
            board: Arc::new(board),
            robots: robots
                .into_iter()
                .chain([(Colour::Yellow, 2590), (Colour::Silver, 178)])
                .collect(),
            goal: Goal {
                cell: 33 * 64 + 33,
                robot: Some(Colour::Red),
            },
            rules: Rules::default(),
        };
        let mut reports = Vec::new();
        let budget = Budget {
            max_states: 600_000,
        };
        let got = solve_within(&p, 40, budget, &mut |n| reports.push(n));
        assert!(
            matches!(got, Err(NoSolution::Budget(n)) if n >= 600_000),
            "{got:?}"
        );
        assert!(reports.len() >= 2 && reports.windows(2).all(|w| w[0] < w[1]));
        let hard = crate::ricochet::files::parse("hard", crate::ricochet::bench::HARD_25, &|_| {
            Err(String::new())
        })
        .unwrap();
        let small = Budget { max_states: 1000 };
        let got = solve_within(&hard, 40, small, &mut |_| {});
        assert!(
            matches!(got, Err(NoSolution::Budget(n)) if n >= 1000),
            "{got:?}"
        );
    }

    /// Random positions of the original boards (coloured targets and the vortex), with and
    /// without R-B1: the standard tiers find as few moves as the general search, and their
    /// solutions check.
    #[test]
    fn the_standard_tiers_agree_with_the_general_search_on_short_positions() {
        let mut checked = 0;
        let mut vortices = 0;
        for seed in 1..=400 {
            let id = crate::ricochet::files::random_id(seed, 4);
            for must_ricochet in [false, true] {
                let rules = Rules {
                    must_ricochet,
                    no_single_move: seed % 5 == 0,
                };
                let p = id.position(rules).unwrap();
                let Ok(slow) = general(&p, 7) else {
                    continue;
                };
                let fast = solve(&p, 7).unwrap();
                assert_eq!(slow.moves, fast.moves, "{id} {rules:?}");
                assert_eq!(check(&p, &fast.solution), Ok(fast.moves), "{id} {rules:?}");
                checked += 1;
                vortices += usize::from(p.goal.robot.is_none());
            }
        }
        assert!(checked >= 200 && vortices >= 10, "{checked} {vortices}");
    }
}
