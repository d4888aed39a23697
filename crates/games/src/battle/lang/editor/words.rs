//! The words an editor is told: what each instruction does and the ruling it follows
//! (docs/LANGUAGE.md), the instructions a step may hold, the words of a condition (the
//! grammar's own, `grammar/robot.pest`).

use crate::battle::lang::ast::{Instruction, Key, Keywords, MemoryOp, XtTest};
use crate::battle::lang::parser::MAX_PROGRAM_STEPS;
use crate::battle::terrain::{Form, ShapeColour, TeamColour};
use crate::text::count;

/// What an instruction does, and the ruling it follows when docs/LANGUAGE.md names one.
pub fn does(i: Instruction) -> (String, Option<&'static str>) {
    let (text, ruling): (String, Option<&'static str>) = match i {
        Instruction::Move(n) if n > 0 => (
            format!("moves {} forward, facing unchanged; cancelled if a robot, computer or shape is in the way", count(usize::from(n.unsigned_abs()), "hex")),
            Some("R-A2"),
        ),
        Instruction::Move(n) => (
            format!("moves {} backward, facing unchanged", count(usize::from(n.unsigned_abs()), "hex")),
            Some("R-A2"),
        ),
        Instruction::Rotate(n) if n > 0 => (format!("turns {} of a turn clockwise", count(usize::from(n.unsigned_abs()), "sixth")), None),
        Instruction::Rotate(n) => (
            format!("turns {} of a turn counter-clockwise", count(usize::from(n.unsigned_abs()), "sixth")),
            None,
        ),
        Instruction::Fire => ("fires along the facing, range 2 (10 shots a game): a robot 1 hex ahead is destroyed, 2 hexes ahead loses the step under its pointer".into(), None),
        Instruction::SelfDestruct => ("self-destructs: every robot at distance 1 destroyed, at distance 2 loses a step".into(), Some("R-A7")),
        Instruction::Test(n) => (format!("asks test {n}: yes reads the next step, no skips it"), Some("R-A16")),
        Instruction::Reset => ("back to the start box; reading goes on with step 1".into(), None),
        Instruction::Go(n) => (format!("reads step {n} at once"), None),
        Instruction::Calc(key) => calc_does(key),
    };
    (text, ruling)
}

fn calc_does(key: Key) -> (String, Option<&'static str>) {
    let (text, ruling) = match key {
        Key::Label(n) => (format!("marks its step as label {n}; reading it does nothing"), "R-A24"),
        Key::Goto(n) => (format!("reads the step after `LBL {n}` at once"), "R-A24"),
        Key::Call(n) => (format!("remembers the step after it, then reads the step after `LBL {n}`"), "R-A25"),
        Key::Return => ("reads the step remembered last, and forgets it".into(), "R-A25"),
        Key::Number(_) => ("puts the number in x".into(), "R-A26"),
        Key::Sense(_) => ("x = a number the robot sees now".into(), "R-A27"),
        Key::Memory(op, n) => (memory_does(op, n), "R-A26"),
        Key::SwapXt => ("swaps x and t".into(), "R-A26"),
        Key::ClearT => ("t = 0".into(), "R-A26"),
        Key::ClearAll => ("every memory = 0: x, t and R0-R7".into(), "R-A26"),
        Key::Test(t) => (
            format!("tests {}: yes reads the next step, no skips it", match t {
                XtTest::Equal => "x = t",
                XtTest::NotEqual => "x ≠ t",
                XtTest::AtLeast => "x ≥ t",
                XtTest::Below => "x < t",
            }),
            "R-A28",
        ),
        Key::Dsz { inverse: false } => ("R0 one step towards 0; skips the next step when R0 is then 0".into(), "R-A28"),
        Key::Dsz { inverse: true } => ("R0 one step towards 0; skips the next step when R0 is then not 0".into(), "R-A28"),
        Key::Pause => ("an action that does nothing: the robot waits one turn".into(), "R-A29"),
        Key::Stop => ("stops the program: the turn ends, and the robot idles from then on unless a signal acts".into(), "R-A29"),
        Key::Nop => ("nothing; reading goes on".into(), "R-A29"),
    };
    (text, Some(ruling))
}

