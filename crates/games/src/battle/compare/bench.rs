//! The fixed workload of `robots bench`, which is also the sample programs' tournament: teams of
//! a hunter and one other strategy, every pairing, on the classic board, many seeds. Timing is
//! the caller's business; this module only plays.

use crate::battle::engine::{Match, MatchSetup, Prepared, RobotSetup, Rules, Scenario, TeamSetup};
use crate::battle::files::shipped;
use crate::battle::lang::parse_program;
use crate::battle::terrain::TeamColour;
use crate::text::diagnostic::Diagnostic;
use std::sync::Arc;

/// The match setups the benchmark cycles through.
pub fn workload() -> Result<Vec<MatchSetup>, Diagnostic> {
    let board = Arc::new(crate::battle::files::board_file::parse_board(
        "boards/classic.yaml",
        shipped::BOARDS[0].1,
    )?);
    let fighters = [
        "hunter", "sentinel", "kamikaze", "wanderer", "flanker", "turret",
    ];
    let mut programs = Vec::new();
    for name in fighters {
        let text = program(name);
        programs.push((
            name,
            Arc::new(parse_program(&format!("programs/{name}.robot"), text, 15)?),
        ));
    }
    let mut setups = Vec::new();
    for (a, pa) in &programs {
        for (b, pb) in &programs {
            let hunter = &programs[0];
            let team = |colour, p: &Arc<crate::battle::lang::Program>, name: &str| TeamSetup {
                colour,
                robots: vec![
                    RobotSetup {
                        program: Arc::clone(&hunter.1),
                        origin: hunter.0.to_string(),
                        source: source(hunter.0),
                        at: None,
                        facing: None,
                    },
                    RobotSetup {
                        program: Arc::clone(p),
                        origin: name.to_string(),
                        source: source(name),
                        at: None,
                        facing: None,
                    },
                ],
            };
            setups.push(MatchSetup {
                name: format!("hunter+{a} v hunter+{b}"),
                board: Arc::clone(&board),
                scenario: Scenario::Elimination,
                rules: Rules::default(),
                seed: 0,
                teams: vec![
                    team(TeamColour::Green, pa, a),
                    team(TeamColour::Violet, pb, b),
                ],
                signals: Vec::new(),
            });
        }
    }
    Ok(setups)
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub matches: u64,
    pub decided: u64,
    pub drawn: u64,
    pub turns: u64,
}

/// Plays `count` matches, cycling through the workload with seeds 0, 1, 2, … Each setup is
/// checked and compiled once ([`Prepared`]), as a tournament's pairing is.
pub fn play(workload: &[MatchSetup], count: u32) -> Report {
    let mut report = Report::default();
    let prepared: Vec<Option<Prepared>> = Prepared::each(workload)
        .into_iter()
        .map(Result::ok)
        .collect();
    if prepared.is_empty() {
        return report;
    }
    for i in 0..count {
        let Some(Ok(mut game)) = prepared[i as usize % prepared.len()]
            .as_ref()
            .map(|p| p.start(u64::from(i)))
        else {
            continue;
        };
        game.play_out();
        report.matches += 1;
        report.turns += game.turns_played();
        match game.outcome().and_then(|o| o.winner) {
            Some(_) => report.decided += 1,
            None => report.drawn += 1,
        }
    }
    report
}

/// A 500-round match on the classic board (three sentinels a side that never move never meet,
/// so it runs to the limit), played to its end in a debugger timeline: 3,000 robot turns of
/// history.
pub fn long_timeline() -> Result<crate::battle::live::debug::Timeline, Diagnostic> {
    let board = Arc::new(crate::battle::files::board_file::parse_board(
        "boards/classic.yaml",
        shipped::BOARDS[0].1,
    )?);
    // The frozen sentinel never leaves its hex (the shipped one goes looking for enemies).
    let sentinel = Arc::new(parse_program(
        "programs/bench/sentinel.robot",
        program("sentinel"),
        15,
    )?);
    let team = |colour| TeamSetup {
        colour,
        robots: (0..3)
            .map(|_| RobotSetup {
                program: Arc::clone(&sentinel),
                origin: "still_sentinel".into(),
                source: source("sentinel"),
                at: None,
                facing: None,
            })
            .collect(),
    };
    let setup = MatchSetup {
        name: "500 rounds".into(),
        board,
        scenario: Scenario::Elimination,
        rules: Rules {
            rounds: 500,
            ..Rules::default()
        },
        seed: 1,
        teams: vec![team(TeamColour::Green), team(TeamColour::Violet)],
        signals: Vec::new(),
    };
    let mut timeline = crate::battle::live::debug::Timeline::new(
        Match::new(&setup).expect("start points are free"),
    );
    while timeline.step() {}
    Ok(timeline)
}

/// The versions of the programs the workload was fixed with (programs/bench/README.md).
const FROZEN: [(&str, &str); 4] = [
    (
        "sentinel",
        include_str!("../../../../../programs/bench/sentinel.robot"),
    ),
    (
        "wanderer",
        include_str!("../../../../../programs/bench/wanderer.robot"),
    ),
    (
        "flanker",
        include_str!("../../../../../programs/bench/flanker.robot"),
    ),
    (
        "turret",
        include_str!("../../../../../programs/bench/turret.robot"),
    ),
];

/// A program of the workload: its frozen version, else the shipped one.
fn program(name: &str) -> &'static str {
    FROZEN
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
        .or_else(|| shipped::program(name))
        .unwrap_or_default()
}

/// A program's text, as the workload plays it.
fn source(name: &str) -> Arc<str> {
    program(name).into()
}
