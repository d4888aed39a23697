//! Parses program text into a [`Program`]: pest pairs are walked here and never leave this
//! module (`syntax.rs` words pest's syntax errors).
//!
//! Two kinds of errors come out, both as a [`Diagnostic`] in words: syntax errors (what was
//! expected at the furthest point pest reached, with grammar rules renamed into words) and
//! semantic errors (steps out of order, past the limit, `GO` to a missing step, R-A16, …).

use super::ast::*;
use crate::text::diagnostic::Diagnostic;
use pest::Parser;
use pest::iterators::Pair;

mod calc;
mod condition;
mod grammar;
mod syntax;

use grammar::{RobotParser, Rule};

use syntax::syntax_error;

type Result<T> = std::result::Result<T, Diagnostic>;

/// The default program length (RULES A.11: `rules.program_steps`).
pub const DEFAULT_PROGRAM_STEPS: usize = 15;
/// The longest program the engine accepts: destroyed steps are bits 1..=63 of a `u64`.
pub const MAX_PROGRAM_STEPS: usize = 63;

/// How deep a condition may nest: parentheses and `not`s together. Parsing, answering and
/// dropping a condition recurse once a level, so the limit bounds the stack; no sensible test
/// comes near it.
pub const MAX_NESTING: usize = 64;

/// Parses and checks one program of the plain language (RULES A.4) of at most `max_steps`
/// steps.
pub fn parse_program(file: &str, source: &str, max_steps: usize) -> Result<Program> {
    parse_program_in(file, source, max_steps, Keywords::Plain)
}

/// Parses and checks one program of at most `max_steps` steps written with `keywords`: a
/// TI-57 keyword or memory in a plain program is refused where it stands, naming the rule
/// (RULES A.12).
pub fn parse_program_in(
    file: &str,
    source: &str,
    max_steps: usize,
    keywords: Keywords,
) -> Result<Program> {
    let walker = Walker::new(file, source, keywords);
    check_nesting(&walker)?;
    let mut pairs =
        RobotParser::parse(Rule::program, source).map_err(|e| syntax_error(file, source, e))?;
    let Some(root) = pairs.next() else {
        return Err(walker.error_at(0, "expected a program"));
    };
    let mut name = None;
    let mut steps: Vec<Step> = Vec::new();
    // Every step number in the file, so an out-of-order step can be told from a missing one.
    let numbers: Vec<usize> = root
        .clone()
        .into_inner()
        .filter(|p| p.as_rule() == Rule::step)
        .filter_map(|p| p.into_inner().next()?.as_str().parse().ok())
        .collect();
    let mut tests: [Option<TestDef>; 4] = Default::default();
    for item in root.into_inner() {
        match item.as_rule() {
            Rule::name_decl => {
                let start = item.as_span().start();
                if name.is_some() {
                    return Err(walker.error_at(start, "the program already has a name"));
                }
                let text = item.into_inner().find(|p| p.as_rule() == Rule::name_text);
                name = text.map(|p| p.as_str().trim().to_string());
            }
            Rule::step => steps.push(walker.step(item, max_steps, &steps, &numbers)?),
            Rule::test_def => {
                let def = walker.test_def(item)?;
                let slot = usize::from(def.number - 1);
                if let Some(first) = &tests[slot] {
                    let (line, _) = crate::text::diagnostic::line_col(source, first.span.start);
                    return Err(walker.error_at(
                        def.span.start,
                        format!(
                            "test {} is defined twice (first on line {line})",
                            def.number
                        ),
                    ));
                }
                tests[slot] = Some(def);
            }
            _ => {}
        }
    }
    let calc = walker.calc.into_inner();
    let program = Program {
        name,
        steps,
        tests,
        calc,
    };
    Walker::new(file, source, keywords).check_references(&program)?;
    Ok(program)
}

/// ` (did you mean `ahead`?)` for a misspelled word of the language, else nothing.
fn hint(word: &str) -> String {
    syntax::did_you_mean(word).map_or(String::new(), |w| format!(" (did you mean `{w}`?)"))
}

