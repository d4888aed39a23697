//! The screen on a small terminal, 80×24 first, in `TestBackend`: the footer's `v` and the
//! board whole after it, panes that keep their places from step to step, one status line, a
//! key line that ends whole at any width, `C` as its help and the docs say.

use super::panes::{key_line, status_line};
use super::tests::{SIZES, find, keys, screen, session, typed};
use super::{KEY_HELP, Key, Tone, Ui, layout};
use robots_games::battle::live::debug::Session;

/// Every row of the board as drawn now is whole on screen.
fn assert_board_whole(s: &Session, text: &str, size: &str) {
    for line in super::lines::board_lines(s) {
        let line = line.to_string();
        assert!(
            text.contains(line.trim_end()),
            "{size}: `{}` is not whole:\n{text}",
            line.trim_end()
        );
    }
}

#[test]
fn at_80x24_the_footer_says_v_and_v_shows_the_whole_board_with_the_steps_beside() {
    let mut s = session();
    let mut ui = Ui::default();
    let (text, _) = screen(&s, &ui, 80, 24);
    assert!(
        !text.contains("directions:"),
        "no room for the board:\n{text}"
    );
    assert!(
        text.trim_end().ends_with("  v board  ? help  q quit"),
        "{text}"
    );
    keys(&mut s, &mut ui, &[Key::Char('v')]);
    let (text, buffer) = screen(&s, &ui, 80, 24);
    assert_board_whole(&s, &text, "80x24");
    // violet.3 at [11, 1], in the columns that were cut off, and column 12's number.
    let (x, y) = find(&buffer, "v3↙").expect(&text);
    let (header_x, header_y) = find(&buffer, " 11  12").expect(&text);
    assert_eq!(y, header_y + 2, "row 1:\n{text}");
    assert!((header_x..header_x + 4).contains(&x), "column 11:\n{text}");
    // Beside it, the steps of the robot next with its pointer; the footer says how to go back.
    for needed in ["green.1 hunter", "●    start", "▶   1  ?1"] {
        assert!(text.contains(needed), "no `{needed}`:\n{text}");
    }
    assert!(
        text.trim_end().ends_with("  v programs  ? help  q quit"),
        "{text}"
    );
    // A step: the answer under the board opens at its end.
    for line in [
        "step 8",
        "watch green.1 enemy within 4",
        "break violet.2 step 11",
    ] {
        typed(&mut s, &mut ui, line);
    }
    keys(&mut s, &mut ui, &[Key::Char('s')]);
    let (text, _) = screen(&s, &ui, 80, 24);
    assert_board_whole(&s, &text, "80x24");
    assert!(
        text.contains("green.3 step"),
        "the answer's events:\n{text}"
    );
    insta::with_settings!({
        snapshot_path => "../../../tests/snapshots",
        prepend_module_to_snapshot => false,
    }, {
        insta::assert_snapshot!("debugger__screen_80x24_board", text);
    });
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/DEBUGGER.md")).unwrap();
    assert!(
        doc.contains(&format!("```text\n{text}```")),
        "docs/DEBUGGER.md shows the board at 80x24:\n{text}"
    );
    keys(&mut s, &mut ui, &[Key::Char('v')]);
    let (text, _) = screen(&s, &ui, 80, 24);
    assert!(!text.contains("directions:"), "{text}");
}

/// Where every pane is, and where each program's block starts in the grid.
fn places(s: &Session, ui: &Ui, width: u16, height: u16) -> String {
    let plan = layout::plan(ratatui::layout::Rect::new(0, 0, width, height), s, ui).unwrap();
    let blocks: Vec<(u16, u16)> = plan.grid.blocks.iter().map(|b| (b.1, b.2)).collect();
    format!(
        "board {:?}\nprograms {:?} columns {} {blocks:?}\nanswer {:?}\nwatches {:?}\nlog {:?}\n\
         status {:?}\nkeys {:?}",
        plan.board,
        plan.programs,
        plan.grid.column_width,
        plan.answer,
        plan.watches,
        plan.log,
        plan.position,
        plan.keys
    )
}

