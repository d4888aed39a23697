//! Test conditions compiled once a match into flat jumping code answered with a few bit
//! operations (RULES A.9). A test is a list of [`Leaf`] questions, each with where to go on
//! `yes` and on `no`: another leaf or a verdict, so `and`, `or` and `not` cost nothing when
//! the test is asked. Robots are answered from a `Sight` of the other robots worked out once
//! a turn (each one's distance and line from the acting robot, as bit masks); terrain on a
//! line or under the robot from the board's terrain classes (an `or` of such questions on
//! one region is one set, an `or` of two robot questions on one range one question); shots, facings and numbers directly. Anything else (counts,
//! terrain in rings or anywhere, damage, another team's robots, memories of the TI-57 rule,
//! A.12) is answered by the tree walk of `query.rs` (`ask.rs` asks): the compiled form
//! answers exactly as the tree does.

use super::near::Near;
use super::sight::{DistanceSet, Kind, Slot, near_asked};
use super::terrain::{ClassSet, Line};
use crate::battle::engine::state::RobotId;
use crate::battle::hex::Direction;
use crate::battle::lang::{
    Comparison, Condition, Own, Program, Quantity, Region, Selector, Subject, Who,
};
use crate::battle::terrain::TeamColour;
use std::sync::Arc;

/// Where to go after a leaf: the index of another leaf, or one of the two verdicts.
pub(crate) type Next = u32;
/// Where a robot's tests 1–4 start (`None`: not defined).
pub(crate) type Entries = [Option<Next>; 4];
/// The test holds.
pub(crate) const YES: Next = Next::MAX;
/// The test does not hold.
pub(crate) const NO: Next = Next::MAX - 1;

