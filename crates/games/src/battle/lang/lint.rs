//! Warnings: programs that load but will misbehave (docs/LANGUAGE.md, "Warnings"). A small
//! analysis of the program's control graph — a test branches both ways, an action hands
//! the next turn to the following step, `RAZ` and `GO n` jump; with the TI-57 keywords
//! (RULES A.12) `GTO` and `SBR` jump to labels, `INV SBR` returns after any `SBR`, `x=t`
//! and `DSZ` branch, `R/S` stops — and of conditions whose answer is known before the match.

use super::ast::{Instruction, Key, Program, Span};
pub use super::holds::{Context, never_holds};

/// What a warning is about. Each has a stable id (`W-…`) for editors and `--deny-warnings`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum WarningId {
    /// The program has no step at all.
    Empty,
    /// No path from step 1 reaches an action.
    NeverActs,
    /// A path reads past the last step: the robot idles from then on (R-A10).
    PastTheEnd,
    /// A test as the last step: both answers lead past the end.
    TestLast,
    /// Control steps that read one another with no action between (R-A11).
    Stall,
    /// Steps no path from step 1 reaches.
    Unreachable,
    /// A test defined but used by no step.
    UnusedTest,
    /// A match's signal naming a control step or an empty one (R-A14).
    SignalDoesNothing,
    /// A conditional signal whose condition can never hold.
    NeverHolds,
}

impl WarningId {
    pub const ALL: [WarningId; 9] = [
        WarningId::Empty,
        WarningId::NeverActs,
        WarningId::PastTheEnd,
        WarningId::TestLast,
        WarningId::Stall,
        WarningId::Unreachable,
        WarningId::UnusedTest,
        WarningId::SignalDoesNothing,
        WarningId::NeverHolds,
    ];

    pub fn code(self) -> &'static str {
        match self {
            WarningId::Empty => "W-empty",
            WarningId::NeverActs => "W-never-acts",
            WarningId::PastTheEnd => "W-past-the-end",
            WarningId::TestLast => "W-test-last",
            WarningId::Stall => "W-stall",
            WarningId::Unreachable => "W-unreachable",
            WarningId::UnusedTest => "W-unused-test",
            WarningId::SignalDoesNothing => "W-signal-does-nothing",
            WarningId::NeverHolds => "W-never-holds",
        }
    }
}

/// A warning about a program: what, where (a span of its source) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    pub id: WarningId,
    pub span: Span,
    pub message: String,
}

/// Where reading can go from a step, within the turn or at the next one.
#[derive(Clone)]
enum Next {
    /// An action: the turn ends, the next one reads the following step.
    Later(usize),
    /// A control step: reading goes on at once, at one of these steps.
    Now(Vec<usize>),
    /// `*`: the robot is gone; `R/S`: its program has stopped (R-A29).
    Gone,
}

fn next(program: &Program, step: usize, instruction: Instruction) -> Next {
    // A jump to label n reads the step after `LBL n`: here, the label's own step, which
    // does nothing and leads there, so that the label counts as reached (R-A24).
    let label = |n: u8| program.calc.labels[usize::from(n) % 10].map_or(step + 1, usize::from);
    match instruction {
        Instruction::SelfDestruct | Instruction::Calc(Key::Stop) => Next::Gone,
        Instruction::Test(_) | Instruction::Calc(Key::Test(_) | Key::Dsz { .. }) => {
            Next::Now(vec![step + 1, step + 2])
        }
        Instruction::Reset => Next::Now(vec![1]),
        Instruction::Go(n) => Next::Now(vec![usize::from(n)]),
        Instruction::Calc(Key::Goto(n)) => Next::Now(vec![label(n)]),
        // The subroutine, and later (through `INV SBR`) the step after the call (R-A25).
        Instruction::Calc(Key::Call(n)) => Next::Now(vec![label(n), step + 1]),
        // Back to the step after some `SBR`: the program's calls say which; with nothing
        // remembered, the turn ends and the next reads the following step (R-A25).
        Instruction::Calc(Key::Return) => Next::Now(
            program
                .steps
                .iter()
                .filter(|s| matches!(s.instruction, Instruction::Calc(Key::Call(_))))
                .map(|s| s.number + 1)
                .chain((step < program.len()).then_some(step + 1))
                .collect(),
        ),
        Instruction::Calc(Key::Pause) => Next::Later(step + 1),
        Instruction::Calc(_) => Next::Now(vec![step + 1]),
        _ => Next::Later(step + 1),
    }
}

/// Bits for steps 1..=63 (bit `n` is step `n`).
type Steps = u64;

fn bit(step: usize) -> Steps {
    1u64.checked_shl(u32::try_from(step).unwrap_or(u32::MAX))
        .unwrap_or(0)
}

