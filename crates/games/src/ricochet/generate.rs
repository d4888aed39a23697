//! Random Ricochets boards (RULES B.2, seed `001_…`): "place the barriers anywhere on the
//! board, some at right angles, others alone; possibly eight barriers in a square at the
//! centre", then a target per colour and a base per robot anywhere. Pure and seeded: the same
//! [`Spec`] and seed give the same board, drawn from the board stream of the seed
//! ([`crate::table::board_rng`]), so `ricochet board --random --seed N` draws the board that
//! `ricochet play --random-board --seed N` plays on.
//!
//! **No mission is hopeless at the start.** A game of Ricochets starts with every robot on
//! its base and a treasure of any colour drawn first ([`super::play::game::Game`]); so for each
//! colour, the mission "that robot onto its target, the others on their bases, under R-B1
//! (it must turn) and R-B2 (one move does not count)" must have a solution within the game's
//! own search limit ([`SEARCH_LIMIT`] moves): the robot's own way, found by a small search and
//! replayed by the move checker ([`check`]), or else the solver's, within a state budget. A
//! target cell whose mission has none is drawn again, at most [`TARGET_TRIES`] times; then
//! the whole draw is thrown away and the next one drawn from the same generator, at most
//! [`ATTEMPTS`] draws. (A solution under R-B1 and R-B2 also counts without them, so a game
//! with `--no-ricochet` starts no worse.) Later missions start wherever the robots were
//! left and the played target moved to (B.2): those the generator cannot promise.

use super::board::{Board, Cell, Colour, Dir};
use super::files::custom::CustomBoard;
use super::moves::slide;
use super::play::game::SEARCH_LIMIT;
use super::position::{Goal, Move, Position};
use super::rules::{Axis, Rules};
use super::solve::{Budget, check, solve_within};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// The size of a board when none is asked for: the 1999 game's.
pub const DEFAULT_SIZE: (u16, u16) = (16, 16);
/// The barriers of RULES B.2 on a 16×16 board (wall segments, a right angle counting two);
/// other sizes get as many for their area ([`Spec::default_barriers`]).
pub const DEFAULT_BARRIERS: u16 = 40;
/// The smallest side: 4 bases and 4 targets on distinct cells, and room to move.
pub const MIN_SIDE: u16 = 4;
/// The largest side and board, as the custom board loader takes them.
pub const MAX_SIDE: u16 = 64;
pub const MAX_CELLS: u32 = 4096;
/// Boards (barriers and bases) drawn before giving up.
pub const ATTEMPTS: u32 = 40;
/// Cells tried for one colour's target on a draw before the draw is thrown away.
pub const TARGET_TRIES: u32 = 16;
/// The states the solver may hold to prove one mission solvable (more: the draw is thrown
/// away, as if the mission were hopeless).
pub const MISSION_STATES: u64 = 20_000;
/// The solver calls one board may take (the robot's own way is tried first and costs little):
/// so a board that cannot be had (a large one with few barriers) is refused in a second.
pub const SOLVER_CALLS: u32 = 16;

/// The robots, in colour order, and the symbol of each one's target.
const TOKENS: [(Colour, &str); 4] = [
    (Colour::Red, "circle"),
    (Colour::Green, "triangle"),
    (Colour::Blue, "square"),
    (Colour::Yellow, "hexagon"),
];

/// What to draw: the board's size, the barriers (`None`: [`Spec::default_barriers`]), and
/// whether the 8-barrier enclosure closes a 2×2 centre.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    pub size: (u16, u16),
    pub barriers: Option<u16>,
    pub centre: bool,
}

impl Default for Spec {
    fn default() -> Self {
        Spec {
            size: DEFAULT_SIZE,
            barriers: None,
            centre: false,
        }
    }
}

