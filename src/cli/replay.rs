//! Replay files (docs/FORMATS.md, "Replays"): written line by line as the match is played
//! (gzip-compressed when the name ends in `.gz`), and read back line by line, each line
//! bounded, every turn played again and compared ([`robots_games::battle::files::replay::Check`]).

use crate::cli::io::files::is_stdin;
use crate::cli::io::output::Failure;
use robots_games::battle::engine::{Event, Match, MatchSetup, Outcome};
use robots_games::battle::files::replay::{
    Check, Header, MAX_HEADER_BYTES, MAX_REPLAY_BYTES, MAX_REPLAY_LINES, MAX_TURN_BYTES,
    REPLAY_BUDGET, parse_header, result_line, setup_of, turn_line,
};
use robots_games::text::escape;
use robots_games::text::lines::{Budget, LineError};
use std::fs::File;
use std::io::{BufRead, BufWriter, Read, Write};
use std::path::Path;

/// Where a replay goes: standard output, a file, or a gzip-compressed file.
enum Sink {
    Stdout(BufWriter<std::io::Stdout>),
    File(BufWriter<File>),
    Gz(flate2::write::GzEncoder<BufWriter<File>>),
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Sink::Stdout(w) => w.write(buf),
            Sink::File(w) => w.write(buf),
            Sink::Gz(w) => w.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Sink::Stdout(w) => w.flush(),
            Sink::File(w) => w.flush(),
            Sink::Gz(w) => w.flush(),
        }
    }
}

/// A replay being written as the match is played: the header at once, a line per robot
/// turn, the result at the end. Memory stays flat however long the match.
pub struct Recorder {
    sink: Sink,
    shown: String,
    turns: u64,
    /// Bytes and lines written so far, kept within what a reader accepts.
    bytes: u64,
    lines: u64,
}

impl Recorder {
    /// Creates the file (`-`: standard output; `*.gz`: compressed) and writes the header of
    /// `game`, which has not played yet.
    pub fn create(path: &Path, setup: &MatchSetup, game: &Match) -> Result<Recorder, Failure> {
        let shown = path.display().to_string();
        let header = serde_json::to_string(&Header::new(setup, game))
            .map_err(|e| format!("cannot write the replay: {e}"))?;
        if header.len() > MAX_HEADER_BYTES {
            return Err(Failure::Bad(format!(
                "{}: error: the match's board and programs take {} MiB, more than a replay \
                 may hold ({} MiB)",
                escape(&shown),
                header.len() >> 20,
                MAX_HEADER_BYTES >> 20
            )));
        }
        let sink = if is_stdin(path) {
            Sink::Stdout(BufWriter::new(std::io::stdout()))
        } else {
            let file = File::create(path)
                .map_err(|e| format!("{}: error: cannot write the replay: {e}", escape(&shown)))?;
            if path.extension().is_some_and(|e| e == "gz") {
                Sink::Gz(flate2::write::GzEncoder::new(
                    BufWriter::new(file),
                    flate2::Compression::fast(),
                ))
            } else {
                Sink::File(BufWriter::new(file))
            }
        };
        let mut recorder = Recorder {
            sink,
            shown,
            turns: 0,
            bytes: 0,
            lines: 0,
        };
        recorder.line(&header)?;
        Ok(recorder)
    }

    fn line(&mut self, text: &str) -> Result<(), Failure> {
        self.bytes += text.len() as u64 + 1;
        self.lines += 1;
        if self.bytes > MAX_REPLAY_BYTES || self.lines > MAX_REPLAY_LINES {
            return Err(Failure::Bad(format!(
                "{}: error: the replay would hold more than {} or {} lines, the most a replay \
                 may (docs/FORMATS.md): a shorter match (--rounds) fits",
                escape(&self.shown),
                robots_games::text::lines::size(MAX_REPLAY_BYTES),
                MAX_REPLAY_LINES
            )));
        }
        let written = self
            .sink
            .write_all(text.as_bytes())
            .and_then(|()| self.sink.write_all(b"\n"));
        written.map_err(|e| self.failed(&e))
    }

