//! Structured random inputs through the same entry points as the fuzz targets (`fuzz/`):
//! programs written from the language's own pieces (numbered steps, every instruction,
//! tests with nested conditions), boards made of legend symbols with odd rows shifted (and
//! sometimes ragged), and matches built from both, then played with a small round limit.
//! Every one loads or gives a diagnostic, and every match that loads plays to its end;
//! nothing panics.

use proptest::prelude::*;
use robots_games::battle::{engine::Match, files::board_file, files::match_file, lang};
use robots_games::text::confine::Confine;

// ------------------------------------------------------------------------- conditions

/// Mostly a number in `valid`, now and then one just outside it (a mistake to diagnose).
fn mostly(valid: std::ops::RangeInclusive<u32>) -> impl Strategy<Value = u32> {
    let (lo, hi) = (*valid.start(), *valid.end());
    prop_oneof![19 => valid, 1 => prop_oneof![Just(lo.saturating_sub(1)), Just(hi + 1), hi + 2..100]]
}

/// A distance or count: mostly 1 to 6.
fn small() -> impl Strategy<Value = u32> {
    mostly(1..=6)
}

fn subject() -> impl Strategy<Value = &'static str> {
    prop::sample::select(
        &[
            "enemy",
            "enemies",
            "friend",
            "robot",
            "any robot",
            "red robots",
            "violet",
            "green",
            "lake",
            "lightning",
            "plain",
            "shape",
            "square",
            "red triangle",
            "black circles",
            "yellow shape",
            "camp",
            "enemy camp",
            "own camp",
            "green camp",
            "computer",
            "enemy computer",
            "violet computer",
            "edge",
        ][..],
    )
}

fn line_dir() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(
            &[
                "ahead",
                "behind",
                "left",
                "right",
                "ahead-left",
                "ahead-right",
                "behind-left",
                "behind-right",
            ][..]
        )
        .prop_map(str::to_string),
        mostly(1..=6).prop_map(|d| format!("in direction {d}")),
        mostly(1..=6).prop_map(|d| format!("direction {d}")),
    ]
}

fn region() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just(" anywhere".to_string()),
        Just(" here".to_string()),
        small().prop_map(|n| format!(" within {n}")),
        small().prop_map(|n| format!(" at {n}")),
        small().prop_map(|n| format!(" at distance {n}")),
        line_dir().prop_map(|d| format!(" {d}")),
        (line_dir(), small()).prop_map(|(d, n)| format!(" {d} within {n}")),
        (line_dir(), small()).prop_map(|(d, n)| format!(" {d} {n}")),
        (line_dir(), small()).prop_map(|(d, n)| format!(" {d} at {n}")),
    ]
}

fn selector() -> impl Strategy<Value = String> {
    (subject(), region()).prop_map(|(s, r)| format!("{s}{r}"))
}

fn quantity() -> impl Strategy<Value = String> {
    prop_oneof![
        selector().prop_map(|s| format!("count({s})")),
        Just("shots".to_string()),
        Just("shots left".to_string()),
        Just("damage".to_string()),
        Just("destroyed steps".to_string()),
        small().prop_map(|n| n.to_string()),
    ]
}

fn atom() -> impl Strategy<Value = String> {
    let op = prop::sample::select(&["=", "==", "!=", ">", ">=", "<", "<="][..]);
    prop_oneof![
        4 => selector(),
        2 => (quantity(), op, quantity()).prop_map(|(a, o, b)| format!("{a} {o} {b}")),
        1 => mostly(1..=6).prop_map(|n| format!("facing {n}")),
        1 => mostly(1..=6).prop_map(|n| format!("facing direction {n}")),
        1 => prop::sample::select(&["in camp", "in enemy camp", "in own camp", "in green camp"][..])
            .prop_map(str::to_string),
        1 => prop::sample::select(&["true", "false", "TRUE", "False"][..]).prop_map(str::to_string),
    ]
}

/// A condition: atoms joined by `and`, `or`, `not` and parentheses, a few levels deep.
fn condition() -> impl Strategy<Value = String> {
    atom().prop_recursive(4, 24, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a} and {b}")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a} or {b}")),
            inner.clone().prop_map(|a| format!("not {a}")),
            inner.prop_map(|a| format!("({a})")),
        ]
    })
}

// ------------------------------------------------------------------------- programs

