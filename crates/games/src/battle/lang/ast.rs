//! The typed program: steps, instructions and test conditions, with source spans.

use crate::battle::hex::Direction;
use crate::battle::terrain::{Form, ShapeColour, TeamColour};

/// A byte range in the source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub name: Option<String>,
    /// Steps 1..=N in order: `steps[i]` is step `i + 1`.
    pub steps: Vec<Step>,
    /// Tests 1–4: `tests[i]` is test `i + 1`.
    pub tests: [Option<TestDef>; 4],
    /// The TI-57 part (RULES A.12): empty for a program of the plain language.
    pub calc: CalcTables,
}

/// What a program written with the TI-57 keywords needs beside its steps (RULES A.12).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct CalcTables {
    /// `labels[n]`: the step of `LBL n`, if the program has one (R-A24).
    pub labels: [Option<u8>; 10],
    /// The terms of the `x = TERM` steps (R-A27), with their text as written:
    /// `Key::Sense(i)` senses `senses[i]`.
    pub senses: Vec<(Quantity, String)>,
    /// The numbers written as steps (R-A26): `Key::Number(i)` puts `numbers[i]` in x.
    pub numbers: Vec<i32>,
    /// Where the program first uses a TI-57 keyword or memory, if it does.
    pub first_use: Option<Span>,
}

impl Program {
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The instruction at step `n` (1-based), if written.
    pub fn instruction(&self, n: usize) -> Option<Instruction> {
        n.checked_sub(1)
            .and_then(|i| self.steps.get(i))
            .map(|s| s.instruction)
    }

    /// The program in canonical notation, one step a line, then the tests as written.
    pub fn listing(&self) -> String {
        let mut out = String::new();
        if let Some(name) = &self.name {
            out.push_str(&format!("name: {name}\n"));
        }
        for step in &self.steps {
            out.push_str(&format!(
                "{}: {}\n",
                step.number,
                self.notation(step.instruction)
            ));
        }
        for test in self.tests.iter().flatten() {
            out.push_str(&format!("test {}: {}\n", test.number, test.text));
        }
        out
    }

    /// An instruction of this program in canonical notation: as [`Instruction::notation`],
    /// with the term of an `x = TERM` step written out.
    pub fn notation(&self, instruction: Instruction) -> String {
        match instruction {
            Instruction::Calc(Key::Sense(i)) => match self.calc.senses.get(usize::from(i)) {
                Some((_, text)) => format!("x = {text}"),
                None => instruction.notation(),
            },
            Instruction::Calc(Key::Number(i)) => match self.calc.numbers.get(usize::from(i)) {
                Some(n) => n.to_string(),
                None => instruction.notation(),
            },
            _ => instruction.notation(),
        }
    }

    /// Whether the program uses the TI-57 keywords or memories (RULES A.12).
    pub fn uses_ti57(&self) -> bool {
        self.calc.first_use.is_some()
    }

    pub fn test(&self, n: u8) -> Option<&Condition> {
        self.tests
            .get(usize::from(n).wrapping_sub(1))
            .and_then(|t| t.as_ref())
            .map(|t| &t.condition)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub number: usize,
    pub instruction: Instruction,
    /// The whole step line, from its number to the end of the instruction.
    pub span: Span,
}

/// One instruction (RULES A.4). Actions end the robot's turn; controls do not. A plain
/// byte tag (`repr(u8)`), so that the turn loop reads it at once rather than decoding it
/// from the TI-57 key's niche.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Instruction {
    /// `D+1`, `D+2`, `D-1`, `D-2`: hexes forward (+) or backward (−).
    Move(i8),
    /// `R+1` … `R-2`: sixths of a turn, clockwise (+) or counter-clockwise (−).
    Rotate(i8),
    /// `T`.
    Fire,
    /// `*`.
    SelfDestruct,
    /// `?n`, n in 1..=4.
    Test(u8),
    /// `RAZ`.
    Reset,
    /// `GO n`.
    Go(u8),
    /// A TI-57 keyword (RULES A.12). `PAUSE` and `R/S` are actions; the others are controls.
    Calc(Key),
}

/// The TI-57 keywords (RULES A.12, rulings R-A24–R-A29). Registers are 0–7, labels 0–9.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// `LBL n`: marks a step, does nothing when read (R-A24).
    Label(u8),
    /// `GTO n`: reads the step after label n (R-A24).
    Goto(u8),
    /// `SBR n`: remembers the next step and reads the step after label n (R-A25).
    Call(u8),
    /// `INV SBR` (`RTN`): goes back to the step remembered last (R-A25).
    Return,
    /// A number written as a step puts it in x (R-A26): `CalcTables::numbers[i]` (kept
    /// apart, so that an instruction stays two bytes and the plain turn loop as fast).
    Number(u8),
    /// `x = TERM`: the term's value into x; the term is `CalcTables::senses[i]` (R-A27).
    Sense(u8),
    /// `STO n`, `RCL n`, `SUM n`, `PRD n`, `EXC n` and the `INV` forms (R-A26).
    Memory(MemoryOp, u8),
    /// `x<>t`: swaps x and t (R-A26).
    SwapXt,
    /// `C.t`: t = 0 (R-A26).
    ClearT,
    /// `INV C.t`: every memory = 0 (R-A26).
    ClearAll,
    /// `x=t`, `INV x=t`, `x>=t`, `INV x>=t`: true reads the next step, false skips it (R-A28).
    Test(XtTest),
    /// `DSZ` (`inverse: false`) and `INV DSZ` (R-A28).
    Dsz { inverse: bool },
    /// `PAUSE`: an action that does nothing (R-A29).
    Pause,
    /// `R/S`: the program stops; the robot idles from then on (R-A29).
    Stop,
    /// `NOP`: nothing, reading goes on (R-A29).
    Nop,
}

