//! Every arrangement of a face's four tiles, counted once per whole-board rotation, and what
//! their optimal paths look like. Turning the whole board a quarter turn moves the tile at NW
//! to NE and turns every tile once; it changes no path length. Each such orbit of four
//! arrangements has exactly one member with the face's first tile at NW, so those are the
//! ones enumerated: 4 turns × 3! orders × 4³ turns = 1,536 arrangements.
//!
//! Moves run along rows and columns, so any reordering of the rows, or of the columns, changes
//! no distance either: swapping the board's top and bottom halves, or its left and right
//! halves, or turning every tile a half turn where it lies. So the 1,536 fall into 384 classes
//! of four with the same distances ([`equivalents`]); every class counts four times in the
//! statistics, which changes no share, and the worst cases are listed once a class.

use super::board::{Arrangement, Board, Cell, Face};
use super::solve::Moves;

/// Every arrangement with tile 1 at NW, in a fixed order.
pub fn arrangements() -> Vec<Arrangement> {
    let orders = [
        [1, 2, 3],
        [1, 3, 2],
        [2, 1, 3],
        [2, 3, 1],
        [3, 1, 2],
        [3, 2, 1],
    ];
    let mut out = Vec::with_capacity(1536);
    for first_turns in 0..4u8 {
        for order in orders {
            for t in 0..64u8 {
                let tiles = [0, order[0], order[1], order[2]];
                let turns = [first_turns, t & 3, (t >> 2) & 3, (t >> 4) & 3];
                out.push(Arrangement::new(tiles, turns).expect("each tile once, turned 0–3"));
            }
        }
    }
    out
}

/// The tile (0–3) and the turns at NW, NE, SE, SW: a key that orders arrangements.
fn key(a: Arrangement) -> ([u8; 4], [u8; 4]) {
    (a.tiles(), a.turns())
}

/// The arrangement made of `placed(p)`: the tile and its turns at position p (NW, NE, SE, SW).
fn rebuild(placed: impl Fn(usize) -> (u8, u8)) -> Arrangement {
    let tiles = std::array::from_fn(|p| placed(p).0);
    let turns = std::array::from_fn(|p| placed(p).1 % 4);
    Arrangement::new(tiles, turns).expect("a permutation of an arrangement is one")
}

/// The arrangements with tile 1 at NW whose boards have the same distances as `a`'s, `a`
/// among them, in order: four for any `a` with tile 1 at NW. Each is `a` with its halves
/// swapped (top and bottom, left and right, or both), its tiles turned a half turn in place or
/// not, then the whole board turned until tile 1 is back at NW.
pub fn equivalents(a: Arrangement) -> Vec<Arrangement> {
    let (tiles, turns) = key(a);
    // Positions NW, NE, SE, SW: 0, 1, 2, 3.
    let swaps: [[usize; 4]; 4] = [[0, 1, 2, 3], [3, 2, 1, 0], [1, 0, 3, 2], [2, 3, 0, 1]];
    let mut out: Vec<Arrangement> = Vec::with_capacity(8);
    for from in swaps {
        for half in [0, 2] {
            let b = rebuild(|p| (tiles[from[p]], turns[from[p]] + half));
            // A quarter turn of the whole board: the tile at p goes to p + 1, turned once.
            let first = b.tiles().iter().position(|&t| t == 0).unwrap_or(0);
            let quarter = (4 - first) % 4;
            let (bt, bu) = key(b);
            let turned = rebuild(|p| {
                let q = (p + 4 - quarter) % 4;
                (bt[q], bu[q] + u8::try_from(quarter).unwrap_or(0))
            });
            if !out.contains(&turned) {
                out.push(turned);
            }
        }
    }
    out.sort_by_key(|x| key(*x));
    out
}

#[derive(Clone, Debug)]
pub struct PairStat {
    pub from: Cell,
    pub to: Cell,
    /// The mean optimal length over the arrangements where the pair is reachable.
    pub mean: f64,
    pub longest: u8,
}

