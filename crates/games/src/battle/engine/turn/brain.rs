//! A robot's planned turns and compiled tests fused into one jumping code, worked out once a
//! match for each program and team: from the step after the pointer, the questions of every
//! test the turn asks, in the order the plan asks them, each leading to the next question or
//! to the node that ends the turn. A turn then walks questions only, with no step between two
//! tests. For turns that record nothing and read no destroyed step (R-A9): the plan's walk
//! (`plan.rs`) plays the others, and is what this is tested against.

use super::plan::{Plan, PlanCache, STARTS, Then};
use crate::battle::engine::asking::compiled::{
    Compiled, Entries, Leaf, NO, Next, Question, Term, YES,
};
use crate::battle::engine::state::RobotId;
use crate::battle::lang::Program;
use crate::battle::terrain::TeamColour;
use std::sync::Arc;

/// The most questions a brain may hold: written programs take a few hundred; past this, the
/// plan's walk plays the program.
const MAX_OPS: usize = 16 * 1024;
/// Marks where a walk ends: the plan's node (its index in the low bits) that ends the turn.
const END: Next = 1 << 31;

/// One program's turns for one team: where each turn starts, by pointer, and the questions.
#[derive(Clone, Debug)]
pub(crate) struct Brain {
    after: [Next; STARTS],
    ops: Vec<Leaf>,
}

/// Past [`MAX_OPS`], or a test asked that is not defined: the brain is given up.
struct GiveUp;

impl Brain {
    /// Fuses `plan` with the tests starting at `entries` in `tests`, unless it would be too
    /// big.
    pub(crate) fn new(plan: &Plan, tests: &Compiled, entries: &Entries) -> Option<Brain> {
        let mut brain = Brain {
            after: [END; STARTS],
            ops: Vec::new(),
        };
        let mut states: Vec<Option<Next>> = vec![None; plan.len()];
        for pointer in 0..STARTS {
            brain.after[pointer] = brain
                .state(
                    plan,
                    tests,
                    entries,
                    plan.next_turn_index(pointer),
                    &mut states,
                )
                .ok()?;
        }
        Some(brain)
    }

    /// Where a walk from plan node `k` starts: its test's first question, or the end at `k`.
    fn state(
        &mut self,
        plan: &Plan,
        tests: &Compiled,
        entries: &Entries,
        k: u16,
        states: &mut [Option<Next>],
    ) -> Result<Next, GiveUp> {
        if let Some(Some(s)) = states.get(usize::from(k)) {
            return Ok(*s);
        }
        let s = match plan.node(k).then {
            Then::Ask { test, yes, no } => {
                let yes = self.state(plan, tests, entries, yes, states)?;
                let no = self.state(plan, tests, entries, no, states)?;
                let entry = entries[usize::from(test.wrapping_sub(1)) % 4].ok_or(GiveUp)?;
                self.copy(&tests.leaves, entry, [yes, no], &mut Vec::new())?
            }
            _ => END | Next::from(k),
        };
        if let Some(slot) = states.get_mut(usize::from(k)) {
            *slot = Some(s);
        }
        Ok(s)
    }

    /// A copy of the test's questions from `at`, its verdicts leading to `then` (yes, no);
    /// `done` maps the leaves copied so far to their copies.
    fn copy(
        &mut self,
        leaves: &[Leaf],
        at: Next,
        then: [Next; 2],
        done: &mut Vec<(Next, Next)>,
    ) -> Result<Next, GiveUp> {
        match at {
            YES => return Ok(then[0]),
            NO => return Ok(then[1]),
            _ => {}
        }
        if let Some(&(_, copy)) = done.iter().find(|(leaf, _)| *leaf == at) {
            return Ok(copy);
        }
        // Each leaf leads only to leaves compiled before it: this ends.
        let leaf = *leaves.get(at as usize).ok_or(GiveUp)?;
        let yes = self.copy(leaves, leaf.yes, then, done)?;
        let no = self.copy(leaves, leaf.no, then, done)?;
        if self.ops.len() >= MAX_OPS {
            return Err(GiveUp);
        }
        let copy = Next::try_from(self.ops.len()).map_err(|_| GiveUp)?;
        self.ops.push(Leaf {
            question: leaf.question,
            yes,
            no,
        });
        done.push((at, copy));
        Ok(copy)
    }

    /// Where the next turn of a robot whose pointer is at `pointer` starts.
    #[inline]
    pub(crate) fn start(&self, pointer: u8) -> Next {
        self.after.get(usize::from(pointer)).copied().unwrap_or(END)
    }

