//! The engine: a pure, deterministic match. A [`Match`] is the [`Fixed`] data every copy
//! shares (board, programs, rules, signal plans) and a [`State`] that changes; one robot turn
//! is a function of `(&Fixed, &mut State)` ([`play::step`]). [`Match::step`] plays one turn
//! and returns its events. Views only read states and events.

mod asking;
mod calc_effect;
mod event;
mod fixed;
mod placement;
mod play;
mod setup;
mod state;
mod turn;

pub use event::*;
pub use fixed::Fixed;
pub use placement::{PlaceError, Placing, Slot};
pub use setup::*;
pub use state::*;
pub use turn::team::SignalError;

use crate::battle::board::{Board, CellId};
use crate::battle::lang::{Condition, Program};
use crate::battle::terrain::TeamColour;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use std::sync::Arc;
use turn::brain::Shared;

/// Shots at the start of a match (RULES A.3).
pub const SHOTS: u8 = 10;
/// Signals per team per game (RULES A.8).
pub const SIGNALS: u8 = 5;

/// A match: the shared fixed data and the state of play.
#[derive(Clone, Debug)]
pub struct Match {
    fixed: Arc<Fixed>,
    seed: u64,
    state: State,
}

/// Two matches are equal when their states are (the fixed part is shared and never changes).
impl PartialEq for Match {
    fn eq(&self, other: &Self) -> bool {
        self.state == other.state
    }
}

impl Match {
    /// Checks the setup, places the robots (R-A12), draws the first player, and is ready for
    /// round 1.
    pub fn new(setup: &MatchSetup) -> Result<Match, SetupError> {
        setup.validate_rules()?;
        start(
            setup,
            setup.seed,
            Arc::new(fixed_for(setup, &mut Shared::default())),
        )
    }

    /// The state of play, to keep or compare.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The same match at a state kept earlier (a state of this match, or of a copy of it).
    pub fn with_state(&self, state: State) -> Match {
        Match {
            fixed: Arc::clone(&self.fixed),
            seed: self.seed,
            state,
        }
    }

