//! The screen in ratatui's `TestBackend` at several sizes, and the keys.

use super::layout::{self, MIN_HEIGHT, MIN_WIDTH};
use super::{Key, Tone, Ui, handle};
use ratatui::style::{Color, Modifier};
use robots_games::battle::live::debug::Session;
use robots_games::battle::{files::match_file, files::shipped};
use std::cell::RefCell;
use std::rc::Rc;

/// The default match; `text` is the match file `reload` reads (tests break it).
pub(super) fn session_on(text: Rc<RefCell<String>>) -> Session {
    Session::new(Box::new(move || {
        let read = |p: &std::path::Path| {
            std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(p))
        };
        match_file::parse_match(
            shipped::DEFAULT_MATCH.0,
            &text.borrow(),
            &read,
            robots_games::text::confine::Confine::Inside,
        )
    }))
    .expect("the default match loads")
}

pub(super) fn session() -> Session {
    session_on(Rc::new(RefCell::new(shipped::DEFAULT_MATCH.1.to_string())))
}

pub(super) fn screen(
    session: &Session,
    ui: &Ui,
    width: u16,
    height: u16,
) -> (String, ratatui::buffer::Buffer) {
    let mut terminal =
        ratatui::Terminal::new(ratatui::backend::TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|frame| super::draw(frame, session, ui))
        .unwrap();
    let buffer = terminal.backend().buffer().clone();
    let text = crate::cli::tui::text_of(&buffer);
    (text, buffer)
}

pub(super) fn keys(s: &mut Session, ui: &mut Ui, keys: &[Key]) {
    for &k in keys {
        assert!(!handle(s, ui, k));
    }
}

pub(super) fn typed(s: &mut Session, ui: &mut Ui, line: &str) {
    handle(s, ui, Key::Char(':'));
    for c in line.chars() {
        handle(s, ui, Key::Char(c));
    }
    handle(s, ui, Key::Enter);
}

/// Where `needle` starts on screen.
pub(super) fn find(buffer: &ratatui::buffer::Buffer, needle: &str) -> Option<(u16, u16)> {
    let area = buffer.area;
    (0..area.height).find_map(|y| {
        let row: Vec<String> = (0..area.width)
            .map(|x| buffer[(x, y)].symbol().to_string())
            .collect();
        let chars: Vec<char> = row.iter().flat_map(|s| s.chars()).collect();
        let n: Vec<char> = needle.chars().collect();
        chars
            .windows(n.len())
            .position(|w| w == n.as_slice())
            .map(|x| (crate::cli::tui::wrap::to_u16(x), y))
    })
}

pub(super) const SIZES: [(u16, u16); 5] = [(200, 60), (150, 45), (120, 40), (100, 30), (80, 24)];

pub(super) fn word_counts(text: &str) -> std::collections::BTreeMap<String, usize> {
    let mut counts = std::collections::BTreeMap::new();
    for w in text.split_whitespace() {
        *counts.entry(w.to_string()).or_insert(0) += 1;
    }
    counts
}

/// The program of the robot next to act is on screen whole: every line of its block, and
/// every word of its program view (nothing lost to wrapping).
pub(super) fn assert_next_program_whole(s: &Session, ui: &Ui, width: u16, height: u16, text: &str) {
    let m = s.current();
    let next = m.next_robot().expect("a robot is next");
    let area = ratatui::layout::Rect::new(0, 0, width, height);
    let plan = layout::plan(area, s, ui).expect("big enough");
    assert!(
        plan.grid.first_whole,
        "{width}x{height}: {} not whole",
        m.robot(next).name
    );
    let (lines, _, _) = &plan.grid.blocks[next.index()];
    let mut block_text = String::new();
    for line in lines {
        let line = line.to_string();
        assert!(
            text.contains(line.trim_end()),
            "{width}x{height}: `{}` not on screen:\n{text}",
            line.trim_end()
        );
        block_text.push_str(&line);
        block_text.push('\n');
    }
    let view = s.program_view(next);
    assert!(
        view.lines().any(|l| l.trim_start().starts_with('?')),
        "the program has tests"
    );
    let have = word_counts(&block_text);
    for (word, n) in word_counts(&view) {
        assert!(
            have.get(&word).copied().unwrap_or(0) >= n,
            "{width}x{height}: `{word}` of {}'s program is missing:\n{text}",
            m.robot(next).name
        );
    }
}

