//! The engine: a pure, deterministic match. [`Match::step`] plays one robot's turn and returns
//! its events. The state is `Clone` (board and programs are shared), so a debugger steps back
//! by keeping snapshots and replaying forward.

mod event;
mod query;
mod setup;
mod turn;

pub use event::*;
pub use setup::*;

use crate::battle::board::{Board, CellId};
use crate::battle::hex::Direction;
use crate::battle::lang::Program;
use crate::battle::terrain::{TeamColour, Terrain};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// A robot's index in the match (teams in file order, robots in number order).
pub type RobotId = u8;

const NO_ROBOT: u8 = u8::MAX;
/// Shots at the start of a match (RULES A.3).
pub const SHOTS: u8 = 10;
/// Signals per team per game (RULES A.8).
pub const SIGNALS: u8 = 5;

/// What never changes during a match, shared by every clone of its state.
#[derive(Debug)]
struct Fixed {
    name: String,
    board: Arc<Board>,
    scenario: Scenario,
    rules: Rules,
    seed: u64,
    programs: Vec<Arc<Program>>,
    origins: Vec<String>,
    teams: Vec<TeamColour>,
    /// The robots of team `t` are ids `team_robots[t]`.
    team_robots: Vec<std::ops::Range<u8>>,
    signals: Vec<(usize, SignalPlan)>,
}

/// One robot's state (RULES A.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Robot {
    pub name: RobotName,
    pub team: u8,
    pub cell: CellId,
    pub facing: Direction,
    /// The last step read; 0 is the start box (R-A8).
    pub pointer: u8,
    /// Bit `n` set: step `n` is destroyed (R-A9).
    pub destroyed: u64,
    pub shots: u8,
    pub alive: bool,
    /// A received signal's step, waiting for this robot's next turn (R-A13).
    pub pending_signal: Option<u8>,
}

impl Robot {
    pub fn is_destroyed(&self, step: usize) -> bool {
        step < 64 && self.destroyed & (1 << step) != 0
    }

    /// The destroyed steps, in order.
    pub fn destroyed_steps(&self) -> Vec<u8> {
        (1..64u8)
            .filter(|&s| self.is_destroyed(usize::from(s)))
            .collect()
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamState {
    pub colour: TeamColour,
    pub signals_left: u8,
    /// The round of the last signal sent: one per turn (R-A13).
    pub last_signal_round: Option<u32>,
}

/// The result of a finished match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub winner: Option<TeamColour>,
    pub reason: EndReason,
    pub rounds: u32,
}

/// Where the match stands between two robot turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// 1-based.
    pub round: u32,
    /// Which team of the play order is playing (0 = the first player).
    pub slot: usize,
    /// The next robot of that team to consider, as an index within the team.
    pub next: u8,
}

#[derive(Clone, Debug)]
pub struct Match {
    fixed: Arc<Fixed>,
    robots: Vec<Robot>,
    teams: Vec<TeamState>,
    occupant: Vec<u8>,
    /// Placement and the first-player draw consume it; it stays in the state so every clone
    /// carries the same stream for any later random rule.
    #[allow(dead_code)]
    rng: ChaCha8Rng,
    first_team: usize,
    clock: Clock,
    outcome: Option<Outcome>,
    /// The team whose turn just ended, which may still send a signal by hand.
    signal_window: Option<usize>,
    turns: u64,
}

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

/// Two states are equal when everything that changes during play is equal (the fixed part,
/// board and programs, is shared and never changes).
impl PartialEq for Match {
    fn eq(&self, other: &Self) -> bool {
        self.robots == other.robots
            && self.teams == other.teams
            && self.occupant == other.occupant
            && self.rng == other.rng
            && self.first_team == other.first_team
            && self.clock == other.clock
            && self.outcome == other.outcome
            && self.signal_window == other.signal_window
            && self.turns == other.turns
    }
}

