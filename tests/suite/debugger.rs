//! The debugger: script transcripts (snapshots of `tests/debugger/*.script`), the TUI drawn
//! into ratatui's `TestBackend`, breakpoints checked against a plain run, and back-then-forward
//! checked against straight play over random matches.

use crate::support::{load_match, read_under_root, session_on};
use proptest::prelude::*;
use robots_games::battle::engine::{Event, Match, MatchSetup};
use robots_games::battle::live::debug::{Session, Timeline};
use robots_games::battle::{files::match_file, files::shipped};
use robots_games::text::confine::Confine;
use robots_games::text::diagnostic::Diagnostic;
use std::path::Path;

/// The shipped default match, or a match file of `tests/debugger/`.
fn load(name: &str) -> Result<MatchSetup, Diagnostic> {
    if name == "default" {
        let (file, text) = shipped::DEFAULT_MATCH;
        return match_file::parse_match(file, text, &read_under_root, Confine::Anywhere);
    }
    load_match(&Path::new("tests/debugger").join(name))
}

fn session(name: &str, seed: Option<u64>) -> Session {
    let name = name.to_string();
    Session::new(Box::new(move || {
        let mut setup = load(&name)?;
        if let Some(seed) = seed {
            setup.seed = seed;
        }
        Ok(setup)
    }))
    .unwrap()
}

#[test]
fn scripts() {
    insta::glob!("../debugger", "*.script", |path| {
        let script = std::fs::read_to_string(path).unwrap();
        let header = |key: &str| {
            script
                .lines()
                .find_map(|l| l.strip_prefix(&format!("# {key}: ")).map(str::trim))
        };
        let matched = header("match").expect("a `# match:` line");
        let seed = header("seed").map(|s| s.parse().unwrap());
        let transcript = session(matched, seed).transcript(script.lines());
        snapshot!(
            "scripts",
            format!("{script}\n---- transcript ----\n{transcript}")
        );
    });
}

/// The check: stepping and coming back shows the same robot as not moving at all.
#[test]
fn step_then_back_shows_the_same_robot() {
    let moved = session("default", None).transcript(["step 10", "back 10", "show robot green.1"]);
    let still = session("default", None).transcript(["show robot green.1"]);
    let tail = |t: &str| t[t.rfind("> show robot").unwrap()..].to_string();
    assert_eq!(tail(&moved), tail(&still));
}

/// The first turn in which `robot` reads `step`, in a plain run of the match.
fn first_read(
    setup: &MatchSetup,
    robot: robots_games::battle::engine::RobotName,
    step: u8,
) -> Option<u64> {
    let mut m = Match::new(setup).unwrap();
    let mut turn = 0;
    while !m.is_over() {
        let events = m.step();
        turn += 1;
        if events
            .iter()
            .filter_map(Event::step_read)
            .any(|r| r == (robot, step))
        {
            return Some(turn);
        }
    }
    None
}

#[test]
fn a_step_breakpoint_stops_just_before_the_first_turn_that_reads_the_step() {
    let setup = load("default").unwrap();
    let mut checked = 0;
    for name in ["green.1", "green.2", "violet.1", "violet.2"] {
        let robot = robots_games::battle::engine::RobotName::parse(name).unwrap();
        for step in 1..=14u8 {
            let Some(turn) = first_read(&setup, robot, step) else {
                continue;
            };
            let mut s = session("default", None);
            s.run_line(&format!("break {name} step {step}"));
            let reply = s.run_line("continue");
            assert_eq!(
                s.timeline().turn(),
                turn - 1,
                "{name} step {step}: {}",
                reply.text
            );
            assert!(
                reply
                    .text
                    .contains(&format!("is about to read step {step}"))
            );
            checked += 1;
        }
    }
    assert!(checked > 20, "only {checked} breakpoints were reached");
}

