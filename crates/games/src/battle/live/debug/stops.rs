//! Where `continue` and `reverse-continue` stop: step and event breakpoints (before the
//! robot turn they are about), `when` breakpoints and watches (after the turn that made
//! them true or changed them). Both directions check the same things at the same positions,
//! so going back stops exactly where going forward would have (a property test says so).

use super::{Breakpoint, EventKind, Mark, Scope, Session, WatchValue, Watched, answer, stop};
use crate::battle::engine::{Event, RobotName};
use crate::battle::lang::Condition;

impl Session {
    /// Plays until a breakpoint, a watch's change or the end. Step and event breakpoints
    /// stop *before* the robot turn that triggers them; `when` breakpoints and watches stop
    /// after the turn that makes the condition true or changes the value. Writes why it
    /// stopped into `text` and returns it.
    pub(super) fn continue_to_break(&mut self, text: &mut String) -> Option<String> {
        let resume_from = self.stopped_at.take();
        loop {
            let turn = self.timeline.turn();
            if !self.timeline.step() {
                text.push_str("the match is over\n");
                return None;
            }
            let events: Vec<Event> = self.timeline.events_of(turn + 1).to_vec();
            if resume_from != Some(turn)
                && let Some(reason) = self.triggered(&events)
            {
                self.timeline.go_to(turn);
                self.stopped_at = Some(turn);
                return Some(stop(text, reason));
            }
            if let Some(reason) = self.changed() {
                return Some(stop(text, reason));
            }
            if self.current().is_over() {
                return None;
            }
        }
    }

    /// Goes back to the last turn before this one where `continue` would have stopped: the
    /// latest position `t` before it such that turn `t + 1` triggers a step or event
    /// breakpoint, or turn `t` made a `when` breakpoint true or changed a watch. Exact: it
    /// replays the kept states forward, segment by segment, with the same checks.
    pub(super) fn reverse_continue(&mut self, text: &mut String) -> Option<String> {
        let end = self.timeline.turn();
        let mut upto = end;
        while upto > 0 {
            let from = self.timeline.kept_before(upto);
            if let Some((t, reason, by_event)) = self.last_hit_in(from, upto, end) {
                self.timeline.go_to(t);
                self.stopped_at = by_event.then_some(t);
                return Some(stop(text, reason));
            }
            upto = from;
        }
        self.timeline.go_to(0);
        self.stopped_at = None;
        text.push_str("no breakpoint hit or watch change before: back at the start\n");
        None
    }

    /// The last hit at a position in `from..upto` (and before `end`): where, why, and
    /// whether a step or event breakpoint made it. Leaves the timeline anywhere.
    fn last_hit_in(&mut self, from: u64, upto: u64, end: u64) -> Option<(u64, String, bool)> {
        // The values just before `from`, to tell a change at `from` itself.
        self.timeline.go_to(from.saturating_sub(1));
        let mut before = (from > 0).then(|| self.values_now());
        self.timeline.go_to(from);
        let mut last = None;
        for t in from..upto.min(end) {
            let now = self.values_now();
            let change = before.as_ref().and_then(|b| self.change_between(b, &now));
            let stepped = self.timeline.step();
            let event = if stepped {
                let events = self.timeline.events_of(t + 1).to_vec();
                self.triggered(&events)
            } else {
                None
            };
            match (event, change) {
                (Some(reason), _) => last = Some((t, reason, true)),
                (None, Some(reason)) => last = Some((t, reason, false)),
                (None, None) => {}
            }
            before = Some(now);
            if !stepped {
                break;
            }
        }
        last
    }

    /// The first step or event breakpoint that a turn's events trigger, as a stop message.
    fn triggered(&self, events: &[Event]) -> Option<String> {
        for mark in &self.marks {
            let Mark::Break { id, breakpoint } = mark else {
                continue;
            };
            match breakpoint {
                Breakpoint::Step { robot, step } => {
                    let reads: Vec<u8> = events
                        .iter()
                        .filter_map(Event::step_read)
                        .filter(|(r, _)| r == robot)
                        .map(|(_, s)| s)
                        .collect();
                    if reads.contains(step) {
                        let path: Vec<String> = reads.iter().map(u8::to_string).collect();
                        return Some(format!(
                            "breakpoint {id}: {robot} is about to read step {step} (its next turn reads steps {})\n",
                            path.join(" → ")
                        ));
                    }
                }
                Breakpoint::Event { kind, scope } => {
                    if let Some(e) = events.iter().find(|e| event_matches(e, *kind, *scope)) {
                        return Some(format!("breakpoint {id}: next turn, {e}\n"));
                    }
                }
                Breakpoint::When { .. } => {}
            }
        }
        None
    }

