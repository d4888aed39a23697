//! Syntax errors in words: what pest expected at the furthest point it reached, with the
//! grammar's rules renamed into words a player understands.

use super::grammar::Rule;
use crate::text::diagnostic::Diagnostic;

/// Renames pest's expectations into words a player understands.
fn describe(rule: Rule) -> Option<&'static str> {
    use Rule::*;
    Some(match rule {
        step_number => "a step number",
        kw_name => "`name:`",
        kw_test => "`test`",
        line_end => "the end of the line",
        EOI => "the end of the file",
        move_instr | rotate_instr | fire | self_destruct | test_instr | reset | go_to
        | kw_forward | kw_back | kw_right | kw_left | kw_t | kw_fire | kw_explode | kw_raz
        | kw_go | move_word | turn_word => {
            "an instruction (`D+1`, `D-2`, `R+1`, `R-2`, `T`, `*`, `?1`, `RAZ`, `GO 3`)"
        }
        sign => "`+` or `-`",
        amount => "1 or 2",
        test_number => "a test number (1 to 4)",
        name_text => "a name",
        condition | disjunction | conjunction | negation | comparison | quantity | count
        | shots | damage | facing | in_camp | truth | presence | selector | subject | word
        | kw_not | kw_count | kw_shots | kw_damage | kw_destroyed | kw_facing | kw_in | kw_true
        | kw_false => {
            "a condition (such as `enemy ahead within 2`, `lake ahead 1`, `facing 3`, `count(enemy) > 1`, `not …`, `(…)`)"
        }
        kw_and | kw_or => "`and`, `or`",
        cmp_op => "a comparison (`=`, `!=`, `<`, `<=`, `>`, `>=`)",
        region | anywhere | here | ring_region | line_region | line_dir | within | at_distance
        | kw_anywhere | kw_here | kw_ahead | kw_behind | kw_direction | kw_within | kw_at
        | kw_ahead_right | kw_ahead_left | kw_behind_right | kw_behind_left => {
            "a place (`ahead`, `behind`, `right`, `left`, `behind-right`, `behind-left`, `direction 3`, `within 2`, `at 2`, `here`, `anywhere`)"
        }
        number | bare_distance => "a number",
        kw_camp => "`camp`",
        open_paren => "`(`",
        close_paren => "`)`",
        kw_steps => "`steps`",
        kw_to => "`to`",
        key_arg => "a number (a memory 0 to 7, a label 0 to 9)",
        memory | facing_value | negative => "a number or a memory (`x`, `t`, `R0` to `R7`)",
        _ => return None,
    })
}

pub(super) fn syntax_error(
    file: &str,
    source: &str,
    error: pest::error::Error<Rule>,
) -> Diagnostic {
    let offset = match error.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let mut wanted: Vec<&str> = Vec::new();
    if let pest::error::ErrorVariant::ParsingError { positives, .. } = &error.variant {
        for rule in positives {
            if let Some(words) = describe(*rule)
                && !wanted.contains(&words)
            {
                wanted.push(words);
            }
        }
    }
    if wanted.contains(&"the end of the line") {
        wanted.retain(|w| *w != "the end of the file");
    }
    if wanted.is_empty() {
        // Nothing could start here: at the start of a line, say what a line may hold.
        wanted.push("a step number, `test` or `name:`");
    }
    // `ROT+1`: `R` read as a turn, then `+` or `-` wanted inside a word: the whole word is
    // what is wrong, and an instruction is what was expected there.
    if wanted == ["`+` or `-`"] && inside_a_word(source, offset) {
        let start = word_start(source, offset);
        let word = found(source, start);
        let instruction = describe(Rule::move_instr).unwrap_or("an instruction");
        return Diagnostic::at_offset(
            file,
            source,
            start,
            format!("expected {instruction}, found {word}"),
        );
    }
    if let Some(message) = after_a_calculator_key(source, offset) {
        return Diagnostic::at_offset(
            file,
            source,
            offset,
            format!("{message}, found {}", found(source, offset)),
        );
    }
    let expected = match wanted.as_slice() {
        [] => unreachable!("at least one expectation"),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    };
    let misspelled = if wanted == ["a number"] {
        None
    } else {
        misspelled_before(source, offset)
    };
    if let Some((at, word, suggestion)) = misspelled {
        return Diagnostic::at_offset(
            file,
            source,
            at,
            format!("unknown word `{word}`: did you mean `{suggestion}`? (expected {expected})"),
        );
    }
    Diagnostic::at_offset(
        file,
        source,
        offset,
        format!("expected {expected}, found {}", found(source, offset)),
    )
}

/// What must follow `INV` or `x =` (the TI-57 keywords, RULES A.12), when that is what the
/// text before `offset` ends with.
fn after_a_calculator_key(source: &str, offset: usize) -> Option<&'static str> {
    let before = source.get(..offset)?.trim_end_matches([' ', '\t']);
    let last_word = |text: &str| {
        let start = text
            .char_indices()
            .rev()
            .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
            .map_or(0, |(i, c)| i + c.len_utf8());
        text[start..].to_ascii_lowercase()
    };
    if last_word(before) == "inv" {
        return Some(
            "expected what `INV` goes with: `SUM n`, `PRD n`, `SBR`, `DSZ`, `C.t`, `x=t` or `x>=t` (RULES A.12)",
        );
    }
    let head = before.strip_suffix('=')?.trim_end_matches([' ', '\t']);
    (last_word(head) == "x").then_some(
        "expected what `x =` senses: a number, `count(…)`, `shots`, `damage`, `facing` or a memory (`t`, `R0` to `R7`) (R-A27)",
    )
}

