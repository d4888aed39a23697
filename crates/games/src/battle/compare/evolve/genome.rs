//! Genomes are programs of the plain language (RULES A.4): random programs, the mutations
//! (change an instruction, nudge a number, swap two steps, insert or delete one, rewrite a
//! test's condition or part of it) and crossover. The results are raw ASTs; `mod.rs` writes
//! each one out and reads it back with the real parser before it may play.

use crate::battle::hex::Direction;
use crate::battle::lang::{
    CampOwner, Comparison, Condition, Instruction, LineDirection, MAX_DISTANCE, Program, Quantity,
    Region, Selector, Span, Step, Subject, TerrainKind, TestDef, Who,
};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// The longest program the evolver writes: the plain language's default (RULES A.11).
pub const MAX_STEPS: usize = 15;
/// The most questions a test may join in an evolved program: small enough to read.
const MAX_TERMS: usize = 10;

fn region(rng: &mut ChaCha8Rng) -> Region {
    let roll = rng.random_range(0..10);
    if roll < 6 {
        let dir = LineDirection::Relative(rng.random_range(-2..=3));
        let n = rng.random_range(1..=4u8);
        match rng.random_range(0..3) {
            0 => Region::Line {
                dir,
                min: n,
                max: n,
            },
            1 => Region::Line {
                dir,
                min: 1,
                max: n + 2,
            },
            _ => Region::Line {
                dir,
                min: 1,
                max: MAX_DISTANCE,
            },
        }
    } else if roll < 9 {
        Region::Ring {
            min: 1,
            max: rng.random_range(1..=5),
        }
    } else {
        Region::Anywhere
    }
}

/// One question: a robot or a kind of ground somewhere, shots, damage, a count, a camp.
fn leaf(rng: &mut ChaCha8Rng) -> Condition {
    match rng.random_range(0..12) {
        0..=4 => {
            let who = [Who::Enemy, Who::Enemy, Who::Friend, Who::Any][rng.random_range(0..4)];
            Condition::Present(Selector {
                subject: Subject::Robots(who),
                region: region(rng),
            })
        }
        5..=7 => {
            let kind = [
                TerrainKind::Lake,
                TerrainKind::Edge,
                TerrainKind::Lightning,
                TerrainKind::Shape(None, None),
                TerrainKind::Computer(CampOwner::Any),
            ][rng.random_range(0..5)];
            let dir = LineDirection::Relative(rng.random_range(-1..=1));
            let n = rng.random_range(1..=2u8);
            Condition::Present(Selector {
                subject: Subject::Terrain(kind),
                region: Region::Line {
                    dir,
                    min: n,
                    max: n,
                },
            })
        }
        8 => Condition::Compare(
            Quantity::ShotsLeft,
            Comparison::Gt,
            Quantity::Number(rng.random_range(0..=5)),
        ),
        9 => Condition::Compare(
            Quantity::DestroyedSteps,
            Comparison::Ge,
            Quantity::Number(rng.random_range(1..=4)),
        ),
        10 => Condition::Compare(
            Quantity::Count(Selector {
                subject: Subject::Robots(Who::Enemy),
                region: Region::Ring {
                    min: 1,
                    max: rng.random_range(1..=4),
                },
            }),
            Comparison::Ge,
            Quantity::Number(rng.random_range(1..=3)),
        ),
        _ => match Direction::from_number(rng.random_range(1..=6)) {
            Some(d) if rng.random_bool(0.5) => Condition::Facing(d),
            _ => Condition::InCamp(CampOwner::Enemy),
        },
    }
}

fn maybe_not(c: Condition, rng: &mut ChaCha8Rng) -> Condition {
    if rng.random_bool(0.3) {
        Condition::Not(Box::new(c))
    } else {
        c
    }
}

/// A small random condition: one to three questions joined by `and` or `or`.
pub fn condition(rng: &mut ChaCha8Rng) -> Condition {
    let n = rng.random_range(1..=3);
    let parts: Vec<Condition> = (0..n).map(|_| maybe_not(leaf(rng), rng)).collect();
    match parts.len() {
        1 => parts.into_iter().next().unwrap_or(Condition::Truth(true)),
        _ if rng.random_bool(0.5) => Condition::And(parts),
        _ => Condition::Or(parts),
    }
}

fn test_def(number: u8, condition: Condition) -> TestDef {
    TestDef {
        number,
        condition,
        text: String::new(),
        span: Span::default(),
    }
}

