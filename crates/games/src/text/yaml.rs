//! The one place that knows the YAML crate: typed reading with located errors, and key lookup.
//!
//! Text from strangers is looked at before the YAML reader sees it: its size and how deep it
//! nests (the reader's scanner slows down badly on deep nesting), and the reader's messages,
//! which can quote the input, are cut to short excerpts.

use crate::text::diagnostic::{Diagnostic, too_large};
use crate::text::{EXCERPT_CHARS, MAX_INPUT_BYTES, excerpt, strip_bom};
use serde::de::DeserializeOwned;

/// How deep a YAML file may nest: `[` and `{` inside one another, block levels (each
/// indentation step, each `- ` entry) and both together.
pub const MAX_NESTING: usize = 64;

/// How many characters of a quoted input the reader's messages keep.
const QUOTE_CHARS: usize = 60;

/// Reads `source` as a `T`, or a diagnostic at the line and column the YAML reader gave.
/// A leading byte order mark is ignored; text over [`MAX_INPUT_BYTES`] or nested deeper than
/// [`MAX_NESTING`] is refused before the reader sees it.
pub fn from_str<T: DeserializeOwned>(file: &str, source: &str) -> Result<T, Diagnostic> {
    guard(file, source)?;
    serde_yaml::from_str(strip_bom(source)).map_err(|e| {
        let (line, col) = e.location().map_or((1, 1), |l| (l.line(), l.column()));
        let mut message = e.to_string();
        // The reader appends its own "at line L column C"; the diagnostic already says where.
        if let Some(cut) = message.find(" at line ") {
            message.truncate(cut);
        }
        let text = source.lines().nth(line.saturating_sub(1)).unwrap_or("");
        Diagnostic::at(file, source, line, col, cut_quotes(&message, text))
    })
}

/// The checks made before the YAML reader sees `source`: its size and its nesting.
pub fn guard(file: &str, source: &str) -> Result<(), Diagnostic> {
    if source.len() > MAX_INPUT_BYTES {
        return Err(too_large(file));
    }
    check_nesting(source).map_err(|(line, col)| {
        Diagnostic::at(
            file,
            source,
            line,
            col,
            format!("this nests deeper than {MAX_NESTING} levels, the most robots reads"),
        )
    })
}

/// The reader's message with every quoted piece of input (`"…"` or `` `…` ``) cut to
/// [`QUOTE_CHARS`] characters, and to what of it stands on `line`, the line the error
/// points at (the reader folds a plain text of several lines into one quote: only its
/// first line is shown, as the excerpt shows it); the whole to two excerpts' length.
fn cut_quotes(message: &str, line: &str) -> String {
    let mut out = String::with_capacity(message.len().min(4 * EXCERPT_CHARS));
    let mut quote: Option<char> = None;
    let mut quoted = String::new();
    let mut escaped = false;
    for c in message.chars() {
        let Some(q) = quote else {
            if c == '"' || c == '`' {
                quote = Some(c);
                quoted.clear();
                escaped = false;
            }
            out.push(c);
            continue;
        };
        if escaped {
            escaped = false;
        } else if c == '\\' && q == '"' {
            escaped = true;
        } else if c == q {
            quote = None;
            out.push_str(&shown_quote(&quoted, line));
            out.push(c);
            continue;
        }
        quoted.push(c);
    }
    if quote.is_some() {
        out.push_str(&shown_quote(&quoted, line));
    }
    excerpt(&out, 2 * EXCERPT_CHARS).into_owned()
}

/// What a quote of the input shows: whole if it stands on `line` or is one word (a key, a
/// name from the format: no line was folded into it), else the part of it that stands on
/// `line`; at most [`QUOTE_CHARS`] characters, `…` marking a cut.
fn shown_quote(quoted: &str, line: &str) -> String {
    let kept = if line.contains(quoted) || !quoted.chars().any(char::is_whitespace) {
        quoted
    } else {
        let ends = quoted.char_indices().map(|(i, _)| i).skip(1);
        let mut longest = "";
        for end in ends.chain([quoted.len()]) {
            if !line.contains(&quoted[..end]) {
                break;
            }
            longest = &quoted[..end];
        }
        longest
    };
    let cut = kept.len() < quoted.len() || kept.chars().nth(QUOTE_CHARS).is_some();
    let mut shown: String = kept.chars().take(QUOTE_CHARS).collect();
    if cut {
        shown.push('…');
    }
    shown
}

/// Where `source` first nests deeper than [`MAX_NESTING`] (1-based line and column), if it
/// does: a cheap scan that skips comments, quoted text and block scalars (`|`, `>`), and
/// counts open `[` `{` plus block levels (indentations, `- ` entries).
fn check_nesting(source: &str) -> Result<(), (usize, usize)> {
    let mut scan = Nesting::default();
    for (n, line) in source.lines().enumerate() {
        scan.line(line)
            .map_err(|b| (n + 1, line[..b].chars().count() + 1))?;
    }
    Ok(())
}

/// The state of [`check_nesting`] between lines.
#[derive(Default)]
struct Nesting {
    /// Open `[` and `{`.
    flow: usize,
    /// Inside a quoted scalar (`"` or `'`), which may run over lines.
    quote: Option<char>,
    /// The columns of the open block levels.
    indents: Vec<usize>,
    /// Inside a block scalar: lines more indented than this are its text.
    block: Option<usize>,
}

