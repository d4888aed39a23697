//! Where the robots start (R-A12): fixed placements first, then the others one at a time,
//! teams alternating in file order, each on a free start point of its camp or an outer one
//! drawn by the match's generator; facings not given are drawn too; then the first player.

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

/// Every robot's cell and facing, in robot id order, drawn from `rng`.
pub(super) fn place(
    setup: &MatchSetup,
    rng: &mut ChaCha8Rng,
) -> Result<Vec<(CellId, Direction)>, SetupError> {
    let board = &setup.board;
    let mut taken = vec![false; board.len()];
    let mut placed: Vec<Vec<Option<(CellId, Direction)>>> = Vec::new();
    // Fixed placements first: they are the players' choices, written down.
    for (t, team) in setup.teams.iter().enumerate() {
        let mut cells = Vec::new();
        for (i, r) in team.robots.iter().enumerate() {
            cells.push(None);
            if let Some(cell) = r.at {
                if std::mem::replace(&mut taken[cell.index()], true) {
                    return Err(SetupError::Taken { team: t, robot: i });
                }
                cells[i] = Some((cell, Direction::ALL[0]));
            }
        }
        placed.push(cells);
    }
    // Then the rest, one robot at a time, teams alternating in file order (R-A12).
    let most = setup
        .teams
        .iter()
        .map(|t| t.robots.len())
        .max()
        .unwrap_or(0);
    for i in 0..most {
        for (t, (team, slots)) in setup.teams.iter().zip(&mut placed).enumerate() {
            let (Some(r), Some(slot)) = (team.robots.get(i), slots.get_mut(i)) else {
                continue;
            };
            let cell = match r.at {
                Some(cell) => cell,
                None => {
                    let free: Vec<CellId> = board
                        .start_points_for(team.colour)
                        .filter(|&c| !taken[c.index()])
                        .collect();
                    if free.is_empty() {
                        return Err(SetupError::NoFreeStartPoint { team: t, robot: i });
                    }
                    let cell = free[draw_index(rng, free.len())];
                    taken[cell.index()] = true;
                    cell
                }
            };
            let facing = match r.facing {
                Some(f) => f,
                None => Direction::ALL[draw_index(rng, 6)],
            };
            *slot = Some((cell, facing));
        }
    }
    Ok(placed
        .into_iter()
        .flatten()
        .map(|p| p.expect("every robot is placed above"))
        .collect())
}

/// The first player, drawn after placement.
pub(super) fn draw_first_team(teams: usize, rng: &mut ChaCha8Rng) -> TeamId {
    TeamId::at(if teams == 0 {
        0
    } else {
        draw_index(rng, teams)
    })
}
