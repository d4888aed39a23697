//! Test conditions compiled once a match into a form answered with a few bit operations
//! (RULES A.9): robots from a [`Sight`] of the other robots worked out once a turn (each one's
//! distance and line from the acting robot, as bit masks), terrain on a line or under the robot
//! from a set of terrain classes (an `or` of such questions on one region is one set), shots,
//! facings and numbers directly. Anything else (counts, terrain in rings or anywhere, damage,
//! another team's robots, memories of the TI-57 rule, A.12) is answered by the tree walk of
//! `query.rs` through [`Fallback`]: the compiled form answers exactly as the tree does.

use super::state::{RobotId, State};
use crate::battle::board::{Board, CellId, NOT_IN_LINE};
use crate::battle::hex::Direction;
use crate::battle::lang::{
    CampOwner, Comparison, Condition, LineDirection, Own, Quantity, Region, Selector, Subject,
    TerrainKind, Who,
};
use crate::battle::terrain::{Form, ShapeColour, TeamColour, Terrain};

/// The tree walk, for the parts of a condition the compiled form leaves to it.
pub(super) trait Fallback {
    fn holds(&self, condition: &Condition) -> bool;
    fn quantity(&self, quantity: &Quantity) -> i32;
}

/// A condition compiled for one robot of one team.
#[derive(Clone, Debug)]
pub(super) enum Node {
    All(Vec<Node>),
    Any(Vec<Node>),
    Not(Box<Node>),
    Truth(bool),
    Facing(Direction),
    Compare(Term, Comparison, Term),
    /// Another robot of a kind (0 any, 1 enemy, 2 friend) at distances in `range`: on a
    /// line (a [`Line`]'s number) or in the ring ([`RING`]).
    Robots {
        who: u8,
        line: u8,
        range: u64,
    },
    /// A hex of any of the classes of `set` on a line, hexes `min..=max` along it.
    TerrainLine {
        set: TerrainSet,
        line: Line,
        min: u8,
        max: u8,
    },
    /// The robot's own hex is of a class of `set`.
    TerrainHere(TerrainSet),
    /// Left to the tree walk.
    Tree(Condition),
}

/// A line direction: absolute (0–5, the direction's index) or relative to the facing (6–11,
/// 6 + sixths clockwise).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Line(u8);

impl Line {
    fn of(dir: LineDirection) -> Line {
        match dir {
            LineDirection::Absolute(d) => Line(u8::try_from(d.index()).unwrap_or(0)),
            LineDirection::Relative(k) => Line(6 + u8::try_from(k.rem_euclid(6)).unwrap_or(0)),
        }
    }

    /// The direction for a robot facing `facing` (an index).
    #[inline]
    fn direction(self, facing: usize) -> Direction {
        let i = usize::from(self.0);
        Direction::ALL[if i < 6 { i } else { (facing + i - 6) % 6 }]
    }
}

/// Where a kind of robot (0 any, 1 enemy, 2 friend) is in [`Sight::masks`]: 7 masks a kind,
/// the 6 lines (absolute) then the ring.
const MASKS_PER_KIND: usize = 7;
/// The `line` of a [`Node::Robots`] that means the ring.
const RING: u8 = 12;

#[derive(Clone, Debug)]
pub(super) enum Term {
    Number(i32),
    Shots,
    Facing,
    Tree(Quantity),
}

/// Terrain classes: a bit per kind of ground (see [`terrain_bit`]), a bit per camp colour,
/// and off the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct TerrainSet {
    ground: u32,
    camps: u8,
    edge: bool,
}

impl TerrainSet {
    fn union(self, other: TerrainSet) -> TerrainSet {
        TerrainSet {
            ground: self.ground | other.ground,
            camps: self.camps | other.camps,
            edge: self.edge || other.edge,
        }
    }

    #[inline]
    fn matches(self, board: &Board, cell: CellId) -> bool {
        let c = board.cell(cell);
        self.ground >> terrain_bit(c.terrain) & 1 != 0
            || c.camp
                .is_some_and(|camp| self.camps >> camp.index() & 1 != 0)
    }
}

/// Plain 0, lake 1, lightning 2, shapes 3–20 (form × colour), computers 21–26 (camp colour).
#[inline]
fn terrain_bit(t: Terrain) -> u32 {
    match t {
        Terrain::Plain => 0,
        Terrain::Lake => 1,
        Terrain::Lightning => 2,
        Terrain::Shape(form, colour) => 3 + 6 * form_index(form) + shape_colour_index(colour),
        Terrain::Computer(camp) => 21 + u32::try_from(camp.index()).unwrap_or(0),
    }
}

