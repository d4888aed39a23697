//! The debugger's core: a [`Session`] holds a match's [`Timeline`], breakpoints and watches,
//! and runs [`Command`]s, answering in text. Script mode prints the answers; the TUI draws
//! the same session and shows the answers in its status line. One command layer, two front
//! ends.

mod act;
pub mod command;
mod stops;
pub mod timeline;

pub use command::{Breakpoint, Command, EventKind, Scope, Show, Watched, parse};
pub use timeline::{CHECKPOINT_EVERY, LOG_TURNS, Timeline};

use crate::battle::engine::{Event, Match, MatchSetup, RobotId, RobotName, SetupError};
use crate::text::diagnostic::Diagnostic;
use std::fmt::Write;

/// The most events one answer lists: a longer move in time shows its last ones.
pub const MAX_REPLY_EVENTS: usize = 1000;

/// Builds the match again from its files (for `reload`).
pub type Loader = Box<dyn Fn() -> Result<MatchSetup, Diagnostic>>;

/// Why a session could not load its match.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    #[error("{0}")]
    File(#[from] Diagnostic),
    #[error("{0}")]
    Setup(#[from] SetupError),
}

/// A numbered breakpoint or watch.
#[derive(Clone, Debug)]
pub enum Mark {
    Break {
        id: u32,
        breakpoint: Breakpoint,
    },
    Watch {
        id: u32,
        robot: RobotName,
        watched: Watched,
        text: String,
    },
}

/// A watch's value: a condition's answer or a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WatchValue {
    Truth(bool),
    Number(i64),
}

impl std::fmt::Display for WatchValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WatchValue::Truth(b) => f.write_str(answer(Some(*b))),
            WatchValue::Number(n) => write!(f, "{n}"),
        }
    }
}

impl Mark {
    pub fn id(&self) -> u32 {
        match self {
            Mark::Break { id, .. } | Mark::Watch { id, .. } => *id,
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Mark::Break { id, breakpoint } => {
                format!("breakpoint {id}: {}", describe_break(breakpoint))
            }
            Mark::Watch {
                id, robot, text, ..
            } => format!("watch {id}: {robot} {text}"),
        }
    }
}

fn describe_break(b: &Breakpoint) -> String {
    match b {
        Breakpoint::Step { robot, step } => format!("{robot} reads step {step}"),
        Breakpoint::Event { kind, scope } => {
            let who = match scope {
                Scope::Robot(r) => r.to_string(),
                Scope::Team(t) => format!("team {t}"),
            };
            format!("{who} {}", kind.name())
        }
        Breakpoint::When { robot, text, .. } => format!("{robot} when {text}"),
    }
}

/// Adds a stop's reason to an answer, and returns it.
fn stop(text: &mut String, reason: String) -> String {
    let reason = reason.trim_end().to_string();
    text.push_str(&reason);
    text.push('\n');
    reason
}

/// What a command answered.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Reply {
    pub text: String,
    pub quit: bool,
    /// The command was refused (its text says why, after `error:`).
    pub failed: bool,
    /// Why a `continue` or `reverse-continue` stopped: a breakpoint hit or a watch's change.
    pub stopped: Option<String>,
}

pub struct Session {
    timeline: Timeline,
    loader: Loader,
    /// Where each robot's program came from, in robot id order (views' data: the engine
    /// does not keep it).
    origins: Vec<String>,
    /// The match's name, from its file.
    name: String,
    marks: Vec<Mark>,
    next_id: u32,
    /// The turn where `continue` last stopped for a breakpoint: continuing from there plays
    /// that turn instead of stopping again.
    stopped_at: Option<u64>,
    /// The last value of each `when` breakpoint and watch: a `when` breakpoint stops when
    /// it turns true, a watch when it changes.
    values: Vec<(u32, Option<WatchValue>)>,
}

impl Session {
    /// A session on the match `load` builds; `load` is called again by `reload`.
    pub fn new(load: Loader) -> Result<Session, LoadError> {
        let setup = load()?;
        let start = Match::new(&setup)?;
        Ok(Session {
            timeline: Timeline::new(start),
            loader: load,
            origins: origins(&setup),
            name: setup.name.clone(),
            marks: Vec::new(),
            next_id: 1,
            stopped_at: None,
            values: Vec::new(),
        })
    }

    /// The timeline itself, for a front end that plays the match without commands (a game at
    /// the table, `robots play`).
    pub fn timeline_mut(&mut self) -> &mut Timeline {
        &mut self.timeline
    }

    pub fn timeline(&self) -> &Timeline {
        &self.timeline
    }

    pub fn current(&self) -> &Match {
        self.timeline.current()
    }

    pub fn marks(&self) -> &[Mark] {
        &self.marks
    }

    /// One line of a script: blank lines and `#` comments are skipped (`None`); a command is
    /// echoed as `> command` before its answer.
    pub fn script_line(&mut self, line: &str) -> Option<Reply> {
        let command = line.trim();
        if command.is_empty() || command.starts_with('#') {
            return None;
        }
        let reply = self.run_line(command);
        Some(Reply {
            text: format!("> {command}\n{}", reply.text),
            ..reply
        })
    }

