//! Hexes of a kind within a distance, counted in constant time. The terrain never changes
//! during a match, so for each terrain kind the programs ask about in rings (`lake within
//! 3`, `count(edge within 50)`), the match keeps prefix sums over the board's cells; a test
//! then costs the same on a 16,000-cell board as on a small one, whatever the distance.
//!
//! A hexagon of radius `R` around `c` (axial `q`, `r`, and `s = q + r`) is the parallelogram
//! `|dq| <= R, |dr| <= R` less two corners, `ds > R` and `ds < -R`. The parallelogram is a
//! rectangle query on `(q, r)` prefix sums; the corner `q <= Q, r <= R, s > S` is
//! `QR(Q, R) - QS(Q, S) + S(S) - RS(R, S)` with prefix sums over `(q, s)`, `(r, s)` and `s`
//! (inside that corner `r > R` and `s <= S` imply `q < Q`); the other corner is the same on
//! the mirrored points.

use crate::battle::board::{Board, CellId};
use crate::battle::engine::state::TeamId;
use crate::battle::hex::Hex;
use crate::battle::lang::{CampOwner, Condition, Quantity, Region, Subject, TerrainKind};

/// 2D prefix sums of a point set over `(q, r)`, `(q, s)`, `(r, s)`, and 1D over `s`.
#[derive(Debug)]
struct Prefix {
    q0: i32,
    r0: i32,
    s0: i32,
    nq: usize,
    nr: usize,
    ns: usize,
    qr: Vec<u16>,
    qs: Vec<u16>,
    rs: Vec<u16>,
    s: Vec<u16>,
}

/// A point's `(q, r, s)`.
type Point = (i32, i32, i32);

fn span(values: impl Iterator<Item = i32> + Clone) -> (i32, usize) {
    let lo = values.clone().min().unwrap_or(0);
    let hi = values.max().unwrap_or(0);
    (lo, usize::try_from(hi - lo + 1).unwrap_or(1))
}

/// Cumulative sums, in place, over a `rows × cols` grid (row-major).
fn accumulate(grid: &mut [u16], cols: usize) {
    for i in 0..grid.len() {
        let (row, col) = (i / cols, i % cols);
        let mut v = grid[i];
        if col > 0 {
            v += grid[i - 1];
        }
        if row > 0 {
            v += grid[i - cols];
        }
        if row > 0 && col > 0 {
            v -= grid[i - cols - 1];
        }
        grid[i] = v;
    }
}

impl Prefix {
    /// Prefix sums of `points` over the ranges that `frame` (every cell of the board, in the
    /// same orientation) spans. At most 16,000 cells: counts fit in `u16`.
    fn new(frame: &[Point], points: &[Point]) -> Prefix {
        let (q0, nq) = span(frame.iter().map(|p| p.0));
        let (r0, nr) = span(frame.iter().map(|p| p.1));
        let (s0, ns) = span(frame.iter().map(|p| p.2));
        let mut t = Prefix {
            q0,
            r0,
            s0,
            nq,
            nr,
            ns,
            qr: vec![0; nq * nr],
            qs: vec![0; nq * ns],
            rs: vec![0; nr * ns],
            s: vec![0; ns],
        };
        let at = |v: i32, lo: i32| usize::try_from(v - lo).unwrap_or(0);
        for &(q, r, s) in points {
            let (q, r, s) = (at(q, q0), at(r, r0), at(s, s0));
            t.qr[q * nr + r] += 1;
            t.qs[q * ns + s] += 1;
            t.rs[r * ns + s] += 1;
            t.s[s] += 1;
        }
        accumulate(&mut t.qr, nr);
        accumulate(&mut t.qs, ns);
        accumulate(&mut t.rs, ns);
        accumulate(&mut t.s, ns);
        t
    }

    /// The index of `v` in a range starting at `lo` of `n` values, clamped above; `None`
    /// below the range (nothing is there).
    fn index(v: i32, lo: i32, n: usize) -> Option<usize> {
        let i = i64::from(v) - i64::from(lo);
        if i < 0 {
            return None;
        }
        Some(usize::try_from(i).unwrap_or(usize::MAX).min(n - 1))
    }

    fn table(grid: &[u16], cols: usize, a: Option<usize>, b: Option<usize>) -> i64 {
        match (a, b) {
            (Some(a), Some(b)) => i64::from(grid[a * cols + b]),
            _ => 0,
        }
    }

