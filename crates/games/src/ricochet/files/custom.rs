//! Custom boards (Ricochets, RULES B.2): any size, walls anywhere, an optional central
//! enclosure, targets, bases and diagonals anywhere. [`Board::custom`] owns every check of
//! such a board; reading one from a file is [`crate::ricochet::files::parse_custom`].

use crate::ricochet::board::{Board, Colour, Diagonal, Dir, Target, target_colour};

/// A custom board as written: sizes and cells as numbers, sides, colours and leans as words.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CustomBoard {
    pub name: String,
    /// Width and height.
    pub size: (u16, u16),
    /// A cell and the sides walled there, such as `"NE"`.
    pub walls: Vec<(u16, u16, String)>,
    /// The central enclosure: x, y, width, height.
    pub centre: Option<(u16, u16, u16, u16)>,
    /// A cell, a colour word (`any` for the vortex) and a symbol.
    pub targets: Vec<(u16, u16, String, String)>,
    /// A robot colour word and its base.
    pub bases: Vec<(String, (u16, u16))>,
    /// A cell, a lean (`\`, anything else is `/`) and a colour word.
    pub diagonals: Vec<(u16, u16, String, String)>,
}

/// What is wrong with a custom board, in the order the checks run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CustomBoardError {
    #[error("size [{0}, {1}]: 2 to 64 cells a side, 4,096 cells at most")]
    Size(u16, u16),
    #[error("wall at [{x}, {y}] is off the {width}×{height} board")]
    WallOffBoard {
        x: u16,
        y: u16,
        width: u16,
        height: u16,
    },
    #[error("wall at [{x}, {y}]: `{side}` is not a side (N, E, S, W)")]
    WallSide { x: u16, y: u16, side: char },
    #[error("centre [{0}, {1}, {2}, {3}] does not fit on the board")]
    Centre(u16, u16, u16, u16),
    #[error("target at [{0}, {1}] is off the board or in the centre")]
    TargetPlace(u16, u16),
    #[error("unknown target colour `{0}`")]
    TargetColour(String),
    #[error("unknown robot colour `{0}`")]
    BaseColour(String),
    #[error("base at [{0}, {1}] is off the board")]
    BaseOffBoard(u16, u16),
    /// Colours are read whatever their case: `red` and `RED` are one robot.
    #[error("robot `{0}` is given twice (colours are the same in any case)")]
    BaseTwice(String),
    #[error("base at [{0}, {1}] is in the centre or on a diagonal")]
    BasePlace(u16, u16),
    #[error("two bases at [{0}, {1}]")]
    BaseShared(u16, u16),
    #[error("diagonal at [{0}, {1}] is off the board")]
    DiagonalOffBoard(u16, u16),
    #[error("unknown colour `{0}`")]
    DiagonalColour(String),
}

impl Board {
    /// Builds a custom board, checking everything about it.
    pub fn custom(spec: &CustomBoard) -> Result<Board, CustomBoardError> {
        use CustomBoardError as E;
        let (w, h) = spec.size;
        if !(2..=64).contains(&w) || !(2..=64).contains(&h) || u32::from(w) * u32::from(h) > 4096 {
            return Err(E::Size(w, h));
        }
        let mut b = Board::empty(&spec.name, w, h);
        let inside = |x: u16, y: u16| x < w && y < h;
        for (x, y, sides) in &spec.walls {
            if !inside(*x, *y) {
                return Err(E::WallOffBoard {
                    x: *x,
                    y: *y,
                    width: w,
                    height: h,
                });
            }
            for side in sides.chars() {
                let d = Dir::parse(side).ok_or(E::WallSide { x: *x, y: *y, side })?;
                let cell = b.cell(*x, *y);
                b.add_wall(cell, d);
            }
        }
        if let Some((x, y, cw, ch)) = spec.centre {
            let fits = |at: u16, len: u16, side: u16| {
                len > 0 && u32::from(at) + u32::from(len) <= u32::from(side)
            };
            if !fits(x, cw, w) || !fits(y, ch, h) {
                return Err(E::Centre(x, y, cw, ch));
            }
            for cy in y..y + ch {
                for cx in x..x + cw {
                    let cell = b.cell(cx, cy);
                    b.block(cell);
                }
            }
        }
        for (x, y, colour, symbol) in &spec.targets {
            if !inside(*x, *y) || b.blocked[usize::from(b.cell(*x, *y))] {
                return Err(E::TargetPlace(*x, *y));
            }
            let colour = target_colour(colour).ok_or_else(|| E::TargetColour(colour.clone()))?;
            let cell = b.cell(*x, *y);
            b.targets.push(Target {
                cell,
                colour,
                symbol: symbol.clone(),
            });
        }
        place_bases(&mut b, &spec.bases)?;
        for (x, y, lean, colour) in &spec.diagonals {
            if !inside(*x, *y) {
                return Err(E::DiagonalOffBoard(*x, *y));
            }
            let colour = Colour::parse(colour).ok_or_else(|| E::DiagonalColour(colour.clone()))?;
            let cell = b.cell(*x, *y);
            b.diagonals[usize::from(cell)] = Some(Diagonal {
                backslash: lean == "\\",
                colour,
            });
        }
        if let Some(&(_, cell)) = b
            .bases
            .iter()
            .find(|(_, c)| b.diagonals[usize::from(*c)].is_some())
        {
            let (x, y) = b.xy(cell);
            return Err(E::BasePlace(x, y));
        }
        Ok(b)
    }
}

