//! Test conditions answered from one robot's point of view (RULES A.9). Tests see through
//! everything and never see a pending signal.

use super::areas::{self, Areas};
use super::ask::{Ask, Fallback};
use super::sight::Sees;
use crate::battle::board::CellId;
use crate::battle::engine::fixed::Fixed;
use crate::battle::engine::state::{RobotId, State, TeamId};
use crate::battle::hex::{Direction, Hex};
use crate::battle::lang::{
    CampOwner, Condition, LineDirection, Own, Program, Quantity, Region, Selector, Subject,
    TerrainKind, Who,
};
use crate::battle::terrain::{TeamColour, Terrain};
use std::sync::Arc;

pub(crate) fn evaluate(fixed: &Fixed, s: &State, id: RobotId, condition: &Condition) -> bool {
    view(fixed, s, id).holds(condition)
}

/// What a robot's compiled tests (`compiled.rs`) are asked about this turn, the tree walk
/// answering what the form leaves to it.
#[inline]
pub(crate) fn ask<'a, S: Sees>(
    fixed: &'a Fixed,
    s: &'a State,
    id: RobotId,
    sight: &'a mut S,
) -> Ask<'a, TreeWalk<'a>, S> {
    Ask {
        board: &fixed.board,
        s,
        id,
        me: &s.robots[id.index()],
        sight,
        fallback: TreeWalk { fixed, s, id },
    }
}

/// The tree walk of one robot's turn: what it walks from (the match, the state, the robot);
/// its view is built only when a test asks what the compiled form leaves to it.
pub(crate) struct TreeWalk<'a> {
    fixed: &'a Fixed,
    s: &'a State,
    id: RobotId,
}

impl Fallback for TreeWalk<'_> {
    fn holds(&self, condition: &Condition) -> bool {
        view(self.fixed, self.s, self.id).holds(condition)
    }

    fn quantity(&self, quantity: &Quantity) -> i32 {
        view(self.fixed, self.s, self.id).quantity(quantity)
    }
}

/// A numeric term of the test language (`count(enemy within 3)`, `shots`, `damage`).
pub(crate) fn measure(fixed: &Fixed, s: &State, id: RobotId, quantity: &Quantity) -> i64 {
    i64::from(view(fixed, s, id).quantity(quantity))
}

/// The constant-time counts for every terrain kind the match's tests and conditional
/// signals ask about in rings or anywhere, as each robot's team sees it.
pub(crate) fn areas_for(fixed: &Fixed, robot_teams: &[TeamId]) -> Areas {
    let mut keys = Vec::new();
    // Robots of a team often share a program: each program is read once a team.
    let mut seen: Vec<(&Arc<Program>, TeamId)> = Vec::new();
    for (&team, program) in robot_teams.iter().zip(&fixed.programs) {
        if seen
            .iter()
            .any(|&(p, t)| Arc::ptr_eq(p, program) && t == team)
        {
            continue;
        }
        seen.push((program, team));
        for test in program.tests.iter().flatten() {
            areas::keys_in(&test.condition, team, &mut keys);
        }
    }
    for (team, plan) in &fixed.signals {
        if let crate::battle::engine::setup::SignalPlan::Conditional { when, .. } = plan {
            areas::keys_in(when, *team, &mut keys);
        }
    }
    Areas::new(&fixed.board, &keys, |(kind, team), cell| {
        let team = team.unwrap_or(TeamId::at(0));
        terrain_matches(fixed, team, kind, cell)
    })
}

/// Whether `cell` is of `kind`, asked by a robot of `team` (for `own` and `enemy` camps).
fn terrain_matches(fixed: &Fixed, team: TeamId, kind: TerrainKind, cell: CellId) -> bool {
    let c = fixed.board.cell(cell);
    match kind {
        TerrainKind::Plain => c.terrain == Terrain::Plain,
        TerrainKind::Lake => c.terrain == Terrain::Lake,
        TerrainKind::Lightning => c.terrain == Terrain::Lightning,
        TerrainKind::Edge => false,
        TerrainKind::Shape(form, colour) => match c.terrain {
            Terrain::Shape(f, col) => {
                form.is_none_or(|w| w == f) && colour.is_none_or(|w| w == col)
            }
            _ => false,
        },
        TerrainKind::Camp(owner) => camp_matches(fixed, team, owner, c.camp),
        TerrainKind::Computer(owner) => match c.terrain {
            Terrain::Computer(col) => camp_matches(fixed, team, owner, Some(col)),
            _ => false,
        },
    }
}

