//! The battle game of a room: its seats' programs, the table (`battle::live::hot_seat`, the
//! game of `robots play`) built from them, the players' decisions applied in order, and what
//! each connection may see of it. Played again from the stored decisions after a restart:
//! the engine is seeded and pure, so the game stands where it stood.

use super::store::{RoomRow, Seat};
use robots_games::battle::compare::tournament;
use robots_games::battle::engine::{
    Event, MatchSetup, PlaceError, RobotName, RobotNameError, RobotSetup, Rules, Scenario,
    TeamSetup, verdict,
};
use robots_games::battle::files::{board_file, match_file, shipped};
use robots_games::battle::hex::Direction;
use robots_games::battle::lang::Keywords;
use robots_games::battle::live::hot_seat::{HotSeat, Phase, Refusal, TableError};
use robots_games::battle::terrain::TeamColour;
use robots_games::text::diagnostic::Diagnostic;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::VecDeque;
use std::sync::Arc;

/// The lines of the log a state carries.
const LOG_LINES: usize = 200;

/// Why a room's match cannot be set up (its seats' messages say it as they are).
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error("the room's board is not a shipped one")]
    NotShipped,
    #[error("{0}")]
    Board(Diagnostic),
    #[error("the {0} seat has no player with a program")]
    NoPlayer(String),
    #[error("the {0} program does not load")]
    Program(String),
    #[error("no such scenario")]
    Scenario,
    #[error("{0}")]
    Table(#[from] TableError),
}

/// Why a decision is refused (the player's message says it as it is).
#[derive(Debug, thiserror::Error)]
pub enum DecisionError {
    #[error("the game has not started")]
    NotStarted,
    #[error("that hex is off the board")]
    OffBoard,
    #[error("a facing is 1 to 6 (R-A1)")]
    Facing,
    #[error("{0}")]
    Place(#[from] PlaceError),
    #[error("{0}")]
    Name(#[from] RobotNameError),
    #[error("{0}")]
    Signal(#[from] Refusal),
    #[error("it is not your turn to do that")]
    NotYourTurn,
}

/// A player's decision, as the room's log keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum Action {
    Place { at: [i32; 2], facing: u8 },
    Signal { turn: u64, robot: String, step: u8 },
    Skip { turn: u64 },
}

/// Who looks: a seat's player, or a spectator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Viewer {
    pub seat: Option<TeamColour>,
}

pub struct Battle {
    pub room: RoomRow,
    pub seats: Vec<Seat>,
    pub table: Option<HotSeat>,
    pub log: VecDeque<String>,
    pub paused: bool,
    pub pace: f64,
}

pub fn colour(seat: &Seat) -> TeamColour {
    TeamColour::parse(&seat.colour).unwrap_or(TeamColour::Green)
}

/// The match of the room: its board and rules, each seat's program as its team (K copies),
/// the room's seed; no placement (the players place by hand).
pub fn match_setup(room: &RoomRow, seats: &[Seat]) -> Result<MatchSetup, SetupError> {
    let s = &room.settings;
    let text = shipped::board(&s.board).ok_or(SetupError::NotShipped)?;
    let board = board_file::parse_board(&s.board, text).map_err(SetupError::Board)?;
    let mut teams = Vec::new();
    for seat in seats {
        let (Some((_, name)), Some(source)) = (&seat.player, &seat.source) else {
            return Err(SetupError::NoPlayer(seat.colour.clone()));
        };
        let program = match_file::parse_program_file_in(name, source, Keywords::Plain)
            .map_err(|_| SetupError::Program(seat.colour.clone()))?;
        let (program, source) = (Arc::new(program), Arc::<str>::from(source.as_str()));
        let robot = RobotSetup {
            program,
            origin: name.clone(),
            source,
            at: None,
            facing: None,
        };
        teams.push(TeamSetup {
            colour: colour(seat),
            robots: vec![robot; usize::from(s.robots)],
        });
    }
    Ok(MatchSetup {
        name: format!("room {}", room.code),
        board: Arc::new(board),
        scenario: Scenario::from_number(u32::from(s.scenario)).ok_or(SetupError::Scenario)?,
        rules: Rules {
            rounds: s.rounds,
            ..Rules::with_keywords(Keywords::Plain)
        },
        seed: room.seed,
        teams,
        signals: Vec::new(),
    })
}

impl Battle {
    pub fn new(room: RoomRow, seats: Vec<Seat>) -> Battle {
        let pace = room.pace.unwrap_or(room.settings.pace);
        let paused = room.paused;
        Battle {
            room,
            seats,
            table: None,
            log: VecDeque::new(),
            paused,
            pace,
        }
    }

