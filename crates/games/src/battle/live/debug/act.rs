//! The debugger's commands that do not move in time: breakpoints and watches set and
//! deleted, a signal sent by hand, what `show` asks, the match reloaded, help.

use super::command::{self, Breakpoint, Command, Scope};
use super::{Mark, Session, origins};
use crate::battle::engine::Match;

impl Session {
    /// Commands that do not move in time. `Ok(None)` is quit.
    pub(super) fn act(&mut self, cmd: Command) -> Result<Option<String>, String> {
        Ok(Some(match cmd {
            Command::Break(breakpoint) => self.add_breakpoint(breakpoint)?,
            Command::Watch {
                robot,
                watched,
                text,
            } => {
                self.robot_id(robot)?;
                let id = self.add_mark(|id| Mark::Watch {
                    id,
                    robot,
                    watched,
                    text,
                });
                self.refresh_values();
                format!("{}\n", self.mark(id).describe())
            }
            Command::Delete(id) => {
                let before = self.marks.len();
                self.marks.retain(|m| m.id() != id);
                if self.marks.len() == before {
                    return Err(format!("there is no breakpoint or watch {id}"));
                }
                self.values.retain(|(i, _)| *i != id);
                format!("deleted {id}\n")
            }
            Command::Signal { robot, step } => {
                let id = self.robot_id(robot)?;
                self.timeline
                    .send_signal(id, step)
                    .map_err(|e| e.to_string())?;
                let left =
                    self.current().teams()[(self.current().robot(id).team).index()].signals_left;
                format!(
                    "signal sent to {robot}: step {step} at its next turn ({left} signals left)\n"
                )
            }
            Command::Show(what) => self.show(what)?,
            Command::Reload => self.reload()?,
            Command::Help => format!("{}\n", command::HELP),
            Command::Quit => return Ok(None),
            _ => unreachable!("moves in time are handled by execute"),
        }))
    }

    /// `break …`: a breakpoint on a robot or team of this match, at a step its program has.
    fn add_breakpoint(&mut self, breakpoint: Breakpoint) -> Result<String, String> {
        let robot = match &breakpoint {
            Breakpoint::Step { robot, .. } | Breakpoint::When { robot, .. } => Some(*robot),
            Breakpoint::Event {
                scope: Scope::Robot(r),
                ..
            } => Some(*r),
            Breakpoint::Event {
                scope: Scope::Team(t),
                ..
            } => {
                if !self.current().teams().iter().any(|x| x.colour == *t) {
                    return Err(format!("there is no {t} team in this match"));
                }
                None
            }
        };
        if let Some(r) = robot {
            let id = self.robot_id(r)?;
            if let Breakpoint::Step { step, .. } = breakpoint {
                let len = self.current().program(id).len();
                if step == 0 || usize::from(step) > len {
                    return Err(format!(
                        "{r}'s program has steps 1 to {len}: it never reads step {step}"
                    ));
                }
            }
        }
        let id = self.add_mark(|id| Mark::Break { id, breakpoint });
        self.refresh_values();
        Ok(format!("{}\n", self.mark(id).describe()))
    }

    /// `reload`: the match's files read again; back to the start, marks kept.
    fn reload(&mut self) -> Result<String, String> {
        let setup = (self.loader)()
            .map_err(|d| format!("the match was not reloaded; it stays as it was:\n{d}"))?;
        let start = Match::new(&setup)
            .map_err(|e| format!("the match was not reloaded; it stays as it was:\n{e}"))?;
        self.timeline.restart(start);
        self.origins = origins(&setup);
        self.name.clone_from(&setup.name);
        self.stopped_at = None;
        self.refresh_values();
        let robots = setup.teams.iter().map(|t| t.robots.len()).sum::<usize>();
        Ok(format!(
            "reloaded `{}` and its {robots} robots' programs from their files; back to the start, same seed ({}); breakpoints and watches kept\n{}",
            crate::text::escape(&setup.name),
            setup.seed,
            self.position()
        ))
    }
}