/// Everything wrong with a program that still loads, in step order. `source` is the text
/// the program was read from: an action step whose comment starts with `signal` (`7: D+2
/// # signal only: charge`) is meant to be named by radio signals, and is not reported as
/// unreachable.
pub fn lint_program(program: &Program, source: &str) -> Vec<Warning> {
    let len = program.len();
    let mut warnings = Vec::new();
    if len == 0 {
        warnings.push(Warning {
            id: WarningId::Empty,
            span: Span::default(),
            message: "the program has no steps: the robot idles every turn (R-A10)".into(),
        });
        return warnings;
    }
    // The analysis holds programs up to 63 steps (MAX_PROGRAM_STEPS): one bit a step.
    if len >= 64 {
        return warnings;
    }
    let instr = |s: usize| program.steps[s - 1].instruction;
    let span = |s: usize| program.steps[s - 1].span;
    let (mut reached, exits) = reachable(program);
    let acts = (1..=len).any(|s| reached & bit(s) != 0 && instr(s).is_action());
    let loops = control_loops(program, reached);
    if acts {
        for &s in &exits {
            warnings.push(past_the_end(s, len, instr(s), span(s)));
        }
        for looped in &loops {
            warnings.push(Warning {
                id: WarningId::Stall,
                span: span(looped[0]),
                message: format!(
                    "{} with no action between: a robot that gets there reads on and on, and stalls every turn (R-A11)",
                    loop_words(looped)
                ),
            });
        }
    } else {
        let why = if loops.is_empty() {
            "then reads past the end of the program and idles (R-A10)"
        } else {
            "and stalls every turn (R-A11)"
        };
        let controls = if program.uses_ti57() {
            "`?n`, `GO n`, `RAZ`, the TI-57 keywords"
        } else {
            "`?n`, `GO n`, `RAZ`"
        };
        warnings.push(Warning {
            id: WarningId::NeverActs,
            span: span(1),
            message: format!(
                "the program can never act: from step 1 it reads only control steps ({controls}) {why}"
            ),
        });
    }
    for s in 1..=len {
        if instr(s).is_action() && signal_only(source, span(s)) {
            reached |= bit(s);
        }
    }
    unreachable_runs(program, reached, &mut warnings);
    unused_tests(program, &mut warnings);
    warnings.sort_by_key(|w| (w.span.start, w.id));
    warnings
}

/// The steps a path from step 1 reaches, and the reached steps that lead past the end.
fn reachable(program: &Program) -> (Steps, Vec<usize>) {
    let len = program.len();
    let mut reached: Steps = bit(1);
    let mut stack = vec![1usize];
    let mut exits: Vec<usize> = Vec::new();
    while let Some(s) = stack.pop() {
        let targets = match next(program, s, program.steps[s - 1].instruction) {
            Next::Later(t) => vec![t],
            Next::Now(targets) => targets,
            Next::Gone => Vec::new(),
        };
        for t in targets {
            if t > len {
                if !exits.contains(&s) {
                    exits.push(s);
                }
            } else if reached & bit(t) == 0 {
                reached |= bit(t);
                stack.push(t);
            }
        }
    }
    exits.sort_unstable();
    (reached, exits)
}

/// One warning per run of consecutive steps outside `reached`.
fn unreachable_runs(program: &Program, reached: Steps, warnings: &mut Vec<Warning>) {
    let len = program.len();
    let mut s = 1;
    while s <= len {
        if reached & bit(s) != 0 {
            s += 1;
            continue;
        }
        let first = s;
        while s < len && reached & bit(s + 1) == 0 {
            s += 1;
        }
        let which = if first == s {
            format!("step {first} is")
        } else {
            format!("steps {first}–{s} are")
        };
        warnings.push(Warning {
            id: WarningId::Unreachable,
            span: program.steps[first - 1].span,
            message: format!(
                "{which} never read: no path from step 1 gets there (only a radio signal could make it act)"
            ),
        });
        s += 1;
    }
}

fn unused_tests(program: &Program, warnings: &mut Vec<Warning>) {
    for test in program.tests.iter().flatten() {
        let used = program
            .steps
            .iter()
            .any(|s| s.instruction == Instruction::Test(test.number));
        if !used {
            warnings.push(Warning {
                id: WarningId::UnusedTest,
                span: test.span,
                message: format!(
                    "test {n} is defined but no step asks it: add a step `?{n}`, or remove the test",
                    n = test.number
                ),
            });
        }
    }
}

/// Whether the comment after a step, on its line, starts with the word `signal`.
fn signal_only(source: &str, span: Span) -> bool {
    let rest = source.get(span.end..).unwrap_or("");
    let line = rest.split(['\n', '\r']).next().unwrap_or("").trim_start();
    let comment = line
        .strip_prefix('#')
        .or_else(|| line.strip_prefix("//"))
        .unwrap_or("");
    comment
        .trim_start()
        .get(..6)
        .is_some_and(|w| w.eq_ignore_ascii_case("signal"))
}

