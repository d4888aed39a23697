//! The fixed position set of `robots ricochet bench`: two hard positions (24 and 25 moves) and 30
//! random positions of the original boards under the default rules (R-B1 on). Timing and
//! memory are measured by the caller.

use super::position::Position;

pub const HARD_25: &str = "board: {quadrants: [4B, 3B, 2B, 1A]}
robots: {red: [2, 14], green: [0, 3], blue: [11, 2], yellow: [2, 1]}
target: {color: blue, symbol: triangle}
rules: {must_ricochet: false}
";

pub const HARD_24: &str = "board: {quadrants: [1A, 4B, 3B, 2B]}
robots: {red: [14, 2], green: [1, 2], blue: [13, 11], yellow: [15, 0]}
target: {color: blue, symbol: triangle}
rules: {must_ricochet: false}
";

/// `(name, position)` for every position of the set.
pub fn positions() -> Vec<(String, Position)> {
    let no_file = |_: &str| Err("no board files in the benchmark".to_string());
    let mut out = vec![
        (
            "hard 25".to_string(),
            super::files::parse("hard 25", HARD_25, &no_file).expect("valid"),
        ),
        (
            "hard 24".to_string(),
            super::files::parse("hard 24", HARD_24, &no_file).expect("valid"),
        ),
    ];
    for seed in 1..=30 {
        let text = super::files::random_yaml(seed, 4);
        out.push((
            format!("random {seed}"),
            super::files::parse("random", &text, &no_file).expect("valid"),
        ));
    }
    out
}

/// The median, 99th percentile and maximum of a set of times.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// The middle time (the mean of the two middle ones for an even count).
    pub median: f64,
    /// The nearest rank: the time that 99 % of the set do not exceed (the smallest such).
    pub p99: f64,
    pub max: f64,
}

impl Summary {
    /// The summary of `times` (none: all zero).
    pub fn of(times: &[f64]) -> Summary {
        let mut t = times.to_vec();
        t.sort_by(f64::total_cmp);
        let n = t.len();
        if n == 0 {
            return Summary {
                median: 0.0,
                p99: 0.0,
                max: 0.0,
            };
        }
        let median = if n % 2 == 1 {
            t[n / 2]
        } else {
            f64::midpoint(t[n / 2 - 1], t[n / 2])
        };
        // Nearest rank: ⌈0.99 n⌉, from 1.
        let rank = (n * 99).div_ceil(100).max(1);
        Summary {
            median,
            p99: t[rank - 1],
            max: t[n - 1],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Summary;

    #[test]
    fn the_summary_takes_the_middle_the_nearest_rank_and_the_top() {
        let times: Vec<f64> = (1..=200).rev().map(f64::from).collect();
        let s = Summary::of(&times);
        assert_eq!(s.median, 100.5);
        assert_eq!(s.p99, 198.0);
        assert_eq!(s.max, 200.0);
        let odd = Summary::of(&[3.0, 1.0, 2.0]);
        assert_eq!((odd.median, odd.p99, odd.max), (2.0, 3.0, 3.0));
        assert_eq!(Summary::of(&[]).max, 0.0);
    }
}
