use super::*;
use crate::battle::engine::{Match, MatchSetup};
use crate::battle::{files::match_file, files::shipped};
use crate::text::confine::Confine;

/// The match files of `matches/`: they name shipped boards and programs only.
const MATCHES: [(&str, &str); 5] = [
    (
        "camp_raid",
        include_str!("../../../../../../matches/camp_raid.yaml"),
    ),
    (
        "computer_strike",
        include_str!("../../../../../../matches/computer_strike.yaml"),
    ),
    (
        "default",
        include_str!("../../../../../../matches/default.yaml"),
    ),
    ("duel", include_str!("../../../../../../matches/duel.yaml")),
    (
        "melee",
        include_str!("../../../../../../matches/melee.yaml"),
    ),
];

fn shipped_match(name: &str) -> MatchSetup {
    let (_, text) = MATCHES
        .iter()
        .find(|(n, _)| *n == name)
        .expect("a shipped match");
    let read = |_: &std::path::Path| -> std::io::Result<Vec<u8>> {
        Err(std::io::Error::other(
            "shipped matches name shipped files only",
        ))
    };
    match_file::parse_match(
        &format!("matches/{name}.yaml"),
        text,
        &read,
        Confine::Inside,
    )
    .expect("the shipped match loads")
}

/// The replay of a whole match, line by line, as `robots run --replay` writes it.
fn record(setup: &MatchSetup) -> Vec<String> {
    let mut game = Match::new(setup).expect("the match starts");
    let mut lines = vec![serde_json::to_string(&Header::new(setup, &game)).expect("json")];
    let mut events = Vec::new();
    let mut turns = 0;
    while {
        events.clear();
        game.step_into(&mut events)
    } {
        turns += 1;
        lines.push(turn_line(&events));
    }
    lines.push(result_line(game.outcome().expect("over"), turns));
    lines
}

/// Reads a replay back: the number of turns that agreed, or the first disagreement.
fn check(lines: &[String]) -> Result<u64, String> {
    let header = parse_header(&lines[0]).map_err(|e| e.to_string())?;
    let setup = setup_of(&header).map_err(|e| e.to_string())?;
    let mut check = Check::new(&header, &setup).map_err(|e| e.to_string())?;
    for (i, line) in lines[1..].iter().enumerate() {
        let result = check.line(line).map_err(|e| e.to_string())?.is_none();
        assert_eq!(
            result,
            i == lines.len() - 2,
            "only the last line is the result"
        );
    }
    Ok(check.turns())
}

#[test]
fn every_shipped_match_reads_back_the_same_from_its_replay() {
    for (name, _) in MATCHES {
        let setup = shipped_match(name);
        let lines = record(&setup);
        let header = parse_header(&lines[0]).expect("the header reads");
        let again = setup_of(&header).expect("the header sets up a match");
        // The setup from the replay writes the same header: nothing was lost.
        let game = Match::new(&again).expect("starts");
        assert_eq!(Header::new(&again, &game), header, "{name}");
        assert_eq!(check(&lines), Ok(lines.len() as u64 - 2), "{name}");
    }
}

#[test]
fn the_replay_holds_the_programs_as_written_once_each() {
    let setup = shipped_match("default");
    let header = parse_header(&record(&setup)[0]).expect("reads");
    let hunter = shipped::program("hunter").expect("shipped");
    assert_eq!(header.programs.iter().filter(|p| *p == hunter).count(), 1);
    // Both hunters point at the one text.
    let hunters: Vec<usize> = header
        .teams
        .iter()
        .flat_map(|t| &t.robots)
        .filter(|r| r.origin == "hunter")
        .map(|r| r.program)
        .collect();
    assert_eq!(hunters.len(), 2);
    assert_eq!(hunters[0], hunters[1]);
    assert_eq!(
        header.board.cells.len(),
        header.board.width * header.board.height
    );
}

#[test]
fn a_changed_turn_is_reported_at_that_turn() {
    let mut lines = record(&shipped_match("duel"));
    let line = &lines[5];
    assert!(line.contains("\"event\":\"turn\""), "{line}");
    lines[5] = line.replacen("\"round\":", "\"round\":9", 1);
    let message = check(&lines).expect_err("disagrees");
    assert!(message.starts_with("robot turn 5 (round "), "{message}");
    assert!(message.contains("event 1: the replay says"), "{message}");
}

