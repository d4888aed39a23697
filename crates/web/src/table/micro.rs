//! A game of Micro Robots against the computers in the page (web/play/ENGINE.md,
//! "microRace"), as `robots micro play --human you` plays it: the games crate's own [`Game`]
//! on the face's arrangement its seed draws. As for the Ricochet game, the engine holds no
//! clock and no game: every request carries each mission's answer (an announcement with its
//! seconds on the page's clock since the roll, or a pass, and the cells shown), and the game
//! is played again from its seed up to the first question not answered. In the live mission
//! the page learns when the first computer announces: the computers' searches do not depend
//! on the human's answer, so a first play in which the human passes that mission says when,
//! and the page's clock reaching it ends the human's chance.

use super::{PlayerOut, check_table, limit, players_out};
use crate::answer::{ErrorKind, Failure, json};
use crate::micro::{cell, face, variant};
use robots_games::micro::game::{Game, Humans, MAX_MISSIONS, MISSION_SECONDS, Outcome, Quit};
use robots_games::micro::record::Note;
use robots_games::micro::{Board, Cell, report};
use robots_games::table;
use serde::{Deserialize, Serialize};

/// The most cells a demonstration shows.
pub const MAX_SHOWN: usize = 1_000;

/// The human's answer in one mission.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MissionIn {
    /// An announcement: `moves`, `at` seconds after the roll.
    at: Option<f64>,
    moves: Option<u32>,
    /// The human passes this mission.
    #[serde(default)]
    pass: bool,
    /// The cells the robot stops on after the start, when asked to show them.
    shown: Option<Vec<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RaceIn {
    face: Option<String>,
    seed: u64,
    variant: Option<String>,
    /// Everybody at the table: the human and 1 to 3 computers.
    players: usize,
    /// The computers' strength, 1 to 3.
    strength: u8,
    #[serde(default)]
    missions: Vec<MissionIn>,
    #[serde(default)]
    now: f64,
    #[serde(default)]
    quit: bool,
}

impl RaceIn {
    fn check(&self) -> Result<(), Failure> {
        check_table(self.players, self.strength, 3)?;
        if self.missions.len() > MAX_MISSIONS as usize {
            return Err(limit(format!("missions: at most {MAX_MISSIONS}")));
        }
        // The page's clock may run past the mission's time; an announcement is within it.
        let seconds = |s: f64, most: f64| s.is_finite() && (0.0..=most).contains(&s);
        if !seconds(self.now, 1e6)
            || self
                .missions
                .iter()
                .any(|m| m.at.is_some_and(|a| !seconds(a, 1e6)))
        {
            return Err(limit("a time is seconds after the roll, 0 to 1000000"));
        }
        for m in &self.missions {
            if m.at.is_some() != m.moves.is_some() || (m.pass && m.moves.is_some()) {
                return Err(Failure::new(
                    ErrorKind::Request,
                    "a mission's answer is an announcement (`at` and `moves`) or a pass",
                ));
            }
            if m.shown.as_ref().is_some_and(|s| s.len() > MAX_SHOWN) {
                return Err(limit(format!(
                    "a demonstration shows at most {MAX_SHOWN} cells"
                )));
            }
        }
        Ok(())
    }
}

/// Where the game stopped for the page.
#[derive(Clone, Copy, Debug)]
enum Halt {
    /// Waiting for the human's announcement until the first computer's.
    Announce,
    Demonstrate {
        announced: u32,
    },
}

/// The human at the page. Missions before the live one are over (unanswered: passed); in the
/// live one, `live`, the human answers until the first computer announces (`first` seconds);
/// a probe passes the live mission and stops at the next.
struct PageHuman<'a> {
    missions: &'a [MissionIn],
    now: f64,
    quit: bool,
    live: usize,
    first: f64,
    probe: bool,
    mission: usize,
    rolled: Option<(Cell, Option<Cell>, Cell)>,
    halt: Option<Halt>,
}

impl PageHuman<'_> {
    fn answer(&self) -> MissionIn {
        self.missions
            .get(self.mission - 1)
            .cloned()
            .unwrap_or_default()
    }
}

/// The mission the human answers now: the last one the page has seen while it is unanswered,
/// else the next.
fn live_mission(missions: &[MissionIn]) -> usize {
    match missions.last() {
        Some(m) if m.moves.is_none() && !m.pass => missions.len(),
        _ => missions.len() + 1,
    }
}

