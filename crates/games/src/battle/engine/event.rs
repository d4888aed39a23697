//! What happens during a robot's turn, as the engine reports it. Views only read events.

pub use super::calc_effect::CalcEffect;
use crate::battle::hex::Direction;
use crate::battle::terrain::TeamColour;
use std::fmt;

/// A robot's public name: team colour and number, written `green.1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RobotName {
    pub team: TeamColour,
    pub number: u8,
}

impl fmt::Display for RobotName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.team, self.number)
    }
}

/// Why a text is not a robot's name (`green.1`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RobotNameError {
    #[error("`{0}` is not a robot: expected TEAM.N, such as green.1")]
    Form(String),
    #[error("unknown team colour `{0}`")]
    Colour(String),
    #[error("`{0}` is not a robot number (1 to 9)")]
    Number(String),
}

impl RobotName {
    /// `green.1` → a robot name (whether a match has that robot is for the match to say).
    pub fn parse(text: &str) -> Result<RobotName, RobotNameError> {
        let (team, number) = text
            .split_once('.')
            .ok_or_else(|| RobotNameError::Form(text.to_string()))?;
        let team = TeamColour::parse(team).ok_or_else(|| RobotNameError::Colour(team.into()))?;
        let number = number
            .parse()
            .ok()
            .filter(|n| (1..=9).contains(n))
            .ok_or_else(|| RobotNameError::Number(number.into()))?;
        Ok(RobotName { team, number })
    }
}

/// A hex as files write it: `[col, row]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pos(pub u16, pub u16);

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}, {}]", self.0, self.1)
    }
}

/// What stopped a move (R-A2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Obstacle {
    Robot(RobotName),
    Shape,
    Computer,
}

/// Why a robot lost a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    Shot(RobotName),
    Explosion(RobotName),
}

/// Why a turn passed with nothing done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdleReason {
    /// The step read was destroyed (R-A9).
    DestroyedStep,
    /// The step read is past the end of the program (R-A10).
    EmptyStep,
    /// `SBR` with two returns remembered already: a third is not made (R-A25).
    ReturnsFull,
    /// `INV SBR` with no return remembered (R-A25).
    NoReturn,
    /// `R/S` stopped the program earlier (R-A29).
    Stopped,
}

impl IdleReason {
    /// Why, in the log's words.
    fn words(self) -> &'static str {
        match self {
            IdleReason::DestroyedStep => "destroyed step, nothing happens",
            IdleReason::EmptyStep => "empty step, nothing happens",
            IdleReason::ReturnsFull => {
                "SBR refused, two returns are remembered already: the turn ends"
            }
            IdleReason::NoReturn => "INV SBR with no return remembered: the turn ends",
            IdleReason::Stopped => "stopped by R/S, nothing happens",
        }
    }

    /// Why, as a code, for JSON.
    pub fn code(self) -> &'static str {
        match self {
            IdleReason::DestroyedStep => "destroyed_step",
            IdleReason::EmptyStep => "empty_step",
            IdleReason::ReturnsFull => "returns_full",
            IdleReason::NoReturn => "no_return",
            IdleReason::Stopped => "stopped",
        }
    }
}

/// Why a signal was sent (R-A15).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignalCause {
    /// The match file scheduled it for this round (R-A15).
    Scheduled,
    /// The match file's `when:` condition held at the end of the team's turn (R-A15).
    Condition,
    /// Sent by hand, in the debugger or at the table.
    ByHand,
}

impl SignalCause {
    /// Why, in words, for the log.
    pub fn words(self) -> &'static str {
        match self {
            SignalCause::Scheduled => "scheduled for this round",
            SignalCause::Condition => "its `when` condition holds",
            SignalCause::ByHand => "sent by hand",
        }
    }

    /// Why, as a code, for JSON.
    pub fn code(self) -> &'static str {
        match self {
            SignalCause::Scheduled => "scheduled",
            SignalCause::Condition => "condition",
            SignalCause::ByHand => "by_hand",
        }
    }
}

/// What a received signal did (R-A14).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignalEffect {
    /// The named step was an action and was executed.
    Executed,
    /// The named step is a control step, destroyed or empty: nothing happens.
    Nothing,
}

/// How a match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    LastTeamStanding,
    AllDestroyed,
    CampEntered,
    ComputerDestroyed,
    RoundLimit,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndReason::LastTeamStanding => "last team standing",
            EndReason::AllDestroyed => "every robot destroyed",
            EndReason::CampEntered => "entered an enemy camp",
            EndReason::ComputerDestroyed => "destroyed an enemy computer",
            EndReason::RoundLimit => "round limit",
        })
    }
}

/// Where a turn's events go: a list ([`Vec<Event>`]), or nowhere ([`Unrecorded`]) when nothing
/// reads them, so that a match played only for its outcome builds none (`robots bench`,
/// tournaments, the evolver).
pub trait Events {
    /// Whether pushed events are kept: a sink that drops them spares their making.
    const RECORDS: bool = true;
    fn push(&mut self, event: Event);
}