/// One question of a compiled test, and where its answers lead. Every leaf leads only to
/// leaves compiled before it, or to a verdict: a walk is at most as long as the test.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Leaf {
    pub question: Question,
    pub yes: Next,
    pub no: Next,
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum Question {
    /// Another robot at distances in `range`, from the [`Sight`]'s sets at `slots` (enemies
    /// or friends on a line relative to the facing, or in the ring; a robot of any team is
    /// in both sets, and an `or` joins two questions on one range).
    ///
    /// [`Sight`]: super::sight::Sight
    Robots {
        slots: [Slot; 2],
        range: DistanceSet,
    },
    /// [`Question::Robots`] as a [`Near`] holds it: the robots asked about.
    Near(Near),
    /// Another robot of a kind at distances in `range` on the line of absolute direction
    /// `dir`.
    RobotsToward {
        who: Kind,
        dir: Direction,
        range: DistanceSet,
    },
    /// A hex of any of the classes of `set` on a line, hexes `min..=max` along it
    /// ([`ClassSet::EDGE`]: off the board).
    TerrainLine {
        set: ClassSet,
        line: Line,
        min: u8,
        max: u8,
    },
    /// A line's first two hexes: the first of a class of `sets[0]` or the second of a class
    /// of `sets[1]` (from the board's table; [`Question::TerrainLine`] with `max` at most 2).
    TerrainNear {
        sets: [ClassSet; 2],
        line: Line,
    },
    /// The robot's own hex is of a class of `set`.
    TerrainHere(ClassSet),
    Facing(Direction),
    /// `shots` compared with a number ([`Question::Compare`] of [`Term::Shots`] and
    /// [`Term::Number`]): bit `v` of `holds` tells whether `v` shots compare so, for `v`
    /// below 64; `op` and `n` answer past that.
    Shots {
        holds: u64,
        op: Comparison,
        n: i32,
    },
    Compare(Term, Comparison, Term),
    /// Left to the tree walk: an index into [`Compiled::trees`].
    Tree(u32),
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum Term {
    Number(i32),
    Shots,
    Facing,
    /// Left to the tree walk: an index into [`Compiled::quantities`].
    Tree(u32),
}

/// Every robot's tests of a match, compiled for its team.
#[derive(Clone, Debug, Default)]
pub(crate) struct Compiled {
    pub(crate) leaves: Vec<Leaf>,
    pub(crate) trees: Vec<Condition>,
    pub(crate) quantities: Vec<Quantity>,
    /// Per robot, where each of its tests 1–4 starts (`None`: not defined).
    entries: Vec<Entries>,
}

impl Compiled {
    /// The tests of every robot: `robots` lists each one's program and team colour. Robots of
    /// a team that share a program share its compiled tests.
    pub(crate) fn new(robots: &[(&Arc<Program>, TeamColour)], teams: &[TeamColour]) -> Compiled {
        let mut out = Compiled {
            leaves: Vec::with_capacity(16 * robots.len()),
            entries: Vec::with_capacity(robots.len()),
            ..Compiled::default()
        };
        let mut done: Vec<(&Arc<Program>, TeamColour, Entries)> = Vec::new();
        for &(program, own) in robots {
            let same = |d: &&(&Arc<Program>, _, _)| Arc::ptr_eq(d.0, program) && d.1 == own;
            if let Some(&(.., entries)) = done.iter().find(same) {
                out.entries.push(entries);
                continue;
            }
            let compiler = Compiler { own, teams };
            let entries = program
                .tests
                .each_ref()
                .map(|t| t.as_ref().map(|t| out.add(&compiler, &t.condition)));
            done.push((program, own, entries));
            out.entries.push(entries);
        }
        out
    }

    /// Where each of a robot's tests 1–4 starts (`None`: not defined).
    #[inline]
    pub(crate) fn entries(&self, id: RobotId) -> &Entries {
        self.entries.get(id.index()).unwrap_or(&[None; 4])
    }

    /// Where a robot's test starts, if the robot has it.
    #[inline]
    pub(crate) fn entry(&self, id: RobotId, slot: usize) -> Option<Next> {
        self.entries.get(id.index())?.get(slot).copied().flatten()
    }

    /// Compiles one condition; returns where it starts.
    pub(crate) fn add(&mut self, compiler: &Compiler, condition: &Condition) -> Next {
        self.code(compiler, condition, YES, NO)
    }

    fn leaf(&mut self, question: Question, yes: Next, no: Next) -> Next {
        let question = shots(near(near_robots(question)));
        let at = Next::try_from(self.leaves.len()).expect("MAX_TERMS a test, 54 robots");
        self.leaves.push(Leaf { question, yes, no });
        at
    }

    fn tree(&mut self, condition: &Condition) -> Question {
        let at = u32::try_from(self.trees.len()).expect("MAX_TERMS a test, 54 robots");
        self.trees.push(condition.clone());
        Question::Tree(at)
    }

    fn term(&mut self, q: &Quantity) -> Term {
        match q {
            Quantity::Number(n) => Term::Number(*n),
            Quantity::ShotsLeft => Term::Shots,
            Quantity::Own(Own::Facing) => Term::Facing,
            _ => {
                let at = u32::try_from(self.quantities.len()).expect("MAX_TERMS a test");
                self.quantities.push(q.clone());
                Term::Tree(at)
            }
        }
    }

    /// The code of `condition` that goes on to `yes` or `no`; returns where it starts. Built
    /// backwards: the last part first, so that every leaf leads to leaves already built.
    fn code(&mut self, compiler: &Compiler, condition: &Condition, yes: Next, no: Next) -> Next {
        match condition {
            Condition::And(parts) => parts
                .iter()
                .rev()
                .fold(yes, |next, p| self.code(compiler, p, next, no)),
            Condition::Or(parts) => self.code_or(compiler, parts, yes, no),
            Condition::Not(inner) => self.code(compiler, inner, no, yes),
            Condition::Truth(b) => {
                if *b {
                    yes
                } else {
                    no
                }
            }
            Condition::Facing(d) => self.leaf(Question::Facing(*d), yes, no),
            Condition::Compare(a, op, b) => {
                let question = Question::Compare(self.term(a), *op, self.term(b));
                self.leaf(question, yes, no)
            }
            Condition::Present(selector) => match compiler.present(selector) {
                Some(Presence::Never) => no,
                Some(Presence::Ask(question)) => self.leaf(question, yes, no),
                None => {
                    let question = self.tree(condition);
                    self.leaf(question, yes, no)
                }
            },
            Condition::InCamp(_) => {
                let question = self.tree(condition);
                self.leaf(question, yes, no)
            }
        }
    }

    /// An `or`: its terrain questions on one region joined into one set, in the place of the
    /// first of them (answers have no side effects, so the order does not matter).
    fn code_or(&mut self, compiler: &Compiler, parts: &[Condition], yes: Next, no: Next) -> Next {
        enum Part<'c> {
            Code(&'c Condition),
            Terrain(Question),
        }
        let mut joined: Vec<Part> = Vec::with_capacity(parts.len());
        for part in parts {
            let Some(question) = compiler.terrain_question(part) else {
                joined.push(Part::Code(part));
                continue;
            };
            let merged = joined.iter_mut().any(|p| match p {
                Part::Terrain(q) => join(q, question),
                Part::Code(_) => false,
            });
            if !merged {
                joined.push(Part::Terrain(question));
            }
        }
        joined.iter().rev().fold(no, |next, part| match part {
            Part::Code(c) => self.code(compiler, c, yes, next),
            Part::Terrain(q) => self.leaf(*q, yes, next),
        })
    }
}

/// Joins `b` into `a` when both ask about terrain in the same region.
fn join(a: &mut Question, b: Question) -> bool {
    match (a, b) {
        (
            Question::TerrainLine {
                set,
                line,
                min,
                max,
            },
            Question::TerrainLine {
                set: s2,
                line: l2,
                min: m2,
                max: x2,
            },
        ) if *line == l2 && *min == m2 && *max == x2 => {
            *set |= s2;
            true
        }
        (Question::TerrainHere(set), Question::TerrainHere(s2)) => {
            *set |= s2;
            true
        }
        // Two masks at most: `enemy right within 6 or enemy behind-right within 6`.
        (
            Question::Robots { slots, range },
            Question::Robots {
                slots: s2,
                range: r2,
            },
        ) if *range == r2 => {
            let mut union: Vec<Slot> = slots.iter().chain(&s2).copied().collect();
            union.sort_unstable();
            union.dedup();
            match union[..] {
                [a] => *slots = [a, a],
                [a, b] => *slots = [a, b],
                _ => return false,
            }
            true
        }
        _ => false,
    }
}

/// A terrain question on a line's first two hexes, from the board's table of them. (Distance
/// 0 is never walked: `min` 0 asks from the first hex.)
fn near(question: Question) -> Question {
    match question {
        Question::TerrainLine {
            set,
            line,
            min,
            max,
        } if (1..=2).contains(&max) && min <= max => Question::TerrainNear {
            sets: [
                if min <= 1 { set } else { ClassSet::NONE },
                if max == 2 { set } else { ClassSet::NONE },
            ],
            line,
        },
        q => q,
    }
}

/// A question about robots on a line relative to the facing or in a ring, as a
/// [`Question::Near`] when a [`Near`] holds its range.
fn near_robots(question: Question) -> Question {
    match question {
        Question::Robots { slots, range } => {
            near_asked(slots, range).map_or(question, Question::Near)
        }
        q => q,
    }
}

/// A comparison of `shots` with a number, from a mask of the counts that hold.
fn shots(question: Question) -> Question {
    match question {
        Question::Compare(Term::Shots, op, Term::Number(n)) => Question::Shots {
            holds: (0..64)
                .filter(|&v| op.holds(v, n))
                .fold(0, |m, v| m | 1 << v),
            op,
            n,
        },
        q => q,
    }
}

/// What a `Present` condition compiles to.
enum Presence {
    /// Never true (another robot on the compiler's own hex).
    Never,
    Ask(Question),
}

/// The compiler of one team's tests (compile time; [`super::ask::Ask`] asks them at run
/// time): what it needs to know of the asking robot's team: its colour and the match's
/// team colours (for `own` and `enemy` camps and computers).
pub(crate) struct Compiler<'a> {
    pub own: TeamColour,
    pub teams: &'a [TeamColour],
}