/// Every word of the language, as written in docs/LANGUAGE.md (lower case).
const WORDS: &[&str] = &[
    // instructions
    "t",
    "fire",
    "shoot",
    "explode",
    "self-destruct",
    "forward",
    "fwd",
    "back",
    "backward",
    "right",
    "left",
    "raz",
    "reset",
    "go",
    "goto",
    "to",
    "test",
    "name",
    // conditions
    "and",
    "or",
    "not",
    "count",
    "shots",
    "damage",
    "destroyed",
    "steps",
    "facing",
    "in",
    "true",
    "false",
    // places
    "anywhere",
    "here",
    "ahead",
    "behind",
    "ahead-right",
    "ahead-left",
    "behind-right",
    "behind-left",
    "direction",
    "within",
    "at",
    "distance",
    // things
    "enemy",
    "enemies",
    "friend",
    "friends",
    "ally",
    "allies",
    "any",
    "robot",
    "robots",
    "lake",
    "lakes",
    "lightning",
    "edge",
    "plain",
    "camp",
    "camps",
    "computer",
    "computers",
    "shape",
    "shapes",
    "square",
    "squares",
    "triangle",
    "triangles",
    "circle",
    "circles",
    "own",
    "my",
    "home",
    "friendly",
    // colours
    "green",
    "violet",
    "red",
    "blue",
    "yellow",
    "orange",
    "black",
];

/// The word of the language `word` was most likely meant to be: its halves swapped
/// (`left-ahead` → `ahead-left`), or the nearest word one edit away (two for words of five
/// letters or more; a swap of two letters is one edit). `None` for a word of the language.
pub(super) fn did_you_mean(word: &str) -> Option<&'static str> {
    let lower = word.to_ascii_lowercase();
    if lower.len() > 40 || WORDS.contains(&lower.as_str()) {
        return None;
    }
    if let Some((a, b)) = lower.split_once('-') {
        let swapped = format!("{b}-{a}");
        if let Some(w) = WORDS.iter().find(|w| **w == swapped) {
            return Some(w);
        }
    }
    let most = if lower.chars().count() >= 5 { 2 } else { 1 };
    WORDS
        .iter()
        // Two-letter words (`to`, `or`, `at`) are too near to everything to be a good guess.
        .filter(|w| w.len() > 2)
        .map(|w| (edits(&lower, w), *w))
        .filter(|(d, _)| *d <= most)
        .min_by_key(|(d, _)| *d)
        .map(|(_, w)| w)
}

/// Edits from `a` to `b`: insertions, deletions, substitutions, and swaps of two adjacent
/// letters (optimal string alignment distance).
fn edits(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '-'
}

fn inside_a_word(source: &str, offset: usize) -> bool {
    let before = source.get(..offset).and_then(|s| s.chars().next_back());
    let at = source.get(offset..).and_then(|s| s.chars().next());
    before.is_some_and(char::is_alphabetic) && at.is_some_and(char::is_alphabetic)
}

fn word_start(source: &str, offset: usize) -> usize {
    source[..offset]
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_alphabetic())
        .last()
        .map_or(offset, |(i, _)| i)
}

/// The nearest word on the line, at `offset` or before it, that is not a word of the
/// language but is close to one: where it starts, the word, and the suggestion.
fn misspelled_before(source: &str, offset: usize) -> Option<(usize, String, &'static str)> {
    let offset = offset.min(source.len());
    if !source.is_char_boundary(offset) {
        return None;
    }
    let line_start = source[..offset].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let line_end = source[offset..]
        .find(['\n', '\r'])
        .map_or(source.len(), |i| offset + i);
    let line = &source[line_start..line_end];
    let code = line
        .find('#')
        .into_iter()
        .chain(line.find("//"))
        .min()
        .map_or(line, |c| &line[..c]);
    let mut words = Vec::new();
    let mut start = None;
    for (i, c) in code.char_indices().chain([(code.len(), ' ')]) {
        if is_word_char(c) {
            start.get_or_insert(i);
        } else if let Some(s) = start.take() {
            words.push((line_start + s, &code[s..i]));
        }
    }
    words
        .into_iter()
        .rev()
        .filter(|(at, _)| *at <= offset)
        .take(3)
        .filter(|(_, w)| !w.starts_with(|c: char| c.is_ascii_digit()))
        .find_map(|(at, w)| did_you_mean(w).map(|s| (at, w.to_string(), s)))
}

/// The text at `offset`, as an error message quotes it.
fn found(source: &str, offset: usize) -> String {
    let rest = source.get(offset..).unwrap_or("");
    match rest.chars().next() {
        None => "the end of the file".into(),
        Some('\n' | '\r') => "the end of the line".into(),
        Some(c) if c.is_alphanumeric() => {
            let word: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .take(20)
                .collect();
            format!("`{word}`")
        }
        Some(c) if c.is_control() => format!("the character U+{:04X}", c as u32),
        Some(c) => format!("`{c}`"),
    }
}

#[cfg(test)]
mod tests {
    use super::did_you_mean;

    #[test]
    fn suggestions_come_from_the_words_of_the_language() {
        assert_eq!(did_you_mean("ahaed"), Some("ahead"));
        assert_eq!(did_you_mean("AHAED"), Some("ahead"));
        assert_eq!(did_you_mean("left-ahead"), Some("ahead-left"));
        assert_eq!(did_you_mean("lighting"), Some("lightning"));
        assert_eq!(did_you_mean("enemi"), Some("enemy"));
        assert_eq!(did_you_mean("withn"), Some("within"));
        // Words of the language, and words near nothing, get no suggestion.
        assert_eq!(did_you_mean("ahead"), None);
        assert_eq!(did_you_mean("two"), None);
        assert_eq!(did_you_mean("hexagon"), None);
        assert_eq!(did_you_mean(&"x".repeat(1000)), None);
    }
}
