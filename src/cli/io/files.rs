//! Reading the files named on the command line, and the files they name: every read is
//! bounded (at most [`MAX_INPUT_BYTES`], and never more than one byte past it).

use robots_games::text::MAX_INPUT_BYTES;
use robots_games::text::confine::Fetched;
use robots_games::text::diagnostic::{Diagnostic, text_from_bytes, too_large};
use std::io::Read;
use std::path::Path;

/// The error of a file over the limit.
#[derive(Debug)]
struct TooLarge;

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the file is larger than {} MiB, the most robots reads",
            MAX_INPUT_BYTES >> 20
        )
    }
}

impl std::error::Error for TooLarge {}

/// A file's bytes, at most [`MAX_INPUT_BYTES`]: a larger file (or an endless one such as
/// `/dev/zero`) is an error as soon as one byte more has been read.
pub fn read_bytes(path: &Path) -> std::io::Result<Vec<u8>> {
    read_bounded(std::fs::File::open(path)?)
}

/// The reader of the files a file names (boards, programs, faces), relative to `naming`'s
/// folder: each file's bytes (bounded), and whether it lies outside that folder once links
/// are followed, so that errors about it show nothing of its content.
pub fn fetcher(naming: &Path) -> impl Fn(&Path) -> std::io::Result<Fetched> + use<> {
    // The folder resolved once, not once a named file.
    let folder = folder_of(naming).canonicalize().ok();
    move |path: &Path| {
        let bytes = read_bytes(path)?;
        Ok(Fetched {
            bytes,
            outside: outside_resolved(folder.as_deref(), path),
        })
    }
}

/// The folder of a file (`.` for a bare name).
pub fn folder_of(file: &Path) -> &Path {
    file.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Whether `path`, once links are followed, lies outside `folder` (or cannot be told).
pub fn outside(folder: &Path, path: &Path) -> bool {
    outside_resolved(folder.canonicalize().ok().as_deref(), path)
}

/// [`outside`], the folder already resolved (`None`: it could not be).
fn outside_resolved(folder: Option<&Path>, path: &Path) -> bool {
    match (folder, path.canonicalize()) {
        (Some(folder), Ok(path)) => !path.starts_with(folder),
        _ => true,
    }
}

/// At most [`MAX_INPUT_BYTES`] from `source`, an error as soon as one byte more comes.
fn read_bounded(source: impl Read) -> std::io::Result<Vec<u8>> {
    let limit = u64::try_from(MAX_INPUT_BYTES).unwrap_or(u64::MAX);
    let mut bytes = Vec::new();
    source.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() > MAX_INPUT_BYTES {
        return Err(std::io::Error::other(TooLarge));
    }
    Ok(bytes)
}

/// A text file's content, or a diagnostic saying why it cannot be had.
pub fn read_input(path: &Path) -> Result<String, Diagnostic> {
    let shown = path.display().to_string();
    let bytes = if is_stdin(path) {
        read_bounded(std::io::stdin().lock())
    } else {
        read_bytes(path)
    };
    let bytes = bytes.map_err(|e| {
        if e.get_ref().is_some_and(|inner| inner.is::<TooLarge>()) {
            too_large(&shown)
        } else {
            Diagnostic::whole_file(&shown, format!("cannot read the file: {e}"))
        }
    })?;
    text_from_bytes(&shown, bytes)
}

/// `-` names standard input (or output) wherever a file is named.
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Checks, before any work, that a file can be written at `path` (`-`: standard output):
/// its folder is there and is a folder, and nothing but a plain file (or nothing) is at the
/// path. `what` names the output in the error (`the page`, `the replay`).
pub fn writable(path: &Path, what: &'static str) -> Result<(), NotWritable> {
    if is_stdin(path) {
        return Ok(());
    }
    let shown = || robots_games::text::escape(&path.display().to_string()).into_owned();
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        return Err(NotWritable::NoFolder {
            shown: shown(),
            what,
            folder: robots_games::text::escape(&folder.display().to_string()).into_owned(),
        });
    }
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => Err(NotWritable::Folder {
            shown: shown(),
            what,
        }),
        _ => Ok(()),
    }
}

