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