/// One instruction; `GO` targets and tests within the program's `steps`.
fn instruction(steps: u32) -> impl Strategy<Value = String> {
    prop_oneof![
        (
            prop::sample::select(&["D", "R", "d", "r"][..]),
            prop::sample::select(&["+", "-"][..]),
            mostly(1..=2)
        )
            .prop_map(|(i, s, n)| format!("{i}{s}{n}")),
        Just("T".to_string()),
        Just("*".to_string()),
        mostly(1..=4).prop_map(|n| format!("?{n}")),
        Just("RAZ".to_string()),
        mostly(1..=steps).prop_map(|n| format!("GO {n}")),
        mostly(1..=steps).prop_map(|n| format!("go to {n}")),
    ]
}

/// A program: numbered steps (usually in order, from 1), then tests 1–4 (sometimes some
/// missing), sometimes a name and comments.
fn program() -> impl Strategy<Value = String> {
    (1u32..=15).prop_flat_map(|steps| {
        (
            prop::collection::vec(
                (
                    instruction(steps),
                    prop::sample::select(&[":", ".", ")", ""][..]),
                ),
                steps as usize,
            ),
            prop::collection::vec(prop::option::weighted(0.97, condition()), 4),
            any::<bool>(),
            prop::option::weighted(0.03, (0usize..15, 0u32..20)),
        )
            .prop_map(|(instructions, tests, named, shuffle)| {
                let mut text = String::new();
                if named {
                    text.push_str("name: generated\n# a comment\n");
                }
                for (n, (instr, sep)) in instructions.iter().enumerate() {
                    let mut number = n + 1;
                    if let Some((at, other)) = shuffle
                        && at == n
                    {
                        number = other as usize;
                    }
                    text.push_str(&format!("{number}{sep} {instr}\n"));
                }
                for (n, test) in tests.iter().enumerate() {
                    if let Some(c) = test {
                        text.push_str(&format!("test {}: {c}\n", n + 1));
                    }
                }
                text
            })
    })
}

// ------------------------------------------------------------------------- boards

const LEGEND: &str = "legend:\n  \"1\": {shape: square, colour: red}\n  \"2\": {shape: circle, colour: black}\n  C: {computer: green}\n  c: {computer: violet}\n";

/// A board file: `height` rows of `width` symbols, odd rows shifted one space; sometimes a
/// row is one hex short or long (a ragged map).
fn board() -> impl Strategy<Value = String> {
    let symbol = prop::sample::select(
        &[
            '.', '.', '.', '.', '.', '.', '~', '!', '+', 'g', 'G', 'v', 'V', '1', '2', 'C', 'c',
        ][..],
    );
    (2usize..12, 2usize..10).prop_flat_map(move |(width, height)| {
        (
            prop::collection::vec(prop::collection::vec(symbol.clone(), width), height),
            prop::option::weighted(0.15, (0..height, any::<bool>())),
            prop::option::weighted(0.05, 0..height),
        )
            .prop_map(|(mut rows, ragged, unshifted)| {
                if let Some((row, longer)) = ragged {
                    if longer {
                        rows[row].push('.');
                    } else {
                        rows[row].pop();
                    }
                }
                let mut text = String::from("name: generated\nmap: |\n");
                for (r, row) in rows.iter().enumerate() {
                    let shift = r % 2 == 1 && unshifted != Some(r);
                    let cells: Vec<String> = row.iter().map(char::to_string).collect();
                    text.push_str(&format!(
                        "  {}{}\n",
                        if shift { " " } else { "" },
                        cells.join(" ")
                    ));
                }
                text.push_str(LEGEND);
                text
            })
    })
}

/// A board the tests know loads (start points and camps for two teams), for matches that
/// should get past the board.
const KNOWN_BOARD: &str = "name: known\nmap: |\n  v V C V . .\n   . + . . ~ .\n  . . ! . 1 .\n   . + . . . .\n  . . . g G c\n   . . . G g g\nlegend:\n  \"1\": {shape: square, colour: red}\n  C: {computer: violet}\n  c: {computer: green}\n";

// ------------------------------------------------------------------------- matches

fn robot_entry() -> impl Strategy<Value = String> {
    (
        prop_oneof![
            3 => program().prop_map(|p| format!("code: {p:?}")),
            1 => prop::sample::select(&["hunter", "sentinel", "kamikaze", "wanderer", "hunter", "nowhere"][..])
                .prop_map(|p| format!("program: {p}")),
        ],
        prop::option::weighted(0.3, mostly(1..=6)),
        prop::option::weighted(0.1, (0i32..7, 0i32..7)),
    )
        .prop_map(|(program, facing, at)| {
            let mut entry = format!("{{{program}");
            if let Some(f) = facing {
                entry.push_str(&format!(", facing: {f}"));
            }
            if let Some((c, r)) = at {
                entry.push_str(&format!(", at: [{c}, {r}]"));
            }
            entry.push('}');
            entry
        })
}

