//! A room's protocol (docs/ROOMS.md, "The protocol"): what a client sends on a room's
//! WebSocket (`Message`) and what the server sends back (`Hello` first, then views, answers
//! for the asker alone and errors), as serde types. Every message the server sends is written
//! by `text`, through `serde_json::Value`, whose objects keep their keys in sorted order: the
//! order the pages have always been sent. Each game's view (`state`) is its own type:
//! `battle.rs`, `token/ricochet.rs`, `token/micro.rs` build them from the types here.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What a client may send (docs/ROOMS.md, "The protocol").
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum Message {
    Sit {
        colour: String,
    },
    Program {
        source: String,
    },
    Ready {
        ready: bool,
    },
    Start,
    Place {
        at: [i32; 2],
        facing: u8,
    },
    Signal {
        robot: String,
        step: u8,
    },
    Skip,
    Pace {
        turns_per_second: f64,
    },
    Pause,
    Resume,
    /// Ricochet: a bid of so many moves.
    Bid {
        moves: u32,
    },
    /// Ricochet: no more bids this round.
    Pass,
    /// Ricochet: the bidder's moves, as `robots ricochet check` takes them; Micro: the
    /// cells the robot stops on after the start (`B5 R5`).
    Show {
        moves: String,
    },
    /// Micro: the announcement of a number of moves (the first ends the race), for the
    /// mission named (if named: a mission over by the time it arrives refuses it).
    Announce {
        moves: u32,
        #[serde(default)]
        mission: Option<u32>,
    },
    /// Ricochet: a hint of the solver's, level 1 to 3, for the asker only.
    Hint {
        level: u8,
    },
}

/// An answer for the asker alone (the others see its effects in their views).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Answer {
    /// The program sent, checked as `robots check` checks it.
    Diagnostics {
        diagnostics: Vec<crate::api::bodies::Diagnostic>,
    },
    /// Ricochet: the solver's hint of the level asked.
    Hint { level: u8, text: String },
}

/// The first message on a connection: who the player is, the room's settings, its board.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename = "hello")]
pub struct Hello<'a> {
    pub you: You<'a>,
    pub room: RoomShown<'a>,
    pub board: &'a Value,
}

/// The player on a connection: their name, their seat's colour, whether they host.
#[derive(Clone, Debug, Serialize)]
pub struct You<'a> {
    pub name: &'a str,
    pub seat: Option<&'a str>,
    pub host: bool,
}

/// A room as `hello` shows it: its code, its host's name and its settings, each a key.
#[derive(Clone, Debug, Serialize)]
pub struct RoomShown<'a> {
    pub code: &'a str,
    pub host: &'a str,
    #[serde(flatten)]
    pub settings: &'a super::room::Settings,
}

/// A message refused, or a room closed, in words.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename = "error")]
pub struct Error<'a> {
    pub message: &'a str,
}

/// A seat as every game's view shows it: its colour, its player's name, ready, online,
/// played by the computer, and, in the token games, the tokens won.
#[derive(Clone, Debug, Serialize)]
pub struct SeatShown<'a> {
    pub colour: &'a str,
    pub player: Option<&'a str>,
    pub ready: bool,
    pub online: bool,
    pub computer: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens: Option<u32>,
}

/// A message of the server as it is sent: its JSON with every object's keys in sorted order.
pub fn text(message: &impl Serialize) -> String {
    serde_json::to_value(message)
        .unwrap_or_default()
        .to_string()
}

/// The battle game's view (`state`): what one seat's player, or a spectator, may know now.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename = "state")]
pub struct BattleState<'a> {
    /// The viewer's colour (none: a spectator).
    pub seat: Option<&'static str>,
    pub phase: BattlePhase,
    pub seats: Vec<SeatShown<'a>>,
    /// The viewer's own program.
    pub program: Option<&'a str>,
    /// Every program, once the match is over.
    pub revealed: Vec<Revealed<'a>>,
    pub waiting_for: Option<&'static str>,
    pub place: Option<Placing>,
    pub robots: Vec<RobotShown>,
    pub ask_signal: Option<SignalChoice>,
    /// The viewer's signals pending (their steps are theirs alone, R-A23).
    pub my_signals: Vec<SignalShown>,
    pub round: u32,
    pub turn: u64,
    pub paused: bool,
    pub pace: f64,
    pub log: &'a std::collections::VecDeque<String>,
    pub result: Option<BattleResult>,
}

/// Where the battle game stands, as its view says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BattlePhase {
    Writing,
    Placing,
    Playing,
    Over,
}