#[test]
fn the_panes_keep_their_places_from_step_to_step_and_the_status_is_one_line() {
    for board_first in [false, true] {
        for (width, height) in SIZES.into_iter().chain([(120, 40), (60, 20)]) {
            let size = format!("{width}x{height}, v {board_first}");
            let mut s = session();
            let mut ui = Ui {
                board_first,
                ..Ui::default()
            };
            typed(&mut s, &mut ui, "watch green.1 enemy within 4");
            let first = places(&s, &ui, width, height);
            let mut answers = std::collections::BTreeSet::new();
            // Forward to the end, then all the way back.
            for key in ['s', 'b'] {
                loop {
                    let turn = s.timeline().turn();
                    keys(&mut s, &mut ui, &[Key::Char(key)]);
                    if s.timeline().turn() == turn {
                        break;
                    }
                    answers.insert(ui.answer.lines().count());
                    assert_eq!(
                        places(&s, &ui, width, height),
                        first,
                        "{size}: turn {}",
                        s.timeline().turn()
                    );
                    let (text, _) = screen(&s, &ui, width, height);
                    let status = text.lines().nth(usize::from(height) - 2).unwrap();
                    assert_eq!(status, status_line(&s, usize::from(width)), "{size}");
                }
            }
            assert!(
                s.current().clock().round == 1 && answers.len() > 3,
                "{size}"
            );
        }
    }
}

#[test]
fn a_status_too_long_for_the_terminal_is_shortened_never_wrapped() {
    let mut s = session();
    s.run_line("step 7");
    let full = s.position().trim_end().to_string();
    assert_eq!(status_line(&s, 80), full);
    let short = status_line(&s, 60);
    assert_eq!(
        short,
        "turn 7 · round 2 · green.2 next · signals green 5, violet 5"
    );
    let cut = status_line(&s, 40);
    assert_eq!(cut.chars().count(), 40);
    assert!(cut.ends_with('…'), "{cut}");
    s.run_line("step 10000");
    let over = status_line(&s, 60);
    assert!(over.chars().count() <= 60, "{over}");
    assert!(over.contains("over"), "{over}");
}

#[test]
fn the_key_line_ends_whole_at_every_width() {
    for width in layout::MIN_WIDTH..=240 {
        for toggle in [None, Some("board"), Some("programs")] {
            let line = key_line(width, toggle).to_string();
            assert!(
                line.chars().count() <= usize::from(width),
                "{width}: {line}"
            );
            let tail = match toggle {
                Some(what) => format!("  v {what}  ? help  q quit"),
                None => "  ? help  q quit".to_string(),
            };
            assert!(line.ends_with(&tail), "{width}: {line}");
        }
    }
    // At 120 columns the screen's last line ends with `q quit`, not `q qui`.
    let (text, _) = screen(&session(), &Ui::default(), 120, 40);
    assert!(text.trim_end().ends_with("? help  q quit"), "{text}");
}

#[test]
fn reverse_continue_stops_at_a_watch_change_as_its_help_and_the_docs_say() {
    let said = "run back to the previous breakpoint or watch change, or the start";
    let (_, _, does) = KEY_HELP.iter().find(|(k, _, _)| *k == "C").unwrap();
    assert!(does.starts_with(said), "{does}");
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/DEBUGGER.md")).unwrap();
    assert!(
        doc.contains(&format!("| `C` | {said} |")),
        "docs/DEBUGGER.md"
    );
    // A watch and no breakpoint: `c` stops where the watch changes, `C` comes back there.
    let mut s = session();
    let mut ui = Ui::default();
    typed(&mut s, &mut ui, "watch green.1 enemy within 4");
    keys(&mut s, &mut ui, &[Key::Char('c')]);
    let change = s.timeline().turn();
    assert!(change > 0 && ui.tone == Tone::Stopped, "{}", ui.answer);
    keys(
        &mut s,
        &mut ui,
        &[Key::Char('s'), Key::Char('s'), Key::Char('C')],
    );
    assert_eq!(s.timeline().turn(), change, "{}", ui.answer);
    assert_eq!(ui.tone, Tone::Stopped);
    assert!(
        ui.stopped
            .as_deref()
            .is_some_and(|r| r.starts_with("watch 1")),
        "{:?}",
        ui.stopped
    );
}