    // ------------------------------------------------------------------ reading the state

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
        self.seed
    }
    pub fn robots(&self) -> &[Robot] {
        &self.state.robots
    }
    /// Every robot's id, in order (teams in file order, robots by number).
    pub fn robot_ids(&self) -> impl Iterator<Item = RobotId> + use<> {
        (0..self.state.robots.len()).map(RobotId::at)
    }
    pub fn robot(&self, id: RobotId) -> &Robot {
        &self.state.robots[id.index()]
    }
    /// A robot's memories and remembered returns, under the TI-57 rule (RULES A.12).
    pub fn memories(&self, id: RobotId) -> Option<&Memories> {
        self.state.memories.get(id.index())
    }
    pub fn program(&self, id: RobotId) -> &Program {
        &self.fixed.programs[id.index()]
    }
    /// The step `id` reads first at its next turn, if no signal is waiting (R-A10).
    /// Stopped by `R/S`, it reads nothing more: its pointer stays (R-A29, as R-A10).
    pub fn next_step(&self, id: RobotId) -> usize {
        if self.memories(id).is_some_and(|m| m.stopped) {
            return usize::from(self.robot(id).pointer);
        }
        self.robot(id).next_step(self.program(id).len())
    }
    pub fn team(&self, id: TeamId) -> &TeamState {
        &self.state.teams[id.index()]
    }
    pub fn teams(&self) -> &[TeamState] {
        &self.state.teams
    }
    pub fn clock(&self) -> Clock {
        self.state.clock
    }
    pub fn outcome(&self) -> Option<&Outcome> {
        self.state.outcome.as_ref()
    }
    pub fn is_over(&self) -> bool {
        self.state.outcome.is_some()
    }
    /// Robot turns played so far.
    pub fn turns_played(&self) -> u64 {
        self.state.turns
    }
    /// The team playing now (file index).
    pub fn team_to_play(&self) -> TeamId {
        self.state.team_to_play()
    }
    /// The team that won the draw for first player (file index).
    pub fn first_team(&self) -> TeamId {
        self.state.first_team
    }
    pub fn robot_by_name(&self, name: RobotName) -> Option<RobotId> {
        self.state
            .robots
            .iter()
            .position(|r| r.name == name)
            .map(RobotId::at)
    }
    pub fn robot_at(&self, cell: CellId) -> Option<RobotId> {
        self.state.robot_at(cell)
    }
    /// The robots left per team, in file order.
    pub fn survivors(&self) -> Vec<(TeamColour, Vec<RobotName>)> {
        self.fixed
            .team_robots
            .iter()
            .zip(&self.fixed.teams)
            .map(|(ids, &colour)| {
                let robots = &self.state.robots[ids.clone()];
                let alive = robots.iter().filter(|r| r.alive).map(|r| r.name);
                (colour, alive.collect())
            })
            .collect()
    }
    /// The robot about to act, if the match is not over.
    pub fn next_robot(&self) -> Option<RobotId> {
        play::next_robot(&self.fixed, &self.state)
    }

    /// A test's answer for a robot, as the robot would see it now (for views and watches).
    pub fn evaluate(&self, id: RobotId, condition: &Condition) -> bool {
        asking::query::evaluate(&self.fixed, &self.state, id, condition)
    }

    /// The answers of a robot's tests 1–4 as it would see them now (`None`: not defined), from
    /// their compiled form, as its turn asks them: the same as [`Match::evaluate`] of each.
    pub fn test_answers(&self, id: RobotId) -> [Option<bool>; 4] {
        let mut sight = asking::sight::Sight::default();
        let mut ask = asking::query::ask(&self.fixed, &self.state, id, &mut sight);
        let tests = &self.fixed.tests;
        tests
            .entries(id)
            .map(|e| e.map(|entry| ask.holds(tests, entry)))
    }

    /// A numeric term of the test language seen from a robot (`count(enemy within 3)`).
    pub fn measure(&self, id: RobotId, quantity: &crate::battle::lang::Quantity) -> i64 {
        asking::query::measure(&self.fixed, &self.state, id, quantity)
    }

    // ------------------------------------------------------------------ playing

    /// Plays one robot's turn and returns its events (empty once the match is over).
    pub fn step(&mut self) -> Vec<Event> {
        let mut events = Vec::new();
        self.step_into(&mut events);
        events
    }

    /// Plays one robot's turn, appending its events. Returns `false` if the match was over.
    pub fn step_into(&mut self, events: &mut impl Events) -> bool {
        play::step(&self.fixed, &mut self.state, events)
    }

    /// Plays to the end, handing every event to `sink`.
    pub fn run(&mut self, mut sink: impl FnMut(&Event)) -> Option<&Outcome> {
        let mut events = Vec::new();
        while !self.is_over() {
            events.clear();
            if !self.step_into(&mut events) {
                break;
            }
            events.iter().for_each(&mut sink);
        }
        self.state.outcome.as_ref()
    }

    /// Plays to the end without building events: a match played for its outcome only.
    pub fn play_out(&mut self) -> Option<&Outcome> {
        play::play_out(&self.fixed, &mut self.state);
        self.state.outcome.as_ref()
    }

    /// Sends a signal by hand: only for the team whose turn just ended (R-A13).
    pub fn send_signal(
        &mut self,
        id: RobotId,
        step: u8,
        events: &mut impl Events,
    ) -> Result<(), SignalError> {
        play::send_signal(&self.fixed, &mut self.state, id, step, events)
    }

    /// The team that may send a signal by hand right now, if any.
    pub fn signal_window(&self) -> Option<TeamId> {
        self.state.signal_window
    }
}

/// A match's setup checked and compiled once, to be played with many seeds (a tournament's
/// pairing, the benchmark's workload): the seed draws the placement and the first player;
/// the board's tables and the compiled programs are shared by every match it starts.
#[derive(Clone, Debug)]
pub struct Prepared {
    setup: MatchSetup,
    fixed: Arc<Fixed>,
}

impl Prepared {
    /// Checks the setup's rules and compiles what every seed shares.
    pub fn new(setup: &MatchSetup) -> Result<Prepared, SetupError> {
        Prepared::sharing(setup, &mut Shared::default())
    }

    /// Each setup prepared, the plans of the programs they share worked out once.
    pub fn each(setups: &[MatchSetup]) -> Vec<Result<Prepared, SetupError>> {
        let mut shared = Shared::default();
        setups
            .iter()
            .map(|setup| Prepared::sharing(setup, &mut shared))
            .collect()
    }

    /// [`Prepared::new`], with the plans worked out so far.
    fn sharing(setup: &MatchSetup, shared: &mut Shared) -> Result<Prepared, SetupError> {
        setup.validate_rules()?;
        Ok(Prepared {
            setup: setup.clone(),
            fixed: Arc::new(fixed_for(setup, shared)),
        })
    }

    /// The setup's match with `seed`: the same match as [`Match::new`] with that seed.
    pub fn start(&self, seed: u64) -> Result<Match, SetupError> {
        start(&self.setup, seed, Arc::clone(&self.fixed))
    }
}