impl Match {
    /// Places the robots (R-A12), draws the first player, and is ready for round 1.
    pub fn new(setup: &MatchSetup) -> Result<Match, String> {
        let board = Arc::clone(&setup.board);
        let mut rng = ChaCha8Rng::seed_from_u64(setup.seed);
        let mut robots = Vec::new();
        let mut programs = Vec::new();
        let mut origins = Vec::new();
        let mut team_robots = Vec::new();
        for (t, team) in setup.teams.iter().enumerate() {
            let start = robots.len() as u8;
            for (i, r) in team.robots.iter().enumerate() {
                robots.push(Robot {
                    name: RobotName {
                        team: team.colour,
                        number: i as u8 + 1,
                    },
                    team: t as u8,
                    cell: 0,
                    facing: Direction::ALL[0],
                    pointer: 0,
                    destroyed: 0,
                    shots: SHOTS,
                    alive: true,
                    pending_signal: None,
                });
                programs.push(Arc::clone(&r.program));
                origins.push(r.origin.clone());
            }
            team_robots.push(start..robots.len() as u8);
        }
        if robots.len() >= usize::from(NO_ROBOT) {
            return Err(format!("too many robots: {} (at most 254)", robots.len()));
        }
        let mut occupant = vec![NO_ROBOT; board.len()];
        // Fixed placements first: they are the players' choices, written down.
        for (t, team) in setup.teams.iter().enumerate() {
            for (i, r) in team.robots.iter().enumerate() {
                if let Some(cell) = r.at {
                    let id = team_robots[t].start + i as u8;
                    if occupant[usize::from(cell)] != NO_ROBOT {
                        return Err(format!(
                            "{} is placed on a hex already taken",
                            robots[usize::from(id)].name
                        ));
                    }
                    occupant[usize::from(cell)] = id;
                    robots[usize::from(id)].cell = cell;
                }
            }
        }
        // Then the rest, one robot at a time, teams alternating in file order (R-A12).
        let most = setup
            .teams
            .iter()
            .map(|t| t.robots.len())
            .max()
            .unwrap_or(0);
        for i in 0..most {
            for (t, team) in setup.teams.iter().enumerate() {
                let Some(r) = team.robots.get(i) else {
                    continue;
                };
                let id = team_robots[t].start + i as u8;
                if r.at.is_none() {
                    let free: Vec<CellId> = board
                        .start_points_for(team.colour)
                        .filter(|&c| occupant[usize::from(c)] == NO_ROBOT)
                        .collect();
                    if free.is_empty() {
                        return Err(format!(
                            "no free start point for {} (its camp's and the outer ones are all taken)",
                            robots[usize::from(id)].name
                        ));
                    }
                    let cell = free[rng.random_range(0..free.len() as u32) as usize];
                    occupant[usize::from(cell)] = id;
                    robots[usize::from(id)].cell = cell;
                }
                robots[usize::from(id)].facing = match r.facing {
                    Some(f) => f,
                    None => Direction::ALL[rng.random_range(0..6u32) as usize],
                };
            }
        }
        let first_team = if setup.teams.is_empty() {
            0
        } else {
            rng.random_range(0..setup.teams.len() as u32) as usize
        };
        let teams = setup
            .teams
            .iter()
            .map(|t| TeamState {
                colour: t.colour,
                signals_left: SIGNALS,
                last_signal_round: None,
            })
            .collect();
        let signals = setup
            .signals
            .iter()
            .map(|s| (s.robot().team, s.clone()))
            .collect();
        let fixed = Fixed {
            name: setup.name.clone(),
            board,
            scenario: setup.scenario,
            rules: setup.rules,
            seed: setup.seed,
            programs,
            origins,
            teams: setup.teams.iter().map(|t| t.colour).collect(),
            team_robots,
            signals,
        };
        Ok(Match {
            fixed: Arc::new(fixed),
            robots,
            teams,
            occupant,
            rng,
            first_team,
            clock: Clock {
                round: 1,
                slot: 0,
                next: 0,
            },
            outcome: None,
            signal_window: None,
            turns: 0,
        })
    }

    // ------------------------------------------------------------------ reading the state

