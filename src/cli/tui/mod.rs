//! The debugger's terminal front end (ratatui + crossterm). It draws a [`Session`] and turns
//! keys into the same commands script mode reads; `:` opens a prompt for any command.
//! [`draw`] is pure drawing (it only notes, in [`Ui::view`], how tall the scrolled panes came
//! out), so tests render it into ratatui's `TestBackend`.
//!
//! - `layout.rs`: where each pane goes for the terminal's size.
//! - `lines.rs`: what each pane holds; `panes.rs`: how each is drawn; `wrap.rs`: word
//!   wrapping.
//! - `keys.rs`: keys to commands, the help overlay's text.
//! - `tests.rs`, `tests_keys.rs`, `tests_small.rs`, `tests_ti57.rs`: the screen in
//!   `TestBackend`: at several sizes, driven by keys, on a small terminal (80×24: the board,
//!   panes that stay put), under the TI-57 rule (memories and returns under each title).

mod keys;
pub mod layout;
pub mod lines;
pub mod panes;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_keys;
#[cfg(test)]
mod tests_small;
#[cfg(test)]
mod tests_ti57;
pub mod wrap;

pub use keys::{KEY_HELP, handle};

use ratatui::Frame;
use robots_games::battle::live::debug::{Reply, Session, WatchValue};
use std::cell::Cell;

/// How the last answer reads: drawn plain, in red, or highlighted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tone {
    #[default]
    Plain,
    /// The command was refused (`error: …`).
    Error,
    /// A `continue` or `reverse-continue` stopped at a breakpoint or a watch's change.
    Stopped,
}

/// What the front end keeps besides the session.
#[derive(Clone, Debug, Default)]
pub struct Ui {
    /// The command being typed after `:` (or prefilled by `g`, `n`), if the prompt is open.
    pub prompt: Option<String>,
    /// The last command's whole answer, without the watch lines (they have their own pane).
    pub answer: String,
    pub tone: Tone,
    /// Why the last `continue` or `reverse-continue` stopped (a line of the answer).
    pub stopped: Option<String>,
    /// The first answer line shown (PgUp/PgDn, the mouse wheel).
    pub scroll: u16,
    /// The help overlay, if open, with its first line shown.
    pub help: Option<u16>,
    /// The robot (index in robot id order) whose program is shown first; `None` follows the
    /// robot next to act. Tab moves it.
    pub focus: Option<usize>,
    /// When the terminal is too small for the board and the programs whole, show the board
    /// whole and the programs in what is left beside it (`v`; a game at the table starts so).
    pub board_first: bool,
    /// The watches (as `describe` writes them) whose value the last command changed.
    pub changed: Vec<String>,
    /// A game at the table (`robots play`) on this screen: the answer pane is the table's,
    /// the watches' pane lists the players, the key line is the game's.
    pub table: Option<TableView>,
    /// Written by [`draw`]: the lines that fit and the furthest scroll of the answer pane and
    /// of the help overlay, so the keys can page by a screen and stop at the end.
    pub view: Cell<View>,
}

/// What a game at the table shows in the debugger's panes.
#[derive(Clone, Debug, Default)]
pub struct TableView {
    /// The players' pane: a line a team.
    pub players: Vec<String>,
    /// The key line.
    pub keys: String,
}

/// The scrolled panes' sizes at the last draw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct View {
    pub answer_page: u16,
    pub answer_max: u16,
    pub help_page: u16,
    pub help_max: u16,
}

impl Ui {
    /// Keeps a reply: its text without the trailing watch lines, how it reads (refused,
    /// stopped), and which watches changed since `watches_before`. `moved`: the command moved
    /// in time.
    pub fn record(
        &mut self,
        session: &Session,
        reply: Reply,
        watches_before: &[(String, Option<WatchValue>)],
        moved: bool,
    ) {
        let now = session.watch_values();
        let suffix: String = now
            .iter()
            .map(|(w, v)| format!("{w} = {}\n", watch_text(*v)))
            .collect();
        let text = reply
            .text
            .strip_suffix(suffix.as_str())
            .unwrap_or(&reply.text);
        self.changed = now
            .iter()
            .filter(|(w, v)| watches_before.iter().any(|(bw, bv)| bw == w && bv != v))
            .map(|(w, _)| w.clone())
            .collect();
        self.tone = if reply.failed {
            Tone::Error
        } else if reply.stopped.is_some() {
            Tone::Stopped
        } else {
            Tone::Plain
        };
        self.stopped = reply.stopped;
        self.answer = text.to_string();
        // A move in time opens at its end (why it stopped, where the match stands); other
        // answers at their start.
        self.scroll = if moved { u16::MAX } else { 0 };
    }

