//! What a match starts from: board, scenario, rules, teams with their programs, signal plans.

use super::event::RobotName;
use crate::battle::board::{Board, CellId};
use crate::battle::hex::Direction;
use crate::battle::lang::{Condition, Keywords, MAX_PROGRAM_STEPS, Program};
use crate::battle::terrain::{TeamColour, Terrain};
use std::sync::Arc;

/// Robots in a team (RULES A.3 plays with 4; files may say 1 to 9).
pub const MAX_TEAM_ROBOTS: usize = 9;

/// The rule options of a match (RULES A.2, A.11, R-A18).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Advanced rule: shapes are obstacles. `false` is the first-game rule.
    pub shapes_block: bool,
    pub program_steps: usize,
    /// The round limit (R-A18); reaching it is a draw.
    pub rounds: u32,
    /// The plain language, or with the TI-57 keywords (RULES A.12).
    pub keywords: crate::battle::lang::Keywords,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            shapes_block: true,
            program_steps: crate::battle::lang::DEFAULT_PROGRAM_STEPS,
            rounds: 200,
            keywords: crate::battle::lang::Keywords::Plain,
        }
    }
}

impl Rules {
    /// The default rules in a language: the TI-57 keywords bring their 50 steps (A.12).
    pub fn with_keywords(keywords: Keywords) -> Rules {
        Rules {
            keywords,
            program_steps: keywords.default_steps(),
            ..Rules::default()
        }
    }
}

/// The three scenarios of RULES A.1 / A.10.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scenario {
    /// 1: destroy every enemy robot.
    Elimination,
    /// 2: be the first to enter an enemy camp.
    CampRaid,
    /// 3: from inside the enemy camp, hit the enemy computer with a shot (R-A17).
    ComputerStrike,
}

impl Scenario {
    pub fn from_number(n: u32) -> Option<Scenario> {
        match n {
            1 => Some(Scenario::Elimination),
            2 => Some(Scenario::CampRaid),
            3 => Some(Scenario::ComputerStrike),
            _ => None,
        }
    }

    pub fn number(self) -> u8 {
        match self {
            Scenario::Elimination => 1,
            Scenario::CampRaid => 2,
            Scenario::ComputerStrike => 3,
        }
    }
}

#[derive(Clone, Debug)]
pub struct MatchSetup {
    pub name: String,
    pub board: Arc<Board>,
    pub scenario: Scenario,
    pub rules: Rules,
    pub seed: u64,
    pub teams: Vec<TeamSetup>,
    pub signals: Vec<SignalPlan>,
}

#[derive(Clone, Debug)]
pub struct TeamSetup {
    pub colour: TeamColour,
    pub robots: Vec<RobotSetup>,
}

#[derive(Clone, Debug)]
pub struct RobotSetup {
    pub program: Arc<Program>,
    /// Where the program came from (a file, a shipped name, or `inline`), for views: the
    /// engine never reads it.
    pub origin: String,
    /// The program's text as written (comments and all), for replays and views: the engine
    /// never reads it.
    pub source: Arc<str>,
    /// A fixed placement; `None` lets the seeded generator choose a start point (R-A12).
    pub at: Option<CellId>,
    pub facing: Option<Direction>,
}

/// A robot named by team index (file order) and number (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RobotRef {
    pub team: usize,
    pub number: u8,
}

/// Where signals come from in a simulation (R-A15).
#[derive(Clone, Debug)]
pub enum SignalPlan {
    /// Sent at the end of the team's turn in `round`; acts at its next turn.
    Scheduled {
        round: u32,
        robot: RobotRef,
        step: u8,
    },
    /// Sent at the end of the team's turn whenever `when` holds from the robot's point of view.
    Conditional {
        when: Condition,
        text: String,
        robot: RobotRef,
        step: u8,
    },
}

impl SignalPlan {
    pub fn robot(&self) -> RobotRef {
        match self {
            SignalPlan::Scheduled { robot, .. } | SignalPlan::Conditional { robot, .. } => *robot,
        }
    }

    /// The step the signal names.
    pub fn step(&self) -> u8 {
        match self {
            SignalPlan::Scheduled { step, .. } | SignalPlan::Conditional { step, .. } => *step,
        }
    }
}

/// Why a [`MatchSetup`] cannot be played. Teams and robots are indices in file order (robot
/// `i` of a team is number `i + 1`), so a file layer can point at the entry in question.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("program_steps is {0}: expected 1 to {MAX_PROGRAM_STEPS}")]
    ProgramSteps(usize),
    #[error("rounds must be at least 1")]
    NoRounds,
    #[error("a match needs at least one team")]
    NoTeams,
    #[error("two teams are {colour}")]
    SameColour { team: usize, colour: TeamColour },
    #[error("a team has 1 to {MAX_TEAM_ROBOTS} robots, not {count}")]
    TeamSize { team: usize, count: usize },
    #[error(
        "scenario {scenario} needs a camp for every team: board `{board}` has no {colour} camp"
    )]
    NoCamp {
        team: usize,
        scenario: u8,
        board: String,
        colour: TeamColour,
    },
    #[error(
        "scenario 3 needs a central computer in every team's camp: board `{board}` has none in the {colour} camp"
    )]
    NoComputer {
        team: usize,
        board: String,
        colour: TeamColour,
    },
    #[error("the program has {len} steps, more than program_steps ({steps})")]
    ProgramTooLong {
        team: usize,
        robot: usize,
        len: usize,
        steps: usize,
    },
    #[error(
        "the program uses the TI-57 keywords: turn the rule on with `keywords: ti57` under `rules:` (RULES A.12)"
    )]
    NeedsTi57 { team: usize, robot: usize },
    #[error("at {at} {problem}")]
    BadPlacement {
        team: usize,
        robot: usize,
        at: String,
        problem: &'static str,
    },
    #[error("{} is placed on a hex already taken", robot_name(*.team, *.robot))]
    Taken { team: usize, robot: usize },
    #[error(
        "no free start point for {} (its camp's and the outer ones are all taken)",
        robot_name(*.team, *.robot)
    )]
    NoFreeStartPoint { team: usize, robot: usize },
    #[error("{0}")]
    Signal(usize, SignalSetupError),
}

