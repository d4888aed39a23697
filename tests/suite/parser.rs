//! Parser tests: every `tests/programs/*.robot` is parsed with the default limit of 15 steps,
//! every `tests/programs/ti57/*.robot` with the TI-57 keywords and 50 (RULES A.12).
//! Valid programs snapshot their canonical listing and parsed tests; `err_*` files snapshot
//! the diagnostic (file:line:col, the line, a caret, what was expected in words).

use crate::support::{file_name, input, shown};
use robots_games::battle::lang::{
    DEFAULT_PROGRAM_STEPS, Keywords, parse_program, parse_program_in,
};

#[test]
fn programs() {
    insta::glob!("../programs", "*.robot", |path| {
        let name = file_name(path);
        let shown = shown("programs", path);
        let (input, text) = input(path, &shown);
        let result = text.and_then(|text| parse_program(&shown, &text, DEFAULT_PROGRAM_STEPS));
        snapshot!("programs", parsed(&name, &input, result));
    });
}

/// `tests/programs/ti57/*.robot`: the TI-57 keywords (RULES A.12, R-A24–R-A29), parsed with
/// the rule and its default of 50 steps.
#[test]
fn ti57_programs() {
    insta::glob!("../programs/ti57", "*.robot", |path| {
        let name = file_name(path);
        let shown = shown("programs/ti57", path);
        let (input, text) = input(path, &shown);
        let ti57 = Keywords::Ti57;
        let result =
            text.and_then(|text| parse_program_in(&shown, &text, ti57.default_steps(), ti57));
        snapshot!("ti57_programs", parsed(&name, &input, result));
    });
}

/// The snapshot of one program file: its input, then its listing and tests, or the error.
fn parsed(
    name: &str,
    input: &str,
    result: Result<robots_games::battle::lang::Program, robots_games::text::diagnostic::Diagnostic>,
) -> String {
    assert_eq!(
        result.is_err(),
        name.starts_with("err_"),
        "{name}: err_* files, and only they, must be rejected"
    );
    let output = match result {
        Ok(program) => {
            let mut out = program.listing();
            for test in program.tests.iter().flatten() {
                out.push_str(&format!(
                    "\ntest {} parses as:\n{:#?}\n",
                    test.number, test.condition
                ));
            }
            out
        }
        Err(d) => d.to_string(),
    };
    format!("{input}\n---- parsed ----\n{output}")
}
