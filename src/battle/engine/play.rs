//! The order of play: whose turn it is, the end of a team's turn (signals by plan, then the
//! window for one by hand, R-A13/R-A15), rounds, the round limit (R-A18) and the ends of the
//! scenarios (RULES A.10). One robot turn is [`step`], a function of `(&Fixed, &mut State)`.

use super::asking::query;
use super::event::{EndReason, Event, Events, RobotName, SignalCause};
use super::fixed::Fixed;
use super::setup::{Scenario, SignalPlan};
use super::state::{Outcome, RobotId, State, TeamId};
use crate::battle::terrain::TeamColour;

/// Why a signal by hand was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SignalError {
    #[error("signals are sent at the end of the sender's own turn")]
    NotYourTurnEnd,
    #[error("the team has no signals left (5 per game)")]
    NoneLeft,
    #[error("the team has already sent a signal this turn (R-A13)")]
    AlreadySent,
    #[error("{0} is destroyed")]
    RobotDestroyed(RobotName),
    #[error("step {0} is not a step of the program (1 to {1})")]
    BadStep(u8, usize),
    #[error("{0} already has a signal waiting")]
    AlreadyPending(RobotName),
}

/// One robot turn in progress: the fixed data and the state it changes.
pub(super) struct Turn<'a> {
    pub(super) fixed: &'a Fixed,
    pub(super) s: &'a mut State,
    /// A robot was taken off the board: the end of the match is checked.
    pub(super) removed: bool,
}

impl State {
    /// The team playing now (file index).
    pub(super) fn team_to_play(&self) -> TeamId {
        self.team_in_slot(self.clock.slot)
    }

    /// The team that plays `slot`-th in a round.
    #[inline]
    fn team_in_slot(&self, slot: usize) -> TeamId {
        let (n, i) = (self.teams.len().max(1), self.first_team.index() + slot);
        // Both are below the number of teams: one subtraction instead of a division.
        TeamId::at(if i < n { i } else { (i - n) % n })
    }
}

/// The first robot of `team` still alive, from index `from` within the team.
#[inline]
fn next_alive(fixed: &Fixed, s: &State, team: TeamId, from: usize) -> Option<RobotId> {
    let range = fixed.team_robots.get(team.index())?;
    let robots = s.robots.get(range.start + from..range.end)?;
    let i = robots.iter().position(|r| r.alive)?;
    Some(RobotId::at(range.start + from + i))
}

/// The robot about to act, if the match is not over.
pub(super) fn next_robot(fixed: &Fixed, s: &State) -> Option<RobotId> {
    if s.outcome.is_some() || s.teams.is_empty() {
        return None;
    }
    let mut clock = s.clock;
    for _ in 0..=s.teams.len() {
        let team = s.team_in_slot(clock.slot);
        if let Some(id) = next_alive(fixed, s, team, clock.next) {
            return Some(id);
        }
        clock.slot = (clock.slot + 1) % s.teams.len();
        clock.next = 0;
    }
    None
}

/// Plays one robot's turn, appending its events. Returns `false` if the match was over.
pub(super) fn step(fixed: &Fixed, s: &mut State, events: &mut impl Events) -> bool {
    if s.outcome.is_some() || s.teams.is_empty() {
        return false;
    }
    let mut turn = Turn {
        fixed,
        s,
        removed: false,
    };
    turn.s.signal_window = None;
    // Skip teams with nobody left to act this turn; the guard bounds a full lap.
    for _ in 0..=turn.s.teams.len() {
        let team = turn.s.team_to_play();
        let Some(id) = next_alive(fixed, turn.s, team, turn.s.clock.next) else {
            turn.advance_team(events);
            if turn.s.outcome.is_some() {
                return true;
            }
            continue;
        };
        turn.s.turns += 1;
        turn.s.clock.next = id.index() - fixed.team_robots[team.index()].start + 1;
        turn.robot_turn(id, events);
        // A match ends by a removal, or by what `finish` already recorded (RULES A.10):
        // before any, every team has robots on the board.
        if (turn.removed || turn.s.outcome.is_some()) && turn.check_end(events) {
            return true;
        }
        if next_alive(fixed, turn.s, team, turn.s.clock.next).is_none() {
            turn.end_team_turn(team, events);
            turn.advance_team(events);
        }
        return true;
    }
    // Nobody can act at all.
    turn.finish(None, EndReason::AllDestroyed, events);
    true
}

