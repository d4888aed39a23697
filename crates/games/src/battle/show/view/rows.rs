//! A turn's events as the document's rows, `[code, robot or null, fields…]` (the module's
//! documentation lists them): serialised field by field, no JSON value built (issue 50).

use crate::battle::engine::{
    CalcEffect, Cause, Event, Match, Obstacle, Pos, RobotId, SignalEffect,
};
use crate::battle::show::report::reason_code;
use crate::battle::terrain::TeamColour;
use serde::ser::{Serialize, SerializeSeq, Serializer};

/// One event of a frame, with the robots it names found by their index in the document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventRow {
    event: Event,
    /// The robot the event is about (null when none, or not in the match).
    robot: Option<usize>,
    /// The other robot it names: the one that blocks, shoots or explodes.
    by: Option<usize>,
}

impl EventRow {
    /// `event` of `game`, its robots named by index.
    pub fn new(game: &Match, event: &Event) -> EventRow {
        let index = |name| game.robot_by_name(name).map(RobotId::index);
        let by = match *event {
            Event::Blocked {
                by: Obstacle::Robot(r),
                ..
            } => index(r),
            Event::Hit { by, .. } | Event::ComputerHit { by, .. } => index(by),
            Event::Destroyed { cause, .. } | Event::StepLost { cause, .. } => match cause {
                Cause::Shot(by) | Cause::Explosion(by) => index(by),
            },
            _ => None,
        };
        EventRow {
            event: event.clone(),
            robot: event.robot().and_then(index),
            by,
        }
    }

    /// The row's code and fields after the robot (at most three).
    fn fields(&self) -> (&'static str, [Field; 3]) {
        use Field::{Hex, N, No, Robot, S};
        let by = Robot(self.by);
        match self.event {
            Event::Turn { round, .. } => ("turn", [N(round.into()), No, No]),
            Event::Tested {
                step, test, answer, ..
            } => ("tested", [N(step.into()), N(test.into()), N(answer.into())]),
            Event::Reset { step, .. } => ("reset", [N(step.into()), No, No]),
            Event::Jumped { step, to, .. } => ("jumped", [N(step.into()), N(to.into()), No]),
            Event::Moved { step, from, to, .. } => ("moved", [N(step.into()), Hex(from), Hex(to)]),
            Event::Blocked {
                step, at, by: b, ..
            } => {
                let b = match b {
                    Obstacle::Robot(_) => by,
                    Obstacle::Shape => S("shape"),
                    Obstacle::Computer => S("computer"),
                };
                ("blocked", [N(step.into()), Hex(at), b])
            }
            Event::Rotated { step, facing, .. } => {
                ("rotated", [N(step.into()), N(facing.number().into()), No])
            }
            Event::Fired {
                step,
                facing,
                shots_left,
                ..
            } => (
                "fired",
                [
                    N(step.into()),
                    N(facing.number().into()),
                    N(shots_left.into()),
                ],
            ),
            Event::OutOfShots { step, .. } => ("out_of_shots", [N(step.into()), No, No]),
            Event::Hit { distance, .. } => ("hit", [by, N(distance.into()), No]),
            Event::ComputerHit { camp, counts, .. } => {
                ("computer_hit", [by, S(camp.name()), N(counts.into())])
            }
            _ => self.consequence(by),
        }
    }

    fn consequence(&self, by: Field) -> (&'static str, [Field; 3]) {
        use Field::{Hex, N, No, S};
        let cause = |c| match c {
            Cause::Shot(_) => S("shot"),
            Cause::Explosion(_) => S("explosion"),
        };
        match self.event {
            Event::Exploded { step, at, .. } => ("exploded", [N(step.into()), Hex(at), No]),
            Event::Destroyed { cause: c, .. } => ("destroyed", [cause(c), by, No]),
            Event::StepLost { step, cause: c, .. } => ("step_lost", [N(step.into()), cause(c), by]),
            Event::Drowned { at, .. } => ("drowned", [Hex(at), No, No]),
            Event::FellOff { from, .. } => ("fell_off", [Hex(from), No, No]),
            Event::Lightning { at, step, .. } => ("lightning", [Hex(at), N(step.into()), No]),
            Event::SignalSent { .. } => ("signal_sent", [No, No, No]),
            Event::SignalReceived { step, effect, .. } => {
                let effect = match effect {
                    SignalEffect::Executed => "executed",
                    SignalEffect::Nothing => "nothing",
                };
                ("signal_received", [N(step.into()), S(effect), No])
            }
            Event::SignalLost { .. } => ("signal_lost", [No, No, No]),
            Event::Stalled { step, .. } => ("stalled", [N(step.into()), No, No]),
            Event::Idle { step, reason, .. } => ("idle", [N(step.into()), S(reason.code()), No]),
            Event::Calc { step, effect, .. } => (
                "calc",
                [N(step.into()), S(effect.code()), Field::Words(effect)],
            ),
            Event::End {
                round,
                winner,
                reason,
            } => (
                "end",
                [
                    N(round.into()),
                    Field::Name(winner.map(TeamColour::name)),
                    S(reason_code(reason)),
                ],
            ),
            _ => ("", [No, No, No]),
        }
    }
}

/// One field of a row.
#[derive(Clone, Copy)]
enum Field {
    /// No field: the row is shorter.
    No,
    N(u64),
    S(&'static str),
    /// A team's colour, or null.
    Name(Option<&'static str>),
    /// A robot by index, or null.
    Robot(Option<usize>),
    /// A hex, `[col, row]`.
    Hex(Pos),
    /// A `calc` event's words, as its log line writes them.
    Words(CalcEffect),
}

impl Serialize for EventRow {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (code, fields) = self.fields();
        let used = fields.iter().filter(|f| !matches!(f, Field::No)).count();
        let mut row = s.serialize_seq(Some(2 + used))?;
        row.serialize_element(code)?;
        row.serialize_element(&self.robot)?;
        for f in &fields[..used] {
            row.serialize_element(f)?;
        }
        row.end()
    }
}

impl Serialize for Field {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            Field::No => s.serialize_unit(),
            Field::N(n) => s.serialize_u64(n),
            Field::S(text) => s.serialize_str(text),
            Field::Name(name) => name.serialize(s),
            Field::Robot(index) => index.serialize(s),
            Field::Hex(Pos(col, row)) => [col, row].serialize(s),
            Field::Words(effect) => s.collect_str(&effect),
        }
    }
}
