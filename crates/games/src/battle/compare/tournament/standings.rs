//! The standings of a tournament from its results: played, won, drawn, lost, points (3/1/0),
//! win rate, rating; and the head-to-head matrix.

use super::game::{GameResult, Score};
use super::rating::{Rating, bradley_terry};

/// One program's line.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// Its index among the entrants.
    pub entrant: usize,
    pub name: String,
    pub played: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub points: u32,
    /// Wins over matches played.
    pub win_rate: f64,
    pub rating: Rating,
}

/// Per ordered pair of entrants: matches played and what the first scored (wins, draws).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeadToHead {
    pub games: Vec<Vec<u32>>,
    pub wins: Vec<Vec<u32>>,
    pub draws: Vec<Vec<u32>>,
}

impl HeadToHead {
    /// What `i` scored against `j` as a share (wins and half the draws), if they met.
    pub fn share(&self, i: usize, j: usize) -> Option<f64> {
        let n = self.games[i][j];
        (n > 0).then(|| {
            (f64::from(self.wins[i][j]) + f64::from(self.draws[i][j]) / 2.0) / f64::from(n)
        })
    }
}

/// The standings, best first, and the matrix by entrant index.
#[derive(Clone, Debug, PartialEq)]
pub struct Standings {
    pub rows: Vec<Standing>,
    pub head_to_head: HeadToHead,
    /// Matches counted.
    pub matches: u64,
}

/// Ranks by points, then rating, then name: the same results give the same table.
pub fn standings(names: &[String], results: &[GameResult]) -> Standings {
    let n = names.len();
    let mut h2h = HeadToHead {
        games: vec![vec![0; n]; n],
        wins: vec![vec![0; n]; n],
        draws: vec![vec![0; n]; n],
    };
    for r in results {
        let (a, b) = (r.game.a, r.game.b);
        h2h.games[a][b] += 1;
        h2h.games[b][a] += 1;
        match r.score {
            Score::Win => h2h.wins[a][b] += 1,
            Score::Loss => h2h.wins[b][a] += 1,
            Score::Draw => {
                h2h.draws[a][b] += 1;
                h2h.draws[b][a] += 1;
            }
        }
    }
    let won: Vec<Vec<f64>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| f64::from(h2h.wins[i][j]) + f64::from(h2h.draws[i][j]) / 2.0)
                .collect()
        })
        .collect();
    let ratings = bradley_terry(&h2h.games, &won);
    let mut rows: Vec<Standing> = (0..n)
        .map(|i| {
            let played: u32 = h2h.games[i].iter().sum();
            let wins: u32 = h2h.wins[i].iter().sum();
            let draws: u32 = h2h.draws[i].iter().sum();
            let losses = played - wins - draws;
            Standing {
                entrant: i,
                name: names[i].clone(),
                played,
                wins,
                draws,
                losses,
                points: 3 * wins + draws,
                win_rate: if played == 0 {
                    0.0
                } else {
                    f64::from(wins) / f64::from(played)
                },
                rating: ratings[i],
            }
        })
        .collect();
    rows.sort_by(|x, y| {
        y.points
            .cmp(&x.points)
            .then(y.rating.rating.total_cmp(&x.rating.rating))
            .then(x.name.cmp(&y.name))
    });
    Standings {
        rows,
        head_to_head: h2h,
        matches: results.len() as u64,
    }
}
