//! Parser tests: every `tests/programs/*.robot` is parsed with the default limit of 15 steps.
//! Valid programs snapshot their canonical listing and parsed tests; `err_*` files snapshot
//! the diagnostic (file:line:col, the line, a caret, what was expected in words).

use crate::support::{file_name, input, shown};
use robots::battle::lang::{DEFAULT_PROGRAM_STEPS, parse_program};

#[test]
fn programs() {
    insta::glob!("../programs", "*.robot", |path| {
        let name = file_name(path);
        let shown = shown("programs", path);
        let (input, text) = input(path, &shown);
        let result = text.and_then(|text| parse_program(&shown, &text, DEFAULT_PROGRAM_STEPS));
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
        snapshot!("programs", format!("{input}\n---- parsed ----\n{output}"));
    });
}