/// Every word of `answer` is in the answer pane (wrapped, not scrolled away).
pub(super) fn assert_answer_whole(
    s: &Session,
    ui: &Ui,
    buffer: &ratatui::buffer::Buffer,
    answer: &str,
    text: &str,
) {
    let plan = layout::plan(buffer.area, s, ui).expect("big enough");
    let pane: String = (plan.answer.top()..plan.answer.bottom())
        .flat_map(|y| {
            (plan.answer.left()..plan.answer.right())
                .map(move |x| (x, y))
                .chain(std::iter::once((u16::MAX, y)))
        })
        .map(|(x, y)| {
            if x == u16::MAX {
                "\n".into()
            } else {
                buffer[(x, y)].symbol().to_string()
            }
        })
        .collect();
    let have = word_counts(&pane.replace('│', " "));
    for (word, n) in word_counts(answer) {
        assert!(
            have.get(&word).copied().unwrap_or(0) >= n,
            "{}x{}: `{word}` not in the answer pane:\n{text}",
            buffer.area.width,
            buffer.area.height
        );
    }
}

#[test]
pub(super) fn at_each_size_the_next_program_the_whole_answer_and_the_help_are_on_screen() {
    for (width, height) in SIZES {
        let mut s = session();
        let mut ui = Ui::default();
        for line in [
            "step 8",
            "watch green.1 enemy within 4",
            "break violet.2 step 11",
            "show robot green.1",
        ] {
            typed(&mut s, &mut ui, line);
        }
        let (text, _) = screen(&s, &ui, width, height);
        insta::with_settings!({
            snapshot_path => "../../../tests/snapshots",
            prepend_module_to_snapshot => false,
        }, {
            insta::assert_snapshot!(format!("debugger__screen_{width}x{height}"), text);
        });
        if (width, height) == (100, 30) {
            let doc =
                std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/DEBUGGER.md"))
                    .unwrap();
            assert!(
                doc.contains(&format!("```text\n{text}```")),
                "docs/DEBUGGER.md shows the screen at 100x30:\n{text}"
            );
        }
        // `show robot` answers seven lines: all are on screen, with no watch among them.
        let answer = s.run_line("show robot green.1").text;
        let answer: String = answer
            .lines()
            .filter(|l| !l.starts_with("watch "))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(answer.lines().count(), 7);
        let (text, buffer) = screen(&s, &ui, width, height);
        assert_answer_whole(&s, &ui, &buffer, &answer, &text);
        assert!(text.contains("pending signal: none"));
        assert!(
            !ui.answer.contains("watch 1:"),
            "watches have their own pane"
        );
        assert!(text.contains("watch 1: green.1"), "{text}");
        assert!(text.contains("within 4 = no"), "{text}");
        // The key line ends whole.
        assert!(
            text.trim_end().ends_with("? help  q quit"),
            "{width}x{height}:\n{text}"
        );
        // Every robot's program, each in turn as it comes to act, is whole.
        for _ in 0..6 {
            let (text, _) = screen(&s, &ui, width, height);
            assert_next_program_whole(&s, &ui, width, height, &text);
            keys(&mut s, &mut ui, &[Key::Char('s')]);
        }
        // `:help`: its first line, and after paging down, its last line.
        typed(&mut s, &mut ui, "help");
        let (text, _) = screen(&s, &ui, width, height);
        let first = robots_games::battle::live::debug::command::HELP
            .lines()
            .next()
            .unwrap();
        assert!(text.contains(first), "{width}x{height}:\n{text}");
        for _ in 0..10 {
            keys(&mut s, &mut ui, &[Key::PageDown]);
        }
        let (text, _) = screen(&s, &ui, width, height);
        let help = robots_games::battle::live::debug::command::HELP;
        let last: Vec<&str> = help.lines().last().unwrap().split_whitespace().collect();
        assert!(
            text.contains(&last[..3].join(" ")),
            "{width}x{height}:\n{text}"
        );
        assert!(
            text.contains(last[last.len() - 1]),
            "{width}x{height}:\n{text}"
        );
    }
}

#[test]
pub(super) fn the_screen_shows_board_programs_log_watches_and_status() {
    let mut s = session();
    let mut ui = Ui::default();
    for line in [
        "step 8",
        "watch green.1 enemy within 4",
        "break violet.2 step 11",
    ] {
        typed(&mut s, &mut ui, line);
    }
    let (text, buffer) = screen(&s, &ui, 170, 48);
    insta::with_settings!({
        snapshot_path => "../../../tests/snapshots",
        prepend_module_to_snapshot => false,
    }, {
        insta::assert_snapshot!("debugger__the_screen_shows_board_programs_log_watches_and_status", text);
    });
    for pane in [" log ", " watches and breakpoints ", " answer ", "seed 1"] {
        assert!(text.contains(pane), "{pane}:\n{text}");
    }
    // Robots are drawn in their team's colour: find green.1's mark and check its background.
    let (x, y) = find(&buffer, "g1").expect("green.1 is on the board");
    assert_eq!(buffer[(x, y)].bg, Color::Green);
}

