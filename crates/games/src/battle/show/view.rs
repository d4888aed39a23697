//! The document a replay page shows (`robots run --html`, docs/VIEWER.md): the match played
//! to its end, every robot turn with its events, log lines and the state after it. Pure: it
//! plays the match and returns data; the binary inlines it into the page.
//!
//! The document, compact (short keys, arrays), keys in this order:
//!
//! - `v`: this document's version (3). `name`, `scenario` (1–3), `seed` (a string of digits:
//!   64 bits do not fit a JavaScript number), `rounds` (the limit),
//!   `shapes_block` (the advanced rule: shapes stop moves and shots), `keywords` (`plain`, or
//!   `ti57` under the TI-57 rule of RULES A.12).
//! - `board`: `name`, `w`, `h`, `cells` row-major; a cell is `{"at": [col, row]}` plus `t`
//!   (`lake`, `lightning`, `shape`, `computer`; absent: plain), `form` (`square`, `triangle`,
//!   `circle`) and `colour` (a shape's colour, a computer's team colour), `camp` (a team
//!   colour) and `start` (`true` for a start point) when they apply.
//! - `teams`: `[{"colour": "green"}, …]` in file order.
//! - `robots`: `[{"name": "green.1", "team": 0, "origin": "hunter", "steps": ["?1", "GO 5",
//!   …], "tests": [[1, "enemy ahead within 2"], …]}, …]`; a robot's index here is how every
//!   frame and event names it. Steps in canonical notation, `x = TERM` with its term.
//! - `frames`: frame 0 is the start, frame k the state after robot turn k:
//!   - `r`: the round; `n`: the robot about to act (null once the match is over);
//!   - `g`: the signals each team has left;
//!   - `d`: the robots whose state changed (all of them in frame 0), each
//!     `[robot, col, row, facing 1–6, alive 0/1, shots, pointer, next step, [destroyed
//!     steps], signal pending 0/1]`. A pending signal's step is not in the document: it is
//!     secret until it acts (R-A23);
//!   - `m` (under the TI-57 rule only): the robots whose memories changed (all of them in
//!     frame 0), each `[robot, x, t, [R0, …, R7], [remembered returns, oldest first],
//!     stopped by R/S 0/1]` (R-A25, R-A26, R-A29). Memories change only when the robot reads
//!     a step, so they say nothing of a pending signal's step;
//!   - `e`: the turn's events, each `[code, robot or null, fields…]` (below); `l`: the same as
//!     the log prints them (`Event::log_line`);
//!   - `a`: the answers (1 yes, 0 no) of the tests of the robot about to act, in the order of
//!     its `tests`.
//! - `end`: `{"winner": colour or null, "reason": code, "verdict": words, "rounds": n}`.
//!
//! Event rows (codes as in the replay file, docs/FORMATS.md; `[c, r]` a hex, robots by
//! index): `turn` round; `tested` step test answer; `reset` step; `jumped` step to; `moved`
//! step from to; `blocked` step at; `rotated` step facing; `fired` step facing shots_left;
//! `out_of_shots` step; `hit` by distance; `computer_hit` (no robot) by camp counts;
//! `exploded` step at; `destroyed` cause by; `step_lost` step cause by; `drowned` at;
//! `fell_off` from; `lightning` at step; `signal_sent`; `signal_received` step effect;
//! `signal_lost`; `stalled` step; `idle` step reason (`destroyed_step`, `empty_step`,
//! `returns_full`, `no_return`, `stopped`); `calc` step effect words (a TI-57 keyword
//! read, A.12; the effect as in the replay file's `calc` field: `label`, `nop`, `goto`,
//! `call`, `return`, `number`, `sensed`, `memory`, `swap_xt`, `clear_t`, `clear_all`,
//! `x_test`, `dsz`, `pause`, `stop`; the words as the log line writes them after `step n: `); `end` (no robot) round winner reason.

use crate::battle::engine::{
    Cause, Event, Match, MatchSetup, Obstacle, Pos, RobotId, RobotName, SetupError, SignalEffect,
};
use crate::battle::show::report::reason_code;
use crate::battle::terrain::{TeamColour, Terrain};
use serde::Serialize;
use serde_json::{Value, json};

/// The version of [`ViewDoc`].
pub const VIEW_VERSION: u32 = 3;

/// Why a match cannot be shown.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ViewError {
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error(
        "the match lasts more than {max_turns} robot turns: too long for one page (a lower --rounds shows its start)"
    )]
    TooLong { max_turns: u64 },
    #[error(
        "the match's page would hold more than {} of data, the most a page holds (a lower --rounds shows its start)",
        crate::text::lines::size(*.max_bytes)
    )]
    TooBig { max_bytes: u64 },
}

