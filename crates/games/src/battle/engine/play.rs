//! The order of play: whose turn it is, one robot turn after another, and a signal by hand
//! (R-A13). One robot turn is [`step`], a function of `(&Fixed, &mut State)`; what a turn
//! does is in `turn/` (`turn/team.rs`: the end of a team's turn, rounds, the round limit,
//! R-A18, and the ends of the scenarios, A.10).

use super::event::{EndReason, Events, SignalCause, Unrecorded};
use super::fixed::Fixed;
use super::state::{RobotId, State, TeamId, low_bits};
use super::turn::brain::Brain;
use super::turn::ongoing::Turn;
use super::turn::plan::Plan;
use super::turn::team::SignalError;

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
        TeamId::at(if i < n { i } else { i - n })
    }
}

/// The robots of `team` still alive from index `from` within the team, as bits of
/// [`State::on_board`].
#[inline]
fn alive_from(fixed: &Fixed, s: &State, team: TeamId, from: usize) -> u64 {
    let team = fixed.team_bits.get(team.index()).copied().unwrap_or(0);
    // The team's first robot is its lowest bit.
    let first = usize::try_from(team.trailing_zeros()).unwrap_or(64);
    s.on_board & team & !low_bits(first + from)
}

/// The robot of the lowest bit of `alive` (not 0).
#[inline]
fn first_of(alive: u64) -> RobotId {
    RobotId::at(usize::try_from(alive.trailing_zeros()).unwrap_or(0))
}

/// The first robot of `team` still alive, from index `from` within the team.
#[inline]
fn next_alive(fixed: &Fixed, s: &State, team: TeamId, from: usize) -> Option<RobotId> {
    let alive = alive_from(fixed, s, team, from);
    (alive != 0).then(|| first_of(alive))
}

/// The first robot of `team` still alive from index `from` within the team, and whether
/// another of the team is alive after it: one look for the turn's robot and for the end of
/// the team's turn.
#[inline]
fn next_two_alive(fixed: &Fixed, s: &State, team: TeamId, from: usize) -> Option<(RobotId, bool)> {
    let alive = alive_from(fixed, s, team, from);
    let more = alive & alive.wrapping_sub(1) != 0;
    (alive != 0).then(|| (first_of(alive), more))
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
// Out of line, the turn's parts (`turn/`, marked `#[inline]`) inlined into it: as few
// instructions a turn as when they shared one file (callgrind).
#[inline(never)]
pub(super) fn step(fixed: &Fixed, s: &mut State, events: &mut impl Events) -> bool {
    turn(fixed, s, events)
}

/// Plays to the end without building events: [`step`] after [`step`], in one loop; the
/// quiet loop ([`quiet_loop`]) when every robot has a brain and no calculator.
#[inline(never)]
pub(super) fn play_out(fixed: &Fixed, s: &mut State) {
    let n = s.robots.len();
    let minds = (s.memories.is_empty() && fixed.plans.len() == n && fixed.brains.len() == n)
        .then(|| {
            let minds = fixed.plans.iter().zip(&fixed.brains);
            minds
                .map(|(p, b)| Some((p.as_deref()?, b.as_deref()?)))
                .collect::<Option<Vec<_>>>()
        })
        .flatten();
    match minds {
        Some(minds) => quiet_loop(fixed, s, &minds),
        None => slow_loop(fixed, s),
    }
}

/// The turns one by one through [`turn`], when the quiet loop cannot be used. Out of line in
/// WebAssembly, so that the page's optimising compiler has a smaller `play_out` to compile
/// while the match is already running in its baseline code.
#[cfg_attr(target_arch = "wasm32", inline(never))]
fn slow_loop(fixed: &Fixed, s: &mut State) {
    while turn(fixed, s, &mut Unrecorded) {}
}

/// The turns [`turn`] plays one by one, a team's turn at a time: the team and its robots'
/// plans and brains looked up once, and the next robot of the team found by one scan after
/// each turn (robots are only ever taken off the board).
#[inline(always)]
fn quiet_loop(fixed: &Fixed, s: &mut State, minds: &[(&Plan, &Brain)]) {
    // Teams passed with nobody left to act since the last robot turn: `turn`'s guard.
    let mut passed = 0;
    while s.outcome.is_none() && !s.teams.is_empty() {
        s.signal_window = None;
        let team = s.team_to_play();
        let Some(mut id) = next_alive(fixed, s, team, s.clock.next) else {
            Turn::new(fixed, s).advance_team(&mut Unrecorded);
            passed += 1;
            if s.outcome.is_none() && passed > s.teams.len() {
                Turn::new(fixed, s).finish(None, EndReason::AllDestroyed, &mut Unrecorded);
            }
            continue;
        };
        passed = 0;
        let start = fixed.team_robots[team.index()].start;
        loop {
            s.turns += 1;
            s.clock.next = id.index() - start + 1;
            let (plan, brain) = minds[id.index()];
            let mut turn = Turn::new(fixed, s);
            turn.quiet_turn(id, plan, brain);
            if (turn.removed || turn.s.outcome.is_some()) && turn.check_end(&mut Unrecorded) {
                return;
            }
            match next_alive(fixed, turn.s, team, turn.s.clock.next) {
                Some(next) => id = next,
                None => {
                    turn.end_team_turn(team, &mut Unrecorded);
                    turn.advance_team(&mut Unrecorded);
                    break;
                }
            }
        }
    }
}

/// One robot's turn ([`step`]).
#[inline(always)]
fn turn(fixed: &Fixed, s: &mut State, events: &mut impl Events) -> bool {
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
        let Some((id, more)) = next_two_alive(fixed, turn.s, team, turn.s.clock.next) else {
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
        // Robots are only ever taken off the board: unless one was, the scan before the turn
        // still tells whether the team has another robot to play.
        let more = if turn.removed {
            next_alive(fixed, turn.s, team, turn.s.clock.next).is_some()
        } else {
            more
        };
        if !more {
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
