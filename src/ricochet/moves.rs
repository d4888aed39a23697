//! How a robot slides (RULES B.1, C.2): until a wall, the central block or another robot;
//! through diagonals of its own colour, turned 90° by others, never stopping on one. The
//! transparent robot may also stop at an inner wall or cross it, and cross a diagonal, each
//! crossing one extra move.

use super::board::{Board, Cell, Colour, Dir};

/// The most crossings a transparent move considers (each costs a move).
pub const MAX_CROSSINGS: u8 = 6;

/// Where a robot of `colour` at `from` stops moving `dir`, with `occupied(cell)` telling
/// where the other robots are. `None` if it cannot move at all.
pub fn slide(
    b: &Board,
    from: Cell,
    colour: Colour,
    dir: Dir,
    occupied: &dyn Fn(Cell) -> bool,
) -> Option<Cell> {
    let mut here = from;
    let mut d = dir;
    // A robot turned by diagonals could in principle circle; no path is longer than this.
    for _ in 0..b.len() * 4 {
        let Some(next) = step(b, here, d, occupied) else {
            break;
        };
        match b.diagonals[usize::from(next)] {
            Some(diag) if diag.colour != colour => {
                let out = diag.deflect(d);
                // Nothing stops on a diagonal: if it cannot leave the cell, it stops before.
                if step(b, next, out, occupied).is_none() {
                    break;
                }
                here = next;
                d = out;
            }
            Some(_) if step(b, next, d, occupied).is_none() => break,
            _ => here = next,
        }
    }
    (here != from).then_some(here)
}

/// The cell entered moving `d` from `c`, unless a wall, the centre or a robot is in the way.
fn step(b: &Board, c: Cell, d: Dir, occupied: &dyn Fn(Cell) -> bool) -> Option<Cell> {
    if b.wall(c, d) {
        return None;
    }
    let n = b.neighbour(c, d)?;
    (!b.blocked[usize::from(n)] && !occupied(n)).then_some(n)
}

/// Every end of a transparent robot's move: `(cell, crossings)`. At an inner wall it may stop
/// or cross; at a diagonal it may turn (free) or cross straight on; it stops in front of
/// robots and never crosses the board's edge or the central block.
pub fn transparent_slides(
    b: &Board,
    from: Cell,
    dir: Dir,
    occupied: &dyn Fn(Cell) -> bool,
) -> Vec<(Cell, u8)> {
    let mut ends = Vec::new();
    let mut stack = vec![(from, dir, 0u8, 0usize)];
    while let Some((here, d, crossed, steps)) = stack.pop() {
        if steps > b.len() * 4 {
            continue;
        }
        let blocked_by_wall = b.wall(here, d);
        let next = b.neighbour(here, d);
        let robot_ahead = next.is_some_and(occupied);
        if blocked_by_wall
            || next.is_none()
            || robot_ahead
            || next.is_some_and(|n| b.blocked[usize::from(n)])
        {
            if here != from && b.diagonals[usize::from(here)].is_none() {
                ends.push((here, crossed));
            }
            // An inner wall (not the edge, not the centre) may be crossed, for one more move.
            if blocked_by_wall && !robot_ahead && !b.uncrossable(here, d) && crossed < MAX_CROSSINGS
            {
                let n = next.expect("an inner wall has a cell behind it");
                stack.push((n, d, crossed + 1, steps + 1));
            }
            continue;
        }
        let n = next.expect("checked");
        match b.diagonals[usize::from(n)] {
            Some(diag) => {
                stack.push((n, diag.deflect(d), crossed, steps + 1));
                if crossed < MAX_CROSSINGS {
                    stack.push((n, d, crossed + 1, steps + 1));
                }
            }
            None => stack.push((n, d, crossed, steps + 1)),
        }
    }
    ends.sort_unstable();
    ends.dedup_by_key(|e| e.0);
    ends
}
