//! Carrying out a robot's action (RULES A.5): moves (R-A2, R-A3, lightning R-A4), shots
//! (R-A5, R-A6), explosions (R-A7) and the steps they destroy (R-A8).

use super::ongoing::Turn;
use crate::battle::board::CellId;
use crate::battle::engine::event::{Cause, EndReason, Event, Events, Obstacle};
use crate::battle::engine::fixed::Entry;
use crate::battle::engine::setup::Scenario;
use crate::battle::engine::state::{RobotId, TeamId};
use crate::battle::hex::Direction;
use crate::battle::lang::Instruction;
use crate::battle::terrain::Terrain;

impl Turn<'_> {
    /// Carries out an action read at `step` (the step lightning would destroy, R-A4). Inlined
    /// into the loops of turns: no call a turn (callgrind).
    #[inline(always)]
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
    /// hex of two (R-A3); lightning destroys the step being read, once (R-A4). The path is
    /// walked once; what its hexes do is read from the hexes found.
    #[inline(always)]
    fn move_robot(&mut self, id: RobotId, step: u8, n: i8, events: &mut impl Events) {
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
        let Walked {
            stop,
            ends,
            struck,
            camp_entered,
        } = self.walked(team, from, &path, steps);
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
        if let Some(c) = struck {
            self.s.robots[id.index()].destroyed |= 1 << step;
            events.push(Event::Lightning {
                robot: name,
                at: self.fixed.pos(c),
                step,
            });
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

    /// What the hexes of a path (its first `steps`) did, hex by hex up to the one that ends
    /// the move: see [`Walked`].
    #[inline(always)]
    fn walked(
        &self,
        team: TeamId,
        from: CellId,
        path: &[Option<CellId>; 2],
        steps: usize,
    ) -> Walked {
        let fixed = self.fixed;
        let mut walked = Walked {
            stop: from,
            ends: None,
            struck: None,
            camp_entered: false,
        };
        for hex in path.iter().take(steps) {
            let Some(c) = *hex else {
                walked.ends = Some(None);
                break;
            };
            walked.stop = c;
            let entry = fixed.entry(c);
            if entry.has(Entry::LIGHTNING) && walked.struck.is_none() {
                walked.struck = Some(c);
            }
            walked.camp_entered |= fixed.scenario == Scenario::CampRaid
                && fixed.is_enemy_camp(team, fixed.board.cell(c).camp);
            if entry.has(Entry::LAKE) {
                walked.ends = Some(Some(c));
                break;
            }
        }
        walked
    }

    /// The hexes a move of `steps` enters (`None` past the edge), or the first hex on the way
    /// that blocks it (R-A2).
    #[inline(always)]
    fn path(
        &self,
        from: CellId,
        dir: Direction,
        steps: usize,
    ) -> Result<[Option<CellId>; 2], (CellId, Obstacle)> {
        let mut path = [None; 2];
        let mut cell = from;
        for slot in path.iter_mut().take(steps) {
            let Some(c) = self.fixed.board.neighbour(cell, dir) else {
                break;
            };
            *slot = Some(c);
            cell = c;
            if let Some(other) = self.s.robot_at(c) {
                return Err((c, Obstacle::Robot(self.s.robot(other).name)));
            }
            // Only a computer or a shape blocks (`Entry::BLOCKS`).
            if self.fixed.entry(c).has(Entry::BLOCKS) {
                let by = match self.fixed.terrain(c) {
                    Terrain::Computer(_) => Obstacle::Computer,
                    _ => Obstacle::Shape,
                };
                return Err((c, by));
            }
        }
        Ok(path)
    }

    /// `T`: range 2 along the facing; the first robot, computer or blocking shape stops the
    /// shot, lakes do not (R-A6). No shot left: nothing (R-A5).
    #[inline(always)]
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
}

/// What a move's path did ([`Turn::walked`]): where the robot stops (the end of the path, or
/// the first hex that ends it), what ended it (`Some(None)`: the edge; `Some(Some(lake))`),
/// the first lightning hex entered, and whether an enemy camp was entered. Entering one wins
/// scenario 2, but the move is carried out to its end first (R-A19): the rest of the path,
/// lightning, a lake or the edge still act, and the final board shows it.
struct Walked {
    stop: CellId,
    ends: Option<Option<CellId>>,
    struck: Option<CellId>,
    camp_entered: bool,
}
