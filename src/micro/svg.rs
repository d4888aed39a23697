//! SVG pictures of Micro Robots boards (docs/FORMATS.md, "Pictures"): the 6×6 cells in their
//! colours with their number and colour letter, as `robots micro board` writes them, the
//! four tiles set apart. Pure: the same board, the same bytes.

use super::board::{Board, COLOURS};
use crate::text::svg::{document, label, num, polygon};

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
                    " fill=\"{}\" stroke=\"{LINE}\" stroke-width=\"1.5\"",
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
    let side = MARGIN * 2.0 + CELL * 6.0;
    let mid = MARGIN + CELL * 3.0;
    let end = MARGIN + CELL * 6.0;
    body.push_str(&format!(
        "<path d=\"M{m},{m}H{e}V{e}H{m}ZM{c},{m}V{e}M{m},{c}H{e}\" fill=\"none\" stroke=\"{LINE}\" stroke-width=\"5\"/>\n",
        m = num(MARGIN),
        e = num(end),
        c = num(mid)
    ));
    document(side, side, Some(BACKGROUND), &body)
}
