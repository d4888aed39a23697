//! A user-facing error: where (file:line:col), what was wrong, and the source line with a caret.

use crate::text::{EXCERPT_CHARS, MAX_INPUT_BYTES, escape, escape_keeping};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub file: String,
    /// 1-based line and column (columns count characters, not bytes).
    pub line: usize,
    pub col: usize,
    pub message: String,
    /// The offending source line, shown with a caret under `col`.
    pub source_line: Option<String>,
    /// An error (the file is refused) or a warning (it loads, but will misbehave).
    pub severity: Severity,
    /// A stable id for warnings (`W-stall`, docs/LANGUAGE.md), for editors and filters.
    pub id: Option<&'static str>,
    /// Where the located text ends (line, column), when it is more than one point (32 bits
    /// each, to keep `Result<_, Diagnostic>` small).
    pub end: Option<(u32, u32)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

impl Severity {
    pub fn word(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

impl Diagnostic {
    /// A diagnostic at byte offset `offset` of `source`.
    pub fn at_offset(file: &str, source: &str, offset: usize, message: impl Into<String>) -> Self {
        let (line, col) = line_col(source, offset);
        Self::at(file, source, line, col, message)
    }

    /// A diagnostic about a whole file (it cannot be read, say): no line to point at.
    pub fn whole_file(file: &str, message: impl Into<String>) -> Self {
        Diagnostic {
            file: file.to_string(),
            line: 0,
            col: 0,
            message: message.into(),
            source_line: None,
            severity: Severity::Error,
            id: None,
            end: None,
        }
    }

    /// A warning with its id, over the byte range `start..end` of `source`.
    pub fn warning(
        file: &str,
        source: &str,
        (start, end): (usize, usize),
        id: &'static str,
        message: impl Into<String>,
    ) -> Self {
        let mut d = Self::at_offset(file, source, start, message);
        d.severity = Severity::Warning;
        d.id = Some(id);
        let (line, col) = line_col(source, end.max(start));
        let small = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        d.end = Some((small(line), small(col)));
        d
    }

    /// A diagnostic at a 1-based line and column of `source`.
    pub fn at(
        file: &str,
        source: &str,
        line: usize,
        col: usize,
        message: impl Into<String>,
    ) -> Self {
        let source_line = source.lines().nth(line.saturating_sub(1)).map(|l| {
            // Control characters (binary input) would garble the terminal: show them as �.
            l.trim_end_matches('\r')
                .chars()
                .map(|c| {
                    if c.is_control() && c != '\t' {
                        '\u{FFFD}'
                    } else {
                        c
                    }
                })
                .collect()
        });
        Diagnostic {
            file: file.to_string(),
            line: line.max(1),
            col: col.max(1),
            message: message.into(),
            source_line,
            severity: Severity::Error,
            id: None,
            end: None,
        }
    }
}

impl Diagnostic {
    /// The diagnostic with nothing of the file's content: no source line, and every quoted
    /// piece of its message (`"…"`, `` `…` ``) emptied to `…`. For a file outside the folder
    /// of the file that named it (docs/FORMATS.md, "Excerpts").
    #[must_use]
    pub fn without_content(mut self) -> Diagnostic {
        self.source_line = None;
        self.message = without_quotes(&self.message);
        self
    }
}

/// `message` with every quoted piece (`"…"` or `` `…` ``) emptied to `…`.
pub fn without_quotes(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in message.chars() {
        match quote {
            None => {
                out.push(c);
                if c == '"' || c == '`' {
                    quote = Some(c);
                    out.push('…');
                }
            }
            Some(_) if escaped => escaped = false,
            Some('"') if c == '\\' => escaped = true,
            Some(q) if c == q => {
                out.push(c);
                quote = None;
            }
            Some(_) => {}
        }
    }
    if let Some(q) = quote {
        out.push(q);
    }
    out
}

impl Diagnostic {
    /// One line of JSON for editors: file, line, column, end, severity, id, message. A
    /// diagnostic about a whole file has line and column 0.
    pub fn json(&self) -> String {
        #[derive(serde::Serialize)]
        struct Place {
            line: usize,
            column: usize,
        }
        #[derive(serde::Serialize)]
        struct Line<'a> {
            file: &'a str,
            line: usize,
            column: usize,
            end: Place,
            severity: &'static str,
            id: Option<&'static str>,
            message: &'a str,
        }
        let (line, column) = self.end.map_or((self.line, self.col), |(l, c)| {
            (
                usize::try_from(l).unwrap_or(usize::MAX),
                usize::try_from(c).unwrap_or(usize::MAX),
            )
        });
        let doc = Line {
            file: &self.file,
            line: self.line,
            column: self.col,
            end: Place { line, column },
            severity: self.severity.word(),
            id: self.id,
            message: &self.message,
        };
        serde_json::to_string(&doc).unwrap_or_default()
    }
}

/// 1-based line and character column of a byte offset (clamped to the text).
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(source.len());
    while !source.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &source[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = source[line_start..offset].chars().count() + 1;
    (line, col)
}

impl fmt::Display for Diagnostic {
    /// Text from the file is shown escaped (docs/FORMATS.md): the file name and the message
    /// with control characters made visible (a message keeps its line breaks: it may hold a
    /// nested diagnostic), the source line cut to a window of [`EXCERPT_CHARS`] around the
    /// caret.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = escape(&self.file);
        let message = escape_keeping(&self.message, &['\n']);
        let kind = match self.id {
            Some(id) => format!("{}[{id}]", self.severity.word()),
            None => self.severity.word().to_string(),
        };
        if self.line == 0 {
            return write!(f, "{file}: {kind}: {message}");
        }
        write!(f, "{file}:{}:{}: {kind}: {message}", self.line, self.col)?;
        if let Some(line) = &self.source_line {
            let (text, before) = window(line, self.col - 1);
            // Tabs are kept so the caret lines up with the text as the terminal shows it.
            let pad: String = text
                .chars()
                .take(before)
                .map(|c| if c == '\t' { '\t' } else { ' ' })
                .collect();
            let text = escape_keeping(&text, &['\t']);
            let gutter = " ".repeat(self.line.to_string().len());
            write!(f, "\n{gutter} |\n{} | {text}\n{gutter} | {pad}^", self.line)?;
        }
        Ok(())
    }
}

