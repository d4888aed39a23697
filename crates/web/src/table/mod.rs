//! The token games played against the computers in the page, as `robots ricochet play` and
//! `robots micro play` play them with one human (web/play/ENGINE.md, `ricochetGame`,
//! `microRace`): what the two share, the table and its limits.

use crate::answer::{ErrorKind, Failure};
use robots_games::table;
use serde::Serialize;

pub mod micro;
pub mod ricochet;

/// A request over one of the game's limits.
pub fn limit(message: impl Into<String>) -> Failure {
    Failure::new(ErrorKind::Limit, message)
}

/// A table of the page's human and 1 to 3 computers of a strength from 1 to `strongest`.
pub fn check_table(players: usize, strength: u8, strongest: u8) -> Result<(), Failure> {
    if !(2..=4).contains(&players) {
        return Err(limit("players: 2 to 4, the human and 1 to 3 computers"));
    }
    if !(1..=strongest).contains(&strength) {
        return Err(limit(format!("strength: 1 to {strongest}")));
    }
    Ok(())
}

/// A player at the table, for the page (also the Micro race's).
#[derive(Serialize)]
pub struct PlayerOut {
    name: String,
    computer: bool,
    tokens: u32,
}

/// The table's players for the page.
pub fn players_out(players: &[table::Player]) -> Vec<PlayerOut> {
    players
        .iter()
        .map(|p| PlayerOut {
            name: p.name.clone(),
            computer: p.kind != table::Kind::Human,
            tokens: p.tokens,
        })
        .collect()
}