/// Sends a signal by hand: only for the team whose turn just ended (R-A13).
pub(super) fn send_signal(
    fixed: &Fixed,
    s: &mut State,
    id: RobotId,
    step: u8,
    events: &mut impl Events,
) -> Result<(), SignalError> {
    let team = s.robot(id).team;
    if s.signal_window != Some(team) {
        return Err(SignalError::NotYourTurnEnd);
    }
    Turn {
        fixed,
        s,
        removed: false,
    }
    .try_signal(team, id, step, SignalCause::ByHand, events)
}

impl Turn<'_> {
    fn try_signal(
        &mut self,
        team: TeamId,
        id: RobotId,
        step: u8,
        why: SignalCause,
        events: &mut impl Events,
    ) -> Result<(), SignalError> {
        let state = &self.s.teams[team.index()];
        let robot = &self.s.robots[id.index()];
        if state.signals_left == 0 {
            return Err(SignalError::NoneLeft);
        }
        if state.last_signal_round == Some(self.s.clock.round) {
            return Err(SignalError::AlreadySent);
        }
        if !robot.alive {
            return Err(SignalError::RobotDestroyed(robot.name));
        }
        if robot.pending_signal.is_some() {
            return Err(SignalError::AlreadyPending(robot.name));
        }
        let steps = self.fixed.rules.program_steps;
        if step == 0 || usize::from(step) > steps {
            return Err(SignalError::BadStep(step, steps));
        }
        let name = robot.name;
        self.s.robots[id.index()].pending_signal = Some(step);
        let state = &mut self.s.teams[team.index()];
        state.signals_left -= 1;
        state.last_signal_round = Some(self.s.clock.round);
        events.push(Event::SignalSent { robot: name, why });
        Ok(())
    }

    /// The end of a team's turn: planned signals (R-A15), then the window for one by hand.
    fn end_team_turn(&mut self, team: TeamId, events: &mut impl Events) {
        let fixed = self.fixed;
        let round = self.s.clock.round;
        for (t, plan) in &fixed.signals {
            if *t != team || self.s.teams[team.index()].last_signal_round == Some(round) {
                continue;
            }
            let first = fixed.team_robots[team.index()].start;
            let id = RobotId::at(first + usize::from(plan.robot().number) - 1);
            let (due, step, why) = match plan {
                SignalPlan::Scheduled {
                    round: at, step, ..
                } => (*at == round, *step, SignalCause::Scheduled),
                SignalPlan::Conditional { when, step, .. } => (
                    self.s.robot(id).alive && query::evaluate(fixed, self.s, id, when),
                    *step,
                    SignalCause::Condition,
                ),
            };
            if due {
                // A plan that breaks the rules (none left, robot gone, …) is simply not sent.
                let _ = self.try_signal(team, id, step, why, events);
            }
        }
        self.s.signal_window = Some(team);
    }

    fn advance_team(&mut self, events: &mut impl Events) {
        let clock = &mut self.s.clock;
        clock.next = 0;
        clock.slot += 1;
        if clock.slot == self.s.teams.len() {
            clock.slot = 0;
            if clock.round >= self.fixed.rules.rounds {
                self.finish(None, EndReason::RoundLimit, events);
                return;
            }
            clock.round += 1;
        }
    }

    pub(super) fn finish(
        &mut self,
        winner: Option<TeamColour>,
        reason: EndReason,
        events: &mut impl Events,
    ) {
        let round = self.s.clock.round;
        self.s.outcome = Some(Outcome {
            winner,
            reason,
            rounds: round,
        });
        events.push(Event::End {
            round,
            winner,
            reason,
        });
    }

    /// Scenario 1's end, and the end of every scenario when no robot is left (RULES A.10).
    fn check_end(&mut self, events: &mut impl Events) -> bool {
        if self.s.outcome.is_some() {
            return true;
        }
        let mut alive_teams = 0;
        let mut last = None;
        for (team, &colour) in self.s.teams.iter().zip(&self.fixed.teams) {
            if team.alive > 0 {
                alive_teams += 1;
                last = Some(colour);
            }
        }
        match (alive_teams, self.fixed.scenario) {
            (0, _) => self.finish(None, EndReason::AllDestroyed, events),
            (1, Scenario::Elimination) if self.s.teams.len() > 1 => {
                self.finish(last, EndReason::LastTeamStanding, events);
            }
            _ => return false,
        }
        true
    }
}
