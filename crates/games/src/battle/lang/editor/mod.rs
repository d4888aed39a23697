//! What an editor asks about a program (`robots lsp`, docs/EDITORS.md): diagnostics, hover,
//! definitions, symbols, completion and formatting, each a function of the text and a
//! position. Pure, no I/O, so that a fuzz target drives it. Positions are the editor
//! protocol's: 0-based lines, columns in UTF-16 code units.
//!
//! Diagnostics are `robots check`'s, from the same parser and lints (one source of truth).
//! Hover, definitions, symbols and formatting read the program with the TI-57 keywords
//! and the longest program the engine takes, so that they answer for any loadable program
//! (the diagnostics say whether the keywords are allowed).

use crate::battle::compare::evolve::condition_text;
use crate::battle::files::match_file::{self, Fetcher};
use crate::battle::lang::ast::{Instruction, Key, Keywords, Program, Span};
use crate::battle::lang::parser::{MAX_PROGRAM_STEPS, parse_program_in};
use crate::text::confine::Confine;
use crate::text::diagnostic::{Diagnostic, Severity, line_col, too_large};
use crate::text::{MAX_INPUT_BYTES, strip_bom};
use words::{condition_words, does, instructions};

/// A place in a document: 0-based line, column in UTF-16 code units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Position {
    pub line: u32,
    pub character: u32,
}

/// From `start` to `end` (excluded).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Range {
    pub start: Position,
    pub end: Position,
}

/// A diagnostic placed for an editor: `robots check`'s words, id and severity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub range: Range,
    pub severity: Severity,
    /// The warning's id (`W-stall`); `None` for errors.
    pub id: Option<&'static str>,
    pub message: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    Name,
    Step,
    Test,
}

/// A step, a test or the program's name, for the outline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    pub detail: String,
    pub kind: SymbolKind,
    pub range: Range,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompletionKind {
    /// An instruction of a step.
    Instruction,
    /// A word of a test's condition.
    Word,
    /// The start of a line: `test n:`, `name:`, the next step.
    Line,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    pub label: String,
    pub detail: String,
    pub kind: CompletionKind,
}

/// The file name the diagnostics are computed under (it appears in none of their words).
const FILE: &str = "program.robot";

/// A document's text with its byte order mark set aside: what the parser reads, and how
/// its offsets map onto the editor's positions.
struct Doc<'a> {
    text: &'a str,
    /// The mark is one UTF-16 unit before line 0's columns.
    bom: u32,
    /// Where each line starts: a diagnostic is placed without reading the text again.
    starts: Vec<usize>,
}

