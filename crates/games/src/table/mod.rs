//! What the two token games share (Micro Robots and Ricochet Robots): the players at the
//! table and their seats ([`roster`]), the generator a game draws its board from, the end of
//! a game (the score and who won: everyone with the most tokens, so several winners are
//! possible), and what the games' JSON records share ([`report`]).

pub mod report;
pub mod roster;

pub use roster::{COMPUTER_NAMES, Kind, NoHumans, Player, RosterError, left_of, roster, seat};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The stream of a game's generator its board is drawn from: a seed gives the same board
/// whatever the game then rolls, and the same rolls whether its board was drawn or given.
const BOARD_STREAM: u64 = 1;

/// The generator a game draws its board from, derived from the game's seed.
pub fn board_rng(seed: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(BOARD_STREAM);
    rng
}

/// The end of a game: how long it ran, why it stopped, every player's tokens (in seat order)
/// and the winners (everyone with the most tokens). Its text is the log's last two lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct End {
    /// Rounds (Ricochet) or missions (Micro) played.
    pub played: u32,
    /// What `played` counts: `round` or `mission`.
    pub unit: &'static str,
    pub reason: String,
    /// The ruling of RULES.md that ended the game, when one did (R-B3); the reason says it
    /// too.
    pub ruling: Option<&'static str>,
    pub scores: Vec<(String, u32)>,
    pub winners: Vec<String>,
}

/// The end of a game after `played` `unit`s (`round`, `mission`), for `reason`.
pub fn finish(players: &[Player], played: u32, unit: &'static str, reason: &str) -> End {
    let best = players.iter().map(|p| p.tokens).max().unwrap_or(0);
    End {
        played,
        unit,
        reason: reason.to_string(),
        ruling: None,
        scores: players.iter().map(|p| (p.name.clone(), p.tokens)).collect(),
        winners: players
            .iter()
            .filter(|p| p.tokens == best)
            .map(|p| p.name.clone())
            .collect(),
    }
}

impl std::fmt::Display for End {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let score: Vec<String> = self
            .scores
            .iter()
            .map(|(name, tokens)| format!("{name} {tokens}"))
            .collect();
        writeln!(
            f,
            "end after {}: {}; tokens: {}",
            crate::text::count(self.played, self.unit),
            self.reason,
            score.join(", ")
        )?;
        write!(
            f,
            "winner{}: {}",
            if self.winners.len() > 1 { "s" } else { "" },
            self.winners.join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    #[test]
    fn the_board_stream_is_not_the_game_stream() {
        let mut game = ChaCha8Rng::seed_from_u64(5);
        let mut board = board_rng(5);
        assert_ne!(game.random::<u64>(), board.random::<u64>());
        assert_eq!(board_rng(5).random::<u64>(), board_rng(5).random::<u64>());
    }

    #[test]
    fn every_player_with_the_most_tokens_wins() {
        let mut players = roster(&[], 3, 1).expect("three computers");
        players[0].tokens = 2;
        players[2].tokens = 2;
        let end = finish(&players, 3, "round", "done");
        assert_eq!(end.winners, ["Ada", "Carl"]);
        assert_eq!(
            end.to_string(),
            "end after 3 rounds: done; tokens: Ada 2, Blaise 0, Carl 2\nwinners: Ada, Carl"
        );
    }
}