impl Humans for PageHuman<'_> {
    fn announce(
        &mut self,
        _: &str,
        _: &Board,
        start: Cell,
        via: Option<Cell>,
        target: Cell,
    ) -> Result<Option<(u32, f64)>, Quit> {
        self.mission += 1;
        self.rolled = Some((start, via, target));
        let answer = self.answer();
        if self.probe {
            return match self.mission.cmp(&self.live) {
                std::cmp::Ordering::Less => Ok(answer.at.zip(answer.moves).map(|(a, m)| (m, a))),
                std::cmp::Ordering::Equal => Ok(None),
                std::cmp::Ordering::Greater => Err(Quit),
            };
        }
        if let (Some(at), Some(moves)) = (answer.at, answer.moves) {
            return Ok(Some((moves, at)));
        }
        if answer.pass || self.mission < self.live {
            return Ok(None);
        }
        if self.quit {
            return Err(Quit);
        }
        let clock = if self.mission == self.missions.len() {
            self.now
        } else {
            0.0
        };
        // A microsecond's slack: a time read from JSON may be a bit below the one written.
        if clock + 1e-6 < self.first {
            self.halt = Some(Halt::Announce);
            return Err(Quit);
        }
        Ok(None)
    }

    fn demonstrate(&mut self, _: &str, _: Cell, announced: u32) -> Result<Vec<Cell>, Quit> {
        if let Some(shown) = self.answer().shown {
            // A cell the engine cannot read is shown as no move: the check refuses the walk.
            return Ok(shown
                .iter()
                .map(|c| cell(c, "a cell shown"))
                .collect::<Result<Vec<_>, _>>()
                .unwrap_or_default());
        }
        if self.quit && self.mission >= self.live.saturating_sub(1) {
            return Err(Quit);
        }
        self.halt = Some(Halt::Demonstrate { announced });
        Err(Quit)
    }
}

#[derive(Serialize)]
struct RaceOut {
    /// `announce`, `demonstrate` or `over`.
    state: &'static str,
    mission: usize,
    from: Option<String>,
    via: Option<String>,
    to: Option<String>,
    /// Announce: the page's second at which the first computer announces (or the mission's
    /// time runs out).
    until: Option<f64>,
    /// Demonstrate: the moves announced.
    announced: Option<u32>,
    players: Vec<PlayerOut>,
    /// The game's log, `robots micro play`'s words (its first line, not its board drawing).
    log: Vec<String>,
    /// Its record, as `robots micro play --json` writes it (the missions finished).
    record: Vec<String>,
    winners: Vec<String>,
}

/// One play of the game as the page answered it.
struct Played<'a> {
    notes: Vec<Note>,
    human: PageHuman<'a>,
    outcome: Outcome,
    log: Vec<String>,
    record: Vec<String>,
}

fn play_once(r: &RaceIn, first: f64, probe: bool) -> Result<Played<'_>, Failure> {
    let face = face(
        r.face
            .as_deref()
            .unwrap_or(robots_games::micro::shipped::DEFAULT_FACE),
    )?;
    let v = variant(r.variant.as_deref())?;
    let table = table::roster(&["you".to_string()], r.players, r.strength)
        .map_err(|e| limit(e.to_string()))?;
    let json_players = table::report::players(&table);
    let game = Game::on_face(&face, table, v, r.seed);
    let mut record = vec![report::setup(&game, r.seed, json_players)];
    let mut log = vec![format!("Micro Robots on {}", game.board().name())];
    let mut human = PageHuman {
        missions: &r.missions,
        now: r.now,
        quit: r.quit,
        live: live_mission(&r.missions),
        first,
        probe,
        mission: 0,
        rolled: None,
        halt: None,
    };
    let mut notes = Vec::new();
    let outcome = game.play(&mut human, &mut |n| notes.push(n));
    if (probe || human.halt.is_some())
        && let Some(at) = notes.iter().position(|n| matches!(n, Note::Leaves { .. }))
    {
        notes.truncate(at);
    }
    let mut folded = report::Record::default();
    for n in &notes {
        log.push(n.to_string());
        record.extend(folded.note(n));
    }
    Ok(Played {
        notes,
        human,
        outcome,
        log,
        record,
    })
}

/// The race of the request, played as far as the page answered it.
pub fn race(request: &str) -> Result<String, Failure> {
    let r: RaceIn = serde_json::from_str(request)?;
    r.check()?;
    // When the first computer announces in the live mission: the human passing it.
    let live = live_mission(&r.missions);
    let probe = play_once(&r, MISSION_SECONDS, true)?;
    let mut first = MISSION_SECONDS;
    let mut mission = 0;
    for n in &probe.notes {
        match n {
            Note::Mission { number, .. } => mission = *number as usize,
            Note::Announces { seconds, .. } if mission == live => first = *seconds,
            _ => {}
        }
    }
    let Played {
        mut human,
        outcome,
        log,
        record,
        ..
    } = play_once(&r, first, false)?;
    let (state, until, announced) = match human.halt.take() {
        Some(Halt::Announce) => ("announce", Some(first), None),
        Some(Halt::Demonstrate { announced }) => ("demonstrate", None, Some(announced)),
        None => ("over", None, None),
    };
    let over = state == "over";
    json(&RaceOut {
        state,
        mission: human.mission,
        from: human.rolled.map(|(c, ..)| c.to_string()),
        via: human.rolled.and_then(|(_, v, _)| v).map(|c| c.to_string()),
        to: human.rolled.map(|(.., c)| c.to_string()),
        until,
        announced,
        players: players_out(&outcome.players),
        log,
        record,
        winners: if over { outcome.winners } else { Vec::new() },
    })
}