fn form_index(form: Form) -> u32 {
    (0u32..)
        .zip(Form::ALL)
        .find(|(_, f)| *f == form)
        .map_or(0, |(i, _)| i)
}

fn shape_colour_index(colour: ShapeColour) -> u32 {
    (0u32..)
        .zip(ShapeColour::ALL)
        .find(|(_, c)| *c == colour)
        .map_or(0, |(i, _)| i)
}

/// What the compiler needs to know of the asking robot's team: its colour and the match's
/// team colours (for `own` and `enemy` camps and computers).
pub(super) struct Asker<'a> {
    pub own: TeamColour,
    pub teams: &'a [TeamColour],
}

impl Asker<'_> {
    fn camps(&self, owner: CampOwner) -> impl Iterator<Item = TeamColour> + '_ {
        TeamColour::ALL.into_iter().filter(move |&c| match owner {
            CampOwner::Any => true,
            CampOwner::Own => c == self.own,
            CampOwner::Enemy => c != self.own && self.teams.contains(&c),
            CampOwner::Team(t) => c == t,
        })
    }

    fn terrain(&self, kind: TerrainKind) -> TerrainSet {
        let mut set = TerrainSet::default();
        match kind {
            TerrainKind::Plain => set.ground = 1,
            TerrainKind::Lake => set.ground = 1 << 1,
            TerrainKind::Lightning => set.ground = 1 << 2,
            TerrainKind::Edge => set.edge = true,
            TerrainKind::Shape(form, colour) => {
                for f in Form::ALL
                    .into_iter()
                    .filter(|f| form.is_none_or(|w| w == *f))
                {
                    for c in ShapeColour::ALL
                        .into_iter()
                        .filter(|c| colour.is_none_or(|w| w == *c))
                    {
                        set.ground |= 1 << terrain_bit(Terrain::Shape(f, c));
                    }
                }
            }
            TerrainKind::Camp(owner) => {
                for c in self.camps(owner) {
                    set.camps |= 1 << c.index();
                }
            }
            TerrainKind::Computer(owner) => {
                for c in self.camps(owner) {
                    set.ground |= 1 << terrain_bit(Terrain::Computer(c));
                }
            }
        }
        set
    }

    /// The condition compiled; what the form does not cover stays a tree.
    pub(super) fn compile(&self, condition: &Condition) -> Node {
        match condition {
            Condition::And(parts) => Node::All(parts.iter().map(|c| self.compile(c)).collect()),
            Condition::Or(parts) => self.compile_or(parts),
            Condition::Not(inner) => Node::Not(Box::new(self.compile(inner))),
            Condition::Truth(b) => Node::Truth(*b),
            Condition::Facing(d) => Node::Facing(*d),
            Condition::Compare(a, op, b) => Node::Compare(term(a), *op, term(b)),
            Condition::Present(selector) => self
                .present(selector)
                .unwrap_or_else(|| Node::Tree(condition.clone())),
            Condition::InCamp(_) => Node::Tree(condition.clone()),
        }
    }

    /// An `or`: its terrain questions on one region joined into one set, in the place of the
    /// first of them (answers have no side effects, so the order does not matter).
    fn compile_or(&self, parts: &[Condition]) -> Node {
        let mut nodes: Vec<Node> = Vec::with_capacity(parts.len());
        for part in parts {
            let node = self.compile(part);
            let joined = nodes.iter_mut().any(|n| match (n, &node) {
                (
                    Node::TerrainLine {
                        set,
                        line,
                        min,
                        max,
                    },
                    Node::TerrainLine {
                        set: s2,
                        line: l2,
                        min: m2,
                        max: x2,
                    },
                ) if line == l2 && min == m2 && max == x2 => {
                    *set = set.union(*s2);
                    true
                }
                (Node::TerrainHere(set), Node::TerrainHere(s2)) => {
                    *set = set.union(*s2);
                    true
                }
                _ => false,
            });
            if !joined {
                nodes.push(node);
            }
        }
        if nodes.len() == 1 {
            nodes.pop().unwrap_or(Node::Truth(false))
        } else {
            Node::Any(nodes)
        }
    }

    fn present(&self, selector: &Selector) -> Option<Node> {
        match (selector.subject, selector.region) {
            (Subject::Robots(who), region) => {
                let who = match who {
                    Who::Any => 0,
                    Who::Enemy => 1,
                    Who::Friend => 2,
                    Who::Team(_) => return None,
                };
                match region {
                    Region::Anywhere => Some(Node::Robots {
                        who,
                        line: RING,
                        range: u64::MAX,
                    }),
                    // Two robots never share a hex.
                    Region::Here => Some(Node::Truth(false)),
                    Region::Ring { min, max } => Some(Node::Robots {
                        who,
                        line: RING,
                        range: range(min, max)?,
                    }),
                    Region::Line { dir, min, max } => Some(Node::Robots {
                        who,
                        line: Line::of(dir).0,
                        range: range(min, max)?,
                    }),
                }
            }
            (Subject::Terrain(kind), Region::Line { dir, min, max }) => Some(Node::TerrainLine {
                set: self.terrain(kind),
                line: Line::of(dir),
                min,
                max,
            }),
            (Subject::Terrain(kind), Region::Here) => {
                let mut set = self.terrain(kind);
                // The robot's hex is on the board.
                set.edge = false;
                Some(Node::TerrainHere(set))
            }
            (Subject::Terrain(_), Region::Ring { .. } | Region::Anywhere) => None,
        }
    }
}

