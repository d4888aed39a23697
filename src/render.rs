//! Text drawings of boards and match states, for the CLI and for snapshots.
//!
//! Each hex is three characters wide; odd rows are shifted right by half a hex (two
//! characters). Every drawing ends with the direction numbering (R-A1) and a legend.

use crate::board::{Board, CellId};
use crate::engine::Match;
use crate::hex::direction_legend;
use crate::terrain::Terrain;
use std::fmt::Write;

/// The three characters of a hex without robots.
fn terrain_mark(board: &Board, id: CellId) -> String {
    let cell = board.cell(id);
    match cell.terrain {
        Terrain::Lake => " ~ ".into(),
        Terrain::Lightning => " ! ".into(),
        Terrain::Shape(form, colour) => {
            let (open, close) = form.brackets();
            format!("{open}{}{close}", colour.letter())
        }
        Terrain::Computer(c) => format!("#{}#", c.letter().to_ascii_uppercase()),
        Terrain::Plain => match (cell.camp, cell.start) {
            (Some(c), true) => format!(" {} ", c.letter().to_ascii_uppercase()),
            (Some(c), false) => format!(" {} ", c.letter()),
            (None, true) => " + ".into(),
            (None, false) => " . ".into(),
        },
    }
}

/// A board drawing; `robot_mark` may put a robot on a hex.
fn draw(board: &Board, robot_mark: impl Fn(CellId) -> Option<String>) -> String {
    let mut out = String::new();
    out.push_str("     ");
    for col in 0..board.width {
        let _ = write!(out, "{col:^4}");
    }
    let trimmed = out.trim_end().len();
    out.truncate(trimmed);
    out.push('\n');
    for row in 0..board.height {
        let _ = write!(out, "{row:>3}  ");
        if row % 2 == 1 {
            out.push_str("  ");
        }
        for col in 0..board.width {
            let id = board
                .cell_at_offset(col as i32, row as i32)
                .expect("inside the board");
            let mark = robot_mark(id).unwrap_or_else(|| terrain_mark(board, id));
            out.push_str(&mark);
            out.push(' ');
        }
        let trimmed = out.trim_end_matches(' ').len();
        out.truncate(trimmed);
        out.push('\n');
    }
    out.push_str(&direction_legend());
    out.push('\n');
    out
}

const LEGEND: &str = "legend: . plain  ~ lake  ! lightning  [r] square  <r> triangle  (r) circle  \
g camp  G start point  + outer start  #G# computer";

/// A board on its own.
pub fn board(board: &Board) -> String {
    format!(
        "{} ({} x {} hexes)\n{}{LEGEND}\n",
        board.name,
        board.width,
        board.height,
        draw(board, |_| None)
    )
}

/// A match state: the board with every robot (team letter, number, facing arrow), then one
/// line per robot.
pub fn state(m: &Match) -> String {
    let drawing = draw(m.board(), |cell| {
        m.robot_at(cell).map(|id| {
            let r = m.robot(id);
            format!(
                "{}{}{}",
                r.name.team.letter(),
                r.name.number,
                r.facing.arrow()
            )
        })
    });
    let mut out = drawing;
    out.push_str(LEGEND);
    out.push_str("  g1→ robot green.1 facing 1\n");
    for (id, r) in m.robots().iter().enumerate() {
        let _ = writeln!(out, "{}", robot_line(m, id as u8, r.alive));
    }
    out
}

/// One robot's public state in a line.
pub fn robot_line(m: &Match, id: u8, alive: bool) -> String {
    let r = m.robot(id);
    if !alive {
        return format!("{}: destroyed", r.name);
    }
    let (col, row) = m.board().offset(r.cell);
    let lost = r.destroyed_steps();
    let lost = if lost.is_empty() {
        String::new()
    } else {
        format!(
            ", lost steps {}",
            lost.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")
        )
    };
    let pointer = if r.pointer == 0 {
        "start".to_string()
    } else {
        format!("step {}", r.pointer)
    };
    format!(
        "{}: at [{col}, {row}] facing {} {}, pointer {pointer}, {} shots{lost}",
        r.name,
        r.facing.number(),
        r.facing.arrow(),
        r.shots
    )
}
