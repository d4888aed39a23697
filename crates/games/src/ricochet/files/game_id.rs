//! Game ids: the compact notation of positions on quarter boards that DriftingDroids made
//! common, such as `0765+42+2E21BD0F+93`.
//!
//! - Four hex digits: the quarters at NW, NE, SE, SW, as indexes into [`QUARTERS`]
//!   (`1A 2A 3A 4A 1B … 4D`), each turned as [`super::quarters::from_quadrants`] turns it.
//! - Two hex digits: how many robots (1 to 5), then the active robot (0 red, 1 green, 2 blue,
//!   3 yellow, 4 silver; `F` any robot: the vortex).
//! - One byte per robot, in that colour order: its cell as `y * 16 + x`.
//! - The target's cell, the same way.
//!
//! An id carries no rule options: the caller chooses them (R-B1 is the solver's default).

use super::quarters::{QuarterError, from_quadrants};
use crate::ricochet::board::Colour;
use crate::ricochet::position::{Position, PositionDraft, PositionError, TargetDraft};
use crate::ricochet::rules::Rules;

/// The quarter boards in the order of an id's first four digits.
pub const QUARTERS: [&str; 16] = [
    "1A", "2A", "3A", "4A", "1B", "2B", "3B", "4B", "1C", "2C", "3C", "4C", "1D", "2D", "3D", "4D",
];

/// The robots of an id, in its colour order.
const COLOURS: [Colour; 5] = [
    Colour::Red,
    Colour::Green,
    Colour::Blue,
    Colour::Yellow,
    Colour::Silver,
];

/// The longest id: 4 + 2 + 10 + 2 digits and three `+`.
pub const MAX_LEN: usize = 21;

/// A game id, read but not yet checked against its board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameId {
    /// Indexes into [`QUARTERS`]: NW, NE, SE, SW.
    pub quarters: [u8; 4],
    /// The robot that must reach the target; `None`: any robot (the vortex).
    pub active: Option<Colour>,
    /// The robots' cells (`y * 16 + x`), red first.
    pub robots: Vec<u8>,
    pub target: u8,
}

/// Why a text is not a game id, or not a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameIdError {
    #[error("a game id is at most {MAX_LEN} characters, such as 0765+42+2E21BD0F+93")]
    TooLong,
    #[error(
        "a game id has four parts joined by `+`: quarters, robots, cells, target (such as 0765+42+2E21BD0F+93)"
    )]
    Parts,
    #[error("the {part} of a game id is {want} hex digits")]
    Digits { part: &'static str, want: String },
    #[error("a game id has 1 to 5 robots, not {0}")]
    RobotCount(u8),
    #[error("the active robot is 0 to {} (or F for any robot), not {active:X}", .robots - 1)]
    Active { active: u8, robots: u8 },
    #[error("the quarters: {0}")]
    Quarters(#[from] QuarterError),
    #[error("{0}")]
    Position(#[from] PositionError),
}

fn hex_byte(pair: &[u8]) -> Option<u8> {
    let text = std::str::from_utf8(pair).ok()?;
    u8::from_str_radix(text, 16).ok()
}

fn hex_bytes(part: &str) -> Option<Vec<u8>> {
    let bytes = part.as_bytes();
    if !bytes.len().is_multiple_of(2) || !bytes.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    bytes.chunks(2).map(hex_byte).collect()
}

impl std::str::FromStr for GameId {
    type Err = GameIdError;

    fn from_str(text: &str) -> Result<GameId, GameIdError> {
        let text = text.trim();
        if text.len() > MAX_LEN {
            return Err(GameIdError::TooLong);
        }
        let parts: Vec<&str> = text.split('+').collect();
        let [quarters, counts, cells, target] = parts[..] else {
            return Err(GameIdError::Parts);
        };
        let digits = |part, want: &str| GameIdError::Digits {
            part,
            want: want.to_string(),
        };
        if quarters.len() != 4 || !quarters.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(digits("quarters part", "4"));
        }
        let mut q = [0u8; 4];
        for (slot, c) in q.iter_mut().zip(quarters.chars()) {
            *slot = u8::try_from(c.to_digit(16).unwrap_or(0)).unwrap_or(0);
        }
        let [count] = hex_bytes(counts).as_deref().unwrap_or_default()[..] else {
            return Err(digits("robots part", "2"));
        };
        let (n, active) = (count >> 4, count & 0xF);
        if !(1..=5).contains(&n) {
            return Err(GameIdError::RobotCount(n));
        }
        let active = match active {
            0xF => None,
            a if a < n => Some(COLOURS[usize::from(a)]),
            a => {
                return Err(GameIdError::Active {
                    active: a,
                    robots: n,
                });
            }
        };
        let robots = hex_bytes(cells)
            .filter(|r| r.len() == usize::from(n))
            .ok_or_else(|| digits("cells part", &(2 * n).to_string()))?;
        let [target] = hex_bytes(target).as_deref().unwrap_or_default()[..] else {
            return Err(digits("target part", "2"));
        };
        Ok(GameId {
            quarters: q,
            active,
            robots,
            target,
        })
    }
}

impl std::fmt::Display for GameId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for q in self.quarters {
            write!(f, "{q:X}")?;
        }
        let active = self.active.map_or(0xF, |a| {
            COLOURS
                .iter()
                .position(|&c| c == a)
                .and_then(|i| u8::try_from(i).ok())
                .unwrap_or(0xF)
        });
        write!(f, "+{:X}{active:X}+", self.robots.len())?;
        for r in &self.robots {
            write!(f, "{r:02X}")?;
        }
        write!(f, "+{:02X}", self.target)
    }
}

