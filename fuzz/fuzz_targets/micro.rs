//! Any text as a Micro Robots face or board file (a board names the shipped faces); a board
//! that loads is solved between two cells the input picks.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use robots_games::micro::{Cell, MicroFile, file, solve};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(MicroFile::Board(board)) = file::parse("m.yaml", &text, &common::micro_face) else {
        return;
    };
    let cells: Vec<Cell> = Cell::all().collect();
    let pick = |k: usize| cells[data.len().wrapping_mul(k) % cells.len()];
    let _ = solve::solve(&board, pick(1), pick(7), None);
    let _ = solve::solve(&board, pick(3), pick(11), Some(pick(5)));
});
