//! Any text as a Ricochet position (then solved within 6 moves) and as a custom board.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use robots::ricochet::{files, solve};

const MAX_MOVES: u32 = 6;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = files::parse_custom("b.yaml", &text);
    if let Ok(position) = files::parse("p.yaml", &text, &common::read_ricochet_board) {
        let _ = solve::solve(&position, MAX_MOVES);
    }
});
