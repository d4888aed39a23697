//! Any text as a replay: its header set up as a match, its lines checked turn by turn
//! against the engine. A match, or a located error; never a panic, and never more work than
//! the lines given (at most 2,000 of them here) ask for.
#![no_main]

use libfuzzer_sys::fuzz_target;
use robots::battle::replay::{Check, parse_header, setup_of};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut lines = text.lines();
    let Some(first) = lines.next() else { return };
    let Ok(header) = parse_header(first) else { return };
    let Ok(setup) = setup_of(&header) else { return };
    let Ok(mut check) = Check::new(&header, &setup) else { return };
    for line in lines.take(2000) {
        match check.line(line) {
            Ok(Some(_)) => {}
            Ok(None) | Err(_) => break,
        }
    }
});
