//! A game at the table (RULES A.7–A.8): the players named at the table place their robots
//! one by one with a facing, the match plays robot turn by robot turn, and at the end of each
//! of their turns they may send a secret signal. The other teams are placed and signalled as
//! their match file says, or by the seeded generator (R-A12, R-A15).
//!
//! Pure: `robots play` draws it and reads the players' answers. A signal's step is kept in
//! the match, never in anything this module writes before it acts (R-A23).

use crate::battle::engine::{
    Event, Match, MatchSetup, PlaceError, Placing, RobotName, RobotRef, SetupError, SignalError,
    SignalPlan, Slot, TeamId,
};
use crate::battle::hex::Direction;
use crate::battle::live::debug::Session;
use crate::battle::terrain::TeamColour;
use std::fmt::Write;

/// Why a table could not be set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    #[error("there is no {0} team in this match (its teams: {1})")]
    NoSuchTeam(TeamColour, String),
    #[error("{0} is named twice")]
    Twice(TeamColour),
    #[error("{0}")]
    Setup(#[from] SetupError),
    #[error("{0}")]
    Load(String),
    #[error("the generator found no free start point for {0}")]
    NoStartPoint(TeamColour),
}

/// Why a signal was refused, with the rule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("no signal is asked for now")]
    NotAsked,
    #[error("{robot} is not a {team} robot: a player signals one of their own robots (R-A13)")]
    NotYours { robot: RobotName, team: TeamColour },
    #[error("there is no robot {0} in this match")]
    NoRobot(RobotName),
    #[error("{0}")]
    Engine(String),
}