    /// Points with `q <= a` and `r <= b`.
    fn qr(&self, a: i32, b: i32) -> i64 {
        let (a, b) = (
            Self::index(a, self.q0, self.nq),
            Self::index(b, self.r0, self.nr),
        );
        Self::table(&self.qr, self.nr, a, b)
    }

    fn qs(&self, a: i32, b: i32) -> i64 {
        let (a, b) = (
            Self::index(a, self.q0, self.nq),
            Self::index(b, self.s0, self.ns),
        );
        Self::table(&self.qs, self.ns, a, b)
    }

    fn rs(&self, a: i32, b: i32) -> i64 {
        let (a, b) = (
            Self::index(a, self.r0, self.nr),
            Self::index(b, self.s0, self.ns),
        );
        Self::table(&self.rs, self.ns, a, b)
    }

    fn s(&self, b: i32) -> i64 {
        Self::index(b, self.s0, self.ns).map_or(0, |b| i64::from(self.s[b]))
    }

    /// Points with `q <= a`, `r <= b` and `s > c`, where `c >= a + b - radius` leaves only
    /// the corner of a hexagon (see the module's comment).
    fn corner(&self, a: i32, b: i32, c: i32) -> i64 {
        self.qr(a, b) - self.qs(a, c) + self.s(c) - self.rs(b, c)
    }
}

/// For one kind of hex: how many lie within a distance of any cell, in constant time.
#[derive(Debug)]
pub(crate) struct HexCounts {
    /// The points as they are, and mirrored (`-q, -r, -s`) for the other corner.
    up: Prefix,
    down: Prefix,
    total: u32,
}

impl HexCounts {
    /// The counts of the cells of `board` for which `kind` holds.
    pub(crate) fn new(board: &Board, kind: impl Fn(CellId) -> bool) -> HexCounts {
        let point = |h: Hex| (h.q, h.r, h.q + h.r);
        let mirror = |(q, r, s): Point| (-q, -r, -s);
        let frame: Vec<Point> = board.cells().map(|(id, _)| point(board.hex(id))).collect();
        let points: Vec<Point> = board
            .cells()
            .filter(|&(id, _)| kind(id))
            .map(|(id, _)| point(board.hex(id)))
            .collect();
        let mirrored = |v: &[Point]| v.iter().copied().map(mirror).collect::<Vec<_>>();
        HexCounts {
            up: Prefix::new(&frame, &points),
            down: Prefix::new(&mirrored(&frame), &mirrored(&points)),
            total: u32::try_from(points.len()).unwrap_or(u32::MAX),
        }
    }

    /// Cells of the kind on the whole board.
    pub(crate) fn total(&self) -> u32 {
        self.total
    }

    /// Cells of the kind at a distance of at most `radius` from `centre`.
    pub(crate) fn within(&self, centre: Hex, radius: u32) -> u32 {
        let r = i32::try_from(radius).unwrap_or(i32::MAX / 4).min(1 << 20);
        let (q, rr, s) = (centre.q, centre.r, centre.q + centre.r);
        let u = &self.up;
        let box_count = u.qr(q + r, rr + r) - u.qr(q - r - 1, rr + r) - u.qr(q + r, rr - r - 1)
            + u.qr(q - r - 1, rr - r - 1);
        let high = u.corner(q + r, rr + r, s + r);
        let low = self.down.corner(-q + r, -rr + r, -s + r);
        u32::try_from(box_count - high - low).unwrap_or(0)
    }

    /// Cells of the kind at a distance from `min` to `max` (`min <= max`).
    pub(crate) fn ring(&self, centre: Hex, min: u32, max: u32) -> u32 {
        let inner = match min.checked_sub(1) {
            Some(m) => self.within(centre, m),
            None => 0,
        };
        self.within(centre, max).saturating_sub(inner)
    }
}

/// A terrain kind as one team sees it (`own camp` and `enemy camp` depend on who asks).
pub(crate) type Key = (TerrainKind, Option<TeamId>);

/// The key of a kind asked by a robot of `team`.
pub(crate) fn key(kind: TerrainKind, team: TeamId) -> Key {
    let relative = matches!(
        kind,
        TerrainKind::Camp(CampOwner::Own | CampOwner::Enemy)
            | TerrainKind::Computer(CampOwner::Own | CampOwner::Enemy)
    );
    (kind, relative.then_some(team))
}

/// The counts for every kind a match's conditions ask about in rings or anywhere. `edge` is
/// counted as every position less the cells of the board.
#[derive(Debug, Default)]
pub(crate) struct Areas {
    kinds: Vec<(Key, HexCounts)>,
}

