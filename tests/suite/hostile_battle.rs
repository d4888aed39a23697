//! Files and commands from strangers, hex game: each test is named after a problem found by
//! fuzzing or by hand (issue 9), and fails on the code that had it.

use robots_games::battle::engine::Match;
use robots_games::battle::lang::{MAX_NESTING, parse_condition, parse_program};
use robots_games::battle::live::debug::Session;
use robots_games::battle::{files::match_file, files::shipped};
use robots_games::text::confine::Confine;

fn default_session() -> Session {
    Session::new(Box::new(|| {
        let (file, text) = shipped::DEFAULT_MATCH;
        match_file::parse_match(
            file,
            text,
            &crate::support::read_under_root,
            Confine::Inside,
        )
    }))
    .unwrap()
}

fn parens(depth: usize) -> String {
    format!("{}true{}", "(".repeat(depth), ")".repeat(depth))
}

fn nots(count: usize) -> String {
    format!("{}true", "not ".repeat(count))
}

#[test]
fn a_condition_4000_parentheses_deep_is_a_located_error_not_a_stack_overflow() {
    let program = format!("1: ?1\n2: RAZ\ntest 1: {}\n", parens(4000));
    let d = parse_program("deep.robot", &program, 15).unwrap_err();
    assert_eq!(d.line, 3, "{d}");
    assert!(d.message.contains("nests more than"), "{d}");
    let d = parse_condition("when", &parens(4000)).unwrap_err();
    assert!(d.message.contains("nests more than"), "{d}");
}

#[test]
fn a_condition_with_15000_nots_is_a_located_error_not_a_stack_overflow() {
    let program = format!("1: ?1\n2: RAZ\ntest 1: {}\n", nots(15_000));
    let d = parse_program("nots.robot", &program, 15).unwrap_err();
    assert_eq!(d.line, 3, "{d}");
    assert!(parse_condition("when", &nots(15_000)).is_err());
}

/// At the limit a condition still parses, is answered and is dropped.
#[test]
fn a_condition_at_the_nesting_limit_parses_answers_and_drops() {
    let half = MAX_NESTING / 2;
    let text = format!("{}{}", "not ".repeat(half), parens(half));
    let program = format!("1: ?1\n2: RAZ\ntest 1: {text}\n");
    let p = parse_program("limit.robot", &program, 15).unwrap();
    drop(p);
    assert!(parse_condition("when", &parens(MAX_NESTING + 1)).is_err());
    let mut s = default_session();
    let reply = s.run_line(&format!("watch green.1 {}", parens(MAX_NESTING)));
    assert!(reply.text.contains("= yes"), "{}", reply.text);
}

#[test]
fn a_conditional_signal_nested_4000_deep_is_a_located_error() {
    let text = format!(
        "board: classic\nteams:\n  - colour: green\n    robots: [{{program: hunter}}]\n  - colour: violet\n    robots: [{{program: hunter}}]\nsignals:\n  - {{when: \"{}\", robot: green.1, step: 1}}\n",
        parens(4000)
    );
    let missing = |_: &std::path::Path| Err(std::io::ErrorKind::NotFound.into());
    let d = match_file::parse_match("m.yaml", &text, &missing, Confine::Inside).unwrap_err();
    assert!(d.message.contains("nests more than"), "{d}");
    assert_eq!(d.line, 8, "{d}");
}

#[test]
fn debugger_watch_and_break_when_nested_4000_deep_are_refused() {
    let mut s = default_session();
    for line in [
        format!("watch green.1 {}", parens(4000)),
        format!("break green.1 when {}", nots(15_000)),
    ] {
        let reply = s.run_line(&line);
        assert!(reply.text.starts_with("error:"), "{}", reply.text);
        assert!(reply.text.contains("nests more than"), "{}", reply.text);
    }
}

/// `delete 4294967297` once wrapped to `delete 1`.
#[test]
fn delete_4294967297_does_not_delete_breakpoint_1() {
    let mut s = default_session();
    s.run_line("break green.1 step 3");
    let reply = s.run_line("delete 4294967297");
    assert!(reply.text.starts_with("error:"), "{}", reply.text);
    assert_eq!(s.marks().len(), 1);
}

