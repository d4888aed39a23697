//! `robots ricochet play`: a game at the terminal, its log or its record, and the human players.

use super::super::files::read_text;
use super::super::game_flags::RicochetPlay;
use super::super::output::Failure;
use super::super::prompt::{ask, ask_moves, say};
use super::super::record::RicochetRecord;
use robots::ricochet::{self as ricochet_robots, position::Position as RicochetPosition};

/// `robots ricochet play`: a game on a custom board, or on original quarter boards the game
/// draws from its seed; its log in words, or with `--json` its record (JSON Lines).
pub fn play(flags: RicochetPlay) -> Result<(), Failure> {
    let RicochetPlay {
        players,
        seed,
        humans,
        strength,
        board,
        no_ricochet,
        json,
    } = flags;
    let table = robots::table::roster(&humans, players, strength)
        .map_err(|e| Failure::Bad(format!("--players {players}: {e}")))?;
    let board = match board {
        Some(path) => {
            let text = read_text(&path)?;
            ricochet_robots::files::parse_custom(&path.display().to_string(), &text)
                .map_err(|d| d.to_string())?
        }
        None => ricochet_robots::game::original_board(seed),
    };
    let rules = ricochet_robots::rules::Rules {
        must_ricochet: !no_ricochet,
        no_single_move: false,
    };
    let players_json = json.then(|| super::super::record::players(&table));
    let mut terminal = RicochetHumans;
    let mut none = ricochet_robots::game::NoHumans;
    let humans: &mut dyn ricochet_robots::game::Humans = if humans.is_empty() {
        &mut none
    } else {
        &mut terminal
    };
    let players = table.len();
    let game = ricochet_robots::game::Game::new(&board, table, seed, rules)
        .map_err(|e| Failure::Bad(e.to_string()))?;
    let Some(players_json) = players_json else {
        outln!(
            "Ricochet Robots on {} ({players} players, seed {seed})",
            board.name
        );
        game.play(humans, &mut |note| outln!("{note}"));
        return Ok(());
    };
    // Questions to human players go to standard error: standard output is the record's.
    super::super::prompt::to_stderr();
    outln!(
        "{}",
        super::super::record::ricochet_setup(&game, seed, players_json)
    );
    let mut folded = RicochetRecord::default();
    game.play(humans, &mut |note| {
        for line in folded.note(&note) {
            outln!("{line}");
        }
    });
    Ok(())
}

/// Humans bid and show their moves at the terminal; their thinking time is measured for real.
struct RicochetHumans;

impl ricochet_robots::game::Humans for RicochetHumans {
    fn bid(&mut self, name: &str, p: &RicochetPosition) -> Vec<(f64, u32)> {
        say(&ricochet_robots::drawing::position(
            p,
            super::super::output::colour(),
        ));
        ask_moves(&format!(
            "{name}: your bid (number of moves), or Enter to pass: "
        ))
        .map(|(n, seconds)| vec![(seconds, n)])
        .unwrap_or_default()
    }

    fn demonstrate(&mut self, name: &str, bid: u32) -> Vec<ricochet_robots::position::Move> {
        loop {
            let Some(answer) = ask(&format!(
                "{name}: show your {bid} moves, such as `blue N, red W`: "
            )) else {
                return Vec::new();
            };
            match ricochet_robots::position::parse_moves(&answer) {
                Ok(moves) => return moves,
                Err(e) => say(&format!("{e}\n")),
            }
        }
    }
}
