//! What the token games' JSON records share (docs/FORMATS.md, "Game records"): the version of
//! their layout, the players of the `game` line, the `end` line, seconds to a tenth, one
//! record a line. Explicit output types: the table's own types carry no serialisation.

use super::End;
use super::roster::{Kind, Player};
use serde::Serialize;

/// The version of the records' layout: it changes when a field changes meaning or goes away.
pub const FORMAT_VERSION: u32 = 1;

/// Seconds to a tenth: the games' clocks (simulated, scripted or measured) are not more
/// precise than that.
pub fn tenths(seconds: f64) -> f64 {
    (seconds * 10.0).round() / 10.0
}

/// One record line: `value` as JSON.
pub fn line(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

#[derive(Serialize)]
pub struct PlayerJson {
    pub name: String,
    /// `computer` or `human`.
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strength: Option<u8>,
}

/// The players of a `game` line, in seat order.
pub fn players(players: &[Player]) -> Vec<PlayerJson> {
    players
        .iter()
        .map(|p| PlayerJson {
            name: p.name.clone(),
            kind: match p.kind {
                Kind::Computer { .. } => "computer",
                Kind::Human => "human",
            },
            strength: match p.kind {
                Kind::Computer { strength } => Some(strength),
                Kind::Human => None,
            },
        })
        .collect()
}

#[derive(Serialize)]
pub struct ScoreJson {
    pub player: String,
    pub tokens: u32,
}

/// The last line of both games' records.
#[derive(Serialize)]
pub struct EndJson {
    pub record: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missions: Option<u32>,
    pub reason: String,
    /// The ruling that ended the game, when one did (R-B3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ruling: Option<&'static str>,
    pub scores: Vec<ScoreJson>,
    pub winners: Vec<String>,
}

/// The `end` line of both games' records.
pub fn end_line(end: &End) -> String {
    let round = end.unit == "round";
    line(&EndJson {
        record: "end",
        rounds: round.then_some(end.played),
        missions: (!round).then_some(end.played),
        reason: end.reason.clone(),
        ruling: end.ruling,
        scores: end
            .scores
            .iter()
            .map(|(player, tokens)| ScoreJson {
                player: player.clone(),
                tokens: *tokens,
            })
            .collect(),
        winners: end.winners.clone(),
    })
}

/// A record being folded from a game's notes: the unit being written (a round, a mission),
/// which becomes a line when the next one begins or the game ends.
pub struct Fold<T>(Option<T>);

impl<T> Default for Fold<T> {
    fn default() -> Self {
        Fold(None)
    }
}

impl<T: Serialize> Fold<T> {
    /// A new unit begins: the line of the one before, if any.
    pub fn begin(&mut self, unit: T) -> Vec<String> {
        let done = self.flush();
        self.0 = Some(unit);
        done
    }

    /// The game ends: the last unit's line, if any, and the `end` line.
    pub fn end(&mut self, end: &End) -> Vec<String> {
        let mut done = self.flush();
        done.push(end_line(end));
        done
    }

    /// The unit being written (none before the first begins).
    pub fn current(&mut self) -> Option<&mut T> {
        self.0.as_mut()
    }

    fn flush(&mut self) -> Vec<String> {
        self.0.take().map(|u| line(&u)).into_iter().collect()
    }
}
