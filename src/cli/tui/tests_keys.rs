//! The debugger's full screen driven by keys, in `TestBackend`: the help overlay, the
//! program shown first, scrolling the answer, and keys as the commands they stand for.

use super::layout;
use super::tests::{assert_next_program_whole, find, keys, screen, session, typed};
use super::{Key, Tone, Ui, handle};
use ratatui::style::Color;
use robots_games::battle::live::debug::Session;

#[test]
fn help_opens_on_question_mark_h_and_f1_and_any_key_closes_it() {
    let mut s = session();
    let mut ui = Ui::default();
    for open in [Key::Char('?'), Key::Char('h'), Key::Help] {
        keys(&mut s, &mut ui, &[open]);
        let (text, _) = screen(&s, &ui, 200, 60);
        for (key, _, does) in super::KEY_HELP {
            assert!(
                text.contains(&format!("{key:<10} {does}")),
                "{key}:\n{text}"
            );
        }
        assert!(text.contains("break ROBOT step N"), "{text}");
        assert!(text.contains("ROBOT is TEAM.N"), "{text}");
        // The key that closes the help does nothing else.
        keys(&mut s, &mut ui, &[Key::Char('s')]);
        assert!(ui.help.is_none());
        assert_eq!(s.timeline().turn(), 0);
    }
    // Too tall for 80x24: it scrolls.
    keys(&mut s, &mut ui, &[Key::Char('?')]);
    let (text, _) = screen(&s, &ui, 80, 24);
    assert!(
        text.contains("keys:") && !text.contains("ROBOT is TEAM.N"),
        "{text}"
    );
    keys(
        &mut s,
        &mut ui,
        &[Key::PageDown, Key::PageDown, Key::PageDown],
    );
    let (text, _) = screen(&s, &ui, 80, 24);
    assert!(text.contains("ROBOT is TEAM.N"), "{text}");
    assert!(ui.help.is_some());
}

#[test]
fn tab_shows_another_program_first_and_the_panes_follow_the_robot_next() {
    let mut s = session();
    let mut ui = Ui::default();
    let name = |s: &Session, i: usize| s.current().robots()[i].name.to_string();
    let (text, _) = screen(&s, &ui, 100, 30);
    assert!(text.contains("green.1 hunter"), "{text}");
    // The panes follow: once violet.1 is next, its program is shown whole.
    while name(&s, s.current().next_robot().unwrap().index()) != "violet.1" {
        keys(&mut s, &mut ui, &[Key::Char('s')]);
    }
    let next = s.current().next_robot().unwrap().index();
    assert_eq!(name(&s, next), "violet.1");
    let (text, _) = screen(&s, &ui, 100, 30);
    assert_next_program_whole(&s, &ui, 100, 30, &text);
    assert!(
        !text.contains("green.1 hunter"),
        "one program at a time at 100x30:\n{text}"
    );
    // Tab: the next robot in id order; round again to following.
    keys(&mut s, &mut ui, &[Key::Tab]);
    let first = ui.shown_first(&s);
    assert_ne!(first, next);
    let (text, _) = screen(&s, &ui, 100, 30);
    assert!(text.contains(&format!("{} ", name(&s, first))), "{text}");
    let count = s.current().robots().len();
    keys(&mut s, &mut ui, &vec![Key::Tab; count - 1]);
    assert_eq!(ui.focus, None, "round again: following the robot next");
    keys(&mut s, &mut ui, &[Key::BackTab]);
    assert_eq!(ui.shown_first(&s), (next + count - 1) % count);
    // `v`: the board in the programs' place when there is no room for both.
    keys(&mut s, &mut ui, &[Key::Char('v')]);
    let (text, _) = screen(&s, &ui, 100, 30);
    assert!(text.contains("directions: 1 → E"), "{text}");
}