    /// Builds the table once the host starts.
    pub fn start(&mut self) -> Result<(), SetupError> {
        let setup = match_setup(&self.room, &self.seats)?;
        let colours: Vec<TeamColour> = self.seats.iter().map(colour).collect();
        let table = HotSeat::new(setup, &colours)?;
        self.table = Some(table);
        self.begin();
        Ok(())
    }

    /// Starts the match once every robot is placed.
    fn begin(&mut self) {
        if let Some(t) = &mut self.table
            && t.phase() == Phase::Confirm
        {
            let _ = t.start();
        }
    }

    pub fn phase(&self) -> Option<Phase> {
        self.table.as_ref().map(HotSeat::phase)
    }

    /// Robot turns played.
    pub fn turn(&self) -> u64 {
        self.table
            .as_ref()
            .and_then(HotSeat::session)
            .map_or(0, |s| s.timeline().turn())
    }

    /// One robot turn, its log lines kept; `false` when none could be played.
    pub fn step(&mut self) -> bool {
        let Some(events) = self.table.as_mut().and_then(HotSeat::step) else {
            return false;
        };
        self.keep(&events);
        true
    }

    fn keep(&mut self, events: &[Event]) {
        for e in events {
            for line in e.log_line().lines() {
                self.log.push_back(line.to_string());
            }
        }
        while self.log.len() > LOG_LINES {
            self.log.pop_front();
        }
    }

    /// Plays robot turns until `turn`; a signal window with no decision stored was skipped.
    pub fn catch_up(&mut self, turn: u64) {
        while self.turn() < turn {
            match self.phase() {
                Some(Phase::Signal { .. }) => {
                    if let Some(t) = self.table.as_mut() {
                        t.skip();
                    }
                }
                Some(Phase::Play) => {
                    if !self.step() {
                        break;
                    }
                }
                _ => break,
            }
        }
    }

    /// A decision, checked by the table's rules; the colour is the player's who decides.
    pub fn apply(&mut self, by: TeamColour, action: &Action) -> Result<(), DecisionError> {
        let table = self.table.as_mut().ok_or(DecisionError::NotStarted)?;
        match (action, table.phase()) {
            (Action::Place { at, facing }, Phase::Place { robot, .. }) if robot.team == by => {
                let board = Arc::clone(&table.setup().board);
                let cell = board
                    .cell_at_offset(at[0], at[1])
                    .ok_or(DecisionError::OffBoard)?;
                let facing =
                    Direction::from_number(u32::from(*facing)).ok_or(DecisionError::Facing)?;
                table.place(cell, facing)?;
                self.begin();
                Ok(())
            }
            (Action::Signal { robot, step, .. }, Phase::Signal { team, .. }) if team == by => {
                let robot = RobotName::parse(robot)?;
                Ok(table.signal(robot, *step)?)
            }
            (Action::Skip { .. }, Phase::Signal { team, .. }) if team == by => {
                table.skip();
                Ok(())
            }
            _ => Err(DecisionError::NotYourTurn),
        }
    }

    /// The colour the game waits for, if it waits for a player: a placement (signals are set
    /// ahead and never hold the match up).
    pub fn waiting_for(&self) -> Option<TeamColour> {
        match self.phase()? {
            Phase::Place { robot, .. } => Some(robot.team),
            _ => None,
        }
    }

    /// The colour whose decision the table asks for now: a placement or a signal window.
    pub fn decider(&self) -> Option<TeamColour> {
        match self.phase()? {
            Phase::Place { robot, .. } => Some(robot.team),
            Phase::Signal { team, .. } => Some(team),
            _ => None,
        }
    }

    pub fn is_over(&self) -> bool {
        self.phase() == Some(Phase::Over)
    }

    /// The computer's decision for an absent player: a start point and facing drawn from the
    /// room's seed (a signal window never waits for anyone: `actor::signal_window`).
    pub fn computer_action(&self) -> Option<Action> {
        let table = self.table.as_ref()?;
        match table.phase() {
            Phase::Place { free, slot, .. } => {
                let board = &table.setup().board;
                let mix = self.room.seed ^ (slot.team as u64) << 32 ^ slot.robot as u64;
                let pick = tournament::game_seed(
                    "computer",
                    "place",
                    u32::try_from(mix % 1_000_003).unwrap_or(0),
                );
                let cell =
                    *free.get(usize::try_from(pick % free.len().max(1) as u64).unwrap_or(0))?;
                let (col, row) = board.offset(cell);
                let at = [i32::try_from(col).ok()?, i32::try_from(row).ok()?];
                Some(Action::Place {
                    at,
                    facing: u8::try_from(pick % 6 + 1).unwrap_or(1),
                })
            }
            _ => None,
        }
    }

    /// The game as a match file (every program in it), once over.
    pub fn match_file(&self) -> Option<String> {
        self.is_over()
            .then(|| self.table.as_ref()?.match_file())
            .flatten()
    }

