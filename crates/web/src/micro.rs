//! Micro Robots in the page (web/play/ENGINE.md, "Micro Robots"): the shipped faces and their
//! arrangements, a mission's dice, the solver, a walk checked as a demonstration is, hints,
//! and `micro analyse` — each the games crate's own, as `robots micro …` calls it.

use crate::answer::{ErrorKind, Failure, json};
use robots_games::micro::analyse::{analyse as analyse_face, arrangements};
use robots_games::micro::game::{Variant, check as check_walk, draw_arrangement, roll_from};
use robots_games::micro::report::{AnalysisJson, SolutionJson};
use robots_games::micro::solve::{Moves, solve as solve_board};
use robots_games::micro::{Arrangement, Board, Cell, Face, MicroFile, file, shipped};
use robots_games::text::{MAX_INPUT_BYTES, escape};
use serde::{Deserialize, Serialize};

fn bad_request(message: impl Into<String>) -> Failure {
    Failure::new(ErrorKind::Request, message)
}

/// A shipped face by name, read as `micro` reads it.
pub fn face(name: &str) -> Result<Face, Failure> {
    let text = shipped::micro_face(name).ok_or_else(|| {
        bad_request(format!(
            "face `{}`: no such face (shipped: {})",
            escape(name),
            shipped::names()
        ))
    })?;
    Ok(file::parse_face(
        &format!("boards/micro/{name}.yaml"),
        text,
    )?)
}

/// Which board: a shipped face (default `public-silver`) in an arrangement (tiles 1–4 at NW,
/// NE, SE, SW and their quarter turns, or the one a game of `seed` draws, or the plain one),
/// or a board file's text (its `face:` a shipped face).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct BoardSpec {
    face: Option<String>,
    tiles: Option<[u8; 4]>,
    turns: Option<[u8; 4]>,
    seed: Option<u64>,
    board: Option<String>,
}

impl BoardSpec {
    fn board(&self) -> Result<(Board, Option<Arrangement>), Failure> {
        if let Some(text) = &self.board {
            if text.len() > MAX_INPUT_BYTES {
                return Err(robots_games::text::diagnostic::too_large("board.yaml").into());
            }
            let read = |name: &str| face(name).map_err(|f| f.message);
            return Ok(match file::parse("board.yaml", text, &read)? {
                MicroFile::Board(b) => (b, None),
                MicroFile::Face(f) => (Board::arrange(&f, Arrangement::PLAIN), None),
            });
        }
        let f = face(self.face.as_deref().unwrap_or(shipped::DEFAULT_FACE))?;
        let a = match (self.tiles, self.turns, self.seed) {
            (Some(tiles), turns, None) => {
                // The page numbers tiles 1–4 as the files and `micro analyse` do.
                let layout = std::array::from_fn(|p| Some((tiles[p], turns.unwrap_or([0; 4])[p])));
                Arrangement::from_layout(layout)
                    .map_err(|e| bad_request(format!("arrangement: {e}")))?
            }
            (None, None, Some(seed)) => draw_arrangement(seed),
            (None, None, None) => Arrangement::PLAIN,
            _ => return Err(bad_request("give tiles (and turns), or seed, not both")),
        };
        Ok((Board::arrange(&f, a), Some(a)))
    }
}

pub fn cell(text: &str, what: &str) -> Result<Cell, Failure> {
    Cell::parse(text).ok_or_else(|| {
        bad_request(format!(
            "{what} `{}`: a colour letter (B Y G R P W) and a number 1-6, such as P1",
            escape(text)
        ))
    })
}

pub fn variant(name: Option<&str>) -> Result<Variant, Failure> {
    match name.unwrap_or("standard") {
        "standard" => Ok(Variant::Standard),
        "waypoint" => Ok(Variant::Waypoint),
        "no-token" => Ok(Variant::NoToken),
        other => Err(bad_request(format!(
            "variant `{}`: standard, waypoint or no-token",
            escape(other)
        ))),
    }
}

/// The shipped faces' names, the default first, and how many arrangements a face has.
pub fn faces() -> Result<String, Failure> {
    #[derive(Serialize)]
    struct Faces {
        faces: Vec<&'static str>,
        default: &'static str,
        arrangements: usize,
    }
    json(&Faces {
        faces: shipped::MICRO_FACES.iter().map(|(n, _)| *n).collect(),
        default: shipped::DEFAULT_FACE,
        arrangements: arrangements().len(),
    })
}

