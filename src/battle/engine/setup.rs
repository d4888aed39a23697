//! What a match starts from: board, scenario, rules, teams with their programs, signal plans.

use crate::battle::board::{Board, CellId};
use crate::battle::hex::Direction;
use crate::battle::lang::{Condition, Program};
use crate::battle::terrain::TeamColour;
use std::sync::Arc;

/// The rule options of a match (RULES A.2, A.11, R-A18).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Advanced rule: shapes are obstacles. `false` is the first-game rule.
    pub shapes_block: bool,
    pub program_steps: usize,
    /// The round limit (R-A18); reaching it is a draw.
    pub rounds: u32,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            shapes_block: true,
            program_steps: crate::battle::lang::DEFAULT_PROGRAM_STEPS,
            rounds: 200,
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
    /// Where the program came from (a file, a shipped name, or `inline`), for views.
    pub origin: String,
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
}
