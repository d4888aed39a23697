//! Any text through the program parser and the condition parser: a program, a condition,
//! or a diagnostic; never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use robots::battle::lang;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = lang::parse_program("p.robot", &text, lang::DEFAULT_PROGRAM_STEPS);
    let _ = lang::parse_condition("c", &text);
});