/// `Region::Ring` once cut the board's reach `(width + height) as u8`: on a board with
/// width + height = 256 it became 0 and `lake within 10` answered no with a lake 5 away.
#[test]
fn lake_within_10_sees_a_lake_5_hexes_away_on_a_board_whose_sides_add_to_256() {
    let (width, height) = (200, 56);
    let mut map = String::new();
    for row in 0..height {
        if row % 2 == 1 {
            map.push(' ');
        }
        let cells: Vec<&str> = (0..width)
            .map(|col| match (row, col) {
                (0, 0) => "+",
                (0, 5) => "~",
                (1, 150) => "+",
                _ => ".",
            })
            .collect();
        map.push_str(&cells.join(" "));
        map.push('\n');
    }
    let board = format!("name: wide\nmap: |\n{}", indent(&map));
    let text = "board: wide.yaml\nrules: {rounds: 1}\nteams:\n  - colour: green\n    robots: [{at: [0, 0], facing: 1, code: \"1: ?1\\n2: T\\n3: RAZ\\ntest 1: lake within 10\\n\"}]\n  - colour: violet\n    robots: [{at: [150, 1], code: \"\"}]\n";
    let read = |_: &std::path::Path| Ok(board.clone().into_bytes());
    let setup = match_file::parse_match("m.yaml", text, &read, Confine::Inside).unwrap();
    let mut m = Match::new(&setup).unwrap();
    let mut answers = Vec::new();
    while !m.is_over() {
        for e in m.step() {
            if let robots_games::battle::engine::Event::Tested { answer, .. } = e {
                answers.push(answer);
            }
        }
    }
    assert_eq!(answers.first(), Some(&true), "{answers:?}");
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("  {l}\n")).collect()
}

/// `step 999999999999` once kept ~270 bytes a robot turn for ever. Now the log keeps a
/// window of recent turns and kept states thin out past a budget, and going back stays
/// exact: a long run on the largest board keeps both bounded.
#[test]
fn stepping_far_keeps_the_debugger_memory_bounded_and_going_back_exact() {
    use robots_games::battle::live::debug::{LOG_TURNS, Timeline};
    let (width, height) = (200, 80);
    let mut map = String::new();
    for row in 0..height {
        map.push_str(if row % 2 == 1 { "   " } else { "  " });
        map.push_str(&vec!["."; width].join(" "));
        map.push('\n');
    }
    let board = format!("name: largest\nmap: |\n{map}");
    let text = "board: largest.yaml\nrules: {rounds: 1000}\nteams:\n  - colour: green\n    robots: [{at: [0, 0], code: \"1: R+1\"}]\n  - colour: violet\n    robots: [{at: [9, 9], code: \"1: R-1\"}]\n";
    let read = |_: &std::path::Path| Ok(board.clone().into_bytes());
    let mut setup = match_file::parse_match("m.yaml", text, &read, Confine::Inside).unwrap();
    // As long as the user asks for on the command line (`--rounds`).
    setup.rules.rounds = 4_000_000_000;
    let mut t = Timeline::new(Match::new(&setup).unwrap());
    let far = 6 * LOG_TURNS;
    t.go_to(far);
    assert_eq!(t.turn(), far);
    let (kept, most) = t.checkpoints_kept();
    assert!(kept <= most, "{kept} states kept, budget {most}");
    assert!(most < 2000, "a state of the largest board is large: {most}");
    assert!(
        t.turn() - t.log_start() <= 2 * LOG_TURNS + 2,
        "log from {}",
        t.log_start()
    );
    assert!(t.log().len() <= 4 * usize::try_from(2 * LOG_TURNS + 2).unwrap());
    // Going back (before the log window, across thinned states) is exact.
    for target in [12_345, 1, far - 3] {
        t.go_to(target);
        let mut straight = Match::new(&setup).unwrap();
        for _ in 0..target {
            straight.step();
        }
        assert_eq!(t.current().state(), straight.state(), "turn {target}");
    }
    t.back_round();
    assert_eq!(t.current().clock().slot, 0);
    assert!(t.turn() < far - 3);
}

/// `robots debug < /dev/zero` once aborted on a 2 GB allocation: a command line is read with
/// a bounded buffer, and a line past the bound ends the session with a clear error.
#[test]
fn debug_reading_an_endless_line_stops_with_an_error_not_an_abort() {
    use std::io::Write;
    let mut child = crate::support::robots_command()
        .arg("debug")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // Far more than a line may hold, without a newline; the reader stops early, so the pipe
    // may close under us: that is fine.
    let chunk = vec![b'x'; 1 << 16];
    for _ in 0..64 {
        if stdin.write_all(&chunk).is_err() {
            break;
        }
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("a line longer than"), "{err}");
}

