//! Each program's turns worked out once, before play: from every step a turn can start at, the
//! plain control steps it reads (`?n`, `RAZ`, `GO n`) up to the step that ends the turn, as a
//! decision tree on the answers of tests 1–4 (RULES A.4–A.6, R-A10, R-A11). A turn then asks
//! only its tests and jumps straight to its action; a node knows the steps read on the way
//! to it, so a robot with destroyed steps idles at the first it reads (R-A9). Only for the
//! plain language: the step loop of `robot.rs` reads TI-57 programs (A.12).

use crate::battle::lang::{Instruction, MAX_PROGRAM_STEPS, Program};
use std::sync::Arc;

/// The steps a turn can start at: the start box (0), steps 1–63 and the two past them (R-A10).
pub(crate) const STARTS: usize = MAX_PROGRAM_STEPS + 3;
/// The most nodes and passed steps a plan may take. Written programs take a few hundred;
/// a long one that is all jumps between four tests could take some 100,000 passed steps, and
/// reads its steps one by one instead.
const MAX_NODES: usize = 4096;
const MAX_PASSED: usize = 16 * 1024;

/// A control step read on the way, for the events of a recorded turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Passed {
    /// `?n` at `step`, already answered this turn.
    Tested { step: u8, test: u8, answer: bool },
    /// `RAZ` at `step`.
    Reset { step: u8 },
    /// `GO to` at `step`.
    Jumped { step: u8, to: u8 },
}

impl Passed {
    pub(crate) fn step(self) -> u8 {
        match self {
            Passed::Tested { step, .. } | Passed::Reset { step } | Passed::Jumped { step, .. } => {
                step
            }
        }
    }
}

/// The bit of a step in a mask of destroyed steps (R-A9; none past 63).
pub(crate) fn step_bit(step: u8) -> u64 {
    1u64.checked_shl(u32::from(step)).unwrap_or(0)
}

/// What a node does once the control steps of its trail are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Then {
    /// `?test` at the node's step, not yet answered this turn: test slot `test - 1`'s answer
    /// leads to node `yes` or `no`.
    Ask { test: u8, yes: u16, no: u16 },
    /// The action at the node's step ends the turn.
    Act(Instruction),
    /// An empty step: the robot idles (A.6).
    Empty,
    /// The loop guard: more control steps than the program has (R-A11).
    Stalled,
}

/// A node of a turn's decision tree: the control steps passed since the previous node
/// (`trail`, a range of [`Plan::passed`]), then the step where it acts, asks or stops.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    pub then: Then,
    pub step: u8,
    trail: (u16, u16),
    /// The written steps read up to and with this one, as a mask of steps: a robot with one
    /// of them destroyed idles at the first (R-A9).
    pub reads: u64,
    /// The reads of every node from the turn's start up to and with this one: a turn that
    /// ends here read no destroyed step if none of these is.
    pub path: u64,
    /// The node before this one in the turn ([`NO_PARENT`] at a turn's start).
    parent: u16,
}

/// The parent of a turn's first node.
const NO_PARENT: u16 = u16::MAX;

/// Where [`Plan::walk`] starts: the control steps read so far, the steps read by the nodes
/// before, and the node before.
#[derive(Clone, Copy)]
struct Before {
    controls: usize,
    before: u64,
    parent: u16,
}

/// Past [`MAX_NODES`] or [`MAX_PASSED`]: the plan is given up.
#[derive(Debug)]
struct TooBig;

/// One program's turns: where a turn starting at each step begins in [`Plan::nodes`].
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    starts: [u16; STARTS],
    /// By a robot's pointer, where its next turn begins: the start after the pointer, or at
    /// it past the end of the program (R-A10, `Robot::next_step`).
    after: [u16; STARTS],
    nodes: Vec<Node>,
    passed: Vec<Passed>,
}