#[derive(Clone, Debug)]
pub struct WorstCase {
    pub arrangement: String,
    /// The longest optimal length between two cells of this arrangement.
    pub longest: u8,
    /// How many pairs need that many moves (or, for `longest: 255`, are unreachable).
    pub pairs: usize,
}

#[derive(Clone, Debug)]
pub struct Analysis {
    pub face: String,
    pub arrangements: usize,
    /// Pairs of distinct cells per arrangement (a move can always be reversed, so a pair is
    /// counted once).
    pub pairs_per_arrangement: usize,
    /// `distribution[k]`: how many (arrangement, pair) need exactly k moves.
    pub distribution: Vec<u64>,
    pub unreachable: u64,
    pub arrangements_with_unreachable_pairs: usize,
    pub mean_moves: f64,
    /// The pairs hardest on average over all arrangements.
    pub hardest_pairs: Vec<PairStat>,
    /// The arrangements whose worst pair is longest, one of each class of [`equivalents`].
    pub longest_worst_cases: Vec<WorstCase>,
}

/// Analyses every arrangement; `progress(done, total)` is called as it goes.
pub fn analyse(face: &Face, progress: &mut dyn FnMut(usize, usize)) -> Analysis {
    let all = arrangements();
    let mut tally = Tally {
        distribution: vec![0u64; 37],
        unreachable: 0,
        with_unreachable: 0,
        sums: vec![(0u64, 0u32, 0u8); 36 * 36],
    };
    let mut worst: Vec<(u8, usize, Arrangement)> = Vec::with_capacity(all.len());
    for (i, a) in all.iter().enumerate() {
        let (longest, at_longest) = tally.add(&Board::arrange(face, *a));
        worst.push((longest, at_longest, *a));
        progress(i + 1, all.len());
    }
    let Tally {
        mut distribution,
        unreachable,
        with_unreachable,
        sums,
    } = tally;
    while distribution.len() > 1 && distribution.last() == Some(&0) {
        distribution.pop();
    }
    let reached: u64 = distribution.iter().sum();
    let total_moves: u64 = distribution
        .iter()
        .enumerate()
        .map(|(k, n)| u64::try_from(k).unwrap_or(u64::MAX).saturating_mul(*n))
        .sum();
    Analysis {
        face: face.name().to_string(),
        arrangements: all.len(),
        pairs_per_arrangement: 36 * 35 / 2,
        distribution,
        unreachable,
        arrangements_with_unreachable_pairs: with_unreachable,
        mean_moves: if reached == 0 {
            0.0
        } else {
            total_moves as f64 / reached as f64
        },
        hardest_pairs: hardest_pairs(&sums),
        longest_worst_cases: longest_worst_cases(worst),
    }
}

/// The counts over every arrangement so far.
struct Tally {
    /// `distribution[k]`: how many (arrangement, pair) need exactly k moves.
    distribution: Vec<u64>,
    unreachable: u64,
    /// Arrangements with an unreachable pair.
    with_unreachable: usize,
    /// `sums[a * 36 + b]`: (total moves, arrangements where the pair is reachable, longest)
    /// for cells a < b.
    sums: Vec<(u64, u32, u8)>,
}

impl Tally {
    /// Counts one board's pairs; its worst case: the longest distance and how many pairs
    /// need it, or `u8::MAX` and how many pairs are unreachable.
    fn add(&mut self, board: &Board) -> (u8, usize) {
        let d = Moves::new(board).all_distances();
        let mut longest = 0u8;
        let mut at_longest = 0;
        let mut any_unreachable = false;
        for (p, row) in d.iter().enumerate() {
            for (q, &k) in row.iter().enumerate().skip(p + 1) {
                let (cp, cq) = (board.cell_at(p), board.cell_at(q));
                let (x, y) = if cp < cq { (cp, cq) } else { (cq, cp) };
                if k == u8::MAX {
                    self.unreachable += 1;
                    any_unreachable = true;
                    continue;
                }
                self.distribution[usize::from(k)] += 1;
                let s = &mut self.sums[x.index() * 36 + y.index()];
                s.0 += u64::from(k);
                s.1 += 1;
                s.2 = s.2.max(k);
                if k > longest {
                    longest = k;
                    at_longest = 0;
                }
                if k == longest {
                    at_longest += 1;
                }
            }
        }
        if !any_unreachable {
            return (longest, at_longest);
        }
        self.with_unreachable += 1;
        let unreachable_here = (0..36)
            .map(|p| (p + 1..36).filter(|&q| d[p][q] == u8::MAX).count())
            .sum();
        (u8::MAX, unreachable_here)
    }
}