#[test]
fn the_answer_scrolls_with_page_keys_and_the_wheel() {
    let mut s = session();
    let mut ui = Ui::default();
    typed(&mut s, &mut ui, "step 30");
    // A move in time opens at its end: where the match stands.
    let (text, _) = screen(&s, &ui, 100, 30);
    assert!(text.contains("turn 30: round"), "the last line:\n{text}");
    typed(&mut s, &mut ui, "show log 60");
    let (text, _) = screen(&s, &ui, 100, 30);
    assert!(text.contains(" 1-"), "{text}");
    keys(&mut s, &mut ui, &[Key::PageDown]);
    let page = ui.scroll;
    assert!(page > 1);
    keys(&mut s, &mut ui, &[Key::WheelUp]);
    assert_eq!(ui.scroll, page - 3);
    keys(&mut s, &mut ui, &vec![Key::PageDown; 100]);
    let (text, _) = screen(&s, &ui, 100, 30);
    assert_eq!(
        ui.scroll,
        ui.view.get().answer_max,
        "scrolling stops at the end"
    );
    let plan = layout::plan(ratatui::layout::Rect::new(0, 0, 100, 30), &s, &ui).unwrap();
    let total = super::lines::answer_lines(&ui, plan.answer.width - 2).len();
    assert!(
        text.contains(&format!("-{total}/{total} ")),
        "the last line:\n{text}"
    );
    keys(&mut s, &mut ui, &[Key::PageUp; 100]);
    assert_eq!(ui.scroll, 0);
}

#[test]
fn keys_drive_the_same_commands() {
    let mut s = session();
    let mut ui = Ui::default();
    for key in "sstrbBR".chars() {
        assert!(!handle(&mut s, &mut ui, Key::Char(key)));
    }
    assert_eq!(
        s.timeline().turn(),
        0,
        "s s t r forward, then b B R all the way back"
    );
    keys(&mut s, &mut ui, &[Key::Right, Key::Right, Key::Left]);
    assert_eq!(s.timeline().turn(), 1);
    handle(&mut s, &mut ui, Key::Char('g'));
    handle(&mut s, &mut ui, Key::Char('4'));
    handle(&mut s, &mut ui, Key::Enter);
    assert_eq!(s.current().clock().round, 4);
    typed(&mut s, &mut ui, "break green.1 step 11");
    assert_eq!(s.marks().len(), 1);
    // `c` runs to the breakpoint: green.1 is about to read step 11.
    handle(&mut s, &mut ui, Key::Char('c'));
    assert!(
        ui.answer.contains("is about to read step 11"),
        "{}",
        ui.answer
    );
    // `C` runs back (reverse-continue): no earlier stop, so back to the start.
    let stop = s.timeline().turn();
    handle(&mut s, &mut ui, Key::Char('C'));
    assert_eq!(s.timeline().turn(), 0, "{}", ui.answer);
    assert!(ui.answer.contains("back at the start"), "{}", ui.answer);
    // `c` again stops at the same place; a breakpoint's stop is highlighted.
    handle(&mut s, &mut ui, Key::Char('c'));
    assert_eq!(s.timeline().turn(), stop);
    assert_eq!(ui.tone, Tone::Stopped);
    let (_, buffer) = screen(&s, &ui, 100, 30);
    let (x, y) = find(&buffer, "breakpoint 1: green.1 is about").expect("the stop is on screen");
    assert_eq!(buffer[(x, y)].fg, Color::Yellow);
    // `n` opens the signal prompt; mid-turn the rules refuse, and say why; Esc closes a prompt.
    let turn = s.timeline().turn();
    s.run_line(&format!("goto round {}", s.current().clock().round));
    s.run_line("step");
    handle(&mut s, &mut ui, Key::Char('n'));
    assert_eq!(ui.prompt.as_deref(), Some("signal "));
    for c in "green.1 1".chars() {
        handle(&mut s, &mut ui, Key::Char(c));
    }
    handle(&mut s, &mut ui, Key::Enter);
    assert!(
        ui.answer.starts_with("error: signals are sent at the end"),
        "{}",
        ui.answer
    );
    let _ = turn;
    handle(&mut s, &mut ui, Key::Char(':'));
    handle(&mut s, &mut ui, Key::Escape);
    assert!(ui.prompt.is_none());
    handle(&mut s, &mut ui, Key::Char('e'));
    assert!(s.current().is_over());
    handle(&mut s, &mut ui, Key::Char('L'));
    assert_eq!(s.timeline().turn(), 0);
    assert_eq!(s.marks().len(), 1, "reload keeps breakpoints");
    assert!(handle(&mut s, &mut ui, Key::Char('q')));
}