/// Why no board is drawn.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    #[error(
        "size {0}x{1}: {MIN_SIDE} to {MAX_SIDE} cells a side, 4,096 cells at most (such as 16x16)"
    )]
    Size(u16, u16),
    #[error(
        "{barriers} barriers do not fit on a {width}x{height} board: at most {max} (a quarter of its cells)"
    )]
    Barriers {
        barriers: u16,
        max: u16,
        width: u16,
        height: u16,
    },
    #[error(
        "no board found in {ATTEMPTS} draws with every target reachable from the bases: try another seed or more barriers"
    )]
    NotFound,
}

impl Spec {
    /// The most barriers a `width`×`height` board takes: a quarter of its cells.
    pub fn max_barriers(width: u16, height: u16) -> u16 {
        let cells = u32::from(width) * u32::from(height);
        u16::try_from(cells / 4).unwrap_or(u16::MAX)
    }

    /// The barriers of a `width`×`height` board when none are asked for: [`DEFAULT_BARRIERS`]
    /// on 16×16 and as dense on other sizes (rounded), so a large board is not left open and
    /// a small one not walled up.
    pub fn default_barriers(width: u16, height: u16) -> u16 {
        let cells = u32::from(width) * u32::from(height);
        let n = (cells * u32::from(DEFAULT_BARRIERS) + 128) / 256;
        u16::try_from(n)
            .unwrap_or(u16::MAX)
            .min(Self::max_barriers(width, height))
    }

    /// The size checked, and the barriers to place.
    pub fn checked(&self) -> Result<u16, GenerateError> {
        let (w, h) = self.size;
        let side = MIN_SIDE..=MAX_SIDE;
        if !side.contains(&w) || !side.contains(&h) || u32::from(w) * u32::from(h) > MAX_CELLS {
            return Err(GenerateError::Size(w, h));
        }
        let max = Self::max_barriers(w, h);
        match self.barriers {
            None => Ok(Self::default_barriers(w, h)),
            Some(n) if n <= max => Ok(n),
            Some(n) => Err(GenerateError::Barriers {
                barriers: n,
                max,
                width: w,
                height: h,
            }),
        }
    }

    /// The central enclosure: a 2×2 block in the middle (left and up of it on odd sides).
    fn centre_block(&self) -> Option<(u16, u16, u16, u16)> {
        let (w, h) = self.size;
        self.centre.then(|| ((w - 2) / 2, (h - 2) / 2, 2, 2))
    }
}

/// A board drawn: as written in a file, built, and each colour's fewest moves from the bases.
#[derive(Clone, Debug)]
pub struct Generated {
    pub spec: CustomBoard,
    pub board: Board,
    /// Per robot in colour order (red, green, blue, yellow): the moves of a solution of its
    /// mission from the bases (R-B1 and R-B2): the robot's own way when it reaches its target
    /// alone, else the solver's fewest.
    pub moves: [u32; 4],
    /// The seed, the barriers and the draws it took (1 when the first one did).
    pub seed: u64,
    pub barriers: u16,
    pub draws: u32,
}

/// Draws the board of `spec` and `seed`: the first draw of the seed's board stream with
/// every mission solvable from the bases, at most [`ATTEMPTS`] draws.
pub fn generate(spec: &Spec, seed: u64) -> Result<Generated, GenerateError> {
    let barriers = spec.checked()?;
    let mut rng = crate::table::board_rng(seed);
    let mut calls = SOLVER_CALLS;
    for draw in 1..=ATTEMPTS {
        let Some(mut custom) = draw_board(spec, barriers, &mut rng) else {
            continue;
        };
        let Some(moves) = place_targets(&mut custom, &mut rng, &mut calls) else {
            continue;
        };
        // The bases in the order a file's map gives them back (by name), so the board drawn
        // here is the board its file draws.
        custom.bases.sort();
        if let Ok(board) = Board::custom(&custom) {
            return Ok(Generated {
                spec: custom,
                board,
                moves,
                seed,
                barriers,
                draws: draw,
            });
        }
    }
    Err(GenerateError::NotFound)
}

