//! A match with a past: play forward one robot turn at a time, go back to any earlier turn,
//! and replay. States are kept every [`CHECKPOINT_EVERY`] turns; going back restores the
//! nearest one before the target and replays forward, which the engine's determinism makes
//! exact. Signals sent by hand are inputs of the timeline, replayed at the same turn.

use crate::battle::engine::{Event, Match, RobotId, SignalError, State};
use crate::battle::terrain::TeamColour;

/// A turn count as an index into the timeline's arrays (which hold every turn played, so
/// it fits).
fn index(turn: u64) -> usize {
    usize::try_from(turn).unwrap_or(usize::MAX)
}

/// An index of the timeline's arrays as a turn count.
fn turns(index: usize) -> u64 {
    u64::try_from(index).unwrap_or(u64::MAX)
}

/// How many robot turns apart the kept states are: going back replays at most this many
/// turns less one.
pub const CHECKPOINT_EVERY: u64 = 64;

/// One robot turn played: its round and its team.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    pub round: u32,
    pub team: TeamColour,
}

#[derive(Clone, Debug)]
pub struct Timeline {
    /// `checkpoints[k]` is the state after `k * CHECKPOINT_EVERY` turns (its inputs applied).
    checkpoints: Vec<State>,
    current: Match,
    /// Robot turns played to reach `current`.
    turn: u64,
    log: Vec<Event>,
    /// `log_ends[t]`: the log's length once turn `t` and its inputs are done.
    log_ends: Vec<usize>,
    /// `played[t - 1]`: turn `t`.
    played: Vec<Played>,
    /// Signals by hand: `(turn, robot, step)`, sent after turn `turn`, in order.
    inputs: Vec<(u64, RobotId, u8)>,
}

impl Timeline {
    pub fn new(start: Match) -> Timeline {
        Timeline {
            checkpoints: vec![start.state().clone()],
            current: start,
            turn: 0,
            log: Vec::new(),
            log_ends: vec![0],
            played: Vec::new(),
            inputs: Vec::new(),
        }
    }

    pub fn current(&self) -> &Match {
        &self.current
    }

    /// Robot turns played so far.
    pub fn turn(&self) -> u64 {
        self.turn
    }

    /// Every event so far, in order.
    pub fn log(&self) -> &[Event] {
        &self.log
    }

    /// The events of turn `t` (1-based) and of the signals sent after it.
    pub fn events_of(&self, t: u64) -> &[Event] {
        let t = index(t);
        match (self.log_ends.get(t.wrapping_sub(1)), self.log_ends.get(t)) {
            (Some(&a), Some(&b)) => &self.log[a..b],
            _ => &[],
        }
    }

    /// The events since turn `t` (exclusive).
    pub fn events_since(&self, t: u64) -> &[Event] {
        let from = self
            .log_ends
            .get(index(t))
            .copied()
            .unwrap_or(self.log.len());
        &self.log[from.min(self.log.len())..]
    }

    /// The signals sent by hand: `(turn, robot, step)`, each sent after that turn.
    pub fn inputs(&self) -> &[(u64, RobotId, u8)] {
        &self.inputs
    }

    /// Plays one robot turn; `false` if the match was over.
    pub fn step(&mut self) -> bool {
        let before = self.log.len();
        if !self.current.step_into(&mut self.log) {
            return false;
        }
        self.turn += 1;
        let robot = self.log[before..].iter().find_map(|e| match e {
            Event::Turn { round, robot } => Some((*round, *robot)),
            _ => None,
        });
        if let Some((round, name)) = robot {
            self.played.push(Played {
                round,
                team: name.team,
            });
        } else {
            // A step that only ended the match (nobody could act): keep the indices aligned.
            let last = self.played.last().copied();
            let clock = self.current.clock();
            self.played.push(last.unwrap_or(Played {
                round: clock.round,
                team: self.current.teams()[0].colour,
            }));
        }
        let turn = self.turn;
        for i in 0..self.inputs.len() {
            let (at, robot, step) = self.inputs[i];
            if at == turn {
                // Replaying an input that was accepted before cannot fail: same state.
                let _ = self.current.send_signal(robot, step, &mut self.log);
            }
        }
        self.log_ends.push(self.log.len());
        if turn.is_multiple_of(CHECKPOINT_EVERY)
            && self.checkpoints.len() as u64 == turn / CHECKPOINT_EVERY
        {
            self.checkpoints.push(self.current.state().clone());
        }
        true
    }