    pub fn name(&self) -> &str {
        &self.fixed.name
    }
    pub fn board(&self) -> &Board {
        &self.fixed.board
    }
    pub fn rules(&self) -> Rules {
        self.fixed.rules
    }
    pub fn scenario(&self) -> Scenario {
        self.fixed.scenario
    }
    pub fn seed(&self) -> u64 {
        self.fixed.seed
    }
    pub fn robots(&self) -> &[Robot] {
        &self.robots
    }
    pub fn robot(&self, id: RobotId) -> &Robot {
        &self.robots[usize::from(id)]
    }
    pub fn program(&self, id: RobotId) -> &Program {
        &self.fixed.programs[usize::from(id)]
    }
    /// Where a robot's program came from (file, shipped name or `inline`).
    pub fn program_origin(&self, id: RobotId) -> &str {
        &self.fixed.origins[usize::from(id)]
    }
    pub fn teams(&self) -> &[TeamState] {
        &self.teams
    }
    pub fn clock(&self) -> Clock {
        self.clock
    }
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }
    /// Robot turns played so far.
    pub fn turns_played(&self) -> u64 {
        self.turns
    }
    /// The team playing now (file index).
    pub fn team_to_play(&self) -> usize {
        (self.first_team + self.clock.slot) % self.teams.len().max(1)
    }
    /// The team that won the draw for first player (file index).
    pub fn first_team(&self) -> usize {
        self.first_team
    }
    pub fn robot_by_name(&self, name: RobotName) -> Option<RobotId> {
        self.robots
            .iter()
            .position(|r| r.name == name)
            .map(|i| i as RobotId)
    }
    pub fn robot_at(&self, cell: CellId) -> Option<RobotId> {
        let id = self.occupant[usize::from(cell)];
        (id != NO_ROBOT).then_some(id)
    }
    /// The robots left per team, in file order.
    pub fn survivors(&self) -> Vec<(TeamColour, Vec<u8>)> {
        self.fixed
            .team_robots
            .iter()
            .enumerate()
            .map(|(t, ids)| {
                let alive = ids.clone().filter(|&i| self.robots[usize::from(i)].alive);
                (
                    self.fixed.teams[t],
                    alive
                        .map(|i| self.robots[usize::from(i)].name.number)
                        .collect(),
                )
            })
            .collect()
    }
    /// The robot about to act, if the match is not over.
    pub fn next_robot(&self) -> Option<RobotId> {
        if self.is_over() {
            return None;
        }
        let mut clock = self.clock;
        for _ in 0..=self.teams.len() {
            let team = (self.first_team + clock.slot) % self.teams.len();
            if let Some(id) = self.next_alive(team, clock.next) {
                return Some(id);
            }
            clock.slot = (clock.slot + 1) % self.teams.len();
            clock.next = 0;
        }
        None
    }

    /// A test's answer for a robot, as the robot would see it now (for views and watches).
    pub fn evaluate(&self, id: RobotId, condition: &crate::battle::lang::Condition) -> bool {
        query::evaluate(self, id, condition)
    }

    // ------------------------------------------------------------------ playing

    /// Plays one robot's turn and returns its events (empty once the match is over).
    pub fn step(&mut self) -> Vec<Event> {
        let mut events = Vec::new();
        self.step_into(&mut events);
        events
    }

    /// Plays one robot's turn, appending its events. Returns `false` if the match was over.
    pub fn step_into(&mut self, events: &mut Vec<Event>) -> bool {
        if self.outcome.is_some() || self.teams.is_empty() {
            return false;
        }
        self.signal_window = None;
        // Skip teams with nobody left to act this turn; the guard bounds a full lap.
        for _ in 0..=self.teams.len() {
            let team = self.team_to_play();
            let Some(id) = self.next_alive(team, self.clock.next) else {
                self.advance_team(events);
                if self.outcome.is_some() {
                    return true;
                }
                continue;
            };
            self.turns += 1;
            self.clock.next = id - self.fixed.team_robots[team].start + 1;
            self.robot_turn(id, events);
            if self.check_end(events) {
                return true;
            }
            if self.next_alive(team, self.clock.next).is_none() {
                self.end_team_turn(team, events);
                self.advance_team(events);
            }
            return true;
        }
        // Nobody can act at all.
        self.finish(None, EndReason::AllDestroyed, events);
        true
    }

    /// Plays to the end, handing every event to `sink`.
    pub fn run(&mut self, mut sink: impl FnMut(&Event)) -> &Outcome {
        let mut events = Vec::new();
        while !self.is_over() {
            events.clear();
            self.step_into(&mut events);
            events.iter().for_each(&mut sink);
        }
        self.outcome
            .as_ref()
            .expect("the loop ends when the match does")
    }

    /// Sends a signal by hand: only for the team whose turn just ended (R-A13).
    pub fn send_signal(
        &mut self,
        id: RobotId,
        step: u8,
        events: &mut Vec<Event>,
    ) -> Result<(), SignalError> {
        let robot = &self.robots[usize::from(id)];
        let team = usize::from(robot.team);
        if self.signal_window != Some(team) {
            return Err(SignalError::NotYourTurnEnd);
        }
        self.try_signal(team, id, step, events)
    }

    /// The team that may send a signal by hand right now, if any.
    pub fn signal_window(&self) -> Option<usize> {
        self.signal_window
    }

    fn try_signal(
        &mut self,
        team: usize,
        id: RobotId,
        step: u8,
        events: &mut Vec<Event>,
    ) -> Result<(), SignalError> {
        let state = &self.teams[team];
        let robot = &self.robots[usize::from(id)];
        if state.signals_left == 0 {
            return Err(SignalError::NoneLeft);
        }
        if state.last_signal_round == Some(self.clock.round) {
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
        self.robots[usize::from(id)].pending_signal = Some(step);
        let state = &mut self.teams[team];
        state.signals_left -= 1;
        state.last_signal_round = Some(self.clock.round);
        events.push(Event::SignalSent { robot: name });
        Ok(())
    }

    fn next_alive(&self, team: usize, from: u8) -> Option<RobotId> {
        let range = self.fixed.team_robots[team].clone();
        (range.start + from..range.end).find(|&i| self.robots[usize::from(i)].alive)
    }

    /// The end of a team's turn: planned signals (R-A15), then the window for one by hand.
    fn end_team_turn(&mut self, team: usize, events: &mut Vec<Event>) {
        let fixed = Arc::clone(&self.fixed);
        let round = self.clock.round;
        for (t, plan) in &fixed.signals {
            if *t != team || self.teams[team].last_signal_round == Some(round) {
                continue;
            }
            let r = plan.robot();
            let id = fixed.team_robots[team].start + r.number - 1;
            let due = match plan {
                SignalPlan::Scheduled { round: at, .. } => *at == round,
                SignalPlan::Conditional { when, .. } => {
                    self.robots[usize::from(id)].alive && query::evaluate(self, id, when)
                }
            };
            if due {
                let step = match plan {
                    SignalPlan::Scheduled { step, .. } | SignalPlan::Conditional { step, .. } => {
                        *step
                    }
                };
                // A plan that breaks the rules (none left, robot gone, …) is simply not sent.
                let _ = self.try_signal(team, id, step, events);
            }
        }
        self.signal_window = Some(team);
    }

    fn advance_team(&mut self, events: &mut Vec<Event>) {
        self.clock.next = 0;
        self.clock.slot += 1;
        if self.clock.slot == self.teams.len() {
            self.clock.slot = 0;
            if self.clock.round >= self.fixed.rules.rounds {
                self.finish(None, EndReason::RoundLimit, events);
                return;
            }
            self.clock.round += 1;
        }
    }

    fn finish(&mut self, winner: Option<TeamColour>, reason: EndReason, events: &mut Vec<Event>) {
        let round = self.clock.round;
        self.outcome = Some(Outcome {
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
    fn check_end(&mut self, events: &mut Vec<Event>) -> bool {
        if self.outcome.is_some() {
            return true;
        }
        let mut alive_teams = 0;
        let mut last = None;
        for (t, ids) in self.fixed.team_robots.iter().enumerate() {
            if ids.clone().any(|i| self.robots[usize::from(i)].alive) {
                alive_teams += 1;
                last = Some(self.fixed.teams[t]);
            }
        }
        match (alive_teams, self.fixed.scenario) {
            (0, _) => self.finish(None, EndReason::AllDestroyed, events),
            (1, Scenario::Elimination) if self.teams.len() > 1 => {
                self.finish(last, EndReason::LastTeamStanding, events)
            }
            _ => return false,
        }
        true
    }

    fn is_enemy_camp(&self, team: u8, camp: Option<TeamColour>) -> bool {
        camp.is_some_and(|c| {
            c != self.fixed.teams[usize::from(team)] && self.fixed.teams.contains(&c)
        })
    }

    fn terrain(&self, cell: CellId) -> Terrain {
        self.fixed.board.cell(cell).terrain
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::lang::{MAX_PROGRAM_STEPS, parse_program};

    /// The longest program: lightning on its last step and a signal to it stay in range.
    #[test]
    fn the_longest_program_can_lose_its_last_step() {
        let board =
            crate::battle::board_file::parse_board("b", "map: |\n  . ! .\n   . . .\n").unwrap();
        let steps = MAX_PROGRAM_STEPS;
        let mut code: String = (1..steps).map(|i| format!("{i}: GO {}\n", i + 1)).collect();
        code.push_str(&format!("{steps}: D+1\n"));
        let program = Arc::new(parse_program("p", &code, steps).unwrap());
        let robot = |at| RobotSetup {
            program: Arc::clone(&program),
            origin: "p".into(),
            at: Some(at),
            facing: Direction::from_number(1),
        };
        let setup = MatchSetup {
            name: "long".into(),
            board: Arc::new(board),
            scenario: Scenario::Elimination,
            rules: Rules {
                program_steps: steps,
                rounds: 1,
                ..Rules::default()
            },
            seed: 0,
            teams: vec![
                TeamSetup {
                    colour: TeamColour::Green,
                    robots: vec![robot(0)],
                },
                TeamSetup {
                    colour: TeamColour::Violet,
                    robots: vec![robot(3)],
                },
            ],
            signals: vec![],
        };
        let mut m = Match::new(&setup).unwrap();
        let events: Vec<Event> = (0..2).flat_map(|_| m.step()).collect();
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::Lightning { step, .. } if usize::from(*step) == steps)),
            "{events:?}"
        );
        assert!(m.robots()[0].is_destroyed(steps));
    }
}