#[test]
pub(super) fn lines_wrap_at_spaces_under_their_second_column() {
    use super::wrap::{hanging, wrap};
    let line =
        "  break ROBOT step N       stop before ROBOT reads step N (by any route: GO, a test)";
    assert_eq!(
        hanging(line, 60),
        25,
        "column 27, past the line's own indent of 2"
    );
    assert_eq!(
        wrap(line, 60, hanging(line, 60)),
        [
            "  break ROBOT step N       stop before ROBOT reads step N",
            "                           (by any route: GO, a test)"
        ]
    );
    // Past the middle, continuation lines are indented by 2; a word longer than a line is cut.
    assert_eq!(hanging(line, 40), 2);
    assert_eq!(
        wrap("ab abcdefghij", 4, 2),
        ["ab", "  ab", "  cd", "  ef", "  gh", "  ij"]
    );
    assert_eq!(wrap("", 10, 2), [""]);
    for l in wrap(line, 12, 2) {
        assert!(l.chars().count() <= 12, "{l}");
    }
}

#[test]
pub(super) fn below_the_minimum_size_a_notice_says_so() {
    let s = session();
    let ui = Ui::default();
    for (w, h) in [
        (MIN_WIDTH - 1, MIN_HEIGHT),
        (MIN_WIDTH, MIN_HEIGHT - 1),
        (30, 8),
    ] {
        let (text, _) = screen(&s, &ui, w, h);
        let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            joined.contains(&format!(
                "terminal too small: {w}×{h}, need at least {MIN_WIDTH}×{MIN_HEIGHT}"
            )),
            "{text}"
        );
    }
    for (w, h) in [(MIN_WIDTH, MIN_HEIGHT), (70, 20)] {
        let (text, _) = screen(&s, &ui, w, h);
        assert!(!text.contains("too small"));
        for pane in ["green.1 hunter", " answer ", " watches", " log "] {
            assert!(text.contains(pane), "{w}x{h}: {pane}:\n{text}");
        }
    }
}

#[test]
pub(super) fn errors_are_red_and_a_breakpoint_hit_is_highlighted() {
    let mut s = session();
    let mut ui = Ui::default();
    typed(&mut s, &mut ui, "watch green.1 enemy within 4");
    typed(&mut s, &mut ui, "signal green.9 1");
    assert_eq!(ui.tone, Tone::Error);
    let (_, buffer) = screen(&s, &ui, 150, 45);
    let (x, y) = find(&buffer, "error: there is no robot green.9").expect("the error is shown");
    assert_eq!(buffer[(x, y)].fg, Color::Red);
    typed(&mut s, &mut ui, "break green.1 step 11");
    assert_eq!(ui.tone, Tone::Plain, "setting a breakpoint is no hit");
    // `c` stops first where the watch changes: that line is highlighted, and the watch's
    // value is in its pane, not in the answer.
    keys(&mut s, &mut ui, &[Key::Char('c')]);
    assert_eq!(ui.tone, Tone::Stopped);
    let stop = ui.stopped.clone().expect("a stop");
    assert!(
        stop.starts_with("watch 1: green.1 enemy within 4 changed"),
        "{stop}"
    );
    let (text, buffer) = screen(&s, &ui, 150, 45);
    let (x, y) = find(&buffer, &stop).expect(&text);
    assert_eq!(buffer[(x, y)].fg, Color::Yellow);
    assert!(!ui.answer.contains("within 4 = "), "{}", ui.answer);
    assert!(
        text.contains("watch 1: green.1 enemy within 4 = yes (changed)"),
        "{text}"
    );
    // Without the watch, `c` runs to the breakpoint.
    typed(&mut s, &mut ui, "delete 1");
    keys(&mut s, &mut ui, &[Key::Char('c')]);
    assert_eq!(ui.tone, Tone::Stopped);
    let (text, buffer) = screen(&s, &ui, 150, 45);
    let (x, y) = find(&buffer, "breakpoint 2: green.1 is about to").expect(&text);
    assert_eq!(buffer[(x, y)].fg, Color::Yellow);
    assert!(buffer[(x, y)].modifier.contains(Modifier::BOLD));
    // The stop and the position are both there; the position is plain.
    assert!(ui.answer.contains("green.1 next"), "{}", ui.answer);
    let (x, y) = find(&buffer, "green.1 next").expect(&text);
    assert_ne!(buffer[(x, y)].fg, Color::Yellow);
}

