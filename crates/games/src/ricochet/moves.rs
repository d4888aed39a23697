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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ricochet::board::Diagonal;
    use Colour::{Blue, Red};
    use Put::{Centre, Diagonal as Diag, Robot, Wall};

    /// What a row puts on an empty 6×6 board.
    #[derive(Clone, Copy)]
    enum Put {
        /// A wall on side `Dir` of the cell.
        Wall(u16, u16, Dir),
        /// A cell of the central block.
        Centre(u16, u16),
        /// A diagonal: `\` if true, else `/`, in a colour.
        Diagonal(u16, u16, bool, Colour),
        /// Another robot.
        Robot(u16, u16),
    }

    fn setup(puts: &[Put]) -> (Board, Vec<Cell>) {
        let mut b = Board::empty("t", 6, 6);
        let mut robots = Vec::new();
        for put in puts {
            match *put {
                Put::Wall(x, y, d) => b.add_wall(b.cell(x, y), d),
                Put::Centre(x, y) => b.block(b.cell(x, y)),
                Put::Diagonal(x, y, backslash, colour) => {
                    let c = b.cell(x, y);
                    b.diagonals[usize::from(c)] = Some(Diagonal { backslash, colour });
                }
                Put::Robot(x, y) => robots.push(b.cell(x, y)),
            }
        }
        (b, robots)
    }

    /// A robot of `colour` at `from` moves `dir` on a board with `puts`: it stops at `stop`.
    struct Slide {
        what: &'static str,
        puts: &'static [Put],
        colour: Colour,
        from: (u16, u16),
        dir: Dir,
        stop: Option<(u16, u16)>,
    }

    const fn row(
        what: &'static str,
        puts: &'static [Put],
        colour: Colour,
        from: (u16, u16),
        dir: Dir,
        stop: Option<(u16, u16)>,
    ) -> Slide {
        Slide {
            what,
            puts,
            colour,
            from,
            dir,
            stop,
        }
    }

    #[rustfmt::skip]
    const SLIDES: &[Slide] = &[
        row("open row to the edge", &[], Red, (0, 0), Dir::E, Some((5, 0))),
        row("open column to the edge", &[], Red, (3, 0), Dir::S, Some((3, 5))),
        row("the edge: no move", &[], Red, (0, 0), Dir::N, None),
        row("a wall ahead", &[Wall(3, 0, Dir::E)], Red, (0, 0), Dir::E, Some((3, 0))),
        row("a wall from the far side", &[Wall(4, 0, Dir::W)], Red, (0, 0), Dir::E, Some((3, 0))),
        row("a wall behind", &[Wall(0, 0, Dir::W)], Red, (0, 0), Dir::E, Some((5, 0))),
        row("the closed centre", &[Centre(2, 2)], Red, (2, 0), Dir::S, Some((2, 1))),
        row("a robot ahead", &[Robot(4, 0)], Red, (0, 0), Dir::E, Some((3, 0))),
        row("a robot alongside: no move", &[Robot(1, 0)], Red, (0, 0), Dir::E, None),
        row("its own diagonal: through", &[Diag(2, 0, true, Red)], Red, (0, 0), Dir::E, Some((5, 0))),
        row("another's \\ turns E to S", &[Diag(2, 0, true, Blue)], Red, (0, 0), Dir::E, Some((2, 5))),
        row("another's / turns E to N", &[Diag(2, 3, false, Blue)], Red, (0, 3), Dir::E, Some((2, 0))),
        row("turned into the edge", &[Diag(2, 0, false, Blue)], Red, (0, 0), Dir::E, Some((1, 0))),
        row("never on a diagonal", &[Diag(5, 0, true, Red)], Red, (0, 0), Dir::E, Some((4, 0))),
    ];

    #[test]
    fn slides_stop_where_the_rules_say() {
        for r in SLIDES {
            let (b, others) = setup(r.puts);
            let from = b.cell(r.from.0, r.from.1);
            let got = slide(&b, from, r.colour, r.dir, &|c| others.contains(&c));
            assert_eq!(got.map(|c| b.xy(c)), r.stop, "{}", r.what);
        }
    }

    /// The transparent robot at `from` moves `dir`: every end, with its crossings.
    type Ends = &'static [((u16, u16), u8)];
    /// What, the board, `from`, `dir` and the ends.
    type Transparent = (&'static str, &'static [Put], (u16, u16), Dir, Ends);

    #[rustfmt::skip]
    const TRANSPARENT: &[Transparent] = &[
        ("open row", &[], (0, 0), Dir::E, &[((5, 0), 0)]),
        ("an inner wall: stop or cross", &[Wall(2, 0, Dir::E)], (0, 0), Dir::E, &[((2, 0), 0), ((5, 0), 1)]),
        ("never through the edge", &[], (0, 0), Dir::W, &[]),
        ("never into the centre", &[Centre(3, 0)], (0, 0), Dir::E, &[((2, 0), 0)]),
        ("stops before a robot", &[Robot(3, 0)], (0, 0), Dir::E, &[((2, 0), 0)]),
        ("a diagonal: turn, or cross for one", &[Diag(2, 0, true, Blue)], (0, 0), Dir::E, &[((2, 5), 0), ((5, 0), 1)]),
    ];

    #[test]
    fn the_transparent_robot_may_stop_at_or_cross_walls_and_diagonals() {
        for &(what, puts, (x, y), dir, want) in TRANSPARENT {
            let (b, others) = setup(puts);
            let mut got: Vec<((u16, u16), u8)> =
                transparent_slides(&b, b.cell(x, y), dir, &|c| others.contains(&c))
                    .into_iter()
                    .map(|(c, n)| (b.xy(c), n))
                    .collect();
            got.sort_unstable();
            assert_eq!(got, want, "{what}");
        }
    }
}
