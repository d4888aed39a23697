//! A deliberately plain solver, for tests: breadth-first search over ordered robot layouts
//! with a hash set, one robot move at a time through [`Position::play`]. Unit costs only (no
//! transparent robot); R-B1 and R-B2 are checked on the full move list at the goal, so the
//! search keeps paths, not states, and is only for short positions.

use crate::ricochet::board::Dir;
use crate::ricochet::position::{Move, Position};
use crate::ricochet::solve::check;

/// Fewest moves, trying every sequence up to `max` moves (breadth-first, no pruning by state
/// when a rule depends on the path).
pub fn fewest_moves(p: &Position, max: u32) -> Option<u32> {
    let mut layer: Vec<(Position, Vec<Move>)> = vec![(p.clone(), Vec::new())];
    let path_rules = p.rules.must_ricochet || p.rules.no_single_move;
    let mut seen = std::collections::HashSet::new();
    for depth in 0..=max {
        for (_, moves) in &layer {
            if check(p, moves).is_ok() {
                return Some(depth);
            }
        }
        if depth == max {
            break;
        }
        let mut next = Vec::new();
        for (pos, moves) in &layer {
            for (robot, _) in &pos.robots {
                for dir in Dir::ALL {
                    let m = Move {
                        robot: *robot,
                        dir,
                        to: None,
                    };
                    let mut after = pos.clone();
                    if after.play(m).is_err() {
                        continue;
                    }
                    let key: Vec<_> = after.robots.clone();
                    if path_rules || seen.insert(key) {
                        let mut ms = moves.clone();
                        ms.push(m);
                        next.push((after, ms));
                    }
                }
            }
        }
        layer = next;
    }
    None
}