/// A number in `0..n` (`n` at least 1 and at most `u32::MAX`).
fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    let n = u32::try_from(n).unwrap_or(u32::MAX).max(1);
    usize::try_from(rng.random_range(0..n)).unwrap_or(0)
}

/// Whether a barrier may go on side `d` of `c`: an inner side (not the edge, not the
/// centre's, which are walls already), not walled yet, and neither cell it parts ending with
/// more than two walls (no cell is walled in, no dead end of three walls).
fn fits(b: &Board, c: Cell, d: Dir) -> bool {
    let Some(n) = b.neighbour(c, d) else {
        return false;
    };
    let walls = |cell: Cell| b.walls[usize::from(cell)].count_ones();
    !b.wall(c, d) && walls(c) < 2 && walls(n) < 2
}

/// One draw: barriers, then a base per robot on distinct free cells. `None` when the
/// barriers could not all be placed in a bounded number of tries.
fn draw_board(spec: &Spec, barriers: u16, rng: &mut ChaCha8Rng) -> Option<CustomBoard> {
    let (w, h) = spec.size;
    let mut custom = CustomBoard {
        name: format!("random {w}x{h}"),
        size: spec.size,
        centre: spec.centre_block(),
        ..CustomBoard::default()
    };
    let mut b = Board::custom(&custom).ok()?;
    let mut left = barriers;
    let mut tries = 64 * u32::from(barriers) + 256;
    while left > 0 {
        tries = tries.checked_sub(1)?;
        let c = Cell::try_from(below(rng, b.len())).ok()?;
        let d = Dir::ALL[below(rng, 4)];
        // A right angle half the time when two barriers are left: the sides `d` and the next
        // clockwise meet at a corner of the cell.
        let angle = left >= 2 && rng.random_bool(0.5);
        let sides: &[Dir] = if angle { &[d, d.turned()] } else { &[d] };
        if b.blocked[usize::from(c)] || !sides.iter().all(|&s| fits(&b, c, s)) {
            continue;
        }
        if angle && b.walls[usize::from(c)].count_ones() > 0 {
            continue;
        }
        for &s in sides {
            b.add_wall(c, s);
        }
        // North or south first, as files write corners (`NE`, `SE`, `SW`, `NW`).
        let word: String = [Dir::N, Dir::S, Dir::E, Dir::W]
            .iter()
            .filter(|d| sides.contains(d))
            .map(|d| d.letter())
            .collect();
        let (x, y) = b.xy(c);
        custom.walls.push((x, y, word));
        left -= u16::try_from(sides.len()).unwrap_or(1);
    }
    let mut bases: Vec<Cell> = Vec::new();
    for (colour, _) in TOKENS {
        let cell = b.draw_free_cell(rng, |c| !b.blocked[usize::from(c)] && !bases.contains(&c))?;
        bases.push(cell);
        custom.bases.push((colour.name().into(), b.xy(cell)));
    }
    Some(custom)
}

/// The targets of a draw (walls and bases in `custom`), a colour at a time: a free cell (not
/// a base, not another target) drawn until its robot reaches it from the bases, at most
/// [`TARGET_TRIES`] cells a colour. Targets are no obstacles (B.2), so one colour's target
/// changes no other mission. Each mission's moves, or `None` (the draw is thrown away);
/// `calls` counts down the solver calls left.
fn place_targets(
    custom: &mut CustomBoard,
    rng: &mut ChaCha8Rng,
    calls: &mut u32,
) -> Option<[u32; 4]> {
    let board = Arc::new(Board::custom(custom).ok()?);
    let robots = board.bases.clone();
    let mut moves = [0; 4];
    let mut taken: Vec<Cell> = robots.iter().map(|&(_, cell)| cell).collect();
    for (i, (colour, symbol)) in TOKENS.iter().enumerate() {
        let mut p = Position {
            board: Arc::clone(&board),
            robots: robots.clone(),
            goal: Goal {
                cell: robots.get(i)?.1,
                robot: Some(*colour),
            },
            // A game of Ricochets: R-B1 (on unless --no-ricochet) and R-B2.
            rules: Rules {
                must_ricochet: true,
                no_single_move: true,
            },
        };
        let lone = Lone::new(&p)?;
        let mut found = None;
        for _ in 0..TARGET_TRIES {
            p.goal.cell = board.draw_free_cell(rng, |c| {
                !board.blocked[usize::from(c)] && !taken.contains(&c)
            })?;
            if let Some(n) = lone.mission(&p).or_else(|| solved(&p, calls)) {
                found = Some((p.goal.cell, n));
                break;
            }
        }
        let (cell, n) = found?;
        moves[i] = n;
        taken.push(cell);
        let (x, y) = board.xy(cell);
        custom
            .targets
            .push((x, y, colour.name().into(), (*symbol).into()));
    }
    Some(moves)
}