/// Whether a camp (of a hex, or of a computer) is the one `owner` names, for `team`.
fn camp_matches(fixed: &Fixed, team: TeamId, owner: CampOwner, camp: Option<TeamColour>) -> bool {
    let Some(camp) = camp else { return false };
    match owner {
        CampOwner::Any => true,
        CampOwner::Own => camp == fixed.teams[team.index()],
        CampOwner::Enemy => fixed.is_enemy_camp(team, Some(camp)),
        CampOwner::Team(colour) => camp == colour,
    }
}

fn view<'a>(fixed: &'a Fixed, s: &'a State, id: RobotId) -> View<'a> {
    let me = &s.robots[id.index()];
    View {
        fixed,
        s,
        id,
        cell: me.cell,
        hex: fixed.board.hex(me.cell),
        facing: me.facing,
        team: me.team,
    }
}

struct View<'a> {
    fixed: &'a Fixed,
    s: &'a State,
    id: RobotId,
    cell: crate::battle::board::CellId,
    hex: Hex,
    facing: Direction,
    team: TeamId,
}

impl View<'_> {
    fn holds(&self, condition: &Condition) -> bool {
        match condition {
            Condition::And(parts) => parts.iter().all(|c| self.holds(c)),
            Condition::Or(parts) => parts.iter().any(|c| self.holds(c)),
            Condition::Not(inner) => !self.holds(inner),
            Condition::Compare(a, op, b) => op.holds(self.quantity(a), self.quantity(b)),
            Condition::Facing(d) => self.facing == *d,
            Condition::InCamp(owner) => {
                let me = &self.s.robots[self.id.index()];
                self.camp_matches(*owner, self.fixed.board.cell(me.cell).camp)
            }
            Condition::Truth(b) => *b,
            Condition::Present(selector) => self.count(selector, true) > 0,
        }
    }

    /// A numeric term's value: an `i32`, as memories are (A.12); counts fit easily.
    fn quantity(&self, q: &Quantity) -> i32 {
        let me = &self.s.robots[self.id.index()];
        match q {
            Quantity::Count(selector) => {
                i32::try_from(self.count(selector, false)).unwrap_or(i32::MAX)
            }
            Quantity::ShotsLeft => i32::from(me.shots),
            Quantity::DestroyedSteps => {
                let len = self.fixed.programs[self.id.index()].len();
                i32::try_from((1..=len).filter(|&s| me.is_destroyed(s)).count()).unwrap_or(i32::MAX)
            }
            Quantity::Number(n) => *n,
            Quantity::Own(own) => self.own(*own),
        }
    }

    /// The facing as a number, or a memory of the asking robot (memories exist under the
    /// TI-57 rule only, which a program using one needs, A.12). Out of line: the plain
    /// language's usual tests do not pay for it.
    #[cold]
    #[inline(never)]
    fn own(&self, own: Own) -> i32 {
        match own {
            Own::Facing => i32::from(self.facing.number()),
            Own::Memory(register) => self
                .s
                .memories
                .get(self.id.index())
                .map_or(0, |m| m.get(register)),
        }
    }

    fn line_direction(&self, dir: LineDirection) -> Direction {
        match dir {
            LineDirection::Relative(k) => self.facing.turned(i32::from(k)),
            LineDirection::Absolute(d) => d,
        }
    }

    /// How many robots or hexes match; with `any`, stops at the first.
    fn count(&self, selector: &Selector, any: bool) -> u32 {
        match selector.subject {
            Subject::Robots(who) => self.count_robots(who, selector.region, any),
            Subject::Terrain(kind) => self.count_terrain(kind, selector.region, any),
        }
    }

    fn count_robots(&self, who: Who, region: Region, any: bool) -> u32 {
        let mut n = 0;
        for (i, r) in self.s.robots.iter().enumerate() {
            if !r.alive || i == self.id.index() {
                continue;
            }
            let wanted = match who {
                Who::Any => true,
                Who::Enemy => r.team != self.team,
                Who::Friend => r.team == self.team,
                Who::Team(c) => r.name.team == c,
            };
            if wanted && self.in_region(r.cell, region) {
                n += 1;
                if any {
                    break;
                }
            }
        }
        n
    }

    fn in_region(&self, target: crate::battle::board::CellId, region: Region) -> bool {
        let (d, line) = self.fixed.board.relation(self.cell, target);
        match region {
            Region::Anywhere => true,
            Region::Here => d == 0,
            Region::Ring { min, max } => (u32::from(min)..=u32::from(max)).contains(&d),
            Region::Line { dir, min, max } => {
                usize::from(line) == self.line_direction(dir).index()
                    && (u32::from(min)..=u32::from(max)).contains(&d)
            }
        }
    }

    fn count_terrain(&self, kind: TerrainKind, region: Region, any: bool) -> u32 {
        match self.counted_terrain(kind, region) {
            Some(n) if any => n.min(1),
            Some(n) => n,
            None => self.walk_terrain(kind, region, any),
        }
    }

    /// Rings and the whole board: in constant time when the match counted the kind.
    fn counted_terrain(&self, kind: TerrainKind, region: Region) -> Option<u32> {
        let counts = match region {
            Region::Ring { .. } | Region::Anywhere => {
                self.fixed.areas.get(areas::key(kind, self.team))?
            }
            Region::Here | Region::Line { .. } => return None,
        };
        match region {
            Region::Anywhere if kind == TerrainKind::Edge => Some(0),
            Region::Anywhere => Some(counts.total()),
            Region::Ring { min, max } => {
                let (min, max) = (u32::from(min), u32::from(max));
                let on_board = counts.ring(self.hex, min, max);
                Some(if kind == TerrainKind::Edge {
                    let all = areas::positions_in_ring(min, max);
                    u32::try_from(all.saturating_sub(u64::from(on_board))).unwrap_or(u32::MAX)
                } else {
                    on_board
                })
            }
            Region::Here | Region::Line { .. } => None,
        }
    }

    /// Hex by hex, with `any` stopping at the first that matches.
    fn walk_terrain(&self, kind: TerrainKind, region: Region, any: bool) -> u32 {
        let board = &self.fixed.board;
        let mut n = 0;
        let mut visit = |hex: Hex| -> bool {
            let matched = match board.cell_at(hex) {
                None => kind == TerrainKind::Edge,
                Some(c) => self.terrain_matches(kind, c),
            };
            if matched {
                n += 1;
            }
            !(any && matched)
        };
        match region {
            Region::Anywhere => {
                for (id, _) in board.cells() {
                    if !visit(board.hex(id)) {
                        break;
                    }
                }
            }
            Region::Here => {
                visit(self.hex);
            }
            Region::Ring { min, max } => {
                // Past the board's size every hex is off it: only `edge` can match there.
                let reach = u8::try_from(board.width + board.height).unwrap_or(u8::MAX);
                let max = if kind == TerrainKind::Edge {
                    max
                } else {
                    max.min(reach)
                };
                'rings: for radius in min..=max {
                    let mut hex = self.hex.step(Direction::ALL[4], i32::from(radius));
                    for side in Direction::ALL {
                        for _ in 0..radius {
                            if !visit(hex) {
                                break 'rings;
                            }
                            hex = hex.step(side, 1);
                        }
                    }
                }
            }
            Region::Line { dir, min, max } => {
                // Walk the neighbour table. A straight line that leaves the (rectangular)
                // board never comes back: every position from there on is off it, and each
                // counts as `edge` however far off it lies (R-A22).
                let dir = self.line_direction(dir);
                let mut at = Some(self.cell);
                for k in 1..=max {
                    at = at.and_then(|c| board.neighbour(c, dir));
                    let Some(c) = at else {
                        if kind == TerrainKind::Edge {
                            let off = u32::from(max - k.max(min)) + 1;
                            n += if any { 1 } else { off };
                        }
                        break;
                    };
                    if k >= min && self.terrain_matches(kind, c) {
                        n += 1;
                        if any {
                            break;
                        }
                    }
                }
            }
        }
        n
    }

    fn terrain_matches(&self, kind: TerrainKind, cell: CellId) -> bool {
        terrain_matches(self.fixed, self.team, kind, cell)
    }

    fn camp_matches(&self, owner: CampOwner, camp: Option<TeamColour>) -> bool {
        camp_matches(self.fixed, self.team, owner, camp)
    }
}
