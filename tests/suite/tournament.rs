//! The sample programs play real matches: over the bench workload (teams of a hunter and one
//! other strategy, every pairing, many seeds) more matches are decided than drawn, and the
//! same seed always gives the same match.

use robots_games::battle::engine::Match;

#[test]
fn sample_programs_decide_more_matches_than_they_draw() {
    let workload = robots_games::battle::compare::bench::workload().unwrap();
    let report = robots_games::battle::compare::bench::play(&workload, 360);
    assert_eq!(report.matches, 360);
    assert!(report.decided > report.drawn, "{report:?}");
}

#[test]
fn a_match_is_a_function_of_its_seed() {
    let workload = robots_games::battle::compare::bench::workload().unwrap();
    let log = |seed| {
        let mut setup = workload[7].clone();
        setup.seed = seed;
        let mut m = Match::new(&setup).unwrap();
        let mut events = Vec::new();
        m.run(|e| events.push(e.clone()));
        events
    };
    assert_eq!(log(5), log(5));
    assert_ne!(log(5), log(6));
}

#[test]
fn a_cloned_state_replays_the_same_future() {
    let workload = robots_games::battle::compare::bench::workload().unwrap();
    let mut m = Match::new(&workload[3]).unwrap();
    for _ in 0..40 {
        m.step();
    }
    let mut copy = m.clone();
    for _ in 0..200 {
        assert_eq!(m.step(), copy.step());
    }
}