/// The solver's fewest moves for the mission of `p`, within [`SEARCH_LIMIT`] moves and
/// [`MISSION_STATES`] states, while `calls` are left.
fn solved(p: &Position, calls: &mut u32) -> Option<u32> {
    *calls = calls.checked_sub(1)?;
    let budget = Budget {
        max_states: MISSION_STATES,
    };
    solve_within(p, SEARCH_LIMIT, budget, &mut |_| {})
        .ok()
        .map(|s| s.moves)
}

/// Where the goal's robot gets alone, the others standing still: breadth first from its base
/// over cell, [`Axis`] and moves made (0, 1, 2 or more), within [`SEARCH_LIMIT`] moves, R-B1
/// and R-B2 asked as the searches ask them. One search a robot serves every target cell
/// tried; most missions end here, the solver takes the others.
struct Lone {
    /// Per state, the state before it and the move from there.
    parent: Vec<Option<(usize, Dir)>>,
    /// Per cell, the first state that arrives there under the rules.
    arrival: Vec<Option<usize>>,
    first: usize,
    colour: Colour,
}

impl Lone {
    fn key(cell: Cell, axis: Axis, moves: u32) -> usize {
        (usize::from(cell) * 4 + axis.index()) * 3 + usize::try_from(moves.min(2)).unwrap_or(2)
    }

    fn new(p: &Position) -> Option<Lone> {
        let colour = p.goal.robot?;
        let start = p.robots.iter().find(|(c, _)| *c == colour)?.1;
        let others: Vec<Cell> = p
            .robots
            .iter()
            .filter(|(c, _)| *c != colour)
            .map(|&(_, cell)| cell)
            .collect();
        let occupied = |c: Cell| others.contains(&c);
        let first = Self::key(start, Axis::None, 0);
        let mut lone = Lone {
            parent: vec![None; p.board.len() * 12],
            arrival: vec![None; p.board.len()],
            first,
            colour,
        };
        let mut layer = vec![(start, Axis::None, first)];
        for moves in 1..=SEARCH_LIMIT {
            let mut next = Vec::new();
            for &(cell, axis, k) in &layer {
                for d in Dir::ALL {
                    let Some(to) = slide(&p.board, cell, colour, d, &occupied) else {
                        continue;
                    };
                    let na = axis.after(d);
                    let nk = Self::key(to, na, moves);
                    if to == cell || nk == first || lone.parent[nk].is_some() {
                        continue;
                    }
                    lone.parent[nk] = Some((k, d));
                    let here = &mut lone.arrival[usize::from(to)];
                    if here.is_none() && p.rules.arrival(na, moves) {
                        *here = Some(nk);
                    }
                    next.push((to, na, nk));
                }
            }
            layer = next;
        }
        Some(lone)
    }

