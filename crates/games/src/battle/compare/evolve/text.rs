//! Genomes as text: a program's steps and tests written back in the language, so that every
//! child is read again by the real parser; and the commented listing of a champion.

use crate::battle::lang::{
    CampOwner, Comparison, Condition, Instruction, LineDirection, MAX_DISTANCE, Own, Program,
    Quantity, Region, Selector, Subject, TerrainKind, Who,
};

/// A condition in the language: `not` binds tightest, then `and`, then `or`, so only an `or`
/// inside an `and` and anything but a plain question under a `not` need parentheses.
pub fn condition_text(c: &Condition) -> String {
    match c {
        Condition::Or(parts) => join(parts, " or ", condition_text),
        Condition::And(parts) => join(parts, " and ", |p| match p {
            Condition::Or(_) => format!("({})", condition_text(p)),
            _ => condition_text(p),
        }),
        Condition::Not(inner) => match inner.as_ref() {
            Condition::Present(_) | Condition::Facing(_) | Condition::InCamp(_) => {
                format!("not {}", condition_text(inner))
            }
            _ => format!("not ({})", condition_text(inner)),
        },
        Condition::Compare(a, op, b) => {
            format!("{} {} {}", quantity(a), comparison(*op), quantity(b))
        }
        Condition::Facing(d) => format!("facing {d}"),
        Condition::InCamp(owner) => match owner_word(*owner) {
            "" => "in camp".into(),
            w => format!("in {w} camp"),
        },
        Condition::Truth(t) => if *t { "true" } else { "false" }.into(),
        Condition::Present(s) => selector(s),
    }
}

fn join(parts: &[Condition], sep: &str, each: impl Fn(&Condition) -> String) -> String {
    parts.iter().map(each).collect::<Vec<_>>().join(sep)
}

fn comparison(op: Comparison) -> &'static str {
    match op {
        Comparison::Eq => "=",
        Comparison::Ne => "!=",
        Comparison::Lt => "<",
        Comparison::Le => "<=",
        Comparison::Gt => ">",
        Comparison::Ge => ">=",
    }
}

fn quantity(q: &Quantity) -> String {
    match q {
        Quantity::Count(s) => format!("count({})", selector(s)),
        Quantity::ShotsLeft => "shots".into(),
        Quantity::DestroyedSteps => "damage".into(),
        Quantity::Number(n) => n.to_string(),
        Quantity::Own(Own::Facing) => "facing".into(),
        Quantity::Own(Own::Memory(r)) => r.to_string(),
    }
}

fn owner_word(owner: CampOwner) -> &'static str {
    match owner {
        CampOwner::Any => "",
        CampOwner::Own => "own",
        CampOwner::Enemy => "enemy",
        CampOwner::Team(c) => c.name(),
    }
}

fn selector(s: &Selector) -> String {
    let subject = match s.subject {
        Subject::Robots(Who::Any) => "robot".to_string(),
        Subject::Robots(Who::Enemy) => "enemy".into(),
        Subject::Robots(Who::Friend) => "friend".into(),
        Subject::Robots(Who::Team(c)) => c.name().into(),
        Subject::Terrain(kind) => terrain(kind),
    };
    let region = match s.region {
        Region::Anywhere => String::new(),
        Region::Here => "here".into(),
        Region::Ring { min, max } if min == max => format!("at {min}"),
        Region::Ring { max, .. } => format!("within {max}"),
        Region::Line { dir, min, max } => {
            let word = match dir {
                LineDirection::Relative(0) => "ahead".to_string(),
                LineDirection::Relative(1) => "ahead-right".into(),
                LineDirection::Relative(2) => "behind-right".into(),
                LineDirection::Relative(-1) => "ahead-left".into(),
                LineDirection::Relative(-2) => "behind-left".into(),
                LineDirection::Relative(_) => "behind".into(),
                LineDirection::Absolute(d) => format!("direction {d}"),
            };
            if min == 1 && max == MAX_DISTANCE {
                word
            } else if min == max && matches!(dir, LineDirection::Relative(_)) {
                format!("{word} {min}")
            } else if min == max {
                format!("{word} at {min}")
            } else {
                format!("{word} within {max}")
            }
        }
    };
    if region.is_empty() {
        subject
    } else {
        format!("{subject} {region}")
    }
}

fn terrain(kind: TerrainKind) -> String {
    match kind {
        TerrainKind::Plain => "plain".into(),
        TerrainKind::Lake => "lake".into(),
        TerrainKind::Lightning => "lightning".into(),
        TerrainKind::Edge => "edge".into(),
        TerrainKind::Shape(form, colour) => {
            let noun = form.map_or("shape", |f| f.name());
            match colour {
                Some(c) => format!("{} {noun}", c.name()),
                None => noun.into(),
            }
        }
        TerrainKind::Camp(owner) => match owner_word(owner) {
            "" => "camp".into(),
            w => format!("{w} camp"),
        },
        TerrainKind::Computer(owner) => match owner_word(owner) {
            "" => "computer".into(),
            w => format!("{w} computer"),
        },
    }
}

/// The program as the parser reads it: `name:`, one step a line, the tests written out.
pub fn program_text(p: &Program, name: &str) -> String {
    let mut out = format!("name: {name}\n\n");
    for (i, step) in p.steps.iter().enumerate() {
        out.push_str(&format!("{}: {}\n", i + 1, step.instruction.notation()));
    }
    out.push('\n');
    out.push_str(&tests_text(p));
    out
}

/// What a step does, in words: the comment beside it in a champion's file.
fn explain(instruction: Instruction, step: usize) -> String {
    match instruction {
        Instruction::Move(n) if n > 0 => format!("move {n} forward"),
        Instruction::Move(n) => format!("move {} back", n.unsigned_abs()),
        Instruction::Rotate(n) if n > 0 => format!("turn {n} right"),
        Instruction::Rotate(n) => format!("turn {} left", n.unsigned_abs()),
        Instruction::Fire => "fire".into(),
        Instruction::SelfDestruct => "self-destruct".into(),
        Instruction::Test(n) => format!("test {n}? yes: step {}, no: step {}", step + 1, step + 2),
        Instruction::Reset => "back to step 1".into(),
        Instruction::Go(n) => format!("go to step {n}"),
        Instruction::Calc(_) => String::new(),
    }
}

/// The program with a comment on each step (what it does), for a champion's file.
pub fn commented_text(p: &Program, name: &str) -> String {
    let mut out = format!("name: {name}\n\n");
    for (i, step) in p.steps.iter().enumerate() {
        let line = format!("{}: {}", i + 1, step.instruction.notation());
        out.push_str(&format!(
            "{line:<14}# {}\n",
            explain(step.instruction, i + 1)
        ));
    }
    out.push('\n');
    out.push_str(&tests_text(p));
    out
}

/// A program's tests, a line each (`test N: CONDITION`).
fn tests_text(p: &Program) -> String {
    p.tests
        .iter()
        .enumerate()
        .filter_map(|(i, t)| {
            t.as_ref()
                .map(|t| format!("test {}: {}\n", i + 1, condition_text(&t.condition)))
        })
        .collect()
}
