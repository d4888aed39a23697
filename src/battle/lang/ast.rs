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
                step.instruction.notation()
            ));
        }
        for test in self.tests.iter().flatten() {
            out.push_str(&format!("test {}: {}\n", test.number, test.text));
        }
        out
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

/// One instruction (RULES A.4). Actions end the robot's turn; controls do not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
}

impl Instruction {
    pub fn is_action(self) -> bool {
        !matches!(
            self,
            Instruction::Test(_) | Instruction::Reset | Instruction::Go(_)
        )
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
    Number(u32),
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
    pub fn holds(self, a: u32, b: u32) -> bool {
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
