//! The match played turn by turn for the document, each frame made in one place, reused from
//! turn to turn: a robot's state is made only when it changed, the next robot's tests are
//! answered from their compiled form, the log lines are written into one string (issue 50).

use super::frame::{Frame, MemoryState, RobotState, ViewError};
use super::rows::EventRow;
use crate::battle::board::CellId;
use crate::battle::engine::{Event, Match, MatchSetup, RobotId};
use crate::battle::hex::Direction;

/// What the document says of a robot, to find at little cost whether it changed: its state
/// ([`RobotState`]) but the destroyed steps as their bits.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Seen {
    cell: CellId,
    facing: Direction,
    alive: bool,
    shots: u8,
    pointer: u8,
    next: usize,
    /// Steps 1–63 (the document lists no other).
    destroyed: u64,
    signal: bool,
}

impl Seen {
    fn of(game: &Match, id: RobotId) -> Seen {
        let r = game.robot(id);
        Seen {
            cell: r.cell,
            facing: r.facing,
            alive: r.alive,
            shots: r.shots,
            pointer: r.pointer,
            next: game.next_step(id),
            destroyed: r.destroyed & !1,
            signal: r.pending_signal.is_some(),
        }
    }
}

/// The match being played, and the frame of the turn played last (the start, at first).
pub(super) struct Player {
    pub game: Match,
    pub frame: Frame,
    seen: Vec<Seen>,
    memories: Vec<Option<MemoryState>>,
    events: Vec<Event>,
}

impl Player {
    /// The match of `setup` at its start, every robot (and memory) in its frame.
    pub fn new(setup: &MatchSetup) -> Result<Player, ViewError> {
        let game = Match::new(setup)?;
        let seen = game.robot_ids().map(|id| Seen::of(&game, id)).collect();
        let memories: Vec<_> = game.robot_ids().map(|id| memory(&game, id)).collect();
        let frame = Frame {
            r: 0,
            n: None,
            g: Vec::new(),
            d: game.robot_ids().map(|id| state(&game, id)).collect(),
            m: memories.iter().flatten().cloned().collect(),
            e: Vec::new(),
            l: String::new(),
            a: Vec::new(),
        };
        let mut player = Player {
            game,
            frame,
            seen,
            memories,
            events: Vec::new(),
        };
        fill(&player.game, &[], &mut player.frame);
        Ok(player)
    }

    /// Plays the next robot turn into the frame: `false` (the frame as it was) once the match
    /// is over; refused past `max_turns` robot turns.
    pub fn turn(&mut self, max_turns: u64) -> Result<bool, ViewError> {
        let game = &mut self.game;
        if game.is_over() {
            return Ok(false);
        }
        if game.turns_played() >= max_turns {
            return Err(ViewError::TooLong { max_turns });
        }
        self.events.clear();
        if !game.step_into(&mut self.events) {
            return Ok(false);
        }
        let game = &self.game;
        let frame = &mut self.frame;
        frame.d.clear();
        for (id, old) in game.robot_ids().zip(self.seen.iter_mut()) {
            let now = Seen::of(game, id);
            if now != *old {
                frame.d.push(state(game, id));
                *old = now;
            }
        }
        frame.m.clear();
        for (id, old) in game.robot_ids().zip(self.memories.iter_mut()) {
            if !same_memory(game, id, old.as_ref()) {
                let now = memory(game, id);
                frame.m.extend(now.clone());
                *old = now;
            }
        }
        fill(game, &self.events, frame);
        Ok(true)
    }
}

/// The frame's round, next robot, signals, events, log lines and answers for `game` after
/// `events` (its robots and memories are the caller's).
pub(super) fn fill(game: &Match, events: &[Event], frame: &mut Frame) {
    let next = game.next_robot();
    frame.r = game.clock().round;
    frame.n = next.map(RobotId::index);
    frame.g.clear();
    frame.g.extend(game.teams().iter().map(|t| t.signals_left));
    frame.e.clear();
    frame
        .e
        .extend(events.iter().map(|e| EventRow::new(game, e)));
    frame.l.clear();
    for e in events {
        e.write_log_line(&mut frame.l);
    }
    frame.a.clear();
    if let Some(id) = next {
        let answers = game.test_answers(id);
        frame
            .a
            .extend(answers.iter().flatten().map(|&a| u8::from(a)));
    }
}

pub(super) fn state(game: &Match, id: RobotId) -> RobotState {
    let r = game.robot(id);
    let (col, row) = game.board().offset(r.cell);
    RobotState(
        id.index(),
        col,
        row,
        r.facing.number(),
        u8::from(r.alive),
        r.shots,
        r.pointer,
        game.next_step(id),
        r.destroyed_steps(),
        u8::from(r.pending_signal.is_some()),
    )
}

/// A robot's memories, under the TI-57 rule only.
pub(super) fn memory(game: &Match, id: RobotId) -> Option<MemoryState> {
    game.memories(id).map(|c| {
        MemoryState(
            id.index(),
            c.x,
            c.t,
            c.r,
            c.remembered().to_vec(),
            u8::from(c.stopped),
        )
    })
}

/// Whether `old` is what [`memory`] would make now.
fn same_memory(game: &Match, id: RobotId, old: Option<&MemoryState>) -> bool {
    match (game.memories(id), old) {
        (None, None) => true,
        (Some(c), Some(old)) => {
            old.1 == c.x
                && old.2 == c.t
                && old.3 == c.r
                && old.4 == c.remembered()
                && old.5 == u8::from(c.stopped)
        }
        _ => false,
    }
}