fn term(q: &Quantity) -> Term {
    match q {
        Quantity::Number(n) => Term::Number(*n),
        Quantity::ShotsLeft => Term::Shots,
        Quantity::Own(Own::Facing) => Term::Facing,
        _ => Term::Tree(q.clone()),
    }
}

/// The bits of distances `min..=max`, for distances below 63 (a robot farther away sets bit
/// 63, which no range holds); `None` past that.
fn range(min: u8, max: u8) -> Option<u64> {
    if max > 62 {
        return None;
    }
    if min > max {
        return Some(0);
    }
    Some(((1u64 << (max + 1)) - 1) & !((1u64 << min) - 1))
}

/// The other live robots as the acting robot sees them, per kind (0 any, 1 enemy, 2 friend):
/// the distances at which one stands (bit `min(d, 63)`) on each line and all around
/// ([`MASKS_PER_KIND`] masks a kind), and the acting robot's facing for relative lines.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Sight {
    masks: [u64; 3 * MASKS_PER_KIND],
    facing: u8,
    /// Worked out for this turn.
    seen: bool,
}

impl Sight {
    /// Works the sight out, once a turn: robots do not move while control steps are read.
    #[inline]
    pub(super) fn see(&mut self, board: &Board, s: &State, id: RobotId) -> &Sight {
        if !self.seen {
            self.fill(board, s, id);
        }
        self
    }

    fn fill(&mut self, board: &Board, s: &State, id: RobotId) {
        let me = &s.robots[id.index()];
        let m = &mut self.masks;
        for (i, r) in s.robots.iter().enumerate() {
            if !r.alive || i == id.index() {
                continue;
            }
            let (d, line) = board.relation(me.cell, r.cell);
            let bit = 1u64 << d.min(63);
            let kind = if r.team == me.team { 2 } else { 1 };
            m[6] |= bit;
            m[kind * MASKS_PER_KIND + 6] |= bit;
            if line != NOT_IN_LINE {
                let l = usize::from(line % 6);
                m[l] |= bit;
                m[kind * MASKS_PER_KIND + l] |= bit;
            }
        }
        self.facing = u8::try_from(me.facing.index()).unwrap_or(0);
        self.seen = true;
    }

    #[inline]
    fn robots(&self, who: u8, line: u8) -> u64 {
        let slot = match line {
            0..6 => line,
            6..12 => {
                let l = self.facing + line - 6;
                if l >= 6 { l - 6 } else { l }
            }
            _ => 6,
        };
        let i = usize::from(who) * MASKS_PER_KIND + usize::from(slot);
        self.masks.get(i).copied().unwrap_or(0)
    }
}

/// What a compiled condition is asked about: the board, the state, the acting robot.
pub(super) struct Ask<'a, F: Fallback> {
    pub board: &'a Board,
    pub s: &'a State,
    pub id: RobotId,
    pub sight: &'a Sight,
    pub fallback: &'a F,
}

