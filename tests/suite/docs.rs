//! The docs tell the truth: every test definition and every program shown in
//! docs/LANGUAGE.md parses, and every example match and board in docs/FORMATS.md loads.

use crate::support::{micro_face, read, read_under_root, session_on};
use robots::battle::lang::parse_program;

fn blocks(doc: &str, fence: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in doc.lines() {
        match &mut current {
            None if line.trim() == format!("```{fence}") => current = Some(String::new()),
            Some(text) if line.trim() == "```" => {
                out.push(std::mem::take(text));
                current = None;
            }
            Some(text) => {
                text.push_str(line);
                text.push('\n');
            }
            None => {}
        }
    }
    out
}

#[test]
fn every_test_definition_in_the_language_guide_parses() {
    let mut checked = 0;
    for block in blocks(&read("docs/LANGUAGE.md"), "text") {
        for line in block.lines().filter(|l| l.starts_with("test ")) {
            let number = &line[5..6];
            let program = format!("1: ?{number}\n2: RAZ\n{line}\n");
            parse_program("docs/LANGUAGE.md", &program, 15)
                .unwrap_or_else(|d| panic!("{line}\n{d}"));
            checked += 1;
        }
    }
    assert!(checked >= 16, "only {checked} test lines found");
}

#[test]
fn the_language_guide_shows_real_programs_and_real_errors() {
    let blocks = blocks(&read("docs/LANGUAGE.md"), "text");
    let sentinel = blocks
        .iter()
        .find(|b| b.contains("name: sentinel"))
        .unwrap();
    assert_eq!(parse_program("s", sentinel, 15).unwrap().len(), 6);
    // The instruction examples parse once the test they use is defined.
    let examples = blocks.iter().find(|b| b.starts_with("1: D+2")).unwrap();
    parse_program("e", &format!("{examples}test 1: true\n"), 15).unwrap();
    // The error shown is the one the parser gives.
    let error = blocks.iter().find(|b| b.contains("error:")).unwrap();
    let d = parse_program(
        "hunter.robot",
        "1: T\n2: T\n3: T\n4: T\n5: T\n6: T\n7: X+1\n",
        15,
    )
    .unwrap_err();
    assert_eq!(d.to_string().trim(), error.trim());
}

#[test]
fn the_formats_guide_examples_load() {
    let blocks = blocks(&read("docs/FORMATS.md"), "yaml");
    let board = blocks.iter().find(|b| b.contains("map: |")).unwrap();
    robots::battle::board_file::parse_board("board.yaml", board).unwrap();
    let game = blocks.iter().find(|b| b.contains("teams:")).unwrap();
    // Relative paths in the example are relative to a match file in matches/.
    let setup =
        robots::battle::match_file::parse_match("matches/example.yaml", game, &read_under_root)
            .map_err(|d| d.to_string())
            .unwrap();
    assert_eq!(setup.signals.len(), 2);
}

#[test]
fn the_micro_robots_examples_load() {
    let mut loaded = 0;
    for block in blocks(&read("docs/FORMATS.md"), "yaml") {
        if block.contains("tiles:") || block.contains("rows:") || block.contains("layout:") {
            robots::micro::file::parse("FORMATS.md", &block, &micro_face)
                .unwrap_or_else(|d| panic!("{block}\n{d}"));
            loaded += 1;
        }
    }
    assert_eq!(loaded, 3);
}

#[test]
fn the_ricochet_examples_load() {
    let blocks = blocks(&read("docs/FORMATS.md"), "yaml");
    let position = blocks.iter().find(|b| b.contains("quadrants:")).unwrap();
    let p =
        robots::ricochet::position::parse("FORMATS.md", position, &|_| Err("no".into())).unwrap();
    assert_eq!(p.robots.len(), 4);
    let custom = blocks.iter().find(|b| b.contains("size: [10, 8]")).unwrap();
    let b = robots::ricochet::board::parse_custom("FORMATS.md", custom).unwrap();
    assert_eq!((b.width, b.height, b.bases.len()), (10, 8, 4));
}

/// The README's debugging session is what the debugger prints.
#[test]
fn the_readme_debug_session_is_real() {
    let readme = read("README.md");
    let block = blocks(&readme, "text")
        .into_iter()
        .find(|b| b.contains("robots debug tests/scenarios"))
        .unwrap();
    let shown: String = block.lines().skip(2).map(|l| format!("{l}\n")).collect();
    let mut session = session_on(
        crate::support::root().join("tests/scenarios/instr-GO-and-RAZ-read-at-once.yaml"),
    );
    let transcript =
        session.transcript(["break green.1 step 3", "continue", "step", "back", "quit"]);
    assert_eq!(transcript, shown);
}
