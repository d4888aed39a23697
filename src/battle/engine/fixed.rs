//! What never changes during a match: board, programs, rules, signal plans. Every copy of a
//! match's state shares one, and so do the matches of one setup with other seeds.

use super::event::Pos;
use super::setup::{Rules, Scenario, SignalPlan};
use super::state::TeamId;
use crate::battle::board::{Board, CellId};
use crate::battle::lang::{Instruction, MAX_PROGRAM_STEPS, Program};
use crate::battle::terrain::{TeamColour, Terrain};
use std::sync::Arc;

/// What never changes during a match, shared by every copy of its state.
#[derive(Debug)]
pub struct Fixed {
    pub(super) board: Arc<Board>,
    pub(super) scenario: Scenario,
    pub(super) rules: Rules,
    pub(super) programs: Vec<Arc<Program>>,
    pub(super) teams: Vec<TeamColour>,
    /// The robots of team `t` are ids `team_robots[t]`.
    pub(super) team_robots: Vec<std::ops::Range<usize>>,
    pub(super) signals: Vec<(TeamId, SignalPlan)>,
    /// Counts of the terrain kinds the conditions ask about in rings (constant-time tests).
    pub(super) areas: super::asking::areas::Areas,
    /// Each robot's steps by number: what the step loop reads (`turn.rs`).
    pub(super) steps: Vec<StepTable>,
    /// Each robot's turns worked out in advance (`plan.rs`), unless too big.
    pub(super) plans: Vec<Option<Arc<super::turn::plan::Plan>>>,
    /// Each robot's tests 1–4 compiled for its team (`compiled.rs`).
    pub(super) tests: super::asking::compiled::Compiled,
    /// Each robot's plan fused with its tests (`brain.rs`), where it has a plan.
    pub(super) brains: Vec<Option<Arc<super::turn::brain::Brain>>>,
}

/// A program's instructions by step number: the start box (0), steps 1–63 and the two past
/// them a pointer can reach (R-A10) are slots; `None` where no step is written.
pub(super) type StepTable = [Option<Instruction>; MAX_PROGRAM_STEPS + 3];

/// A program's step table.
pub(super) fn step_table(program: &Program) -> StepTable {
    std::array::from_fn(|n| program.instruction(n))
}

impl Fixed {
    /// The instruction at step `at` of a robot's program, if written.
    #[inline]
    pub(super) fn instruction(&self, id: super::state::RobotId, at: usize) -> Option<Instruction> {
        self.steps.get(id.index())?.get(at).copied().flatten()
    }

    pub(super) fn terrain(&self, cell: CellId) -> Terrain {
        self.board.cell(cell).terrain
    }

    /// A camp of another team that plays in this match.
    pub(super) fn is_enemy_camp(&self, team: TeamId, camp: Option<TeamColour>) -> bool {
        camp.is_some_and(|c| c != self.teams[team.index()] && self.teams.contains(&c))
    }

    pub(super) fn pos(&self, cell: CellId) -> Pos {
        let (c, r) = self.board.offset(cell);
        Pos(
            u16::try_from(c).unwrap_or(u16::MAX),
            u16::try_from(r).unwrap_or(u16::MAX),
        )
    }
}