/// Why a signal plan cannot be kept (R-A13, R-A15).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SignalSetupError {
    #[error("robot {robot}: no such robot in this match")]
    NoRobot { robot: RobotName },
    #[error("step {step} is not a step number (1 to {steps})")]
    BadStep { step: u8, steps: usize },
    #[error("two signals for {colour} in round {round}: one per turn (R-A13)")]
    TwoInOneRound { colour: TeamColour, round: u32 },
}

/// `teams[t].robots[i]` as the number it plays under, for messages without colours.
fn robot_name(team: usize, robot: usize) -> String {
    format!("teams[{team}].robots[{robot}]")
}

impl Rules {
    /// The rule options alone: a program length the destroyed-steps bit set can hold, and a
    /// round limit of at least one round.
    pub fn validate(&self) -> Result<(), SetupError> {
        if !(1..=MAX_PROGRAM_STEPS).contains(&self.program_steps) {
            return Err(SetupError::ProgramSteps(self.program_steps));
        }
        if self.rounds == 0 {
            return Err(SetupError::NoRounds);
        }
        Ok(())
    }
}

impl MatchSetup {
    /// Every rule that does not depend on the seed.
    pub fn validate_rules(&self) -> Result<(), SetupError> {
        self.rules.validate()?;
        if self.teams.is_empty() {
            return Err(SetupError::NoTeams);
        }
        for (t, team) in self.teams.iter().enumerate() {
            self.validate_team(t, team)?;
        }
        self.validate_signals()
    }

    fn validate_team(&self, t: usize, team: &TeamSetup) -> Result<(), SetupError> {
        let colour = team.colour;
        if self.teams[..t].iter().any(|x| x.colour == colour) {
            return Err(SetupError::SameColour { team: t, colour });
        }
        if team.robots.is_empty() || team.robots.len() > MAX_TEAM_ROBOTS {
            return Err(SetupError::TeamSize {
                team: t,
                count: team.robots.len(),
            });
        }
        let board = &self.board;
        if self.scenario != Scenario::Elimination && !board.has_camp(colour) {
            return Err(SetupError::NoCamp {
                team: t,
                scenario: self.scenario.number(),
                board: board.name.clone(),
                colour,
            });
        }
        if self.scenario == Scenario::ComputerStrike && board.computer_of(colour).is_none() {
            return Err(SetupError::NoComputer {
                team: t,
                board: board.name.clone(),
                colour,
            });
        }
        for (i, robot) in team.robots.iter().enumerate() {
            if robot.program.uses_ti57() && self.rules.keywords != Keywords::Ti57 {
                return Err(SetupError::NeedsTi57 { team: t, robot: i });
            }
            if robot.program.len() > self.rules.program_steps {
                return Err(SetupError::ProgramTooLong {
                    team: t,
                    robot: i,
                    len: robot.program.len(),
                    steps: self.rules.program_steps,
                });
            }
            if let Some(cell) = robot.at {
                let bad = |problem| SetupError::BadPlacement {
                    team: t,
                    robot: i,
                    at: self.cell_text(cell),
                    problem,
                };
                if cell.index() >= board.len() {
                    return Err(bad("is off the board"));
                }
                match board.cell(cell).terrain {
                    Terrain::Plain | Terrain::Lightning => {}
                    Terrain::Lake => return Err(bad("is a lake")),
                    Terrain::Shape(..) => return Err(bad("holds a shape")),
                    Terrain::Computer(_) => return Err(bad("holds a computer")),
                }
            }
        }
        Ok(())
    }

    /// A cell as files write it, `[col, row]`.
    fn cell_text(&self, cell: CellId) -> String {
        if cell.index() < self.board.len() {
            let (col, row) = self.board.offset(cell);
            format!("[{col}, {row}]")
        } else {
            format!("cell {cell}")
        }
    }

    fn validate_signals(&self) -> Result<(), SetupError> {
        let steps = self.rules.program_steps;
        for (i, plan) in self.signals.iter().enumerate() {
            let err = |e| SetupError::Signal(i, e);
            let (robot, step) = match plan {
                SignalPlan::Scheduled { robot, step, .. }
                | SignalPlan::Conditional { robot, step, .. } => (*robot, *step),
            };
            let team = self.teams.get(robot.team);
            if team.is_none_or(|t| robot.number == 0 || usize::from(robot.number) > t.robots.len())
            {
                let colour = team.map_or(TeamColour::ALL[0], |t| t.colour);
                return Err(err(SignalSetupError::NoRobot {
                    robot: RobotName {
                        team: colour,
                        number: robot.number,
                    },
                }));
            }
            if step == 0 || usize::from(step) > steps {
                return Err(err(SignalSetupError::BadStep { step, steps }));
            }
            if let SignalPlan::Scheduled { round, .. } = plan {
                let twice = self.signals[..i].iter().any(|p| {
                    matches!(p, SignalPlan::Scheduled { round: r, robot: x, .. }
                        if r == round && x.team == robot.team)
                });
                if twice {
                    return Err(err(SignalSetupError::TwoInOneRound {
                        colour: self.teams[robot.team].colour,
                        round: *round,
                    }));
                }
            }
        }
        Ok(())
    }
}
