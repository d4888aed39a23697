//! Text plumbing shared by the three games: located [`diagnostic`]s, [`yaml`] (the only
//! module that names the YAML crate), the [`confine`] policy for paths a file names, and the
//! limits and escapes every file from a stranger goes through (docs/FORMATS.md, "Limits and
//! untrusted files").

pub mod confine;
pub mod diagnostic;
pub mod lines;
pub mod palette;
pub mod svg;
pub mod yaml;

use std::borrow::Cow;

/// The largest input file read, in bytes (4 MiB): readers stop after one byte more.
pub const MAX_INPUT_BYTES: usize = 4 * 1024 * 1024;

/// How many characters of an input an error quotes at most.
pub const EXCERPT_CHARS: usize = 120;

/// Whether `c` would act on a terminal instead of showing: control characters (U+0085, the
/// next-line mark, among them), the line and paragraph separators U+2028 and U+2029, and
/// the marks that reorder text (bidirectional overrides and isolates).
fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
                | '\u{2028}' | '\u{2029}'
        )
}

/// Text from a file made safe to print: every control character (and every mark that
/// reorders text) written visibly, `\u{1b}` for an escape, `\n` for a line break.
pub fn escape(text: &str) -> Cow<'_, str> {
    escape_keeping(text, &[])
}

/// [`escape`], keeping the characters in `keep` as they are (line breaks in messages that
/// hold a nested diagnostic, tabs in source lines).
pub fn escape_keeping<'a>(text: &'a str, keep: &[char]) -> Cow<'a, str> {
    if !text.chars().any(|c| hidden(c) && !keep.contains(&c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if !hidden(c) || keep.contains(&c) {
            out.push(c);
            continue;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            _ => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
        }
    }
    Cow::Owned(out)
}

/// At most `max` characters of `text`: longer text is cut, and ends with `…`.
pub fn excerpt(text: &str, max: usize) -> Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => Cow::Borrowed(text),
        Some(_) => {
            let keep: String = text.chars().take(max.saturating_sub(1)).collect();
            Cow::Owned(keep + "…")
        }
    }
}

/// `text` without a leading UTF-8 byte order mark (some editors write one).
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// `1 move`, `3 moves`: a count and its noun, singular or plural (the noun takes an `s`,
/// or `es` after s, x, ch and sh: `2 matches`, `3 losses`).
pub fn count(n: impl TryInto<u64>, noun: &str) -> String {
    let n: u64 = n.try_into().unwrap_or(u64::MAX);
    if n == 1 {
        return format!("1 {noun}");
    }
    let es = ["s", "x", "ch", "sh"].iter().any(|end| noun.ends_with(end));
    format!("{n} {noun}{}", if es { "es" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_say_one_or_many() {
        assert_eq!(count(1, "program"), "1 program");
        assert_eq!(count(2, "match"), "2 matches");
        assert_eq!(count(3u32, "loss"), "3 losses");
        assert_eq!(count(0, "win"), "0 wins");
    }

    #[test]
    fn counts_agree_with_their_nouns() {
        assert_eq!(count(1u8, "move"), "1 move");
        assert_eq!(count(0usize, "step"), "0 steps");
        assert_eq!(count(25u32, "move"), "25 moves");
    }

    #[test]
    fn escapes_are_visible() {
        assert_eq!(escape("\u{1b}[2Jx"), "\\u{1b}[2Jx");
        assert_eq!(escape("a\nb"), "a\\nb");
        assert_eq!(escape_keeping("a\nb\u{7}", &['\n']), "a\nb\\u{7}");
        assert_eq!(escape("plain"), "plain");
    }

    #[test]
    fn excerpts_are_cut() {
        assert_eq!(excerpt("abcdef", 4), "abc…");
        assert_eq!(excerpt("abcd", 4), "abcd");
    }
}
