//! The JSON documents of the hex game (docs/FORMATS.md): explicit output types, built from
//! the engine's states and events, so the engine's own types carry no serialisation. One
//! spelling everywhere: codes are snake_case, robots are written `green.1`, hexes `[col, row]`.

use crate::battle::engine::{
    CalcEffect, Cause, EndReason, Event, Match, Obstacle, Outcome, Pos, RobotName, SignalEffect,
};
use crate::battle::lang::MemoryOp;
use serde::Serialize;
use std::collections::BTreeMap;

/// The version of the documents below; it changes when a field changes meaning or goes.
pub const FORMAT_VERSION: u32 = 1;

/// `robots run --json`: how a match ended.
#[derive(Clone, Debug, Serialize)]
pub struct ResultDoc {
    pub format_version: u32,
    /// The winning team's colour, or null for a draw.
    pub winner: Option<String>,
    /// Why the match ended, as a code (`last_team_standing`, `round_limit`, …).
    pub reason: &'static str,
    /// The same in words: `green wins (last team standing)`.
    pub verdict: String,
    pub rounds: u32,
    /// The robots left per team, by colour.
    pub survivors: BTreeMap<String, Vec<String>>,
    pub seed: u64,
}

impl ResultDoc {
    pub fn new(game: &Match, outcome: &Outcome) -> ResultDoc {
        ResultDoc {
            format_version: FORMAT_VERSION,
            winner: outcome.winner.map(|w| w.to_string()),
            reason: reason_code(outcome.reason),
            verdict: outcome.verdict(),
            rounds: outcome.rounds,
            survivors: game
                .survivors()
                .into_iter()
                .map(|(colour, names)| {
                    (
                        colour.to_string(),
                        names.iter().map(ToString::to_string).collect(),
                    )
                })
                .collect(),
            seed: game.seed(),
        }
    }
}

/// One event: `event` is its code; the other fields are those that apply to it.
#[derive(Clone, Debug, Default, Serialize)]
pub struct EventDoc {
    pub event: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub robot: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub test: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<[u16; 2]>,
    /// The step a `GO` jumps to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_step: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<[u16; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<[u16; 2]>,
    /// A robot (`green.1`), or `shape` or `computer` for what blocked a move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    /// A direction number, 1 to 6 (R-A1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub facing: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shots_left: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub camp: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counts: Option<bool>,
    /// `shot` or `explosion`, with `by`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cause: Option<&'static str>,
    /// `executed` or `nothing` (R-A14).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effect: Option<&'static str>,
    /// An idle turn's `destroyed_step` or `empty_step`; the end's reason code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
    /// A TI-57 keyword's effect (`calc` events, RULES A.12): `label`, `nop`, `goto`, `call`,
    /// `return`, `number`, `sensed`, `memory`, `swap_xt`, `clear_t`, `clear_all`, `x_test`,
    /// `dsz`, `pause`, `stop`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub calc: Option<&'static str>,
    /// The calculator keys of a `memory` or `x_test` effect: `STO`, `INV PRD`, `x>=t`, ….
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keys: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<u8>,
    /// The register n of Rn (0 to 7).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub register: Option<u8>,
    /// The memory a step wrote: x, or Rn (R0 for `dsz`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r: Option<i32>,
    /// Whether a `dsz` skips the next step.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skips: Option<bool>,
}

/// The document of a `calc` event (RULES A.12).
fn calc_doc(step: u8, effect: CalcEffect, base: EventDoc) -> EventDoc {
    let doc = EventDoc {
        step: Some(step),
        calc: Some(effect.code()),
        ..base
    };
    match effect {
        CalcEffect::Label(n) => EventDoc {
            label: Some(n),
            ..doc
        },
        CalcEffect::Goto { label, to } | CalcEffect::Call { label, to } => EventDoc {
            label: Some(label),
            to_step: Some(to),
            ..doc
        },
        CalcEffect::Return { to } => EventDoc {
            to_step: Some(to),
            ..doc
        },
        CalcEffect::Number { x } | CalcEffect::Sensed { x } => EventDoc { x: Some(x), ..doc },
        CalcEffect::Memory {
            op,
            register,
            value,
        } => {
            let in_x = matches!(op, MemoryOp::Recall | MemoryOp::Exchange);
            EventDoc {
                keys: Some(op.keys()),
                register: Some(register),
                x: in_x.then_some(value),
                r: (!in_x).then_some(value),
                ..doc
            }
        }
        CalcEffect::DivisionByZero { register, r } => EventDoc {
            keys: Some("INV PRD"),
            register: Some(register),
            r: Some(r),
            ..doc
        },
        CalcEffect::SwapXt { x } => EventDoc { x: Some(x), ..doc },
        CalcEffect::Test { test, answer } => EventDoc {
            keys: Some(test.keys()),
            answer: Some(answer),
            ..doc
        },
        CalcEffect::Dsz { inverse, r0, skips } => EventDoc {
            keys: Some(if inverse { "INV DSZ" } else { "DSZ" }),
            r: Some(r0),
            skips: Some(skips),
            ..doc
        },
        CalcEffect::Nop
        | CalcEffect::ClearT
        | CalcEffect::ClearAll
        | CalcEffect::Pause
        | CalcEffect::Stop => doc,
    }
}

fn pos(p: Pos) -> [u16; 2] {
    [p.0, p.1]
}

fn name(r: RobotName) -> Option<String> {
    Some(r.to_string())
}

