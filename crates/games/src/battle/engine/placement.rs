//! Where the robots start (R-A12): fixed placements first, then the others one at a time,
//! teams alternating in file order, each on a free start point of its camp or an outer one
//! drawn by the match's generator; facings not given are drawn too; then the first player.
//! [`Placing`] does it one robot at a time, for a table where players place by hand.

use super::setup::{MatchSetup, SetupError};
use super::state::TeamId;
use crate::battle::board::CellId;
use crate::battle::hex::Direction;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// A uniform index below `len` (`len` > 0, small).
fn draw_index(rng: &mut ChaCha8Rng, len: usize) -> usize {
    let len = u32::try_from(len).expect("a few hundred choices at most");
    usize::try_from(rng.random_range(0..len)).expect("u32 fits usize")
}

impl MatchSetup {
    /// Every rule a playable setup obeys, including the placement the seed draws (R-A12).
    pub fn validate(&self) -> Result<(), SetupError> {
        self.validate_rules()?;
        let mut rng =
            <rand_chacha::ChaCha8Rng as rand_chacha::rand_core::SeedableRng>::seed_from_u64(
                self.seed,
            );
        place(self, &mut rng).map(|_| ())
    }
}

/// Every robot's cell and facing, in robot id order, drawn from `rng`: what [`Placing`]
/// draws with no team by hand, with no table of its own (one list and the cells taken).
pub(super) fn place(
    setup: &MatchSetup,
    rng: &mut ChaCha8Rng,
) -> Result<Vec<(CellId, Direction)>, SetupError> {
    let mut taken = vec![false; setup.board.len()];
    let mut out: Vec<Option<(CellId, Direction)>> = Vec::new();
    // Fixed placements first: they are the players' choices, written down.
    for (t, team) in setup.teams.iter().enumerate() {
        for (i, r) in team.robots.iter().enumerate() {
            if let Some(cell) = r.at
                && std::mem::replace(&mut taken[cell.index()], true)
            {
                return Err(SetupError::Taken { team: t, robot: i });
            }
            out.push(None);
        }
    }
    // Then the rest, one robot at a time, teams alternating in file order (R-A12).
    let most = setup.teams.iter().map(|t| t.robots.len()).max();
    for i in 0..most.unwrap_or(0) {
        let mut first = 0;
        for (t, team) in setup.teams.iter().enumerate() {
            let start = first;
            first += team.robots.len();
            let Some(r) = team.robots.get(i) else {
                continue;
            };
            let cell = match r.at {
                Some(cell) => cell,
                None => draw_free(&setup.board, team.colour, &mut taken, rng)
                    .ok_or(SetupError::NoFreeStartPoint { team: t, robot: i })?,
            };
            let facing = r
                .facing
                .unwrap_or_else(|| Direction::ALL[draw_index(rng, 6)]);
            out[start + i] = Some((cell, facing));
        }
    }
    // Every robot is some team's `i`-th for an `i` below the largest team.
    Ok(out.into_iter().flatten().collect())
}

/// [`place`] by [`Placing`], one robot at a time: what the tests compare it with.
#[cfg(test)]
fn place_by_placing(
    setup: &MatchSetup,
    rng: &mut ChaCha8Rng,
) -> Result<Vec<(CellId, Direction)>, SetupError> {
    let mut placing = Placing::start(setup, &vec![false; setup.teams.len()], rng.clone())?;
    while let Some(slot) = placing.next() {
        placing.draw().map_err(|_| SetupError::NoFreeStartPoint {
            team: slot.team,
            robot: slot.robot,
        })?;
    }
    *rng = placing.rng.clone();
    Ok(placing.placements())
}

/// A free start point of `colour`'s drawn by `rng` and marked taken (R-A12): the free ones
/// counted, then the drawn one found, so no list is made. `None` if there is none.
fn draw_free(
    board: &crate::battle::board::Board,
    colour: crate::battle::terrain::TeamColour,
    taken: &mut [bool],
    rng: &mut ChaCha8Rng,
) -> Option<CellId> {
    let free = |c: &CellId| !taken.get(c.index()).copied().unwrap_or(true);
    let count = board.start_points_for(colour).filter(free).count();
    if count == 0 {
        return None;
    }
    let drawn = draw_index(rng, count);
    let cell = board.start_points_for(colour).filter(free).nth(drawn)?;
    if let Some(t) = taken.get_mut(cell.index()) {
        *t = true;
    }
    Some(cell)
}

/// What [`Placing::undo`] restores: the generator, the cells taken, the placements, how
/// many are done.
type Undo = (
    ChaCha8Rng,
    Vec<bool>,
    Vec<Vec<Option<(CellId, Direction)>>>,
    usize,
);