    /// The questions, for [`crate::battle::engine::asking::ask::Ask::walk`].
    #[inline]
    pub(crate) fn ops(&self) -> &[Leaf] {
        &self.ops
    }

    /// The plan's node where a walk that ended at `end` ends the turn.
    #[inline]
    pub(crate) fn node(end: Next) -> u16 {
        u16::try_from(end & !END).unwrap_or(0)
    }
}

/// What the setups of a workload share (`Prepared::each`): each program's plan, and the
/// brains that hold nothing of one setup's own (no question left to its tree walk).
#[derive(Default)]
pub(crate) struct Shared {
    pub(crate) plans: PlanCache,
    brains: Vec<Kept>,
}

/// A brain kept, by what it was made from: the program, the team colour and the match's
/// teams (what its tests compile from).
type Kept = (Arc<Program>, TeamColour, Vec<TeamColour>, Arc<Brain>);

impl Brain {
    /// Whether every question is answered without the setup's tree walk: no index into its
    /// compiled tests' trees, so another setup with the same plan may use it.
    fn stands_alone(&self) -> bool {
        self.ops.iter().all(|leaf| match leaf.question {
            Question::Tree(_) => false,
            Question::Compare(a, _, b) => {
                !matches!(a, Term::Tree(_)) && !matches!(b, Term::Tree(_))
            }
            _ => true,
        })
    }
}

/// Each robot's brain, from its plan and its tests: `robots` lists each one's program and
/// team colour, and robots that share both share one brain (and setups that share `shared`
/// and the match's `teams`, one that stands alone).
pub(crate) fn brains(
    plans: &[Option<Arc<Plan>>],
    tests: &Compiled,
    robots: &[(&Arc<Program>, TeamColour)],
    teams: &[TeamColour],
    shared: &mut Shared,
) -> Vec<Option<Arc<Brain>>> {
    // Where each program and team's brain was first made.
    let mut done: Vec<(&Arc<Program>, TeamColour, usize)> = Vec::new();
    let mut out: Vec<Option<Arc<Brain>>> = Vec::with_capacity(robots.len());
    for (i, (&(program, colour), plan)) in robots.iter().zip(plans).enumerate() {
        let same =
            |d: &&(&Arc<Program>, TeamColour, usize)| Arc::ptr_eq(d.0, program) && d.1 == colour;
        if let Some(&(.., first)) = done.iter().find(same) {
            let brain = out.get(first).cloned().flatten();
            out.push(brain);
            continue;
        }
        done.push((program, colour, i));
        let kept = shared
            .brains
            .iter()
            .find(|(p, c, t, _)| Arc::ptr_eq(p, program) && *c == colour && t.as_slice() == teams);
        if let Some((.., brain)) = kept {
            out.push(Some(Arc::clone(brain)));
            continue;
        }
        let brain = plan
            .as_deref()
            .and_then(|plan| Brain::new(plan, tests, tests.entries(RobotId::at(i))).map(Arc::new));
        if let Some(brain) = brain.as_ref().filter(|b| b.stands_alone()) {
            let kept = (
                Arc::clone(program),
                colour,
                teams.to_vec(),
                Arc::clone(brain),
            );
            shared.brains.push(kept);
        }
        out.push(brain);
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::battle::engine::{Match, Unrecorded};

    /// The benchmark's matches, several seeds each: a turn played from the brains (nothing
    /// recorded) leaves the state the plan's walk (events recorded) leaves, turn by turn.
    #[test]
    fn the_benchmark_plays_the_same_from_the_brains() {
        let workload = crate::battle::compare::bench::workload().expect("the workload");
        let mut turns = 0;
        for (i, setup) in workload.iter().enumerate() {
            for seed in 0..3 {
                let mut setup = setup.clone();
                setup.seed = seed;
                let mut fused = Match::new(&setup).expect("valid");
                let mut walked = fused.clone();
                assert!(fused.fixed.brains.iter().all(Option::is_some), "{i}");
                loop {
                    let mut events = Vec::new();
                    let going = walked.step_into(&mut events);
                    assert_eq!(going, fused.step_into(&mut Unrecorded));
                    assert_eq!(fused.state(), walked.state(), "{i} seed {seed}");
                    if !going {
                        break;
                    }
                    turns += 1;
                }
            }
        }
        assert!(turns > 10_000, "{turns}");
    }
}