impl Compiler<'_> {
    /// A condition that is one terrain question on a line or under the robot, or one question
    /// about robots of the acting robot's sight, or an `or` of such questions that [`join`]
    /// makes one: that question.
    fn terrain_question(&self, condition: &Condition) -> Option<Question> {
        match condition {
            Condition::Present(selector) => match self.present(selector)? {
                Presence::Ask(
                    q @ (Question::TerrainLine { .. }
                    | Question::TerrainHere(_)
                    | Question::Robots { .. }),
                ) => Some(q),
                _ => None,
            },
            Condition::Or(parts) => {
                let (first, rest) = parts.split_first()?;
                let mut question = self.terrain_question(first)?;
                for part in rest {
                    if !join(&mut question, self.terrain_question(part)?) {
                        return None;
                    }
                }
                Some(question)
            }
            _ => None,
        }
    }

    fn present(&self, selector: &Selector) -> Option<Presence> {
        match (selector.subject, selector.region) {
            (Subject::Robots(who), region) => {
                let who = match who {
                    Who::Any => Kind::Any,
                    Who::Enemy => Kind::Enemy,
                    Who::Friend => Kind::Friend,
                    Who::Team(_) => return None,
                };
                let range = match region {
                    Region::Anywhere => DistanceSet::ANY,
                    // Two robots never share a hex.
                    Region::Here => return Some(Presence::Never),
                    Region::Ring { min, max } | Region::Line { min, max, .. } => {
                        DistanceSet::range(min, max)?
                    }
                };
                Some(Presence::Ask(match region {
                    Region::Line { dir, .. } => match Line::of(dir) {
                        Line::Absolute(dir) => Question::RobotsToward { who, dir, range },
                        Line::Relative(sixths) => Question::Robots {
                            slots: who.slots(Slot::line(sixths)),
                            range,
                        },
                    },
                    _ => Question::Robots {
                        slots: who.slots(Slot::RING),
                        range,
                    },
                }))
            }
            (Subject::Terrain(kind), Region::Line { dir, min, max }) => {
                Some(Presence::Ask(Question::TerrainLine {
                    set: ClassSet::of(kind, self.own, self.teams),
                    line: Line::of(dir),
                    min,
                    max,
                }))
            }
            // The robot's hex is on the board: never the edge.
            (Subject::Terrain(kind), Region::Here) => Some(Presence::Ask(Question::TerrainHere(
                ClassSet::of(kind, self.own, self.teams).on_board(),
            ))),
            (Subject::Terrain(_), Region::Ring { .. } | Region::Anywhere) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::query;
    use super::super::sight::Sight;
    use super::{Compiled, Compiler};
    use crate::battle::engine::{Match, MatchSetup, RobotSetup, Rules, Scenario, TeamSetup};
    use crate::battle::files::shipped;
    use crate::battle::hex::Direction;
    use crate::battle::lang::{Condition, Keywords, parse_program_in};
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use std::sync::Arc;

    /// Every condition of the shipped programs, of the benchmark's, of the condition table
    /// of the tests, and a few more (memories of the TI-57 rule, far lines, `at`).
    fn conditions() -> Vec<Condition> {
        let mut texts: Vec<&str> = shipped::PROGRAMS.iter().map(|(_, t)| *t).collect();
        texts.extend([
            include_str!("../../../../../../programs/bench/sentinel.robot"),
            include_str!("../../../../../../programs/bench/wanderer.robot"),
            include_str!("../../../../../../programs/bench/flanker.robot"),
            include_str!("../../../../../../programs/bench/turret.robot"),
            include_str!("../../../../../../programs/ti57/patrol.robot"),
            include_str!("../../../../../../programs/ti57/sbr_hunter.robot"),
            include_str!("../../../../../../programs/ti57/tracker.robot"),
            include_str!("../../../../../../tests/programs/conditions.robot"),
        ]);
        let extra = "test 1: R0 > 0 and (x = 3 or t < -1) or R7 >= R1\n\
            test 1: edge behind within 50 or edge ahead-left at 3 or green camp ahead 2\n\
            test 1: count(enemy ahead) = 1 or count(robot within 50) > 2 or facing = 3\n\
            test 1: violet computer ahead within 9 or plain here and not own camp ahead 1\n\
            test 1: enemy in direction 2 within 4 or friend in direction 5 at 1 or lake within 2\n\
            test 1: enemy ahead 1 or friend ahead 1 or robot ahead 1 or enemy behind 1\n\
            test 1: friend left within 3 or enemy within 3 or friend right within 3\n\
            test 1: not (robot ahead within 2 or enemy behind within 2) or friend within 1\n\
            test 1: enemy ahead at 7 or friend behind within 6 and not robot left within 9\n\
            test 1: friend ahead-left or enemy within 7 or not (robot behind at 6 or enemy)\n";
        let mut out = Vec::new();
        for line in texts.iter().flat_map(|t| t.lines()).chain(extra.lines()) {
            let Some(rest) = line.strip_prefix("test ") else {
                continue;
            };
            let Some((_, condition)) = rest.split_once(':') else {
                continue;
            };
            let code = format!("1: ?1\n2: RAZ\ntest 1: {condition}\n");
            let program = parse_program_in("c", &code, 50, Keywords::Ti57)
                .unwrap_or_else(|e| panic!("{condition}: {e:?}"));
            let test = program.tests[0].clone().expect("test 1");
            out.push(test.condition);
        }
        assert!(out.len() > 60, "{}", out.len());
        out
    }

    /// A match of two robots a team on a shipped board, under the TI-57 rule (memories).
    fn setup(board: &str) -> MatchSetup {
        let board = Arc::new(
            crate::battle::files::board_file::parse_board(
                "b",
                shipped::board(board).expect("shipped"),
            )
            .expect("a shipped board"),
        );
        let code = "1: R+1\n";
        let program = Arc::new(parse_program_in("p", code, 50, Keywords::Ti57).expect("valid"));
        let teams = board
            .camp_colours()
            .into_iter()
            .map(|colour| TeamSetup {
                colour,
                robots: (0..2)
                    .map(|_| RobotSetup {
                        program: Arc::clone(&program),
                        origin: "p".into(),
                        source: code.into(),
                        at: None,
                        facing: None,
                    })
                    .collect(),
            })
            .collect();
        MatchSetup {
            name: "compiled".into(),
            board,
            scenario: Scenario::Elimination,
            rules: Rules {
                keywords: Keywords::Ti57,
                ..Rules::default()
            },
            seed: 0,
            teams,
            signals: vec![],
        }
    }

    fn pick(rng: &mut ChaCha8Rng, n: usize) -> usize {
        rng.random_range(0..n)
    }

    /// Random states (robots on distinct hexes, facings, shots, damage, deaths, memories):
    /// the compiled form answers every condition as the tree walk does, for every robot.
    #[test]
    fn the_compiled_form_answers_as_the_tree_walk() {
        let conditions = conditions();
        let mut rng = ChaCha8Rng::seed_from_u64(16);
        let mut asked = 0u64;
        for board in ["classic", "duel", "melee"] {
            let mut m = Match::new(&setup(board)).expect("a valid setup");
            let cells = m.fixed.board.len();
            for _ in 0..300 {
                let mut used: Vec<usize> = Vec::new();
                for i in 0..m.state.robots.len() {
                    let mut cell = pick(&mut rng, cells);
                    while used.contains(&cell) {
                        cell = pick(&mut rng, cells);
                    }
                    used.push(cell);
                    let robot = &mut m.state.robots[i];
                    robot.cell = m.fixed.board.cell_id(cell).expect("on the board");
                    robot.facing = Direction::ALL[pick(&mut rng, 6)];
                    robot.shots = u8::try_from(pick(&mut rng, 11)).expect("small");
                    robot.alive = pick(&mut rng, 5) != 0;
                    robot.destroyed = rng.random_range(0..8u64) << 1;
                    let (bit, alive) = (
                        crate::battle::engine::state::RobotId::at(i).bit(),
                        robot.alive,
                    );
                    m.state.on_board = m.state.on_board & !bit | if alive { bit } else { 0 };
                    let memories = &mut m.state.memories[i];
                    memories.x = i32::try_from(pick(&mut rng, 9)).expect("small") - 3;
                    memories.t = i32::try_from(pick(&mut rng, 9)).expect("small") - 3;
                    for r in &mut memories.r {
                        *r = i32::try_from(pick(&mut rng, 9)).expect("small") - 3;
                    }
                }
                for id in m.robot_ids() {
                    let robot = m.state.robot(id);
                    let compiler = Compiler {
                        own: m.fixed.teams[robot.team.index()],
                        teams: &m.fixed.teams,
                    };
                    let mut sight = Sight::default();
                    for condition in &conditions {
                        let mut code = Compiled::default();
                        let entry = code.add(&compiler, condition);
                        let tree = query::evaluate(&m.fixed, &m.state, id, condition);
                        let flat =
                            query::ask(&m.fixed, &m.state, id, &mut sight).holds(&code, entry);
                        assert_eq!(flat, tree, "{condition:?} for {:?} in {:?}", robot, code);
                        asked += 1;
                    }
                }
            }
        }
        assert!(asked > 100_000, "{asked}");
    }
}