/// The state and log after `turn` turns of straight play, with the timeline's signals.
fn straight(
    setup: &MatchSetup,
    turn: u64,
    inputs: &[(u64, robots_games::battle::engine::RobotId, u8)],
) -> (Match, Vec<Event>) {
    let mut m = Match::new(setup).unwrap();
    let mut log = Vec::new();
    for t in 1..=turn {
        m.step_into(&mut log);
        for &(at, robot, step) in inputs.iter().filter(|i| i.0 == t) {
            let _ = at;
            m.send_signal(robot, step, &mut log).unwrap();
        }
    }
    (m, log)
}

#[derive(Clone, Debug)]
enum Op {
    Step(u64),
    Back(u64),
    BackTurn,
    BackRound,
    Turn,
    Round,
    GotoRound(u32),
    Signal(u8, u8),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (1..40u64).prop_map(Op::Step),
        (1..80u64).prop_map(Op::Back),
        Just(Op::BackTurn),
        Just(Op::BackRound),
        Just(Op::Turn),
        Just(Op::Round),
        (1..30u32).prop_map(Op::GotoRound),
        (0..4u8, 1..15u8).prop_map(|(r, s)| Op::Signal(r, s)),
    ]
}

fn random_setup(seed: u64, a: usize, b: usize) -> MatchSetup {
    let mut setup = robots_games::battle::compare::bench::workload().unwrap()[a * 6 + b].clone();
    setup.seed = seed;
    setup
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whatever the moves in time (signals by hand included), the state and the log equal
    /// those of playing the same number of turns straight from the start.
    #[test]
    fn back_then_forward_reproduces_states_and_events(seed in 0..1000u64, a in 0..6usize, b in 0..6usize, ops in prop::collection::vec(op(), 1..25)) {
        let setup = random_setup(seed, a, b);
        let mut t = Timeline::new(Match::new(&setup).unwrap());
        for op in ops {
            match op {
                Op::Step(n) => { for _ in 0..n { t.step(); } }
                Op::Back(n) => t.go_to(t.turn().saturating_sub(n)),
                Op::BackTurn => t.back_team_turn(),
                Op::BackRound => t.back_round(),
                Op::Turn => t.forward_team_turn(),
                Op::Round => t.forward_round(),
                Op::GotoRound(n) => t.go_to_round(n),
                Op::Signal(robot, step) => {
                    if let Some(id) = t.current().robot_ids().nth(usize::from(robot)) {
                        let _ = t.send_signal(id, step);
                    }
                }
            }
            let (m, log) = straight(&setup, t.turn(), t.inputs());
            prop_assert!(t.current() == &m, "state differs at turn {}", t.turn());
            prop_assert_eq!(t.log(), &log[..]);
        }
    }
}

/// The benchmark's long match really is 500 rounds of 6 robots: 3,000 turns of history.
#[test]
fn the_benchmark_match_runs_to_500_rounds() {
    let t = robots_games::battle::compare::bench::long_timeline().unwrap();
    assert_eq!(t.turn(), 3000);
    let o = t.current().outcome().unwrap();
    assert_eq!(
        (o.rounds, o.reason),
        (500, robots_games::battle::engine::EndReason::RoundLimit)
    );
}