    /// A whole script's transcript, starting with where the match stands.
    pub fn transcript<'a>(&mut self, lines: impl IntoIterator<Item = &'a str>) -> String {
        let mut out = self.position();
        for line in lines {
            if let Some(reply) = self.script_line(line) {
                out.push_str(&reply.text);
                if reply.quit {
                    break;
                }
            }
        }
        out
    }

    /// Parses and runs one line.
    pub fn run_line(&mut self, line: &str) -> Reply {
        match command::parse(line) {
            Ok(cmd) => self.execute(cmd),
            Err(message) => Reply {
                text: format!("error: {message}\n"),
                failed: true,
                ..Reply::default()
            },
        }
    }

    pub fn execute(&mut self, cmd: Command) -> Reply {
        let before = self.timeline.turn();
        let mut text = String::new();
        let mut stopped = None;
        let mut failed = false;
        let mut moved = true;
        match cmd {
            Command::Step(n) => {
                let mut played = 0;
                while played < n && self.timeline.step() {
                    played += 1;
                }
                if played < n && before == self.timeline.turn() {
                    text = "the match is over: nothing more to play\n".into();
                }
            }
            Command::Turn => self.timeline.forward_team_turn(),
            Command::Round => self.timeline.forward_round(),
            Command::Back(n) => self.timeline.go_to(before.saturating_sub(n)),
            Command::BackTurn => self.timeline.back_team_turn(),
            Command::BackRound => self.timeline.back_round(),
            Command::GotoRound(n) => {
                self.timeline.go_to_round(n);
                let m = self.current();
                if m.is_over() && m.clock().round < n {
                    text = format!(
                        "the match ends in round {} before round {n}: this is its end\n",
                        m.clock().round
                    );
                }
            }
            Command::Continue => stopped = self.continue_to_break(&mut text),
            Command::ReverseContinue => stopped = self.reverse_continue(&mut text),
            other => {
                moved = false;
                text = match self.act(other) {
                    Ok(Some(t)) => t,
                    Ok(None) => {
                        return Reply {
                            quit: true,
                            ..Reply::default()
                        };
                    }
                    Err(e) => {
                        failed = true;
                        format!("error: {e}\n")
                    }
                };
            }
        }
        if moved {
            text = self.moved_text(before, &text);
            self.refresh_values();
        }
        text.push_str(&self.watch_lines());
        Reply {
            text,
            quit: false,
            failed,
            stopped,
        }
    }

    /// What a move in time played (or how far back it went), `note`, and where it is now.
    fn moved_text(&self, before: u64, note: &str) -> String {
        let after = self.timeline.turn();
        let mut out = String::new();
        if after > before {
            let events = self.timeline.events_since(before);
            let shown = &events[events.len().saturating_sub(MAX_REPLY_EVENTS)..];
            if shown.len() < events.len() || self.timeline.log_start() > before {
                let _ = writeln!(
                    out,
                    "… {} turns played; their last {} events:",
                    after - before,
                    shown.len()
                );
            }
            for e in shown {
                out.push_str(&e.log_line());
            }
        } else if after < before {
            let n = before - after;
            let _ = writeln!(out, "back {n} robot turn{}", if n == 1 { "" } else { "s" });
        }
        out.push_str(note);
        out.push_str(&self.position());
        out
    }

    fn add_mark(&mut self, make: impl FnOnce(u32) -> Mark) -> u32 {
        let id = self.next_id;
        self.next_id += 1;
        self.marks.push(make(id));
        id
    }

    fn mark(&self, id: u32) -> &Mark {
        self.marks
            .iter()
            .find(|m| m.id() == id)
            .expect("just added")
    }

    fn robot_id(&self, name: RobotName) -> Result<RobotId, String> {
        self.current()
            .robot_by_name(name)
            .ok_or_else(|| format!("there is no robot {name} in this match"))
    }

    /// Where the match stands, in one line.
    pub fn position(&self) -> String {
        let m = self.current();
        let turn = self.timeline.turn();
        if let Some(o) = m.outcome() {
            return format!(
                "turn {turn}: the match is over: {} after round {}\n",
                o.verdict(),
                o.rounds
            );
        }
        let next = m.next_robot().map(|id| m.robot(id).name);
        let signals: Vec<String> = m
            .teams()
            .iter()
            .map(|t| format!("{} {}", t.colour, t.signals_left))
            .collect();
        let signals = signals.join(", ");
        match next {
            Some(r) => format!(
                "turn {turn}: round {}, {} to play, {r} next (signals left: {signals})\n",
                m.clock().round,
                r.team
            ),
            None => format!("turn {turn}: round {}\n", m.clock().round),
        }
    }

    fn show(&self, what: Show) -> Result<String, String> {
        let m = self.current();
        Ok(match what {
            Show::Board => crate::battle::show::render::state(m),
            Show::Programs => m.robot_ids().map(|id| self.program_view(id)).collect(),
            Show::Robot(name) => self.robot_view(self.robot_id(name)?),
            Show::Log(n) => {
                let log = self.timeline.log();
                log[log.len().saturating_sub(n)..]
                    .iter()
                    .map(Event::log_line)
                    .collect()
            }
            Show::Breaks | Show::Watches => {
                let want_breaks = what == Show::Breaks;
                let lines: String = self
                    .marks
                    .iter()
                    .filter(|m| matches!(m, Mark::Break { .. }) == want_breaks)
                    .map(|m| format!("{}\n", m.describe()))
                    .collect();
                if lines.is_empty() {
                    "none\n".into()
                } else {
                    lines
                }
            }
        })
    }

    /// The match's name, from its file.
    pub fn match_name(&self) -> &str {
        &self.name
    }

    /// Where a robot's program came from (a file, a shipped name or `inline`), with control
    /// characters escaped: it comes from a file.
    pub fn origin(&self, id: RobotId) -> std::borrow::Cow<'_, str> {
        crate::text::escape(self.origins.get(id.index()).map_or("?", String::as_str))
    }

    /// A robot's whole state, one fact a line.
    pub fn robot_view(&self, id: RobotId) -> String {
        let m = self.current();
        let r = m.robot(id);
        let mut out = format!("{} (program {})\n", r.name, self.origin(id));
        if !r.alive {
            out.push_str("  destroyed\n");
            return out;
        }
        let (col, row) = m.board().offset(r.cell);
        let _ = writeln!(out, "  position: [{col}, {row}]");
        let _ = writeln!(
            out,
            "  facing: {} {} {}",
            r.facing.number(),
            r.facing.arrow(),
            r.facing.name()
        );
        let pointer = if r.pointer == 0 {
            "start box".to_string()
        } else {
            format!("step {}", r.pointer)
        };
        let _ = writeln!(
            out,
            "  pointer: {pointer} (next: step {})",
            self.current().next_step(id)
        );
        let lost = r.destroyed_steps();
        let lost = if lost.is_empty() {
            "none".to_string()
        } else {
            lost.iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(out, "  destroyed steps: {lost}");
        let _ = writeln!(out, "  shots left: {}", r.shots);
        let pending = r.pending_signal.map_or("none".to_string(), |s| {
            // The debugger is an analysis tool: it may show what players do not see (R-A23).
            format!("step {s} (secret to the players until it acts, R-A23)")
        });
        let _ = writeln!(out, "  pending signal: {pending}");
        // The memories and remembered returns of the TI-57 rule (RULES A.12, R-A25, R-A26).
        if let Some(c) = m.memories(id) {
            let r: Vec<String> = c.r.iter().map(i32::to_string).collect();
            let _ = writeln!(out, "  memories: x = {}, t = {}", c.x, c.t);
            let _ = writeln!(out, "  R0-R7: {}", r.join(" "));
            let back: Vec<String> = c.remembered().iter().map(|s| format!("step {s}")).collect();
            let back = if back.is_empty() {
                "none".to_string()
            } else {
                back.join(", ")
            };
            let stopped = if c.stopped { " (stopped by R/S)" } else { "" };
            let _ = writeln!(out, "  returns remembered: {back}{stopped}");
        }
        out
    }

    /// A robot's program with its pointer (●), the step it reads next (▶) and destroyed
    /// steps (✗); for the robot about to act, the answer of each test.
    pub fn program_view(&self, id: RobotId) -> String {
        let m = self.current();
        let r = m.robot(id);
        let program = m.program(id);
        let state = if r.alive {
            format!("{} shots", r.shots)
        } else {
            "destroyed".into()
        };
        let mut out = format!("{} {}: {state}\n", r.name, self.origin(id));
        let next = self.current().next_step(id);
        if r.pointer == 0 {
            out.push_str("  ●    start\n");
        }
        for (i, step) in program.steps.iter().enumerate() {
            let n = i + 1;
            let mark = match (usize::from(r.pointer) == n, next == n && r.alive) {
                (true, _) => '●',
                (_, true) => '▶',
                _ => ' ',
            };
            let lost = if r.is_destroyed(n) { '✗' } else { ' ' };
            let _ = writeln!(
                out,
                "  {mark}{lost}{n:>3}  {}",
                program.notation(step.instruction)
            );
        }
        if next > program.len() && r.alive {
            let _ = writeln!(out, "  ▶ {next:>3}  (empty)");
        }
        let acting = m.next_robot() == Some(id);
        for test in program.tests.iter().flatten() {
            let value = if acting {
                answer(Some(m.evaluate(id, &test.condition)))
            } else {
                ""
            };
            let _ = writeln!(out, "  ?{} {value:<3} {}", test.number, test.text);
        }
        out
    }
}

/// Where each robot's program came from, in robot id order.
fn origins(setup: &MatchSetup) -> Vec<String> {
    setup
        .teams
        .iter()
        .flat_map(|t| t.robots.iter().map(|r| r.origin.clone()))
        .collect()
}

fn answer(value: Option<bool>) -> &'static str {
    match value {
        Some(true) => "yes",
        Some(false) => "no",
        None => "(robot destroyed)",
    }
}