impl Events for Vec<Event> {
    #[inline]
    fn push(&mut self, event: Event) {
        Vec::push(self, event);
    }
}

/// Events nobody reads: dropped before they are built.
#[derive(Clone, Copy, Debug, Default)]
pub struct Unrecorded;

impl Events for Unrecorded {
    const RECORDS: bool = false;
    #[inline(always)]
    fn push(&mut self, _event: Event) {}
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A robot's turn begins.
    Turn {
        round: u32,
        robot: RobotName,
    },
    Tested {
        robot: RobotName,
        step: u8,
        test: u8,
        answer: bool,
    },
    Reset {
        robot: RobotName,
        step: u8,
    },
    Jumped {
        robot: RobotName,
        step: u8,
        to: u8,
    },
    Moved {
        robot: RobotName,
        step: u8,
        from: Pos,
        to: Pos,
    },
    /// The move was not carried out at all (R-A2).
    Blocked {
        robot: RobotName,
        step: u8,
        at: Pos,
        by: Obstacle,
    },
    Rotated {
        robot: RobotName,
        step: u8,
        facing: Direction,
    },
    Fired {
        robot: RobotName,
        step: u8,
        facing: Direction,
        shots_left: u8,
    },
    /// `T` with no shot left: the turn is spent (R-A5).
    OutOfShots {
        robot: RobotName,
        step: u8,
    },
    /// A shot reached a robot at distance 1 (destroyed) or 2 (loses a step).
    Hit {
        robot: RobotName,
        by: RobotName,
        distance: u8,
    },
    /// A shot reached a central computer; `counts` when it wins scenario 3 (R-A17).
    ComputerHit {
        camp: TeamColour,
        by: RobotName,
        counts: bool,
    },
    Exploded {
        robot: RobotName,
        step: u8,
        at: Pos,
    },
    Destroyed {
        robot: RobotName,
        cause: Cause,
    },
    StepLost {
        robot: RobotName,
        step: u8,
        cause: Cause,
    },
    Drowned {
        robot: RobotName,
        at: Pos,
    },
    FellOff {
        robot: RobotName,
        from: Pos,
    },
    /// Entering a lightning hex destroyed the step being read (R-A4).
    Lightning {
        robot: RobotName,
        at: Pos,
        step: u8,
    },
    /// The recipient and why it was sent are public; the step stays secret until it acts
    /// (R-A13).
    SignalSent {
        robot: RobotName,
        why: SignalCause,
    },
    SignalReceived {
        robot: RobotName,
        step: u8,
        effect: SignalEffect,
    },
    /// The recipient was destroyed before the signal could act.
    SignalLost {
        robot: RobotName,
    },
    /// Too many control steps in one turn (R-A11).
    Stalled {
        robot: RobotName,
        step: u8,
    },
    Idle {
        robot: RobotName,
        step: u8,
        reason: IdleReason,
    },
    /// A TI-57 keyword read (RULES A.12).
    Calc {
        robot: RobotName,
        step: u8,
        effect: CalcEffect,
    },
    End {
        round: u32,
        winner: Option<TeamColour>,
        reason: EndReason,
    },
}

impl Event {
    /// The event as the log shows it: a turn's first line flush left, the rest indented.
    pub fn log_line(&self) -> String {
        let mut line = String::new();
        self.write_log_line(&mut line);
        line
    }

    /// [`Event::log_line`] written at the end of `out`.
    pub fn write_log_line(&self, out: &mut String) {
        use std::fmt::Write;
        if !matches!(self, Event::Turn { .. }) {
            out.push_str("  ");
        }
        // Writing to a string cannot fail.
        let _ = write!(out, "{self}");
        out.push('\n');
    }

    /// The step a robot read, when the event records a read: a control step, the action
    /// executed, a destroyed or empty step, the step where it stalled, or a signal's step.
    /// Lost steps and lightning are not reads.
    pub fn step_read(&self) -> Option<(RobotName, u8)> {
        use Event::*;
        match self {
            Tested { robot, step, .. }
            | Reset { robot, step }
            | Jumped { robot, step, .. }
            | Moved { robot, step, .. }
            | Blocked { robot, step, .. }
            | Rotated { robot, step, .. }
            | Fired { robot, step, .. }
            | OutOfShots { robot, step }
            | Exploded { robot, step, .. }
            | Stalled { robot, step }
            | Idle { robot, step, .. }
            | Calc { robot, step, .. }
            | SignalReceived { robot, step, .. } => Some((*robot, *step)),
            _ => None,
        }
    }