/// The warning for a reachable step `s` that leads past the end of the program.
fn past_the_end(s: usize, len: usize, instruction: Instruction, span: Span) -> Warning {
    let (id, message) = match instruction {
        Instruction::Test(n) if s == len => (
            WarningId::TestLast,
            format!(
                "`?{n}` is the last step: whichever the answer, the robot reads past the end of the program and idles from then on (R-A10)"
            ),
        ),
        Instruction::Test(n) => (
            WarningId::PastTheEnd,
            format!(
                "when test {n} says no, step {s} skips past the end of the program: the robot idles from then on (R-A10); add a step {len_1}",
                len_1 = len + 1
            ),
        ),
        _ => (
            WarningId::PastTheEnd,
            format!(
                "after step {s} the robot reads past the end of the program and idles for the rest of the match (R-A10): end with `GO 1` or `RAZ` to start again"
            ),
        ),
    };
    Warning { id, span, message }
}

/// Loops of reachable control steps that read one another within a turn, each listed from
/// its first step, in step order.
fn control_loops(program: &Program, reached: Steps) -> Vec<Vec<usize>> {
    let len = program.len();
    let control = |s: usize| {
        s <= len && reached & bit(s) != 0 && !program.steps[s - 1].instruction.is_action()
    };
    // reach[s]: the control steps reachable from control step s by one or more reads.
    let mut reach = vec![0 as Steps; len + 1];
    for s in (1..=len).filter(|&s| control(s)) {
        let instruction = program.steps[s - 1].instruction;
        if let Next::Now(mut targets) = next(program, s, instruction) {
            // A cycle through an `SBR` with no return ends at the third nested call, which
            // ends the turn (R-A25): calls and returns are left out of the loops sought here.
            if matches!(instruction, Instruction::Calc(Key::Call(_) | Key::Return)) {
                targets.clear();
            }
            for t in targets.into_iter().filter(|&t| control(t)) {
                reach[s] |= bit(t);
            }
        }
    }
    // Transitive closure (at most 63 steps: a few thousand word operations).
    for k in 1..=len {
        for s in 1..=len {
            if reach[s] & bit(k) != 0 {
                reach[s] |= reach[k];
            }
        }
    }
    let mut seen: Steps = 0;
    let mut loops = Vec::new();
    for s in 1..=len {
        if reach[s] & bit(s) == 0 || seen & bit(s) != 0 {
            continue;
        }
        let members: Vec<usize> = (s..=len)
            .filter(|&t| t == s || (reach[s] & bit(t) != 0 && reach[t] & bit(s) != 0))
            .collect();
        for &t in &members {
            seen |= bit(t);
        }
        loops.push(members);
    }
    loops
}

