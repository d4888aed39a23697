//! No input makes a parser panic: random text and random soups of the languages' own tokens
//! (which get much deeper into the grammars than random bytes) either load or give a
//! diagnostic.

use proptest::prelude::*;
use robots_games::battle::{files::board_file, files::match_file, lang};
use robots_games::text::confine::Confine;

const PROGRAM_TOKENS: &[&str] = &[
    "1",
    "2",
    "15",
    "99",
    "0",
    ":",
    ".",
    ")",
    "D",
    "R",
    "+",
    "-",
    "T",
    "*",
    "?",
    "?1",
    "?4",
    "RAZ",
    "GO",
    "go to",
    "test",
    "name:",
    "\n",
    " ",
    "\t",
    "#",
    "//",
    "enemy",
    "friend",
    "red",
    "violet",
    "square",
    "camp",
    "computer",
    "lake",
    "edge",
    "ahead",
    "behind-left",
    "right",
    "within",
    "at",
    "direction",
    "count(",
    ")",
    "(",
    "and",
    "or",
    "not",
    "facing",
    "shots",
    ">=",
    "=",
    "in",
    "é",
    "\u{0}",
    "\r\n",
];

const YAML_TOKENS: &[&str] = &[
    "board: ",
    "classic",
    "../boards/arena.yaml",
    "teams:",
    "\n",
    "  ",
    "- ",
    "colour: ",
    "green",
    "violet",
    "robots: ",
    "[",
    "]",
    "{",
    "}",
    ",",
    "program: ",
    "hunter",
    "code: ",
    "\"1: T\"",
    "at: ",
    "[0, 1]",
    "[99, -1]",
    "facing: ",
    "7",
    "signals:",
    "round: ",
    "robot: ",
    "green.1",
    "step: ",
    "when: ",
    "\"enemy within 2\"",
    "scenario: ",
    "3",
    "rules:",
    "rounds: ",
    "0",
    "map: |",
    "map: ",
    ". . .",
    " . ~ .",
    "legend:",
    "C: {computer: green}",
    "|",
    "\u{ff}",
];

const OTHER_TOKENS: &[&str] = &[
    "board: ",
    "{quadrants: [1A, 2B, 3C, 4D]}",
    "{quadrants: [9Z]}",
    "robots: ",
    "{red: [0, 0], blue: [15, 15]}",
    "{transparent: [3, 3]}",
    "target: ",
    "{color: red, symbol: circle}",
    "{at: [99, 2], robot: any}",
    "rules: {must_ricochet: false}",
    "size: ",
    "[5, 5]",
    "[0, 70]",
    "walls: ",
    "[[1, 1, NESW]]",
    "centre: [1, 1, 9, 9]",
    "bases: {red: [0, 0]}",
    "diagonals: [[2, 2, '/', green]]",
    "face: ",
    "silver",
    "tiles:",
    "rows:",
    "layout:",
    "NW: [1, 0]",
    "[P1, P2, P3]",
    "[B1, X9]",
    "\n",
    "  ",
    "- ",
    "{",
    "}",
    "[",
    "]",
    ", ",
];

fn soup(tokens: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(tokens), 0..60).prop_map(|t| t.concat())
}

/// Match files name boards and programs relative to `tests/scenarios/`.
fn read(path: &std::path::Path) -> std::io::Result<Vec<u8>> {
    crate::support::read_under_root(&std::path::Path::new("tests/scenarios").join(path))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn programs_never_panic(text in prop_oneof![soup(PROGRAM_TOKENS), any::<String>()]) {
        let _ = lang::parse_program("p.robot", &text, 15);
        let _ = lang::parse_condition("c", &text);
    }

    #[test]
    fn boards_and_matches_never_panic(text in prop_oneof![soup(YAML_TOKENS), any::<String>()]) {
        let _ = board_file::parse_board("b.yaml", &text);
        let _ = match_file::parse_match("m.yaml", &text, &read, Confine::Inside);
    }

    /// A diagnostic always points inside the text it is about.
    #[test]
    fn diagnostics_point_inside_the_text(text in soup(PROGRAM_TOKENS)) {
        if let Err(d) = lang::parse_program("p.robot", &text, 15) {
            let lines = text.split('\n').count().max(1);
            prop_assert!(d.line >= 1 && d.line <= lines, "{d}");
            prop_assert!(d.col >= 1);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Ricochet positions and boards, and Micro Robots files: a result or a diagnostic.
    #[test]
    fn ricochet_and_micro_files_never_panic(text in prop_oneof![soup(OTHER_TOKENS), any::<String>()]) {
        let _ = robots_games::ricochet::files::parse_custom("b.yaml", &text);
        if let Ok(p) = robots_games::ricochet::files::parse("p.yaml", &text, &|_| Err("no files".into())) {
            let _ = robots_games::ricochet::solve::solve(&p, 3);
        }
        let _ = robots_games::micro::file::parse("m.yaml", &text, &|_| Err("no faces".into()));
    }
}