    /// Goes to the state after `target` robot turns: back through a checkpoint and a replay,
    /// or forward (stopping early if the match ends first).
    pub fn go_to(&mut self, target: u64) {
        if target < self.turn {
            let k = index(target / CHECKPOINT_EVERY).min(self.checkpoints.len() - 1);
            self.current = self.current.with_state(self.checkpoints[k].clone());
            self.turn = (target / CHECKPOINT_EVERY).min(turns(k)) * CHECKPOINT_EVERY;
            self.log.truncate(self.log_ends[index(self.turn)]);
            self.log_ends.truncate(index(self.turn) + 1);
            self.played.truncate(index(self.turn));
        }
        while self.turn < target && self.step() {}
    }

    /// Sends a signal by hand after the current turn (R-A13 is checked by the engine). The
    /// future recorded beyond this turn no longer holds and is forgotten.
    pub fn send_signal(&mut self, robot: RobotId, step: u8) -> Result<(), SignalError> {
        let mut events = Vec::new();
        self.current.send_signal(robot, step, &mut events)?;
        let turn = self.turn;
        self.inputs.retain(|(at, ..)| *at <= turn);
        self.inputs.push((turn, robot, step));
        self.checkpoints
            .truncate(index(turn / CHECKPOINT_EVERY) + 1);
        if turn.is_multiple_of(CHECKPOINT_EVERY) {
            self.checkpoints[index(turn / CHECKPOINT_EVERY)] = self.current.state().clone();
        }
        self.log.extend(events);
        self.log_ends[index(turn)] = self.log.len();
        Ok(())
    }

    /// Turn indices where a new team turn (`by_team`) or a new round starts; 0 is the first.
    fn starts(&self, by_team: bool) -> impl Iterator<Item = u64> + '_ {
        let key = move |p: &Played| (p.round, by_team.then_some(p.team));
        (0..self.played.len())
            .filter(move |&i| i == 0 || key(&self.played[i - 1]) != key(&self.played[i]))
            .map(|i| i as u64)
    }

    /// Back to the start of the current team's turn, or of the previous one if already there.
    pub fn back_team_turn(&mut self) {
        let target = self
            .starts(true)
            .filter(|&s| s < self.turn)
            .max()
            .unwrap_or(0);
        self.go_to(target);
    }

    /// Back to the start of the current round, or of the previous one if already there.
    pub fn back_round(&mut self) {
        let target = self
            .starts(false)
            .filter(|&s| s < self.turn)
            .max()
            .unwrap_or(0);
        self.go_to(target);
    }

    /// Forward to the end of the team turn under way (at least one robot turn).
    pub fn forward_team_turn(&mut self) {
        if !self.step() {
            return;
        }
        let last = *self.played.last().expect("a turn was played");
        while let Some(next) = self.current.next_robot() {
            let clock = self.current.clock();
            if clock.round != last.round || self.current.robot(next).name.team != last.team {
                break;
            }
            self.step();
        }
    }

    /// Forward to the end of the round under way (at least one robot turn).
    pub fn forward_round(&mut self) {
        if !self.step() {
            return;
        }
        let round = self.played.last().expect("a turn was played").round;
        while !self.current.is_over() && self.current.clock().round == round {
            self.step();
        }
    }

    /// The start of round `n`: back to the first turn played in it, or forward until it begins.
    pub fn go_to_round(&mut self, n: u32) {
        if let Some(i) = self.played.iter().position(|p| p.round >= n) {
            self.go_to(i as u64);
            return;
        }
        while !self.current.is_over() && self.current.clock().round < n {
            self.step();
        }
    }

    /// Replaces the starting state (after a reload), keeping nothing of the old past.
    pub fn restart(&mut self, start: Match) {
        *self = Timeline::new(start);
    }
}
