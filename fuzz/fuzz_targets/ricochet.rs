//! Any text as a Ricochet position (then solved within 6 moves), as a custom board, and as a
//! game id (its position solved the same way).
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use robots_games::ricochet::position::Position;
use robots_games::ricochet::{files, files::game_id::GameId, rules::Rules, solve};

const MAX_MOVES: u32 = 6;

/// Solved within 6 moves and 10,000 states: five robots and the vortex in the general search
/// (`regressions/ricochet/game-id-five-robots-vortex`) once took 6 s a run in this build.
fn solve(p: &Position) {
    let budget = solve::Budget {
        max_states: 10_000,
    };
    let _ = solve::solve_within(p, MAX_MOVES, budget, &mut |_| {});
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = files::parse_custom("b.yaml", &text);
    if let Ok(position) = files::parse("p.yaml", &text, &common::read_ricochet_board) {
        solve(&position);
    }
    if let Ok(id) = text.parse::<GameId>() {
        let _ = id.to_string();
        if let Ok(position) = id.position(Rules::default()) {
            solve(&position);
        }
    }
});
