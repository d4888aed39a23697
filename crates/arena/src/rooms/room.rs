//! A room as stored: its settings (the game it plays, fixed when it is created), the phase
//! its game is in, its seats and who writes it. Each closed set of words is an enum, written
//! in the database and in JSON with the same lowercase words as before; a word it does not
//! know is refused with a typed error, never taken for another.

use crate::db::ids::{AccountId, RoomId};
use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A word that names none of a closed set's values (a game, a room's phase).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{word}` is not {what}")]
pub struct UnknownWord {
    pub word: String,
    pub what: &'static str,
}

/// Declares a closed set of words: an enum with its words, `as_str`, `Display`, `FromStr`
/// (refusing other words), serde and SQL as those words.
macro_rules! words {
    ($(#[$doc:meta])* $name:ident, $what:literal { $($(#[$vdoc:meta])* $variant:ident = $word:literal,)* }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
        pub enum $name {
            $($(#[$vdoc])* #[serde(rename = $word)] $variant,)*
        }

        impl $name {
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $word,)*
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl FromStr for $name {
            type Err = UnknownWord;
            fn from_str(word: &str) -> Result<Self, UnknownWord> {
                match word {
                    $($word => Ok($name::$variant),)*
                    _ => Err(UnknownWord { word: word.to_string(), what: $what }),
                }
            }
        }

        impl ToSql for $name {
            fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
                Ok(ToSqlOutput::from(self.as_str()))
            }
        }

        impl FromSql for $name {
            fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
                value
                    .as_str()?
                    .parse()
                    .map_err(|e: UnknownWord| FromSqlError::Other(Box::new(e)))
            }
        }
    };
}

words! {
    /// The game a room plays.
    Game, "a game (battle, ricochet or micro)" {
        /// The hex programming battle (RULES part A).
        Battle = "battle",
        /// Ricochet Robots (part B).
        Ricochet = "ricochet",
        /// Micro Robots (part C.1).
        Micro = "micro",
    }
}

words! {
    /// Where a room's game stands, as stored (`rooms.state`).
    RoomState, "a room's state (writing, playing or over)" {
        /// Before the host starts: the players sit down (and, in the battle game, write
        /// their programs).
        Writing = "writing",
        /// Under way (resumed when the server starts again).
        Playing = "playing",
        Over = "over",
    }
}

/// A room's settings, fixed when it is created.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    #[serde(default = "battle")]
    pub game: Game,
    pub board: String,
    pub scenario: u8,
    pub robots: u8,
    pub rounds: u32,
    /// Robot turns a second while the match plays.
    pub pace: f64,
    /// Seconds a player may be away while the game waits for them.
    pub timeout: u32,
    pub spectators: bool,
    /// The seats: 2 to the board's camps (in the rules' order of colours).
    #[serde(default = "two")]
    pub players: u8,
    /// Micro Robots' rules: `standard`, `waypoint` or `no-token` (RULES C.1).
    #[serde(default = "standard")]
    pub variant: String,
    /// Ricochet: the players may ask the solver's graded hints.
    #[serde(default)]
    pub hints: bool,
}

fn standard() -> String {
    "standard".into()
}

fn two() -> u8 {
    2
}

fn battle() -> Game {
    Game::Battle
}

/// Who writes a room's game: the generation its owner took it at (one more at each take on
/// PostgreSQL; 0 on SQLite, never changed) and, on PostgreSQL, the backend of the session
/// holding the room's lock (`relay/owner.rs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Owner {
    pub generation: i64,
    pub session: i32,
}

/// What every write of a room's game names: the room, and who writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fence {
    pub room: RoomId,
    pub owner: Owner,
}

/// A room as stored.
#[derive(Clone, Debug)]
pub struct RoomRow {
    pub id: RoomId,
    pub code: String,
    pub host: AccountId,
    pub host_name: String,
    pub settings: Settings,
    pub seed: u64,
    pub state: RoomState,
    pub turn: u64,
    pub paused: bool,
    /// The host's pace, when set (else the settings').
    pub pace: Option<f64>,
    /// Who writes the room's game here: the generation as read (SQLite), or as this server
    /// took it (PostgreSQL).
    pub owner: Owner,
}

impl RoomRow {
    pub fn fence(&self) -> Fence {
        Fence {
            room: self.id,
            owner: self.owner,
        }
    }
}

/// A seat's player: their account and name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub account: AccountId,
    pub name: String,
}

impl Player {
    /// The player an account signed in is (its id as the rooms name it).
    pub fn of(account: &crate::store::Account) -> Player {
        Player {
            account: account.id,
            name: account.name.clone(),
        }
    }
}

/// A signal set for the end of a player's next turn: the robot and the step. Stored as the
/// pair `["green.1", 3]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "(String, u8)", into = "(String, u8)")]
pub struct Armed {
    pub robot: String,
    pub step: u8,
}

impl From<(String, u8)> for Armed {
    fn from((robot, step): (String, u8)) -> Armed {
        Armed { robot, step }
    }
}

impl From<Armed> for (String, u8) {
    fn from(armed: Armed) -> (String, u8) {
        (armed.robot, armed.step)
    }
}

/// A seat: its colour (a team's in the battle game, a number in the others), its player and
/// their program.
#[derive(Clone, Debug, PartialEq)]
pub struct Seat {
    pub colour: String,
    pub player: Option<Player>,
    pub source: Option<String>,
    pub ready: bool,
    /// The signal set for the end of the player's next turn.
    pub armed: Option<Armed>,
}

/// A room in an account's list: its code, its host's name, its state.
#[derive(Clone, Debug)]
pub struct Listed {
    pub code: String,
    pub host: String,
    pub state: RoomState,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_written_as_before_and_others_refused() {
        assert_eq!(
            serde_json::to_string(&Game::Ricochet).unwrap(),
            "\"ricochet\""
        );
        assert_eq!("micro".parse::<Game>(), Ok(Game::Micro));
        assert_eq!(
            "chess".parse::<Game>().unwrap_err().to_string(),
            "`chess` is not a game (battle, ricochet or micro)"
        );
        assert!(serde_json::from_str::<Game>("\"Battle\"").is_err());
        assert_eq!(RoomState::Over.to_string(), "over");
        let armed: Armed = serde_json::from_str("[\"green.1\",3]").unwrap();
        assert_eq!(serde_json::to_string(&armed).unwrap(), "[\"green.1\",3]");
    }
}