/// What no seed changes: board, programs and their tables, rules, signal plans.
fn fixed_for(setup: &MatchSetup, shared: &mut Shared) -> Fixed {
    let mut programs = Vec::new();
    let mut team_robots = Vec::new();
    let mut robot_teams = Vec::new();
    for (t, team) in setup.teams.iter().enumerate() {
        let start = programs.len();
        for r in &team.robots {
            programs.push(Arc::clone(&r.program));
            robot_teams.push(TeamId::at(t));
        }
        team_robots.push(start..programs.len());
    }
    let mut fixed = Fixed {
        board: Arc::clone(&setup.board),
        scenario: setup.scenario,
        rules: setup.rules,
        programs,
        teams: setup.teams.iter().map(|t| t.colour).collect(),
        team_bits: team_robots
            .iter()
            .map(|r| low_bits(r.end) & !low_bits(r.start))
            .collect(),
        team_robots,
        signals: setup
            .signals
            .iter()
            .map(|s| (TeamId::at(s.robot().team), s.clone()))
            .collect(),
        steps: Vec::new(),
        entries: fixed::entries(&setup.board, &setup.rules),
        areas: asking::areas::Areas::default(),
        plans: Vec::new(),
        tests: asking::compiled::Compiled::default(),
        brains: Vec::new(),
    };
    fixed.steps = fixed
        .programs
        .iter()
        .map(|p| fixed::step_table(p))
        .collect();
    fixed.plans = turn::plan::plans(&fixed.programs, &fixed.steps, &mut shared.plans);
    fixed.areas = asking::query::areas_for(&fixed, &robot_teams);
    let each: Vec<(&Arc<Program>, TeamColour)> = robot_teams
        .iter()
        .zip(&fixed.programs)
        .map(|(team, program)| (program, fixed.teams[team.index()]))
        .collect();
    fixed.tests = asking::compiled::Compiled::new(&each, &fixed.teams);
    fixed.brains = turn::brain::brains(&fixed.plans, &fixed.tests, &each, &fixed.teams, shared);
    fixed
}

