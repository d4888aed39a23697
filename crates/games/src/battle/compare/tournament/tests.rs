use super::*;
use crate::battle::engine::EndReason;
use crate::battle::{files::board_file, files::shipped, lang};

fn entrant(name: &str) -> Entrant {
    let text = shipped::program(name).expect("shipped");
    Entrant::single(
        name.into(),
        lang::parse_program(name, text, 15).expect("parses"),
        text.into(),
    )
}

fn config(seeds: RangeInclusive<u32>) -> Config {
    let board = board_file::parse_board("classic", shipped::board("classic").expect("shipped"))
        .expect("the classic board");
    Config {
        board: Arc::new(board),
        scenario: Scenario::Elimination,
        rules: Rules::default(),
        robots: 3,
        seeds,
    }
}

#[test]
fn every_pairing_is_played_both_ways_on_every_seed() {
    let games = schedule(4, &(1..=5));
    assert_eq!(games.len() as u64, schedule_len(4, &(1..=5)));
    assert_eq!(games.len(), 6 * 2 * 5);
    for a in 0..4 {
        for b in a + 1..4 {
            for swapped in [false, true] {
                let n = games
                    .iter()
                    .filter(|g| g.a == a && g.b == b && g.swapped == swapped)
                    .count();
                assert_eq!(n, 5);
            }
        }
    }
    assert_eq!(schedule_len(1, &(1..=5)), 0);
}

#[test]
fn a_seed_depends_on_the_programs_and_the_index_only() {
    assert_eq!(
        game_seed("hunter", "sentinel", 3),
        game_seed("hunter", "sentinel", 3)
    );
    assert_ne!(
        game_seed("hunter", "sentinel", 3),
        game_seed("sentinel", "hunter", 3)
    );
    assert_ne!(
        game_seed("hunter", "sentinel", 3),
        game_seed("hunter", "sentinel", 4)
    );
    // The names are separated: `ab`+`c` is not `a`+`bc`.
    assert_ne!(game_seed("ab", "c", 1), game_seed("a", "bc", 1));
}

#[test]
fn the_results_are_the_same_on_one_thread_or_two() {
    let entrants: Vec<Entrant> = ["hunter", "kamikaze", "sentinel"].map(entrant).into();
    let config = config(1..=4);
    let games = schedule(entrants.len(), &config.seeds);
    let stop = AtomicBool::new(false);
    let on = |threads| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a pool");
        pool.install(|| play_all(&entrants, &config, &games, &stop, &|| {}))
            .expect("plays")
    };
    let one = on(1);
    assert_eq!(one, on(2));
    assert!(one.iter().all(Option::is_some));
    // The colour assignment matters: the same seed index, swapped, is another match.
    let (x, y) = (one[0].expect("played"), one[4].expect("played"));
    assert_eq!((x.game.seed_index, y.game.seed_index), (1, 1));
    assert_ne!(x.seed, y.seed);
}

#[test]
fn a_stopped_tournament_plays_nothing_more() {
    let entrants: Vec<Entrant> = ["hunter", "sentinel"].map(entrant).into();
    let config = config(1..=3);
    let games = schedule(2, &config.seeds);
    let stop = AtomicBool::new(true);
    let results = play_all(&entrants, &config, &games, &stop, &|| {}).expect("plays");
    assert!(results.iter().all(Option::is_none));
}

/// Results where `i` beats `j > i` in `p` of their matches (out of `n` per pairing, with a
/// fixed pattern, not at random), the rest lost.
fn synthetic(programs: usize, n: u32, p: f64) -> Vec<GameResult> {
    let mut results = Vec::new();
    for a in 0..programs {
        for b in a + 1..programs {
            for k in 0..n {
                let win = f64::from(k % 10) < p * 10.0;
                results.push(GameResult {
                    game: Game {
                        a,
                        b,
                        swapped: k % 2 == 1,
                        seed_index: k,
                    },
                    seed: 0,
                    score: if win { Score::Win } else { Score::Loss },
                    rounds: 1,
                    reason: EndReason::LastTeamStanding,
                });
            }
        }
    }
    results
}

#[test]
fn a_stronger_program_ranks_above_a_weaker_one() {
    let names: Vec<String> = ["strong", "middle", "weak", "weakest"]
        .map(String::from)
        .into();
    let table = standings(&names, &synthetic(4, 40, 0.7));
    let order: Vec<&str> = table.rows.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(order, ["strong", "middle", "weak", "weakest"]);
    let ratings: Vec<f64> = table.rows.iter().map(|r| r.rating.rating).collect();
    assert!(ratings.windows(2).all(|w| w[0] > w[1]), "{ratings:?}");
    // Centred on 1500.
    let mean = ratings.iter().sum::<f64>() / 4.0;
    assert!((mean - 1500.0).abs() < 30.0, "{mean}");
    let strong = &table.rows[0];
    assert_eq!(strong.played, 120);
    assert_eq!(strong.points, 3 * strong.wins + strong.draws);
}