#[test]
pub(super) fn a_watch_that_changes_is_highlighted_in_its_pane() {
    let mut s = session();
    let mut ui = Ui::default();
    typed(&mut s, &mut ui, "watch green.1 enemy within 4");
    let mut changed = false;
    for _ in 0..200 {
        keys(&mut s, &mut ui, &[Key::Char('s')]);
        if !ui.changed.is_empty() {
            changed = true;
            break;
        }
    }
    assert!(changed, "green.1 sees an enemy within 4 at some point");
    assert_eq!(
        ui.tone,
        Tone::Plain,
        "a step that changes a watch is no breakpoint"
    );
    let (text, buffer) = screen(&s, &ui, 150, 45);
    let (x, y) = find(&buffer, "watch 1: green.1 enemy within 4 = yes (changed)").expect(&text);
    assert_eq!(buffer[(x, y)].fg, Color::Yellow);
    // Going back changes it again; a step that leaves it alone highlights nothing.
    keys(&mut s, &mut ui, &[Key::Char('b')]);
    assert_eq!(
        ui.changed,
        vec!["watch 1: green.1 enemy within 4".to_string()]
    );
    let (text, _) = screen(&s, &ui, 150, 45);
    assert!(
        text.contains("watch 1: green.1 enemy within 4 = no (changed)"),
        "{text}"
    );
    while !s.current().is_over() {
        let before = s.watch_values();
        keys(&mut s, &mut ui, &[Key::Char('s')]);
        if before == s.watch_values() {
            assert!(ui.changed.is_empty());
            let (text, _) = screen(&s, &ui, 150, 45);
            assert!(!text.contains("(changed)"), "{text}");
            break;
        }
    }
}

#[test]
pub(super) fn watch_values_are_coloured_yes_green_no_red_numbers_plain() {
    let mut s = session();
    let mut ui = Ui::default();
    typed(&mut s, &mut ui, "watch green.1 count(enemy within 4)");
    typed(&mut s, &mut ui, "watch green.1 enemy within 4");
    typed(&mut s, &mut ui, "watch green.1 not enemy within 4");
    assert!(!ui.answer.contains(" = "), "{}", ui.answer);
    let (text, buffer) = screen(&s, &ui, 150, 45);
    let at = |needle: &str| {
        let (x, y) = find(&buffer, needle).expect(&text);
        buffer[(
            x + crate::cli::tui::wrap::to_u16(needle.chars().count()) - 1,
            y,
        )]
            .fg
    };
    assert_eq!(at("count(enemy within 4) = 0"), Color::Reset);
    assert_eq!(at("green.1 enemy within 4 = no"), Color::Red);
    assert_eq!(at("not enemy within 4 = yes"), Color::Green);
}

#[test]
pub(super) fn a_reload_error_is_shown_whole() {
    let file = Rc::new(RefCell::new(shipped::DEFAULT_MATCH.1.to_string()));
    let mut s = session_on(Rc::clone(&file));
    let mut ui = Ui::default();
    *file.borrow_mut() = shipped::DEFAULT_MATCH
        .1
        .replace("scenario: 1", "scenario: [1");
    keys(&mut s, &mut ui, &[Key::Char('L')]);
    assert_eq!(ui.tone, Tone::Error);
    assert!(ui.answer.lines().count() > 2, "{}", ui.answer);
    for (w, h) in [(100, 30), (80, 24)] {
        let (text, buffer) = screen(&s, &ui, w, h);
        assert_answer_whole(&s, &ui, &buffer, &ui.answer, &text);
        assert!(ui.answer.contains('^'), "the caret line: {}", ui.answer);
        let (x, y) = find(&buffer, "error:").expect("shown");
        assert_eq!(buffer[(x, y)].fg, Color::Red);
    }
}

#[test]
pub(super) fn without_colour_the_screen_has_no_colour_left() {
    let mut s = session();
    let mut ui = Ui::default();
    typed(&mut s, &mut ui, "step 3");
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(120, 40)).unwrap();
    let frame = terminal
        .draw(|frame| {
            super::draw(frame, &s, &ui);
            super::without_colour(frame.buffer_mut());
        })
        .unwrap();
    let buffer = frame.buffer;
    assert!(
        buffer
            .content
            .iter()
            .all(|c| c.fg == ratatui::style::Color::Reset && c.bg == ratatui::style::Color::Reset)
    );
    assert!(
        buffer
            .content
            .iter()
            .any(|c| c.modifier.contains(ratatui::style::Modifier::BOLD)),
        "bold stays"
    );
}
