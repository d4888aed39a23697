//! Per-state cost of the Ricochet solver on a list of game ids (R-B1 off): the states each
//! search holds when it answers (the smallest budget it answers within, by bisection), and the
//! time of all the solves, best of ROUNDS; prints states, seconds and nanoseconds a state.
//!
//!   cargo run --release -p robots-games --example ricochet_states IDS [ROUNDS]
use robots_games::ricochet::files::game_id::GameId;
use robots_games::ricochet::rules::Rules;
use robots_games::ricochet::solve::{Budget, solve_within};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("a file of game ids");
    let rounds: usize = args.get(2).map_or(5, |r| r.parse().expect("a count"));
    let rules = Rules {
        must_ricochet: false,
        no_single_move: false,
    };
    let positions: Vec<_> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            l.trim()
                .parse::<GameId>()
                .expect("a game id")
                .position(rules)
                .expect("a position")
        })
        .collect();
    let mut states = 0u64;
    for p in &positions {
        let (mut lo, mut hi) = (1u64, 1u64 << 26);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if solve_within(p, 40, Budget { max_states: mid }, &mut |_| {}).is_ok() {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        states += lo;
    }
    let mut best = f64::MAX;
    for _ in 0..rounds {
        let t = std::time::Instant::now();
        for p in &positions {
            std::hint::black_box(solve_within(p, 40, Budget::default(), &mut |_| {}).ok());
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "{} positions, {states} states, {best:.4} s (best of {rounds}), {:.1} ns a state",
        positions.len(),
        best * 1e9 / states as f64
    );
}
