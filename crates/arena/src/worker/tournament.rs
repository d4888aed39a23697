//! A hill as the tournament's machinery takes it: its configuration, its programs as
//! entrants, its stored matches as the tournament's results (the workers play with them, the
//! standings and the viewer read with them).

use super::parsed;
use crate::db::ids::ProgramId;
use crate::store::{self, MatchRow, Program};
use robots_games::battle::compare::tournament::{Config, Entrant, Game, GameResult, Member, Score};
use robots_games::battle::engine::{Rules, Scenario};
use robots_games::battle::show::report::reason_from_code;
use std::collections::HashMap;

/// Why a hill's tournament cannot be configured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("the hill's board does not load")]
    Board,
    #[error("no such scenario")]
    Scenario,
}

/// The tournament's configuration of a hill.
pub fn config(hill: &store::Hill) -> Result<Config, ConfigError> {
    let s = &hill.settings;
    let board = parsed::board(&format!("{}.yaml", hill.name), &hill.board_text)
        .ok_or(ConfigError::Board)?;
    Ok(Config {
        board,
        scenario: Scenario::from_number(u32::from(s.scenario)).ok_or(ConfigError::Scenario)?,
        rules: Rules {
            rounds: s.rounds,
            ..Rules::with_keywords(s.keywords)
        },
        robots: usize::from(s.robots),
        seeds: s.seeds[0]..=s.seeds[1],
    })
}

/// A program as an entrant (checked when submitted: one that no longer loads is `None`, as
/// is one whose text was erased with its account).
pub fn entrant(p: &Program, hill: &store::Hill) -> Option<Entrant> {
    if p.source.is_empty() {
        return None;
    }
    entrant_of(&p.name, &p.source, hill)
}

/// A text named `name` as an entrant on a hill (its keywords), if it loads (parsed once:
/// `parsed.rs`).
pub fn entrant_of(name: &str, source: &str, hill: &store::Hill) -> Option<Entrant> {
    let program = parsed::program(name, source, hill.settings.keywords)?;
    Some(Entrant {
        name: name.to_string(),
        members: vec![Member {
            program,
            source: source.into(),
            origin: name.to_string(),
        }],
    })
}

/// A stored match between programs numbered by `index`, as the tournament keeps it.
pub fn game_result(m: &MatchRow, index: &HashMap<ProgramId, usize>) -> Option<GameResult> {
    let sides = (*index.get(&m.green.id)?, *index.get(&m.violet.id)?);
    result_between(
        sides,
        m.seed_index,
        (m.seed, &m.winner),
        (m.rounds, &m.reason),
    )
}

/// A stored match between the programs numbered `green` and `violet` (a hill's or an
/// event's), from its seed index, seed, winner (`green`, `violet` or `draw`), rounds and
/// reason's code, as the tournament keeps it.
pub fn result_between(
    (g, v): (usize, usize),
    seed_index: u32,
    (seed, winner): (u64, &str),
    (rounds, reason): (u32, &str),
) -> Option<GameResult> {
    let swapped = g > v;
    let green_score = match winner {
        "green" => Score::Win,
        "violet" => Score::Loss,
        _ => Score::Draw,
    };
    Some(GameResult {
        game: Game {
            a: g.min(v),
            b: g.max(v),
            swapped,
            seed_index,
        },
        seed,
        score: if swapped {
            green_score.flip()
        } else {
            green_score
        },
        rounds,
        reason: reason_from_code(reason)?,
    })
}