/// The board to draw: its name, its arrangement in words and as numbers, its rows of cells.
pub fn board(request: &str) -> Result<String, Failure> {
    let spec: BoardSpec = serde_json::from_str(request)?;
    let (b, a) = spec.board()?;
    #[derive(Serialize)]
    struct Drawn {
        name: String,
        arrangement: Option<String>,
        tiles: Option<[u8; 4]>,
        turns: Option<[u8; 4]>,
        rows: Vec<Vec<String>>,
        /// Each colour's fill on the pictures (`micro board --svg`), in the dice's order
        /// B Y G R P W.
        fills: [&'static str; 6],
    }
    json(&Drawn {
        fills: robots_games::micro::svg::FILLS,
        name: b.name().to_string(),
        arrangement: a.map(|a| a.to_string()),
        tiles: a.map(|a| a.tiles().map(|t| t + 1)),
        turns: a.map(|a| a.turns()),
        rows: b
            .rows()
            .iter()
            .map(|r| r.iter().map(ToString::to_string).collect())
            .collect(),
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Mission {
    /// The board (`microBoard`'s request).
    on: BoardSpec,
    /// The dice's seed (`microRoll`).
    roll: Option<u64>,
    variant: Option<String>,
    from: Option<String>,
    to: Option<String>,
    via: Option<String>,
    stops: Option<Vec<String>>,
    level: Option<u8>,
}

impl Mission {
    fn cells(&self) -> Result<(Cell, Cell, Option<Cell>), Failure> {
        let need = |c: &Option<String>, what: &str| {
            c.as_deref()
                .ok_or_else(|| bad_request(format!("{what}: a cell, such as P1")))
                .and_then(|t| cell(t, what))
        };
        let via = self.via.as_deref().map(|v| cell(v, "via")).transpose()?;
        Ok((need(&self.from, "from")?, need(&self.to, "to")?, via))
    }
}

/// A mission's dice from a seed: the start (or `from`, the last target), the waypoint under
/// the waypoint variant, the target; and the fewest moves.
pub fn roll(request: &str) -> Result<String, Failure> {
    let m: Mission = serde_json::from_str(request)?;
    let (b, _) = m.on.board()?;
    let seed = m.roll.ok_or_else(|| bad_request("roll: the dice's seed"))?;
    let from = m.from.as_deref().map(|c| cell(c, "from")).transpose()?;
    let (start, via, target) = roll_from(seed, variant(m.variant.as_deref())?, from);
    #[derive(Serialize)]
    struct Rolled {
        from: String,
        via: Option<String>,
        to: String,
        moves: Option<usize>,
    }
    json(&Rolled {
        from: start.to_string(),
        via: via.map(|v| v.to_string()),
        to: target.to_string(),
        moves: solve_board(&b, start, target, via).map(|s| s.moves),
    })
}

/// `micro solve --json`: the fewest moves and the cells stopped on.
pub fn solve(request: &str) -> Result<String, Failure> {
    let m: Mission = serde_json::from_str(request)?;
    let (b, _) = m.on.board()?;
    let (from, to, via) = m.cells()?;
    let s = solve_board(&b, from, to, via).ok_or_else(|| {
        let through = via.map(|v| format!(" through {v}")).unwrap_or_default();
        Failure::new(
            ErrorKind::Unsolved,
            format!("no way from {from} to {to}{through} on this board"),
        )
    })?;
    json(&SolutionJson::from(&s))
}

/// A walk from `from` (the cells stopped on after it): whether each move is legal (the first
/// that is not, in the game's words), and whether it wins the mission as a demonstration of
/// its own length does.
pub fn check(request: &str) -> Result<String, Failure> {
    let m: Mission = serde_json::from_str(request)?;
    let (b, _) = m.on.board()?;
    let (from, to, via) = m.cells()?;
    let stops = m
        .stops
        .as_deref()
        .unwrap_or_default()
        .iter()
        .take(1_000)
        .map(|s| cell(s, "stop"))
        .collect::<Result<Vec<_>, _>>()?;
    let moves = Moves::new(&b);
    #[derive(Serialize)]
    struct Checked {
        legal: bool,
        illegal: Option<String>,
        won: bool,
        reason: Option<String>,
    }
    let legal = moves.check(&b, from, &stops);
    let shown = u32::try_from(stops.len()).unwrap_or(u32::MAX);
    let won = check_walk(&moves, &b, from, via, to, shown, &stops);
    json(&Checked {
        legal: legal.is_ok(),
        illegal: legal.err().map(|e| e.to_string()),
        won: won.is_ok(),
        reason: won.err().map(|e| e.to_string()),
    })
}

/// A hint: level 1 the fewest moves, 2 the first stop of a shortest way, 3 the whole way.
pub fn hint(request: &str) -> Result<String, Failure> {
    let m: Mission = serde_json::from_str(request)?;
    let (b, _) = m.on.board()?;
    let (from, to, via) = m.cells()?;
    let level = m.level.unwrap_or(1).clamp(1, 3);
    let Some(s) = solve_board(&b, from, to, via) else {
        return json(&serde_json::json!({"level": level, "line": "no way to the target"}));
    };
    let line = match level {
        1 => format!("fewest moves: {}", s.moves),
        2 => format!(
            "first stop of a shortest way: {}",
            s.path.get(1).map(ToString::to_string).unwrap_or_default()
        ),
        _ => {
            let path: Vec<String> = s.path.iter().map(ToString::to_string).collect();
            format!("a shortest way: {}", path.join(" → "))
        }
    };
    json(&serde_json::json!({"level": level, "line": line, "moves": s.moves}))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Analyse {
    face: String,
}

/// `micro analyse --json` on a shipped face: every pair of every arrangement.
pub fn analyse(request: &str) -> Result<String, Failure> {
    let r: Analyse = serde_json::from_str(request)?;
    let f = face(&r.face)?;
    let a = analyse_face(&f, &mut |_, _| {});
    json(&AnalysisJson::from(&a))
}