impl Plan {
    /// Works out every turn of the program of `steps` (`len` steps long), unless the plan
    /// would be too big.
    pub(crate) fn new(steps: &[Option<Instruction>], len: usize) -> Option<Plan> {
        let mut plan = Plan {
            starts: [0; STARTS],
            after: [0; STARTS],
            nodes: Vec::new(),
            passed: Vec::new(),
        };
        for at in 0..STARTS {
            let from = Before {
                controls: 0,
                before: 0,
                parent: NO_PARENT,
            };
            plan.starts[at] = plan.walk(steps, len, at, from, [None; 4]).ok()?;
        }
        // A pointer past the end stays (at most the last start); one within the program
        // (at most 63) moves on to the next step.
        plan.after = std::array::from_fn(|pointer| {
            plan.starts[if pointer > len { pointer } else { pointer + 1 }]
        });
        Some(plan)
    }

    /// The first node of a robot's next turn, from its pointer (the last step read).
    #[inline]
    pub(crate) fn next_turn(&self, pointer: u8) -> &Node {
        self.node(self.next_turn_index(usize::from(pointer)))
    }

    /// The index of [`Plan::next_turn`]'s node.
    #[inline]
    pub(crate) fn next_turn_index(&self, pointer: usize) -> u16 {
        self.after.get(pointer).copied().unwrap_or(0)
    }

    /// How many nodes the plan has.
    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }

    #[inline]
    pub(crate) fn node(&self, i: u16) -> &Node {
        // Every index was pushed by `walk`, and a plan has at least one node per start.
        &self.nodes[usize::from(i)]
    }

    /// Where a turn that reaches `node` stops at a step of `destroyed` (R-A9), if it reads one
    /// on the way. Inlined: most turns read no destroyed step, and the one test tells.
    #[inline(always)]
    pub(crate) fn destroyed_stop(&self, node: &Node, destroyed: u64) -> Option<u8> {
        if node.path & destroyed == 0 {
            return None;
        }
        self.first_destroyed(node, destroyed)
    }

    /// [`Plan::destroyed_stop`] for a turn that reads a destroyed step: out of line.
    #[inline(never)]
    fn first_destroyed(&self, node: &Node, destroyed: u64) -> Option<u8> {
        // Up from `node` to the turn's start: the last hit found is the first read.
        let (mut at, mut hit) = (node, node);
        while let Some(parent) = self.nodes.get(usize::from(at.parent)) {
            at = parent;
            if at.reads & destroyed != 0 {
                hit = at;
            }
        }
        Some(self.stop_in(hit, destroyed).1)
    }

    /// Where a turn stops in `node`, which reads a step of `destroyed`: at the first of its
    /// trail that is (its index), or at its own step.
    pub(crate) fn stop_in(&self, node: &Node, destroyed: u64) -> (Option<usize>, u8) {
        let trail = self.trail(node);
        let stop = trail
            .iter()
            .position(|p| step_bit(p.step()) & destroyed != 0);
        (stop, stop.map_or(node.step, |i| trail[i].step()))
    }

    /// The control steps read before `node`.
    pub(crate) fn trail(&self, node: &Node) -> &[Passed] {
        let (from, len) = node.trail;
        let from = usize::from(from);
        self.passed
            .get(from..from + usize::from(len))
            .unwrap_or(&[])
    }

    /// Reads from `at` as the step loop does, `controls` control steps already read and the
    /// steps read before (`before`), and the tests answered so far in `known`, up to a node;
    /// returns its index.
    fn walk(
        &mut self,
        steps: &[Option<Instruction>],
        len: usize,
        mut at: usize,
        from: Before,
        known: [Option<bool>; 4],
    ) -> Result<u16, TooBig> {
        let mut controls = from.controls;
        let trail_from = self.passed.len();
        let (step, then) = loop {
            // `at` stays within the table: starts are, tests add at most 2 to a step of the
            // program, jumps go to one (validated at load).
            let step = u8::try_from(at).unwrap_or(u8::MAX);
            let Some(instruction) = steps.get(at).copied().flatten() else {
                break (step, Then::Empty);
            };
            if !matches!(
                instruction,
                Instruction::Test(_) | Instruction::Reset | Instruction::Go(_)
            ) {
                break (step, Then::Act(instruction));
            }
            controls += 1;
            if controls > len {
                break (step, Then::Stalled);
            }
            if self.passed.len() >= MAX_PASSED {
                return Err(TooBig);
            }
            at = match instruction {
                Instruction::Test(test) => {
                    let slot = usize::from(test.wrapping_sub(1)) % 4;
                    let Some(answer) = known[slot] else {
                        break (
                            step,
                            Then::Ask {
                                test,
                                yes: 0,
                                no: 0,
                            },
                        );
                    };
                    self.passed.push(Passed::Tested { step, test, answer });
                    if answer { at + 1 } else { at + 2 }
                }
                Instruction::Go(to) => {
                    self.passed.push(Passed::Jumped { step, to });
                    usize::from(to)
                }
                _ => {
                    self.passed.push(Passed::Reset { step });
                    1
                }
            };
        };
        let (index, reads) = self.push_node(then, step, trail_from, from)?;
        if let Then::Ask { test, .. } = then {
            let slot = usize::from(test.wrapping_sub(1)) % 4;
            let at = usize::from(step);
            let mut answered = known;
            answered[slot] = Some(true);
            let path = Before {
                controls,
                before: from.before | reads,
                parent: index,
            };
            let yes = self.walk(steps, len, at + 1, path, answered)?;
            answered[slot] = Some(false);
            let no = self.walk(steps, len, at + 2, path, answered)?;
            self.nodes[usize::from(index)].then = Then::Ask { test, yes, no };
        }
        Ok(index)
    }

    /// Adds the node that a walk from `from` reaches at `step`, its trail the steps passed
    /// from `trail_from`; returns its index and the steps it reads.
    fn push_node(
        &mut self,
        then: Then,
        step: u8,
        trail_from: usize,
        from: Before,
    ) -> Result<(u16, u64), TooBig> {
        let trail_len = self.passed.len() - trail_from;
        let mut reads = self.passed[trail_from..]
            .iter()
            .fold(0, |m, p| m | step_bit(p.step()));
        if then != Then::Empty {
            reads |= step_bit(step);
        }
        if self.nodes.len() >= MAX_NODES {
            return Err(TooBig);
        }
        let index = u16::try_from(self.nodes.len()).map_err(|_| TooBig)?;
        self.nodes.push(Node {
            then,
            step,
            trail: (
                u16::try_from(trail_from).map_err(|_| TooBig)?,
                u16::try_from(trail_len).map_err(|_| TooBig)?,
            ),
            reads,
            path: from.before | reads,
            parent: from.parent,
        });
        Ok((index, reads))
    }
}

