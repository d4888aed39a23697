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

mod frame;
mod play;
mod rows;

use crate::battle::engine::{Event, Match, MatchSetup, SetupError};
use crate::battle::show::report::reason_code;
use crate::battle::terrain::{TeamColour, Terrain};
pub use frame::{Frame, MemoryState, RobotState, ViewError};
use play::Player;
pub use rows::EventRow;
use serde::Serialize;

/// The version of [`ViewDoc`].
pub const VIEW_VERSION: u32 = 3;

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
        self.0 += page_bytes(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The bytes `json` takes in the page.
fn page_bytes(json: &[u8]) -> u64 {
    let angles = json.iter().filter(|&&b| b == b'<').count() as u64;
    json.len() as u64 + 5 * angles
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
    let mut player = Player::new(setup)?;
    let robots = robots(setup, &player.game);
    let board = board(&player.game);
    let mut bytes = Bytes::new(max_bytes, json_bytes(&robots) + json_bytes(&board))?;
    let mut frames = Vec::new();
    loop {
        bytes.add(json_bytes(&player.frame) + 1)?;
        frames.push(player.frame.clone());
        if !player.turn(max_turns)? {
            break;
        }
    }
    let end = end(&player.game);
    Ok(document(setup, board, robots, frames, end))
}

/// A document written as JSON as its match is played ([`view_json`]).
#[derive(Clone, Debug)]
pub struct ViewJson {
    /// The JSON, byte for byte as `serde_json` writes the [`ViewDoc`] of [`view_doc`].
    pub json: Vec<u8>,
    /// Where the document's `robots` array lies in `json`.
    pub robots: std::ops::Range<usize>,
    /// The robots written there.
    pub robot_views: Vec<RobotView>,
    /// The robot turns played.
    pub turns: u64,
}

/// [`view_doc`] written as JSON as the match is played, each frame as soon as it is made,
/// with the same bounds: the same bytes as the document's, at a fraction of the cost (the
/// arena's replays, issue 50).
pub fn view_json(
    setup: &MatchSetup,
    max_turns: u64,
    max_bytes: u64,
) -> Result<ViewJson, ViewError> {
    let mut player = Player::new(setup)?;
    let robot_views = robots(setup, &player.game);
    let robots_json = to_json(&robot_views)?;
    let board = board(&player.game);
    let mut bytes = Bytes::new(max_bytes, page_bytes(&robots_json) + json_bytes(&board))?;
    // The document without frames, `…,"robots":[…],"frames":[],"end":null}`, cut after
    // `"frames":[`.
    let head = document(setup, board, robot_views, Vec::new(), None);
    let mut json = to_json(&head)?;
    let tail = b"],\"end\":null}";
    if !json.ends_with(tail) {
        return Err(ViewError::Json(
            "the document does not end as written".into(),
        ));
    }
    json.truncate(json.len() - tail.len());
    let robots_end = json.len() - br#","frames":["#.len();
    let robots = robots_end - robots_json.len()..robots_end;
    let robot_views = head.robots;
    loop {
        let start = json.len();
        serde_json::to_writer(&mut json, &player.frame).map_err(ViewError::json)?;
        bytes.add(page_bytes(&json[start..]) + 1)?;
        if !player.turn(max_turns)? {
            break;
        }
        json.push(b',');
    }
    json.extend_from_slice(br#"],"end":"#);
    serde_json::to_writer(&mut json, &end(&player.game)).map_err(ViewError::json)?;
    json.push(b'}');
    Ok(ViewJson {
        json,
        robots,
        robot_views,
        turns: player.game.turns_played(),
    })
}

fn to_json(value: &impl Serialize) -> Result<Vec<u8>, ViewError> {
    serde_json::to_vec(value).map_err(ViewError::json)
}

/// The bytes of JSON a document has taken so far, against its bound.
struct Bytes {
    taken: u64,
    max_bytes: u64,
}

impl Bytes {
    fn new(max_bytes: u64, taken: u64) -> Result<Bytes, ViewError> {
        let mut bytes = Bytes {
            taken: 0,
            max_bytes,
        };
        bytes.add(taken)?;
        Ok(bytes)
    }

    fn add(&mut self, bytes: u64) -> Result<(), ViewError> {
        self.taken += bytes;
        if self.taken > self.max_bytes {
            Err(ViewError::TooBig {
                max_bytes: self.max_bytes,
            })
        } else {
            Ok(())
        }
    }
}

fn document(
    setup: &MatchSetup,
    board: BoardView,
    robots: Vec<RobotView>,
    frames: Vec<Frame>,
    end: Option<EndView>,
) -> ViewDoc {
    ViewDoc {
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
        end,
    }
}

fn end(game: &Match) -> Option<EndView> {
    game.outcome().map(|o| EndView {
        winner: o.winner.map(TeamColour::name),
        reason: reason_code(o.reason),
        verdict: o.verdict(),
        rounds: o.rounds,
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

/// The whole state of `game` as a frame: every robot (and every memory under the TI-57 rule),
/// with `events`, the turn's that led here (the debugger's state for the browser).
pub fn snapshot(game: &Match, events: &[Event]) -> Frame {
    let mut frame = Frame {
        r: 0,
        n: None,
        g: Vec::new(),
        d: game.robot_ids().map(|id| play::state(game, id)).collect(),
        m: game
            .robot_ids()
            .filter_map(|id| play::memory(game, id))
            .collect(),
        e: Vec::new(),
        l: String::new(),
        a: Vec::new(),
    };
    play::fill(game, events, &mut frame);
    frame
}