fn signal() -> impl Strategy<Value = String> {
    let robot = prop::sample::select(&["green.1", "green.1", "green.2", "violet.1", "red.1"][..]);
    prop_oneof![
        (mostly(1..=5), robot.clone(), mostly(1..=15))
            .prop_map(|(round, r, s)| format!("{{round: {round}, robot: {r}, step: {s}}}")),
        (condition(), robot, mostly(1..=15))
            .prop_map(|(c, r, s)| format!("{{when: {c:?}, robot: {r}, step: {s}}}")),
    ]
}

/// A match file on the generated board (`gen.yaml`), the known one or a shipped one.
fn match_text() -> impl Strategy<Value = String> {
    (
        prop_oneof![
            20 => prop::sample::select(&["gen.yaml", "known.yaml", "known.yaml", "known.yaml", "duel"][..]),
            1 => Just("missing.yaml"),
        ],
        mostly(1..=3),
        mostly(1..=12),
        any::<bool>(),
        any::<u64>(),
        prop_oneof![8 => Just(2usize), 1 => 1usize..4]
            .prop_flat_map(|n| prop::collection::vec(prop::collection::vec(robot_entry(), 1..4), n)),
        prop::collection::vec(signal(), 0..3),
    )
        .prop_map(|(board, scenario, rounds, shapes, seed, teams, signals)| {
            let mut text = format!(
                "name: generated\nboard: {board}\nscenario: {scenario}\nrules: {{shapes_block: {shapes}, rounds: {rounds}}}\nseed: {seed}\nteams:\n"
            );
            for (colour, robots) in ["green", "violet", "red"].iter().zip(&teams) {
                text.push_str(&format!("  - colour: {colour}\n    robots:\n"));
                for r in robots {
                    text.push_str(&format!("      - {r}\n"));
                }
            }
            if !signals.is_empty() {
                text.push_str("signals:\n");
                for s in signals {
                    text.push_str(&format!("  - {s}\n"));
                }
            }
            text
        })
}

/// Loads `text` as a match whose reader serves `gen.yaml` (the generated board) and
/// `known.yaml`, then plays it to its end with at most `max_rounds` rounds.
fn play(text: &str, generated_board: &str, max_rounds: u32) {
    let read = |path: &std::path::Path| -> std::io::Result<Vec<u8>> {
        match path.file_name().and_then(|n| n.to_str()) {
            Some("gen.yaml") => Ok(generated_board.as_bytes().to_vec()),
            Some("known.yaml") => Ok(KNOWN_BOARD.as_bytes().to_vec()),
            _ => Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "no such file",
            )),
        }
    };
    let mut setup = match match_file::parse_match("matches/m.yaml", text, &read, Confine::Inside) {
        Ok(s) => s,
        Err(_) => return,
    };
    setup.rules.rounds = setup.rules.rounds.min(max_rounds);
    if let Ok(mut game) = Match::new(&setup) {
        let _ = game.run(|_| {});
        assert!(game.is_over(), "a match played to its end is over");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn generated_programs_never_panic(text in program()) {
        let _ = lang::parse_program("p.robot", &text, lang::DEFAULT_PROGRAM_STEPS);
        let _ = lang::parse_program("p.robot", &text, lang::MAX_PROGRAM_STEPS);
    }

    #[test]
    fn generated_conditions_never_panic(text in condition()) {
        let _ = lang::parse_condition("c", &text);
    }

    #[test]
    fn generated_boards_never_panic(text in board()) {
        let _ = board_file::parse_board("b.yaml", &text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn generated_matches_load_and_play_to_the_end(text in match_text(), board in board()) {
        play(&text, &board, 10);
    }
}

/// The known board loads, and a plain generated match on it plays: the generators reach the
/// engine rather than stopping at the file layer every time.
#[test]
fn the_generators_reach_the_engine() {
    board_file::parse_board("known.yaml", KNOWN_BOARD).unwrap();
    let text = "board: known.yaml\nrules: {rounds: 5}\nteams:\n  - colour: green\n    robots:\n      - {code: \"1: D+1\\n2: ?1\\n3: GO 1\\ntest 1: enemy within 2 and not (lake ahead or edge ahead 1)\"}\n  - colour: violet\n    robots:\n      - {program: hunter}\n";
    let read = |_: &std::path::Path| Ok(KNOWN_BOARD.as_bytes().to_vec());
    let setup = match_file::parse_match("matches/m.yaml", text, &read, Confine::Inside).unwrap();
    let mut game = Match::new(&setup).unwrap();
    game.run(|_| {});
    assert!(game.is_over());
}
