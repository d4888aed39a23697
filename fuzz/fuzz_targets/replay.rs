//! Any bytes as a replay, as `robots replay` reads one: gzip told by its first bytes and
//! inflated through the library's bounded line reader (`text::lines`, with the replay's
//! budget), the header set up as a match, the lines checked turn by turn against the engine.
//! A match, or a located error; never a panic, and never more work than the lines given (at
//! most 2,000 of them here) ask for.
#![no_main]

use libfuzzer_sys::fuzz_target;
use robots_games::battle::files::replay::{
    Check, MAX_HEADER_BYTES, MAX_TURN_BYTES, REPLAY_BUDGET, parse_header, setup_of,
};
use robots_games::text::lines::{Lines, decompressing};

fuzz_target!(|data: &[u8]| {
    let Ok(reader) = decompressing(data) else {
        return;
    };
    let mut lines = Lines::new(reader, REPLAY_BUDGET, "a replay");
    let Ok(Some(first)) = lines.next(MAX_HEADER_BYTES) else {
        return;
    };
    let Ok(header) = parse_header(&first) else { return };
    let Ok(setup) = setup_of(&header) else { return };
    let Ok(mut check) = Check::new(&header, &setup) else { return };
    for _ in 0..2000 {
        let Ok(Some(line)) = lines.next(MAX_TURN_BYTES) else {
            break;
        };
        match check.line(&line) {
            Ok(Some(_)) => {}
            Ok(None) | Err(_) => break,
        }
    }
});
