//! Keys to commands. The keys are shortcuts for the commands script mode reads; `:` types any.

use super::{Key, Ui};
use robots_games::battle::live::debug::{Command, Session};

/// Every key with what it does, in the order the key line and the help overlay list them.
/// The key line shows as many as fit, and always `? help` and `q quit`, and `v` when the
/// board or the programs are off screen.
pub const KEY_HELP: &[(&str, &str, &str)] = &[
    ("s", "step", "one robot turn (→ too)"),
    ("t", "turn", "to the end of the team's turn"),
    ("r", "round", "to the end of the round"),
    ("b", "back", "back one robot turn (← too)"),
    ("B", "back turn", "back to the start of the team's turn"),
    ("R", "back round", "back to the start of the round"),
    (
        "c",
        "continue",
        "run to the next breakpoint or watch change, or the end",
    ),
    (
        "C",
        "reverse",
        "run back to the previous breakpoint or watch change, or the start (reverse-continue)",
    ),
    ("e", "end", "run to the end, ignoring breakpoints"),
    ("g", "goto round", "jump to a round (prompts `goto round `)"),
    ("n", "signal", "send a signal (prompts `signal `)"),
    (
        ":",
        "command",
        "type any command; Enter runs it, Esc cancels",
    ),
    (
        "L",
        "reload",
        "re-read the programs, restart from the same seed",
    ),
    (
        "Tab",
        "focus",
        "show another robot's program first (Shift-Tab back)",
    ),
    (
        "v",
        "board",
        "the board or the programs, when the terminal is too small for both",
    ),
    (
        "PgUp PgDn",
        "scroll",
        "scroll the answer (↑ ↓ and the mouse wheel too)",
    ),
    ("? h F1", "help", "this help; any key closes it"),
    ("q", "quit", "quit (Ctrl-C too)"),
];

/// What a key does. `None`: nothing, or a key that is not a command (prompts, scrolling,
/// focus, help).
fn key_command(key: char) -> Option<Command> {
    Some(match key {
        's' => Command::Step(1),
        't' => Command::Turn,
        'r' => Command::Round,
        'b' => Command::Back(1),
        'B' => Command::BackTurn,
        'R' => Command::BackRound,
        'c' => Command::Continue,
        'C' => Command::ReverseContinue,
        'e' => Command::Step(u64::MAX),
        'L' => Command::Reload,
        'q' => Command::Quit,
        _ => return None,
    })
}

/// Handles one key; returns `true` to quit.
pub fn handle(session: &mut Session, ui: &mut Ui, key: Key) -> bool {
    if let Some(first) = ui.help {
        // Scrolling keys scroll the help; any other key closes it.
        let view = ui.view.get();
        ui.help = scrolled(key, first, view.help_page, view.help_max);
        return false;
    }
    if let Some(text) = &mut ui.prompt {
        match key {
            Key::Char(c) => text.push(c),
            Key::Backspace => {
                text.pop();
            }
            Key::Escape => ui.prompt = None,
            Key::Enter => {
                let line = ui.prompt.take().unwrap_or_default();
                let before = session.watch_values();
                let reply = session.run_line(&line);
                let quit = reply.quit;
                let moved =
                    robots_games::battle::live::debug::parse(&line).is_ok_and(|cmd| moves(&cmd));
                ui.record(session, reply, &before, moved);
                return quit;
            }
            _ => {}
        }
        return false;
    }
    let view = ui.view.get();
    let now = ui.scroll.min(view.answer_max);
    if let Some(first) = scrolled(key, now, view.answer_page, view.answer_max) {
        ui.scroll = first;
        return false;
    }
    let before = session.watch_values();
    let (reply, moved) = match key {
        Key::Char(':') => return open(ui, ""),
        Key::Char('g') => return open(ui, "goto round "),
        Key::Char('n') => return open(ui, "signal "),
        Key::Char('?' | 'h') | Key::Help => {
            ui.help = Some(0);
            return false;
        }
        Key::Tab | Key::BackTab => {
            cycle_focus(session, ui, key == Key::Tab);
            return false;
        }
        Key::Char('v') => {
            ui.board_first = !ui.board_first;
            return false;
        }
        Key::Right => (session.execute(Command::Step(1)), true),
        Key::Left => (session.execute(Command::Back(1)), true),
        Key::Char(c) => match key_command(c) {
            Some(cmd) => {
                let moved = moves(&cmd);
                (session.execute(cmd), moved)
            }
            None => return false,
        },
        _ => return false,
    };
    let quit = reply.quit;
    ui.record(session, reply, &before, moved);
    quit
}

/// Whether a command moves in time.
fn moves(cmd: &Command) -> bool {
    matches!(
        cmd,
        Command::Step(_)
            | Command::Turn
            | Command::Round
            | Command::Back(_)
            | Command::BackTurn
            | Command::BackRound
            | Command::Continue
            | Command::ReverseContinue
            | Command::GotoRound(_)
    )
}

fn open(ui: &mut Ui, text: &str) -> bool {
    ui.prompt = Some(text.to_string());
    false
}

/// The new first line after a scrolling key, or `None` for any other key.
fn scrolled(key: Key, first: u16, page: u16, max: u16) -> Option<u16> {
    let page = page.max(1);
    let to = match key {
        Key::PageUp => first.saturating_sub(page),
        Key::PageDown => first.saturating_add(page),
        Key::Up => first.saturating_sub(1),
        Key::Down => first.saturating_add(1),
        Key::WheelUp => first.saturating_sub(3),
        Key::WheelDown => first.saturating_add(3),
        _ => return None,
    };
    Some(to.min(max))
}

/// Tab: the next robot's program first; back to following the robot next to act when the
/// focus comes round to it.
fn cycle_focus(session: &Session, ui: &mut Ui, forward: bool) {
    let count = session.current().robots().len().max(1);
    let now = ui.shown_first(session);
    let to = if forward {
        (now + 1) % count
    } else {
        (now + count - 1) % count
    };
    let following = session.current().next_robot().map_or(0, |id| id.index());
    ui.focus = (to != following).then_some(to);
}
