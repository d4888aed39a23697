//! The screen under the TI-57 rule (RULES A.12) in `TestBackend`: each living robot's
//! memories and remembered returns under its program's title, as `show robot` says them, at
//! every size; nothing of the kind in a plain match.

use super::layout;
use super::tests::{SIZES, keys, screen, session, typed, word_counts};
use super::{Key, Ui};
use robots_games::battle::files::match_file;
use robots_games::battle::live::debug::Session;

const MATCH: &str = "tests/viewer/ti57.yaml";

/// tests/viewer/ti57.yaml: green.1 counts with DSZ, calls two nested subroutines (turn 8 ends
/// with returns 8 and 14 remembered), senses into x, then stops with R/S (turn 12).
fn ti57_session() -> Session {
    Session::new(Box::new(|| {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(root.join(MATCH)).expect("the match file");
        let read = |p: &std::path::Path| std::fs::read(root.join(p));
        match_file::parse_match(
            MATCH,
            &text,
            &read,
            robots_games::text::confine::Confine::Inside,
        )
    }))
    .expect("the TI-57 match loads")
}

/// `show robot`'s memory lines for `robot`, trimmed: `memories: …`, `R0-R7: …`, `returns …`.
fn shown_by_show_robot(s: &mut Session, robot: &str) -> Vec<String> {
    s.run_line(&format!("show robot {robot}"))
        .text
        .lines()
        .map(str::trim)
        .filter(|l| {
            l.starts_with("memories:") || l.starts_with("R0-R7:") || l.starts_with("returns")
        })
        .map(str::to_string)
        .collect()
}

/// The words of the memory lines of robot `id`'s block, all on `text` (the screen).
fn assert_memories_on_screen(s: &Session, ui: &Ui, width: u16, height: u16, text: &str) {
    let area = ratatui::layout::Rect::new(0, 0, width, height);
    let plan = layout::plan(area, s, ui).expect("big enough");
    // The memory lines follow the title: on screen even when the program is too long to be.
    let (lines, _, _) = &plan.grid.blocks[ui.shown_first(s)];
    let memory: Vec<String> = lines
        .iter()
        .map(ToString::to_string)
        .filter(|l| l.contains("R0-R7") || l.contains("returns:") || l.contains("x = "))
        .collect();
    assert!(memory.len() >= 2, "{width}x{height}: {lines:?}");
    for line in memory {
        assert!(
            text.contains(line.trim_end()),
            "{width}x{height}: `{line}` not on screen:\n{text}"
        );
    }
}

#[test]
fn every_program_shows_its_memories_and_returns_as_show_robot_does() {
    for (width, height) in SIZES.into_iter().chain([(60, 20)]) {
        let mut s = ti57_session();
        // green.1 first, whoever is next.
        let mut ui = Ui {
            focus: Some(0),
            ..Ui::default()
        };
        let (text, _) = screen(&s, &ui, width, height);
        assert!(text.contains("x = 0  t = 0"), "{width}x{height}:\n{text}");
        assert!(text.contains("returns: none"), "{width}x{height}:\n{text}");
        assert_memories_on_screen(&s, &ui, width, height, &text);

        // Turn 8: R0 counted down to 0, x = 3, two returns remembered (SBR 2, then SBR 3).
        keys(&mut s, &mut ui, &[Key::Char('s'); 8]);
        assert_eq!(
            shown_by_show_robot(&mut s, "green.1"),
            [
                "memories: x = 3, t = 0",
                "R0-R7: 0 0 0 0 0 0 0 0",
                "returns remembered: step 8, step 14"
            ]
        );
        let (text, _) = screen(&s, &ui, width, height);
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains("x = 3 t = 0"), "{width}x{height}:\n{text}");
        assert!(
            flat.contains("R0-R7: 0 0 0 0 0 0 0 0"),
            "{width}x{height}:\n{text}"
        );
        assert!(
            text.contains("returns: step 8, step 14"),
            "{width}x{height}:\n{text}"
        );
        assert_memories_on_screen(&s, &ui, width, height, &text);
        if (width, height) == (100, 30) {
            insta::with_settings!({
                snapshot_path => "../../../tests/snapshots",
                prepend_module_to_snapshot => false,
            }, {
                insta::assert_snapshot!("debugger__ti57_screen_100x30", text);
            });
        }

        // Turn 12: the returns used, x<>t swapped, R/S read.
        keys(&mut s, &mut ui, &[Key::Char('s'); 4]);
        assert_eq!(
            shown_by_show_robot(&mut s, "green.1"),
            [
                "memories: x = 0, t = 1",
                "R0-R7: 0 0 0 0 0 0 0 0",
                "returns remembered: none (stopped by R/S)"
            ]
        );
        let (text, _) = screen(&s, &ui, width, height);
        // Whole, or wrapped before `(R/S)` in a narrow column.
        assert!(
            text.contains("returns: none · stopped") && text.contains("(R/S)"),
            "{width}x{height}:\n{text}"
        );
        assert!(text.contains("x = 0  t = 1"), "{width}x{height}:\n{text}");
        assert_memories_on_screen(&s, &ui, width, height, &text);
    }
}

/// A long `x = TERM` step wraps under its text: every word of the program is on screen (at
/// 60 x 20 its 17 steps are too many to be whole).
#[test]
fn a_long_sensing_step_is_whole_at_every_size() {
    for (width, height) in SIZES {
        let s = ti57_session();
        let ui = Ui {
            focus: Some(0),
            ..Ui::default()
        };
        let (text, _) = screen(&s, &ui, width, height);
        let area = ratatui::layout::Rect::new(0, 0, width, height);
        let plan = layout::plan(area, &s, &ui).expect("big enough");
        assert!(plan.grid.first_whole, "{width}x{height}:\n{text}");
        let (lines, _, _) = &plan.grid.blocks[0];
        let block: String = lines.iter().map(|l| format!("{l}\n")).collect();
        for line in block.lines() {
            assert!(text.contains(line.trim_end()), "{width}x{height}:\n{text}");
        }
        let green = s.current().robot_ids().next().expect("green.1");
        let view = s.program_view(green);
        assert!(view.contains("x = count(enemy anywhere)"), "{view}");
        let have = word_counts(&block);
        for (word, n) in word_counts(&view) {
            assert!(
                have.get(&word).copied().unwrap_or(0) >= n,
                "{width}x{height}: `{word}` missing:\n{text}"
            );
        }
    }
}

/// Without the rule nothing changes: no memory line in any program, at any size.
#[test]
fn a_plain_match_shows_no_memories() {
    for (width, height) in SIZES {
        let mut s = session();
        let mut ui = Ui::default();
        typed(&mut s, &mut ui, "step 8");
        let (text, _) = screen(&s, &ui, width, height);
        for word in ["R0-R7", "returns:", "x = 0"] {
            assert!(!text.contains(word), "{width}x{height}: {word}\n{text}");
        }
    }
}
