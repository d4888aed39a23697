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

/// Asks for a number of moves, timing the answer: `(moves, seconds)`, or `None` when the
/// player passes (an empty line) or the input has ended.
pub fn ask_moves(prompt: &str) -> Option<(u32, f64)> {
    let started = std::time::Instant::now();
    loop {
        let answer = ask(prompt)?;
        if answer.is_empty() {
            return None;
        }
        match answer.parse() {
            Ok(n) => return Some((n, started.elapsed().as_secs_f64())),
            Err(_) => say("a number of moves, please\n"),
        }
    }
}