/// A 2.6 MB test of 100,000 `black circle within 50` joined by `or`, on a 120×120 board,
/// once took 10 seconds an answer (every hex of every ring scanned): a condition asks at
/// most 64 questions, refused at load with the count and the limit.
#[test]
fn a_test_of_a_hundred_thousand_questions_is_refused_at_load() {
    use robots_games::battle::lang::{MAX_TERMS, parse_condition, parse_program};
    let terms = vec!["black circle within 50"; 100_000].join(" or ");
    let program = format!("1: ?1\n2: T\n3: RAZ\ntest 1: {terms}\n");
    let d = parse_program("slow.robot", &program, 15).unwrap_err();
    assert_eq!((d.line, d.col), (4, 9));
    assert!(d.message.contains("asks 100000 questions"), "{}", d.message);
    assert!(
        d.message.contains(&format!("at most {MAX_TERMS}")),
        "{}",
        d.message
    );
    assert!(parse_condition("when", &terms).is_err());
    // At the limit it loads.
    let at_limit = vec!["lake ahead 1"; MAX_TERMS].join(" or ");
    assert!(parse_program("p", &format!("1: ?1\n2: T\ntest 1: {at_limit}\n"), 15).is_ok());
}

/// `rules: {rounds: 4000000000}` in a match file of robots that never meet once meant hours
/// of `robots run`: a file asks at most 1,000 rounds; more is asked with `--rounds`.
#[test]
fn a_match_file_asking_billions_of_rounds_is_refused() {
    let text = "board: duel\nrules: {rounds: 4000000000}\nteams:\n  - colour: green\n    robots: [{code: \"1: R+1\"}]\n  - colour: violet\n    robots: [{code: \"1: R-1\"}]\n";
    let none = |_: &std::path::Path| -> std::io::Result<Vec<u8>> {
        Err(std::io::ErrorKind::NotFound.into())
    };
    let d = match_file::parse_match("m.yaml", text, &none, Confine::Inside).unwrap_err();
    assert_eq!(d.line, 2);
    assert!(
        d.message.contains("more than a match file may ask (1000)"),
        "{}",
        d.message
    );
    assert!(d.message.contains("--rounds"), "{}", d.message);
}

/// Rings of terrain on the largest boards are counted from tables, not by visiting every
/// hex: on a 200×80 board, a robot asking 64 `count(lake within 50)` questions for 200
/// rounds plays in well under a second (it took minutes by scanning). The answer is what a
/// scan gives.
#[test]
fn terrain_rings_on_the_largest_board_cost_the_same_as_on_a_small_one() {
    let (width, height) = (200, 80);
    let mut map = String::new();
    for row in 0..height {
        map.push_str(if row % 2 == 1 { "   " } else { "  " });
        let hexes: Vec<&str> = (0..width)
            .map(|col| if (col + row) % 97 == 0 { "~" } else { "." })
            .collect();
        map.push_str(&hexes.join(" "));
        map.push('\n');
    }
    let board = format!("name: largest\nmap: |\n{map}");
    // What a scan gives: every lake at a distance of 50 or less from [100, 40].
    let centre = robots_games::battle::hex::Hex::from_offset(100, 40);
    let lakes = (0..height)
        .flat_map(|row| (0..width).map(move |col| (col, row)))
        .filter(|&(col, row)| (col + row) % 97 == 0)
        .filter(|&(col, row)| {
            let hex = robots_games::battle::hex::Hex::from_offset(col, row);
            (1..=50).contains(&centre.distance(hex))
        })
        .count();
    assert!(lakes > 0);
    let test = vec![format!("count(lake within 50) = {lakes}"); 64].join(" and ");
    let text = format!(
        "board: largest.yaml\nteams:\n  - colour: green\n    robots: [{{at: [100, 40], code: \"1: ?1\\n2: R+1\\n3: R-1\\n4: GO 1\\ntest 1: {test}\\n\"}}]\n  - colour: violet\n    robots: [{{at: [1, 0], code: \"1: R+1\\n2: RAZ\"}}]\n"
    );
    let read = |_: &std::path::Path| Ok(board.clone().into_bytes());
    let setup = match_file::parse_match("m.yaml", &text, &read, Confine::Inside).unwrap();
    let mut m = Match::new(&setup).unwrap();
    let mut answers = Vec::new();
    m.run(|e| {
        if let robots_games::battle::engine::Event::Tested { answer, .. } = e {
            answers.push(*answer);
        }
    });
    // Green asks its test every other turn, 200 rounds long, and the answer is the scan's.
    assert_eq!(answers.len(), 100);
    assert!(answers.iter().all(|a| *a), "{answers:?}");
}
