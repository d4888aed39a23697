//! A match's settings as the page sends them (`robots run [MATCH] --team … --robots K --board
//! B --seed S --rounds N`, web/play/ENGINE.md), made into a checked `MatchSetup` by the games
//! crate's own readers: a match file's text, or the match file `--team` flags make.

use crate::answer::{ErrorKind, Failure};
use robots_games::battle::engine::MatchSetup;
use robots_games::battle::files::teams::{Ground, match_text};
use robots_games::battle::files::{match_file, shipped};
use robots_games::battle::lang::Keywords;
use robots_games::text::MAX_INPUT_BYTES;
use robots_games::text::confine::{Confine, Fetched};
use robots_games::text::diagnostic::too_large;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The most files one request may hold (a match names at most 6 × 9 programs and a board).
pub const MAX_FILES: usize = 64;

/// The files a match or a duel names, as if beside the match file: name → text.
#[derive(Debug, Default, Deserialize)]
#[serde(transparent)]
pub struct Files(BTreeMap<String, String>);

impl Files {
    /// Within [`MAX_FILES`], each within the command line's [`MAX_INPUT_BYTES`].
    pub fn check(&self) -> Result<(), Failure> {
        if self.0.len() > MAX_FILES {
            return Err(Failure::new(
                ErrorKind::Limit,
                format!("{} files: at most {MAX_FILES} in one request", self.0.len()),
            ));
        }
        match self.0.iter().find(|(_, text)| text.len() > MAX_INPUT_BYTES) {
            Some((name, _)) => Err(too_large(name).into()),
            None => Ok(()),
        }
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    /// A program named as at the command line: `name`, else `name.robot`; its file's name.
    pub fn program(&self, name: &str) -> Option<(String, &str)> {
        let robot = format!("{name}.robot");
        self.get(name)
            .map(|t| (name.to_string(), t))
            .or_else(|| self.get(&robot).map(|t| (robot, t)))
    }

    /// What the match reader fetches: a file of the request, or "not found".
    fn fetch(&self, path: &Path) -> std::io::Result<Fetched> {
        let text = path.to_str().and_then(|p| self.get(p));
        text.map(|t| Fetched::from(t.as_bytes().to_vec()))
            .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::NotFound))
    }
}

/// A team of `--team COLOUR=PROGRAM`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Team {
    pub colour: String,
    pub program: String,
}

/// A seed as a number, or a string of digits (64 bits do not fit a JavaScript number).
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum Seed {
    Number(u64),
    Digits(String),
}

impl Seed {
    fn value(&self) -> Result<u64, Failure> {
        match self {
            Seed::Number(n) => Ok(*n),
            Seed::Digits(d) => d.parse().map_err(|_| {
                Failure::new(
                    ErrorKind::Request,
                    "seed: expected a number from 0 to 18446744073709551615",
                )
            }),
        }
    }
}

/// A language by name (`--keywords`, `rules.keywords`).
pub fn keywords(name: Option<&str>) -> Result<Keywords, Failure> {
    match name {
        None | Some("plain") => Ok(Keywords::Plain),
        Some("ti57") => Ok(Keywords::Ti57),
        Some(other) => Err(Failure::new(
            ErrorKind::Request,
            format!(
                "keywords: `{}` is no language (plain or ti57)",
                robots_games::text::escape(other)
            ),
        )),
    }
}

/// The settings of one match (web/play/ENGINE.md, "Match settings").
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MatchSettings {
    #[serde(rename = "match")]
    pub match_text: Option<String>,
    pub match_file: Option<String>,
    pub teams: Option<Vec<Team>>,
    pub robots: Option<usize>,
    pub board: Option<String>,
    pub scenario: Option<u32>,
    pub keywords: Option<String>,
    #[serde(default)]
    pub files: Files,
    pub seed: Option<Seed>,
    pub rounds: Option<u32>,
}

impl MatchSettings {
    /// The checked setup, as `robots run` reads it.
    pub fn setup(&self) -> Result<MatchSetup, Failure> {
        self.files.check()?;
        if self.rounds == Some(0) {
            return Err(Failure::new(
                ErrorKind::Limit,
                "rounds: 1 to 4294967295 (--rounds)",
            ));
        }
        let fetch = |path: &Path| self.files.fetch(path);
        let read = |file: &str, text: &str| {
            match_file::parse_match_rounds(file, text, &fetch, Confine::Inside, self.rounds)
        };
        let mut setup = match (&self.match_text, &self.teams) {
            (Some(_), Some(_)) => {
                return Err(Failure::new(
                    ErrorKind::Request,
                    "a match file or teams, not both (as MATCH and --team)",
                ));
            }
            (Some(text), None) => {
                if self.robots.is_some()
                    || self.board.is_some()
                    || self.scenario.is_some()
                    || self.keywords.is_some()
                {
                    return Err(Failure::new(
                        ErrorKind::Request,
                        "robots, board, scenario and keywords go with teams: a match file says its own",
                    ));
                }
                let file = self.match_file.as_deref().unwrap_or("match.yaml");
                if text.len() > MAX_INPUT_BYTES {
                    return Err(too_large(file).into());
                }
                read(file, text)?
            }
            (None, Some(teams)) => read("teams", &self.teams_text(teams)?)?,
            (None, None) => read(shipped::DEFAULT_MATCH.0, shipped::DEFAULT_MATCH.1)?,
        };
        if let Some(seed) = &self.seed {
            setup.seed = seed.value()?;
        }
        Ok(setup)
    }

    /// The match file of `--team` flags.
    fn teams_text(&self, teams: &[Team]) -> Result<String, Failure> {
        let flags: Vec<String> = teams
            .iter()
            .map(|t| format!("{}={}", t.colour, t.program))
            .collect();
        let scenario = self.scenario.unwrap_or(1);
        if !(1..=3).contains(&scenario) {
            return Err(Failure::new(ErrorKind::Request, "scenario: 1, 2 or 3"));
        }
        let ground = Ground {
            robots: self.robots.unwrap_or(3),
            board: self.board.as_deref().unwrap_or("classic"),
            scenario,
            keywords: keywords(self.keywords.as_deref())?,
        };
        let known = |name: &str| self.files.program(name).is_some();
        Ok(match_text(&flags, ground, &known)?)
    }
}