    /// The robot the event is about, if any.
    pub fn robot(&self) -> Option<RobotName> {
        use Event::*;
        match self {
            Turn { robot, .. }
            | Tested { robot, .. }
            | Reset { robot, .. }
            | Jumped { robot, .. }
            | Moved { robot, .. }
            | Blocked { robot, .. }
            | Rotated { robot, .. }
            | Fired { robot, .. }
            | OutOfShots { robot, .. }
            | Hit { robot, .. }
            | Exploded { robot, .. }
            | Destroyed { robot, .. }
            | StepLost { robot, .. }
            | Drowned { robot, .. }
            | FellOff { robot, .. }
            | Lightning { robot, .. }
            | SignalSent { robot, .. }
            | SignalReceived { robot, .. }
            | SignalLost { robot }
            | Stalled { robot, .. }
            | Calc { robot, .. }
            | Idle { robot, .. } => Some(*robot),
            ComputerHit { .. } | End { .. } => None,
        }
    }
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cause::Shot(by) => write!(f, "shot by {by}"),
            Cause::Explosion(by) => write!(f, "explosion of {by}"),
        }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Event::*;
        match self {
            Turn { round, robot } => write!(f, "round {round}: {robot}"),
            Tested {
                robot,
                step,
                test,
                answer,
            } => {
                write!(
                    f,
                    "{robot} step {step}: test {test} is {}",
                    if *answer { "yes" } else { "no" }
                )
            }
            Reset { robot, step } => write!(f, "{robot} step {step}: RAZ, back to step 1"),
            Jumped { robot, step, to } => write!(f, "{robot} step {step}: GO {to}"),
            Moved {
                robot,
                step,
                from,
                to,
            } => write!(f, "{robot} step {step}: moves {from} → {to}"),
            Blocked {
                robot,
                step,
                at,
                by,
            } => {
                let by = match by {
                    Obstacle::Robot(r) => format!("robot {r}"),
                    Obstacle::Shape => "a shape".into(),
                    Obstacle::Computer => "a computer".into(),
                };
                write!(f, "{robot} step {step}: blocked by {by} at {at}, stays put")
            }
            Rotated {
                robot,
                step,
                facing,
            } => {
                write!(
                    f,
                    "{robot} step {step}: turns to face {} {}",
                    facing.number(),
                    facing.arrow()
                )
            }
            Fired {
                robot,
                step,
                facing,
                shots_left,
            } => write!(
                f,
                "{robot} step {step}: fires towards {} {} ({shots_left} shots left)",
                facing.number(),
                facing.arrow()
            ),
            OutOfShots { robot, step } => write!(
                f,
                "{robot} step {step}: T with no shot left, nothing happens"
            ),
            _ => self.fmt_consequence(f),
        }
    }
}

impl Event {
    /// What follows from an action: hits, losses, signals, idle turns and the end.
    fn fmt_consequence(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Event::*;
        match self {
            Hit {
                robot,
                by,
                distance,
            } => write!(f, "{robot} is hit by {by} at distance {distance}"),
            ComputerHit { camp, by, counts } => write!(
                f,
                "the {camp} computer is hit by {by}{}",
                if *counts {
                    ""
                } else {
                    " (from outside the camp: no effect)"
                }
            ),
            Exploded { robot, step, at } => {
                write!(f, "{robot} step {step}: self-destructs at {at}")
            }
            Destroyed { robot, cause } => write!(f, "{robot} is destroyed ({cause})"),
            StepLost { robot, step, cause } => write!(f, "{robot} loses step {step} ({cause})"),
            Drowned { robot, at } => write!(f, "{robot} drowns in the lake at {at}"),
            FellOff { robot, from } => write!(f, "{robot} falls off the board from {from}"),
            Lightning { robot, at, step } => write!(
                f,
                "{robot} is struck by lightning at {at}: step {step} destroyed"
            ),
            SignalSent { robot, why } => write!(f, "a signal is sent to {robot} ({})", why.words()),
            SignalReceived {
                robot,
                step,
                effect,
            } => match effect {
                SignalEffect::Executed => write!(f, "{robot} obeys the signal: step {step}"),
                SignalEffect::Nothing => write!(
                    f,
                    "{robot} receives the signal for step {step}: nothing happens"
                ),
            },
            SignalLost { robot } => write!(f, "the signal to {robot} is lost"),
            Stalled { robot, step } => write!(
                f,
                "{robot} step {step}: stalled (too many control steps in one turn)"
            ),
            Idle {
                robot,
                step,
                reason,
            } => write!(f, "{robot} step {step}: {}", reason.words()),
            Calc {
                robot,
                step,
                effect,
            } => write!(f, "{robot} step {step}: {effect}"),
            End {
                round,
                winner,
                reason,
            } => write!(f, "end after round {round}: {}", verdict(*winner, *reason)),
            Turn { .. }
            | Tested { .. }
            | Reset { .. }
            | Jumped { .. }
            | Moved { .. }
            | Blocked { .. }
            | Rotated { .. }
            | Fired { .. }
            | OutOfShots { .. } => unreachable!("written by `Display::fmt`"),
        }
    }
}

/// Who won and why, in words: `green wins (last team standing)`, `draw (round limit)`.
pub fn verdict(winner: Option<TeamColour>, reason: EndReason) -> String {
    match winner {
        Some(w) => format!("{w} wins ({reason})"),
        None => format!("draw ({reason})"),
    }
}
