//! The TI-57 keywords in a robot's turn (RULES A.12): labels and jumps (R-A24), subroutines
//! (R-A25), memories (R-A26), sensing into x (R-A27), tests (R-A28), pauses and stops (R-A29).

use super::ongoing::Turn;
use crate::battle::engine::asking::query;
use crate::battle::engine::calc_effect::CalcEffect;
use crate::battle::engine::event::{Event, Events, IdleReason};
use crate::battle::engine::state::{Memories, RobotId};
use crate::battle::lang::{Key, MemoryOp, Program};

/// A value sensed or computed, held in an `i32` memory: saturated (RULES A.12).
fn saturate(v: i64) -> i32 {
    i32::try_from(v).unwrap_or(if v < 0 { i32::MIN } else { i32::MAX })
}

impl Turn<'_> {
    /// A TI-57 control step read at `step`: its effect, and the step read next, or `None`
    /// when the turn ends here (a refused `SBR`, an `INV SBR` with nothing to go back to).
    pub(crate) fn calc_control(
        &mut self,
        id: RobotId,
        step: u8,
        key: Key,
        events: &mut impl Events,
    ) -> Option<usize> {
        let fixed = self.fixed;
        let program = &fixed.programs[id.index()];
        let robot = self.s.robots[id.index()].name;
        let at = usize::from(step);
        // Sensing reads the board before the memories are borrowed.
        let sensed = match key {
            Key::Sense(i) => program
                .calc
                .senses
                .get(usize::from(i))
                .map(|(q, _)| saturate(query::measure(fixed, self.s, id, q))),
            _ => None,
        };
        let Some(m) = self.s.memories.get_mut(id.index()) else {
            // Setup refuses a TI-57 program without the rule: there is always a calculator.
            events.push(Event::Calc {
                robot,
                step,
                effect: CalcEffect::Nop,
            });
            return Some(at + 1);
        };
        let (effect, next) = match key {
            Key::Label(n) => (CalcEffect::Label(n), at + 1),
            Key::Nop => (CalcEffect::Nop, at + 1),
            Key::Goto(_) | Key::Call(_) | Key::Return => match jump(m, key, step, program) {
                Ok(done) => done,
                Err(reason) => {
                    events.push(Event::Idle {
                        robot,
                        step,
                        reason,
                    });
                    return None;
                }
            },
            Key::Number(_)
            | Key::Sense(_)
            | Key::Memory(..)
            | Key::SwapXt
            | Key::ClearT
            | Key::ClearAll => (store(m, key, program, sensed), at + 1),
            Key::Test(test) => {
                let answer = test.holds(m.x, m.t);
                let next = if answer { at + 1 } else { at + 2 };
                (CalcEffect::Test { test, answer }, next)
            }
            Key::Dsz { inverse } => {
                m.r[0] -= m.r[0].signum();
                let skips = (m.r[0] == 0) != inverse;
                let next = if skips { at + 2 } else { at + 1 };
                let r0 = m.r[0];
                (CalcEffect::Dsz { inverse, r0, skips }, next)
            }
            Key::Pause | Key::Stop => unreachable!("PAUSE and R/S are actions"),
        };
        events.push(Event::Calc {
            robot,
            step,
            effect,
        });
        Some(next)
    }

    /// `PAUSE` and `R/S`, the two TI-57 actions (R-A29).
    #[cold]
    #[inline(never)]
    pub(crate) fn calc_action(
        &mut self,
        id: RobotId,
        step: u8,
        key: Key,
        events: &mut impl Events,
    ) {
        let robot = self.s.robots[id.index()].name;
        let effect = if key == Key::Stop {
            if let Some(m) = self.s.memories.get_mut(id.index()) {
                m.stopped = true;
            }
            CalcEffect::Stop
        } else {
            CalcEffect::Pause
        };
        events.push(Event::Calc {
            robot,
            step,
            effect,
        });
    }
}

/// `GTO`, `SBR` and `INV SBR` read at `step` (R-A24, R-A25): what they did and the step
/// read next, or why the turn ends here.
fn jump(
    m: &mut Memories,
    key: Key,
    step: u8,
    program: &Program,
) -> Result<(CalcEffect, usize), IdleReason> {
    let label_step = |n: u8| usize::from(program.calc.labels[usize::from(n) % 10].unwrap_or(step));
    Ok(match key {
        Key::Goto(label) => {
            let to = label_step(label) + 1;
            (
                CalcEffect::Goto {
                    label,
                    to: byte(to),
                },
                to,
            )
        }
        Key::Call(label) => {
            let depth = usize::from(m.depth);
            if depth >= Memories::MAX_RETURNS {
                return Err(IdleReason::ReturnsFull);
            }
            m.returns[depth] = byte(usize::from(step) + 1);
            m.depth += 1;
            let to = label_step(label) + 1;
            (
                CalcEffect::Call {
                    label,
                    to: byte(to),
                },
                to,
            )
        }
        _ => {
            if m.depth == 0 {
                return Err(IdleReason::NoReturn);
            }
            m.depth -= 1;
            let to = m.returns[usize::from(m.depth)];
            (CalcEffect::Return { to }, usize::from(to))
        }
    })
}

/// The keywords that write memories (R-A26, R-A27): what they did.
fn store(m: &mut Memories, key: Key, program: &Program, sensed: Option<i32>) -> CalcEffect {
    match key {
        Key::Number(i) => {
            m.x = program
                .calc
                .numbers
                .get(usize::from(i))
                .copied()
                .unwrap_or(0);
            CalcEffect::Number { x: m.x }
        }
        Key::Sense(_) => {
            m.x = sensed.unwrap_or(0);
            CalcEffect::Sensed { x: m.x }
        }
        Key::Memory(op, register) => memory(m, op, register),
        Key::SwapXt => {
            std::mem::swap(&mut m.x, &mut m.t);
            CalcEffect::SwapXt { x: m.x }
        }
        Key::ClearT => {
            m.t = 0;
            CalcEffect::ClearT
        }
        _ => {
            (m.x, m.t, m.r) = (0, 0, [0; 8]);
            CalcEffect::ClearAll
        }
    }
}

/// A step number (at most 64: programs have at most 63 steps).
fn byte(step: usize) -> u8 {
    u8::try_from(step).unwrap_or(u8::MAX)
}

/// `STO`, `RCL`, `SUM`, `PRD`, `EXC` and the `INV` forms on register `n` (R-A26).
fn memory(m: &mut Memories, op: MemoryOp, n: u8) -> CalcEffect {
    let i = usize::from(n) % 8;
    let r = &mut m.r[i];
    match op {
        MemoryOp::Store => *r = m.x,
        MemoryOp::Recall => m.x = *r,
        MemoryOp::Add => *r = r.saturating_add(m.x),
        MemoryOp::Subtract => *r = r.saturating_sub(m.x),
        MemoryOp::Multiply => *r = r.saturating_mul(m.x),
        // Rounded toward zero; by zero, Rn is left as it is.
        MemoryOp::Divide if m.x != 0 => *r = r.checked_div(m.x).unwrap_or(i32::MAX),
        MemoryOp::Divide => {
            return CalcEffect::DivisionByZero { register: n, r: *r };
        }
        MemoryOp::Exchange => std::mem::swap(r, &mut m.x),
    }
    let value = match op {
        MemoryOp::Recall | MemoryOp::Exchange => m.x,
        _ => m.r[i],
    };
    CalcEffect::Memory {
        op,
        register: n,
        value,
    }
}