/// Places the robots with `seed`'s generator (R-A12), draws the first player: round 1.
fn start(setup: &MatchSetup, seed: u64, fixed: Arc<Fixed>) -> Result<Match, SetupError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let placed = placement::place(setup, &mut rng)?;
    let first_team = placement::draw_first_team(setup.teams.len(), &mut rng);
    let mut robots = Vec::with_capacity(placed.len());
    let mut occupant = vec![None; setup.board.len()];
    for (t, team) in setup.teams.iter().enumerate() {
        for (number, _) in (1..).zip(&team.robots) {
            let (cell, facing) = placed[robots.len()];
            occupant[cell.index()] = Some(RobotId::at(robots.len()));
            robots.push(Robot {
                name: RobotName {
                    team: team.colour,
                    number,
                },
                team: TeamId::at(t),
                cell,
                facing,
                pointer: 0,
                destroyed: 0,
                shots: SHOTS,
                alive: true,
                pending_signal: None,
            });
        }
    }
    let teams = setup
        .teams
        .iter()
        .map(|t| TeamState {
            colour: t.colour,
            signals_left: SIGNALS,
            last_signal_round: None,
            alive: t.robots.len(),
        })
        .collect();
    let memories = match setup.rules.keywords {
        crate::battle::lang::Keywords::Ti57 => vec![Memories::default(); robots.len()],
        crate::battle::lang::Keywords::Plain => Vec::new(),
    };
    let state = State {
        on_board: low_bits(robots.len()),
        robots,
        teams,
        occupant,
        rng: MatchRng(rng),
        first_team,
        clock: Clock {
            round: 1,
            slot: 0,
            next: 0,
        },
        outcome: None,
        signal_window: None,
        turns: 0,
        memories,
    };
    Ok(Match { fixed, seed, state })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::hex::Direction;
    use crate::battle::lang::{MAX_PROGRAM_STEPS, parse_program};

    /// The longest program: lightning on its last step and a signal to it stay in range.
    #[test]
    fn the_longest_program_can_lose_its_last_step() {
        let steps = MAX_PROGRAM_STEPS;
        let mut code: String = (1..steps).map(|i| format!("{i}: GO {}\n", i + 1)).collect();
        code.push_str(&format!("{steps}: D+1\n"));
        let mut setup = small_setup(&code, steps);
        setup.rules.rounds = 1;
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

    /// A setup built in code: two robots running `code` on a 3-hex board.
    fn small_setup(code: &str, steps: usize) -> MatchSetup {
        let board =
            crate::battle::files::board_file::parse_board("b", "map: |\n  . ! .\n   . . .\n")
                .unwrap();
        let program = Arc::new(parse_program("p", code, MAX_PROGRAM_STEPS).unwrap());
        let cells = [board.cell_id(0).unwrap(), board.cell_id(3).unwrap()];
        let robot = |at| RobotSetup {
            program: Arc::clone(&program),
            origin: "p".into(),
            source: code.into(),
            at: Some(at),
            facing: Direction::from_number(1),
        };
        MatchSetup {
            name: "small".into(),
            board: Arc::new(board),
            scenario: Scenario::Elimination,
            rules: Rules {
                program_steps: steps,
                ..Rules::default()
            },
            seed: 0,
            teams: vec![
                TeamSetup {
                    colour: TeamColour::Green,
                    robots: vec![robot(cells[0])],
                },
                TeamSetup {
                    colour: TeamColour::Violet,
                    robots: vec![robot(cells[1])],
                },
            ],
            signals: vec![],
        }
    }

    /// A setup built in code is checked like one read from a file: more than 63 steps would
    /// overflow the destroyed-steps bit set.
    #[test]
    fn a_setup_built_in_code_is_validated() {
        let mut setup = small_setup("1: R+1\n", 64);
        assert_eq!(Match::new(&setup).err(), Some(SetupError::ProgramSteps(64)));
        setup.rules.program_steps = 15;
        setup.teams[1].robots[0].at = setup.board.cell_id(0);
        assert_eq!(
            Match::new(&setup).err(),
            Some(SetupError::Taken { team: 1, robot: 0 })
        );
        setup.teams[1].colour = TeamColour::Green;
        assert!(matches!(
            setup.validate(),
            Err(SetupError::SameColour { team: 1, .. })
        ));
        let long = small_setup(
            &(1..=20).map(|i| format!("{i}: R+1\n")).collect::<String>(),
            15,
        );
        assert!(matches!(
            long.validate(),
            Err(SetupError::ProgramTooLong { len: 20, .. })
        ));
    }

    /// A match played for its outcome only (no events built) ends exactly as one played turn
    /// by turn with its events, and each team's count of robots on the board stays true.
    #[test]
    fn playing_out_without_events_is_playing_with_them() {
        let workload = crate::battle::compare::bench::workload().unwrap();
        for (i, setup) in workload.iter().enumerate().take(24) {
            let mut setup = setup.clone();
            setup.seed = u64::try_from(i).unwrap();
            let mut quiet = Match::new(&setup).unwrap();
            let mut told = quiet.clone();
            quiet.play_out();
            let mut events = Vec::new();
            while told.step_into(&mut events) {}
            assert_eq!(quiet.state(), told.state(), "{}", setup.name);
            assert!(matches!(events.last(), Some(Event::End { .. })));
            for (t, team) in quiet.state().teams.iter().enumerate() {
                let on_board = quiet
                    .robots()
                    .iter()
                    .filter(|r| r.alive && r.team.index() == t);
                assert_eq!(team.alive, on_board.count(), "{}", setup.name);
            }
        }
    }

    /// A setup prepared once (alone, or with the workload's others sharing plans and brains)
    /// and started with a seed is the match `Match::new` makes with that seed, and plays the
    /// same.
    #[test]
    fn a_prepared_setup_starts_the_match_of_each_seed() {
        let workload = crate::battle::compare::bench::workload().unwrap();
        let together = Prepared::each(&workload);
        for (i, (setup, shared)) in workload.iter().zip(together).enumerate() {
            let (alone, shared) = (Prepared::new(setup).unwrap(), shared.unwrap());
            for seed in [0, 7, u64::try_from(i).unwrap() + 100] {
                let mut setup = setup.clone();
                setup.seed = seed;
                let mut a = alone.start(seed).unwrap();
                let (mut b, mut c) = (Match::new(&setup).unwrap(), shared.start(seed).unwrap());
                assert_eq!(a.seed(), seed);
                assert_eq!(a.state(), b.state());
                assert_eq!(c.state(), b.state());
                assert!(c.fixed.brains.iter().all(Option::is_some), "{i}");
                for m in [&mut a, &mut b, &mut c] {
                    m.play_out();
                }
                assert_eq!(a.state(), b.state());
                assert_eq!(c.state(), b.state(), "{i} seed {seed}");
            }
        }
    }

    /// States compare and hash by value: a copy of the state replays the same future.
    #[test]
    fn a_state_is_plain_data() {
        use std::collections::hash_map::DefaultHasher;
        use std::hash::{Hash, Hasher};
        let hash = |s: &State| {
            let mut h = DefaultHasher::new();
            s.hash(&mut h);
            h.finish()
        };
        let mut m = Match::new(&small_setup("1: R+1\n2: T\n", 15)).unwrap();
        m.step();
        let kept = m.state().clone();
        let later: Vec<Event> = (0..5).flat_map(|_| m.step()).collect();
        assert_ne!(m.state(), &kept);
        let mut again = m.with_state(kept.clone());
        assert_eq!(again.state(), &kept);
        assert_eq!(hash(again.state()), hash(&kept));
        let replayed: Vec<Event> = (0..5).flat_map(|_| again.step()).collect();
        assert_eq!(replayed, later);
        assert_eq!(again.state(), m.state());
        assert_eq!(hash(again.state()), hash(m.state()));
    }
}
