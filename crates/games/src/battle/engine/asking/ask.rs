//! Asking a compiled test (`compiled.rs`) now, for the acting robot: a walk along its leaves,
//! each question answered with a few bit operations from the robot's [`Sight`], the board's
//! terrain classes, its shots and facing; the tree walk of `query.rs` answers through
//! [`Fallback`] what the compiled form leaves to it.

use super::compiled::{Compiled, Leaf, Next, Question, Term, YES};
use super::sight::{Sees, Sight};
use super::terrain::{self, ClassSet, Line};
use crate::battle::board::Board;
use crate::battle::engine::state::{Robot, RobotId, State};
use crate::battle::lang::{Condition, Quantity};

/// The tree walk, for the parts of a condition the compiled form leaves to it.
pub(crate) trait Fallback {
    fn holds(&self, condition: &Condition) -> bool;
    fn quantity(&self, quantity: &Quantity) -> i32;
}

/// What a compiled test is asked about: the board, the state, the acting robot, and the
/// other robots as it sees them (worked out at the first question about them: robots do not
/// move while a turn's control steps are read). One a turn.
pub(crate) struct Ask<'a, F: Fallback, S: Sees = Sight> {
    pub board: &'a Board,
    pub s: &'a State,
    pub id: RobotId,
    /// The acting robot: it does not change while a turn's tests are asked.
    pub me: &'a Robot,
    pub sight: &'a mut S,
    pub fallback: F,
}

impl<F: Fallback, S: Sees> Ask<'_, F, S> {
    /// Whether the test starting at `entry` of `code` holds.
    #[inline]
    pub(crate) fn holds(&mut self, code: &Compiled, entry: Next) -> bool {
        self.walk(code, &code.leaves, entry) == YES
    }

    /// Walks `leaves` (questions of `code`'s tests, or copies of them) from `at` to where
    /// the walk leaves them: a verdict, or an end of a fused turn (`turn/brain.rs`).
    #[inline(always)]
    pub(crate) fn walk(&mut self, code: &Compiled, leaves: &[Leaf], mut at: Next) -> Next {
        // Each leaf leads to an earlier one or past the leaves (verdicts, ends): this ends.
        while let Some(leaf) = leaves.get(at as usize) {
            // Most questions asked are about robots near: a branch before the others' table.
            let answer = match leaf.question {
                Question::Near(asked) => self.sight.near(self.board, self.s, self.id).meets(asked),
                ref other => self.asks(code, other),
            };
            at = if answer { leaf.yes } else { leaf.no };
        }
        at
    }

    #[inline(always)]
    fn asks(&mut self, code: &Compiled, question: &Question) -> bool {
        let me = self.me;
        match *question {
            Question::Near(asked) => self.sight.near(self.board, self.s, self.id).meets(asked),
            Question::Robots { slots, range } => {
                range.meets(self.sight.seen(self.board, self.s, self.id).either(slots))
            }
            Question::RobotsToward { who, dir, range } => range.meets(
                self.sight
                    .seen(self.board, self.s, self.id)
                    .toward(who, dir),
            ),
            Question::TerrainLine {
                set,
                line,
                min,
                max,
            } => self.terrain_line(set, line, min, max),
            Question::TerrainNear { sets, line } => {
                let near = self.board.near(me.cell, line.direction(me.facing));
                terrain::meets_either(sets, near)
            }
            Question::TerrainHere(set) => set.meets(self.board.classes(me.cell)),
            Question::Facing(d) => me.facing == d,
            Question::Shots { holds, op, n } => {
                if me.shots < 64 {
                    (holds >> me.shots) & 1 != 0
                } else {
                    op.holds(i32::from(me.shots), n)
                }
            }
            Question::Compare(a, op, b) => op.holds(self.term(code, a), self.term(code, b)),
            Question::Tree(i) => code
                .trees
                .get(i as usize)
                .is_some_and(|c| self.fallback.holds(c)),
        }
    }

    #[inline]
    fn term(&self, code: &Compiled, t: Term) -> i32 {
        let me = self.me;
        match t {
            Term::Number(n) => n,
            Term::Shots => i32::from(me.shots),
            Term::Facing => i32::from(me.facing.number()),
            Term::Tree(i) => code
                .quantities
                .get(i as usize)
                .map_or(0, |q| self.fallback.quantity(q)),
        }
    }

    /// Walks the neighbour table; a straight line that leaves the (rectangular) board never
    /// comes back, and every position from there on counts as `edge` (R-A22).
    #[inline]
    fn terrain_line(&self, set: ClassSet, line: Line, min: u8, max: u8) -> bool {
        let me = self.me;
        let dir = line.direction(me.facing);
        let mut at = me.cell;
        for k in 1..=max {
            let Some(c) = self.board.neighbour(at, dir) else {
                return set.meets(ClassSet::EDGE.bits());
            };
            at = c;
            if k >= min && set.meets(self.board.classes(c)) {
                return true;
            }
        }
        false
    }
}