/// A seat's program, shown once the match is over.
#[derive(Clone, Debug, Serialize)]
pub struct Revealed<'a> {
    pub colour: &'a str,
    pub source: Option<&'a str>,
}

/// The robot to place now, and the start points still free.
#[derive(Clone, Debug, Serialize)]
pub struct Placing {
    pub robot: String,
    pub free: Vec<[usize; 2]>,
}

/// A robot on the board (its pending signal's step is not said).
#[derive(Clone, Debug, Serialize)]
pub struct RobotShown {
    pub name: String,
    pub team: &'static str,
    pub at: [usize; 2],
    pub facing: u8,
    pub alive: bool,
    pub shots: u8,
    pub signal: bool,
}

/// What a player may signal while the match plays: their robots, the signals left, the one
/// armed.
#[derive(Clone, Debug, Serialize)]
pub struct SignalChoice {
    pub robots: Vec<String>,
    pub left: u8,
    pub armed: Option<SignalShown>,
}

/// A signal: the robot and the step.
#[derive(Clone, Debug, Serialize)]
pub struct SignalShown {
    pub robot: String,
    pub step: u8,
}

/// The battle's end: the winner, the verdict in words, the rounds played.
#[derive(Clone, Debug, Serialize)]
pub struct BattleResult {
    pub winner: Option<&'static str>,
    pub verdict: String,
    pub rounds: u32,
}

/// Ricochet Robots' view (`state`): never the fewest moves the game knows.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename = "state")]
pub struct RicochetState<'a> {
    /// The viewer's seat (none: a spectator).
    pub seat: Option<&'a str>,
    pub phase: RicochetPhase,
    pub seats: Vec<SeatShown<'a>>,
    pub round: u32,
    pub svg: &'a str,
    pub target: Option<Target<'a>>,
    pub timer: Option<Clock>,
    /// Each seat's bid standing this round, and whether it passed.
    pub bids: &'a [Option<u32>],
    pub passed: &'a [bool],
    pub showing: Option<Bidder<'a>>,
    pub log: &'a std::collections::VecDeque<String>,
    pub result: Option<&'a RicochetResult>,
}

/// Where a Ricochet game stands, as its view says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RicochetPhase {
    Writing,
    Bidding,
    Showing,
    Over,
}

/// The robot a round's target is for.
#[derive(Clone, Debug, Serialize)]
pub struct Target<'a> {
    pub colour: &'a str,
}

/// A round's or a mission's clock: the time now, when it runs out, and (Ricochet) whether
/// the sand timer was turned.
#[derive(Clone, Debug, Serialize)]
pub struct Clock {
    pub now: f64,
    pub runs_out: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turned: Option<bool>,
}

/// Ricochet: the bidder showing their moves, and their bid.
#[derive(Clone, Debug, Serialize)]
pub struct Bidder<'a> {
    pub colour: &'a str,
    pub bid: u32,
}

/// Ricochet's end: the winners, why, and the ruling that ended it, if one did (R-B3).
#[derive(Clone, Debug, Serialize)]
pub struct RicochetResult {
    pub winners: Vec<String>,
    pub reason: String,
    pub ruling: Option<&'static str>,
}

/// Micro Robots' view (`state`): never the fewest moves.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename = "state")]
pub struct MicroState<'a> {
    /// The viewer's seat (none: a spectator).
    pub seat: Option<&'a str>,
    pub phase: MicroPhase,
    pub seats: Vec<SeatShown<'a>>,
    pub mission: u32,
    /// The seat that rolled the dice.
    pub oya: Option<&'a str>,
    pub start: Option<String>,
    pub via: Option<String>,
    pub target: Option<String>,
    pub token: bool,
    pub svg: &'a str,
    pub timer: Option<Clock>,
    pub passed: &'a [bool],
    pub showing: Option<Announcer<'a>>,
    /// Tokens left in the reserve.
    pub reserve: u32,
    pub log: &'a std::collections::VecDeque<String>,
    pub result: Option<&'a MicroResult>,
}

/// Where a Micro Robots game stands, as its view says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MicroPhase {
    Writing,
    Racing,
    Showing,
    Over,
}

/// Micro Robots: the announcer showing their cells, and the moves announced.
#[derive(Clone, Debug, Serialize)]
pub struct Announcer<'a> {
    pub colour: &'a str,
    pub moves: u32,
}

/// Micro Robots' end: the winners, and why.
#[derive(Clone, Debug, Serialize)]
pub struct MicroResult {
    pub winners: Vec<String>,
    pub reason: String,
}