/// The five arrangements whose worst case is longest, then has the most pairs; ties keep
/// enumeration order. Each class of equivalent arrangements once, by its first member in
/// that order.
fn longest_worst_cases(mut worst: Vec<(u8, usize, Arrangement)>) -> Vec<WorstCase> {
    worst.sort_by(|x, y| y.0.cmp(&x.0).then(y.1.cmp(&x.1)));
    let mut listed: Vec<Arrangement> = Vec::new();
    worst
        .iter()
        .filter(|(_, _, a)| {
            let new = !listed.contains(a);
            if new {
                listed.extend(equivalents(*a));
            }
            new
        })
        .take(5)
        .map(|(longest, pairs, a)| WorstCase {
            arrangement: a.to_string(),
            longest: *longest,
            pairs: *pairs,
        })
        .collect()
}

/// The ten pairs hardest on average; `sums[a * 36 + b]`: (total moves, arrangements where
/// the pair is reachable, longest) for cells a < b.
fn hardest_pairs(sums: &[(u64, u32, u8)]) -> Vec<PairStat> {
    let mut pairs: Vec<PairStat> = Cell::all()
        .flat_map(|a| Cell::all().filter(move |b| a < *b).map(move |b| (a, b)))
        .filter_map(|(a, b)| {
            let (sum, n, longest) = sums[a.index() * 36 + b.index()];
            (n > 0).then(|| PairStat {
                from: a,
                to: b,
                mean: sum as f64 / f64::from(n),
                longest,
            })
        })
        .collect();
    pairs.sort_by(|x, y| {
        y.mean
            .total_cmp(&x.mean)
            .then(x.from.cmp(&y.from))
            .then(x.to.cmp(&y.to))
    });
    pairs.truncate(10);
    pairs
}

/// The analysis as a readable report.
pub fn report(a: &Analysis) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let total: u64 = a.distribution.iter().sum::<u64>() + a.unreachable;
    let _ = writeln!(
        out,
        "face {}: {} arrangements (whole-board rotations counted once), {} pairs each",
        a.face, a.arrangements, a.pairs_per_arrangement
    );
    let _ = writeln!(out, "optimal moves between two cells:");
    for (k, n) in a.distribution.iter().enumerate().skip(1) {
        let share = 100.0 * *n as f64 / total as f64;
        // Half the share, rounded: one # for every 2%.
        let bar = usize::try_from((100 * n + total) / (2 * total)).unwrap_or(50);
        let moves = if k == 1 { "move: " } else { "moves:" };
        let _ = writeln!(
            out,
            "  {k:>2} {moves} {n:>8} pairs  {share:5.1}%  {}",
            "#".repeat(bar)
        );
    }
    let _ = writeln!(
        out,
        "  unreachable: {} pairs, in {} arrangements",
        a.unreachable, a.arrangements_with_unreachable_pairs
    );
    let _ = writeln!(out, "mean: {:.3} moves", a.mean_moves);
    let _ = writeln!(out, "hardest pairs on average:");
    for p in &a.hardest_pairs {
        let _ = writeln!(
            out,
            "  {} - {}: {:.2} moves on average, {} at most",
            p.from, p.to, p.mean, p.longest
        );
    }
    let _ = writeln!(
        out,
        "arrangements with the longest worst case (one of each 4 with the same distances):"
    );
    for w in &a.longest_worst_cases {
        let longest = if w.longest == u8::MAX {
            "some pairs unreachable".to_string()
        } else {
            crate::text::count(w.longest, "move")
        };
        let pairs = crate::text::count(w.pairs, "pair");
        let _ = writeln!(out, "  {longest} ({pairs}): {}", w.arrangement);
    }
    out
}