/// What a memory keyword does with x and register Rn (R-A26).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryOp {
    Store,
    Recall,
    Add,
    Subtract,
    Multiply,
    Divide,
    Exchange,
}

impl MemoryOp {
    /// The calculator keys: `STO`, `RCL`, `SUM`, `INV SUM`, `PRD`, `INV PRD`, `EXC`.
    pub fn keys(self) -> &'static str {
        match self {
            MemoryOp::Store => "STO",
            MemoryOp::Recall => "RCL",
            MemoryOp::Add => "SUM",
            MemoryOp::Subtract => "INV SUM",
            MemoryOp::Multiply => "PRD",
            MemoryOp::Divide => "INV PRD",
            MemoryOp::Exchange => "EXC",
        }
    }
}

/// The four comparisons of x with t (R-A28).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum XtTest {
    /// `x=t`
    Equal,
    /// `INV x=t`: x ≠ t.
    NotEqual,
    /// `x>=t`
    AtLeast,
    /// `INV x>=t`: x < t.
    Below,
}

impl XtTest {
    pub fn holds(self, x: i32, t: i32) -> bool {
        match self {
            XtTest::Equal => x == t,
            XtTest::NotEqual => x != t,
            XtTest::AtLeast => x >= t,
            XtTest::Below => x < t,
        }
    }

    pub fn keys(self) -> &'static str {
        match self {
            XtTest::Equal => "x=t",
            XtTest::NotEqual => "INV x=t",
            XtTest::AtLeast => "x>=t",
            XtTest::Below => "INV x>=t",
        }
    }
}

impl Key {
    /// The calculator's notation, as docs/LANGUAGE.md writes it.
    pub fn notation(self) -> String {
        match self {
            Key::Label(n) => format!("LBL {n}"),
            Key::Goto(n) => format!("GTO {n}"),
            Key::Call(n) => format!("SBR {n}"),
            Key::Return => "INV SBR".into(),
            Key::Number(_) => "a number".into(),
            Key::Sense(_) => "x = …".into(),
            Key::Memory(op, n) => format!("{} {n}", op.keys()),
            Key::SwapXt => "x<>t".into(),
            Key::ClearT => "C.t".into(),
            Key::ClearAll => "INV C.t".into(),
            Key::Test(t) => t.keys().into(),
            Key::Dsz { inverse } => if inverse { "INV DSZ" } else { "DSZ" }.into(),
            Key::Pause => "PAUSE".into(),
            Key::Stop => "R/S".into(),
            Key::Nop => "NOP".into(),
        }
    }
}

impl Instruction {
    pub fn is_action(self) -> bool {
        match self {
            Instruction::Test(_) | Instruction::Reset | Instruction::Go(_) => false,
            Instruction::Calc(key) => matches!(key, Key::Pause | Key::Stop),
            _ => true,
        }
    }

    /// The canonical notation, as the rules write it.
    pub fn notation(self) -> String {
        match self {
            Instruction::Move(n) => format!("D{n:+}"),
            Instruction::Rotate(n) => format!("R{n:+}"),
            Instruction::Fire => "T".into(),
            Instruction::SelfDestruct => "*".into(),
            Instruction::Test(n) => format!("?{n}"),
            Instruction::Reset => "RAZ".into(),
            Instruction::Go(n) => format!("GO {n}"),
            Instruction::Calc(key) => key.notation(),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct TestDef {
    pub number: u8,
    pub condition: Condition,
    /// The condition's source text, as written (shown by views).
    pub text: String,
    pub span: Span,
}

/// A yes/no question asked from one robot's point of view (RULES A.9).
#[derive(Clone, Debug, PartialEq)]
pub enum Condition {
    And(Vec<Condition>),
    Or(Vec<Condition>),
    Not(Box<Condition>),
    Compare(Quantity, Comparison, Quantity),
    /// `facing n`: am I facing direction n?
    Facing(Direction),
    /// `in camp`, `in enemy camp`, `in green camp`, …
    InCamp(CampOwner),
    Truth(bool),
    /// At least one thing matches: `enemy ahead within 2`, `lake ahead 1`.
    Present(Selector),
}

impl Condition {
    /// Its questions: the comparisons, presences, facings, camps and truths joined by
    /// `and`, `or` and `not` (what answering it costs, [`MAX_TERMS`] at most).
    pub fn terms(&self) -> usize {
        let mut n = 0;
        let mut stack = vec![self];
        while let Some(c) = stack.pop() {
            match c {
                Condition::And(parts) | Condition::Or(parts) => stack.extend(parts),
                Condition::Not(inner) => stack.push(inner),
                _ => n += 1,
            }
        }
        n
    }
}

/// The most questions one condition may join: a test is answered many times a match, and
/// this keeps each answer cheap whatever a stranger writes.
pub const MAX_TERMS: usize = 64;

#[derive(Clone, Debug, PartialEq)]
pub enum Quantity {
    /// How many robots or hexes match.
    Count(Selector),
    ShotsLeft,
    DestroyedSteps,
    /// A number as written (a test may compare memories with negative numbers, A.12). An
    /// `i32`, so that a quantity, and the conditions a turn walks, stay small.
    Number(i32),
    /// The robot's facing as a number, or one of its memories.
    Own(Own),
}

/// A number about the asking robot beside its shots and damage (one variant of [`Quantity`],
/// so that matching a quantity stays as cheap as it was before the TI-57 rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Own {
    /// The robot's facing, 1 to 6.
    Facing,
    /// A memory of the TI-57 rule (R-A26): x, t or R0–R7.
    Memory(Register),
}

/// A robot's memories under the TI-57 rule (R-A26).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Register {
    X,
    T,
    /// R0–R7.
    R(u8),
}

impl std::fmt::Display for Register {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Register::X => f.write_str("x"),
            Register::T => f.write_str("t"),
            Register::R(n) => write!(f, "R{n}"),
        }
    }
}

