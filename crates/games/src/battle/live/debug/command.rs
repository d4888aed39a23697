//! The debugger's commands, as typed in script mode or at the TUI's `:` prompt
//! (docs/DEBUGGER.md). Parsing is separate from running them.

use crate::battle::engine::RobotName;
use crate::battle::lang::{Comparison, Condition, Keywords, Quantity};
use crate::battle::terrain::TeamColour;

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `step [n]`: n robot turns.
    Step(u64),
    /// `turn`: to the end of the team turn under way.
    Turn,
    /// `round`: to the end of the round under way.
    Round,
    /// `back [n]`: n robot turns back.
    Back(u64),
    BackTurn,
    BackRound,
    /// `continue`: until a breakpoint, a watch's change or the end.
    Continue,
    /// `reverse-continue`: back to the previous breakpoint hit or watch change, or the start.
    ReverseContinue,
    /// `goto round N`.
    GotoRound(u32),
    Break(Breakpoint),
    Watch {
        robot: RobotName,
        watched: Watched,
        text: String,
    },
    /// `delete N`: a breakpoint or watch by its number.
    Delete(u32),
    /// `signal ROBOT STEP`.
    Signal {
        robot: RobotName,
        step: u8,
    },
    Show(Show),
    /// `reload`: re-read the match and its programs, restart from the same seed.
    Reload,
    Help,
    Quit,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Show {
    Board,
    Programs,
    Robot(RobotName),
    /// The last n events.
    Log(usize),
    Breaks,
    Watches,
}

/// What a watch shows: a condition (yes or no) or a numeric term of the test language
/// (`count(enemy within 3)`, `shots`, `damage`).
#[derive(Clone, Debug, PartialEq)]
pub enum Watched {
    Condition(Condition),
    Quantity(Quantity),
}

/// Who an event breakpoint is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    Robot(RobotName),
    Team(TeamColour),
}

/// The event kinds a breakpoint can wait for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    Hit,
    Destroyed,
    StepLost,
    Drowned,
    FellOff,
    Signal,
    Stalled,
}

