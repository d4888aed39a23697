//! A hill's settings file, `hill.yaml` (docs/TOURNAMENTS.md, "The hill"): read with every
//! field checked and each error placed at its key, and written back. A hand-edited hill is
//! a file from a stranger like any other. The binary does the folder and its files.

use super::MAX_ENTRANTS;
use super::parts::MAX_ROUNDS;
use crate::battle::engine::MAX_TEAM_ROBOTS;
use crate::battle::files::shipped;
use crate::battle::lang::Keywords;
use crate::text::diagnostic::Diagnostic;
use crate::text::escape;
use crate::text::yaml::locate_key;
use serde::Deserialize;

/// The name of a hill's own copy of its board, beside `hill.yaml`.
pub const OWN_BOARD: &str = "board.yaml";
/// The most seed indices a hill plays each pairing with.
pub const MAX_SEEDS: u64 = 1_000_000;

/// A hill's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HillSettings {
    /// How many programs stay on the hill.
    pub size: usize,
    /// The first and last seed index.
    pub seeds: [u32; 2],
    /// A shipped board's name, or [`OWN_BOARD`] (the hill's own copy).
    pub board: String,
    pub scenario: u8,
    pub robots: u8,
    pub rounds: u32,
    pub keywords: Keywords,
}

/// What is wrong with a hill's settings, in words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HillError {
    #[error("format_version {0}: this robots reads 1")]
    Version(u32),
    #[error("keywords `{0}`: plain or ti57")]
    Keywords(String),
    #[error("size {0}: 1 to {max}", max = MAX_ENTRANTS - 1)]
    Size(usize),
    #[error("seeds [{0}, {1}]: the first index, then the last (at most 1,000,000 seeds)")]
    Seeds(u32, u32),
    #[error("scenario {0}: 1, 2 or 3")]
    Scenario(u8),
    #[error("robots {0}: 1 to {MAX_TEAM_ROBOTS}")]
    Robots(u8),
    #[error("rounds {0}: 1 to {MAX_ROUNDS}")]
    Rounds(u32),
    #[error("board `{0}`: a shipped board's name (classic, duel, melee) or {OWN_BOARD}")]
    Board(String),
}

impl HillError {
    /// The key of `hill.yaml` the error is about.
    fn key(&self) -> &'static str {
        match self {
            HillError::Version(_) => "format_version",
            HillError::Keywords(_) => "keywords",
            HillError::Size(_) => "size",
            HillError::Seeds(..) => "seeds",
            HillError::Scenario(_) => "scenario",
            HillError::Robots(_) => "robots",
            HillError::Rounds(_) => "rounds",
            HillError::Board(_) => "board",
        }
    }
}

/// `hill.yaml` as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HillFile {
    format_version: u32,
    size: usize,
    seeds: [u32; 2],
    board: String,
    scenario: u8,
    robots: u8,
    rounds: u32,
    /// `plain` or `ti57` (RULES A.12); absent: plain.
    #[serde(default)]
    keywords: Option<String>,
}

impl HillSettings {
    /// What is wrong with these settings (made from flags, or read from a file).
    pub fn check(&self) -> Result<(), HillError> {
        let [first, last] = self.seeds;
        if !(1..MAX_ENTRANTS).contains(&self.size) {
            Err(HillError::Size(self.size))
        } else if first > last || u64::from(last - first) >= MAX_SEEDS {
            Err(HillError::Seeds(first, last))
        } else if !(1..=3).contains(&self.scenario) {
            Err(HillError::Scenario(self.scenario))
        } else if !(1..=MAX_TEAM_ROBOTS).contains(&usize::from(self.robots)) {
            Err(HillError::Robots(self.robots))
        } else if !(1..=MAX_ROUNDS).contains(&self.rounds) {
            Err(HillError::Rounds(self.rounds))
        } else if shipped::board(&self.board).is_none() && self.board != OWN_BOARD {
            Err(HillError::Board(escape(&self.board).into_owned()))
        } else {
            Ok(())
        }
    }

    /// The file's text.
    pub fn yaml(&self) -> String {
        format!(
            "# A hill of robots programs (docs/TOURNAMENTS.md, \"The hill\"): its settings.\n\
             format_version: 1\nsize: {}\nseeds: [{}, {}]\nboard: {}\nscenario: {}\nrobots: {}\nrounds: {}\nkeywords: {}\n",
            self.size,
            self.seeds[0],
            self.seeds[1],
            self.board,
            self.scenario,
            self.robots,
            self.rounds,
            self.keywords.name()
        )
    }

    /// The settings in one line of words.
    pub fn summary(&self) -> String {
        format!(
            "size {}, seeds {}..{}, board {}, scenario {}, {} robots a side, at most {} rounds, keywords {}",
            self.size,
            self.seeds[0],
            self.seeds[1],
            escape(&self.board),
            self.scenario,
            self.robots,
            self.rounds,
            self.keywords.name()
        )
    }
}

/// Reads `hill.yaml` (`file` names it in errors): every field checked, an error placed at
/// its key.
pub fn parse_hill(file: &str, source: &str) -> Result<HillSettings, Diagnostic> {
    let raw: HillFile = crate::text::yaml::from_str(file, source)?;
    let at = |e: HillError| {
        let (line, col) = locate_key(source, e.key(), 1).unwrap_or((1, 1));
        Diagnostic::at(file, source, line, col, e.to_string())
    };
    if raw.format_version != 1 {
        return Err(at(HillError::Version(raw.format_version)));
    }
    let keywords = match raw.keywords.as_deref() {
        None => Keywords::Plain,
        Some(name) => Keywords::parse(name)
            .ok_or_else(|| at(HillError::Keywords(escape(name).into_owned())))?,
    };
    let settings = HillSettings {
        size: raw.size,
        seeds: raw.seeds,
        board: raw.board,
        scenario: raw.scenario,
        robots: raw.robots,
        rounds: raw.rounds,
        keywords,
    };
    settings.check().map_err(at)?;
    Ok(settings)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "format_version: 1\nsize: 3\nseeds: [1, 2]\nboard: classic\nscenario: 1\nrobots: 3\nrounds: 200\nkeywords: plain\n";

    #[test]
    fn settings_are_written_and_read_back() {
        let settings = parse_hill("hill.yaml", GOOD).unwrap();
        assert_eq!(parse_hill("hill.yaml", &settings.yaml()).unwrap(), settings);
        assert_eq!(settings.keywords, Keywords::Plain);
    }

    #[test]
    fn an_error_is_placed_at_its_key() {
        let bad = GOOD.replace("rounds: 200", "rounds: 0");
        let d = parse_hill("hill.yaml", &bad).unwrap_err();
        assert_eq!((d.line, d.col), (7, 1));
        assert_eq!(d.message, "rounds 0: 1 to 100000");
        let bad = GOOD.replace("board: classic", "board: ../x.yaml");
        let d = parse_hill("hill.yaml", &bad).unwrap_err();
        assert_eq!(d.line, 4);
        assert!(d.message.contains("board `../x.yaml`"), "{}", d.message);
    }
}
