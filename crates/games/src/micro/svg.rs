//! SVG pictures of Micro Robots boards (docs/FORMATS.md, "Pictures"): the 6×6 cells in their
//! colours with their number and colour letter, as `robots micro board` writes them, the
//! four tiles set apart. Pure: the same board, the same bytes.

use super::board::{Board, COLOURS, Cell};
use crate::text::svg::{circle, document, label, num, polygon};

/// The fill of each colour of [`COLOURS`] (blue, yellow, green, red, pink, white).
pub const FILLS: [&str; 6] = [BLUE, YELLOW, GREEN, RED, "#f28ab2", WHITE];
/// The ink on each colour: white on the dark ones, dark on the light ones.
const INKS: [&str; 6] = [WHITE, INK, WHITE, WHITE, INK, INK];
pub use crate::text::palette::PAPER as BACKGROUND;
use crate::text::palette::{BLUE, GREEN, INK, INK as LINE, RED, WHITE, YELLOW};
/// The side of a cell, and the margin around the board.
const CELL: f64 = 56.0;
const MARGIN: f64 = 16.0;

/// A board: every cell in its colour, its number large and its colour letter small; thick
/// lines between the four tiles.
pub fn board(board: &Board) -> String {
    let side = MARGIN * 2.0 + CELL * 6.0;
    document(side, side, Some(BACKGROUND), &cells(board, false))
}

/// What a mission picture marks: the robot's start, the waypoint, the target, and the path
/// of a demonstration (the cells stopped on, from its start).
#[derive(Clone, Debug, Default)]
pub struct Marks<'a> {
    pub start: Option<Cell>,
    pub via: Option<Cell>,
    pub target: Option<Cell>,
    pub path: &'a [Cell],
}

/// A mission: the board with each cell classed by its name (`cell cell-B3`, for a page to
/// find the cell clicked), the path as a line, a ring on the target, a square on the
/// waypoint, and the robot on its start.
pub fn mission(board: &Board, marks: &Marks) -> String {
    let mut body = cells(board, true);
    let centre = |c: Cell| {
        let p = board.position(c);
        let (row, col) = (p / 6, p % 6);
        let (row, col) = (
            f64::from(u8::try_from(row).unwrap_or(0)),
            f64::from(u8::try_from(col).unwrap_or(0)),
        );
        (MARGIN + CELL * (col + 0.5), MARGIN + CELL * (row + 0.5))
    };
    if marks.path.len() > 1 {
        let points: Vec<String> = marks
            .path
            .iter()
            .map(|&c| {
                let (x, y) = centre(c);
                format!("{},{}", num(x), num(y))
            })
            .collect();
        body.push_str(&format!(
            "<polyline class=\"path\" points=\"{}\" fill=\"none\" stroke=\"{LINE}\" stroke-width=\"4\" stroke-dasharray=\"8 4\"/>\n",
            points.join(" ")
        ));
    }
    if let Some(t) = marks.target {
        let (x, y) = centre(t);
        body.push_str(&circle(
            x,
            y,
            CELL * 0.36,
            &format!(" class=\"target\" fill=\"none\" stroke=\"{LINE}\" stroke-width=\"5\""),
        ));
    }
    if let Some(v) = marks.via {
        let (x, y) = centre(v);
        let r = CELL * 0.34;
        body.push_str(&polygon(
            &[(x - r, y - r), (x + r, y - r), (x + r, y + r), (x - r, y + r)],
            &format!(" class=\"via\" fill=\"none\" stroke=\"{LINE}\" stroke-width=\"4\" stroke-dasharray=\"6 3\""),
        ));
    }
    if let Some(s) = marks.start {
        // In the cell's lower right corner: its number stays readable.
        let (x, y) = centre(s);
        body.push_str(&circle(
            x + CELL * 0.27,
            y + CELL * 0.27,
            CELL * 0.15,
            &format!(" class=\"robot\" fill=\"{INK}\" stroke=\"{WHITE}\" stroke-width=\"3\""),
        ));
    }
    let side = MARGIN * 2.0 + CELL * 6.0;
    document(side, side, Some(BACKGROUND), &body)
}

/// The cells and the tiles' lines; with `named`, each cell's polygon is classed by its name.
fn cells(board: &Board, named: bool) -> String {
    let mut body = String::new();
    for (r, row) in (0u8..).zip(board.rows()) {
        for (c, cell) in (0u8..).zip(row) {
            let (left, top) = (MARGIN + CELL * f64::from(c), MARGIN + CELL * f64::from(r));
            let colour = cell.colour();
            body.push_str(&polygon(
                &[
                    (left, top),
                    (left + CELL, top),
                    (left + CELL, top + CELL),
                    (left, top + CELL),
                ],
                &format!(
                    "{} fill=\"{}\" stroke=\"{LINE}\" stroke-width=\"1.5\"",
                    if named {
                        format!(" class=\"cell cell-{cell}\"")
                    } else {
                        String::new()
                    },
                    FILLS[colour]
                ),
            ));
            let (x, y) = (left + CELL / 2.0, top + CELL / 2.0);
            body.push_str(&label(
                &cell.number().to_string(),
                x,
                y + 3.0,
                CELL * 0.42,
                INKS[colour],
            ));
            body.push_str(&label(
                &COLOURS[colour].0.to_string(),
                left + CELL * 0.2,
                top + CELL * 0.2,
                CELL * 0.18,
                INKS[colour],
            ));
        }
    }
    let mid = MARGIN + CELL * 3.0;
    let end = MARGIN + CELL * 6.0;
    body.push_str(&format!(
        "<path d=\"M{m},{m}H{e}V{e}H{m}ZM{c},{m}V{e}M{m},{c}H{e}\" fill=\"none\" stroke=\"{LINE}\" stroke-width=\"5\"/>\n",
        m = num(MARGIN),
        e = num(end),
        c = num(mid)
    ));
    body
}
