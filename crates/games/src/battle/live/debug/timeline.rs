//! A match with a past: play forward one robot turn at a time, go back to any earlier turn,
//! and replay. States are kept every [`CHECKPOINT_EVERY`] turns; going back restores the
//! nearest one before the target and replays forward, which the engine's determinism makes
//! exact. Signals sent by hand are inputs of the timeline, replayed at the same turn.

use crate::battle::engine::{Event, Match, RobotId, SignalError, State};
use crate::battle::terrain::TeamColour;

/// A turn count as an index into the timeline's arrays (which hold the turns of the window,
/// so it fits).
fn index(turn: u64) -> usize {
    usize::try_from(turn).unwrap_or(usize::MAX)
}

/// An index of the timeline's arrays as a turn count.
fn turns(index: usize) -> u64 {
    u64::try_from(index).unwrap_or(u64::MAX)
}

/// How many robot turns apart the kept states start: a state is kept at the first round start
/// at least this many turns after the last one kept. Going back replays from the nearest one.
pub const CHECKPOINT_EVERY: u64 = 64;

/// At most this many bytes of kept states: past it, every other one is let go and the spacing
/// doubles, so memory stays bounded however long the match (going back stays exact; it only
/// replays more).
const CHECKPOINT_BYTES: usize = 32 << 20;

/// The log keeps the events of at least this many recent robot turns (and at most twice as
/// many); older events are let go, so memory stays flat however far one steps.
pub const LOG_TURNS: u64 = 1 << 16;

/// One robot turn played: its round and its team.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    pub round: u32,
    pub team: TeamColour,
}

/// The match with its past. Invariants: every kept state is at the start of a round (or turn
/// 0) and after that turn's signals by hand; the log window starts at the start of a round
/// `log_from` and covers every turn from there to `turn`.
#[derive(Clone, Debug)]
pub struct Timeline {
    /// `(turn, state)`, by turn; the first is turn 0.
    checkpoints: Vec<(u64, State)>,
    /// Turns between kept states, at least.
    spacing: u64,
    /// How many states fit in [`CHECKPOINT_BYTES`].
    max_checkpoints: usize,
    current: Match,
    /// Robot turns played to reach `current`.
    turn: u64,
    /// The turn the log window starts after.
    log_from: u64,
    /// The events of turns `log_from + 1 ..= turn`, and of the signals sent after them.
    log: Vec<Event>,
    /// `log_ends[k]`: the log's length once turn `log_from + k` and its inputs are done.
    log_ends: Vec<usize>,
    /// `played[k]`: turn `log_from + k + 1`.
    played: Vec<Played>,
    /// Signals by hand: `(turn, robot, step)`, sent after turn `turn`, in order.
    inputs: Vec<(u64, RobotId, u8)>,
}

