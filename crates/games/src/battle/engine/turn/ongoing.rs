//! One robot turn in progress ([`Turn`]: the fixed data and the state it changes), and the
//! two changes any part of a turn may make: taking a robot off the board, ending the match.

use crate::battle::engine::event::{EndReason, Event, Events};
use crate::battle::engine::fixed::Fixed;
use crate::battle::engine::state::{Outcome, RobotId, State};
use crate::battle::terrain::TeamColour;

/// One robot turn in progress: the fixed data and the state it changes.
pub(crate) struct Turn<'a> {
    pub(crate) fixed: &'a Fixed,
    pub(crate) s: &'a mut State,
    /// A robot was taken off the board: the end of the match is checked.
    pub(crate) removed: bool,
}

impl<'a> Turn<'a> {
    /// A turn about to start: nothing taken off the board yet.
    #[inline(always)]
    pub(crate) fn new(fixed: &'a Fixed, s: &'a mut State) -> Turn<'a> {
        Turn {
            fixed,
            s,
            removed: false,
        }
    }

    /// The match ends: its outcome, and the event that says so.
    #[inline]
    pub(crate) fn finish(
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

    /// Takes a robot off the board; a signal waiting for it is lost (RULES A.8).
    #[inline]
    pub(crate) fn remove(&mut self, id: RobotId, events: &mut impl Events) {
        self.removed = true;
        let robot = &mut self.s.robots[id.index()];
        if robot.alive {
            self.s.teams[robot.team.index()].alive -= 1;
        }
        robot.alive = false;
        self.s.on_board &= !id.bit();
        if self.s.occupant[robot.cell.index()] == Some(id) {
            self.s.occupant[robot.cell.index()] = None;
        }
        if robot.pending_signal.take().is_some() {
            events.push(Event::SignalLost { robot: robot.name });
        }
    }
}