/// The code of an end reason.
pub fn reason_code(reason: EndReason) -> &'static str {
    match reason {
        EndReason::LastTeamStanding => "last_team_standing",
        EndReason::AllDestroyed => "all_destroyed",
        EndReason::CampEntered => "camp_entered",
        EndReason::ComputerDestroyed => "computer_destroyed",
        EndReason::RoundLimit => "round_limit",
    }
}

/// The end reason of a code (`last_team_standing`, …), for documents read back.
pub fn reason_from_code(code: &str) -> Option<EndReason> {
    [
        EndReason::LastTeamStanding,
        EndReason::AllDestroyed,
        EndReason::CampEntered,
        EndReason::ComputerDestroyed,
        EndReason::RoundLimit,
    ]
    .into_iter()
    .find(|r| reason_code(*r) == code)
}

fn cause(c: Cause) -> (Option<&'static str>, Option<String>) {
    match c {
        Cause::Shot(by) => (Some("shot"), name(by)),
        Cause::Explosion(by) => (Some("explosion"), name(by)),
    }
}

impl EventDoc {
    /// The document of one event.
    pub fn new(e: &Event) -> EventDoc {
        let robot = e.robot().map(|r| r.to_string());
        let base = |event| EventDoc {
            event,
            robot: robot.clone(),
            ..EventDoc::default()
        };
        match *e {
            Event::Turn { round, .. } => EventDoc {
                round: Some(round),
                ..base("turn")
            },
            Event::Tested {
                step, test, answer, ..
            } => EventDoc {
                step: Some(step),
                test: Some(test),
                answer: Some(answer),
                ..base("tested")
            },
            Event::Reset { step, .. } => EventDoc {
                step: Some(step),
                ..base("reset")
            },
            Event::Jumped { step, to, .. } => EventDoc {
                step: Some(step),
                to_step: Some(to),
                ..base("jumped")
            },
            Event::Moved { step, from, to, .. } => EventDoc {
                step: Some(step),
                from: Some(pos(from)),
                to: Some(pos(to)),
                ..base("moved")
            },
            Event::Blocked { step, at, by, .. } => EventDoc {
                step: Some(step),
                at: Some(pos(at)),
                by: match by {
                    Obstacle::Robot(r) => name(r),
                    Obstacle::Shape => Some("shape".into()),
                    Obstacle::Computer => Some("computer".into()),
                },
                ..base("blocked")
            },
            _ => EventDoc::more(e, base),
        }
    }

    /// The events after the first few (split to keep each function short).
    fn more(e: &Event, base: impl Fn(&'static str) -> EventDoc) -> EventDoc {
        match *e {
            Event::Rotated { step, facing, .. } => EventDoc {
                step: Some(step),
                facing: Some(facing.number()),
                ..base("rotated")
            },
            Event::Fired {
                step,
                facing,
                shots_left,
                ..
            } => EventDoc {
                step: Some(step),
                facing: Some(facing.number()),
                shots_left: Some(shots_left),
                ..base("fired")
            },
            Event::OutOfShots { step, .. } => EventDoc {
                step: Some(step),
                ..base("out_of_shots")
            },
            Event::Hit { by, distance, .. } => EventDoc {
                by: name(by),
                distance: Some(distance),
                ..base("hit")
            },
            Event::ComputerHit { camp, by, counts } => EventDoc {
                camp: Some(camp.to_string()),
                by: name(by),
                counts: Some(counts),
                ..base("computer_hit")
            },
            Event::Exploded { step, at, .. } => EventDoc {
                step: Some(step),
                at: Some(pos(at)),
                ..base("exploded")
            },
            Event::Destroyed { cause: c, .. } => {
                let (cause, by) = cause(c);
                EventDoc {
                    cause,
                    by,
                    ..base("destroyed")
                }
            }
            Event::StepLost { step, cause: c, .. } => {
                let (cause, by) = cause(c);
                EventDoc {
                    step: Some(step),
                    cause,
                    by,
                    ..base("step_lost")
                }
            }
            _ => EventDoc::rest(e, base),
        }
    }

    fn rest(e: &Event, base: impl Fn(&'static str) -> EventDoc) -> EventDoc {
        match *e {
            Event::Drowned { at, .. } => EventDoc {
                at: Some(pos(at)),
                ..base("drowned")
            },
            Event::FellOff { from, .. } => EventDoc {
                from: Some(pos(from)),
                ..base("fell_off")
            },
            Event::Lightning { at, step, .. } => EventDoc {
                at: Some(pos(at)),
                step: Some(step),
                ..base("lightning")
            },
            Event::SignalSent { why, .. } => EventDoc {
                reason: Some(why.code()),
                ..base("signal_sent")
            },
            Event::SignalReceived { step, effect, .. } => EventDoc {
                step: Some(step),
                effect: Some(match effect {
                    SignalEffect::Executed => "executed",
                    SignalEffect::Nothing => "nothing",
                }),
                ..base("signal_received")
            },
            Event::SignalLost { .. } => base("signal_lost"),
            Event::Stalled { step, .. } => EventDoc {
                step: Some(step),
                ..base("stalled")
            },
            Event::Idle { step, reason, .. } => EventDoc {
                step: Some(step),
                reason: Some(reason.code()),
                ..base("idle")
            },
            Event::Calc { step, effect, .. } => calc_doc(step, effect, base("calc")),
            Event::End {
                round,
                winner,
                reason,
            } => EventDoc {
                round: Some(round),
                winner: winner.map(|w| w.to_string()),
                reason: Some(reason_code(reason)),
                ..base("end")
            },
            _ => unreachable!("the other events are handled in `new` and `more`"),
        }
    }
}