/// Why an output cannot be written, told before any work (paths shown escaped).
#[derive(Debug, thiserror::Error)]
pub enum NotWritable {
    #[error("{shown}: error: cannot write {what}: the folder {folder} is not there")]
    NoFolder {
        shown: String,
        what: &'static str,
        folder: String,
    },
    #[error("{shown}: error: cannot write {what}: a folder is there")]
    Folder { shown: String, what: &'static str },
}

/// What a file holds, told from its name and its top-level keys, so a command given the
/// wrong kind of file can say which command reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    Program,
    HexBoard,
    Match,
    MicroFace,
    MicroBoard,
    RicochetQuarters,
    RicochetBoard,
    RicochetPosition,
    Unknown,
}

impl FileKind {
    pub fn of(path: &Path, text: &str) -> FileKind {
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if ext.eq_ignore_ascii_case("robot") || looks_like_a_program(text) {
            return FileKind::Program;
        }
        let keys = robots_games::text::yaml::top_level_keys(text);
        let has = |k: &str| keys.iter().any(|key| key == k);
        if has("map") {
            FileKind::HexBoard
        } else if has("teams") {
            FileKind::Match
        } else if has("tiles") {
            FileKind::MicroFace
        } else if has("rows") || has("face") {
            FileKind::MicroBoard
        } else if has("1A") {
            FileKind::RicochetQuarters
        } else if has("size") {
            FileKind::RicochetBoard
        } else if has("target") && has("robots") {
            FileKind::RicochetPosition
        } else {
            FileKind::Unknown
        }
    }

    /// "a program", "a Ricochet board", …
    pub fn described(self) -> &'static str {
        match self {
            FileKind::Program => "a program",
            FileKind::HexBoard => "a hex board",
            FileKind::Match => "a match file",
            FileKind::MicroFace => "a Micro Robots face",
            FileKind::MicroBoard => "a Micro Robots board",
            FileKind::RicochetQuarters => "a set of Ricochet quarter boards",
            FileKind::RicochetBoard => "a Ricochet board",
            FileKind::RicochetPosition => "a Ricochet position",
            FileKind::Unknown => "a file robots does not know",
        }
    }

    /// What to do with such a file instead, for `FILE`.
    pub fn advice(self, file: &str) -> String {
        match self {
            FileKind::Program => format!(
                "check it with `robots check {file}`; to play it, name it in a match file (`program: {file}`, docs/FORMATS.md)"
            ),
            FileKind::HexBoard => format!(
                "draw it with `robots board {file}`; to play on it, name it in a match file (`board: {file}`)"
            ),
            FileKind::Match => format!("play it with `robots run {file}` or `robots debug {file}`"),
            FileKind::MicroFace | FileKind::MicroBoard => {
                format!("draw it with `robots micro board {file}`")
            }
            FileKind::RicochetQuarters => format!("check it with `robots check {file}`"),
            FileKind::RicochetBoard => format!("draw it with `robots ricochet board {file}`"),
            FileKind::RicochetPosition => format!(
                "solve it with `robots ricochet solve {file}`, or draw it with `robots ricochet board {file}`"
            ),
            FileKind::Unknown => "see docs/FORMATS.md for the kinds of file".into(),
        }
    }
}

/// A text whose first line that says something (after a `name:`) is a numbered step
/// (`1: D+1`, `1. T`).
fn looks_like_a_program(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.get(..5).is_some_and(|w| w.eq_ignore_ascii_case("name:")))
        .find(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with("//"))
        .is_some_and(|l| {
            let digits = l.chars().take_while(char::is_ascii_digit).count();
            digits > 0 && matches!(l[digits..].chars().next(), Some(':' | '.' | ')'))
        })
}

/// Refuses, before reading it as one, a file of another kind than `wanted`: `command needs
/// a match file; FILE is a program: …`.
pub fn expect_kind(
    command: &str,
    wanted: FileKind,
    path: &Path,
    text: &str,
) -> Result<(), Diagnostic> {
    let kind = FileKind::of(path, text);
    if kind == wanted || kind == FileKind::Unknown {
        return Ok(());
    }
    let shown = path.display().to_string();
    Err(Diagnostic::whole_file(
        &shown,
        format!(
            "`robots {command}` needs {}; this file is {}: {}",
            wanted.described(),
            kind.described(),
            kind.advice(&shown)
        ),
    ))
}
