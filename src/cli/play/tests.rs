//! The game at the table as the players see it: the placement screen and the match screen in
//! ratatui's `TestBackend`, driven by keys; a signal's step never on screen before it acts.

use super::screen::{Screen, draw};
use crate::cli::tui::Key;
use ratatui::style::Color;
use robots_games::battle::files::match_file;
use robots_games::battle::live::hot_seat::{HotSeat, Phase};
use robots_games::battle::terrain::TeamColour;

/// `matches/duel.yaml` with both teams at the table.
fn table() -> HotSeat {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("matches/duel.yaml")).unwrap();
    let read = |p: &std::path::Path| std::fs::read(root.join("matches").join(p));
    let setup = match_file::parse_match(
        "matches/duel.yaml",
        &text,
        &read,
        robots_games::text::confine::Confine::Inside,
    )
    .unwrap();
    HotSeat::new(setup, &[TeamColour::Green, TeamColour::Violet]).unwrap()
}

fn render(screen: &Screen, width: u16, height: u16) -> (String, ratatui::buffer::Buffer) {
    let mut terminal =
        ratatui::Terminal::new(ratatui::backend::TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| draw(frame, screen)).unwrap();
    let buffer = terminal.backend().buffer().clone();
    let text = crate::cli::tui::text_of(&buffer);
    (text, buffer)
}

fn keys(screen: &mut Screen, keys: &[Key]) {
    for &k in keys {
        assert!(!screen.key(k), "{k:?} quit");
    }
}

/// Green.1 placed at [3, 6] facing 6 (the third free point, turned five times); violet.1's
/// cursor on its second free point, turned to face 3.
fn placing() -> Screen {
    let mut s = Screen::new(table());
    keys(
        &mut s,
        &[Key::Right, Key::Right, Key::Char('6'), Key::Enter],
    );
    keys(
        &mut s,
        &[Key::Right, Key::Char('1'), Key::Char('r'), Key::Char('r')],
    );
    s
}

#[test]
fn the_placement_screen_shows_the_free_start_points_the_cursor_and_the_robots_placed() {
    let s = placing();
    for (width, height) in [(100, 30), (60, 24)] {
        let (text, buffer) = render(&s, width, height);
        for needed in [
            "violet.1 to place",
            "here: [4, 1] facing 3 ↙",
            "green.1 [3, 6] facing 6 ↗ (placed)",
        ] {
            assert!(
                text.contains(needed),
                "{width}x{height}: no `{needed}` in\n{text}"
            );
        }
        // The placed robot, the cursor robot, the free start points in yellow.
        assert!(text.contains("g1↗"), "{text}");
        assert!(text.contains("v1↙"), "{text}");
        let yellow = buffer
            .content
            .iter()
            .filter(|c| c.bg == Color::Reset && c.fg == Color::Yellow && c.symbol() == "+")
            .count();
        assert_eq!(yellow, 3, "three free start points besides the cursor's");
        insta::with_settings!({
            snapshot_path => "../../../tests/snapshots",
            prepend_module_to_snapshot => false,
        }, {
            insta::assert_snapshot!(format!("play__placement_{width}x{height}"), text);
        });
        if (width, height) == (100, 30) {
            let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/PLAY.md"))
                .unwrap();
            assert!(
                doc.contains(&format!("```text\n{text}```")),
                "docs/PLAY.md shows the placement screen at 100x30:\n{text}"
            );
        }
    }
}

#[test]
fn a_placement_off_the_start_points_cannot_be_made_and_undo_takes_the_last_back() {
    let mut s = placing();
    keys(&mut s, &[Key::Enter]);
    assert!(
        matches!(s.table.phase(), Phase::Place { robot, .. } if robot.to_string() == "green.2")
    );
    keys(&mut s, &[Key::Char('u')]);
    assert!(
        matches!(s.table.phase(), Phase::Place { robot, .. } if robot.to_string() == "violet.1")
    );
    keys(&mut s, &[Key::Char('u'), Key::Char('u')]);
    assert!(
        s.message.starts_with("refused: no placement by hand"),
        "{}",
        s.message
    );
}

