//! The editor's answers on small programs and on every shipped one.

use super::*;
use crate::battle::files::shipped::PROGRAMS;

const HUNTER: &str =
    "name: hunter\n1: ?1\n2: GO 4\n3: R+1\n4: T\n5: RAZ\ntest 1: enemy ahead within 2\n";

fn at(line: u32, character: u32) -> Position {
    Position { line, character }
}

#[test]
fn positions_count_utf16_units_and_the_byte_order_mark() {
    let text = "a🤖b\nc";
    assert_eq!(offset(text, at(0, 3)), 5);
    assert_eq!(
        offset(text, at(0, 2)),
        5,
        "inside a pair: the next character"
    );
    assert_eq!(offset(text, at(0, 99)), 6, "past the line: its end");
    assert_eq!(offset(text, at(9, 0)), text.len());
    assert_eq!(end(text), at(1, 1));
    let notes = diagnostics("\u{feff}1: X", Keywords::Plain);
    assert_eq!(notes[0].range.start, at(0, 4));
    let notes = diagnostics("test 1: 🤖 enemy\n1: ?1 # 🤖\n2: Xy", Keywords::Plain);
    assert_eq!(notes.len(), 1, "{notes:?}");
}

#[test]
fn diagnostics_are_the_checks_words() {
    let notes = diagnostics("1: T # é\n2: X+1\n", Keywords::Plain);
    let d =
        match_file::parse_program_file_in(FILE, "1: T # é\n2: X+1\n", Keywords::Plain).unwrap_err();
    assert_eq!(notes[0].message, d.message);
    assert_eq!(
        notes[0].range,
        Range {
            start: at(1, 3),
            end: at(1, 6)
        }
    );
    let ti57 = "1: LBL 1\n2: R+1\n3: GTO 1\n";
    assert_eq!(diagnostics(ti57, Keywords::Plain).len(), 1);
    assert_eq!(diagnostics(ti57, Keywords::Ti57), Vec::new());
    let warned = diagnostics("1: T\n", Keywords::Plain);
    assert_eq!(warned[0].id, Some("W-past-the-end"));
    let big = " ".repeat(MAX_INPUT_BYTES + 1);
    assert_eq!(diagnostics(&big, Keywords::Plain), vec![too_large_note()]);
}

#[test]
fn hover_definition_and_symbols_follow_the_jumps() {
    let (_, text) = hover(HUNTER, at(2, 3)).unwrap();
    assert!(text.contains("step 4 (`T`)"), "{text}");
    let (_, text) = hover(HUNTER, at(1, 3)).unwrap();
    assert!(
        text.contains("`enemy ahead within 2`") && text.contains("(R-A16)"),
        "{text}"
    );
    let (_, text) = hover(HUNTER, at(6, 3)).unwrap();
    assert!(text.contains("asked by step 1"), "{text}");
    assert_eq!(definition(HUNTER, at(1, 4)).unwrap().start, at(6, 0));
    assert_eq!(definition(HUNTER, at(2, 4)).unwrap().start, at(4, 0));
    assert_eq!(definition(HUNTER, at(3, 4)), None);
    let names: Vec<String> = symbols(HUNTER).into_iter().map(|s| s.name).collect();
    assert_eq!(names[..3], ["name: hunter", "1: ?1", "2: GO 4"]);
    let calc = "1: SBR 2\n2: R+1\n3: LBL 2\n4: T\n5: INV SBR\n";
    assert_eq!(definition(calc, at(0, 4)).unwrap().start, at(2, 0));
    assert!(hover(calc, at(0, 4)).unwrap().1.contains("R-A25"));
}

#[test]
fn completion_knows_where_it_is() {
    let labels = |text: &str, p: Position, k: Keywords| -> Vec<String> {
        completions(text, k, p)
            .into_iter()
            .map(|c| c.label)
            .collect()
    };
    let steps = labels("1: T\n2: ", at(1, 3), Keywords::Plain);
    assert!(steps.contains(&"GO 2".to_string()) && steps.contains(&"D-1".to_string()));
    assert!(labels("2: ", at(0, 3), Keywords::Ti57).contains(&"INV SBR".to_string()));
    let words = labels("test 1: enemy ", at(0, 14), Keywords::Plain);
    for w in ["ahead", "within", "behind-left", "red", "lake", "not"] {
        assert!(words.contains(&w.to_string()), "{w} in {words:?}");
    }
    assert!(labels("", at(0, 0), Keywords::Plain).contains(&"test 1: ".to_string()));
    assert_eq!(
        labels("1: T # ", at(0, 7), Keywords::Plain),
        Vec::<String>::new()
    );
}

#[test]
fn formatting_is_canonical_stable_and_keeps_meaning() {
    let messy = "name:  x\n1:?1 # look\n2 . go to 4\n\n\n\n3) r + 1\n4 T\n5: raz\ntest 1 : ENEMY ahead within 2\n\n";
    let once = format(messy).unwrap();
    assert_eq!(
        once,
        "name: x\n1: ?1         # look\n2: GO 4\n\n3: R+1\n4: T\n5: RAZ\ntest 1: enemy ahead within 2\n"
    );
    assert_eq!(format(&once).as_deref(), Some(once.as_str()));
    assert_eq!(format("1: X"), None);
    for (name, text) in PROGRAMS {
        let once = format(text).unwrap_or_else(|| panic!("{name}"));
        assert_eq!(format(&once).as_deref(), Some(once.as_str()), "{name}");
    }
}