/// The bases: each colour once (in any case), on the board, outside the centre, one per cell.
fn place_bases(b: &mut Board, bases: &[(String, (u16, u16))]) -> Result<(), CustomBoardError> {
    use CustomBoardError as E;
    for (colour, (x, y)) in bases {
        let c = Colour::parse(colour).ok_or_else(|| E::BaseColour(colour.clone()))?;
        if b.bases.iter().any(|(k, _)| *k == c) {
            return Err(E::BaseTwice(colour.clone()));
        }
        if !(*x < b.width && *y < b.height) {
            return Err(E::BaseOffBoard(*x, *y));
        }
        let cell = b.cell(*x, *y);
        if b.blocked[usize::from(cell)] {
            return Err(E::BasePlace(*x, *y));
        }
        if b.bases.iter().any(|(_, p)| *p == cell) {
            return Err(E::BaseShared(*x, *y));
        }
        b.bases.push((c, cell));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn five() -> CustomBoard {
        CustomBoard {
            name: "t".into(),
            size: (5, 5),
            ..CustomBoard::default()
        }
    }

    /// Boards whose size, walls or centre are wrong, each with its error.
    fn shape_errors() -> Vec<(CustomBoard, CustomBoardError)> {
        vec![
            (
                CustomBoard {
                    size: (1, 5),
                    ..five()
                },
                CustomBoardError::Size(1, 5),
            ),
            (
                CustomBoard {
                    walls: vec![(5, 0, "N".into())],
                    ..five()
                },
                CustomBoardError::WallOffBoard {
                    x: 5,
                    y: 0,
                    width: 5,
                    height: 5,
                },
            ),
            (
                CustomBoard {
                    walls: vec![(1, 0, "NX".into())],
                    ..five()
                },
                CustomBoardError::WallSide {
                    x: 1,
                    y: 0,
                    side: 'X',
                },
            ),
            (
                CustomBoard {
                    centre: Some((4, 4, 2, 1)),
                    ..five()
                },
                CustomBoardError::Centre(4, 4, 2, 1),
            ),
            (
                CustomBoard {
                    centre: Some((65535, 0, 2, 1)),
                    ..five()
                },
                CustomBoardError::Centre(65535, 0, 2, 1),
            ),
        ]
    }

    /// Boards whose targets, bases or diagonals are wrong, each with its error.
    fn token_errors() -> Vec<(CustomBoard, CustomBoardError)> {
        vec![
            (
                CustomBoard {
                    centre: Some((2, 2, 1, 1)),
                    targets: vec![(2, 2, "red".into(), "star".into())],
                    ..five()
                },
                CustomBoardError::TargetPlace(2, 2),
            ),
            (
                CustomBoard {
                    targets: vec![(2, 2, "pink".into(), "star".into())],
                    ..five()
                },
                CustomBoardError::TargetColour("pink".into()),
            ),
            (
                CustomBoard {
                    bases: vec![("pink".into(), (0, 0))],
                    ..five()
                },
                CustomBoardError::BaseColour("pink".into()),
            ),
            (
                CustomBoard {
                    bases: vec![("red".into(), (0, 9))],
                    ..five()
                },
                CustomBoardError::BaseOffBoard(0, 9),
            ),
            (
                CustomBoard {
                    diagonals: vec![(9, 0, "/".into(), "red".into())],
                    ..five()
                },
                CustomBoardError::DiagonalOffBoard(9, 0),
            ),
            (
                CustomBoard {
                    diagonals: vec![(1, 0, "/".into(), "pink".into())],
                    ..five()
                },
                CustomBoardError::DiagonalColour("pink".into()),
            ),
        ]
    }

    #[test]
    fn every_check_has_its_error() {
        for (spec, want) in shape_errors().into_iter().chain(token_errors()) {
            assert_eq!(Board::custom(&spec).err(), Some(want));
        }
        let ok = CustomBoard {
            centre: Some((2, 2, 1, 1)),
            bases: vec![("red".into(), (0, 0))],
            ..five()
        };
        let b = Board::custom(&ok).expect("a valid board");
        assert!(b.blocked[usize::from(b.cell(2, 2))]);
        assert_eq!(b.bases, vec![(Colour::Red, 0)]);
    }

    /// Bases from strangers: `red` and `RED`, a base in the centre, on a diagonal, two on one
    /// cell (a game once looked for a free cell forever).
    #[test]
    fn bases_given_twice_in_the_centre_or_stacked_are_refused() {
        let rows: Vec<(CustomBoard, CustomBoardError)> = vec![
            (
                CustomBoard {
                    bases: vec![("red".into(), (0, 0)), ("RED".into(), (1, 0))],
                    ..five()
                },
                CustomBoardError::BaseTwice("RED".into()),
            ),
            (
                CustomBoard {
                    centre: Some((1, 1, 3, 3)),
                    bases: vec![("red".into(), (2, 2))],
                    ..five()
                },
                CustomBoardError::BasePlace(2, 2),
            ),
            (
                CustomBoard {
                    bases: vec![("red".into(), (1, 1)), ("blue".into(), (1, 1))],
                    ..five()
                },
                CustomBoardError::BaseShared(1, 1),
            ),
            (
                CustomBoard {
                    bases: vec![("red".into(), (1, 1))],
                    diagonals: vec![(1, 1, "/".into(), "blue".into())],
                    ..five()
                },
                CustomBoardError::BasePlace(1, 1),
            ),
        ];
        for (spec, want) in rows {
            assert_eq!(Board::custom(&spec).err(), Some(want));
        }
    }
}