impl Timeline {
    pub fn new(start: Match) -> Timeline {
        let state_bytes = std::mem::size_of::<State>()
            + std::mem::size_of_val(start.robots())
            + start.board().len() * 2
            + start.teams().len() * 16;
        Timeline {
            checkpoints: vec![(0, start.state().clone())],
            spacing: CHECKPOINT_EVERY,
            max_checkpoints: (CHECKPOINT_BYTES / state_bytes.max(1)).max(64),
            current: start,
            turn: 0,
            log_from: 0,
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

    /// The events kept, in order: those of the turns after [`Timeline::log_start`].
    pub fn log(&self) -> &[Event] {
        &self.log
    }

    /// The turn the kept log starts after (0 until the log has let old turns go).
    pub fn log_start(&self) -> u64 {
        self.log_from
    }

    /// How many states are kept, and at most (for tests of the memory bound).
    pub fn checkpoints_kept(&self) -> (usize, usize) {
        (self.checkpoints.len(), self.max_checkpoints)
    }

    /// The events of turn `t` (1-based) and of the signals sent after it, if still kept.
    pub fn events_of(&self, t: u64) -> &[Event] {
        let Some(k) = t.checked_sub(self.log_from).filter(|&k| k > 0) else {
            return &[];
        };
        match (self.log_ends.get(index(k - 1)), self.log_ends.get(index(k))) {
            (Some(&a), Some(&b)) => &self.log[a..b],
            _ => &[],
        }
    }

    /// The events since turn `t` (exclusive), as far as they are kept.
    pub fn events_since(&self, t: u64) -> &[Event] {
        let from = t
            .checked_sub(self.log_from)
            .and_then(|k| self.log_ends.get(index(k)))
            .copied()
            .unwrap_or(0);
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
        self.keep_state();
        self.trim_log();
        true
    }

    /// Whether the state is at the start of a round (a team turn's start too).
    fn at_round_start(&self) -> bool {
        let clock = self.current.clock();
        !self.current.is_over() && clock.slot == 0 && clock.next == 0
    }

    /// Keeps the state at the first round start `spacing` turns after the last kept one;
    /// past the budget, lets every other kept state go and doubles the spacing.
    fn keep_state(&mut self) {
        let last = self.checkpoints.last().map_or(0, |c| c.0);
        if self.turn < last + self.spacing || !self.at_round_start() {
            return;
        }
        self.checkpoints
            .push((self.turn, self.current.state().clone()));
        if self.checkpoints.len() > self.max_checkpoints {
            let mut k = 0;
            self.checkpoints.retain(|_| {
                k += 1;
                k % 2 == 1
            });
            self.spacing = self.spacing.saturating_mul(2);
        }
    }

    /// Lets the oldest turns of the log go once it holds twice [`LOG_TURNS`], cutting at a
    /// round start so the window still starts at one.
    fn trim_log(&mut self) {
        if turns(self.played.len()) < 2 * LOG_TURNS {
            return;
        }
        let from = index(LOG_TURNS);
        let Some(k) =
            (from..self.played.len()).find(|&k| self.played[k].round != self.played[k - 1].round)
        else {
            return;
        };
        let cut = self.log_ends[k];
        self.log.drain(..cut);
        self.log_ends.drain(..k);
        for end in &mut self.log_ends {
            *end -= cut;
        }
        self.played.drain(..k);
        self.log_from += turns(k);
    }

    /// Goes to the state after `target` robot turns: back through a kept state and a replay,
    /// or forward (stopping early if the match ends first).
    pub fn go_to(&mut self, target: u64) {
        if target < self.turn {
            let k = self
                .checkpoints
                .iter()
                .rposition(|c| c.0 <= target)
                .unwrap_or(0);
            let (at, state) = self.checkpoints[k].clone();
            self.current = self.current.with_state(state);
            self.turn = at;
            if at >= self.log_from {
                let k = index(at - self.log_from);
                self.log.truncate(self.log_ends[k]);
                self.log_ends.truncate(k + 1);
                self.played.truncate(k);
            } else {
                // Before the window: a new one starts at this kept state (a round start).
                self.log_from = at;
                self.log.clear();
                self.log_ends = vec![0];
                self.played.clear();
            }
        }
        while self.turn < target && self.step() {}
    }

    /// The turn of the last kept state before turn `t` (0, the start, at worst): where a
    /// search backwards replays from.
    pub fn kept_before(&self, t: u64) -> u64 {
        self.checkpoints
            .iter()
            .rev()
            .map(|c| c.0)
            .find(|&c| c < t)
            .unwrap_or(0)
    }

    /// Sends a signal by hand after the current turn (R-A13 is checked by the engine). The
    /// future recorded beyond this turn no longer holds and is forgotten.
    pub fn send_signal(&mut self, robot: RobotId, step: u8) -> Result<(), SignalError> {
        let mut events = Vec::new();
        self.current.send_signal(robot, step, &mut events)?;
        let turn = self.turn;
        self.inputs.retain(|(at, ..)| *at <= turn);
        self.inputs.push((turn, robot, step));
        self.checkpoints.retain(|c| c.0 <= turn);
        if let Some(last) = self.checkpoints.last_mut()
            && last.0 == turn
        {
            last.1 = self.current.state().clone();
        }
        self.log.extend(events);
        let k = index(turn - self.log_from);
        self.log_ends[k] = self.log.len();
        Ok(())
    }

    /// Turns where a new team turn (`by_team`) or a new round starts, within the window (its
    /// start is a round start).
    fn starts(&self, by_team: bool) -> impl Iterator<Item = u64> + '_ {
        let key = move |p: &Played| (p.round, by_team.then_some(p.team));
        (0..self.played.len())
            .filter(move |&i| i == 0 || key(&self.played[i - 1]) != key(&self.played[i]))
            .map(|i| self.log_from + turns(i))
    }

    /// Back to the latest start before the current turn (moving the window back if need be).
    fn back_to_start(&mut self, by_team: bool) {
        let from = self.turn;
        loop {
            if let Some(target) = self.starts(by_team).filter(|&s| s < from).max() {
                self.go_to(target);
                return;
            }
            if self.log_from == 0 {
                self.go_to(0);
                return;
            }
            // The window starts at `from`: open an earlier one.
            self.go_to(self.log_from - 1);
        }
    }

    /// Back to the start of the current team's turn, or of the previous one if already there.
    pub fn back_team_turn(&mut self) {
        self.back_to_start(true);
    }

    /// Back to the start of the current round, or of the previous one if already there.
    pub fn back_round(&mut self) {
        self.back_to_start(false);
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

    /// The start of round `n`: back to the kept state at or before it and forward from there,
    /// or forward until it begins.
    pub fn go_to_round(&mut self, n: u32) {
        if self.current.clock().round >= n {
            let start = self
                .checkpoints
                .iter()
                .rev()
                .find(|c| c.1.round() <= n && c.0 <= self.turn)
                .map_or(0, |c| c.0);
            self.go_to(start);
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
