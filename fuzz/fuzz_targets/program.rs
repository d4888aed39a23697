//! Any text through the program parser and the condition parser: a program (and its
//! warnings), a condition, or a diagnostic; never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use robots::battle::lang;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(program) = lang::parse_program("p.robot", &text, lang::DEFAULT_PROGRAM_STEPS) {
        let _ = lang::lint::lint_program(&program, &text);
    }
    let _ = lang::parse_condition("c", &text);
});
