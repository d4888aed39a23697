//! The battle game of a room: its seats' programs, the table (`battle::live::hot_seat`, the
//! game of `robots play`) built from them, the players' decisions applied in order, and what
//! each connection may see of it. Played again from the stored decisions after a restart:
//! the engine is seeded and pure, so the game stands where it stood.

use super::protocol::{
    self, BattlePhase, BattleResult, BattleState, Placing, Revealed, RobotShown, SignalChoice,
    SignalShown,
};
use super::seats::Seats;
use super::store::{RoomRow, RoomState, Seat};
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
    pub seats: Seats,
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
        let (Some(super::store::Player { name, .. }), Some(source)) = (&seat.player, &seat.source)
        else {
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
        let seats = Seats::new(seats, room.settings.timeout);
        Battle {
            room,
            seats,
            table: None,
            log: VecDeque::new(),
            paused,
            pace,
        }
    }

    /// The game of a stored room: started when it was, every decision applied at the turn
    /// it was made, then played to the turn reached.
    pub fn rebuild(row: RoomRow, seats: Vec<Seat>, actions: &[String]) -> Battle {
        let turn = row.turn;
        let started = row.state != RoomState::Writing;
        let mut battle = Battle::new(row, seats);
        if !started {
            return battle;
        }
        if let Err(e) = battle.start() {
            tracing::error!(room = %battle.room.code, error = %e, "a room's game cannot be set up again");
            return battle;
        }
        for text in actions {
            let Ok(action) = serde_json::from_str::<Action>(text) else {
                continue;
            };
            if let Action::Signal { turn, .. } | Action::Skip { turn } = &action {
                battle.catch_up(*turn);
            }
            let by = battle.decider().unwrap_or(colour(&battle.seats[0]));
            if let Err(e) = battle.apply(by, &action) {
                tracing::error!(room = %battle.room.code, error = %e, "a stored decision does not apply");
            }
        }
        battle.catch_up(turn);
        battle
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

    fn robots(&self, viewer: Viewer) -> (Vec<RobotShown>, Vec<SignalShown>) {
        let Some(table) = &self.table else {
            return (Vec::new(), Vec::new());
        };
        let board = &table.setup().board;
        let at = |cell| {
            let (c, r) = board.offset(cell);
            [c, r]
        };
        let Some(session) = table.session() else {
            let robots = table
                .placing()
                .placed()
                .into_iter()
                .map(|(slot, cell, facing)| {
                    let team = table.setup().teams[slot.team].colour;
                    RobotShown {
                        name: format!("{team}.{}", slot.robot + 1),
                        team: team.name(),
                        at: at(cell),
                        facing: facing.number(),
                        alive: true,
                        shots: robots_games::battle::engine::SHOTS,
                        signal: false,
                    }
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
            robots.push(RobotShown {
                name: r.name.to_string(),
                team: team.name(),
                at: at(r.cell),
                facing: r.facing.number(),
                alive: r.alive,
                shots: r.shots,
                signal: r.pending_signal.is_some(),
            });
            // A pending signal's step is its sender's only (R-A23).
            if let (Some(step), true) = (r.pending_signal, viewer.seat == Some(team)) {
                mine.push(SignalShown {
                    robot: r.name.to_string(),
                    step,
                });
            }
        }
        (robots, mine)
    }

    /// What a player may signal while the match plays: their robots alive with no signal
    /// waiting, the signals left, and the one armed for the end of their next turn.
    fn signal_choice(&self, team: TeamColour) -> Option<SignalChoice> {
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
        let armed = self.seats[seat].armed.as_ref().map(|a| SignalShown {
            robot: a.robot.clone(),
            step: a.step,
        });
        (left > 0).then_some(SignalChoice {
            robots,
            left,
            armed,
        })
    }

    /// What `viewer` may know now (docs/ROOMS.md, "The protocol"), as it is sent.
    pub fn view(&self, viewer: Viewer) -> String {
        let phase = match self.phase() {
            None if self.room.state == RoomState::Writing => BattlePhase::Writing,
            None | Some(Phase::Place { .. } | Phase::Confirm) => BattlePhase::Placing,
            Some(Phase::Over) => BattlePhase::Over,
            Some(_) => BattlePhase::Playing,
        };
        let seats = (0..self.seats.len())
            .map(|i| self.seats.shown(i, self.seats.computer(i), None))
            .collect();
        let program = viewer
            .seat
            .and_then(|c| self.seats.iter().find(|s| colour(s) == c))
            .and_then(|s| s.source.as_deref());
        let revealed = if self.is_over() {
            self.seats
                .iter()
                .map(|s| Revealed {
                    colour: &s.colour,
                    source: s.source.as_deref(),
                })
                .collect()
        } else {
            Vec::new()
        };
        let place = match self.phase() {
            Some(Phase::Place { robot, free, .. }) => self.table.as_ref().map(|t| Placing {
                robot: robot.to_string(),
                free: free
                    .iter()
                    .map(|&c| {
                        let (x, y) = t.setup().board.offset(c);
                        [x, y]
                    })
                    .collect(),
            }),
            _ => None,
        };
        let (robots, my_signals) = self.robots(viewer);
        let session = self.table.as_ref().and_then(HotSeat::session);
        let result = session
            .and_then(|s| s.current().outcome())
            .map(|o| BattleResult {
                winner: o.winner.map(TeamColour::name),
                verdict: verdict(o.winner, o.reason),
                rounds: o.rounds,
            });
        protocol::text(&BattleState {
            seat: viewer.seat.map(TeamColour::name),
            phase,
            seats,
            program,
            revealed,
            waiting_for: self.waiting_for().map(TeamColour::name),
            place,
            robots,
            ask_signal: viewer.seat.and_then(|team| self.signal_choice(team)),
            my_signals,
            round: session.map_or(0, |s| s.current().state().round()),
            turn: self.turn(),
            paused: self.paused,
            pace: self.pace,
            log: &self.log,
            result,
        })
    }
}
