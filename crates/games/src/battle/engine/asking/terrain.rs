//! The encodings of the terrain questions of compiled tests: [`ClassSet`], terrain classes as
//! bits (what the board's tables hold, `crate::battle::board::classes_of`), made from a
//! terrain kind; and [`Line`], a line absolute or relative to the facing.

use crate::battle::board::{EDGE_CLASS, camp_class, ground_class};
use crate::battle::hex::Direction;
use crate::battle::lang::{CampOwner, LineDirection, TerrainKind};
use crate::battle::terrain::{Form, ShapeColour, TeamColour, Terrain};
use std::ops::BitOrAssign;

/// A set of terrain classes, as the board's tables hold a hex's ([`EDGE_CLASS`]: off the
/// board).
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ClassSet(u64);

impl ClassSet {
    /// No class.
    pub(crate) const NONE: ClassSet = ClassSet(0);
    /// Off the board.
    pub(crate) const EDGE: ClassSet = ClassSet(EDGE_CLASS);

    /// The classes of a terrain kind, asked by a robot of team `own` in a match of `teams`
    /// (for `own` and `enemy` camps and computers).
    pub(crate) fn of(kind: TerrainKind, own: TeamColour, teams: &[TeamColour]) -> ClassSet {
        let camps = |owner: CampOwner| {
            TeamColour::ALL.into_iter().filter(move |&c| match owner {
                CampOwner::Any => true,
                CampOwner::Own => c == own,
                CampOwner::Enemy => c != own && teams.contains(&c),
                CampOwner::Team(t) => c == t,
            })
        };
        ClassSet(match kind {
            TerrainKind::Plain => ground_class(Terrain::Plain),
            TerrainKind::Lake => ground_class(Terrain::Lake),
            TerrainKind::Lightning => ground_class(Terrain::Lightning),
            TerrainKind::Edge => EDGE_CLASS,
            TerrainKind::Shape(None, None) => {
                let one = |f, c| ground_class(Terrain::Shape(f, c));
                // The 18 shape bits are consecutive, from the first form's first colour.
                let (first, last) = (
                    one(Form::ALL[0], ShapeColour::ALL[0]),
                    one(Form::ALL[2], ShapeColour::ALL[5]),
                );
                (last - first) | last
            }
            TerrainKind::Shape(form, colour) => Form::ALL
                .into_iter()
                .filter(|f| form.is_none_or(|w| w == *f))
                .flat_map(|f| {
                    ShapeColour::ALL
                        .into_iter()
                        .filter(|c| colour.is_none_or(|w| w == *c))
                        .map(move |c| ground_class(Terrain::Shape(f, c)))
                })
                .fold(0, |a, b| a | b),
            TerrainKind::Camp(owner) => camps(owner).map(camp_class).fold(0, |a, b| a | b),
            TerrainKind::Computer(owner) => camps(owner)
                .map(|c| ground_class(Terrain::Computer(c)))
                .fold(0, |a, b| a | b),
        })
    }

    /// The set without the edge (a robot's own hex is on the board).
    pub(crate) fn on_board(self) -> ClassSet {
        ClassSet(self.0 & !EDGE_CLASS)
    }

    /// The board's bits of the set.
    #[inline]
    pub(crate) fn bits(self) -> u64 {
        self.0
    }

    /// Whether a hex of `classes` (the board's bits) is of a class of the set.
    #[inline]
    pub(crate) fn meets(self, classes: u64) -> bool {
        self.0 & classes != 0
    }
}

/// Whether the first of two hexes (the board's bits) is of a class of `sets[0]` or the second
/// of one of `sets[1]`.
#[inline]
pub(crate) fn meets_either(sets: [ClassSet; 2], classes: [u64; 2]) -> bool {
    (sets[0].0 & classes[0]) | (sets[1].0 & classes[1]) != 0
}

impl BitOrAssign for ClassSet {
    #[inline]
    fn bitor_assign(&mut self, other: ClassSet) {
        self.0 |= other.0;
    }
}

/// A line direction: absolute, or relative to the facing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Line {
    Absolute(Direction),
    /// Sixths of a turn clockwise from the facing (0–5).
    Relative(u8),
}

impl Line {
    pub(crate) fn of(dir: LineDirection) -> Line {
        match dir {
            LineDirection::Absolute(d) => Line::Absolute(d),
            LineDirection::Relative(k) => {
                Line::Relative(u8::try_from(k.rem_euclid(6)).unwrap_or(0))
            }
        }
    }

    /// The direction for a robot facing `facing`.
    #[inline]
    pub(crate) fn direction(self, facing: Direction) -> Direction {
        match self {
            Line::Absolute(d) => d,
            // Both below 6 (`Line::of`): one load from a table.
            Line::Relative(k) => TURNED[facing.index() & 7][usize::from(k) & 7],
        }
    }
}

/// The direction `k` sixths clockwise from facing `f`, at `[f][k]` (both below 6; the rest
/// are never read, and wrap the same way).
const TURNED: [[Direction; 8]; 8] = {
    let mut table = [[Direction::ALL[0]; 8]; 8];
    let mut f = 0;
    while f < 8 {
        let mut k = 0;
        while k < 8 {
            let turned = (f + k) % 6;
            table[f][k] = Direction::ALL[if turned < 5 { turned } else { 5 }];
            k += 1;
        }
        f += 1;
    }
    table
};