impl<'a> Doc<'a> {
    /// `None` for a text over the input limit: it gets no analysis.
    fn new(source: &'a str) -> Option<Doc<'a>> {
        (source.len() <= MAX_INPUT_BYTES).then(|| {
            let text = strip_bom(source);
            Doc::of(text, text.len() != source.len())
        })
    }

    fn of(text: &'a str, bom: bool) -> Doc<'a> {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Doc {
            text,
            bom: u32::from(bom),
            starts,
        }
    }

    /// The text of a 1-based line, without its end.
    fn line(&self, line: usize) -> &'a str {
        let Some(&start) = self.starts.get(line.wrapping_sub(1)) else {
            return "";
        };
        let end = self.starts.get(line).map_or(self.text.len(), |&e| e - 1);
        self.text.get(start..end).unwrap_or("")
    }

    /// The position of a 1-based line and character column (as in a [`Diagnostic`]).
    fn place(&self, line: usize, col: usize) -> Position {
        let text = self.line(line);
        let units: usize = text
            .chars()
            .take(col.saturating_sub(1))
            .map(char::len_utf16)
            .sum();
        let line = line.saturating_sub(1);
        let extra = if line == 0 { self.bom } else { 0 };
        Position {
            line: small(line),
            character: small(units).saturating_add(extra),
        }
    }

    fn position(&self, offset: usize) -> Position {
        let (line, col) = line_col(self.text, offset);
        self.place(line, col)
    }

    fn range(&self, span: Span) -> Range {
        Range {
            start: self.position(span.start),
            end: self.position(span.end),
        }
    }

    /// The byte offset of a position, clamped to its line and to the text.
    fn offset(&self, pos: Position) -> usize {
        let text = self.text;
        let mut start = 0;
        for _ in 0..pos.line {
            match text[start..].find('\n') {
                Some(i) => start += i + 1,
                None => return text.len(),
            }
        }
        let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let wanted = usize::try_from(pos.character).unwrap_or(usize::MAX);
        let wanted = if pos.line == 0 {
            wanted.saturating_sub(usize::try_from(self.bom).unwrap_or(0))
        } else {
            wanted
        };
        let mut units = 0;
        for (i, c) in text[start..end].char_indices() {
            if units >= wanted {
                return start + i;
            }
            units += c.len_utf16();
        }
        end
    }

    /// The program, read in the widest language; `None` if it does not load.
    fn program(&self) -> Option<Program> {
        parse_program_in(FILE, self.text, MAX_PROGRAM_STEPS, Keywords::Ti57).ok()
    }

    fn note(&self, d: &Diagnostic) -> Note {
        let mut message = d.message.clone();
        let range = if d.line == 0 {
            Range::default()
        } else {
            let start = self.place(d.line, d.col);
            let end = match d.end {
                Some((l, c)) => self.place(
                    usize::try_from(l).unwrap_or(usize::MAX),
                    usize::try_from(c).unwrap_or(usize::MAX),
                ),
                None => self.word_end(d.line, d.col),
            };
            Range { start, end }
        };
        if d.severity == Severity::Error && message.is_empty() {
            message = "error".into();
        }
        Note {
            range,
            severity: d.severity,
            id: d.id,
            message,
        }
    }

    /// Where the word at a 1-based line and column ends: an error's squiggle.
    fn word_end(&self, line: usize, col: usize) -> Position {
        let text = self.line(line);
        let skip = col.saturating_sub(1);
        let word = text
            .chars()
            .skip(skip)
            .take_while(|c| !c.is_whitespace())
            .count();
        self.place(line, skip + word.max(1) + 1)
    }
}

/// The byte offset of a position in `source`, clamped to its line and to the text: where
/// an edit a client sends by range applies.
pub fn offset(source: &str, pos: Position) -> usize {
    let text = strip_bom(source);
    let bom = source.len() - text.len();
    Doc::of(text, bom > 0).offset(pos) + bom
}

/// The position just after the text's end: a whole-document edit ends there.
pub fn end(source: &str) -> Position {
    let text = strip_bom(source);
    let doc = Doc::of(text, text.len() != source.len());
    doc.position(text.len())
}

fn small(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Every error and warning `robots check --keywords KEYWORDS` gives for this program text,
/// in its words, placed for an editor. A text over the input limit gets one diagnostic
/// saying so.
pub fn diagnostics(source: &str, keywords: Keywords) -> Vec<Note> {
    let Some(doc) = Doc::new(source) else {
        return vec![too_large_note()];
    };
    let found = match match_file::parse_program_file_in(FILE, doc.text, keywords) {
        Ok(p) => match_file::program_warnings(FILE, doc.text, &p),
        Err(d) => vec![d],
    };
    found.iter().map(|d| doc.note(d)).collect()
}

fn too_large_note() -> Note {
    Note {
        range: Range::default(),
        severity: Severity::Error,
        id: None,
        message: too_large(FILE).message,
    }
}

/// Every error and warning `robots check` gives for a match file named `file`, the files
/// it names read through `fetch`. A diagnostic about another file (a program the match
/// names) is put on the first line, its place in words.
pub fn match_diagnostics(file: &str, source: &str, fetch: &Fetcher, confine: Confine) -> Vec<Note> {
    let Some(doc) = Doc::new(source) else {
        return vec![too_large_note()];
    };
    let found = match match_file::check_match_fetched(file, doc.text, fetch, confine) {
        Ok((_, warnings)) => warnings,
        Err(d) => vec![d],
    };
    found
        .iter()
        .map(|d| {
            if d.file == file {
                let mut d = d.clone();
                d.file = FILE.into();
                doc.note(&d)
            } else {
                let mut note = doc.note(&Diagnostic::whole_file(FILE, ""));
                note.severity = d.severity;
                note.id = d.id;
                note.message = format!("{}:{}:{}: {}", d.file, d.line, d.col, d.message);
                note
            }
        })
        .collect()
}

/// Where a step's reading goes next, in words, for a jump or a test.
fn goes(p: &Program, number: usize, i: Instruction) -> Option<String> {
    let step = |n: usize| match p.instruction(n) {
        Some(i) => format!("step {n} (`{}`)", p.notation(i)),
        None => format!("step {n}, which is empty: the robot idles (R-A10)"),
    };
    let label = |n: u8| match p.calc.labels.get(usize::from(n)).copied().flatten() {
        Some(s) => step(usize::from(s) + 1),
        None => format!("no `LBL {n}` is written"),
    };
    match i {
        Instruction::Go(n) => Some(format!("Goes to {}.", step(usize::from(n)))),
        Instruction::Reset => Some(format!("Goes to {}.", step(1))),
        Instruction::Test(n) => {
            let asked = match p
                .tests
                .get(usize::from(n).wrapping_sub(1))
                .and_then(Option::as_ref)
            {
                Some(t) => format!("test {n}: `{}`", t.text),
                None => format!("test {n}, which is not defined"),
            };
            Some(format!(
                "Asks {asked}. Yes: {}; no: {}.",
                step(number + 1),
                step(number + 2)
            ))
        }
        Instruction::Calc(Key::Goto(n) | Key::Call(n)) => Some(format!("Goes to {}.", label(n))),
        _ => None,
    }
}

/// What the step or test under the cursor does: its range and Markdown.
pub fn hover(source: &str, pos: Position) -> Option<(Range, String)> {
    let doc = Doc::new(source)?;
    let at = doc.offset(pos);
    let p = doc.program()?;
    if let Some(s) = p
        .steps
        .iter()
        .find(|s| s.span.start <= at && at <= s.span.end)
    {
        let (what, ruling) = does(s.instruction);
        let kind = if s.instruction.is_action() {
            "action: ends the robot's turn"
        } else {
            "control: reading goes on, and the loop guard counts it (R-A11)"
        };
        let mut text = format!(
            "**step {}** `{}` — {kind}\n\nIt {what}{}.",
            s.number,
            p.notation(s.instruction),
            ruling.map(|r| format!(" ({r})")).unwrap_or_default(),
        );
        if let Some(g) = goes(&p, s.number, s.instruction) {
            text.push_str(&format!("\n\n{g}"));
        }
        return Some((doc.range(s.span), text));
    }
    let t = p
        .tests
        .iter()
        .flatten()
        .find(|t| t.span.start <= at && at <= t.span.end)?;
    let askers: Vec<String> = p
        .steps
        .iter()
        .filter(|s| s.instruction == Instruction::Test(t.number))
        .map(|s| s.number.to_string())
        .collect();
    let asked = if askers.is_empty() {
        "asked by no step (W-unused-test)".to_string()
    } else {
        format!("asked by step {}", askers.join(", "))
    };
    let text = format!(
        "**test {}** `{}` — a yes/no question from the robot's own point of view (A.9), {asked}",
        t.number, t.text
    );
    Some((doc.range(t.span), text))
}

/// Where the `?n`, `GO n`, `GTO n` or `SBR n` under the cursor goes: test n's line, step
/// n, the label's step.
pub fn definition(source: &str, pos: Position) -> Option<Range> {
    let doc = Doc::new(source)?;
    let at = doc.offset(pos);
    let p = doc.program()?;
    let s = p
        .steps
        .iter()
        .find(|s| s.span.start <= at && at <= s.span.end)?;
    let span = match s.instruction {
        Instruction::Test(n) => p.tests.get(usize::from(n).wrapping_sub(1))?.as_ref()?.span,
        Instruction::Go(n) => p.steps.get(usize::from(n).wrapping_sub(1))?.span,
        Instruction::Reset => p.steps.first()?.span,
        Instruction::Calc(Key::Goto(n) | Key::Call(n)) => {
            let step = (*p.calc.labels.get(usize::from(n))?)?;
            p.steps.get(usize::from(step).wrapping_sub(1))?.span
        }
        _ => return None,
    };
    Some(doc.range(span))
}

/// The program's outline: its name, steps and tests, in the order written.
pub fn symbols(source: &str) -> Vec<Symbol> {
    let Some(doc) = Doc::new(source) else {
        return Vec::new();
    };
    let Some(p) = doc.program() else {
        return Vec::new();
    };
    let mut out: Vec<Symbol> = p
        .steps
        .iter()
        .map(|s| Symbol {
            name: format!("{}: {}", s.number, p.notation(s.instruction)),
            detail: does(s.instruction).0,
            kind: SymbolKind::Step,
            range: doc.range(s.span),
        })
        .collect();
    out.extend(p.tests.iter().flatten().map(|t| Symbol {
        name: format!("test {}", t.number),
        detail: t.text.clone(),
        kind: SymbolKind::Test,
        range: doc.range(t.span),
    }));
    out.sort_by_key(|s| s.range.start);
    if let Some(name) = &p.name {
        out.insert(
            0,
            Symbol {
                name: format!("name: {name}"),
                detail: "the program's name".into(),
                kind: SymbolKind::Name,
                range: Range::default(),
            },
        );
    }
    out
}

/// What may be typed at the cursor: instructions on a step's line, the words of conditions
/// on a test's, the starts of lines elsewhere.
pub fn completions(source: &str, keywords: Keywords, pos: Position) -> Vec<Completion> {
    let Some(doc) = Doc::new(source) else {
        return Vec::new();
    };
    let at = doc.offset(pos);
    let line_start = doc.text[..at].rfind('\n').map_or(0, |i| i + 1);
    let before = doc.text[line_start..at].trim_start();
    if doc.text[line_start..at].contains('#') || doc.text[line_start..at].contains("//") {
        return Vec::new();
    }
    let lower = before.to_ascii_lowercase();
    let steps = doc
        .text
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .count();
    if lower.starts_with("test") && lower.contains(':') {
        return condition_completions(keywords);
    }
    if before.starts_with(|c: char| c.is_ascii_digit()) {
        return instructions(keywords, steps)
            .into_iter()
            .map(|i| Completion {
                label: i.notation(),
                detail: does(i).0,
                kind: CompletionKind::Instruction,
            })
            .collect();
    }
    let mut out = vec![Completion {
        label: format!("{}: ", steps + 1),
        detail: "the next step".into(),
        kind: CompletionKind::Line,
    }];
    out.extend((1..=4).map(|n| Completion {
        label: format!("test {n}: "),
        detail: format!("the question `?{n}` asks"),
        kind: CompletionKind::Line,
    }));
    out.push(Completion {
        label: "name: ".into(),
        detail: "the program's name".into(),
        kind: CompletionKind::Line,
    });
    out
}

/// The words of a condition, as completions.
fn condition_completions(keywords: Keywords) -> Vec<Completion> {
    condition_words(keywords)
        .into_iter()
        .map(|(label, detail)| Completion {
            label,
            detail: detail.into(),
            kind: CompletionKind::Word,
        })
        .collect()
}

/// The program in the canonical layout (steps `N: NOTATION`, tests written as the evolver
/// writes them, one blank line at most between lines, comments kept and aligned), or `None`
/// when it does not load or the layout would read differently.
pub fn format(source: &str) -> Option<String> {
    let doc = Doc::new(source)?;
    let p = doc.program()?;
    let mut out = String::new();
    let mut offset = 0;
    for raw in doc.text.split_inclusive('\n') {
        let (start, end) = (offset, offset + raw.len());
        offset = end;
        let line = raw.trim_end_matches(['\n', '\r']);
        let comment = [line.find('#'), line.find("//")]
            .into_iter()
            .flatten()
            .min();
        let (code, comment) = match comment {
            Some(i) => (line[..i].trim(), Some(line[i..].trim_end())),
            None => (line.trim(), None),
        };
        let inside = |s: Span| (start..end).contains(&s.start);
        let code = if let Some(s) = p.steps.iter().find(|s| inside(s.span)) {
            format!("{}: {}", s.number, p.notation(s.instruction))
        } else if let Some(t) = p.tests.iter().flatten().find(|t| inside(t.span)) {
            format!("test {}: {}", t.number, condition_text(&t.condition))
        } else if !code.is_empty() {
            match &p.name {
                Some(name) => format!("name: {name}"),
                None => return None,
            }
        } else {
            String::new()
        };
        let text = match comment {
            Some(c) if code.is_empty() => c.to_string(),
            Some(c) => format!("{code:<13} {c}"),
            None => code,
        };
        if text.is_empty() && (out.is_empty() || out.ends_with("\n\n")) {
            continue;
        }
        out.push_str(&text);
        out.push('\n');
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    let again = parse_program_in(FILE, &out, MAX_PROGRAM_STEPS, Keywords::Ti57).ok()?;
    same(&p, &again).then_some(out)
}

/// Whether two programs read the same: steps, tests, numbers, terms, labels and name.
fn same(a: &Program, b: &Program) -> bool {
    let steps = |p: &Program| p.steps.iter().map(|s| s.instruction).collect::<Vec<_>>();
    let tests = |p: &Program| {
        p.tests
            .iter()
            .map(|t| t.as_ref().map(|t| t.condition.clone()))
            .collect::<Vec<_>>()
    };
    let senses = |p: &Program| {
        p.calc
            .senses
            .iter()
            .map(|s| s.0.clone())
            .collect::<Vec<_>>()
    };
    steps(a) == steps(b)
        && tests(a) == tests(b)
        && senses(a) == senses(b)
        && a.calc.numbers == b.calc.numbers
        && a.calc.labels == b.calc.labels
        && a.name == b.name
}

mod words;

#[cfg(test)]
mod tests;