/// Every robot placed as in tests/play/duel-by-hand.script, the match started, played to the
/// end of green's first turn.
fn at_the_first_signal() -> Screen {
    let mut s = Screen::new(table());
    // green.1 [3, 6] 6; violet.1 [2, 1] 3; green.2 [5, 6] 5; violet.2 [4, 1] 2.
    keys(
        &mut s,
        &[Key::Right, Key::Right, Key::Char('6'), Key::Enter],
    );
    keys(&mut s, &[Key::Char('3'), Key::Enter]);
    keys(
        &mut s,
        &[Key::Right, Key::Right, Key::Char('5'), Key::Enter],
    );
    keys(&mut s, &[Key::Char('2'), Key::Enter]);
    assert_eq!(s.table.phase(), Phase::Confirm);
    keys(&mut s, &[Key::Enter]);
    while s.table.phase() == Phase::Play {
        s.tick();
    }
    s
}

#[test]
fn the_signal_step_is_never_on_screen_before_it_acts() {
    // The same game with a signal for step 11 or step 09 to green.2: every screen is the same
    // until green.2's turn in round 2, when the signal acts (R-A23).
    let mut screens = [at_the_first_signal(), at_the_first_signal()];
    let mut seen = Vec::new();
    for (s, step) in screens.iter_mut().zip(["11", "09"]) {
        let mut shots = Vec::new();
        let mut shoot = |s: &Screen| {
            for (w, h) in [(150, 45), (100, 30)] {
                shots.push(render(s, w, h).0);
            }
        };
        shoot(s);
        keys(s, &[Key::Right]);
        shoot(s);
        for c in step.chars() {
            keys(s, &[Key::Char(c)]);
            shoot(s);
        }
        keys(s, &[Key::Enter]);
        shoot(s);
        assert!(
            s.message.starts_with("signal sent to green.2"),
            "{}",
            s.message
        );
        // Violet's turn, its signal skipped, then green.1's turn of round 2.
        while s.table.phase() == Phase::Play {
            s.tick();
            shoot(s);
        }
        keys(s, &[Key::Escape]);
        shoot(s);
        s.tick();
        shoot(s);
        seen.push(shots);
    }
    // The step typed shows as dots; everything else is the same.
    assert_eq!(seen[0], seen[1]);
    for shot in &seen[0] {
        assert!(!shot.contains("step 11"), "{shot}");
    }
    // Then green.2's turn: it obeys, and the log says which step.
    let s = &mut screens[0];
    s.tick();
    let (text, _) = render(s, 150, 45);
    assert!(text.contains("green.2 obeys the signal: step 11"), "{text}");
}

#[test]
fn the_match_screen_names_the_players_and_the_signal_waiting_without_its_step() {
    let mut s = at_the_first_signal();
    keys(
        &mut s,
        &[Key::Right, Key::Char('1'), Key::Char('1'), Key::Enter],
    );
    let (text, _) = render(&s, 150, 45);
    for needed in [
        " table ",
        " players ",
        "green: at the table, 4 signals left, signal waiting for",
        "violet: at the table, 5 signals left",
        "space pause  + faster  - slower  q quit",
    ] {
        assert!(text.contains(needed), "no `{needed}` in\n{text}");
    }
    insta::with_settings!({
        snapshot_path => "../../../tests/snapshots",
        prepend_module_to_snapshot => false,
    }, {
        insta::assert_snapshot!("play__match_150x45", text);
    });
    // Space pauses; n plays one robot turn; + and - set the pace within its bounds.
    keys(&mut s, &[Key::Char(' ')]);
    assert!(s.paused);
    let before = s.table.session().unwrap().timeline().turn();
    keys(&mut s, &[Key::Char('n')]);
    assert_eq!(s.table.session().unwrap().timeline().turn(), before + 1);
    keys(&mut s, &[Key::Char('+'); 10]);
    assert_eq!(s.pace, 25);
    keys(&mut s, &[Key::Char('-'); 10]);
    assert_eq!(s.pace, 3200);
}

/// The default match (the classic board) with both teams at the table, as
/// `robots play --human green --human violet` opens it.
fn classic() -> Screen {
    use robots_games::battle::files::shipped::DEFAULT_MATCH;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |p: &std::path::Path| std::fs::read(root.join(p));
    let setup = match_file::parse_match(
        DEFAULT_MATCH.0,
        DEFAULT_MATCH.1,
        &read,
        robots_games::text::confine::Confine::Inside,
    )
    .unwrap();
    Screen::new(HotSeat::new(setup, &[TeamColour::Green, TeamColour::Violet]).unwrap())
}

