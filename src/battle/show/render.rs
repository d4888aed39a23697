//! Text drawings of boards and match states, for the CLI and for snapshots.
//!
//! Each hex is three characters wide; odd rows are shifted right by half a hex (two
//! characters). Every drawing ends with the direction numbering (R-A1) and a legend.

use crate::battle::board::{Board, CellId};
use crate::battle::engine::{Match, RobotId};
use crate::battle::hex::direction_legend;
use crate::battle::terrain::Terrain;
use std::fmt::Write;

/// What a hex shows, for views that colour it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Look {
    Terrain(crate::battle::board::Cell),
    Robot(crate::battle::terrain::TeamColour),
}

/// The three characters of a hex and what they show: the robot on it, else its terrain.
pub fn hex_mark(board: &Board, state: Option<&Match>, id: CellId) -> (String, Look) {
    if let Some(robot) = state.and_then(|m| m.robot_at(id).map(|r| m.robot(r))) {
        let text = format!(
            "{}{}{}",
            robot.name.team.letter(),
            robot.name.number,
            robot.facing.arrow()
        );
        return (text, Look::Robot(robot.name.team));
    }
    (terrain_mark(board, id), Look::Terrain(*board.cell(id)))
}

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

/// The column header of a board drawing.
pub fn column_header(board: &Board) -> String {
    let mut out = String::from("     ");
    for col in 0..board.width {
        let _ = write!(out, "{col:^4}");
    }
    out.trim_end().to_string()
}

/// The margin before a row's first hex: its number, and half a hex more on odd rows.
pub fn row_margin(row: usize) -> String {
    format!("{row:>3}  {}", if row % 2 == 1 { "  " } else { "" })
}

/// A board drawing, with the robots of `state` if given.
fn draw(board: &Board, state: Option<&Match>) -> String {
    let mut out = column_header(board);
    out.push('\n');
    for row in 0..board.height {
        let mut line = row_margin(row);
        for col in 0..board.width {
            let id = board.cell_at_position(col, row).expect("inside the board");
            line.push_str(&hex_mark(board, state, id).0);
            line.push(' ');
        }
        out.push_str(line.trim_end_matches(' '));
        out.push('\n');
    }
    out.push_str(&direction_legend());
    out.push('\n');
    out
}

pub const LEGEND: &str =
    "legend: . plain  ~ lake  ! lightning  [r] square  <r> triangle  (r) circle  \
g camp  G start point  + outer start  #G# computer
shapes: r red  b blue  g green  y yellow  o orange  k black; \
teams: g green  v violet  r red  b blue  y yellow  o orange";

/// A board on its own.
pub fn board(board: &Board) -> String {
    format!(
        "{} ({} x {} hexes)\n{}{LEGEND}\n",
        crate::text::escape(&board.name),
        board.width,
        board.height,
        draw(board, None)
    )
}

/// A match state: the board with every robot (team letter, number, facing arrow), then one
/// line per robot.
pub fn state(m: &Match) -> String {
    let mut out = draw(m.board(), Some(m));
    out.push_str(LEGEND);
    out.push_str("  g1→ robot green.1 facing 1\n");
    for id in m.robot_ids() {
        let _ = writeln!(out, "{}", robot_line(m, id, m.robot(id).alive));
    }
    out
}

/// One robot's public state in a line.
pub fn robot_line(m: &Match, id: RobotId, alive: bool) -> String {
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
    // Under the TI-57 rule, its memories and remembered returns too (RULES A.12).
    let memories = m
        .memories(id)
        .map_or(String::new(), |c| format!("; {}", c.summary()));
    format!(
        "{}: at [{col}, {row}] facing {} {}, pointer {pointer}, {} shots{lost}{memories}",
        r.name,
        r.facing.number(),
        r.facing.arrow(),
        r.shots
    )
}