impl EventKind {
    pub const ALL: [(&'static str, EventKind); 7] = [
        ("hit", EventKind::Hit),
        ("destroyed", EventKind::Destroyed),
        ("lost", EventKind::StepLost),
        ("drowned", EventKind::Drowned),
        ("fell", EventKind::FellOff),
        ("signal", EventKind::Signal),
        ("stalled", EventKind::Stalled),
    ];

    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(_, k)| *k == self)
            .map_or("?", |(n, _)| n)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Breakpoint {
    /// Stop before the robot turn in which the robot reads this step.
    Step { robot: RobotName, step: u8 },
    /// Stop before the robot turn in which such an event happens to the robot or team.
    Event { kind: EventKind, scope: Scope },
    /// Stop after the turn that makes the condition true, seen from the robot.
    When {
        robot: RobotName,
        condition: Condition,
        text: String,
    },
}

pub const HELP: &str = "\
commands:
  step [n]                 play n robot turns (default 1)
  turn                     play to the end of the team turn under way
  round                    play to the end of the round under way
  back [n] | back turn | back round
                           go back n robot turns, to the start of the team turn, of the round
  continue                 play until a breakpoint, a watch's change or the end
  reverse-continue | rc    go back to the previous breakpoint hit or watch change
  reverse-step [n]         the same as back [n]
  goto round N             go to the start of round N (back or forward)
  break ROBOT step N       stop before ROBOT reads step N (by any route: GO, a test, RAZ)
  break ROBOT|TEAM EVENT   stop before EVENT happens to a robot or a team; EVENT is one of
                           hit, destroyed, lost, drowned, fell, signal, stalled
  break ROBOT when COND    stop after the turn that makes COND true for ROBOT
  watch ROBOT COND|TERM    show the value of a condition (yes/no) or of a number such as
                           count(enemy within 3), shots, damage, after every command
  delete N                 remove breakpoint or watch N
  signal ROBOT STEP        send a radio signal (end of the robot's team turn, 5 a game)
  show board | programs | robot ROBOT | log [n] | breaks | watches
  reload                   re-read the programs and restart from the same seed
  help, quit
ROBOT is TEAM.N (green.1); TEAM is a colour; COND is a test condition (docs/LANGUAGE.md).
A step or event breakpoint stops before the robot turn it is about; a `when` breakpoint
and a watch's change stop after the turn that made them.";

/// A command line that is not a command: one line of words saying why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CommandError(String);

/// Parses one command line. Errors are one line of words.
pub fn parse(line: &str) -> Result<Command, CommandError> {
    parse_line(line).map_err(CommandError)
}

fn parse_line(line: &str) -> Result<Command, String> {
    let line = line.trim();
    let (word, rest) = split_word(line);
    let number = |text: &str, what: &str| -> Result<u64, String> {
        text.trim()
            .parse::<u64>()
            .map_err(|_| format!("`{}` is not a number of {what}", text.trim()))
    };
    Ok(match word.to_ascii_lowercase().as_str() {
        "step" | "s" => Command::Step(if rest.is_empty() {
            1
        } else {
            number(rest, "robot turns")?
        }),
        "turn" | "t" => Command::Turn,
        "round" | "r" => Command::Round,
        "back" | "b" => match rest.to_ascii_lowercase().as_str() {
            "" => Command::Back(1),
            "turn" => Command::BackTurn,
            "round" => Command::BackRound,
            n => Command::Back(number(n, "robot turns")?),
        },
        "continue" | "c" => Command::Continue,
        "reverse-continue" | "rc" => Command::ReverseContinue,
        "reverse-step" | "rs" => Command::Back(if rest.is_empty() {
            1
        } else {
            number(rest, "robot turns")?
        }),
        "goto" => {
            let (what, n) = split_word(rest);
            if !what.eq_ignore_ascii_case("round") {
                return Err("expected `goto round N`".into());
            }
            let n = number(n, "rounds")?;
            Command::GotoRound(u32::try_from(n).map_err(|_| "that round is too large".to_string())?)
        }
        "break" => parse_break(rest)?,
        "watch" => {
            let (robot, condition) = split_word(rest);
            let robot = robot_name(robot)?;
            let (watched, text) = watched_of(condition)?;
            Command::Watch {
                robot,
                watched,
                text,
            }
        }
        "delete" => {
            let n = number(rest, "breakpoints")?;
            let id =
                u32::try_from(n).map_err(|_| format!("there is no breakpoint or watch {n}"))?;
            Command::Delete(id)
        }
        "signal" => {
            let (robot, step) = split_word(rest);
            let robot = robot_name(robot)?;
            let step = number(step, "steps")?;
            Command::Signal {
                robot,
                step: u8::try_from(step).map_err(|_| format!("there is no step {step}"))?,
            }
        }
        "show" => {
            let (what, arg) = split_word(rest);
            Command::Show(match what.to_ascii_lowercase().as_str() {
                "board" => Show::Board,
                "programs" => Show::Programs,
                "robot" => Show::Robot(robot_name(arg)?),
                "log" => Show::Log(if arg.is_empty() { 20 } else { usize::try_from(number(arg, "events")?).unwrap_or(usize::MAX) }),
                "breaks" | "breakpoints" => Show::Breaks,
                "watches" => Show::Watches,
                _ => return Err("expected `show board`, `show programs`, `show robot TEAM.N`, `show log [n]`, `show breaks` or `show watches`".into()),
            })
        }
        "reload" => Command::Reload,
        "help" | "?" => Command::Help,
        "quit" | "q" | "exit" => Command::Quit,
        "" => return Err("empty command".into()),
        other => return Err(format!("unknown command `{other}`: try `help`")),
    })
}

fn split_word(text: &str) -> (&str, &str) {
    let text = text.trim();
    match text.find(char::is_whitespace) {
        Some(i) => (&text[..i], text[i..].trim()),
        None => (text, ""),
    }
}

/// `green.1` → a robot name (whether the match has it is checked when the command runs).
fn robot_name(text: &str) -> Result<RobotName, String> {
    RobotName::parse(text).map_err(|e| e.to_string())
}

fn condition_of(text: &str) -> Result<(Condition, String), String> {
    if text.is_empty() {
        return Err("expected a condition, such as `enemy ahead within 2`".into());
    }
    // The debugger may watch memories in any match: they read 0 without the rule (A.12).
    crate::battle::lang::parse_condition_in("condition", text, Keywords::Ti57)
        .map(|c| (c, text.to_string()))
        .map_err(|d| format!("column {}: {}", d.col, d.message))
}

/// A condition, or else a numeric term (read as the left side of `TERM = 0`).
fn watched_of(text: &str) -> Result<(Watched, String), String> {
    match condition_of(text) {
        Ok((condition, text)) => Ok((Watched::Condition(condition), text)),
        Err(e) => match crate::battle::lang::parse_condition_in(
            "term",
            &format!("{text} = 0"),
            Keywords::Ti57,
        ) {
            Ok(Condition::Compare(quantity, Comparison::Eq, Quantity::Number(0))) => {
                Ok((Watched::Quantity(quantity), text.to_string()))
            }
            _ => Err(e),
        },
    }
}

fn parse_break(rest: &str) -> Result<Command, String> {
    let (who, what) = split_word(rest);
    let (kind, arg) = split_word(what);
    let kind_lower = kind.to_ascii_lowercase();
    if who.contains('.') {
        let robot = robot_name(who)?;
        if kind_lower == "step" {
            let step: u8 = arg
                .parse()
                .map_err(|_| format!("`{arg}` is not a step number"))?;
            return Ok(Command::Break(Breakpoint::Step { robot, step }));
        }
        if kind_lower == "when" {
            let (condition, text) = condition_of(arg)?;
            return Ok(Command::Break(Breakpoint::When {
                robot,
                condition,
                text,
            }));
        }
        return event_break(&kind_lower, Scope::Robot(robot));
    }
    let team = TeamColour::parse(who).ok_or_else(|| {
        format!("expected `break ROBOT step N`, `break ROBOT|TEAM EVENT` or `break ROBOT when CONDITION`, found `{who}`")
    })?;
    event_break(&kind_lower, Scope::Team(team))
}

fn event_break(kind: &str, scope: Scope) -> Result<Command, String> {
    let names: Vec<&str> = EventKind::ALL.iter().map(|(n, _)| *n).collect();
    let kind = EventKind::ALL
        .iter()
        .find(|(n, _)| *n == kind)
        .map(|(_, k)| *k)
        .ok_or_else(|| {
            format!(
                "unknown event `{kind}`: expected one of {}, or `step N`, or `when CONDITION`",
                names.join(", ")
            )
        })?;
    Ok(Command::Break(Breakpoint::Event { kind, scope }))
}