/// Every row of the board as drawn now is whole on `text`.
fn assert_board_whole(s: &Screen, text: &str) {
    let session = s.table.session().expect("the match started");
    for line in crate::cli::tui::lines::board_lines(session) {
        let line = line.to_string();
        assert!(
            text.contains(line.trim_end()),
            "`{}` is not whole:\n{text}",
            line.trim_end()
        );
    }
}

#[test]
fn at_80x24_the_board_is_whole_when_placing_when_playing_and_at_the_signal_prompt() {
    let mut s = classic();
    // Placing: the whole board, the cursor in the last columns, how to quit.
    let (text, _) = render(&s, 80, 24);
    for needed in ["10  11  12", "g1→", "here: [11, 1] facing 1 →", "q quit"] {
        assert!(text.contains(needed), "no `{needed}`:\n{text}");
    }
    insta::with_settings!({
        snapshot_path => "../../../tests/snapshots",
        prepend_module_to_snapshot => false,
    }, {
        insta::assert_snapshot!("play__placement_classic_80x24", text);
    });
    // Six robots placed on their first free start points; the match starts and says who
    // plays first (drawn).
    keys(&mut s, &[Key::Enter; 6]);
    assert_eq!(s.table.phase(), Phase::Confirm);
    keys(&mut s, &[Key::Enter]);
    let (text, _) = render(&s, 80, 24);
    assert_board_whole(&s, &text);
    assert!(
        text.contains("the match starts; violet plays first (drawn)"),
        "{text}"
    );
    assert!(text.contains("v programs  q quit"), "{text}");
    // The signal prompt: the board, the question, the chosen robot's steps beside the board.
    while s.table.phase() == Phase::Play {
        s.tick();
        let (text, _) = render(&s, 80, 24);
        assert_board_whole(&s, &text);
    }
    keys(&mut s, &[Key::Right, Key::Char('1'), Key::Char('2')]);
    for (width, height) in [(150, 45), (120, 40), (100, 30)] {
        let (text, _) = render(&s, width, height);
        assert_board_whole(&s, &text);
        assert!(
            text.contains("robot: ◀ violet.2 ▶"),
            "{width}x{height}:\n{text}"
        );
    }
    let (text, _) = render(&s, 80, 24);
    assert_board_whole(&s, &text);
    for needed in [
        "end of violet's turn: a signal? (5 left)",
        "robot: ◀ violet.2 ▶   step: ••",
        "violet.2 wanderer",
        "Enter send  Esc skip  v programs  q quit",
    ] {
        assert!(text.contains(needed), "no `{needed}`:\n{text}");
    }
    assert!(!text.contains("step: 12"), "the step is hidden:\n{text}");
    assert!(!text.contains(" PgDn"), "the question is whole:\n{text}");
    insta::with_settings!({
        snapshot_path => "../../../tests/snapshots",
        prepend_module_to_snapshot => false,
    }, {
        insta::assert_snapshot!("play__signal_80x24", text);
    });
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/PLAY.md")).unwrap();
    assert!(
        doc.contains(&format!("```text\n{text}```")),
        "docs/PLAY.md shows the signal prompt at 80x24:\n{text}"
    );
    // `v` and `q` work while the prompt is open: the programs, then the game left.
    keys(&mut s, &[Key::Char('v')]);
    let (text, _) = render(&s, 80, 24);
    assert!(!text.contains("directions:"), "{text}");
    assert!(text.trim_end().ends_with("v board  q quit"), "{text}");
    assert_eq!(s.draft.1, "12", "`v` typed nothing");
    assert!(s.key(Key::Char('q')), "q quits at the signal prompt");
}

#[test]
fn q_quits_while_placing_and_v_changes_nothing_there() {
    let mut s = table_screen();
    keys(&mut s, &[Key::Char('v')]);
    assert!(matches!(s.table.phase(), Phase::Place { .. }));
    assert!(s.key(Key::Char('q')));
}

fn table_screen() -> Screen {
    Screen::new(table())
}