    /// The moves of the robot's own way to the goal of `p`, checked by the rules' checker
    /// ([`check`]: a way that stopped on the target before its last move is none).
    fn mission(&self, p: &Position) -> Option<u32> {
        let mut at = self.arrival.get(usize::from(p.goal.cell)).copied()??;
        let mut dirs = Vec::new();
        while at != self.first {
            let (from, d) = self.parent[at]?;
            dirs.push(d);
            at = from;
        }
        let moves: Vec<Move> = dirs
            .iter()
            .rev()
            .map(|&dir| Move {
                robot: self.colour,
                dir,
                to: None,
            })
            .collect();
        check(p, &moves).ok()
    }
}

/// A drawn board as a custom board file (docs/FORMATS.md, "Custom Ricochet boards"), which
/// [`super::files::parse_custom`] reads back into the same board.
pub fn yaml(g: &Generated) -> String {
    let s = &g.spec;
    let (w, h) = s.size;
    let mut out = format!(
        "# A random Ricochets board (RULES B.2): seed {}, {w}x{h}, {} barriers{}.\n\
         # Every robot reaches its target from the bases (R-B1 and R-B2).\n",
        g.seed,
        g.barriers,
        if s.centre.is_some() {
            " and the central enclosure"
        } else {
            ""
        }
    );
    out.push_str(&format!("name: {}\nsize: [{w}, {h}]\n", s.name));
    if let Some((x, y, cw, ch)) = s.centre {
        out.push_str(&format!("centre: [{x}, {y}, {cw}, {ch}]\n"));
    }
    out.push_str(if s.walls.is_empty() {
        "walls: []\n"
    } else {
        "walls:\n"
    });
    for (x, y, sides) in &s.walls {
        out.push_str(&format!("  - [{x}, {y}, {sides}]\n"));
    }
    out.push_str("targets:\n");
    for (x, y, colour, symbol) in &s.targets {
        out.push_str(&format!("  - [{x}, {y}, {colour}, {symbol}]\n"));
    }
    out.push_str("bases:\n");
    for (colour, (x, y)) in &s.bases {
        out.push_str(&format!("  {colour}: [{x}, {y}]\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every flag a stranger may give is checked before any work (no panic, no hang).
    #[test]
    fn sizes_and_barriers_out_of_bounds_are_refused() {
        let spec = |size, barriers| Spec {
            size,
            barriers,
            centre: false,
        };
        assert_eq!(
            generate(&spec((0, 5), None), 1).err(),
            Some(GenerateError::Size(0, 5))
        );
        assert_eq!(
            generate(&spec((65, 2), None), 1).err(),
            Some(GenerateError::Size(65, 2))
        );
        assert_eq!(
            generate(&spec((64, 65), None), 1).err(),
            Some(GenerateError::Size(64, 65))
        );
        assert_eq!(
            spec((16, 16), Some(65)).checked(),
            Err(GenerateError::Barriers {
                barriers: 65,
                max: 64,
                width: 16,
                height: 16
            })
        );
        assert_eq!(Spec::default().checked(), Ok(40));
        assert_eq!(spec((10, 8), None).checked(), Ok(13));
        assert_eq!(spec((4, 4), None).checked(), Ok(3));
    }

    /// The barriers: as many as asked, none on the edge or twice, right angles and single
    /// ones, no cell with three walls.
    #[test]
    fn barriers_are_counted_and_some_meet_at_right_angles() {
        let g = generate(&Spec::default(), 3).expect("a board");
        let segments: usize = g.spec.walls.iter().map(|(_, _, s)| s.len()).sum();
        assert_eq!(segments, 40);
        assert!(g.spec.walls.iter().any(|(_, _, s)| s.len() == 2));
        assert!(g.spec.walls.iter().any(|(_, _, s)| s.len() == 1));
        let inner: u32 = g.board.walls.iter().map(|w| w.count_ones()).sum();
        // Each barrier walls two cells; the edge of a 16×16 board is 64 cell sides.
        assert_eq!(inner, 2 * 40 + 64);
        assert!(g.board.walls.iter().all(|w| w.count_ones() <= 2));
    }
}
