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
    /// The robots of team `t` as bits of `State::on_board`: `team_robots[t]` in one word.
    pub(super) team_bits: Vec<u64>,
    pub(super) signals: Vec<(TeamId, SignalPlan)>,
    /// What entering each hex does ([`Entry`]): one load a hex a move walks.
    pub(super) entries: Vec<Entry>,
    /// Counts of the terrain kinds the conditions ask about in rings (constant-time tests).
    pub(super) areas: super::asking::areas::Areas,
    /// Each robot's steps by number: what the step loop reads (`turn/robot.rs`).
    pub(super) steps: Vec<StepTable>,
    /// Each robot's turns worked out in advance (`plan.rs`), unless too big.
    pub(super) plans: Vec<Option<Arc<super::turn::plan::Plan>>>,
    /// Each robot's tests 1–4 compiled for its team (`compiled.rs`).
    pub(super) tests: super::asking::compiled::Compiled,
    /// Each robot's plan fused with its tests (`brain.rs`), where it has a plan.
    pub(super) brains: Vec<Option<Arc<super::turn::brain::Brain>>>,
}

/// What entering a hex does, as bits: it blocks a move (a computer, or a shape under the
/// advanced rule, R-A2), drowns (a lake, R-A3) or strikes (lightning, R-A4). Worked out
/// from the board and the rules ([`entries`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Entry(u8);

impl Entry {
    pub(super) const BLOCKS: u8 = 1;
    pub(super) const LAKE: u8 = 2;
    pub(super) const LIGHTNING: u8 = 4;

    /// Whether any of `bits` is set.
    #[inline]
    pub(super) fn has(self, bits: u8) -> bool {
        self.0 & bits != 0
    }
}

/// Each hex's [`Entry`] on `board` under `rules`.
pub(super) fn entries(board: &Board, rules: &Rules) -> Vec<Entry> {
    let entry = |terrain| match terrain {
        Terrain::Computer(_) => Entry::BLOCKS,
        Terrain::Shape(..) if rules.shapes_block => Entry::BLOCKS,
        Terrain::Lake => Entry::LAKE,
        Terrain::Lightning => Entry::LIGHTNING,
        _ => 0,
    };
    board
        .cells()
        .map(|(_, c)| Entry(entry(c.terrain)))
        .collect()
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

    /// What entering `cell` does (nothing off the table).
    #[inline]
    pub(super) fn entry(&self, cell: CellId) -> Entry {
        self.entries.get(cell.index()).copied().unwrap_or(Entry(0))
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