/// A robot waiting to be placed: its team (file index) and its index in the team.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    pub team: usize,
    pub robot: usize,
}

/// Why a player's placement was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlaceError {
    #[error("it is not a player's turn to place a robot")]
    NotAPlayersTurn,
    #[error("that hex is not a free start point of the team's camp or an outer one (R-A12)")]
    NotAStartPoint,
}

/// Placement one robot at a time (R-A12), for a table where some teams place by hand:
/// fixed placements of the other teams first, then every robot in turn, teams alternating in
/// file order. A team placing by hand chooses each robot's start point and facing; the
/// others take the file's placement or the generator's draw, exactly as [`Match::new`]
/// does (with no team by hand, the placements are the same).
///
/// [`Match::new`]: super::Match::new
#[derive(Clone, Debug)]
pub struct Placing {
    board: std::sync::Arc<crate::battle::board::Board>,
    colours: Vec<crate::battle::terrain::TeamColour>,
    /// Each robot's file placement (cell, facing), for teams not placing by hand.
    given: Vec<Vec<(Option<CellId>, Option<Direction>)>>,
    by_hand: Vec<bool>,
    rng: ChaCha8Rng,
    taken: Vec<bool>,
    placed: Vec<Vec<Option<(CellId, Direction)>>>,
    /// The robots in placing order, and how many are placed.
    order: Vec<Slot>,
    done: usize,
    /// The state before each placement by hand, for [`Placing::undo`].
    history: Vec<Undo>,
}

impl Placing {
    /// Starts placing `setup`'s robots; `by_hand[t]`: team `t` places its robots by hand (its
    /// file placements are not used). The generator is seeded from the setup's seed.
    pub fn new(setup: &MatchSetup, by_hand: &[bool]) -> Result<Placing, SetupError> {
        let rng = <ChaCha8Rng as rand_chacha::rand_core::SeedableRng>::seed_from_u64(setup.seed);
        Placing::start(setup, by_hand, rng)
    }

    fn start(setup: &MatchSetup, by_hand: &[bool], rng: ChaCha8Rng) -> Result<Placing, SetupError> {
        let hand = |t: usize| by_hand.get(t).copied().unwrap_or(false);
        let mut taken = vec![false; setup.board.len()];
        let mut placed = Vec::new();
        let mut given = Vec::new();
        // Fixed placements first: they are the players' choices, written down.
        for (t, team) in setup.teams.iter().enumerate() {
            let mut cells = Vec::new();
            let mut file = Vec::new();
            for (i, r) in team.robots.iter().enumerate() {
                let at = if hand(t) { None } else { r.at };
                let facing = if hand(t) { None } else { r.facing };
                file.push((at, facing));
                cells.push(None);
                if let Some(cell) = at {
                    if std::mem::replace(&mut taken[cell.index()], true) {
                        return Err(SetupError::Taken { team: t, robot: i });
                    }
                    cells[i] = Some((cell, Direction::ALL[0]));
                }
            }
            placed.push(cells);
            given.push(file);
        }
        // Then the rest, one robot at a time, teams alternating in file order (R-A12).
        let most = setup
            .teams
            .iter()
            .map(|t| t.robots.len())
            .max()
            .unwrap_or(0);
        let order = (0..most)
            .flat_map(|i| {
                setup
                    .teams
                    .iter()
                    .enumerate()
                    .filter(move |(_, team)| i < team.robots.len())
                    .map(move |(t, _)| Slot { team: t, robot: i })
            })
            .collect();
        Ok(Placing {
            board: std::sync::Arc::clone(&setup.board),
            colours: setup.teams.iter().map(|t| t.colour).collect(),
            given,
            by_hand: (0..setup.teams.len()).map(hand).collect(),
            rng,
            taken,
            placed,
            order,
            done: 0,
            history: Vec::new(),
        })
    }

    /// The robot to place next, if any.
    pub fn next(&self) -> Option<Slot> {
        self.order.get(self.done).copied()
    }

    /// Whether the robot to place next is placed by hand.
    pub fn by_hand(&self) -> bool {
        self.next().is_some_and(|s| self.by_hand[s.team])
    }

    /// The free start points of the team placing next, in board order (R-A12: its own camp's
    /// or outer ones).
    pub fn free_start_points(&self) -> Vec<CellId> {
        let Some(slot) = self.next() else {
            return Vec::new();
        };
        self.free(slot.team).collect()
    }