    /// The robot whose program is shown first: the focus, or the robot next to act.
    pub fn shown_first(&self, session: &Session) -> usize {
        let m = session.current();
        let count = m.robots().len().max(1);
        self.focus
            .unwrap_or_else(|| m.next_robot().map_or(0, |id| id.index()))
            % count
    }
}

/// A watch's value as the answers write it.
pub fn watch_text(value: Option<WatchValue>) -> String {
    value.map_or_else(|| "(robot destroyed)".to_string(), |v| v.to_string())
}

/// Draws the whole screen, or a notice when the terminal is too small.
pub fn draw(frame: &mut Frame, session: &Session, ui: &Ui) {
    let area = frame.area();
    let Some(plan) = layout::plan(area, session, ui) else {
        panes::too_small(frame, area);
        return;
    };
    panes::draw_plan(frame, session, ui, &plan);
    if let Some(first) = ui.help {
        panes::help(frame, ui, area, first);
    }
}

/// The keys the front end understands, independent of the terminal library.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    Char(char),
    Enter,
    Escape,
    Backspace,
    Left,
    Right,
    Up,
    Down,
    PageUp,
    PageDown,
    Tab,
    BackTab,
    /// F1: help.
    Help,
    /// The mouse wheel.
    WheelUp,
    WheelDown,
}

/// Runs the debugger in the terminal until `q`.
pub fn run(mut session: Session) -> std::io::Result<()> {
    // `NO_COLOR` or `--color never`: the same screen, bold and reversed but no colours.
    let colourful = crate::cli::io::output::colour();
    use ratatui::crossterm::event::{
        self, DisableMouseCapture, EnableMouseCapture, Event, KeyCode, KeyEventKind, KeyModifiers,
        MouseEventKind,
    };
    use ratatui::crossterm::execute;
    let mut terminal = ratatui::try_init()?;
    let mouse = execute!(std::io::stdout(), EnableMouseCapture);
    let mut ui = Ui {
        answer: format!(
            "{}press : for a command, ? for help, q to quit",
            session.position()
        ),
        ..Ui::default()
    };
    let result = mouse.and_then(|()| {
        loop {
            terminal.draw(|frame| {
                draw(frame, &session, &ui);
                if !colourful {
                    without_colour(frame.buffer_mut());
                }
            })?;
            let key = match event::read()? {
                Event::Key(k) if k.kind == KeyEventKind::Press => match k.code {
                    KeyCode::Char('c') if k.modifiers.contains(KeyModifiers::CONTROL) => {
                        break Ok(());
                    }
                    code => match key_of(code) {
                        Some(key) => key,
                        None => continue,
                    },
                },
                Event::Mouse(m) => match m.kind {
                    MouseEventKind::ScrollUp => Key::WheelUp,
                    MouseEventKind::ScrollDown => Key::WheelDown,
                    _ => continue,
                },
                _ => continue,
            };
            if handle(&mut session, &mut ui, key) {
                break Ok(());
            }
        }
    });
    let released = execute!(std::io::stdout(), DisableMouseCapture);
    ratatui::restore();
    result.and(released)
}

/// A key of the terminal library as the front ends know it, if they use it.
pub fn key_of(code: ratatui::crossterm::event::KeyCode) -> Option<Key> {
    use ratatui::crossterm::event::KeyCode;
    Some(match code {
        KeyCode::Char(c) => Key::Char(c),
        KeyCode::Enter => Key::Enter,
        KeyCode::Esc => Key::Escape,
        KeyCode::Backspace => Key::Backspace,
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::PageUp => Key::PageUp,
        KeyCode::PageDown => Key::PageDown,
        KeyCode::Tab => Key::Tab,
        KeyCode::BackTab => Key::BackTab,
        KeyCode::F(1) => Key::Help,
        _ => return None,
    })
}

/// The text of a drawn screen, a line a row with trailing spaces cut (for tests).
#[cfg(test)]
pub fn text_of(buffer: &ratatui::buffer::Buffer) -> String {
    let mut text = String::new();
    for y in 0..buffer.area.height {
        let line: String = (0..buffer.area.width)
            .map(|x| buffer[(x, y)].symbol().to_string())
            .collect();
        text.push_str(line.trim_end());
        text.push('\n');
    }
    text
}

/// Takes every colour off a drawn screen, keeping bold, reversed and the rest.
pub fn without_colour(buffer: &mut ratatui::buffer::Buffer) {
    for cell in &mut buffer.content {
        cell.set_fg(ratatui::style::Color::Reset);
        cell.set_bg(ratatui::style::Color::Reset);
    }
}