#[test]
fn a_cut_replay_or_one_that_goes_on_is_reported() {
    let lines = record(&shipped_match("duel"));
    let mut cut = lines[..lines.len() / 2].to_vec();
    cut.push(lines[lines.len() - 1].clone());
    let message = check(&cut).expect_err("cut short");
    assert!(
        message.contains("the replay ends here, but the match goes on"),
        "{message}"
    );

    let mut longer = lines.clone();
    let extra = longer[2].clone();
    longer.insert(longer.len() - 1, extra);
    let message = check(&longer).expect_err("goes on");
    assert!(
        message.contains("the match is over, but the replay goes on"),
        "{message}"
    );

    let mut other_result = lines;
    let last = other_result.len() - 1;
    other_result[last] = other_result[last].replace("\"rounds\":", "\"rounds\":1");
    let message = check(&other_result).expect_err("result");
    assert!(message.contains("the result differs"), "{message}");
}

#[test]
fn a_changed_seed_is_caught_at_the_placements() {
    let lines = record(&shipped_match("default"));
    let mut header = parse_header(&lines[0]).expect("reads");
    header.seed += 1;
    let setup = setup_of(&header).expect("sets up");
    let Err(e) = Check::new(&header, &setup) else {
        panic!("another seed places the robots elsewhere or draws another first team");
    };
    assert!(
        e.0.contains("placements differ") || e.0.contains("plays first"),
        "{e}"
    );
}

#[test]
fn a_replay_of_format_1_is_refused_with_what_to_do() {
    let e = parse_header("{").expect_err("format 1");
    assert!(e.0.contains("format 1"), "{e}");
    let e = parse_header(r#"{"format_version": 4}"#).expect_err("format 4");
    assert!(e.0.contains("format_version 4"), "{e}");
    let e = parse_header("[1, 2]").expect_err("no header");
    assert!(e.0.contains("not a replay header"), "{e}");
}

#[test]
fn a_hostile_header_is_refused_in_words() {
    let good = parse_header(&record(&shipped_match("duel"))[0]).expect("reads");
    type Change = Box<dyn Fn(&mut Header)>;
    let cases: Vec<(&str, Change)> = vec![
        (
            "unknown team colour",
            Box::new(|h| h.teams[0].colour = "\u{1b}[2J".into()),
        ),
        (
            "not in `programs`",
            Box::new(|h| h.teams[0].robots[0].program = 99),
        ),
        (
            "is not on the board",
            Box::new(|h| h.teams[0].robots[0].at = Some([500, 1])),
        ),
        (
            "directions are 1 to 6",
            Box::new(|h| h.teams[0].robots[0].facing = Some(7)),
        ),
        (
            "do not fill",
            Box::new(|h| {
                h.board.cells.pop();
            }),
        ),
        (
            "unknown ground",
            Box::new(|h| h.board.cells[0].terrain = "swamp".into()),
        ),
        ("scenario 9", Box::new(|h| h.scenario = 9)),
        ("program_steps", Box::new(|h| h.rules.program_steps = 1000)),
        (
            "in the replay's programs[0]",
            Box::new(|h| h.programs[0] = "1: JUMP".into()),
        ),
        (
            "signals[0]",
            Box::new(|h| {
                h.signals.push(SignalDoc {
                    robot: "green.1".into(),
                    step: 1,
                    round: None,
                    when: Some("enemy within".into()),
                });
            }),
        ),
    ];
    for (expected, change) in cases {
        let mut header = good.clone();
        change(&mut header);
        let message = setup_of(&header)
            .err()
            .map(|e| e.0)
            .unwrap_or_else(|| panic!("{expected}: accepted"));
        assert!(message.contains(expected), "{expected}: {message}");
        assert!(!message.contains('\u{1b}'), "{message}");
    }
}

#[test]
fn a_line_written_another_way_but_meaning_the_same_agrees() {
    let mut lines = record(&shipped_match("duel"));
    lines[3] = lines[3].replace("\",\"", "\", \"").replace(":", ": ");
    assert!(lines[3].contains(", "));
    assert_eq!(check(&lines), Ok(lines.len() as u64 - 2));
}