/// Parses a condition on its own (the `when:` of a conditional signal, R-A15), in the plain
/// language.
pub fn parse_condition(file: &str, source: &str) -> Result<Condition> {
    parse_condition_in(file, source, Keywords::Plain)
}

/// Parses a condition on its own; with the TI-57 keywords it may compare memories (R-A28).
pub fn parse_condition_in(file: &str, source: &str, keywords: Keywords) -> Result<Condition> {
    let walker = Walker::new(file, source, keywords);
    check_nesting(&walker)?;
    let mut pairs = RobotParser::parse(Rule::condition_only, source)
        .map_err(|e| syntax_error(file, source, e))?;
    let cond = pairs
        .next()
        .and_then(|root| root.into_inner().find(|p| p.as_rule() == Rule::condition));
    match cond {
        Some(c) => {
            let start = c.as_span().start();
            let condition = walker.condition(c)?;
            walker.check_terms(&condition, start)?;
            Ok(condition)
        }
        None => Err(walker.error_at(0, "expected a condition")),
    }
}

/// Refuses, before the grammar recurses into it, a line whose conditions nest deeper than
/// [`MAX_NESTING`]: the depth is the open parentheses plus the `not`s met on the line
/// (comments aside), an upper bound of the nesting the parser would build.
fn check_nesting(walker: &Walker<'_>) -> Result<()> {
    let mut start = 0;
    for line in walker.source.split_inclusive(['\n', '\r']) {
        let code = line
            .find('#')
            .into_iter()
            .chain(line.find("//"))
            .min()
            .map_or(line, |cut| &line[..cut]);
        let (mut parens, mut nots, mut word_start) = (0usize, 0usize, None);
        for (i, c) in code.char_indices().chain([(code.len(), ' ')]) {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                word_start.get_or_insert(i);
                continue;
            }
            if let Some(w) = word_start.take() {
                nots += usize::from(code[w..i].eq_ignore_ascii_case("not"));
            }
            match c {
                '(' => parens += 1,
                ')' => parens = parens.saturating_sub(1),
                _ => {}
            }
            if parens + nots > MAX_NESTING {
                return Err(walker.error_at(
                    start + i,
                    format!(
                        "this condition nests more than {MAX_NESTING} deep (parentheses and `not`s together): write it flatter"
                    ),
                ));
            }
        }
        start += line.len();
    }
    Ok(())
}

struct Walker<'a> {
    file: &'a str,
    source: &'a str,
    keywords: Keywords,
    /// The TI-57 tables, filled as steps and conditions are walked.
    calc: std::cell::RefCell<CalcTables>,
}

fn span_of(pair: &Pair<Rule>) -> Span {
    Span {
        start: pair.as_span().start(),
        end: pair.as_span().end(),
    }
}