/// At most [`EXCERPT_CHARS`] characters of `line` around character `at`, `…` marking what
/// is cut, and how many characters of the window come before `at`.
fn window(line: &str, at: usize) -> (String, usize) {
    let count = line.chars().count();
    if count <= EXCERPT_CHARS {
        return (line.to_string(), at);
    }
    let width = EXCERPT_CHARS - 2;
    let start = if at < width / 2 {
        0
    } else {
        (at - width / 2).min(count - width)
    };
    let mut text = String::new();
    if start > 0 {
        text.push('…');
    }
    text.extend(line.chars().skip(start).take(width));
    if start + width < count {
        text.push('…');
    }
    (text, at - start + usize::from(start > 0))
}

impl std::error::Error for Diagnostic {}

/// The error for a file over [`MAX_INPUT_BYTES`].
pub fn too_large(file: &str) -> Diagnostic {
    Diagnostic::whole_file(
        file,
        format!(
            "the file is larger than {} MiB, the most robots reads",
            MAX_INPUT_BYTES >> 20
        ),
    )
}

/// Text from raw bytes, or a diagnostic pointing at the first byte that is not UTF-8.
/// Files over [`MAX_INPUT_BYTES`] are refused; a leading byte order mark is dropped.
pub fn text_from_bytes(file: &str, mut bytes: Vec<u8>) -> Result<String, Diagnostic> {
    if bytes.len() > MAX_INPUT_BYTES {
        return Err(too_large(file));
    }
    if bytes.starts_with(b"\xef\xbb\xbf") {
        bytes.drain(..3);
    }
    String::from_utf8(bytes).map_err(|e| {
        let valid = e.utf8_error().valid_up_to();
        let prefix = String::from_utf8_lossy(&e.as_bytes()[..valid]).into_owned();
        let (line, col) = line_col(&prefix, valid);
        Diagnostic {
            file: file.to_string(),
            line,
            col,
            message: "this is not a text file: expected UTF-8 text, found a byte that is not"
                .into(),
            source_line: None,
            severity: Severity::Error,
            id: None,
            end: None,
        }
    })
}

/// The line `robots check` prints for a file that loads: what it is, and how many warnings it
/// has, escaped for the terminal (the names in it come from the file).
pub fn checked_line(line: &str, warnings: usize) -> String {
    let with = match warnings {
        0 => String::new(),
        1 => ", 1 warning".into(),
        n => format!(", {n} warnings"),
    };
    escape(&format!("{line}{with}")).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caret_points_at_the_column() {
        let d = Diagnostic::at_offset("p.robot", "1: T\n2: X+1\n", 8, "expected an instruction");
        assert_eq!((d.line, d.col), (2, 4));
        assert_eq!(
            d.to_string(),
            "p.robot:2:4: error: expected an instruction\n  |\n2 | 2: X+1\n  |    ^"
        );
    }

    #[test]
    fn binary_input_is_located() {
        let d = text_from_bytes("b", b"ab\ncd\xff".to_vec()).unwrap_err();
        assert_eq!((d.line, d.col), (2, 3));
    }
}