/// The most bytes of JSON a page's document takes (the page adds its scripts, ~100 KiB): a
/// browser opens it, and the document in memory stays a few hundred MiB.
pub const MAX_DOC_BYTES: u64 = 48 << 20;

/// The longest match a page shows, in robot turns (a 1,000-round match of 12 robots):
/// `robots run --html` and the browser's engine refuse a longer one.
pub const MAX_TURNS: u64 = 100_000;

/// Counts the bytes of JSON written, each `<` as the six of `\u003c` ([`script_json`]).
#[derive(Default)]
struct Counter(u64);

impl std::io::Write for Counter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let angles = buf.iter().filter(|&&b| b == b'<').count() as u64;
        self.0 += buf.len() as u64 + 5 * angles;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The bytes `value` takes in the page.
fn json_bytes(value: &impl Serialize) -> u64 {
    let mut counter = Counter::default();
    // Writing to a counter cannot fail, and our types always serialise.
    let _ = serde_json::to_writer(&mut counter, value);
    counter.0
}

/// The whole replay: see the module's documentation for every key.
#[derive(Clone, Debug, Serialize)]
pub struct ViewDoc {
    pub v: u32,
    pub name: String,
    pub scenario: u8,
    /// Written as a string: a 64-bit seed does not fit a JavaScript number.
    #[serde(serialize_with = "seed_text")]
    pub seed: u64,
    pub rounds: u32,
    pub shapes_block: bool,
    pub keywords: &'static str,
    pub board: BoardView,
    pub teams: Vec<TeamView>,
    pub robots: Vec<RobotView>,
    pub frames: Vec<Frame>,
    pub end: Option<EndView>,
}

#[derive(Clone, Debug, Serialize)]
pub struct BoardView {
    pub name: String,
    pub w: usize,
    pub h: usize,
    pub cells: Vec<CellView>,
}

#[derive(Clone, Debug, Serialize)]
pub struct CellView {
    pub at: [usize; 2],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub t: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub form: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colour: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub camp: Option<&'static str>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub start: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct TeamView {
    pub colour: &'static str,
}

#[derive(Clone, Debug, Serialize)]
pub struct RobotView {
    pub name: String,
    pub team: usize,
    pub origin: String,
    pub steps: Vec<String>,
    pub tests: Vec<(u8, String)>,
}

/// A robot's state: `[robot, col, row, facing, alive, shots, pointer, next, lost, signal]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RobotState(
    pub usize,
    pub usize,
    pub usize,
    pub u8,
    pub u8,
    pub u8,
    pub u8,
    pub usize,
    pub Vec<u8>,
    pub u8,
);

/// A robot's memories under the TI-57 rule: `[robot, x, t, [R0, …, R7], [returns], stopped]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MemoryState(
    pub usize,
    pub i32,
    pub i32,
    pub [i32; 8],
    pub Vec<u8>,
    pub u8,
);

/// The state after one robot turn (or the start), with the turn's events.
#[derive(Clone, Debug, Serialize)]
pub struct Frame {
    pub r: u32,
    pub n: Option<usize>,
    pub g: Vec<u8>,
    pub d: Vec<RobotState>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub m: Vec<MemoryState>,
    pub e: Vec<Value>,
    pub l: String,
    pub a: Vec<u8>,
}

#[derive(Clone, Debug, Serialize)]
pub struct EndView {
    pub winner: Option<&'static str>,
    pub reason: &'static str,
    pub verdict: String,
    pub rounds: u32,
}