/// Why an answer typed at the table is refused, in words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    /// The answer is not of the form the question asks for (the message says which).
    #[error("{0}")]
    Expected(&'static str),
    #[error("{what} `{text}` is not a number")]
    NotANumber { what: &'static str, text: String },
    #[error("a facing is 1 to 6 (R-A1)")]
    Facing,
    #[error("[{col}, {row}] is off the board")]
    OffBoard { col: i32, row: i32 },
    #[error("`{0}` needs a file name")]
    NeedsFile(&'static str),
    #[error("the step is a number, 1 to the program's length")]
    Step,
    #[error(transparent)]
    Robot(#[from] crate::battle::engine::RobotNameError),
    #[error(transparent)]
    Place(#[from] PlaceError),
    #[error(transparent)]
    Table(#[from] TableError),
    #[error(transparent)]
    Signal(#[from] Refusal),
    #[error("the match did not start")]
    NotStarted,
    #[error("the match is playing: no question is asked")]
    Playing,
    #[error("no placement by hand to take back")]
    NothingToUndo,
}

/// What the table waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// A player places a robot: on one of `free` (R-A12), with a facing.
    Place {
        slot: Slot,
        robot: RobotName,
        free: Vec<crate::battle::board::CellId>,
    },
    /// Every robot is placed: the players confirm (or take back the last placement).
    Confirm,
    /// The match goes on: the next robot turn can be played.
    Play,
    /// A player's turn just ended: they may send a signal to one of `robots` or skip.
    Signal {
        team: TeamColour,
        robots: Vec<RobotName>,
        left: u8,
    },
    Over,
}

/// A signal a player sent by hand: at the end of their turn in `round`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Sent {
    round: u32,
    robot: RobotRef,
    step: u8,
}

/// The game at the table.
pub struct HotSeat {
    /// The match as the file gives it, without the placements and signal plans of the teams
    /// at the table.
    setup: MatchSetup,
    at_table: Vec<bool>,
    placing: Placing,
    session: Option<Session>,
    /// The round of the last robot turn played.
    round: u32,
    /// The turn after which the players were asked for a signal (asked once a turn).
    asked: Option<u64>,
    sent: Vec<Sent>,
}

impl HotSeat {
    /// A table for `setup` where the teams of `players` place and signal by hand.
    pub fn new(mut setup: MatchSetup, players: &[TeamColour]) -> Result<HotSeat, TableError> {
        let mut at_table = vec![false; setup.teams.len()];
        for (i, &colour) in players.iter().enumerate() {
            if players[..i].contains(&colour) {
                return Err(TableError::Twice(colour));
            }
            let Some(t) = setup.teams.iter().position(|t| t.colour == colour) else {
                let teams: Vec<String> = setup.teams.iter().map(|t| t.colour.to_string()).collect();
                return Err(TableError::NoSuchTeam(colour, teams.join(", ")));
            };
            at_table[t] = true;
        }
        setup.validate_rules()?;
        // The players' own choices replace the file's for their teams (R-A12, R-A15).
        setup.signals.retain(|s| !at_table[s.robot().team]);
        let placing = Placing::new(&setup, &at_table)?;
        let mut table = HotSeat {
            setup,
            at_table,
            placing,
            session: None,
            round: 0,
            asked: None,
            sent: Vec::new(),
        };
        table.draw_others()?;
        Ok(table)
    }

    /// Places the robots of teams not at the table until a player's turn to place.
    fn draw_others(&mut self) -> Result<(), TableError> {
        while let Some(slot) = self.placing.next() {
            if self.placing.by_hand() {
                break;
            }
            self.placing
                .draw()
                .map_err(|_| TableError::NoStartPoint(self.setup.teams[slot.team].colour))?;
        }
        Ok(())
    }

    pub fn setup(&self) -> &MatchSetup {
        &self.setup
    }

    /// Whether team `t` (file order) is at the table.
    pub fn at_table(&self, t: usize) -> bool {
        self.at_table.get(t).copied().unwrap_or(false)
    }

    pub fn placing(&self) -> &Placing {
        &self.placing
    }

    /// The match, once it has started.
    pub fn session(&self) -> Option<&Session> {
        self.session.as_ref()
    }

    fn game(&self) -> Option<&Match> {
        self.session.as_ref().map(Session::current)
    }

    fn robot_name(&self, slot: Slot) -> RobotName {
        RobotName {
            team: self.setup.teams[slot.team].colour,
            number: u8::try_from(slot.robot + 1).unwrap_or(u8::MAX),
        }
    }

    pub fn phase(&self) -> Phase {
        let Some(m) = self.game() else {
            return match self.placing.next() {
                Some(slot) => Phase::Place {
                    slot,
                    robot: self.robot_name(slot),
                    free: self.placing.free_start_points(),
                },
                None => Phase::Confirm,
            };
        };
        if m.is_over() {
            return Phase::Over;
        }
        let turn = self.session.as_ref().map_or(0, |s| s.timeline().turn());
        if let Some(t) = m.signal_window().filter(|t| self.at_table(t.index()))
            && self.asked != Some(turn)
            && m.team(t).signals_left > 0
        {
            let robots: Vec<RobotName> = m
                .robot_ids()
                .map(|id| m.robot(id))
                .filter(|r| r.team == t && r.alive && r.pending_signal.is_none())
                .map(|r| r.name)
                .collect();
            if !robots.is_empty() {
                return Phase::Signal {
                    team: m.team(t).colour,
                    robots,
                    left: m.team(t).signals_left,
                };
            }
        }
        Phase::Play
    }

    /// Places the robot whose turn it is (a player's), then the others' until the next
    /// player's turn.
    pub fn place(
        &mut self,
        cell: crate::battle::board::CellId,
        facing: Direction,
    ) -> Result<(), PlaceError> {
        self.placing.choose(cell, facing)?;
        // A draw cannot fail here: the match was checked to have start points for all.
        self.draw_others().map_err(|_| PlaceError::NotAStartPoint)
    }

    /// Takes back the last placement by hand (and the generator's after it), before the match
    /// starts; `false` if there is none.
    pub fn undo(&mut self) -> bool {
        self.session.is_none() && self.placing.undo()
    }

    /// Starts the match once every robot is placed.
    pub fn start(&mut self) -> Result<(), TableError> {
        if self.session.is_some() || self.placing.next().is_some() {
            return Ok(());
        }
        let fixed = self.placing.fixed_setup(&self.setup);
        let load = fixed.clone();
        let session = Session::new(Box::new(move || Ok(load.clone()))).map_err(|e| match e {
            crate::battle::live::debug::LoadError::Setup(e) => TableError::Setup(e),
            crate::battle::live::debug::LoadError::File(d) => TableError::Load(d.to_string()),
        })?;
        self.session = Some(session);
        Ok(())
    }

    /// Plays one robot turn and returns its events; `None` when the match is over, not
    /// started, or a player is asked for a signal.
    pub fn step(&mut self) -> Option<Vec<Event>> {
        if self.phase() != Phase::Play {
            return None;
        }
        let session = self.session.as_mut()?;
        let timeline = session.timeline_mut();
        if !timeline.step() {
            return None;
        }
        let events = timeline.events_of(timeline.turn()).to_vec();
        if let Some(round) = events.iter().find_map(|e| match e {
            Event::Turn { round, .. } => Some(*round),
            _ => None,
        }) {
            self.round = round;
        }
        Some(events)
    }

    /// The player whose turn just ended sends a signal to `robot` for `step` (A.8).
    pub fn signal(&mut self, robot: RobotName, step: u8) -> Result<(), Refusal> {
        let Phase::Signal { team, .. } = self.phase() else {
            return Err(Refusal::NotAsked);
        };
        if robot.team != team {
            return Err(Refusal::NotYours { robot, team });
        }
        let session = self.session.as_mut().ok_or(Refusal::NotAsked)?;
        let id = session
            .current()
            .robot_by_name(robot)
            .ok_or(Refusal::NoRobot(robot))?;
        let refusal = |e: SignalError| {
            Refusal::Engine(match e {
                SignalError::BadStep(..) => {
                    format!("{e}: a signal names a step of the program (RULES A.8, R-A14)")
                }
                SignalError::AlreadyPending(_) => {
                    format!("{e}: it acts at the robot's next turn (R-A14)")
                }
                SignalError::NoneLeft => format!("{e} (R-A13)"),
                _ => e.to_string(),
            })
        };
        let timeline = session.timeline_mut();
        timeline.send_signal(id, step).map_err(refusal)?;
        let team_index = session.current().robot(id).team.index();
        self.sent.push(Sent {
            round: self.round,
            robot: RobotRef {
                team: team_index,
                number: robot.number,
            },
            step,
        });
        self.asked = Some(session.timeline().turn());
        Ok(())
    }

    /// The player whose turn just ended sends no signal.
    pub fn skip(&mut self) {
        self.asked = self.session.as_ref().map(|s| s.timeline().turn());
    }

    /// The game as a match file: every placement written in, the players' signals as
    /// scheduled ones (they act at the same turns: the same match, turn for turn). `None`
    /// before the match starts, or when the board is not a shipped one (a match file names
    /// its board; the replay holds it whole).
    pub fn match_file(&self) -> Option<String> {
        self.session.as_ref()?;
        let setup = self.saved_setup()?;
        crate::battle::files::shipped::board(&setup.board.name)?;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "# A game at the table (robots play): every placement, and the players' signals\n\
             # as scheduled ones, so `robots run` and `robots debug` play it again.\n\
             name: {}\nboard: {}\nscenario: {}\n\
             rules: {{shapes_block: {}, program_steps: {}, rounds: {}, keywords: {}}}\nseed: {}\nteams:",
            json(&setup.name),
            setup.board.name,
            setup.scenario.number(),
            setup.rules.shapes_block,
            setup.rules.program_steps,
            setup.rules.rounds,
            setup.rules.keywords.name(),
            setup.seed
        );
        for team in &setup.teams {
            let _ = writeln!(out, "  - colour: {}\n    robots:", team.colour);
            for r in &team.robots {
                let (col, row) = r.at.map_or((0, 0), |c| setup.board.offset(c));
                let facing = r.facing.map_or(1, Direction::number);
                let program = if crate::battle::files::shipped::program(&r.origin)
                    .is_some_and(|text| *text == *r.source)
                {
                    format!("program: {}", r.origin)
                } else {
                    format!("code: {}", json(&r.source))
                };
                let _ = writeln!(
                    out,
                    "      - {{{program}, at: [{col}, {row}], facing: {facing}}}"
                );
            }
        }
        if !setup.signals.is_empty() {
            out.push_str("signals:\n");
        }
        for s in &setup.signals {
            let robot = RobotName {
                team: setup.teams[s.robot().team].colour,
                number: s.robot().number,
            };
            let _ = match s {
                SignalPlan::Scheduled { round, step, .. } => {
                    writeln!(out, "  - {{round: {round}, robot: {robot}, step: {step}}}")
                }
                SignalPlan::Conditional { text, step, .. } => {
                    writeln!(
                        out,
                        "  - {{when: {}, robot: {robot}, step: {step}}}",
                        json(text)
                    )
                }
            };
        }
        Some(out)
    }

    /// The setup that plays this game again from the start: every placement fixed, the
    /// players' signals scheduled. `None` before the match starts.
    pub fn saved_setup(&self) -> Option<MatchSetup> {
        self.session.as_ref()?;
        let mut setup = self.placing.fixed_setup(&self.setup);
        let mut signals: Vec<SignalPlan> = self
            .sent
            .iter()
            .map(|s| SignalPlan::Scheduled {
                round: s.round,
                robot: s.robot,
                step: s.step,
            })
            .collect();
        signals.append(&mut setup.signals);
        setup.signals = signals;
        Some(setup)
    }

    /// Who is at the table and who plays by the file, for views.
    pub fn players(&self) -> Vec<(TeamColour, bool)> {
        self.setup
            .teams
            .iter()
            .enumerate()
            .map(|(t, team)| (team.colour, self.at_table(t)))
            .collect()
    }

    /// The team that plays a robot turn now, if the match is under way.
    pub fn team_to_play(&self) -> Option<TeamId> {
        self.game()
            .filter(|m| !m.is_over())
            .map(Match::team_to_play)
    }
}

/// What an answer typed at the table did ([`HotSeat::answer`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answered {
    Placed,
    Undone,
    /// The match started; this team plays first (drawn).
    Started(TeamColour),
    Signalled(RobotName),
    Skipped,
    /// Save the game at the end: as a match file, or a replay (`replay`), at `path`.
    Save {
        replay: bool,
        path: String,
    },
    Done,
}

impl HotSeat {
    /// Acts on an answer typed at the table for the question of the phase: `COL ROW FACING`
    /// or `undo` while placing; `start` or `undo` once all are placed; `ROBOT STEP` or `skip`
    /// for a signal; `match FILE`, `replay FILE` or `done` at the end. A refusal says why.
    pub fn answer(&mut self, text: &str) -> Result<Answered, AnswerError> {
        let text = text.trim();
        match self.phase() {
            Phase::Place { .. } if text == "undo" => self.undone(),
            Phase::Place { .. } => {
                let (cell, facing) = parse_placement(text, &self.setup.board)?;
                self.place(cell, facing)?;
                Ok(Answered::Placed)
            }
            Phase::Confirm => match text {
                "undo" => self.undone(),
                "start" => {
                    self.start()?;
                    let m = self.game().ok_or(AnswerError::NotStarted)?;
                    Ok(Answered::Started(m.team(m.first_team()).colour))
                }
                _ => Err(AnswerError::Expected("expected `start` or `undo`")),
            },
            Phase::Signal { .. } if is_skip(text) => {
                self.skip();
                Ok(Answered::Skipped)
            }
            Phase::Signal { .. } => {
                let (robot, step) = parse_signal(text)?;
                self.signal(robot, step)?;
                Ok(Answered::Signalled(robot))
            }
            Phase::Over => {
                if text == "done" {
                    return Ok(Answered::Done);
                }
                let (what, path) = text.split_once(' ').unwrap_or((text, ""));
                let (replay, what) = match what {
                    "match" => (false, "match"),
                    "replay" => (true, "replay"),
                    _ => {
                        return Err(AnswerError::Expected(
                            "expected `match FILE`, `replay FILE` or `done`",
                        ));
                    }
                };
                if path.trim().is_empty() {
                    return Err(AnswerError::NeedsFile(what));
                }
                Ok(Answered::Save {
                    replay,
                    path: path.trim().to_string(),
                })
            }
            Phase::Play => Err(AnswerError::Playing),
        }
    }

    fn undone(&mut self) -> Result<Answered, AnswerError> {
        if self.undo() {
            Ok(Answered::Undone)
        } else {
            Err(AnswerError::NothingToUndo)
        }
    }
}

/// Whether a signal answer says no signal.
pub fn is_skip(text: &str) -> bool {
    matches!(text.trim(), "skip" | "pass" | "no")
}

/// A placement answer: `COL ROW FACING` (`place` before it, brackets and commas allowed).
pub fn parse_placement(
    text: &str,
    board: &crate::battle::board::Board,
) -> Result<(crate::battle::board::CellId, Direction), AnswerError> {
    let cleaned: String = text
        .chars()
        .map(|c| if matches!(c, '[' | ']' | ',') { ' ' } else { c })
        .collect();
    let words: Vec<&str> = cleaned
        .split_whitespace()
        .skip_while(|w| w.eq_ignore_ascii_case("place"))
        .collect();
    let [col, row, facing] = words[..] else {
        return Err(AnswerError::Expected(
            "expected `COL ROW FACING`, such as `3 9 2` (a start point and a facing 1 to 6)",
        ));
    };
    let number = |w: &str, what: &'static str| {
        w.parse::<i32>().map_err(|_| AnswerError::NotANumber {
            what,
            text: crate::text::escape(w).into_owned(),
        })
    };
    let (col, row) = (number(col, "the column")?, number(row, "the row")?);
    let facing = number(facing, "the facing")?;
    let facing = u32::try_from(facing)
        .ok()
        .and_then(Direction::from_number)
        .ok_or(AnswerError::Facing)?;
    let cell = board
        .cell_at_offset(col, row)
        .ok_or(AnswerError::OffBoard { col, row })?;
    Ok((cell, facing))
}

/// A signal answer: `ROBOT STEP` (`signal` before it allowed).
pub fn parse_signal(text: &str) -> Result<(RobotName, u8), AnswerError> {
    let words: Vec<&str> = text
        .split_whitespace()
        .skip_while(|w| w.eq_ignore_ascii_case("signal"))
        .collect();
    let [robot, step] = words[..] else {
        return Err(AnswerError::Expected(
            "expected `ROBOT STEP`, such as `green.2 7`, or `skip`",
        ));
    };
    let robot = RobotName::parse(robot)?;
    let step = step.parse::<u8>().map_err(|_| AnswerError::Step)?;
    Ok((robot, step))
}

/// A string as YAML reads it: JSON's double-quoted form (control characters escaped).
fn json(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| "\"\"".into())
}
