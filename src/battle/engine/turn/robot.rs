//! One robot's turn: reading steps (RULES A.4–A.6) and carrying out actions (A.5).

use super::plan::{Passed, Plan, Then, step_bit};
use crate::battle::board::CellId;
use crate::battle::engine::asking::query;
use crate::battle::engine::asking::sight::Sight;
use crate::battle::engine::event::{
    Cause, EndReason, Event, Events, IdleReason, Obstacle, SignalEffect,
};
use crate::battle::engine::play::Turn;
use crate::battle::engine::setup::Scenario;
use crate::battle::engine::state::RobotId;
use crate::battle::hex::Direction;
use crate::battle::lang::Instruction;
use crate::battle::terrain::Terrain;

impl Turn<'_> {
    pub(crate) fn robot_turn(&mut self, id: RobotId, events: &mut impl Events) {
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
            match self.fixed.plans.get(id.index()).and_then(Option::as_deref) {
                Some(plan) => self.planned_turn(id, plan, events),
                None => self.read_steps::<false>(id, events),
            }
        } else {
            self.calc_turn(id, events);
        }
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
        // Nothing changes while plain control steps are read, so a test asked again in the
        // same turn has the same answer: each of the four is worked out at most once a turn.
        let mut answers: [Option<bool>; 4] = [None; 4];
        let mut sight = Sight::default();
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
            at = match instruction {
                Instruction::Test(n) => {
                    let slot = usize::from(n - 1) % 4;
                    let answer =
                        *answers[slot].get_or_insert_with(|| self.ask(id, slot, &mut sight));
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
                    answers = [None; 4];
                    match self.calc_control(id, step, key, events) {
                        Some(next) => next,
                        None => return,
                    }
                }
                _ => unreachable!("actions are handled above"),
            };
        }
    }

    /// The steps of one turn as [`Turn::read_steps`] reads them, from the program's plan:
    /// only the tests not yet answered are asked, the other control steps are passed at once,
    /// and reading stops at a destroyed step (R-A9).
    fn planned_turn<E: Events>(&mut self, id: RobotId, plan: &Plan, events: &mut E) {
        let fixed = self.fixed;
        let name = self.s.robots[id.index()].name;
        let at = self.s.robot(id).next_step(fixed.programs[id.index()].len());
        let entries = fixed.tests.entries(id);
        let destroyed = self.s.robots[id.index()].destroyed;
        let mut sight = Sight::default();
        let mut ask = query::ask(fixed, self.s, id, &mut sight);
        let mut node = plan.start(at);
        let (step, then) = loop {
            if node.reads & destroyed != 0 {
                // Reading stops at the first destroyed step (R-A9).
                let trail = plan.trail(node);
                let stop = trail
                    .iter()
                    .position(|p| step_bit(p.step()) & destroyed != 0);
                if E::RECORDS {
                    passed(name, &trail[..stop.unwrap_or(trail.len())], events);
                }
                let step = stop.map_or(node.step, |i| trail[i].step());
                self.s.robots[id.index()].pointer = step;
                events.push(Event::Idle {
                    robot: name,
                    step,
                    reason: IdleReason::DestroyedStep,
                });
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
        self.s.robots[id.index()].pointer = step;
        match then {
            Then::Act(instruction) => self.act(id, step, instruction, events),
            Then::Empty => events.push(Event::Idle {
                robot: name,
                step,
                reason: IdleReason::EmptyStep,
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

    /// Carries out an action read at `step` (the step lightning would destroy, R-A4).
    pub(crate) fn act(
        &mut self,
        id: RobotId,
        step: u8,
        instruction: Instruction,
        events: &mut impl Events,
    ) {
        match instruction {
            Instruction::Move(n) => self.move_robot(id, step, n, events),
            Instruction::Rotate(n) => {
                let robot = &mut self.s.robots[id.index()];
                robot.facing = robot.facing.turned(i32::from(n));
                events.push(Event::Rotated {
                    robot: robot.name,
                    step,
                    facing: robot.facing,
                });
            }
            Instruction::Fire => self.fire(id, step, events),
            Instruction::SelfDestruct => self.self_destruct(id, step, events),
            Instruction::Calc(key) => self.calc_action(id, step, key, events),
            Instruction::Test(_) | Instruction::Reset | Instruction::Go(_) => {
                unreachable!("control steps are not actions")
            }
        }
    }

    /// `D±n`: the whole path is checked first; a blocked move is cancelled, never truncated
    /// (R-A2). Then hex by hex: off the board or into a lake ends the robot, also on the first
    /// hex of two (R-A3); lightning destroys the step being read, once (R-A4).
    fn move_robot(&mut self, id: RobotId, step: u8, n: i8, events: &mut impl Events) {
        let fixed = self.fixed;
        let board = &fixed.board;
        let robot = &self.s.robots[id.index()];
        let (name, team, from) = (robot.name, robot.team, robot.cell);
        let dir = if n > 0 {
            robot.facing
        } else {
            robot.facing.opposite()
        };
        let steps = usize::from(n.unsigned_abs());
        let path = match self.path(from, dir, steps) {
            Ok(path) => path,
            Err((c, by)) => {
                events.push(Event::Blocked {
                    robot: name,
                    step,
                    at: self.fixed.pos(c),
                    by,
                });
                return;
            }
        };
        // Where the robot stops: the end of the path, or the first hex that ends it.
        let mut stop = from;
        let mut ends = None;
        for hex in path.iter().take(steps) {
            match *hex {
                None => {
                    ends = Some(None);
                    break;
                }
                Some(c) => {
                    stop = c;
                    if self.fixed.terrain(c) == Terrain::Lake {
                        ends = Some(Some(c));
                        break;
                    }
                }
            }
        }
        if stop != from {
            events.push(Event::Moved {
                robot: name,
                step,
                from: self.fixed.pos(from),
                to: self.fixed.pos(stop),
            });
            self.s.occupant[from.index()] = None;
            self.s.occupant[stop.index()] = Some(id);
            self.s.robots[id.index()].cell = stop;
        }
        // What entering each hex did, in order. Entering an enemy camp wins scenario 2, but
        // the move is carried out to its end first (R-A19): the rest of the path, lightning,
        // a lake or the edge still act, and the final board shows it.
        let mut struck = false;
        let mut camp_entered = false;
        for &c in path.iter().take(steps).map_while(|h| h.as_ref()) {
            if self.fixed.terrain(c) == Terrain::Lightning && !struck {
                struck = true;
                self.s.robots[id.index()].destroyed |= 1 << step;
                events.push(Event::Lightning {
                    robot: name,
                    at: self.fixed.pos(c),
                    step,
                });
            }
            camp_entered |= self.fixed.scenario == Scenario::CampRaid
                && self.fixed.is_enemy_camp(team, board.cell(c).camp);
            if c == stop {
                break;
            }
        }
        match ends {
            Some(None) => {
                events.push(Event::FellOff {
                    robot: name,
                    from: self.fixed.pos(stop),
                });
                self.remove(id, events);
            }
            Some(Some(lake)) => {
                events.push(Event::Drowned {
                    robot: name,
                    at: self.fixed.pos(lake),
                });
                self.remove(id, events);
            }
            None => {}
        }
        if camp_entered {
            let winner = self.fixed.teams[team.index()];
            self.finish(Some(winner), EndReason::CampEntered, events);
        }
    }

    /// The hexes a move of `steps` enters (`None` past the edge), or the first hex on the way
    /// that blocks it (R-A2).
    fn path(
        &self,
        from: CellId,
        dir: Direction,
        steps: usize,
    ) -> Result<[Option<CellId>; 2], (CellId, Obstacle)> {
        let mut path = [None; 2];
        let mut cell = Some(from);
        for slot in path.iter_mut().take(steps) {
            cell = cell.and_then(|c| self.fixed.board.neighbour(c, dir));
            *slot = cell;
            let Some(c) = cell else { break };
            let obstacle = match (self.s.robot_at(c), self.fixed.terrain(c)) {
                (Some(other), _) => Some(Obstacle::Robot(self.s.robot(other).name)),
                (None, Terrain::Computer(_)) => Some(Obstacle::Computer),
                (None, Terrain::Shape(..)) if self.fixed.rules.shapes_block => {
                    Some(Obstacle::Shape)
                }
                _ => None,
            };
            if let Some(by) = obstacle {
                return Err((c, by));
            }
        }
        Ok(path)
    }

    /// `T`: range 2 along the facing; the first robot, computer or blocking shape stops the
    /// shot, lakes do not (R-A6). No shot left: nothing (R-A5).
    fn fire(&mut self, id: RobotId, step: u8, events: &mut impl Events) {
        let fixed = self.fixed;
        let board = &fixed.board;
        let robot = &mut self.s.robots[id.index()];
        let (name, team, facing, from) = (robot.name, robot.team, robot.facing, robot.cell);
        if robot.shots == 0 {
            events.push(Event::OutOfShots { robot: name, step });
            return;
        }
        robot.shots -= 1;
        events.push(Event::Fired {
            robot: name,
            step,
            facing,
            shots_left: robot.shots,
        });
        let mut cell = from;
        for distance in 1..=2u8 {
            let Some(c) = board.neighbour(cell, facing) else {
                return;
            };
            cell = c;
            if let Some(target) = self.s.robot_at(c) {
                let target_name = self.s.robots[target.index()].name;
                events.push(Event::Hit {
                    robot: target_name,
                    by: name,
                    distance,
                });
                if distance == 1 {
                    events.push(Event::Destroyed {
                        robot: target_name,
                        cause: Cause::Shot(name),
                    });
                    self.remove(target, events);
                } else {
                    self.lose_step(target, Cause::Shot(name), events);
                }
                return;
            }
            match self.fixed.terrain(c) {
                Terrain::Computer(camp) => {
                    // Scenario 3 is won from inside that enemy camp (R-A17).
                    let counts = self.fixed.scenario == Scenario::ComputerStrike
                        && self.fixed.is_enemy_camp(team, Some(camp))
                        && board.cell(from).camp == Some(camp);
                    events.push(Event::ComputerHit {
                        camp,
                        by: name,
                        counts,
                    });
                    if counts {
                        let winner = self.fixed.teams[team.index()];
                        self.finish(Some(winner), EndReason::ComputerDestroyed, events);
                    }
                    return;
                }
                Terrain::Shape(..) if self.fixed.rules.shapes_block => return,
                _ => {}
            }
        }
    }

    /// `*`: robots at distance 1 are destroyed, at distance 2 lose a step; nothing shields
    /// an explosion (R-A7).
    fn self_destruct(&mut self, id: RobotId, step: u8, events: &mut impl Events) {
        let fixed = self.fixed;
        let board = &fixed.board;
        let robot = &self.s.robots[id.index()];
        let (name, centre) = (robot.name, board.hex(robot.cell));
        events.push(Event::Exploded {
            robot: name,
            step,
            at: self.fixed.pos(robot.cell),
        });
        self.remove(id, events);
        for other in (0..self.s.robots.len()).map(RobotId::at) {
            let r = self.s.robot(other);
            if !r.alive {
                continue;
            }
            match centre.distance(board.hex(r.cell)) {
                1 => {
                    events.push(Event::Destroyed {
                        robot: r.name,
                        cause: Cause::Explosion(name),
                    });
                    self.remove(other, events);
                }
                2 => self.lose_step(other, Cause::Explosion(name), events),
                _ => {}
            }
        }
    }

    /// The step under the pointer is destroyed (R-A8); on the start box or past the end of
    /// the program there is nothing to lose.
    fn lose_step(&mut self, id: RobotId, cause: Cause, events: &mut impl Events) {
        let len = self.fixed.programs[id.index()].len();
        let robot = &mut self.s.robots[id.index()];
        let step = robot.pointer;
        if step == 0 || usize::from(step) > len {
            return;
        }
        robot.destroyed |= 1 << step;
        events.push(Event::StepLost {
            robot: robot.name,
            step,
            cause,
        });
    }

    /// Takes a robot off the board; a signal waiting for it is lost (RULES A.8).
    fn remove(&mut self, id: RobotId, events: &mut impl Events) {
        self.removed = true;
        let robot = &mut self.s.robots[id.index()];
        if robot.alive {
            self.s.teams[robot.team.index()].alive -= 1;
        }
        robot.alive = false;
        if self.s.occupant[robot.cell.index()] == Some(id) {
            self.s.occupant[robot.cell.index()] = None;
        }
        if robot.pending_signal.take().is_some() {
            events.push(Event::SignalLost { robot: robot.name });
        }
    }
}

/// The events of control steps a plan passes without asking anything.
fn passed(
    robot: crate::battle::engine::event::RobotName,
    trail: &[Passed],
    events: &mut impl Events,
) {
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