/// The plans worked out so far, by program: kept across the setups of a workload, so each
/// program is planned once (`Prepared::each`).
pub(crate) type PlanCache = Vec<(Arc<Program>, Option<Arc<Plan>>)>;

/// Each program's plan from its step table (`fixed.rs`), worked out once for the robots that
/// share it (and the setups that share `done`).
pub(crate) fn plans(
    programs: &[Arc<Program>],
    steps: &[[Option<Instruction>; STARTS]],
    done: &mut PlanCache,
) -> Vec<Option<Arc<Plan>>> {
    programs
        .iter()
        .zip(steps)
        .map(|(program, table)| {
            if let Some((_, plan)) = done.iter().find(|(p, _)| Arc::ptr_eq(p, program)) {
                return plan.clone();
            }
            let plan = Plan::new(table, program.len()).map(Arc::new);
            done.push((Arc::clone(program), plan.clone()));
            plan
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::battle::engine::event::Event;
    use crate::battle::engine::{Match, MatchSetup, RobotSetup, Rules, Scenario, TeamSetup};
    use crate::battle::files::shipped;
    use crate::battle::lang::parse_program;
    use crate::battle::terrain::TeamColour;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use std::sync::Arc;

    const CONDITIONS: [&str; 6] = [
        "enemy ahead within 2",
        "lake ahead 1 or edge ahead 1 or robot ahead 1",
        "shots > 3",
        "friend within 2",
        "facing 1 or facing 4",
        "not enemy right within 6",
    ];

    /// A random program of jumps, tests, `RAZ`, actions and gaps (which may not parse).
    fn random_program(rng: &mut ChaCha8Rng) -> String {
        let len = rng.random_range(2..16usize);
        let mut code = String::new();
        for n in 1..=len {
            let step = match rng.random_range(0..10) {
                0 | 1 => format!("?{}", rng.random_range(1..5)),
                2 => "RAZ".to_string(),
                3 | 4 => format!("GO {}", rng.random_range(1..=len)),
                5 => "D+1".to_string(),
                6 => "R+1".to_string(),
                7 => "T".to_string(),
                8 => "R-1".to_string(),
                _ => continue,
            };
            code.push_str(&format!("{n}: {step}\n"));
        }
        for t in 1..=4 {
            let c = CONDITIONS[rng.random_range(0..CONDITIONS.len())];
            code.push_str(&format!("test {t}: {c}\n"));
        }
        code
    }

    fn setup(programs: &[Arc<crate::battle::lang::Program>], seed: u64) -> MatchSetup {
        let board = Arc::new(
            crate::battle::files::board_file::parse_board("b", shipped::BOARDS[0].1)
                .expect("shipped"),
        );
        let team = |colour, ps: &[Arc<crate::battle::lang::Program>]| TeamSetup {
            colour,
            robots: ps
                .iter()
                .map(|p| RobotSetup {
                    program: Arc::clone(p),
                    origin: "random".into(),
                    source: "".into(),
                    at: None,
                    facing: None,
                })
                .collect(),
        };
        MatchSetup {
            name: "plans".into(),
            board,
            scenario: Scenario::Elimination,
            rules: Rules::default(),
            seed,
            teams: vec![
                team(TeamColour::Green, &programs[..2]),
                team(TeamColour::Violet, &programs[2..]),
            ],
            signals: vec![],
        }
    }

    /// A hostile program, 63 steps of tests and jumps between them: its plan stays within
    /// its bounds or is given up (the step loop reads it), and it plays as the step loop does.
    #[test]
    fn a_maze_of_tests_and_jumps_has_a_bounded_plan() {
        let mut code = String::new();
        for n in 1..=63usize {
            let step = if n % 5 == 0 {
                format!("GO {}", (n * 7) % 63 + 1)
            } else {
                format!("?{}", n % 4 + 1)
            };
            code.push_str(&format!("{n}: {step}\n"));
        }
        for (t, condition) in (1..=4).zip(&CONDITIONS[1..]) {
            code.push_str(&format!("test {t}: {condition}\n"));
        }
        let program = Arc::new(parse_program("maze.robot", &code, 63).expect("a valid maze"));
        let steps: Vec<_> = (0..super::STARTS).map(|n| program.instruction(n)).collect();
        if let Some(plan) = super::Plan::new(&steps, program.len()) {
            assert!(plan.nodes.len() <= super::MAX_NODES);
            assert!(plan.passed.len() <= super::MAX_PASSED);
        }
        let programs = vec![Arc::clone(&program); 4];
        let mut setup = setup(&programs, 3);
        setup.rules.program_steps = 63;
        let mut fast = Match::new(&setup).expect("free start points");
        let mut fixed = crate::battle::engine::fixed_for(&setup, &mut Default::default());
        fixed.plans = vec![None; programs.len()];
        let mut slow =
            crate::battle::engine::start(&setup, setup.seed, Arc::new(fixed)).expect("free");
        for _ in 0..200 {
            let (mut a, mut b): (Vec<Event>, Vec<Event>) = (Vec::new(), Vec::new());
            assert_eq!(fast.step_into(&mut a), slow.step_into(&mut b));
            assert_eq!(a, b);
        }
        assert_eq!(fast.state(), slow.state());
    }

    /// Four random programs, their texts beside them; `None` when one does not parse.
    fn four_random_programs(
        rng: &mut ChaCha8Rng,
    ) -> Option<(Vec<String>, Vec<Arc<crate::battle::lang::Program>>)> {
        let texts: Vec<String> = (0..4).map(|_| random_program(rng)).collect();
        let programs = texts
            .iter()
            .map(|t| parse_program("random.robot", t, 15).map(Arc::new))
            .collect::<Result<Vec<_>, _>>()
            .ok()?;
        Some((texts, programs))
    }

    /// Turns played from the plans give the same events and states, turn by turn, as the
    /// step loop reading every step (the loop guard, gaps and jumps included, R-A10/R-A11).
    #[test]
    fn a_planned_turn_is_the_step_loop_s_turn() {
        let mut rng = ChaCha8Rng::seed_from_u64(16);
        let (mut matches, mut planned, mut idled) = (0, 0, 0);
        while matches < 150 {
            let Some((texts, programs)) = four_random_programs(&mut rng) else {
                continue;
            };
            let setup = setup(&programs, matches);
            matches += 1;
            let mut fast = Match::new(&setup).expect("free start points");
            planned += fast.fixed.plans.iter().filter(|p| p.is_some()).count();
            let mut fixed = crate::battle::engine::fixed_for(&setup, &mut Default::default());
            fixed.plans = vec![None; programs.len()];
            let mut slow =
                crate::battle::engine::start(&setup, setup.seed, Arc::new(fixed)).expect("free");
            // Lightning's work, in every other match: some steps destroyed (R-A9).
            if matches % 2 == 0 {
                for (a, b) in fast.state.robots.iter_mut().zip(&mut slow.state.robots) {
                    let destroyed =
                        rng.random_range(0..1u64 << 16) & rng.random_range(0..1u64 << 16);
                    a.destroyed = destroyed << 1;
                    b.destroyed = destroyed << 1;
                    idled += u64::from(destroyed != 0);
                }
            }
            for _ in 0..400 {
                let (mut a, mut b): (Vec<Event>, Vec<Event>) = (Vec::new(), Vec::new());
                let going = fast.step_into(&mut a);
                assert_eq!(going, slow.step_into(&mut b));
                assert_eq!(a, b, "{texts:?}");
                assert_eq!(fast.state(), slow.state(), "{texts:?}");
                if !going {
                    break;
                }
            }
        }
        assert_eq!(planned, 4 * 150, "every random program has its plan");
        assert!(idled > 100, "{idled} robots with destroyed steps");
    }

    /// Random programs (gaps, jumps, the loop guard, steps destroyed by lightning and
    /// shots): turns played from the brains, recording nothing, leave the states the plans'
    /// walk leaves, recording events (`brain.rs`).
    #[test]
    fn a_fused_turn_is_the_planned_turn() {
        let mut rng = ChaCha8Rng::seed_from_u64(37);
        let (mut matches, mut fused, mut idled) = (0, 0, 0);
        while matches < 150 {
            let Some((texts, programs)) = four_random_programs(&mut rng) else {
                continue;
            };
            let setup = setup(&programs, matches);
            matches += 1;
            let mut fast = Match::new(&setup).expect("free start points");
            fused += fast.fixed.brains.iter().filter(|b| b.is_some()).count();
            // Lightning's work, in every other match: some steps destroyed (R-A9).
            if matches % 2 == 0 {
                for robot in &mut fast.state.robots {
                    let destroyed =
                        rng.random_range(0..1u64 << 16) & rng.random_range(0..1u64 << 16);
                    robot.destroyed = destroyed << 1;
                    idled += u64::from(destroyed != 0);
                }
            }
            let mut slow = fast.clone();
            for _ in 0..400 {
                let mut events = Vec::new();
                let going = slow.step_into(&mut events);
                assert_eq!(
                    going,
                    fast.step_into(&mut crate::battle::engine::Unrecorded)
                );
                assert_eq!(fast.state(), slow.state(), "{texts:?}");
                if !going {
                    break;
                }
            }
        }
        assert_eq!(fused, 4 * 150, "every random program has its brain");
        assert!(idled > 100, "{idled} robots with destroyed steps");
    }
}