/// Plays `setup` to its end and returns the page's document; refuses a match of more than
/// `max_turns` robot turns, or whose document would take more than `max_bytes` of JSON,
/// as soon as it passes the bound, rather than building a huge page.
pub fn view_doc(setup: &MatchSetup, max_turns: u64, max_bytes: u64) -> Result<ViewDoc, ViewError> {
    let mut game = Match::new(setup)?;
    let robots = robots(setup, &game);
    let board = board(&game);
    let mut bytes = json_bytes(&robots) + json_bytes(&board);
    let mut spend = |frame: &Frame| {
        bytes += json_bytes(frame) + 1;
        if bytes > max_bytes {
            Err(ViewError::TooBig { max_bytes })
        } else {
            Ok(())
        }
    };
    let mut states: Vec<RobotState> = game.robot_ids().map(|id| state(&game, id)).collect();
    let mut memories: Vec<Option<MemoryState>> =
        game.robot_ids().map(|id| memory(&game, id)).collect();
    let mut frames = vec![frame(
        &game,
        states.clone(),
        memories.iter().flatten().cloned().collect(),
        &[],
    )];
    spend(&frames[0])?;
    let mut events = Vec::new();
    while !game.is_over() {
        if game.turns_played() >= max_turns {
            return Err(ViewError::TooLong { max_turns });
        }
        events.clear();
        if !game.step_into(&mut events) {
            break;
        }
        let mut changed = Vec::new();
        for (id, old) in game.robot_ids().zip(states.iter_mut()) {
            let now = state(&game, id);
            if now != *old {
                changed.push(now.clone());
                *old = now;
            }
        }
        let mut changed_memories = Vec::new();
        for (id, old) in game.robot_ids().zip(memories.iter_mut()) {
            let now = memory(&game, id);
            if now != *old {
                changed_memories.extend(now.clone());
                *old = now;
            }
        }
        let next = frame(&game, changed, changed_memories, &events);
        spend(&next)?;
        frames.push(next);
    }
    Ok(ViewDoc {
        v: VIEW_VERSION,
        name: crate::text::escape(&setup.name).into_owned(),
        scenario: setup.scenario.number(),
        seed: setup.seed,
        rounds: setup.rules.rounds,
        shapes_block: setup.rules.shapes_block,
        keywords: setup.rules.keywords.name(),
        board,
        teams: setup
            .teams
            .iter()
            .map(|t| TeamView {
                colour: t.colour.name(),
            })
            .collect(),
        robots,
        frames,
        end: game.outcome().map(|o| EndView {
            winner: o.winner.map(TeamColour::name),
            reason: reason_code(o.reason),
            verdict: o.verdict(),
            rounds: o.rounds,
        }),
    })
}

/// A seed as a string of decimal digits.
fn seed_text<S: serde::Serializer>(seed: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(seed)
}

/// The document as JSON that can stand inside an HTML `<script>` element: every `<` written
/// `\u003c` (JSON has `<` only inside strings), so no text from a file can close the element
/// (`</script>`) or open a comment (`<!--`).
pub fn script_json(doc: &ViewDoc) -> Result<String, serde_json::Error> {
    Ok(serde_json::to_string(doc)?.replace('<', "\\u003c"))
}

/// The document's `robots` for `setup`, as [`view_doc`] writes them, without playing the
/// match (the arena splices a caller's own steps and tests into a kept document).
pub fn robot_views(setup: &MatchSetup) -> Result<Vec<RobotView>, SetupError> {
    let game = Match::new(setup)?;
    Ok(robots(setup, &game))
}

fn robots(setup: &MatchSetup, game: &Match) -> Vec<RobotView> {
    let origins = setup.teams.iter().flat_map(|t| &t.robots);
    game.robot_ids()
        .zip(origins)
        .map(|(id, r)| {
            let program = game.program(id);
            RobotView {
                name: game.robot(id).name.to_string(),
                team: game.robot(id).team.index(),
                origin: crate::text::escape(&r.origin).into_owned(),
                steps: program
                    .steps
                    .iter()
                    .map(|s| program.notation(s.instruction))
                    .collect(),
                tests: program
                    .tests
                    .iter()
                    .flatten()
                    .map(|t| (t.number, crate::text::escape(&t.text).into_owned()))
                    .collect(),
            }
        })
        .collect()
}

fn board(game: &Match) -> BoardView {
    board_view(game.board())
}

/// A board as the viewer draws it (the document's `board`).
pub fn board_view(b: &crate::battle::board::Board) -> BoardView {
    let cells = b
        .cells()
        .map(|(id, cell)| {
            let (col, row) = b.offset(id);
            let (t, form, colour) = match cell.terrain {
                Terrain::Plain => (None, None, None),
                Terrain::Lake => (Some("lake"), None, None),
                Terrain::Lightning => (Some("lightning"), None, None),
                Terrain::Shape(f, c) => (Some("shape"), Some(f.name()), Some(c.name())),
                Terrain::Computer(c) => (Some("computer"), None, Some(c.name())),
            };
            CellView {
                at: [col, row],
                t,
                form,
                colour,
                camp: cell.camp.map(TeamColour::name),
                start: cell.start,
            }
        })
        .collect();
    BoardView {
        name: crate::text::escape(&b.name).into_owned(),
        w: b.width,
        h: b.height,
        cells,
    }
}

