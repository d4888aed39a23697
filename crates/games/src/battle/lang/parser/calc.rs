//! The TI-57 keywords of a step (RULES A.12): pest pairs walked into a [`Key`], each refused
//! without the rule, labels recorded (R-A24) and `x = TERM` terms kept (R-A27).

use super::grammar::Rule;
use super::{Result, Walker};
use crate::battle::lang::ast::*;
use pest::iterators::Pair;

impl Walker<'_> {
    /// The keyword of the step numbered `step` (a label's step is recorded).
    pub(super) fn key(&self, pair: Pair<Rule>, step: usize) -> Result<Key> {
        let rule = pair.as_rule();
        let words = pair
            .as_str()
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_ascii_uppercase();
        let what = match rule {
            Rule::literal => "a number as a step".to_string(),
            Rule::sense | Rule::x_test_eq | Rule::x_test_ge | Rule::swap_xt => {
                format!("`{}`", pair.as_str().trim())
            }
            _ => format!("`{words}`"),
        };
        self.ti57(&pair, &what)?;
        let key = match rule {
            Rule::lbl => self.label_key(&pair, step)?,
            Rule::gto => Key::Goto(self.label(&arg(&pair).expect("grammar: GTO n"))?),
            Rule::sbr => Key::Call(self.label(&arg(&pair).expect("grammar: SBR n"))?),
            Rule::rtn => Key::Return,
            Rule::sto | Rule::rcl | Rule::sum | Rule::prd | Rule::exc => {
                self.memory_key(rule, &pair)?
            }
            Rule::inv_key => self.inverse_key(&pair)?,
            Rule::swap_xt => Key::SwapXt,
            Rule::clear_t => Key::ClearT,
            Rule::x_test_eq => Key::Test(XtTest::Equal),
            Rule::x_test_ge => Key::Test(XtTest::AtLeast),
            Rule::sense => self.sense_key(&pair)?,
            Rule::dsz => Key::Dsz { inverse: false },
            Rule::pause => Key::Pause,
            Rule::run_stop => Key::Stop,
            Rule::nop => Key::Nop,
            Rule::literal => self.literal(&pair)?,
            other => unreachable!("grammar: not an instruction: {other:?}"),
        };
        Ok(key)
    }

    /// `LBL n`: the label, recorded at its step (R-A24).
    fn label_key(&self, pair: &Pair<Rule>, step: usize) -> Result<Key> {
        let n = self.label(&arg(pair).expect("grammar: LBL n"))?;
        let mut calc = self.calc.borrow_mut();
        let slot = &mut calc.labels[usize::from(n)];
        if let Some(first) = *slot {
            return Err(self.error(
                pair,
                format!("label {n} is written twice (first at step {first}): each label marks one step (R-A24)"),
            ));
        }
        *slot = Some(u8::try_from(step).expect("validated: at most 63 steps"));
        Ok(Key::Label(n))
    }

    /// `STO n`, `RCL n`, `SUM n`, `PRD n`, `EXC n`.
    fn memory_key(&self, rule: Rule, pair: &Pair<Rule>) -> Result<Key> {
        let op = match rule {
            Rule::sto => MemoryOp::Store,
            Rule::rcl => MemoryOp::Recall,
            Rule::sum => MemoryOp::Add,
            Rule::prd => MemoryOp::Multiply,
            _ => MemoryOp::Exchange,
        };
        Ok(Key::Memory(
            op,
            self.register_arg(&arg(pair).expect("grammar: a register"))?,
        ))
    }

    /// `INV` and the key it inverts.
    fn inverse_key(&self, pair: &Pair<Rule>) -> Result<Key> {
        let inner = pair
            .clone()
            .into_inner()
            .nth(1)
            .expect("grammar: INV and a key");
        Ok(match inner.as_rule() {
            Rule::sum | Rule::prd => {
                let op = if inner.as_rule() == Rule::sum {
                    MemoryOp::Subtract
                } else {
                    MemoryOp::Divide
                };
                Key::Memory(op, self.register_arg(&arg(&inner).expect("grammar"))?)
            }
            Rule::dsz => Key::Dsz { inverse: true },
            Rule::clear_t => Key::ClearAll,
            Rule::x_test_eq => Key::Test(XtTest::NotEqual),
            Rule::x_test_ge => Key::Test(XtTest::Below),
            _ => Key::Return,
        })
    }

    /// `x = TERM`: the term kept (R-A27).
    fn sense_key(&self, pair: &Pair<Rule>) -> Result<Key> {
        let term = pair
            .clone()
            .into_inner()
            .find(|p| p.as_rule() == Rule::quantity)
            .expect("grammar: x = TERM");
        let text = term.as_str().trim().to_string();
        let quantity = self.quantity(term)?;
        let mut calc = self.calc.borrow_mut();
        let index = u8::try_from(calc.senses.len()).expect("validated: at most 63 steps");
        calc.senses.push((quantity, text));
        Ok(Key::Sense(index))
    }

    /// A number written as a step (R-A26).
    fn literal(&self, pair: &Pair<Rule>) -> Result<Key> {
        let text = pair.as_str().trim();
        let n: i64 = text.trim_start_matches('+').parse().unwrap_or(i64::MAX);
        let n = i32::try_from(n).map_err(|_| {
            self.error(
                pair,
                format!(
                    "the number `{text}` is out of range: numbers are {} to {} (R-A26)",
                    i32::MIN,
                    i32::MAX
                ),
            )
        })?;
        let mut calc = self.calc.borrow_mut();
        let index = u8::try_from(calc.numbers.len()).expect("validated: at most 63 steps");
        calc.numbers.push(n);
        Ok(Key::Number(index))
    }

    /// A label: 0 to 9 (R-A24).
    fn label(&self, pair: &Pair<Rule>) -> Result<u8> {
        let n = self.number(pair)?;
        u8::try_from(n)
            .ok()
            .filter(|n| *n <= 9)
            .ok_or_else(|| self.error(pair, format!("labels are 0 to 9, not {n} (R-A24)")))
    }

    /// A register of `STO`, `RCL`, `SUM`, `PRD`, `EXC`: 0 to 7 (R-A26).
    fn register_arg(&self, pair: &Pair<Rule>) -> Result<u8> {
        let n = self.number(pair)?;
        u8::try_from(n)
            .ok()
            .filter(|n| *n <= 7)
            .ok_or_else(|| self.error(pair, format!("the memories are R0 to R7, not R{n} (R-A26)")))
    }
}

/// The number after a keyword (`STO 3`, `LBL 1`).
fn arg<'i>(pair: &Pair<'i, Rule>) -> Option<Pair<'i, Rule>> {
    pair.clone()
        .into_inner()
        .find(|q| q.as_rule() == Rule::key_arg)
}
