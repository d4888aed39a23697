use super::*;
use crate::battle::files::shipped;

fn same_program(a: &Program, b: &Program) {
    let steps = |p: &Program| p.steps.iter().map(|s| s.instruction).collect::<Vec<_>>();
    assert_eq!(steps(a), steps(b));
    for k in 0..4 {
        let t = |p: &Program| p.tests[k].as_ref().map(|t| t.condition.clone());
        assert_eq!(t(a), t(b), "test {}", k + 1);
    }
}

#[test]
fn every_shipped_program_is_written_back_as_it_was_read() {
    for (name, source) in shipped::PROGRAMS {
        let p = parse_program_in(name, source, MAX_STEPS, Keywords::Plain).unwrap();
        let text = program_text(&p, name);
        let again = parse_program_in(name, &text, MAX_STEPS, Keywords::Plain)
            .unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
        same_program(&p, &again);
        let commented = commented_text(&p, name);
        let again = parse_program_in(name, &commented, MAX_STEPS, Keywords::Plain).unwrap();
        same_program(&p, &again);
    }
}

#[test]
fn children_read_back_as_written() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut accepted = 0;
    let mut p = genome::random_program(&mut rng);
    for i in 0..2_000 {
        let child = if i % 4 == 0 {
            genome::crossover(&p, &genome::random_program(&mut rng), &mut rng)
        } else {
            genome::mutate(&p, &mut rng)
        };
        if let Some((parsed, _, _)) = checked(&child) {
            // The same text: `or` inside `or` is read back flat, the same condition.
            assert_eq!(program_text(&child, "c"), program_text(&parsed, "c"));
            accepted += 1;
            p = parsed;
        }
    }
    assert!(
        accepted > 1_500,
        "only {accepted} of 2000 children accepted"
    );
}

#[test]
fn limits_are_checked_before_any_match() {
    let config = Config {
        board: Arc::new(
            crate::battle::files::board_file::parse_board(
                "classic",
                shipped::board("classic").unwrap(),
            )
            .unwrap(),
        ),
        scenario: crate::battle::engine::Scenario::from_number(1).unwrap(),
        rules: crate::battle::engine::Rules::with_keywords(Keywords::Plain),
        robots: 1,
        seeds: 1..=1,
    };
    let settings = Settings {
        population: 4,
        generations: 1,
        seed: 1,
        seeds: 1,
        elite: 1,
        fame_every: 1,
        fame_size: 1,
        final_seeds: 1,
        finalists: 1,
    };
    let stop = AtomicBool::new(false);
    let run = |s: &Settings, b: &[Entrant]| evolve(s, &config, b, &stop, &mut |_| {});
    assert!(matches!(run(&settings, &[]), Err(EvolveError::NoOpponents)));
    let hunter = Entrant::single(
        "hunter".into(),
        parse_program_in(
            "h",
            shipped::program("hunter").unwrap(),
            15,
            Keywords::Plain,
        )
        .unwrap(),
        "".into(),
    );
    let bad = Settings {
        population: 0,
        ..settings.clone()
    };
    assert!(matches!(
        run(&bad, std::slice::from_ref(&hunter)),
        Err(EvolveError::Population(0))
    ));
    let huge = Settings {
        seeds: u32::MAX,
        ..settings.clone()
    };
    assert!(matches!(
        run(&huge, std::slice::from_ref(&hunter)),
        Err(EvolveError::TooManyMatches(_))
    ));
    let out = run(&settings, &[hunter]).unwrap();
    assert_eq!(out.champions.len(), 1);
    assert!(!out.stopped);
}
