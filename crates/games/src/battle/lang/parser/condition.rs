//! The conditions of tests and conditional signals (RULES A.9): pest pairs walked into a
//! [`Condition`], with their errors in words.

use super::grammar::Rule;
use super::{Result, Walker, hint};
use crate::battle::hex::Direction;
use crate::battle::lang::ast::*;
use crate::battle::terrain::{Form, ShapeColour, TeamColour};
use pest::iterators::Pair;

impl Walker<'_> {
    pub(super) fn condition(&self, pair: Pair<Rule>) -> Result<Condition> {
        match pair.as_rule() {
            Rule::condition => {
                let inner = pair.into_inner().next().expect("grammar: condition");
                self.condition(inner)
            }
            Rule::disjunction | Rule::conjunction => {
                let is_or = pair.as_rule() == Rule::disjunction;
                let mut parts = Vec::new();
                for p in pair.into_inner() {
                    if !matches!(p.as_rule(), Rule::kw_or | Rule::kw_and) {
                        parts.push(self.condition(p)?);
                    }
                }
                Ok(if parts.len() == 1 {
                    parts.pop().expect("one part")
                } else if is_or {
                    Condition::Or(parts)
                } else {
                    Condition::And(parts)
                })
            }
            Rule::negation => {
                let mut inner = pair
                    .into_inner()
                    .filter(|p| !matches!(p.as_rule(), Rule::open_paren | Rule::close_paren));
                let first = inner.next().expect("grammar: negation");
                if first.as_rule() == Rule::kw_not {
                    let rest = inner.next().expect("grammar: not <condition>");
                    Ok(Condition::Not(Box::new(self.condition(rest)?)))
                } else {
                    self.condition(first)
                }
            }
            Rule::comparison => {
                let mut inner = pair.into_inner();
                let a = self.quantity(inner.next().expect("grammar"))?;
                let op = match inner.next().expect("grammar").as_str() {
                    "=" | "==" => Comparison::Eq,
                    "!=" => Comparison::Ne,
                    "<" => Comparison::Lt,
                    "<=" => Comparison::Le,
                    ">" => Comparison::Gt,
                    _ => Comparison::Ge,
                };
                let b = self.quantity(inner.next().expect("grammar"))?;
                Ok(Condition::Compare(a, op, b))
            }
            Rule::facing => {
                let n = pair
                    .into_inner()
                    .find(|p| p.as_rule() == Rule::number)
                    .expect("grammar");
                Ok(Condition::Facing(self.direction(&n)?))
            }
            Rule::in_camp => {
                let owner = pair.into_inner().find(|p| p.as_rule() == Rule::word);
                Ok(Condition::InCamp(match owner {
                    Some(w) => self.camp_owner(&w)?,
                    None => CampOwner::Any,
                }))
            }
            Rule::truth => Ok(Condition::Truth(
                pair.into_inner()
                    .next()
                    .is_some_and(|p| p.as_rule() == Rule::kw_true),
            )),
            Rule::presence => {
                let sel = pair.into_inner().next().expect("grammar: presence");
                Ok(Condition::Present(self.selector(sel)?))
            }
            other => unreachable!("grammar: not a condition: {other:?}"),
        }
    }

    pub(super) fn quantity(&self, pair: Pair<Rule>) -> Result<Quantity> {
        let inner = pair.into_inner().next().expect("grammar: quantity");
        Ok(match inner.as_rule() {
            Rule::count => {
                let sel = inner
                    .into_inner()
                    .find(|p| p.as_rule() == Rule::selector)
                    .expect("grammar");
                Quantity::Count(self.selector(sel)?)
            }
            Rule::shots => Quantity::ShotsLeft,
            Rule::damage => Quantity::DestroyedSteps,
            Rule::facing_value => Quantity::Own(Own::Facing),
            Rule::memory => Quantity::Own(Own::Memory(self.register(&inner)?)),
            Rule::negative => Quantity::Number(inner.as_str().parse().map_err(|_| {
                self.error(
                    &inner,
                    format!("the number `{}` is too large", inner.as_str()),
                )
            })?),
            _ => {
                let n = self.number(&inner)?;
                Quantity::Number(i32::try_from(n).map_err(|_| {
                    self.error(
                        &inner,
                        format!("the number `{}` is too large", inner.as_str()),
                    )
                })?)
            }
        })
    }

    /// `x`, `t`, `R0`…`R7`: a memory of the TI-57 rule (R-A26).
    fn register(&self, pair: &Pair<Rule>) -> Result<Register> {
        let text = pair.as_str();
        self.ti57(pair, &format!("the memory `{text}`"))?;
        let lower = text.to_ascii_lowercase();
        match lower.as_bytes() {
            [b'x'] => Ok(Register::X),
            [b't'] => Ok(Register::T),
            [b'r', d @ b'0'..=b'7'] => Ok(Register::R(d - b'0')),
            _ => Err(self.error(
                pair,
                format!("there are memories R0 to R7 only, not `{text}` (R-A26)"),
            )),
        }
    }

    fn direction(&self, pair: &Pair<Rule>) -> Result<Direction> {
        let n = self.number(pair)?;
        Direction::from_number(n)
            .ok_or_else(|| self.error(pair, format!("directions are numbered 1 to 6, not {n}")))
    }

    fn distance(&self, pair: &Pair<Rule>) -> Result<u8> {
        let n = self.number(pair)?;
        u8::try_from(n)
            .ok()
            .filter(|n| (1..=MAX_DISTANCE).contains(n))
            .ok_or_else(|| {
                self.error(
                    pair,
                    format!("a distance is between 1 and {MAX_DISTANCE} hexes, not {n}"),
                )
            })
    }

    fn selector(&self, pair: Pair<Rule>) -> Result<Selector> {
        let mut subject = None;
        let mut region = Region::Anywhere;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::subject => subject = Some(self.subject(p)?),
                Rule::region => region = self.region(p)?,
                _ => {}
            }
        }
        Ok(Selector {
            subject: subject.expect("grammar: a selector has a subject"),
            region,
        })
    }

    fn region(&self, pair: Pair<Rule>) -> Result<Region> {
        let inner = pair.into_inner().next().expect("grammar: region");
        match inner.as_rule() {
            Rule::anywhere => Ok(Region::Anywhere),
            Rule::here => Ok(Region::Here),
            Rule::ring_region => {
                let (min, max) = self.range(inner.into_inner().next().expect("grammar"))?;
                Ok(Region::Ring { min, max })
            }
            Rule::line_region => {
                let mut parts = inner.into_inner();
                let dir_pair = parts.next().expect("grammar: line direction");
                let dir = {
                    let first = dir_pair.clone().into_inner().next().expect("grammar");
                    match first.as_rule() {
                        Rule::kw_ahead => LineDirection::Relative(0),
                        Rule::kw_ahead_right | Rule::kw_right => LineDirection::Relative(1),
                        Rule::kw_behind_right => LineDirection::Relative(2),
                        Rule::kw_behind => LineDirection::Relative(3),
                        Rule::kw_behind_left => LineDirection::Relative(-2),
                        Rule::kw_ahead_left | Rule::kw_left => LineDirection::Relative(-1),
                        _ => {
                            let n = dir_pair
                                .into_inner()
                                .find(|p| p.as_rule() == Rule::number)
                                .expect("grammar");
                            LineDirection::Absolute(self.direction(&n)?)
                        }
                    }
                };
                let (min, max) = match parts.next() {
                    Some(range) => self.range(range)?,
                    None => (1, MAX_DISTANCE),
                };
                Ok(Region::Line { dir, min, max })
            }
            other => unreachable!("grammar: not a region: {other:?}"),
        }
    }

    /// `within n` is 1..=n; `at n`, `at distance n` and a bare `n` are exactly n.
    fn range(&self, pair: Pair<Rule>) -> Result<(u8, u8)> {
        let within = pair.as_rule() == Rule::within;
        let n = pair
            .into_inner()
            .find(|p| p.as_rule() == Rule::number)
            .expect("grammar");
        let d = self.distance(&n)?;
        Ok(if within { (1, d) } else { (d, d) })
    }

    fn camp_owner(&self, word: &Pair<Rule>) -> Result<CampOwner> {
        let w = word.as_str().to_ascii_lowercase();
        match w.as_str() {
            "own" | "my" | "home" | "friendly" | "friend" => Ok(CampOwner::Own),
            "enemy" => Ok(CampOwner::Enemy),
            "any" => Ok(CampOwner::Any),
            _ => TeamColour::parse(&w).map(CampOwner::Team).ok_or_else(|| {
                self.error(
                    word,
                    format!(
                        "unknown camp `{}`: expected `own`, `enemy`, `any` or a team colour ({})",
                        word.as_str(),
                        TeamColour::names()
                    ),
                )
            }),
        }
    }

    fn subject(&self, pair: Pair<Rule>) -> Result<Subject> {
        let words: Vec<Pair<Rule>> = pair.into_inner().collect();
        let lower: Vec<String> = words
            .iter()
            .map(|w| w.as_str().to_ascii_lowercase())
            .collect();
        match lower.as_slice() {
            [one] => self.one_word_subject(&words[0], one),
            [first, second] => self.two_word_subject(&words, first, second),
            _ => unreachable!("grammar: a subject has one or two words"),
        }
    }

    /// `enemy`, `lake`, `square`…: robots of a kind, or a kind of terrain.
    fn one_word_subject(&self, word: &Pair<Rule>, lower: &str) -> Result<Subject> {
        let words = std::slice::from_ref(word);
        let w = lower;
        if let Some(who) = who(w) {
            return Ok(Subject::Robots(who));
        }
        let kind = match w {
            "lake" | "lakes" => TerrainKind::Lake,
            "lightning" => TerrainKind::Lightning,
            "edge" => TerrainKind::Edge,
            "plain" => TerrainKind::Plain,
            "camp" | "camps" => TerrainKind::Camp(CampOwner::Any),
            "computer" | "computers" => TerrainKind::Computer(CampOwner::Any),
            _ if is_shape_noun(w) => TerrainKind::Shape(form_of(w), None),
            _ => {
                return Err(self.error(
                    &words[0],
                    format!(
                        "unknown thing `{}`{}: expected robots (`enemy`, `friend`, `any`, a team colour) or terrain (`lake`, `lightning`, `edge`, `plain`, `shape`, `square`, `triangle`, `circle`, `camp`, `computer`)",
                        words[0].as_str(),
                        hint(words[0].as_str())
                    ),
                ));
            }
        };
        Ok(Subject::Terrain(kind))
    }

    /// `enemy robots`, `red square`, `green camp`…: the second word says what, the first whose.
    fn two_word_subject(&self, words: &[Pair<Rule>], first: &str, second: &str) -> Result<Subject> {
        let (a, b) = (first, second);
        if is_robot_noun(b) {
            return who(a).map(Subject::Robots).ok_or_else(|| {
                self.error(
                    &words[0],
                    format!("unknown robots `{}`{}: expected `enemy`, `friend`, `any` or a team colour ({})", words[0].as_str(), hint(words[0].as_str()), TeamColour::names()),
                )
            });
        }
        if is_shape_noun(b) {
            let colour = ShapeColour::parse(a).ok_or_else(|| {
                self.error(
                    &words[0],
                    format!(
                        "unknown colour `{}`{}: shapes are {}",
                        words[0].as_str(),
                        hint(words[0].as_str()),
                        ShapeColour::names()
                    ),
                )
            })?;
            return Ok(Subject::Terrain(TerrainKind::Shape(
                form_of(b),
                Some(colour),
            )));
        }
        if matches!(b, "camp" | "camps") {
            return Ok(Subject::Terrain(TerrainKind::Camp(
                self.camp_owner(&words[0])?,
            )));
        }
        if matches!(b, "computer" | "computers") {
            return Ok(Subject::Terrain(TerrainKind::Computer(
                self.camp_owner(&words[0])?,
            )));
        }
        let message = if ShapeColour::parse(a).is_some() && TeamColour::parse(a).is_none() {
            format!(
                "unknown form `{}`{}: expected square, triangle, circle or shape",
                words[1].as_str(),
                hint(words[1].as_str())
            )
        } else {
            format!(
                "unknown word `{}` after `{}`{}: expected `robot`, a form (square, triangle, circle), `shape`, `camp` or `computer`, or a place (`ahead`, `behind`, `right`, `left`, `behind-right`, `behind-left`, `direction 3`, `within 2`, `at 2`, `here`, `anywhere`)",
                words[1].as_str(),
                words[0].as_str(),
                hint(words[1].as_str())
            )
        };
        Err(self.error(&words[1], message))
    }
}

/// The robots a word names (`enemy`, `friends`, `any`, a team colour).
fn who(w: &str) -> Option<Who> {
    match w {
        "enemy" | "enemies" => Some(Who::Enemy),
        "friend" | "friends" | "ally" | "allies" => Some(Who::Friend),
        "any" | "robot" | "robots" => Some(Who::Any),
        _ => TeamColour::parse(w).map(Who::Team),
    }
}

fn is_robot_noun(w: &str) -> bool {
    matches!(w, "robot" | "robots")
}

fn is_shape_noun(w: &str) -> bool {
    matches!(w, "shape" | "shapes") || Form::parse(w).is_some()
}

fn form_of(w: &str) -> Option<Form> {
    Form::parse(w)
}