impl Nesting {
    /// One line; the error is the byte offset in it where the nesting goes too deep.
    fn line(&mut self, line: &str) -> Result<(), usize> {
        let indent = line.len() - line.trim_start_matches(' ').len();
        let blank = line.trim().is_empty();
        if let Some(parent) = self.block {
            if blank || indent > parent {
                return Ok(());
            }
            self.block = None;
        }
        if blank || (self.flow == 0 && self.quote.is_none() && line[indent..].starts_with('#')) {
            return Ok(());
        }
        if self.flow == 0 && self.quote.is_none() {
            self.block_levels(line, indent)?;
        }
        let mut prev = ' ';
        let mut last: Option<char> = None;
        let mut end = line.len();
        let mut chars = line.char_indices().peekable();
        while let Some((b, c)) = chars.next() {
            if let Some(q) = self.quote {
                let doubled = q == '\'' && chars.peek().is_some_and(|&(_, d)| d == '\'');
                if (c == '\\' && q == '"') || (c == q && doubled) {
                    // An escaped character, or `''` inside single quotes.
                    chars.next();
                } else if c == q {
                    self.quote = None;
                }
                prev = c;
                continue;
            }
            // A quote opens a scalar only where a value starts: first on the line, or after
            // `: `, `- `, `? `, `[`, `{` or `,` (`it's` is plain text).
            let token_start = (prev.is_whitespace() || matches!(prev, '[' | '{' | ','))
                && last.is_none_or(|l| matches!(l, ':' | '-' | '?' | '[' | '{' | ','));
            match c {
                '#' if prev.is_whitespace() => {
                    end = b;
                    break;
                }
                '"' | '\'' if token_start => self.quote = Some(c),
                '[' | '{' => {
                    self.flow += 1;
                    if self.flow + self.indents.len() > MAX_NESTING {
                        return Err(b);
                    }
                }
                ']' | '}' => self.flow = self.flow.saturating_sub(1),
                _ => {}
            }
            prev = c;
            if !c.is_whitespace() {
                last = Some(c);
            }
        }
        if self.flow == 0 && self.quote.is_none() && block_header(&line[..end]) {
            self.block = Some(indent);
        }
        Ok(())
    }

    /// The block levels a line opens: its indentation, then each `- ` entry it starts with.
    fn block_levels(&mut self, line: &str, indent: usize) -> Result<(), usize> {
        while self.indents.last().is_some_and(|&i| i > indent) {
            self.indents.pop();
        }
        let mut column = indent;
        loop {
            if self.indents.last().is_none_or(|&i| i < column) {
                self.indents.push(column);
                if self.indents.len() > MAX_NESTING {
                    return Err(column);
                }
            }
            let rest = &line[column..];
            if rest == "-" || rest.starts_with("- ") {
                column += 1 + rest[1..].len() - rest[1..].trim_start_matches(' ').len();
                if column >= line.len() {
                    return Ok(());
                }
            } else {
                return Ok(());
            }
        }
    }
}

/// Whether a line (without its comment) ends with a block scalar's header: `|` or `>` with
/// optional chomping and indentation indicators.
fn block_header(line: &str) -> bool {
    line.split_whitespace().last().is_some_and(|t| {
        t.starts_with(['|', '>']) && t[1..].chars().all(|c| matches!(c, '+' | '-' | '1'..='9'))
    })
}

/// Whether `source` is one YAML document, whatever it holds: syntax errors with their place.
pub fn check_syntax(file: &str, source: &str) -> Result<(), Diagnostic> {
    from_str::<serde::de::IgnoredAny>(file, source).map(|_| ())
}

/// The top-level keys of a YAML mapping, if `source` is one (used to tell file kinds apart).
pub fn top_level_keys(source: &str) -> Vec<String> {
    if guard("", source).is_err() {
        return Vec::new();
    }
    match serde_yaml::from_str::<serde_yaml::Value>(strip_bom(source)) {
        Ok(serde_yaml::Value::Mapping(m)) => m
            .keys()
            .filter_map(|k| k.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    }
}

/// The 1-based line and column of the first `key:` at or after line `from`, as a block key
/// (after indentation and an optional `- `) or inside a flow mapping (after `{` or `,`).
/// Used to point semantic errors at the field they are about, since the YAML reader keeps no
/// positions for values.
pub fn locate_key(source: &str, key: &str, from: usize) -> Option<(usize, usize)> {
    let wanted = format!("{key}:");
    source
        .lines()
        .enumerate()
        .skip(from.saturating_sub(1))
        .find_map(|(i, line)| {
            let mut search = 0;
            while let Some(found) = line[search..].find(&wanted) {
                let at = search + found;
                let before = line[..at].trim_end();
                let is_key = before.is_empty()
                    || before.ends_with(['{', ','])
                    || before.ends_with('-') && before.trim_start() == "-";
                if is_key {
                    return Some((i + 1, line[..at].chars().count() + 1));
                }
                search = at + wanted.len();
            }
            None
        })
}

/// The position of the first occurrence of `needle` at or after line `from` (1-based).
pub fn locate_text(source: &str, needle: &str, from: usize) -> Option<(usize, usize)> {
    source
        .lines()
        .enumerate()
        .skip(from.saturating_sub(1))
        .find_map(|(i, line)| {
            line.find(needle)
                .map(|b| (i + 1, line[..b].chars().count() + 1))
        })
}