impl<F: Fallback> Ask<'_, F> {
    fn term(&self, t: &Term) -> i32 {
        match t {
            Term::Number(n) => *n,
            Term::Shots => i32::from(self.s.robots[self.id.index()].shots),
            Term::Facing => i32::from(self.s.robots[self.id.index()].facing.number()),
            Term::Tree(q) => self.fallback.quantity(q),
        }
    }

    pub(super) fn holds(&self, node: &Node) -> bool {
        match node {
            Node::All(parts) => parts.iter().all(|n| self.holds(n)),
            Node::Any(parts) => parts.iter().any(|n| self.holds(n)),
            Node::Not(inner) => !self.holds(inner),
            Node::Robots { who, line, range } => self.sight.robots(*who, *line) & range != 0,
            Node::TerrainLine {
                set,
                line,
                min,
                max,
            } => self.terrain_line(*set, *line, *min, *max),
            Node::Truth(b) => *b,
            Node::Facing(d) => self.s.robots[self.id.index()].facing == *d,
            Node::Compare(a, op, b) => op.holds(self.term(a), self.term(b)),
            Node::TerrainHere(set) => set.matches(self.board, self.s.robots[self.id.index()].cell),
            Node::Tree(condition) => self.fallback.holds(condition),
        }
    }

    /// Walks the neighbour table; a straight line that leaves the (rectangular) board never
    /// comes back, and every position from there on counts as `edge` (R-A22).
    fn terrain_line(&self, set: TerrainSet, line: Line, min: u8, max: u8) -> bool {
        let me = &self.s.robots[self.id.index()];
        let dir = line.direction(me.facing.index());
        let mut at = me.cell;
        for k in 1..=max {
            let Some(c) = self.board.neighbour(at, dir) else {
                return set.edge;
            };
            at = c;
            if k >= min && set.matches(self.board, c) {
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::super::query;
    use super::super::{Match, MatchSetup, RobotSetup, Rules, Scenario, TeamSetup};
    use super::{Asker, Sight};
    use crate::battle::hex::Direction;
    use crate::battle::lang::{Condition, Keywords, parse_program_in};
    use crate::battle::shipped;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use std::sync::Arc;

    /// Every condition of the shipped programs, of the benchmark's, of the condition table
    /// of the tests, and a few more (memories of the TI-57 rule, far lines, `at`).
    fn conditions() -> Vec<Condition> {
        let mut texts: Vec<&str> = shipped::PROGRAMS.iter().map(|(_, t)| *t).collect();
        texts.extend([
            include_str!("../../../programs/bench/sentinel.robot"),
            include_str!("../../../programs/bench/wanderer.robot"),
            include_str!("../../../programs/bench/flanker.robot"),
            include_str!("../../../programs/bench/turret.robot"),
            include_str!("../../../programs/ti57/patrol.robot"),
            include_str!("../../../programs/ti57/sbr_hunter.robot"),
            include_str!("../../../programs/ti57/tracker.robot"),
            include_str!("../../../tests/programs/conditions.robot"),
        ]);
        let extra = "test 1: R0 > 0 and (x = 3 or t < -1) or R7 >= R1\n\
            test 1: edge behind within 50 or edge ahead-left at 3 or green camp ahead 2\n\
            test 1: count(enemy ahead) = 1 or count(robot within 50) > 2 or facing = 3\n\
            test 1: violet computer ahead within 9 or plain here and not own camp ahead 1\n\
            test 1: enemy in direction 2 within 4 or friend in direction 5 at 1 or lake within 2\n";
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
            crate::battle::board_file::parse_board("b", shipped::board(board).expect("shipped"))
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
                    let memories = &mut m.state.memories[i];
                    memories.x = i32::try_from(pick(&mut rng, 9)).expect("small") - 3;
                    memories.t = i32::try_from(pick(&mut rng, 9)).expect("small") - 3;
                    for r in &mut memories.r {
                        *r = i32::try_from(pick(&mut rng, 9)).expect("small") - 3;
                    }
                }
                for id in m.robot_ids() {
                    let robot = m.state.robot(id);
                    let asker = Asker {
                        own: m.fixed.teams[robot.team.index()],
                        teams: &m.fixed.teams,
                    };
                    let mut sight = Sight::default();
                    let sight = sight.see(&m.fixed.board, &m.state, id);
                    for condition in &conditions {
                        let node = asker.compile(condition);
                        let tree = query::evaluate(&m.fixed, &m.state, id, condition);
                        let flat = query::answer(&m.fixed, &m.state, id, &node, sight);
                        assert_eq!(flat, tree, "{condition:?} for {:?} in {:?}", robot, node);
                        asked += 1;
                    }
                }
            }
        }
        assert!(asked > 100_000, "{asked}");
    }
}