impl Areas {
    /// Counts for each key, built with `matches(key, cell)`.
    pub(crate) fn new(board: &Board, keys: &[Key], matches: impl Fn(Key, CellId) -> bool) -> Areas {
        let mut kinds: Vec<(Key, HexCounts)> = Vec::new();
        for &key in keys {
            if kinds.iter().any(|(k, _)| *k == key) {
                continue;
            }
            let counts = if key.0 == TerrainKind::Edge {
                HexCounts::new(board, |_| true)
            } else {
                HexCounts::new(board, |cell| matches(key, cell))
            };
            kinds.push((key, counts));
        }
        Areas { kinds }
    }

    pub(crate) fn get(&self, key: Key) -> Option<&HexCounts> {
        self.kinds.iter().find(|(k, _)| *k == key).map(|(_, c)| c)
    }
}

/// The terrain kinds `condition` asks about in a ring or anywhere, for a robot of `team`.
pub(crate) fn keys_in(condition: &Condition, team: TeamId, keys: &mut Vec<Key>) {
    let mut selector = |s: &crate::battle::lang::Selector| {
        if let (Subject::Terrain(kind), Region::Ring { .. } | Region::Anywhere) =
            (s.subject, s.region)
        {
            let k = key(kind, team);
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
    };
    walk(condition, &mut selector);
}

/// Every selector of a condition, in its comparisons' counts too (recursive: the parser
/// bounds a condition's nesting, `MAX_NESTING`).
fn walk(condition: &Condition, selector: &mut impl FnMut(&crate::battle::lang::Selector)) {
    match condition {
        Condition::And(parts) | Condition::Or(parts) => {
            parts.iter().for_each(|p| walk(p, selector));
        }
        Condition::Not(inner) => walk(inner, selector),
        Condition::Present(s) => selector(s),
        Condition::Compare(a, _, b) => {
            for q in [a, b] {
                if let Quantity::Count(s) = q {
                    selector(s);
                }
            }
        }
        Condition::Facing(_) | Condition::InCamp(_) | Condition::Truth(_) => {}
    }
}

/// Every position (on the board or not) at a distance from `min` to `max` of a hex.
pub(crate) fn positions_in_ring(min: u32, max: u32) -> u64 {
    let within = |r: u64| 1 + 3 * r * (r + 1);
    within(u64::from(max)) - min.checked_sub(1).map_or(0, |m| within(u64::from(m)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::files::board_file::parse_board;

    /// Against counting every hex by its distance, on boards of odd shapes, from every cell
    /// and from off-board centres, for every radius up to past the board.
    #[test]
    fn counts_equal_a_plain_scan() {
        for (w, h) in [(1, 1), (5, 3), (8, 8), (13, 6), (4, 11)] {
            let mut map = String::new();
            for row in 0..h {
                map.push_str(if row % 2 == 1 { "   " } else { "  " });
                let cells: Vec<&str> = (0..w)
                    .map(|col| {
                        if (col * 7 + row * 3) % 5 == 0 {
                            "~"
                        } else {
                            "."
                        }
                    })
                    .collect();
                map.push_str(&cells.join(" "));
                map.push('\n');
            }
            let board = parse_board("b.yaml", &format!("name: b\nmap: |\n{map}")).unwrap();
            let lake = |id: CellId| board.cell(id).terrain == crate::battle::terrain::Terrain::Lake;
            let counts = HexCounts::new(&board, lake);
            let mut centres: Vec<Hex> = board.cells().map(|(id, _)| board.hex(id)).collect();
            centres.extend([Hex::new(-3, 2), Hex::new(20, -4), Hex::new(5, 15)]);
            for centre in centres {
                for max in 0..(w + h + 3) {
                    for min in 0..=max {
                        let scan = board
                            .cells()
                            .filter(|&(id, _)| lake(id))
                            .filter(|&(id, _)| {
                                (min..=max).contains(&centre.distance(board.hex(id)))
                            })
                            .count();
                        assert_eq!(
                            counts.ring(centre, min, max),
                            u32::try_from(scan).unwrap(),
                            "{w}x{h} board, centre {centre:?}, {min}..={max}"
                        );
                    }
                }
            }
            assert_eq!(
                counts.total(),
                u32::try_from(board.cells().filter(|&(id, _)| lake(id)).count()).unwrap()
            );
        }
        assert_eq!(positions_in_ring(0, 0), 1);
        assert_eq!(positions_in_ring(1, 2), 18);
    }
}