/// Which language a program may use: the plain one of RULES A.4, or that plus the TI-57
/// keywords (A.12, `rules.keywords: ti57`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Keywords {
    #[default]
    Plain,
    Ti57,
}

/// A name that is no program language (`rules.keywords`, `--keywords`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "keywords: `{0}` is not a language: expected `plain` (RULES A.4) or `ti57` (the calculator keywords, RULES A.12)"
)]
pub struct UnknownKeywords(pub String);

impl Keywords {
    /// `plain` or `ti57`, as match files and flags write it.
    pub fn name(self) -> &'static str {
        match self {
            Keywords::Plain => "plain",
            Keywords::Ti57 => "ti57",
        }
    }

    pub fn parse(text: &str) -> Option<Keywords> {
        match text.trim().to_ascii_lowercase().as_str() {
            "plain" => Some(Keywords::Plain),
            "ti57" | "ti-57" => Some(Keywords::Ti57),
            _ => None,
        }
    }

    /// A language by name, or why the name is none: for files and flags.
    pub fn from_name(text: &str) -> Result<Keywords, UnknownKeywords> {
        Keywords::parse(text).ok_or_else(|| {
            UnknownKeywords(
                crate::text::escape(&text.chars().take(40).collect::<String>()).into_owned(),
            )
        })
    }

    /// The default program length: 15 steps, 50 with the TI-57 keywords (RULES A.11, A.12).
    pub fn default_steps(self) -> usize {
        match self {
            Keywords::Plain => 15,
            Keywords::Ti57 => 50,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Comparison {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Comparison {
    pub fn holds(self, a: i32, b: i32) -> bool {
        match self {
            Comparison::Eq => a == b,
            Comparison::Ne => a != b,
            Comparison::Lt => a < b,
            Comparison::Le => a <= b,
            Comparison::Gt => a > b,
            Comparison::Ge => a >= b,
        }
    }
}

/// Things in a region around the asking robot.
#[derive(Clone, Debug, PartialEq)]
pub struct Selector {
    pub subject: Subject,
    pub region: Region,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subject {
    /// Robots other than the asking one.
    Robots(Who),
    /// Hexes of a terrain kind (off-board positions count as `edge`).
    Terrain(TerrainKind),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    Any,
    Enemy,
    Friend,
    Team(TeamColour),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TerrainKind {
    Plain,
    Lake,
    Lightning,
    /// Off the board.
    Edge,
    Shape(Option<Form>, Option<ShapeColour>),
    Camp(CampOwner),
    Computer(CampOwner),
}

/// Whose camp (or computer): relative to the asking robot's team.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CampOwner {
    Any,
    Own,
    /// A camp of another team in the match.
    Enemy,
    Team(TeamColour),
}

/// Where to look, relative to the asking robot. Distances are in hexes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Region {
    /// The whole board.
    Anywhere,
    /// The robot's own hex.
    Here,
    /// Every hex at a distance in `min..=max`, all around.
    Ring { min: u8, max: u8 },
    /// The straight line from the robot in `dir`, hexes `min..=max` along it.
    Line {
        dir: LineDirection,
        min: u8,
        max: u8,
    },
}

/// The longest distance a test may name.
pub const MAX_DISTANCE: u8 = 50;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineDirection {
    /// Relative to the facing, in sixths of a turn clockwise: `ahead` 0, `ahead-right`
    /// (or `right`) 1, `behind-right` 2, `behind` 3, `behind-left` -2, `ahead-left` (or
    /// `left`) -1.
    Relative(i8),
    /// The line of a numbered direction, whatever the facing.
    Absolute(Direction),
}
