//! One robot's turn: its signal, or its steps read (RULES A.4–A.6), from the program's plan
//! or one by one (with the TI-57 keywords under that rule, A.12), up to its action.

use super::brain::Brain;
use super::ongoing::Turn;
use super::plan::{Passed, Plan, Then};
use crate::battle::engine::asking::query;
use crate::battle::engine::asking::sight::{Eager, Sight};
use crate::battle::engine::event::{
    Event, Events, IdleReason, RobotName, SignalEffect, Unrecorded,
};
use crate::battle::engine::state::RobotId;
use crate::battle::lang::Instruction;

impl Turn<'_> {
    #[inline(always)]
    pub(crate) fn robot_turn<E: Events>(&mut self, id: RobotId, events: &mut E) {
        let name = self.s.robots[id.index()].name;
        events.push(Event::Turn {
            round: self.s.clock.round,
            robot: name,
        });
        if let Some(step) = self.s.robots[id.index()].pending_signal.take() {
            self.signal_turn(id, step, events);
            return;
        }
        // Under the TI-57 rule, the loop that knows its keywords (A.12), out of line; the
        // plain language's is compiled without them, as tight as before the rule.
        if self.s.memories.is_empty() {
            let fixed = self.fixed;
            match fixed.plans.get(id.index()).and_then(Option::as_deref) {
                // Nothing recorded: the fused questions alone.
                Some(plan) if !E::RECORDS => {
                    match fixed.brains.get(id.index()).and_then(Option::as_deref) {
                        Some(brain) => self.fused_turn(id, plan, brain, events),
                        None => self.planned_turn(id, plan, events),
                    }
                }
                Some(plan) => self.planned_turn(id, plan, events),
                None => self.read_steps::<false>(id, events),
            }
        } else {
            self.calc_turn(id, events);
        }
    }

    /// A robot's turn under the TI-57 rule (its signal, if any, was handled before): the
    /// turn loop with the keywords, out of line so that the plain one stays as it was.
    #[cold]
    #[inline(never)]
    fn calc_turn(&mut self, id: RobotId, events: &mut impl Events) {
        self.read_steps::<true>(id, events);
    }

    /// A robot's turn in the quiet loop (`play::play_out`), its plan and brain at hand: its
    /// signal, or [`Turn::fused_turn`] (as [`Turn::robot_turn`] without a calculator).
    #[inline(always)]
    pub(crate) fn quiet_turn(&mut self, id: RobotId, plan: &Plan, brain: &Brain) {
        if let Some(step) = self.s.robots[id.index()].pending_signal.take() {
            self.signal_turn(id, step, &mut Unrecorded);
            return;
        }
        self.fused_turn(id, plan, brain, &mut Unrecorded);
    }

    /// The steps of one turn, read from the one after the pointer until an action, an empty
    /// or destroyed step, or the loop guard ends it. `TI57`: with the keywords of A.12 (and a
    /// calculator for every robot); without, the plain loop has no trace of them.
    #[inline(always)]
    pub(crate) fn read_steps<const TI57: bool>(&mut self, id: RobotId, events: &mut impl Events) {
        let name = self.s.robots[id.index()].name;
        // Stopped by `R/S`, the robot idles on (R-A29).
        if TI57 && self.s.memories.get(id.index()).is_some_and(|m| m.stopped) {
            events.push(Event::Idle {
                robot: name,
                step: self.s.robots[id.index()].pointer,
                reason: IdleReason::Stopped,
            });
            return;
        }
        let fixed = self.fixed;
        let len = fixed.programs[id.index()].len();
        // Past the end of the program the pointer stays where it is (R-A10).
        let mut at = self.s.robot(id).next_step(len);
        let mut controls = 0;
        let mut asked = Asked::default();
        loop {
            // Steps are at most 63 and `at` at most two past them (R-A10, MAX_PROGRAM_STEPS).
            let step = u8::try_from(at).expect("validated: at most 65");
            self.s.robots[id.index()].pointer = step;
            let Some(instruction) = fixed.instruction(id, at) else {
                events.push(Event::Idle {
                    robot: name,
                    step,
                    reason: IdleReason::EmptyStep,
                });
                return;
            };
            if self.s.robots[id.index()].is_destroyed(at) {
                events.push(Event::Idle {
                    robot: name,
                    step,
                    reason: IdleReason::DestroyedStep,
                });
                return;
            }
            // Without the rule, actions are anything but the three plain controls (setup
            // refuses a program with TI-57 keywords in a plain match).
            let action = if TI57 {
                instruction.is_action()
            } else {
                !matches!(
                    instruction,
                    Instruction::Test(_) | Instruction::Reset | Instruction::Go(_)
                )
            };
            if action {
                self.act(id, step, instruction, events);
                return;
            }
            // A control step: reading goes on, up to the loop guard (R-A11).
            controls += 1;
            if controls > len {
                events.push(Event::Stalled { robot: name, step });
                return;
            }
            match self.control::<TI57>(id, at, instruction, &mut asked, events) {
                Some(next) => at = next,
                None => return,
            }
        }
    }

    /// A control step read at `at`: its event, and the step read next (`None`: the turn ends
    /// here, by a TI-57 keyword).
    #[inline(always)]
    fn control<const TI57: bool>(
        &mut self,
        id: RobotId,
        at: usize,
        instruction: Instruction,
        asked: &mut Asked,
        events: &mut impl Events,
    ) -> Option<usize> {
        let name = self.s.robots[id.index()].name;
        let step = u8::try_from(at).expect("validated: at most 65");
        Some(match instruction {
            Instruction::Test(n) => {
                let slot = usize::from(n - 1) % 4;
                let answer = *asked.answers[slot]
                    .get_or_insert_with(|| self.ask(id, slot, &mut asked.sight));
                events.push(Event::Tested {
                    robot: name,
                    step,
                    test: n,
                    answer,
                });
                if answer { at + 1 } else { at + 2 }
            }
            Instruction::Reset => {
                events.push(Event::Reset { robot: name, step });
                // `RAZ` also forgets every remembered return (R-A25).
                if TI57 && let Some(m) = self.s.memories.get_mut(id.index()) {
                    m.depth = 0;
                }
                1
            }
            Instruction::Go(n) => {
                events.push(Event::Jumped {
                    robot: name,
                    step,
                    to: n,
                });
                usize::from(n)
            }
            Instruction::Calc(key) if TI57 => {
                // Memories may change: a test asked again reads them anew (R-A28).
                asked.answers = [None; 4];
                self.calc_control(id, step, key, events)?
            }
            _ => unreachable!("actions are handled above"),
        })
    }

    /// The steps of one turn as [`Turn::read_steps`] reads them, from the program's plan:
    /// only the tests not yet answered are asked, the other control steps are passed at once,
    /// and reading stops at a destroyed step (R-A9).
    #[inline(never)]
    fn planned_turn<E: Events>(&mut self, id: RobotId, plan: &Plan, events: &mut E) {
        let fixed = self.fixed;
        let robot = &self.s.robots[id.index()];
        let (name, destroyed) = (robot.name, robot.destroyed);
        let mut node = plan.next_turn(robot.pointer);
        let entries = fixed.tests.entries(id);
        let mut sight = Sight::default();
        let mut ask = query::ask(fixed, self.s, id, &mut sight);
        let (step, then) = loop {
            if node.reads & destroyed != 0 {
                // Reading stops at the first destroyed step (R-A9).
                let (stop, step) = plan.stop_in(node, destroyed);
                if E::RECORDS {
                    let trail = plan.trail(node);
                    passed(name, &trail[..stop.unwrap_or(trail.len())], events);
                }
                self.stop_at(id, step, Then::Empty, IdleReason::DestroyedStep, events);
                return;
            }
            if E::RECORDS {
                passed(name, plan.trail(node), events);
            }
            let Then::Ask { test, yes, no } = node.then else {
                break (node.step, node.then);
            };
            let entry = entries[usize::from(test.wrapping_sub(1)) % 4]
                .expect("checked at load: every used test is defined (R-A16)");
            let answer = ask.holds(&fixed.tests, entry);
            events.push(Event::Tested {
                robot: name,
                step: node.step,
                test,
                answer,
            });
            node = plan.node(if answer { yes } else { no });
        };
        self.stop_at(id, step, then, IdleReason::EmptyStep, events);
    }

    /// A turn as [`Turn::planned_turn`] plays it, for events nobody records: its questions
    /// walked from the brain (`brain.rs`), then the node that ends the turn, or the first
    /// destroyed step read on the way to it (R-A9). Inlined into the loop of turns.
    #[inline(always)]
    fn fused_turn(&mut self, id: RobotId, plan: &Plan, brain: &Brain, events: &mut impl Events) {
        let fixed = self.fixed;
        let robot = &self.s.robots[id.index()];
        let (start, destroyed) = (brain.start(robot.pointer), robot.destroyed);
        // Worked out first: most turns ask about robots near, and no question then checks
        // for it.
        let mut sight = Eager::new(&fixed.board, self.s, id);
        let end = query::ask(fixed, self.s, id, &mut sight).walk(&fixed.tests, brain.ops(), start);
        let node = plan.node(Brain::node(end));
        if let Some(step) = plan.destroyed_stop(node, destroyed) {
            // Reading stops at the first destroyed step (R-A9).
            self.stop_at(id, step, Then::Empty, IdleReason::DestroyedStep, events);
            return;
        }
        self.stop_at(id, node.step, node.then, IdleReason::EmptyStep, events);
    }

    /// The end of a planned turn at `step`: the pointer stays there, and the robot acts,
    /// idles (`Then::Empty`, for `why`) or stalls.
    #[inline(always)]
    fn stop_at(
        &mut self,
        id: RobotId,
        step: u8,
        then: Then,
        why: IdleReason,
        events: &mut impl Events,
    ) {
        let robot = &mut self.s.robots[id.index()];
        robot.pointer = step;
        let name = robot.name;
        match then {
            Then::Act(instruction) => self.act(id, step, instruction, events),
            Then::Empty => events.push(Event::Idle {
                robot: name,
                step,
                reason: why,
            }),
            Then::Stalled | Then::Ask { .. } => {
                events.push(Event::Stalled { robot: name, step });
            }
        }
    }

    /// Test `slot` (0–3) of the robot's program, asked now from its compiled form; `sight` is
    /// worked out at the first test of the turn.
    #[inline]
    fn ask(&self, id: RobotId, slot: usize, sight: &mut Sight) -> bool {
        let fixed = self.fixed;
        let entry = fixed
            .tests
            .entry(id, slot)
            .expect("checked at load: every used test is defined (R-A16)");
        query::ask(fixed, self.s, id, sight).holds(&fixed.tests, entry)
    }

    /// A turn that obeys a received signal: the named step instead of the program's, without
    /// moving the pointer; controls, destroyed and empty steps do nothing (R-A14).
    fn signal_turn(&mut self, id: RobotId, step: u8, events: &mut impl Events) {
        let name = self.s.robots[id.index()].name;
        let instruction = self.fixed.programs[id.index()].instruction(usize::from(step));
        match instruction {
            Some(i)
                if i.is_action() && !self.s.robots[id.index()].is_destroyed(usize::from(step)) =>
            {
                events.push(Event::SignalReceived {
                    robot: name,
                    step,
                    effect: SignalEffect::Executed,
                });
                self.act(id, step, i, events);
            }
            _ => events.push(Event::SignalReceived {
                robot: name,
                step,
                effect: SignalEffect::Nothing,
            }),
        }
    }
}

/// What a turn's control steps have asked. Nothing changes while plain control steps are
/// read, so a test asked again in the same turn has the same answer: each of the four is
/// worked out at most once a turn, from one sight.
#[derive(Default)]
struct Asked {
    answers: [Option<bool>; 4],
    sight: Sight,
}

/// The events of control steps a plan passes without asking anything.
fn passed(robot: RobotName, trail: &[Passed], events: &mut impl Events) {
    for p in trail {
        events.push(match *p {
            Passed::Tested { step, test, answer } => Event::Tested {
                robot,
                step,
                test,
                answer,
            },
            Passed::Reset { step } => Event::Reset { robot, step },
            Passed::Jumped { step, to } => Event::Jumped { robot, step, to },
        });
    }
}
