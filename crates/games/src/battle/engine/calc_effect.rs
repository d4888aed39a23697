//! What a TI-57 keyword did (RULES A.12), as events report it.

use crate::battle::lang::{MemoryOp, XtTest};
use std::fmt;

/// What a TI-57 keyword did (RULES A.12). Values are the memories after the step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CalcEffect {
    /// `LBL n`: nothing (R-A24).
    Label(u8),
    /// `NOP`: nothing (R-A29).
    Nop,
    /// `GTO label`: reading goes on at step `to` (R-A24).
    Goto { label: u8, to: u8 },
    /// `SBR label`: the next step is remembered, reading goes on at step `to` (R-A25).
    Call { label: u8, to: u8 },
    /// `INV SBR`: back to the step remembered last (R-A25).
    Return { to: u8 },
    /// A number written as a step, now in x (R-A26).
    Number { x: i32 },
    /// `x = TERM`: the term's value, now in x (R-A27).
    Sensed { x: i32 },
    /// `STO`, `RCL`, `SUM`, `PRD`, `EXC` and their `INV` forms on Rn (R-A26): `value` is
    /// the memory the key wrote, Rn (x for `RCL` and `EXC`, whose Rn takes the old x). One
    /// value, so that an event stays 12 bytes and the plain language does not pay for these.
    Memory {
        op: MemoryOp,
        register: u8,
        value: i32,
    },
    /// `INV PRD n` with x = 0: Rn is left as it is (R-A26).
    DivisionByZero { register: u8, r: i32 },
    /// `x<>t`: the new x; t takes the old x (R-A26).
    SwapXt { x: i32 },
    /// `C.t`: t is 0 (R-A26).
    ClearT,
    /// `INV C.t`: every memory is 0 (R-A26).
    ClearAll,
    /// `x=t`, `x>=t` and their `INV` forms: yes reads the next step, no skips it (R-A28).
    Test { test: XtTest, answer: bool },
    /// `DSZ` / `INV DSZ`: R0 after, and whether the next step is skipped (R-A28).
    Dsz { inverse: bool, r0: i32, skips: bool },
    /// `PAUSE`: the robot waits this turn (R-A29).
    Pause,
    /// `R/S`: the program stops (R-A29).
    Stop,
}

impl CalcEffect {
    /// The effect as a code, for JSON and the viewer.
    pub fn code(self) -> &'static str {
        match self {
            CalcEffect::Label(_) => "label",
            CalcEffect::Nop => "nop",
            CalcEffect::Goto { .. } => "goto",
            CalcEffect::Call { .. } => "call",
            CalcEffect::Return { .. } => "return",
            CalcEffect::Number { .. } => "number",
            CalcEffect::Sensed { .. } => "sensed",
            CalcEffect::Memory { .. } => "memory",
            CalcEffect::DivisionByZero { .. } => "division_by_zero",
            CalcEffect::SwapXt { .. } => "swap_xt",
            CalcEffect::ClearT => "clear_t",
            CalcEffect::ClearAll => "clear_all",
            CalcEffect::Test { .. } => "x_test",
            CalcEffect::Dsz { .. } => "dsz",
            CalcEffect::Pause => "pause",
            CalcEffect::Stop => "stop",
        }
    }
}

impl fmt::Display for CalcEffect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            CalcEffect::Label(n) => write!(f, "LBL {n}, nothing to do"),
            CalcEffect::Nop => f.write_str("NOP, nothing to do"),
            CalcEffect::Goto { label, to } => write!(f, "GTO {label}, on to step {to}"),
            CalcEffect::Call { label, to } => write!(f, "SBR {label}, on to step {to}"),
            CalcEffect::Return { to } => write!(f, "INV SBR, back to step {to}"),
            CalcEffect::Number { x } => write!(f, "{x} into x"),
            CalcEffect::Sensed { x } => write!(f, "senses x = {x}"),
            CalcEffect::DivisionByZero { register, r } => write!(
                f,
                "INV PRD {register}: division by zero, R{register} stays {r}"
            ),
            CalcEffect::Memory {
                op,
                register,
                value,
            } => match op {
                MemoryOp::Recall => write!(f, "RCL {register}, x = {value}"),
                MemoryOp::Exchange => {
                    write!(
                        f,
                        "EXC {register}, x = {value}, R{register} takes the old x"
                    )
                }
                _ => write!(f, "{} {register}, R{register} = {value}", op.keys()),
            },
            CalcEffect::SwapXt { x } => write!(f, "x<>t, x = {x}, t takes the old x"),
            CalcEffect::ClearT => f.write_str("C.t, t = 0"),
            CalcEffect::ClearAll => f.write_str("INV C.t, every memory is 0"),
            CalcEffect::Test { test, answer } => write!(
                f,
                "{} is {}",
                test.keys(),
                if answer {
                    "yes"
                } else {
                    "no, skips the next step"
                }
            ),
            CalcEffect::Dsz { inverse, r0, skips } => write!(
                f,
                "{}, R0 = {r0}, {}",
                if inverse { "INV DSZ" } else { "DSZ" },
                if skips {
                    "skips the next step"
                } else {
                    "reads the next step"
                }
            ),
            CalcEffect::Pause => f.write_str("PAUSE, waits"),
            CalcEffect::Stop => f.write_str("R/S, the program stops"),
        }
    }
}