    fn failed(&self, e: &std::io::Error) -> Failure {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            // `robots run --replay - | head`: the reader has gone; nobody is left to tell.
            std::process::exit(0);
        }
        Failure::Bad(format!(
            "{}: error: cannot write the replay: {e}",
            escape(&self.shown)
        ))
    }

    /// The line of one robot turn.
    pub fn turn(&mut self, events: &[Event]) -> Result<(), Failure> {
        self.turns += 1;
        self.line(&turn_line(events))
    }

    /// The result line; then the file is complete (and, compressed, finished).
    pub fn finish(mut self, outcome: &Outcome) -> Result<(), Failure> {
        self.line(&result_line(outcome, self.turns))?;
        let done = match self.sink {
            Sink::Gz(w) => w.finish().and_then(|mut inner| inner.flush()),
            Sink::File(mut w) => w.flush(),
            Sink::Stdout(mut w) => w.flush(),
        };
        done.map_err(|e| {
            Failure::Bad(format!(
                "{}: error: cannot write the replay: {e}",
                escape(&self.shown)
            ))
        })
    }
}

/// A file's lines (a replay, a tournament's part, a hill's results), each read with a bound,
/// the whole within a budget ([`robots_games::text::lines`]); gzip-compressed files are read
/// through.
pub struct Lines {
    inner: robots_games::text::lines::Lines<Box<dyn BufRead>>,
    shown: String,
}

impl Lines {
    /// The file's name, escaped, for messages.
    pub fn shown(&self) -> &str {
        &self.shown
    }

    /// The number of the last line read.
    pub fn number(&self) -> u64 {
        self.inner.number()
    }

    /// Opens a file of `noun` (`a replay`; `-`: standard input) within `budget`;
    /// gzip-compressed ones are recognised by their first bytes, whatever their name.
    pub fn open(path: &Path, budget: Budget, noun: &'static str) -> Result<Lines, Failure> {
        let shown = escape(&path.display().to_string()).into_owned();
        let cannot = |e: std::io::Error| format!("{shown}: error: cannot read the file: {e}");
        let raw: Box<dyn Read> = if is_stdin(path) {
            Box::new(std::io::stdin())
        } else {
            Box::new(File::open(path).map_err(cannot)?)
        };
        let inner = robots_games::text::lines::decompressing(raw).map_err(cannot)?;
        Ok(Lines {
            inner: robots_games::text::lines::Lines::new(inner, budget, noun),
            shown,
        })
    }

    /// The next line that is not blank, without its line break, if there is one.
    pub fn next(&mut self, limit: usize) -> Result<Option<String>, Failure> {
        self.inner.next(limit).map_err(|e| {
            let line = match &e {
                LineError::Io { .. } => String::new(),
                _ => format!(":{}", self.inner.number()),
            };
            Failure::Bad(format!("{}{line}: error: {e}", self.shown))
        })
    }
}

/// A replay read whole: its match set up again, every turn played and compared with the
/// file. `each` sees the setup and the match before the first turn (with no events) and after every turn.
pub fn read(
    path: &Path,
    mut each: impl FnMut(&MatchSetup, &Match, &[Event]),
) -> Result<(MatchSetup, Match), Failure> {
    let mut lines = Lines::open(path, REPLAY_BUDGET, "a replay")?;
    let shown = lines.shown.clone();
    let header = lines
        .next(MAX_HEADER_BYTES)?
        .ok_or_else(|| format!("{shown}: error: the replay is empty"))?;
    let header = parse_header(&header).map_err(|e| format!("{shown}:1: error: {e}"))?;
    let setup = setup_of(&header).map_err(|e| format!("{shown}:1: error: {e}"))?;
    let mut check = Check::new(&header, &setup).map_err(|e| format!("{shown}:1: error: {e}"))?;
    each(&setup, check.game(), &[]);
    let disagree = |number: u64, e: robots_games::battle::files::replay::Disagreement| {
        Failure::Bad(format!(
            "{shown}:{number}: error: the replay disagrees with this engine at {e}"
        ))
    };
    loop {
        let Some(line) = lines.next(MAX_TURN_BYTES)? else {
            return Err(Failure::Bad(format!(
                "{shown}: error: the replay stops after robot turn {} with no result line \
                 (was it cut short?)",
                check.turns()
            )));
        };
        match check.line(&line) {
            Ok(Some(_)) => each(&setup, check.game(), check.events()),
            Ok(None) => break,
            Err(e) => return Err(disagree(lines.number(), e)),
        }
    }
    if lines.next(MAX_TURN_BYTES)?.is_some() {
        return Err(Failure::Bad(format!(
            "{shown}:{}: error: a line after the result",
            lines.number()
        )));
    }
    Ok((setup, check.into_game()))
}