fn memory_does(op: MemoryOp, n: u8) -> String {
    match op {
        MemoryOp::Store => format!("R{n} = x"),
        MemoryOp::Recall => format!("x = R{n}"),
        MemoryOp::Add => format!("R{n} = R{n} + x"),
        MemoryOp::Subtract => format!("R{n} = R{n} - x"),
        MemoryOp::Multiply => format!("R{n} = R{n} × x"),
        MemoryOp::Divide => format!("R{n} = R{n} ÷ x rounded toward zero, unchanged when x is 0"),
        MemoryOp::Exchange => format!("swaps x and R{n}"),
    }
}

/// The grammar, for its words (`grammar/robot.pest`).
const GRAMMAR: &str = include_str!("../../../../../../grammar/robot.pest");

/// The words of a rule of the grammar: its `^"…"` strings.
fn grammar_words(rule: &str) -> Vec<&'static str> {
    let Some(start) = GRAMMAR.find(&format!("\n{rule} ")) else {
        return Vec::new();
    };
    let body = &GRAMMAR[start + 1..];
    let body = &body[..body.find('}').unwrap_or(body.len())];
    body.split("^\"")
        .skip(1)
        .filter_map(|w| w.split('"').next())
        .collect()
}

/// The instructions a step may hold: the plain language's, and the TI-57 keys with them.
pub fn instructions(keywords: Keywords, steps: usize) -> Vec<Instruction> {
    let mut all: Vec<Instruction> = [1, 2, -1, -2].into_iter().map(Instruction::Move).collect();
    all.extend([1, 2, -1, -2].into_iter().map(Instruction::Rotate));
    all.extend([Instruction::Fire, Instruction::SelfDestruct]);
    all.extend((1..=4).map(Instruction::Test));
    all.push(Instruction::Reset);
    all.extend(
        (1..=steps.clamp(1, MAX_PROGRAM_STEPS))
            .filter_map(|n| u8::try_from(n).ok())
            .map(Instruction::Go),
    );
    if keywords == Keywords::Ti57 {
        let ops = [
            MemoryOp::Store,
            MemoryOp::Recall,
            MemoryOp::Add,
            MemoryOp::Subtract,
            MemoryOp::Multiply,
            MemoryOp::Divide,
            MemoryOp::Exchange,
        ];
        all.extend([Key::Label(0), Key::Goto(0), Key::Call(0), Key::Return].map(Instruction::Calc));
        all.extend(ops.map(|op| Instruction::Calc(Key::Memory(op, 0))));
        let tests = [
            XtTest::Equal,
            XtTest::NotEqual,
            XtTest::AtLeast,
            XtTest::Below,
        ];
        all.extend(tests.map(|t| Instruction::Calc(Key::Test(t))));
        all.extend(
            [
                Key::SwapXt,
                Key::ClearT,
                Key::ClearAll,
                Key::Dsz { inverse: false },
                Key::Dsz { inverse: true },
                Key::Pause,
                Key::Stop,
                Key::Nop,
            ]
            .map(Instruction::Calc),
        );
    }
    all
}

/// The words of a condition: the grammar's reserved words, who and what a test may see,
/// and the memories under the TI-57 rule; each with what it is.
pub fn condition_words(keywords: Keywords) -> Vec<(String, &'static str)> {
    let mut words: Vec<(String, &'static str)> = grammar_words("reserved")
        .into_iter()
        .map(|w| (w.to_string(), "a word of the condition language"))
        .collect();
    for w in [
        "enemy",
        "friend",
        "any",
        "robot",
        "lake",
        "lightning",
        "plain",
        "edge",
        "shape",
        "camp",
        "computer",
        "own",
    ] {
        words.push((w.into(), "who or what a test sees"));
    }
    words.extend(
        TeamColour::ALL
            .iter()
            .map(|c| (c.name().to_string(), "a team's colour")),
    );
    words.extend(
        ShapeColour::ALL
            .iter()
            .map(|c| (c.name().to_string(), "a shape's colour")),
    );
    words.extend(
        Form::ALL
            .iter()
            .map(|f| (f.name().to_string(), "a shape's form")),
    );
    if keywords == Keywords::Ti57 {
        let memories = ["x", "t", "R0", "R1", "R2", "R3", "R4", "R5", "R6", "R7"];
        words.extend(memories.map(|m| (m.to_string(), "a memory (R-A26)")));
    }
    words.sort();
    words.dedup_by(|a, b| a.0 == b.0);
    words
}