/// Reload after editing a program file: the new program runs from the same seed and
/// placements, and breakpoints and watches stay.
#[test]
fn reload_picks_up_an_edited_program() {
    let dir = std::env::temp_dir().join(format!("robots-reload-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let program = dir.join("mine.robot");
    std::fs::write(&program, "1: R+1\n2: RAZ\n").unwrap();
    let game = dir.join("match.yaml");
    std::fs::write(&game, "board: classic\nteams:\n  - colour: green\n    robots: [{program: mine.robot}]\n  - colour: violet\n    robots: [{code: \"\"}]\n").unwrap();
    let mut s = session_on(game);
    let before = s.transcript([
        "watch green.1 facing 1",
        "break green.1 step 2",
        "show robot green.1",
    ]);
    std::fs::write(&program, "1: T\n2: RAZ\n").unwrap();
    let after = s.transcript(["reload", "show breaks", "show watches", "step 2"]);
    assert!(
        after.contains("breakpoint 2: green.1 reads step 2"),
        "{after}"
    );
    assert!(after.contains("watch 1: green.1 facing 1"), "{after}");
    assert!(
        after.contains("green.1 step 1: fires"),
        "the edited program runs:\n{after}"
    );
    // Same seed, same placement.
    let position = |t: &str| {
        t.lines()
            .find(|l| l.contains("position:"))
            .map(str::to_string)
    };
    assert_eq!(
        position(&before),
        position(&s.transcript(["back 2", "show robot green.1"]))
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// The positions where `continue` stops, found by playing straight from the start: `t` when
/// turn `t + 1` makes `robot` read `step`; `t` (from 1) when the turn that led there made
/// `robot`'s `when` true or changed its watched count.
fn hits_by_straight_play(
    setup: &MatchSetup,
    robot: usize,
    step: u8,
    when: &str,
    term: &str,
) -> (Vec<u64>, u64) {
    use robots_games::battle::lang::{Comparison, Condition, Quantity, parse_condition};
    let when = parse_condition("when", when).unwrap();
    let Condition::Compare(term, Comparison::Eq, Quantity::Number(0)) =
        parse_condition("term", &format!("{term} = 0")).unwrap()
    else {
        panic!("a numeric term")
    };
    let mut m = Match::new(setup).unwrap();
    let id = m.robot_ids().nth(robot).unwrap();
    let name = m.robot(id).name;
    let values = |m: &Match| {
        let alive = m.robot(id).alive;
        (
            alive && m.evaluate(id, &when),
            alive.then(|| m.measure(id, &term)),
        )
    };
    let mut hits = Vec::new();
    let mut before = values(&m);
    let mut t = 0u64;
    loop {
        let events = m.step();
        if events.is_empty() && m.is_over() {
            break;
        }
        if events
            .iter()
            .filter_map(Event::step_read)
            .any(|(r, s)| r == name && s == step)
        {
            hits.push(t);
        }
        t += 1;
        let now = values(&m);
        if (now.0 && !before.0) || now.1 != before.1 {
            hits.push(t);
        }
        before = now;
    }
    hits.dedup();
    (hits, t)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// From the end of a match, `reverse-continue` visits exactly the positions where
    /// `continue` stops, latest first, and then the start.
    #[test]
    fn reverse_continue_stops_exactly_at_the_previous_hit(seed in 0..1000u64, a in 0..6usize, b in 0..6usize, robot in 0..6usize, step in 1..10u8) {
        let mut setup = random_setup(seed, a, b);
        setup.rules.rounds = 25;
        let robots = setup.teams.iter().map(|t| t.robots.len()).sum::<usize>();
        let robot = robot % robots;
        let (when, term) = ("enemy within 3", "count(robot within 4)");
        let loader_setup = setup.clone();
        let mut s = Session::new(Box::new(move || Ok(loader_setup.clone()))).unwrap();
        let id = s.current().robot_ids().nth(robot).unwrap();
        let name = s.current().robot(id).name;
        // A step past the program is refused, and then only the when and the watch stop.
        let valid = usize::from(step) <= s.current().program(id).len();
        let (mut expected, end) =
            hits_by_straight_play(&setup, robot, if valid { step } else { 0 }, when, term);
        let commands = [
            format!("break {name} step {step}"),
            format!("break {name} when {when}"),
            format!("watch {name} {term}"),
        ];
        let refused: Vec<bool> = commands.iter().map(|c| s.run_line(c).failed).collect();
        prop_assert_eq!(refused, vec![!valid, false, false]);
        s.run_line("step 1000000");
        prop_assert_eq!(s.timeline().turn(), end);
        expected.retain(|&t| t < end);
        expected.reverse();
        for want in expected {
            let reply = s.run_line("reverse-continue");
            prop_assert!(reply.stopped.is_some(), "no stop, wanted {}: {}", want, reply.text);
            prop_assert_eq!(s.timeline().turn(), want, "{}", reply.text);
        }
        let reply = s.run_line("reverse-continue");
        prop_assert!(reply.stopped.is_none(), "{}", reply.text);
        prop_assert_eq!(s.timeline().turn(), 0);
    }
}