impl<'a> Walker<'a> {
    fn new(file: &'a str, source: &'a str, keywords: Keywords) -> Walker<'a> {
        Walker {
            file,
            source,
            keywords,
            calc: std::cell::RefCell::default(),
        }
    }

    /// A TI-57 keyword or memory (`what`) at `pair`: refused without the rule, else noted as
    /// the program's first use if it is.
    fn ti57(&self, pair: &Pair<Rule>, what: &str) -> Result<()> {
        if self.keywords == Keywords::Plain {
            return Err(self.error(
                pair,
                format!("{what} belongs to the TI-57 keywords, an optional rule: turn it on with `keywords: ti57` under `rules:` in the match file, or `--keywords ti57` (RULES A.12)"),
            ));
        }
        let mut calc = self.calc.borrow_mut();
        if calc.first_use.is_none() {
            calc.first_use = Some(span_of(pair));
        }
        Ok(())
    }

    fn error_at(&self, offset: usize, message: impl Into<String>) -> Diagnostic {
        Diagnostic::at_offset(self.file, self.source, offset, message)
    }

    fn error(&self, pair: &Pair<Rule>, message: impl Into<String>) -> Diagnostic {
        self.error_at(pair.as_span().start(), message)
    }

    fn number(&self, pair: &Pair<Rule>) -> Result<u32> {
        pair.as_str()
            .trim()
            .parse()
            .map_err(|_| self.error(pair, format!("the number `{}` is too large", pair.as_str())))
    }

    fn step(
        &self,
        pair: Pair<Rule>,
        max_steps: usize,
        before: &[Step],
        all: &[usize],
    ) -> Result<Step> {
        let span = span_of(&pair);
        let mut inner = pair.into_inner();
        let number_pair = inner
            .next()
            .expect("grammar: a step starts with its number");
        let number = usize::try_from(self.number(&number_pair)?).unwrap_or(usize::MAX);
        let expected = before.len() + 1;
        if number == 0 {
            return Err(self.error(&number_pair, "steps are numbered from 1"));
        }
        if number > max_steps {
            return Err(self.error(
                &number_pair,
                format!("step {number} is past the program limit of {max_steps} steps (rules.program_steps)"),
            ));
        }
        if let Some(first) = before.iter().find(|s| s.number == number) {
            let (line, _) = crate::text::diagnostic::line_col(self.source, first.span.start);
            return Err(self.error(
                &number_pair,
                format!("step {number} is written twice (first on line {line})"),
            ));
        }
        if number < expected {
            return Err(self.error(
                &number_pair,
                format!(
                    "step {number} comes after step {}: steps must be written in order",
                    expected - 1
                ),
            ));
        }
        if number > expected {
            let message = if all[before.len()..].contains(&expected) {
                format!(
                    "step {number} comes before step {expected}: steps must be written in order"
                )
            } else {
                format!("step {expected} is missing: steps are numbered 1, 2, 3, … without gaps")
            };
            return Err(self.error(&number_pair, message));
        }
        let instr_pair = inner.next().expect("grammar: a step has an instruction");
        let instruction = self.instruction(instr_pair, number)?;
        Ok(Step {
            number,
            instruction,
            span,
        })
    }

    fn instruction(&self, pair: Pair<Rule>, number: usize) -> Result<Instruction> {
        let rule = pair.as_rule();
        let parts: Vec<Pair<Rule>> = pair.clone().into_inner().collect();
        match rule {
            Rule::move_instr | Rule::rotate_instr => {
                let (sign, amount_pair) = match parts.as_slice() {
                    [s, a] if s.as_rule() == Rule::sign => {
                        (if s.as_str() == "-" { -1 } else { 1 }, a)
                    }
                    [w, a] => {
                        let back = w
                            .clone()
                            .into_inner()
                            .any(|k| matches!(k.as_rule(), Rule::kw_back | Rule::kw_left));
                        (if back { -1 } else { 1 }, a)
                    }
                    _ => unreachable!("grammar: sign and amount"),
                };
                let amount = self.number(amount_pair)?;
                let what = if rule == Rule::move_instr {
                    "a move goes 1 or 2 hexes"
                } else {
                    "a rotation turns 1 or 2 sixths"
                };
                if !(1..=2).contains(&amount) {
                    return Err(self.error(amount_pair, format!("{what}, not {amount}")));
                }
                let value = sign * i8::try_from(amount).expect("checked: 1 or 2");
                Ok(if rule == Rule::move_instr {
                    Instruction::Move(value)
                } else {
                    Instruction::Rotate(value)
                })
            }
            Rule::fire => Ok(Instruction::Fire),
            Rule::self_destruct => Ok(Instruction::SelfDestruct),
            Rule::reset => {
                if pair.as_str().trim().eq_ignore_ascii_case("RST") {
                    self.ti57(&pair, "`RST`")?;
                }
                Ok(Instruction::Reset)
            }
            Rule::test_instr => {
                let n = parts
                    .iter()
                    .find(|p| p.as_rule() == Rule::test_number)
                    .expect("grammar");
                Ok(Instruction::Test(self.test_number(n)?))
            }
            Rule::go_to => {
                let n = parts
                    .iter()
                    .find(|p| p.as_rule() == Rule::step_number)
                    .expect("grammar");
                let target = self.number(n)?;
                let step = usize::try_from(target)
                    .ok()
                    .filter(|t| (1..=MAX_PROGRAM_STEPS).contains(t))
                    .and_then(|t| u8::try_from(t).ok())
                    .ok_or_else(|| {
                        self.error(n, format!("GO {target}: there is no step {target}"))
                    })?;
                Ok(Instruction::Go(step))
            }
            _ => self.key(pair, number).map(Instruction::Calc),
        }
    }

    fn test_number(&self, pair: &Pair<Rule>) -> Result<u8> {
        let n = self.number(pair)?;
        u8::try_from(n)
            .ok()
            .filter(|n| (1..=4).contains(n))
            .ok_or_else(|| self.error(pair, format!("there are tests 1 to 4 only, not {n}")))
    }

    fn test_def(&self, pair: Pair<Rule>) -> Result<TestDef> {
        let span = span_of(&pair);
        let mut number = None;
        let mut condition = None;
        let mut text = String::new();
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::test_number => number = Some(self.test_number(&p)?),
                Rule::condition => {
                    // The pair may run over a trailing comment; keep the condition only.
                    let raw = p.as_str();
                    let cut = [raw.find('#'), raw.find("//")]
                        .into_iter()
                        .flatten()
                        .min()
                        .unwrap_or(raw.len());
                    text = raw[..cut].trim().to_string();
                    let start = p.as_span().start();
                    let c = self.condition(p)?;
                    self.check_terms(&c, start)?;
                    condition = Some(c);
                }
                _ => {}
            }
        }
        match (number, condition) {
            (Some(number), Some(condition)) => Ok(TestDef {
                number,
                condition,
                text,
                span,
            }),
            _ => unreachable!("grammar: a test has a number and a condition"),
        }
    }

    /// Cross-references: `?n` needs test n (R-A16); `GO n` needs step n; `GTO n` and `SBR n`
    /// need `LBL n` (R-A24).
    fn check_references(&self, program: &Program) -> Result<()> {
        for step in &program.steps {
            match step.instruction {
                Instruction::Test(n) if program.tests[usize::from(n - 1)].is_none() => {
                    return Err(self.error_at(
                        self.instruction_offset(step),
                        format!("test {n} is used here but never defined: add a line `test {n}: <condition>` (R-A16)"),
                    ));
                }
                Instruction::Calc(key @ (Key::Goto(n) | Key::Call(n)))
                    if program.calc.labels[usize::from(n)].is_none() =>
                {
                    return Err(self.error_at(
                        self.instruction_offset(step),
                        format!("{}: the program has no `LBL {n}` (R-A24)", key.notation()),
                    ));
                }
                Instruction::Go(n) if usize::from(n) > program.len() => {
                    return Err(self.error_at(
                        self.instruction_offset(step),
                        format!(
                            "GO {n}: there is no step {n} (the program has {})",
                            crate::text::count(program.len(), "step")
                        ),
                    ));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Refuses a condition of more than [`MAX_TERMS`] questions.
    fn check_terms(&self, condition: &Condition, start: usize) -> Result<()> {
        let n = condition.terms();
        if n > MAX_TERMS {
            return Err(self.error_at(
                start,
                format!("this condition asks {n} questions (joined by `and`, `or`, `not`); at most {MAX_TERMS}: split it over the tests 1 to 4"),
            ));
        }
        Ok(())
    }

    /// Where the instruction of a step begins: after the number and its punctuation.
    fn instruction_offset(&self, step: &Step) -> usize {
        let text = &self.source[step.span.start..step.span.end];
        let skip = text
            .char_indices()
            .find(|&(_, c)| !(c.is_ascii_digit() || matches!(c, ':' | '.' | ')' | ' ' | '\t')))
            .map_or(0, |(i, _)| i);
        step.span.start + skip
    }
}
