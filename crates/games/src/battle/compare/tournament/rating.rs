//! Ratings from results (docs/TOURNAMENTS.md, "Ratings"): a Bradley–Terry fit on every
//! match, draws counting half a win each side, shown on the Elo scale; and Wilson's interval
//! for a win rate.

/// A program's rating on the Elo scale (mean 1500 over the field), and the half-width of its
/// 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub interval: f64,
}

/// 95 %: the normal quantile.
const Z: f64 = 1.959_963_984_540_054;
/// Natural log units to Elo points.
const ELO: f64 = 400.0 / std::f64::consts::LN_10;

/// Fits Bradley–Terry strengths to `games[i][j]` (matches between `i` and `j`) and
/// `won[i][j]` (what `i` scored against `j`: wins plus half the draws), by the MM algorithm
/// (Hunter, 2004). Each program also gets one virtual draw against a program of the mean
/// strength, so an unbeaten or winless program keeps a finite rating. The interval comes
/// from the Fisher information of each strength, the others held fixed.
pub fn bradley_terry(games: &[Vec<u32>], won: &[Vec<f64>]) -> Vec<Rating> {
    let n = games.len();
    let mut gamma = vec![1.0f64; n];
    for _ in 0..10_000 {
        let mut next = vec![0.0f64; n];
        let mut change = 0.0f64;
        for i in 0..n {
            // The virtual draw against strength 1.
            let mut wins = 0.5;
            let mut denominator = 1.0 / (gamma[i] + 1.0);
            for j in 0..n {
                if i != j && games[i][j] > 0 {
                    wins += won[i][j];
                    denominator += f64::from(games[i][j]) / (gamma[i] + gamma[j]);
                }
            }
            next[i] = wins / denominator;
        }
        // Keep the geometric mean at 1, so the virtual opponent stays the mean program.
        let mean = next.iter().map(|g| g.ln()).sum::<f64>() / n.max(1) as f64;
        for (g, x) in gamma.iter_mut().zip(&next) {
            let x = (x.ln() - mean).exp();
            change = change.max((x.ln() - g.ln()).abs());
            *g = x;
        }
        if change < 1e-12 {
            break;
        }
    }
    (0..n)
        .map(|i| {
            let mut information = gamma[i] / (gamma[i] + 1.0).powi(2);
            for j in 0..n {
                if i != j && games[i][j] > 0 {
                    let p = gamma[i] / (gamma[i] + gamma[j]);
                    information += f64::from(games[i][j]) * p * (1.0 - p);
                }
            }
            Rating {
                rating: 1500.0 + ELO * gamma[i].ln(),
                interval: Z * ELO / information.sqrt(),
            }
        })
        .collect()
}

/// Wilson's 95 % score interval for a proportion `share` of `n` trials.
pub fn wilson(share: f64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let z2 = Z * Z;
    let centre = (share + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z * (share * (1.0 - share) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}