/// A random instruction for a program of `len` steps whose tests 1–4 are all defined.
fn instruction(rng: &mut ChaCha8Rng, len: usize) -> Instruction {
    let go = u8::try_from(rng.random_range(1..=len.max(1))).unwrap_or(1);
    match rng.random_range(0..20) {
        0..=3 => Instruction::Move(if rng.random_bool(0.7) { 1 } else { 2 }),
        4 => Instruction::Move(if rng.random_bool(0.5) { -1 } else { -2 }),
        5..=7 => Instruction::Rotate([1, -1, 2, -2][rng.random_range(0..4)]),
        8..=10 => Instruction::Fire,
        11 if rng.random_bool(0.3) => Instruction::SelfDestruct,
        11..=15 => Instruction::Test(rng.random_range(1..=4)),
        16 | 17 => Instruction::Reset,
        _ => Instruction::Go(go),
    }
}

fn step(instruction: Instruction) -> Step {
    Step {
        number: 0,
        instruction,
        span: Span::default(),
    }
}

/// A random program of 4 to 15 steps with its four tests.
pub fn random_program(rng: &mut ChaCha8Rng) -> Program {
    let len = rng.random_range(4..=MAX_STEPS);
    let mut p = Program {
        name: None,
        steps: (0..len).map(|_| step(instruction(rng, len))).collect(),
        tests: [None, None, None, None],
        calc: Default::default(),
    };
    for (i, t) in p.tests.iter_mut().enumerate() {
        *t = Some(test_def(u8::try_from(i + 1).unwrap_or(1), condition(rng)));
    }
    repair(&mut p, rng);
    p
}

/// Makes a changed program loadable again: steps numbered, `GO n` within the program, every
/// test a step asks defined (R-A16), the steps within the limit.
pub fn repair(p: &mut Program, rng: &mut ChaCha8Rng) {
    p.steps.truncate(MAX_STEPS);
    if p.steps.is_empty() {
        p.steps.push(step(Instruction::Move(1)));
    }
    let len = u8::try_from(p.steps.len()).unwrap_or(1);
    for (i, s) in p.steps.iter_mut().enumerate() {
        s.number = i + 1;
        match &mut s.instruction {
            Instruction::Go(n) => *n = (*n).clamp(1, len),
            Instruction::Test(n) => {
                let k = usize::from(*n).clamp(1, 4);
                if p.tests[k - 1].is_none() {
                    p.tests[k - 1] = Some(test_def(*n, condition(rng)));
                }
            }
            _ => {}
        }
    }
}

/// The questions of a condition in order: how many nodes it has.
fn nodes(c: &Condition) -> usize {
    match c {
        Condition::And(ps) | Condition::Or(ps) => 1 + ps.iter().map(nodes).sum::<usize>(),
        Condition::Not(inner) => 1 + nodes(inner),
        _ => 1,
    }
}

/// The `k`th node in pre-order.
fn node_mut(c: &mut Condition, k: usize) -> Option<&mut Condition> {
    if k == 0 {
        return Some(c);
    }
    let mut k = k - 1;
    match c {
        Condition::And(ps) | Condition::Or(ps) => {
            for p in ps {
                let n = nodes(p);
                if k < n {
                    return node_mut(p, k);
                }
                k -= n;
            }
            None
        }
        Condition::Not(inner) => node_mut(inner, k),
        _ => None,
    }
}

fn nudge(n: u8, rng: &mut ChaCha8Rng, hi: u8) -> u8 {
    if rng.random_bool(0.5) {
        n.saturating_add(1).min(hi)
    } else {
        n.saturating_sub(1).max(1)
    }
}

/// A number in a question moved by one: a distance, or the number compared with.
fn nudge_leaf(c: &mut Condition, rng: &mut ChaCha8Rng) {
    let region = match c {
        Condition::Present(s) | Condition::Compare(Quantity::Count(s), _, _) => &mut s.region,
        Condition::Compare(_, _, Quantity::Number(n)) => {
            *n = (*n + if rng.random_bool(0.5) { 1 } else { -1 }).clamp(0, 9);
            return;
        }
        _ => return,
    };
    match region {
        Region::Ring { min, max } if min == max => {
            *max = nudge(*max, rng, 8);
            *min = *max;
        }
        Region::Ring { max, .. } => *max = nudge(*max, rng, 8),
        Region::Line { min, max, .. } if min == max => {
            *max = nudge(*max, rng, 6);
            *min = *max;
        }
        Region::Line { max, .. } if *max < MAX_DISTANCE => *max = nudge(*max, rng, 8),
        _ => {}
    }
}