    /// The free start points of team `team`, in board order (R-A12).
    fn free(&self, team: usize) -> impl Iterator<Item = CellId> + '_ {
        self.board
            .start_points_for(self.colours[team])
            .filter(|&c| !self.taken[c.index()])
    }

    /// Places the next robot as the file or the generator says (it must not be placed by
    /// hand).
    pub fn draw(&mut self) -> Result<(), PlaceError> {
        let Some(slot) = self.next().filter(|_| !self.by_hand()) else {
            return Err(PlaceError::NotAPlayersTurn);
        };
        let (at, facing) = self.given[slot.team][slot.robot];
        let cell = match at {
            Some(cell) => cell,
            None => draw_free(
                &self.board,
                self.colours[slot.team],
                &mut self.taken,
                &mut self.rng,
            )
            .ok_or(PlaceError::NotAStartPoint)?,
        };
        let facing = facing.unwrap_or_else(|| Direction::ALL[draw_index(&mut self.rng, 6)]);
        self.placed[slot.team][slot.robot] = Some((cell, facing));
        self.done += 1;
        Ok(())
    }

    /// Places the next robot, a robot placed by hand, on `cell` facing `facing`.
    pub fn choose(&mut self, cell: CellId, facing: Direction) -> Result<(), PlaceError> {
        let Some(slot) = self.next().filter(|_| self.by_hand()) else {
            return Err(PlaceError::NotAPlayersTurn);
        };
        if !self.free_start_points().contains(&cell) {
            return Err(PlaceError::NotAStartPoint);
        }
        self.history.push((
            self.rng.clone(),
            self.taken.clone(),
            self.placed.clone(),
            self.done,
        ));
        self.taken[cell.index()] = true;
        self.placed[slot.team][slot.robot] = Some((cell, facing));
        self.done += 1;
        Ok(())
    }

    /// Takes back the last placement by hand, and the draws made after it; `false` if there
    /// is none.
    pub fn undo(&mut self) -> bool {
        let Some((rng, taken, placed, done)) = self.history.pop() else {
            return false;
        };
        (self.rng, self.taken, self.placed, self.done) = (rng, taken, placed, done);
        true
    }

    /// The robots placed so far: (team, robot index, cell, facing), in placing order.
    pub fn placed(&self) -> Vec<(Slot, CellId, Direction)> {
        self.order[..self.done]
            .iter()
            .filter_map(|&s| self.placed[s.team][s.robot].map(|(c, f)| (s, c, f)))
            .collect()
    }

    /// Every robot's cell and facing in robot id order, once all are placed (a robot not yet
    /// placed is left out).
    pub fn placements(&self) -> Vec<(CellId, Direction)> {
        self.placed.iter().flatten().filter_map(|p| *p).collect()
    }

    /// `setup` with every robot's placement written in, as a match file would give them:
    /// the match it starts is the one placed here.
    pub fn fixed_setup(&self, setup: &MatchSetup) -> MatchSetup {
        let mut fixed = setup.clone();
        for (team, cells) in fixed.teams.iter_mut().zip(&self.placed) {
            for (robot, p) in team.robots.iter_mut().zip(cells) {
                if let Some((cell, facing)) = p {
                    robot.at = Some(*cell);
                    robot.facing = Some(*facing);
                }
            }
        }
        fixed
    }
}

/// The first player, drawn after placement.
pub(super) fn draw_first_team(teams: usize, rng: &mut ChaCha8Rng) -> TeamId {
    TeamId::at(if teams == 0 {
        0
    } else {
        draw_index(rng, teams)
    })
}

#[cfg(test)]
mod tests {
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::SeedableRng;

    /// The benchmark's setups, with some robots placed in the file, many seeds: the
    /// placements and the generator after them are those of [`super::Placing`].
    #[test]
    fn placing_at_once_is_placing_one_by_one() {
        let workload = crate::battle::compare::bench::workload().expect("the workload");
        for (i, setup) in workload.iter().enumerate() {
            let mut setup = setup.clone();
            if i % 2 == 1 {
                let first = setup.board.start_points_for(setup.teams[0].colour).next();
                setup.teams[0].robots[1].at = first;
                setup.teams[1].robots[0].facing = Some(crate::battle::hex::Direction::ALL[2]);
            }
            for seed in 0..20 {
                let (mut a, mut b) = (
                    ChaCha8Rng::seed_from_u64(seed),
                    ChaCha8Rng::seed_from_u64(seed),
                );
                let at_once = super::place(&setup, &mut a);
                assert_eq!(
                    at_once,
                    super::place_by_placing(&setup, &mut b),
                    "{i} {seed}"
                );
                assert_eq!(a, b);
            }
        }
    }
}