/// "step 1 reads itself", "steps 2, 3 and 5 read one another".
fn loop_words(steps: &[usize]) -> String {
    match steps {
        [one] => format!("step {one} reads itself"),
        [init @ .., last] => format!(
            "steps {} and {last} read one another",
            init.iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        [] => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::lang::{parse_condition, parse_program};
    use crate::battle::terrain::TeamColour;

    fn ids(source: &str) -> Vec<(WarningId, usize)> {
        let program = parse_program("p.robot", source, 15).expect("the test program loads");
        lint_program(&program, source)
            .into_iter()
            .map(|w| {
                let line = source[..w.span.start].matches('\n').count() + 1;
                (w.id, line)
            })
            .collect()
    }

    /// The warnings of a program written with the TI-57 keywords (RULES A.12).
    fn ti57_ids(source: &str) -> Vec<(WarningId, usize)> {
        let k = super::super::ast::Keywords::Ti57;
        let program = crate::battle::lang::parse_program_in("p.robot", source, 50, k)
            .expect("the test program loads");
        lint_program(&program, source)
            .into_iter()
            .map(|w| (w.id, source[..w.span.start].matches('\n').count() + 1))
            .collect()
    }

    #[test]
    fn ti57_subroutines_labels_and_stops_have_no_warning() {
        // A subroutine at the end, called twice; GTO to a label; R/S ends it (R-A24, R-A25,
        // R-A29): no step past the end, none unreachable, no stall.
        let found = ti57_ids(
            "1: LBL 0\n2: SBR 1\n3: D+1\n4: SBR 1\n5: DSZ\n6: GTO 0\n7: R/S\n8: LBL 1\n9: R+1\n10: INV SBR\n",
        );
        assert_eq!(found, []);
    }

    #[test]
    fn ti57_an_inv_sbr_with_nothing_remembered_hands_the_turn_on() {
        // The turn ends at step 1 and the next reads step 2 (R-A25): the robot acts.
        assert_eq!(ti57_ids("1: RTN\n2: R+1\n3: RST\n"), []);
        // A self-calling subroutine ends at the third nested call: no stall (R-A25).
        assert_eq!(ti57_ids("1: LBL 1\n2: SBR 1\n3: R+1\n4: RST\n"), []);
    }

    #[test]
    fn a_looping_program_has_no_warning() {
        assert_eq!(
            ids("1: ?1\n2: T\n3: R+1\n4: RAZ\ntest 1: enemy ahead\n"),
            []
        );
    }

    #[test]
    fn an_action_last_step_runs_past_the_end() {
        assert_eq!(ids("1: D+1\n2: R+1\n"), [(WarningId::PastTheEnd, 2)]);
    }

    #[test]
    fn a_test_skipping_past_the_end() {
        let found = ids("1: T\n2: ?1\n3: GO 1\ntest 1: enemy ahead\n");
        assert_eq!(found, [(WarningId::PastTheEnd, 2)]);
    }

    #[test]
    fn a_test_as_the_last_step() {
        let found = ids("1: T\n2: ?1\ntest 1: enemy ahead\n");
        assert_eq!(found, [(WarningId::TestLast, 2)]);
    }

    #[test]
    fn a_control_loop_stalls() {
        let found = ids("1: T\n2: ?1\n3: GO 2\n4: RAZ\ntest 1: enemy ahead\n");
        assert_eq!(found, [(WarningId::Stall, 2)]);
        let message = &lint_program(
            &parse_program(
                "p",
                "1: T\n2: ?1\n3: GO 2\n4: RAZ\ntest 1: enemy ahead\n",
                15,
            )
            .unwrap(),
            "",
        )[0]
        .message;
        assert!(
            message.starts_with("steps 2 and 3 read one another"),
            "{message}"
        );
    }

    #[test]
    fn a_program_of_controls_never_acts() {
        assert_eq!(ids("1: GO 1\n"), [(WarningId::NeverActs, 1)]);
        assert_eq!(
            ids("1: ?1\n2: RAZ\n3: RAZ\ntest 1: enemy ahead\n"),
            [(WarningId::NeverActs, 1)]
        );
    }

    #[test]
    fn unreachable_steps_are_reported_as_runs() {
        let found = ids("1: T\n2: RAZ\n3: D+1\n4: D+2\n5: RAZ\n");
        assert_eq!(found, [(WarningId::Unreachable, 3)]);
    }

    #[test]
    fn a_step_commented_as_signal_only_is_not_unreachable() {
        let found = ids("1: T\n2: RAZ\n3: D+1  # signal only\n4: *  // Signal: boom\n");
        assert_eq!(found, []);
        // A control step cannot act on a signal (R-A14): the comment does not excuse it.
        let found = ids("1: T\n2: RAZ\n3: RAZ  # signal\n");
        assert_eq!(found, [(WarningId::Unreachable, 3)]);
    }

    #[test]
    fn a_test_nobody_asks() {
        let found = ids("1: T\n2: RAZ\ntest 2: lake ahead 1\n");
        assert_eq!(found, [(WarningId::UnusedTest, 3)]);
    }

    #[test]
    fn an_empty_program() {
        assert_eq!(ids("# nothing\n"), [(WarningId::Empty, 1)]);
    }

    #[test]
    fn self_destruct_ends_the_program_without_a_warning() {
        assert_eq!(ids("1: D+1\n2: *\n"), []);
    }

    fn never(text: &str) -> bool {
        let condition = parse_condition("when", text).expect("the condition parses");
        let context = Context {
            teams: vec![TeamColour::Green, TeamColour::Violet],
            robots: 4,
            shots: 10,
            steps: 6,
        };
        never_holds(&condition, &context)
    }

    #[test]
    fn conditions_that_can_never_hold() {
        assert!(never("false"));
        assert!(never("shots > 10"));
        assert!(never("count(enemy) < 0"));
        assert!(never("count(enemy) > 4"));
        assert!(never("damage = 7"));
        assert!(never("red robot ahead"));
        assert!(never("count(red robots) >= 1"));
        assert!(never("enemy ahead and not true"));
        assert!(never("not (facing 1 or true)"));
        assert!(never("1 > 2 or false"));
    }

    #[test]
    fn conditions_that_may_hold() {
        assert!(!never("true"));
        assert!(!never("shots > 9"));
        assert!(!never("count(enemy) <= 0"));
        assert!(!never("count(edge ahead within 3) > 100"));
        assert!(!never("violet robot ahead"));
        assert!(!never("facing 1 or false"));
        assert!(!never("not count(red robots) >= 1"));
        assert!(!never("damage = 6"));
    }
}
