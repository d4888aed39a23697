//! The end of a team's turn (signals by plan, R-A15, then the window for one by hand,
//! R-A13), the next team and round (the round limit, R-A18), and the ends of the scenarios
//! (RULES A.10).

use super::ongoing::Turn;
use crate::battle::engine::asking::query;
use crate::battle::engine::event::{EndReason, Event, Events, RobotName, SignalCause};
use crate::battle::engine::setup::{Scenario, SignalPlan};
use crate::battle::engine::state::{RobotId, TeamId};

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

impl Turn<'_> {
    /// A signal to robot `id` of `team`, sent if the rules allow it (R-A13, R-A14).
    #[inline]
    pub(crate) fn try_signal(
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
    #[inline(always)]
    pub(crate) fn end_team_turn(&mut self, team: TeamId, events: &mut impl Events) {
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

    #[inline]
    pub(crate) fn advance_team(&mut self, events: &mut impl Events) {
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

    /// Scenario 1's end, and the end of every scenario when no robot is left (RULES A.10).
    #[inline]
    pub(crate) fn check_end(&mut self, events: &mut impl Events) -> bool {
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