fn state(game: &Match, id: RobotId) -> RobotState {
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
fn memory(game: &Match, id: RobotId) -> Option<MemoryState> {
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

/// The whole state of `game` as a frame: every robot (and every memory under the TI-57 rule),
/// with `events`, the turn's that led here (the debugger's state for the browser).
pub fn snapshot(game: &Match, events: &[Event]) -> Frame {
    let states = game.robot_ids().map(|id| state(game, id)).collect();
    let memories = game.robot_ids().filter_map(|id| memory(game, id)).collect();
    frame(game, states, memories, events)
}

fn frame(game: &Match, d: Vec<RobotState>, m: Vec<MemoryState>, events: &[Event]) -> Frame {
    let next = game.next_robot();
    let a = next.map_or_else(Vec::new, |id| {
        let tests = game.program(id).tests.iter().flatten();
        tests
            .map(|t| u8::from(game.evaluate(id, &t.condition)))
            .collect()
    });
    Frame {
        r: game.clock().round,
        n: next.map(RobotId::index),
        g: game.teams().iter().map(|t| t.signals_left).collect(),
        d,
        m,
        e: events.iter().map(|e| event_row(game, e)).collect(),
        l: events.iter().map(Event::log_line).collect(),
        a,
    }
}

fn hex(p: Pos) -> Value {
    json!([p.0, p.1])
}

fn cause(game: &Match, c: Cause) -> (&'static str, Value) {
    match c {
        Cause::Shot(by) => ("shot", index(game, by)),
        Cause::Explosion(by) => ("explosion", index(game, by)),
    }
}

fn index(game: &Match, name: RobotName) -> Value {
    game.robot_by_name(name)
        .map_or(Value::Null, |id| json!(id.index()))
}

/// One event as `[code, robot, fields…]` (the module's documentation lists them).
fn event_row(game: &Match, e: &Event) -> Value {
    let robot = e.robot().map_or(Value::Null, |r| index(game, r));
    let row = |code: &str, fields: Vec<Value>| {
        let mut out = vec![json!(code), robot.clone()];
        out.extend(fields);
        Value::Array(out)
    };
    match *e {
        Event::Turn { round, .. } => row("turn", vec![json!(round)]),
        Event::Tested {
            step, test, answer, ..
        } => row(
            "tested",
            vec![json!(step), json!(test), json!(u8::from(answer))],
        ),
        Event::Reset { step, .. } => row("reset", vec![json!(step)]),
        Event::Jumped { step, to, .. } => row("jumped", vec![json!(step), json!(to)]),
        Event::Moved { step, from, to, .. } => row("moved", vec![json!(step), hex(from), hex(to)]),
        Event::Blocked { step, at, by, .. } => {
            let by = match by {
                Obstacle::Robot(r) => index(game, r),
                Obstacle::Shape => json!("shape"),
                Obstacle::Computer => json!("computer"),
            };
            row("blocked", vec![json!(step), hex(at), by])
        }
        Event::Rotated { step, facing, .. } => {
            row("rotated", vec![json!(step), json!(facing.number())])
        }
        Event::Fired {
            step,
            facing,
            shots_left,
            ..
        } => row(
            "fired",
            vec![json!(step), json!(facing.number()), json!(shots_left)],
        ),
        Event::OutOfShots { step, .. } => row("out_of_shots", vec![json!(step)]),
        Event::Hit { by, distance, .. } => row("hit", vec![index(game, by), json!(distance)]),
        Event::ComputerHit { camp, by, counts } => row(
            "computer_hit",
            vec![index(game, by), json!(camp.name()), json!(u8::from(counts))],
        ),
        _ => consequence_row(game, e, row),
    }
}

fn consequence_row(game: &Match, e: &Event, row: impl Fn(&str, Vec<Value>) -> Value) -> Value {
    match *e {
        Event::Exploded { step, at, .. } => row("exploded", vec![json!(step), hex(at)]),
        Event::Destroyed { cause: c, .. } => {
            let (c, by) = cause(game, c);
            row("destroyed", vec![json!(c), by])
        }
        Event::StepLost { step, cause: c, .. } => {
            let (c, by) = cause(game, c);
            row("step_lost", vec![json!(step), json!(c), by])
        }
        Event::Drowned { at, .. } => row("drowned", vec![hex(at)]),
        Event::FellOff { from, .. } => row("fell_off", vec![hex(from)]),
        Event::Lightning { at, step, .. } => row("lightning", vec![hex(at), json!(step)]),
        Event::SignalSent { .. } => row("signal_sent", vec![]),
        Event::SignalReceived { step, effect, .. } => {
            let effect = match effect {
                SignalEffect::Executed => "executed",
                SignalEffect::Nothing => "nothing",
            };
            row("signal_received", vec![json!(step), json!(effect)])
        }
        Event::SignalLost { .. } => row("signal_lost", vec![]),
        Event::Stalled { step, .. } => row("stalled", vec![json!(step)]),
        Event::Idle { step, reason, .. } => row("idle", vec![json!(step), json!(reason.code())]),
        Event::Calc { step, effect, .. } => row(
            "calc",
            vec![json!(step), json!(effect.code()), json!(effect.to_string())],
        ),
        Event::End {
            round,
            winner,
            reason,
        } => row(
            "end",
            vec![
                json!(round),
                json!(winner.map(TeamColour::name)),
                json!(reason_code(reason)),
            ],
        ),
        _ => unreachable!("the other events are handled in `event_row`"),
    }
}
