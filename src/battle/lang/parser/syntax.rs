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
    let expected = match wanted.as_slice() {
        [] => unreachable!("at least one expectation"),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    };
    Diagnostic::at_offset(
        file,
        source,
        offset,
        format!("expected {expected}, found {}", found(source, offset)),
    )
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