    fn robots(&self, viewer: Viewer) -> (Vec<Value>, Vec<Value>) {
        let Some(table) = &self.table else {
            return (Vec::new(), Vec::new());
        };
        let board = &table.setup().board;
        let at = |cell| {
            let (c, r) = board.offset(cell);
            json!([c, r])
        };
        let Some(session) = table.session() else {
            let robots = table
                .placing()
                .placed()
                .into_iter()
                .map(|(slot, cell, facing)| {
                    let team = table.setup().teams[slot.team].colour;
                    json!({"name": format!("{team}.{}", slot.robot + 1), "team": team.name(), "at": at(cell),
                           "facing": facing.number(), "alive": true, "shots": robots_games::battle::engine::SHOTS, "signal": false})
                })
                .collect();
            return (robots, Vec::new());
        };
        let m = session.current();
        let mut robots = Vec::new();
        let mut mine = Vec::new();
        for id in m.robot_ids() {
            let r = m.robot(id);
            let team = m.team(r.team).colour;
            robots.push(
                json!({"name": r.name.to_string(), "team": team.name(), "at": at(r.cell),
                "facing": r.facing.number(), "alive": r.alive, "shots": r.shots,
                "signal": r.pending_signal.is_some()}),
            );
            // A pending signal's step is its sender's only (R-A23).
            if let (Some(step), true) = (r.pending_signal, viewer.seat == Some(team)) {
                mine.push(json!({"robot": r.name.to_string(), "step": step}));
            }
        }
        (robots, mine)
    }

    /// What a player may signal while the match plays: their robots alive with no signal
    /// waiting, the signals left, and the one armed for the end of their next turn.
    fn signal_choice(&self, team: TeamColour) -> Option<Value> {
        let m = self.table.as_ref()?.session()?.current();
        if m.is_over() {
            return None;
        }
        let t = m
            .robot_ids()
            .map(|id| m.robot(id).team)
            .find(|&t| m.team(t).colour == team)?;
        let left = m.team(t).signals_left;
        let robots: Vec<String> = m
            .robot_ids()
            .map(|id| m.robot(id))
            .filter(|r| r.team == t && r.alive && r.pending_signal.is_none())
            .map(|r| r.name.to_string())
            .collect();
        let seat = self.seats.iter().position(|s| colour(s) == team)?;
        let armed = self.seats[seat]
            .armed
            .as_ref()
            .map(|(robot, step)| json!({"robot": robot, "step": step}));
        (left > 0).then(|| json!({"robots": robots, "left": left, "armed": armed}))
    }

    /// What `viewer` may know now (docs/ROOMS.md, "The protocol").
    pub fn state(&self, viewer: Viewer, online: &[bool], computer: &[bool]) -> Value {
        let phase = match self.phase() {
            None if self.room.state == "writing" => "writing",
            None | Some(Phase::Place { .. } | Phase::Confirm) => "placing",
            Some(Phase::Over) => "over",
            Some(_) => "playing",
        };
        let seats: Vec<Value> = self
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                json!({"colour": s.colour, "player": s.player.as_ref().map(|p| &p.1),
                "ready": s.ready, "online": online.get(i).copied().unwrap_or(false),
                "computer": computer.get(i).copied().unwrap_or(false)})
            })
            .collect();
        let program = viewer
            .seat
            .and_then(|c| self.seats.iter().find(|s| colour(s) == c))
            .and_then(|s| s.source.clone());
        let revealed: Vec<Value> = if self.is_over() {
            self.seats
                .iter()
                .map(|s| json!({"colour": s.colour, "source": s.source}))
                .collect()
        } else {
            Vec::new()
        };
        let place = match self.phase() {
            Some(Phase::Place { robot, free, .. }) => self.table.as_ref().map(|t| {
                let free: Vec<Value> = free
                    .iter()
                    .map(|&c| {
                        let (x, y) = t.setup().board.offset(c);
                        json!([x, y])
                    })
                    .collect();
                json!({"robot": robot.to_string(), "free": free})
            }),
            _ => None,
        };
        let ask_signal = viewer.seat.and_then(|team| self.signal_choice(team));
        let (robots, my_signals) = self.robots(viewer);
        let session = self.table.as_ref().and_then(HotSeat::session);
        let round = session.map_or(0, |s| s.current().state().round());
        let result = session.and_then(|s| s.current().outcome()).map(|o| {
            json!({"winner": o.winner.map(TeamColour::name), "verdict": verdict(o.winner, o.reason), "rounds": o.rounds})
        });
        json!({
            "type": "state", "phase": phase, "seats": seats, "program": program, "revealed": revealed,
            "waiting_for": self.waiting_for().map(TeamColour::name), "place": place, "robots": robots,
            "ask_signal": ask_signal, "my_signals": my_signals, "round": round, "turn": self.turn(),
            "paused": self.paused, "pace": self.pace, "log": self.log, "result": result,
        })
    }
}