    /// Whether the turn just played made a `when` breakpoint true or changed a watch (the
    /// first one, as a stop message); the values are kept for the next turn.
    fn changed(&mut self) -> Option<String> {
        let now = self.values_now();
        let reason = self.change_between(&self.values, &now);
        self.values = now;
        reason
    }

    /// The first `when` breakpoint that is true in `now` and was not in `before`, or the
    /// first watch whose value differs.
    fn change_between(
        &self,
        before: &[(u32, Option<WatchValue>)],
        now: &[(u32, Option<WatchValue>)],
    ) -> Option<String> {
        for (id, value) in now {
            let old = before.iter().find(|(i, _)| i == id).and_then(|(_, v)| *v);
            let mark = self.mark(*id);
            match mark {
                Mark::Break { .. } => {
                    let was = old == Some(WatchValue::Truth(true));
                    if *value == Some(WatchValue::Truth(true)) && !was {
                        return Some(format!("{}: now true", mark.describe()));
                    }
                }
                Mark::Watch { .. } => {
                    if *value != old && before.iter().any(|(i, _)| i == id) {
                        let show = |v: Option<WatchValue>| {
                            v.map_or(answer(None).to_string(), |v| v.to_string())
                        };
                        return Some(format!(
                            "{} changed: {} → {}",
                            mark.describe(),
                            show(old),
                            show(*value)
                        ));
                    }
                }
            }
        }
        None
    }

    /// The value of every `when` breakpoint and watch now, by mark id.
    fn values_now(&self) -> Vec<(u32, Option<WatchValue>)> {
        self.marks
            .iter()
            .filter_map(|m| match m {
                Mark::Break {
                    id,
                    breakpoint:
                        Breakpoint::When {
                            robot, condition, ..
                        },
                } => Some((
                    *id,
                    Some(WatchValue::Truth(
                        self.holds(*robot, condition).unwrap_or(false),
                    )),
                )),
                Mark::Watch {
                    id, robot, watched, ..
                } => Some((*id, self.value(*robot, watched))),
                Mark::Break { .. } => None,
            })
            .collect()
    }

    pub(super) fn refresh_values(&mut self) {
        self.values = self.values_now();
    }

    /// A condition's value for a robot now; `None` if the robot is destroyed.
    pub fn holds(&self, robot: RobotName, condition: &Condition) -> Option<bool> {
        let id = self.current().robot_by_name(robot)?;
        self.current()
            .robot(id)
            .alive
            .then(|| self.current().evaluate(id, condition))
    }

    /// A watch's value for a robot now; `None` if the robot is destroyed.
    pub fn value(&self, robot: RobotName, watched: &Watched) -> Option<WatchValue> {
        let id = self.current().robot_by_name(robot)?;
        let m = self.current();
        m.robot(id).alive.then(|| match watched {
            Watched::Condition(c) => WatchValue::Truth(m.evaluate(id, c)),
            Watched::Quantity(q) => WatchValue::Number(m.measure(id, q)),
        })
    }

    /// Every watch with its value now.
    pub fn watch_values(&self) -> Vec<(String, Option<WatchValue>)> {
        self.marks
            .iter()
            .filter_map(|m| match m {
                Mark::Watch { robot, watched, .. } => {
                    Some((m.describe(), self.value(*robot, watched)))
                }
                Mark::Break { .. } => None,
            })
            .collect()
    }

    pub(super) fn watch_lines(&self) -> String {
        self.watch_values()
            .into_iter()
            .map(|(text, value)| {
                let shown = value.map_or(answer(None).to_string(), |v| v.to_string());
                format!("{text} = {shown}\n")
            })
            .collect()
    }
}

fn event_matches(e: &Event, kind: EventKind, scope: Scope) -> bool {
    let kind_ok = matches!(
        (kind, e),
        (EventKind::Hit, Event::Hit { .. })
            | (
                EventKind::Destroyed,
                Event::Destroyed { .. }
                    | Event::Drowned { .. }
                    | Event::FellOff { .. }
                    | Event::Exploded { .. }
            )
            | (
                EventKind::StepLost,
                Event::StepLost { .. } | Event::Lightning { .. }
            )
            | (EventKind::Drowned, Event::Drowned { .. })
            | (EventKind::FellOff, Event::FellOff { .. })
            | (
                EventKind::Signal,
                Event::SignalSent { .. } | Event::SignalReceived { .. } | Event::SignalLost { .. }
            )
            | (EventKind::Stalled, Event::Stalled { .. })
    );
    kind_ok
        && e.robot().is_some_and(|r| match scope {
            Scope::Robot(name) => r == name,
            Scope::Team(t) => r.team == t,
        })
}
