//! What people type: questions at the terminal for the human players of the token games,
//! and command lines for the debugger, each line read with a bounded buffer.

use std::io::{BufRead, Read};
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether questions and what goes with them are written to standard error (set when
/// standard output carries a record: `play --json`).
static TO_STDERR: AtomicBool = AtomicBool::new(false);

/// From now on, questions to players go to standard error.
pub fn to_stderr() {
    TO_STDERR.store(true, Ordering::Relaxed);
}

/// Whether what [`say`] writes is drawn in colour: the policy of `--color` and `NO_COLOR` for
/// the stream it goes to (standard error when standard output carries a record).
pub fn colour() -> bool {
    if TO_STDERR.load(Ordering::Relaxed) {
        use std::io::IsTerminal;
        crate::cli::io::output::colour_for(std::io::stderr().is_terminal())
    } else {
        crate::cli::io::output::colour()
    }
}

/// Writes what a human player reads: a question, a drawing, a correction.
pub fn say(text: &str) {
    if TO_STDERR.load(Ordering::Relaxed) {
        use std::io::Write;
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(text.as_bytes()).and_then(|()| err.flush());
    } else {
        out!("{text}");
    }
}

/// The longest line read from standard input: a longer one is refused, not stored.
pub const MAX_LINE_BYTES: u64 = 64 * 1024;

/// Reads one line of at most [`MAX_LINE_BYTES`]; `None` at the end of the input. A longer
/// line is an error, and the reader should stop: its end may never come (`/dev/zero`).
pub fn read_line(input: &mut impl BufRead) -> Option<std::io::Result<String>> {
    let mut bytes = Vec::new();
    match input
        .by_ref()
        .take(MAX_LINE_BYTES + 1)
        .read_until(b'\n', &mut bytes)
    {
        Ok(0) => return None,
        Ok(_) => {}
        Err(e) => return Some(Err(e)),
    }
    if bytes.len() > usize::try_from(MAX_LINE_BYTES).unwrap_or(usize::MAX)
        && !bytes.ends_with(b"\n")
    {
        return Some(Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("a line longer than {MAX_LINE_BYTES} bytes"),
        )));
    }
    Some(Ok(String::from_utf8_lossy(&bytes)
        .trim_end_matches(['\n', '\r'])
        .to_string()))
}

/// Every line of `input`, each bounded as [`read_line`] says.
pub fn lines(mut input: impl BufRead) -> impl Iterator<Item = std::io::Result<String>> {
    std::iter::from_fn(move || read_line(&mut input))
}

/// Asks a question at the terminal; `None` when the input has ended.
pub fn ask(prompt: &str) -> Option<String> {
    say(prompt);
    match read_line(&mut std::io::stdin().lock()) {
        None | Some(Err(_)) => None,
        Some(Ok(line)) => Some(line.trim().to_string()),
    }
}

/// Whether a game's humans play live: standard input and standard error both terminals (the
/// countdown is redrawn on standard error). Otherwise their answers are a script of lines.
pub fn live() -> bool {
    use std::io::IsTerminal;
    std::io::stdin().is_terminal() && std::io::stderr().is_terminal()
}

/// What a live line editor got.
pub enum Typed {
    /// A line, sent with Enter.
    Line(String),
    /// The deadline came first; what was typed so far stays in the editor.
    Timeout,
    /// Ctrl-D on an empty line: the input has ended.
    End,
    /// Ctrl-C.
    Interrupt,
}

/// A line typed at a live terminal, key by key in raw mode, with a status line redrawn on
/// standard error while the player types: `status` gives its text each time (the
/// countdown), followed by the prompt and what is typed so far. Raw mode only lasts while a
/// line is read: what the game prints between lines prints as usual.
#[derive(Default)]
pub struct Editor {
    typed: String,
}

/// Raw mode for as long as it lives; the status line cleared when it goes.
struct Raw;

impl Raw {
    fn on() -> std::io::Result<Raw> {
        crossterm::terminal::enable_raw_mode()?;
        Ok(Raw)
    }
}

impl Drop for Raw {
    fn drop(&mut self) {
        use std::io::Write;
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(b"\r\x1b[2K").and_then(|()| err.flush());
        let _ = crossterm::terminal::disable_raw_mode();
    }
}

impl Editor {
    /// Whether nothing is typed.
    pub fn is_empty(&self) -> bool {
        self.typed.trim().is_empty()
    }

    /// What was typed and not sent; emptied.
    pub fn take(&mut self) -> String {
        std::mem::take(&mut self.typed)
    }

    /// Reads a line until Enter, `deadline`, Ctrl-D on an empty line or Ctrl-C, redrawing
    /// `status` and `prompt` with the typing at least every quarter of a second.
    pub fn read(
        &mut self,
        prompt: &str,
        deadline: Option<std::time::Instant>,
        status: &mut dyn FnMut() -> String,
    ) -> Typed {
        use crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
        use std::time::{Duration, Instant};
        let Ok(_raw) = Raw::on() else {
            return Typed::End;
        };
        loop {
            self.draw(&status(), prompt);
            let now = Instant::now();
            let wait = match deadline {
                Some(d) if d <= now => return Typed::Timeout,
                Some(d) => (d - now).min(Duration::from_millis(250)),
                None => Duration::from_millis(250),
            };
            match event::poll(wait) {
                Ok(false) => continue,
                Err(_) => return Typed::End,
                Ok(true) => {}
            }
            let Ok(Event::Key(key)) = event::read() else {
                continue;
            };
            if key.kind != KeyEventKind::Press {
                continue;
            }
            let control = key.modifiers.contains(KeyModifiers::CONTROL);
            match key.code {
                KeyCode::Char('c') if control => return Typed::Interrupt,
                KeyCode::Char('d') if control && self.typed.is_empty() => return Typed::End,
                KeyCode::Char('u') if control => self.typed.clear(),
                KeyCode::Char(c) if !control && self.typed.len() < 200 => self.typed.push(c),
                KeyCode::Backspace => {
                    self.typed.pop();
                }
                KeyCode::Enter => return Typed::Line(self.take().trim().to_string()),
                _ => {}
            }
        }
    }

    /// The status line: `status`, then the prompt and the typing, cut to the terminal's width.
    fn draw(&self, status: &str, prompt: &str) {
        use std::io::Write;
        // A terminal that tells no width (0) is taken as 80 columns.
        let width = match crossterm::terminal::size() {
            Ok((w, _)) if w >= 20 => usize::from(w),
            _ => 80,
        };
        let mut line = format!("{status}{prompt}{}", self.typed);
        let chars = line.chars().count();
        if chars + 1 > width {
            // Keep the end, where the typing is.
            line = line.chars().skip(chars + 1 - width).collect();
        }
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r\x1b[2K{line}").and_then(|()| err.flush());
    }

    /// Throws away what was typed ahead while no question was asked (keys pressed while the
    /// game was busy) and returns it, so that the caller can say so.
    pub fn typed_ahead(&mut self) -> String {
        use crossterm::event::{self, Event, KeyCode};
        let mut ahead = self.take();
        if crossterm::terminal::enable_raw_mode().is_err() {
            return ahead;
        }
        while let Ok(true) = event::poll(std::time::Duration::ZERO) {
            match event::read() {
                Ok(Event::Key(k)) => match k.code {
                    KeyCode::Char(c) => ahead.push(c),
                    KeyCode::Enter => ahead.push_str(" / "),
                    _ => {}
                },
                Ok(_) => {}
                Err(_) => break,
            }
        }
        let _ = crossterm::terminal::disable_raw_mode();
        ahead.trim().trim_end_matches('/').trim().to_string()
    }
}
