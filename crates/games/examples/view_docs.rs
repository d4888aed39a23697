//! The cost of the viewer's documents of a hill's matches (issue 50): every shipped program
//! that parses, three robots a side on the classic board (as `scripts/load`'s hill), each
//! pairing with seeds 1..=SEEDS; makes each match's document as JSON COUNT times over and
//! prints the matches, their robot turns, the JSON's bytes, a digest of it (FNV-1a, 64 bits:
//! the same digest is the same documents) and the time a document took.
//!
//!   cargo run --release -p robots-games --example view_docs [SEEDS] [ROUNDS]
//!
//! Under callgrind, to count only the making of the documents:
//!
//!   valgrind --tool=callgrind --toggle-collect='*view_json*' \
//!       target/release/examples/view_docs 1 1
use robots_games::battle::compare::tournament::{self, Config, Entrant};
use robots_games::battle::engine::{Rules, Scenario};
use robots_games::battle::files::{board_file::parse_board, shipped};
use robots_games::battle::lang::parse_program;
use robots_games::battle::show::view::{MAX_DOC_BYTES, MAX_TURNS, view_json};
use std::sync::Arc;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seeds: u32 = args
        .get(1)
        .map_or(2, |s| s.parse().expect("a count of seeds"));
    let rounds: u32 = args
        .get(2)
        .map_or(1, |r| r.parse().expect("a count of rounds"));
    let board = parse_board("boards/classic.yaml", shipped::BOARDS[0].1).expect("the board");
    let entrants: Vec<Entrant> = shipped::PROGRAMS
        .iter()
        .filter_map(|(name, text)| {
            let program = parse_program(&format!("programs/{name}.robot"), text, 20).ok()?;
            Some(Entrant::single((*name).into(), program, Arc::from(*text)))
        })
        .collect();
    let config = Config {
        board: Arc::new(board),
        scenario: Scenario::Elimination,
        rules: Rules::default(),
        robots: 3,
        seeds: 1..=seeds,
    };
    let games = tournament::schedule(entrants.len(), &config.seeds);
    let setups: Vec<_> = games
        .iter()
        .map(|&g| tournament::setup(&entrants, &config, g))
        .collect();
    let (mut digest, mut bytes, mut turns) = (0xcbf2_9ce4_8422_2325_u64, 0u64, 0u64);
    let start = Instant::now();
    for round in 0..rounds {
        for setup in &setups {
            let Ok(doc) = view_json(setup, MAX_TURNS, MAX_DOC_BYTES) else {
                continue;
            };
            if round == 0 {
                bytes += doc.json.len() as u64;
                turns += doc.turns;
                for &b in &doc.json {
                    digest = (digest ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
                }
            }
        }
    }
    let each = start.elapsed().as_secs_f64() * 1e3 / f64::from(rounds) / setups.len() as f64;
    println!(
        "{} matches, {turns} robot turns, {bytes} bytes of JSON, digest {digest:016x}, {each:.3} ms a document",
        setups.len()
    );
}
