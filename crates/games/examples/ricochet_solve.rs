//! Each game id of a file solved once (`solve`, at most 40 moves), its moves and solution
//! printed: the answers to compare between two builds, and a workload for callgrind
//! (`--toggle-collect='*solve_within*'` counts the solver's instructions alone).
//!
//!   cargo run --release -p robots-games --example ricochet_solve IDS [on|off]
//!
//! `on`/`off`: R-B1 (the active robot must ricochet), on by default as in `robots ricochet
//! bench --ids`.
use robots_games::ricochet::files::game_id::GameId;
use robots_games::ricochet::rules::Rules;
use robots_games::ricochet::solve::solve;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("a file of game ids");
    let rules = Rules {
        must_ricochet: args.get(2).is_none_or(|r| r != "off"),
        no_single_move: false,
    };
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let p = line
            .parse::<GameId>()
            .expect("a game id")
            .position(rules)
            .expect("a position");
        match solve(&p, 40) {
            Ok(s) => {
                let moves: Vec<String> = s.solution.iter().map(ToString::to_string).collect();
                println!("{line} {} {}", s.moves, moves.join(" "));
            }
            Err(e) => println!("{line} none {e}"),
        }
    }
}