#[test]
fn intervals_shrink_with_more_seeds() {
    let names: Vec<String> = ["a", "b", "c"].map(String::from).into();
    let width = |n| {
        standings(&names, &synthetic(3, n, 0.6)).rows[0]
            .rating
            .interval
    };
    let (few, many) = (width(10), width(1000));
    assert!(many < few / 5.0, "{few} then {many}");
    // Equal programs: the ratings overlap.
    let even = standings(&names, &synthetic(3, 100, 0.5));
    let (top, bottom) = (&even.rows[0].rating, &even.rows[2].rating);
    assert!(top.rating - top.interval < bottom.rating + bottom.interval);
}

#[test]
fn wilson_intervals_are_the_textbook_ones() {
    let (lo, hi) = wilson(0.5, 100);
    assert!(
        (lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3,
        "{lo} {hi}"
    );
    let (lo, hi) = wilson(1.0, 10);
    assert!(
        (lo - 0.7225).abs() < 1e-3 && (hi - 1.0).abs() < 1e-9,
        "{lo} {hi}"
    );
    assert_eq!(wilson(0.3, 0), (0.0, 1.0));
}

#[test]
fn hill_names_are_letters_digits_underscores_and_dashes() {
    for good in ["hunter", "camp_runner", "v-2", &"x".repeat(64)] {
        assert!(hill::is_safe_name(good), "{good}");
    }
    for bad in [
        "",
        "a b",
        "../x",
        "a.b",
        "é",
        &"x".repeat(65),
        "a/b",
        "a\\b",
    ] {
        assert!(!hill::is_safe_name(bad), "{bad}");
    }
}

#[test]
fn a_hill_plays_only_the_missing_games() {
    let seeds = 1..=3;
    let all = schedule_results(4, &seeds);
    // The first three programs' results are there: only the fourth's games are missing.
    let old: Vec<GameResult> = all.iter().filter(|r| r.game.b < 3).copied().collect();
    let missing = hill::missing(4, &seeds, &old);
    assert_eq!(missing.len(), 3 * 2 * 3);
    assert!(missing.iter().all(|g| g.b == 3));
    assert!(hill::missing(4, &seeds, &schedule_results(4, &seeds)).is_empty());
}

fn schedule_results(n: usize, seeds: &RangeInclusive<u32>) -> Vec<GameResult> {
    schedule(n, seeds)
        .into_iter()
        .map(|game| GameResult {
            game,
            seed: 0,
            score: Score::Draw,
            rounds: 1,
            reason: EndReason::LastTeamStanding,
        })
        .collect()
}

#[test]
fn reindexing_keeps_green_green_and_the_winner_the_winner() {
    let r = GameResult {
        game: Game {
            a: 0,
            b: 2,
            swapped: false,
            seed_index: 4,
        },
        seed: 9,
        score: Score::Win,
        rounds: 7,
        reason: EndReason::LastTeamStanding,
    };
    // 0 becomes 3 and 2 becomes 1: green (old 0, now 3) is now the higher index.
    let moved = hill::reindex(&r, |i| [Some(3), None, Some(1)][i]).expect("both stay");
    assert_eq!(
        moved.game,
        Game {
            a: 1,
            b: 3,
            swapped: true,
            seed_index: 4
        }
    );
    assert_eq!(moved.score, Score::Loss);
    assert_eq!((moved.seed, moved.rounds), (9, 7));
    assert_eq!(hill::reindex(&r, |i| (i != 2).then_some(i)), None);
}

#[test]
fn the_last_is_pushed_off_until_the_hill_holds_its_size() {
    let names: Vec<String> = ["strong", "middle", "weak", "weakest"]
        .map(String::from)
        .into();
    let results = synthetic(4, 10, 0.7);
    let crowned = hill::crown(&names, &results, 2);
    assert_eq!(crowned.pushed, [3, 2]);
    assert_eq!(crowned.kept, [0, 1]);
    assert_eq!(crowned.results.len(), 10);
    assert!(
        crowned
            .results
            .iter()
            .all(|r| r.game.a == 0 && r.game.b == 1)
    );
    let mut two = synthetic(2, 10, 0.7);
    two.sort_by_key(|r| r.game);
    assert_eq!(crowned.results, two);
    let whole = hill::crown(&names, &results, 4);
    assert!(whole.pushed.is_empty());
    assert_eq!(whole.results.len(), results.len());
}
