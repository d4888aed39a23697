//! A match file as written (the serde types), where its entries sit, and what every step of
//! reading it needs (`Ctx`): the pieces `mod.rs` and `signals.rs` share.

use super::named::Named;
use crate::battle::engine::SetupError;
use crate::battle::terrain::TeamColour;
use crate::text::diagnostic::Diagnostic;
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct MatchFile {
    #[serde(default)]
    pub(super) name: Option<String>,
    #[serde(default)]
    pub(super) description: Option<String>,
    pub(super) board: String,
    #[serde(default = "scenario_one")]
    pub(super) scenario: u32,
    #[serde(default)]
    pub(super) rules: RulesFile,
    #[serde(default)]
    pub(super) seed: Option<u64>,
    pub(super) teams: Vec<TeamFile>,
    #[serde(default)]
    pub(super) signals: Vec<SignalFile>,
}

pub(super) fn scenario_one() -> u32 {
    1
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct RulesFile {
    pub(super) shapes_block: Option<bool>,
    pub(super) program_steps: Option<usize>,
    pub(super) rounds: Option<u32>,
    pub(super) keywords: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TeamFile {
    #[serde(alias = "color")]
    pub(super) colour: String,
    pub(super) robots: Vec<RobotFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RobotFile {
    /// A `.robot` file (relative to the match file) or the name of a shipped program.
    pub(super) program: Option<String>,
    /// The program text itself.
    pub(super) code: Option<String>,
    pub(super) at: Option<[i64; 2]>,
    pub(super) facing: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SignalFile {
    pub(super) round: Option<u32>,
    pub(super) when: Option<String>,
    pub(super) robot: String,
    pub(super) step: u32,
}

/// A value read from the file, with the `(line, column)` of each of its entries.
pub(super) type Located<T> = (T, Vec<(usize, usize)>);

/// Where the entries of a match file sit, to point errors from the domain at them.
pub(super) struct Places {
    /// Each team's `colour:` key.
    pub(super) teams: Vec<(usize, usize)>,
    /// Each robot's `at:` key (or where its entry starts), per team.
    pub(super) robots: Vec<Vec<(usize, usize)>>,
    /// Each signal's `robot:` key.
    pub(super) signals: Vec<(usize, usize)>,
    /// The teams' colours, once read.
    pub(super) colours: Vec<TeamColour>,
}

/// What every step of reading a match file needs: its name, text, folder and reader.
pub(super) struct Ctx<'a> {
    pub(super) file: &'a str,
    pub(super) source: &'a str,
    pub(super) named: Named<'a>,
    /// Warnings met on the way (docs/LANGUAGE.md): about the programs the match names, in
    /// their own files, and about its signals.
    pub(super) warnings: std::cell::RefCell<Vec<Diagnostic>>,
}

impl Ctx<'_> {
    /// The position of `key`, searching from line `after` (semantic errors point at keys).
    pub(super) fn key(&self, key: &str, after: usize) -> (usize, usize) {
        crate::text::yaml::locate_key(self.source, key, after).unwrap_or((1, 1))
    }

    pub(super) fn err(&self, (line, col): (usize, usize), message: String) -> Diagnostic {
        Diagnostic::at(self.file, self.source, line, col, message)
    }

    /// A [`SetupError`] pointed at the entry it is about.
    pub(super) fn locate(&self, places: &Places, e: &SetupError) -> Diagnostic {
        let robot_place = |t: usize, i: usize| places.robots[t][i];
        let name = |t: usize, i: usize| match places.colours.get(t) {
            Some(colour) => format!("{colour}.{}", i + 1),
            None => format!("teams[{t}].robots[{i}]"),
        };
        let what = |t: usize, i: usize| format!("teams[{t}].robots[{i}] ({})", name(t, i));
        match e {
            SetupError::ProgramSteps(_) => self.err(self.key("program_steps", 1), e.to_string()),
            SetupError::NoRounds => self.err(self.key("rounds", 1), e.to_string()),
            SetupError::NoTeams => self.err(self.key("teams", 1), e.to_string()),
            SetupError::SameColour { team, .. } | SetupError::TeamSize { team, .. } => {
                self.err(places.teams[*team], format!("teams[{team}]: {e}"))
            }
            SetupError::NoCamp { team, .. } | SetupError::NoComputer { team, .. } => {
                self.err(places.teams[*team], e.to_string())
            }
            SetupError::ProgramTooLong { team, robot, .. }
            | SetupError::NeedsTi57 { team, robot }
            | SetupError::BadPlacement { team, robot, .. } => self.err(
                robot_place(*team, *robot),
                format!("{}: {e}", what(*team, *robot)),
            ),
            SetupError::Taken { team, robot } | SetupError::NoFreeStartPoint { team, robot } => {
                let message = e.to_string().replace(
                    &format!("teams[{team}].robots[{robot}]"),
                    &name(*team, *robot),
                );
                self.err(robot_place(*team, *robot), message)
            }
            SetupError::Signal(i, inner) => {
                self.err(places.signals[*i], format!("signals[{i}]: {inner}"))
            }
        }
    }
}
