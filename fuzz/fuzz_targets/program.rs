//! Any text through the program parser and the condition parser, in the plain language and
//! with the TI-57 keywords (RULES A.12): a program (and its warnings), a condition, or a
//! diagnostic; never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use robots_games::battle::lang;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(program) = lang::parse_program("p.robot", &text, lang::DEFAULT_PROGRAM_STEPS) {
        let _ = lang::lint::lint_program(&program, &text);
    }
    let _ = lang::parse_condition("c", &text);
    let ti57 = lang::Keywords::Ti57;
    if let Ok(program) = lang::parse_program_in("p.robot", &text, ti57.default_steps(), ti57) {
        let _ = lang::lint::lint_program(&program, &text);
    }
    let _ = lang::parse_condition_in("c", &text, ti57);
});