fn xy(cell: u8) -> (u16, u16) {
    (u16::from(cell % 16), u16::from(cell / 16))
}

impl GameId {
    /// The quarter names, NW first.
    pub fn quarter_names(&self) -> [String; 4] {
        self.quarters
            .map(|q| QUARTERS[usize::from(q & 0xF)].to_string())
    }

    /// The position the id names, under `rules`: the board built from its quarters, and every
    /// check of a position file (robots on free cells, one per cell).
    pub fn position(&self, rules: Rules) -> Result<Position, GameIdError> {
        let board = from_quadrants(&self.quarter_names())?;
        let draft = PositionDraft {
            robots: COLOURS
                .iter()
                .zip(&self.robots)
                .map(|(c, &cell)| (c.name().to_string(), xy(cell)))
                .collect(),
            target: TargetDraft {
                at: Some(xy(self.target)),
                robot: Some(self.active.map_or("any", Colour::name).to_string()),
                ..TargetDraft::default()
            },
            rules,
        };
        Ok(Position::validate(board, &draft)?)
    }

    /// The id of a position on four quarter boards (the board's name lists them, as
    /// [`from_quadrants`] names it) with red, green, blue, yellow and silver robots only, in
    /// that order from red; `None` for any other position.
    pub fn of(p: &Position) -> Option<GameId> {
        let names: Vec<&str> = p.board.name.split(' ').collect();
        let mut quarters = [0u8; 4];
        if names.len() != 4 || p.board.width != 16 || p.board.height != 16 {
            return None;
        }
        for (slot, name) in quarters.iter_mut().zip(&names) {
            *slot = u8::try_from(QUARTERS.iter().position(|q| q == name)?).ok()?;
        }
        let robots = p
            .robots
            .iter()
            .zip(COLOURS)
            .map(|(&(colour, cell), want)| (colour == want).then(|| u8::try_from(cell).ok())?)
            .collect::<Option<Vec<u8>>>()?;
        Some(GameId {
            quarters,
            active: p.goal.robot,
            robots,
            target: u8::try_from(p.goal.cell).ok()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hard 24-move position of the benchmark, as its id.
    const HARD_24: &str = "0765+42+2E21BD0F+93";

    #[test]
    fn an_id_reads_as_the_position_file_it_names_and_back() {
        let id: GameId = HARD_24.parse().unwrap();
        assert_eq!(
            id.quarter_names(),
            ["1A", "4B", "3B", "2B"].map(String::from)
        );
        assert_eq!(id.active, Some(Colour::Blue));
        let p = id.position(Rules::default()).unwrap();
        let file = crate::ricochet::files::parse("hard", crate::ricochet::bench::HARD_24, &|_| {
            Err(String::new())
        })
        .unwrap();
        assert_eq!(p.robots, file.robots);
        assert_eq!(p.goal, file.goal);
        assert_eq!(p.board.name, file.board.name);
        assert_eq!(GameId::of(&p).unwrap().to_string(), HARD_24);
        let vortex: GameId = "0123+5F+0102030405+22".parse().unwrap();
        assert_eq!(vortex.active, None);
        assert_eq!(vortex.to_string(), "0123+5F+0102030405+22");
    }

    #[test]
    fn a_bad_id_says_which_part_is_wrong() {
        let err = |s: &str| s.parse::<GameId>().unwrap_err().to_string();
        assert!(err("0765+42+2E21BD0F").contains("four parts"));
        assert!(err("076+42+2E21BD0F+93").contains("quarters part of a game id is 4 hex"));
        assert!(err("0765+62+2E21BD0F+93").contains("1 to 5 robots"));
        assert!(err("0765+45+2E21BD0F+93").contains("0 to 3 (or F"));
        assert!(err("0765+42+2E21BD+93").contains("cells part of a game id is 8 hex"));
        assert!(err("0765+42+2E21BD0F+9").contains("target part of a game id is 2 hex"));
        assert!(err(&"0".repeat(5000)).contains("at most 21"));
        assert!(err("0765+42+2E21BD0é+93").contains("cells part"));
        let centre: GameId = "0765+42+7721BD0F+93".parse().unwrap();
        let e = centre.position(Rules::default()).unwrap_err().to_string();
        assert!(e.contains("centre"), "{e}");
        let twice: GameId = "0765+42+2E2EBD0F+93".parse().unwrap();
        let e = twice.position(Rules::default()).unwrap_err().to_string();
        assert!(e.contains("two robots"), "{e}");
    }
}
