//! The one place that knows the YAML crate: typed reading with located errors, and key lookup.

use crate::text::diagnostic::Diagnostic;
use serde::de::DeserializeOwned;

/// Reads `source` as a `T`, or a diagnostic at the line and column the YAML reader gave.
pub fn from_str<T: DeserializeOwned>(file: &str, source: &str) -> Result<T, Diagnostic> {
    serde_yaml::from_str(source).map_err(|e| {
        let (line, col) = e.location().map_or((1, 1), |l| (l.line(), l.column()));
        let mut message = e.to_string();
        // The reader appends its own "at line L column C"; the diagnostic already says where.
        if let Some(cut) = message.find(" at line ") {
            message.truncate(cut);
        }
        Diagnostic::at(file, source, line, col, message)
    })
}

/// Whether `source` is one YAML document, whatever it holds: syntax errors with their place.
pub fn check_syntax(file: &str, source: &str) -> Result<(), Diagnostic> {
    from_str::<serde::de::IgnoredAny>(file, source).map(|_| ())
}

/// The top-level keys of a YAML mapping, if `source` is one (used to tell file kinds apart).
pub fn top_level_keys(source: &str) -> Vec<String> {
    match serde_yaml::from_str::<serde_yaml::Value>(source) {
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