/// Rewrites a test's condition or part of it: a new condition, a node replaced by a new
/// question, a question added with `and` or `or`, a node negated, a part dropped, a number
/// nudged.
fn rewrite(c: &mut Condition, rng: &mut ChaCha8Rng) {
    let k = rng.random_range(0..nodes(c));
    let big = c.terms() >= MAX_TERMS;
    let Some(node) = node_mut(c, k) else { return };
    match rng.random_range(0..7) {
        0 => *node = condition(rng),
        1 => *node = maybe_not(leaf(rng), rng),
        2 | 3 if !big => {
            let old = std::mem::replace(node, Condition::Truth(true));
            let new = maybe_not(leaf(rng), rng);
            *node = match (old, rng.random_bool(0.5)) {
                (Condition::And(mut ps), true) => {
                    ps.push(new);
                    Condition::And(ps)
                }
                (Condition::Or(mut ps), false) => {
                    ps.push(new);
                    Condition::Or(ps)
                }
                (old, true) => Condition::And(vec![old, new]),
                (old, false) => Condition::Or(vec![old, new]),
            };
        }
        4 => {
            let old = std::mem::replace(node, Condition::Truth(true));
            *node = match old {
                Condition::Not(inner) => *inner,
                other => Condition::Not(Box::new(other)),
            };
        }
        5 => {
            if let Condition::And(ps) | Condition::Or(ps) = node
                && ps.len() > 1
            {
                ps.remove(rng.random_range(0..ps.len()));
                if ps.len() == 1 {
                    let only = ps.remove(0);
                    *node = only;
                }
            }
        }
        _ => nudge_leaf(node, rng),
    }
}

/// A number of a step moved: a `GO` target by one, a move or turn's size or way.
fn nudge_step(p: &mut Program, rng: &mut ChaCha8Rng) -> bool {
    let len = u8::try_from(p.steps.len()).unwrap_or(1);
    let i = rng.random_range(0..p.steps.len());
    match &mut p.steps[i].instruction {
        Instruction::Go(n) => *n = nudge(*n, rng, len),
        Instruction::Move(n) | Instruction::Rotate(n) => {
            *n = if rng.random_bool(0.5) {
                -*n
            } else {
                n.signum() * (3 - n.abs())
            };
        }
        Instruction::Test(n) => *n = nudge(*n, rng, 4),
        _ => return false,
    }
    true
}

/// `GO` targets follow a step inserted or deleted at index `at` (`shift` +1 or -1).
fn shift_targets(p: &mut Program, at: usize, shift: i32) {
    for s in &mut p.steps {
        if let Instruction::Go(n) = &mut s.instruction
            && usize::from(*n) > at + usize::from(shift < 0)
        {
            *n = u8::try_from(i32::from(*n) + shift).unwrap_or(1);
        }
    }
}

/// One mutation of `p`, repaired: a child that may still be refused by the parser or lint.
pub fn mutate(p: &Program, rng: &mut ChaCha8Rng) -> Program {
    let mut c = p.clone();
    let len = c.steps.len();
    match rng.random_range(0..10) {
        0..=2 => {
            let i = rng.random_range(0..len);
            c.steps[i].instruction = instruction(rng, len);
        }
        3 if nudge_step(&mut c, rng) => {}
        3 | 4 if len > 1 => {
            let (i, j) = (rng.random_range(0..len), rng.random_range(0..len));
            c.steps.swap(i, j);
        }
        5 if len < MAX_STEPS => {
            let at = rng.random_range(0..=len);
            shift_targets(&mut c, at, 1);
            c.steps.insert(at, step(instruction(rng, len + 1)));
        }
        6 if len > 2 => {
            let at = rng.random_range(0..len);
            c.steps.remove(at);
            shift_targets(&mut c, at, -1);
        }
        _ => {
            let k = rng.random_range(0..4);
            match &mut c.tests[k] {
                Some(t) => rewrite(&mut t.condition, rng),
                None => {
                    let n = u8::try_from(k + 1).unwrap_or(1);
                    c.tests[k] = Some(test_def(n, condition(rng)));
                }
            }
        }
    }
    repair(&mut c, rng);
    c
}

/// A child of two parents: `a`'s first steps, then `b`'s from a point on; each test from
/// one parent or the other.
pub fn crossover(a: &Program, b: &Program, rng: &mut ChaCha8Rng) -> Program {
    let i = rng.random_range(1..=a.steps.len());
    let j = rng.random_range(0..b.steps.len());
    let mut c = a.clone();
    c.steps.truncate(i);
    c.steps.extend(b.steps[j..].iter().cloned());
    for k in 0..4 {
        if b.tests[k].is_some() && (c.tests[k].is_none() || rng.random_bool(0.5)) {
            c.tests[k].clone_from(&b.tests[k]);
        }
    }
    repair(&mut c, rng);
    c
}
