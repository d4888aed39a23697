//! What the two token games share (Micro Robots and Ricochet Robots): the players at the
//! table and their seats ([`roster`]), the generator a game draws its board from, and the end
//! of a game (the score and who won: everyone with the most tokens, so several winners are
//! possible).

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

/// Writes the final two log lines and returns the winners' names.
pub fn finish(
    players: &[Player],
    played: &str,
    reason: &str,
    log: &mut dyn FnMut(String),
) -> Vec<String> {
    let best = players.iter().map(|p| p.tokens).max().unwrap_or(0);
    let winners: Vec<String> = players
        .iter()
        .filter(|p| p.tokens == best)
        .map(|p| p.name.clone())
        .collect();
    let score: Vec<String> = players
        .iter()
        .map(|p| format!("{} {}", p.name, p.tokens))
        .collect();
    log(format!(
        "end after {played}: {reason}; tokens: {}",
        score.join(", ")
    ));
    log(format!(
        "winner{}: {}",
        if winners.len() > 1 { "s" } else { "" },
        winners.join(", ")
    ));
    winners
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
        let mut log = Vec::new();
        let winners = finish(&players, "3 rounds", "done", &mut |l| log.push(l));
        assert_eq!(winners, ["Ada", "Carl"]);
        assert_eq!(
            log[0],
            "end after 3 rounds: done; tokens: Ada 2, Blaise 0, Carl 2"
        );
        assert_eq!(log[1], "winners: Ada, Carl");
    }
}
