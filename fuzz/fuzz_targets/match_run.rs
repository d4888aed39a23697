//! Any text as a match file (naming only the files `common` serves), with its warnings,
//! then, if it loads, the match set up and played to its end with the round limit clamped
//! to 20.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use robots_games::battle::{engine::Match, files::match_file};
use robots_games::text::confine::Confine;

const MAX_ROUNDS: u32 = 20;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok((mut setup, _warnings)) = match_file::check_match(
        "tests/scenarios/m.yaml",
        &text,
        &common::read_match_file,
        Confine::Anywhere,
    ) else {
        return;
    };
    setup.rules.rounds = setup.rules.rounds.min(MAX_ROUNDS);
    let Ok(mut game) = Match::new(&setup) else {
        return;
    };
    let mut events = 0u64;
    let _ = game.run(|_| events += 1);
});
