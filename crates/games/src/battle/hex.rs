//! Hex geometry: pointy-top hexes, axial coordinates inside, odd-r offsets in files (RULES A.2).

use std::fmt;

/// A hex in axial coordinates (`q` east, `r` south-east rows). Distance is the cube distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hex {
    pub q: i32,
    pub r: i32,
}

impl Hex {
    pub const fn new(q: i32, r: i32) -> Hex {
        Hex { q, r }
    }

    /// From the offset coordinates used in files: `col` east, `row` south; odd rows shifted right.
    pub fn from_offset(col: i32, row: i32) -> Hex {
        Hex::new(col - (row - (row & 1)) / 2, row)
    }

    /// Back to offset coordinates `(col, row)`.
    pub fn to_offset(self) -> (i32, i32) {
        (self.q + (self.r - (self.r & 1)) / 2, self.r)
    }

    pub fn distance(self, other: Hex) -> u32 {
        let dq = self.q - other.q;
        let dr = self.r - other.r;
        let ds = -dq - dr;
        (dq.unsigned_abs() + dr.unsigned_abs() + ds.unsigned_abs()) / 2
    }

    /// The hex `n` steps away in `dir`.
    pub fn step(self, dir: Direction, n: i32) -> Hex {
        let (dq, dr) = dir.axial();
        Hex::new(self.q + dq * n, self.r + dr * n)
    }

    /// If `other` lies on the straight line from `self` in `dir`, how many hexes along it (the
    /// same as before the checked conversion: `k >= 1`, and both components match).
    pub fn along(self, dir: Direction, other: Hex) -> Option<u32> {
        let (dq, dr) = dir.axial();
        let (oq, or) = (other.q - self.q, other.r - self.r);
        // The line is k * (dq, dr) for k >= 1; pick k from whichever component is non-zero.
        let k = if dq != 0 { oq / dq } else { or / dr };
        let k = u32::try_from(k).ok().filter(|&k| k >= 1)?;
        (oq == other_component(k, dq) && or == other_component(k, dr)).then_some(k)
    }
}

/// A facing, one of the six sides of a hex, numbered 1–6 clockwise from east (R-A1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Direction(u8);

const AXIAL_STEPS: [(i32, i32); 6] = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)];
const NAMES: [&str; 6] = ["E", "SE", "SW", "W", "NW", "NE"];
const ARROWS: [char; 6] = ['→', '↘', '↙', '←', '↖', '↗'];

impl Direction {
    pub const ALL: [Direction; 6] = [
        Direction(0),
        Direction(1),
        Direction(2),
        Direction(3),
        Direction(4),
        Direction(5),
    ];

    /// From the rules' numbering, 1 (east) to 6 (north-east).
    pub fn from_number(n: u32) -> Option<Direction> {
        let n = u8::try_from(n).ok().filter(|n| (1..=6).contains(n))?;
        Some(Direction(n - 1))
    }

    pub fn number(self) -> u8 {
        self.0 + 1
    }

    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// Turned by `sixths` sixths of a turn, clockwise when positive.
    #[inline]
    pub fn turned(self, sixths: i32) -> Direction {
        // Turns of a program are within a full turn either way: no modulo for them.
        let sixths = match sixths {
            0..=5 => sixths,
            -6..=-1 => sixths + 6,
            _ => sixths.rem_euclid(6),
        };
        let sixths = u8::try_from(sixths).unwrap_or(0);
        // Both below 6: one subtraction instead of a second modulo.
        let turned = self.0 + sixths;
        Direction(if turned >= 6 { turned - 6 } else { turned })
    }

    #[inline]
    pub fn opposite(self) -> Direction {
        Direction(if self.0 >= 3 { self.0 - 3 } else { self.0 + 3 })
    }

    pub fn axial(self) -> (i32, i32) {
        AXIAL_STEPS[self.index()]
    }

    pub fn name(self) -> &'static str {
        NAMES[self.index()]
    }

    pub fn arrow(self) -> char {
        ARROWS[self.index()]
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// The rules' direction legend, shown under every board drawing (R-A1).
pub fn direction_legend() -> String {
    let parts: Vec<String> = Direction::ALL
        .iter()
        .map(|d| format!("{} {} {}", d.number(), d.arrow(), d.name()))
        .collect();
    format!("directions: {}", parts.join("  "))
}

/// `k * d` for a line's step `k` and a direction component `d` (-1, 0 or 1).
fn other_component(k: u32, d: i32) -> i32 {
    i32::try_from(k).map_or(i32::MAX, |k| k * d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offset_round_trip() {
        for row in -3..8 {
            for col in -3..8 {
                assert_eq!(Hex::from_offset(col, row).to_offset(), (col, row));
            }
        }
    }

    #[test]
    fn neighbours_are_at_distance_one_and_opposites_cancel() {
        let h = Hex::from_offset(4, 5);
        for d in Direction::ALL {
            assert_eq!(h.distance(h.step(d, 1)), 1);
            assert_eq!(h.step(d, 1).step(d.opposite(), 1), h);
            assert_eq!(h.along(d, h.step(d, 3)), Some(3));
            assert_eq!(h.along(d, h.step(d.turned(1), 3)), None);
        }
    }

    #[test]
    fn odd_rows_are_shifted_right() {
        // From (0, 0), south-east (direction 2) lands on (0, 1), which is drawn half a hex right.
        let se = Direction::from_number(2).unwrap();
        assert_eq!(Hex::from_offset(0, 0).step(se, 1).to_offset(), (0, 1));
        // From (0, 1), south-east lands on (1, 2).
        assert_eq!(Hex::from_offset(0, 1).step(se, 1).to_offset(), (1, 2));
    }

    #[test]
    fn rotation_wraps_both_ways() {
        let e = Direction::from_number(1).unwrap();
        assert_eq!(e.turned(-1).number(), 6);
        assert_eq!(e.turned(-2).number(), 5);
        assert_eq!(e.turned(2).number(), 3);
        assert_eq!(e.turned(8).number(), 3);
    }
}
