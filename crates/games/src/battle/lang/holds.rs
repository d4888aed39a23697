//! Conditions whose answer is known before the match (docs/LANGUAGE.md, "Warnings"): a
//! comparison no count can meet, a team colour the match does not have. Asked by the
//! program warnings and by the match file's signal warnings.

use super::ast::{Comparison, Condition, Own, Quantity, Subject, Who};
use crate::battle::terrain::TeamColour;

/// What is known about the robots and rules a condition will be asked in.
#[derive(Clone, Debug)]
pub struct Context {
    /// The team colours in the match.
    pub teams: Vec<TeamColour>,
    /// How many robots the match has in all.
    pub robots: u32,
    /// The most shots a robot has.
    pub shots: u32,
    /// The most steps the asking robot can have destroyed (its program's length).
    pub steps: u32,
}

/// Whether a condition can never hold in the context, whatever happens in the match: a
/// constant `false`, a comparison its quantities can never meet (`shots > 10`,
/// `count(enemy) < 0`), robots of a colour that is not playing, and what `and`, `or` and
/// `not` make of those.
pub fn never_holds(condition: &Condition, context: &Context) -> bool {
    known(condition, context) == Some(false)
}

/// The answer a condition always gives in the context, if it does not depend on the match.
fn known(condition: &Condition, cx: &Context) -> Option<bool> {
    match condition {
        Condition::And(parts) => {
            let answers: Vec<Option<bool>> = parts.iter().map(|p| known(p, cx)).collect();
            if answers.contains(&Some(false)) {
                Some(false)
            } else if answers.iter().all(|a| *a == Some(true)) {
                Some(true)
            } else {
                None
            }
        }
        Condition::Or(parts) => {
            let answers: Vec<Option<bool>> = parts.iter().map(|p| known(p, cx)).collect();
            if answers.contains(&Some(true)) {
                Some(true)
            } else if answers.iter().all(|a| *a == Some(false)) {
                Some(false)
            } else {
                None
            }
        }
        Condition::Not(inner) => known(inner, cx).map(|b| !b),
        Condition::Truth(b) => Some(*b),
        Condition::Compare(a, op, b) => compare(range(a, cx), *op, range(b, cx)),
        Condition::Present(selector) => match selector.subject {
            Subject::Robots(Who::Team(c)) if !cx.teams.contains(&c) => Some(false),
            _ => None,
        },
        Condition::Facing(_) | Condition::InCamp(_) => None,
    }
}

/// The values a quantity can take: `(least, most)`.
fn range(q: &Quantity, cx: &Context) -> (i64, i64) {
    match q {
        Quantity::Number(n) => (i64::from(*n), i64::from(*n)),
        Quantity::ShotsLeft => (0, i64::from(cx.shots)),
        Quantity::DestroyedSteps => (0, i64::from(cx.steps)),
        Quantity::Own(Own::Facing) => (1, 6),
        Quantity::Own(Own::Memory(_)) => (i64::from(i32::MIN), i64::from(i32::MAX)),
        Quantity::Count(selector) => match selector.subject {
            Subject::Robots(Who::Team(c)) if !cx.teams.contains(&c) => (0, 0),
            Subject::Robots(_) => (0, i64::from(cx.robots)),
            Subject::Terrain(_) => (0, i64::MAX),
        },
    }
}

fn compare((a1, a2): (i64, i64), op: Comparison, (b1, b2): (i64, i64)) -> Option<bool> {
    let lt = |x: (i64, i64), y: (i64, i64)| {
        if x.1 < y.0 {
            Some(true)
        } else if x.0 >= y.1 {
            Some(false)
        } else {
            None
        }
    };
    let eq = if a2 < b1 || b2 < a1 {
        Some(false)
    } else if a1 == a2 && b1 == b2 && a1 == b1 {
        Some(true)
    } else {
        None
    };
    let (a, b) = ((a1, a2), (b1, b2));
    match op {
        Comparison::Eq => eq,
        Comparison::Ne => eq.map(|e| !e),
        Comparison::Lt => lt(a, b),
        Comparison::Gt => lt(b, a),
        Comparison::Le => lt(b, a).map(|x| !x),
        Comparison::Ge => lt(a, b).map(|x| !x),
    }
}
