//! Files from strangers (docs/FORMATS.md, "Limits and untrusted files"): sizes, nesting,
//! map sizes, quoted excerpts, paths, terminal escapes and byte order marks. Each test is
//! named after the problem it guards against; inputs sit just past the limits, so each runs
//! in well under a second.

use robots_games::battle::{files::board_file, files::match_file};
use robots_games::text::MAX_INPUT_BYTES;
use robots_games::text::confine::Confine;
use robots_games::text::diagnostic::text_from_bytes;
use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

/// A fresh folder for one test's files.
fn folder(test: &str) -> crate::support::Scratch {
    crate::support::Scratch::new("robots-hostile", test)
}

fn run_within(limit: Duration, args: &[&str]) -> Output {
    crate::support::run_within(limit, args).0
}

fn robots(args: &[&str]) -> Output {
    run_within(Duration::from_secs(20), args)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn write(dir: &Path, name: &str, text: impl AsRef<[u8]>) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// Reads files for the library as the tests' callback: relative to the working directory.
fn read_plain(path: &Path) -> std::io::Result<Vec<u8>> {
    std::fs::read(path)
}

const TINY_BOARD: &str = "map: |\n  G . .\n   . . V\n";

#[test]
fn an_endless_or_huge_input_file_is_refused_without_reading_it_all() {
    // /dev/zero never ends: the reader stops one byte past the limit.
    let o = run_within(Duration::from_secs(10), &["board", "/dev/zero"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("larger than 4 MiB"), "{}", stderr(&o));
    // A program a match names goes through the same bounded reader.
    let dir = folder("endless");
    let game = "board: duel\nteams:\n  - colour: green\n    robots: [{program: /dev/zero}]\n  - colour: violet\n    robots: [{program: hunter}]\n";
    let file = write(&dir, "m.yaml", game);
    let o = run_within(Duration::from_secs(10), &["run", &file, "--allow-outside"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("larger than 4 MiB"), "{}", stderr(&o));
    // One byte past the limit is refused; the limit itself is not.
    let big = write(&dir, "big.robot", vec![b' '; MAX_INPUT_BYTES + 1]);
    let o = robots(&["check", &big]);
    assert!(stderr(&o).contains("larger than 4 MiB"), "{}", stderr(&o));
    assert!(text_from_bytes("f", vec![b'a'; MAX_INPUT_BYTES + 1]).is_err());
    assert!(text_from_bytes("f", vec![b'a'; MAX_INPUT_BYTES]).is_ok());
}

#[test]
fn deep_yaml_nesting_is_refused_before_the_yaml_reader_sees_it() {
    let started = Instant::now();
    let deep = format!("map: {}", "[".repeat(64_000));
    let e = board_file::parse_board("deep.yaml", &deep).unwrap_err();
    assert!(e.message.contains("deeper than 64"), "{e}");
    // `map: ` is 5 characters and the document one block level: the 64th `[` is too deep.
    assert_eq!((e.line, e.col), (1, 5 + 64));
    // Block nesting counts too: one more `- ` entry than allowed, on one line or many.
    let dashes = format!("map: x\nlegend:\n  {}x\n", "- ".repeat(64));
    let e = board_file::parse_board("dashes.yaml", &dashes).unwrap_err();
    assert!(e.message.contains("deeper than 64"), "{e}");
    let mut indented = String::from("map: x\nlegend:\n");
    for depth in 1..=70 {
        indented.push_str(&format!("{}k{depth}:\n", " ".repeat(depth)));
    }
    let e = board_file::parse_board("indented.yaml", &indented).unwrap_err();
    assert!(e.message.contains("deeper than 64"), "{e}");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    // Brackets inside a block scalar, quotes or comments are text, not nesting.
    let map_of_brackets = format!(
        "legend:\n  \"[\": {{}}\nname: \"{}\" # {}\nmap: |\n  {}\n",
        "[".repeat(100),
        "[".repeat(100),
        vec!["["; 100].join(" ")
    );
    let b = board_file::parse_board("b.yaml", &map_of_brackets).unwrap();
    assert_eq!(b.width, 100);
}

#[test]
fn an_overlong_map_row_is_refused_before_its_hexes_are_read() {
    let started = Instant::now();
    let wide = format!("map: |\n  {}\n", vec!["."; 320_000].join(" "));
    let e = board_file::parse_board("wide.yaml", &wide).unwrap_err();
    assert!(e.message.contains("longer than 200 hexes"), "{e}");
    assert_eq!(e.line, 2);
    // Too many rows, and too many hexes in all (81 rows of 200), each before the work.
    let tall: String = (0..202)
        .map(|r| if r % 2 == 0 { "  . .\n" } else { "   . .\n" })
        .collect();
    let e = board_file::parse_board("tall.yaml", &format!("map: |\n{tall}")).unwrap_err();
    assert!(e.message.contains("202 rows"), "{e}");
    let row = vec!["."; 200].join(" ");
    let mut many = String::from("map: |\n");
    for r in 0..81 {
        many.push_str(if r % 2 == 0 { "  " } else { "   " });
        many.push_str(&row);
        many.push('\n');
    }
    let e = board_file::parse_board("many.yaml", &many).unwrap_err();
    assert!(e.message.contains("200×81"), "{e}");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn errors_quote_only_a_short_excerpt_of_a_file() {
    let dir = folder("excerpt");
    // A secret of many lines, named as a board: the error shows none of its later lines.
    let secret: String = (0..50)
        .map(|i| format!("user{i}:x:{i}:{i}:secret line {i} of the password file\n"))
        .collect();
    write(&dir, "passwd", &secret);
    let game = "board: passwd\nteams:\n  - colour: green\n    robots: [{program: hunter}]\n";
    let file = write(&dir, "m.yaml", game);
    let o = robots(&["check", &file]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(!err.contains("secret line 2 "), "{err}");
    assert!(err.len() < 1000, "{} bytes: {err}", err.len());
    // A long source line is cut around the caret.
    let long = format!("map: |\n  {}Q\n", ". ".repeat(190));
    let e = board_file::parse_board("long.yaml", &long).unwrap_err();
    let shown = e.to_string();
    assert!(shown.lines().all(|l| l.chars().count() < 200), "{shown}");
    assert!(shown.contains("… . .") && shown.contains(". Q"), "{shown}");
    // The YAML reader's messages quote the input: cut too.
    let quoted = format!("map: |\n  .\nlegend: \"{}\"\n", "x".repeat(5000));
    let shown = board_file::parse_board("q.yaml", &quoted)
        .unwrap_err()
        .to_string();
    assert!(shown.len() < 500 && shown.contains("x…"), "{shown}");
}

#[test]
fn paths_outside_the_files_folder_are_refused_unless_allowed() {
    let dir = folder("confine");
    let inner = dir.join("inner");
    std::fs::create_dir_all(&inner).unwrap();
    write(&dir, "outside.yaml", TINY_BOARD);
    let game = |board: &str| {
        format!(
            "board: {board}\nteams:\n  - colour: green\n    robots: [{{program: hunter}}]\n  - colour: violet\n    robots: [{{program: hunter}}]\n"
        )
    };
    let file = write(&inner, "m.yaml", game("../outside.yaml"));
    let o = robots(&["check", &file]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains(":1:1: error: ") && err.contains("climbs out"),
        "{err}"
    );
    let o = robots(&["check", "--allow-outside", &file]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Absolute paths, in the library too, with the place of the key.
    let text = game("/etc/passwd");
    let e = match_file::parse_match("m.yaml", &text, &read_plain, Confine::Inside).unwrap_err();
    assert!(e.message.contains("absolute path"), "{e}");
    assert_eq!((e.line, e.col), (1, 1));
    let program =
        "board: duel\nteams:\n  - colour: green\n    robots:\n      - program: ../../x.robot\n";
    let e = match_file::parse_match("m.yaml", program, &read_plain, Confine::Inside).unwrap_err();
    assert!(e.message.contains("climbs out"), "{e}");
    assert_eq!(e.line, 5);
}

#[test]
fn control_characters_from_files_reach_the_terminal_escaped() {
    let dir = folder("escape");
    let board = write(&dir, "b.yaml", format!("name: \"\\e[2J\"\n{TINY_BOARD}"));
    for args in [vec!["board", &board], vec!["check", &board]] {
        let o = robots(&args);
        let out = stdout(&o);
        assert!(!out.contains('\u{1b}'), "{out:?}");
        assert!(out.contains("\\u{1b}[2J"), "{out:?}");
    }
    let game = "name: \"\\e]0;owned\\a\"\nboard: b.yaml\nteams:\n  - colour: green\n    robots: [{program: hunter}]\n  - colour: violet\n    robots: [{program: hunter}]\n";
    let file = write(&dir, "m.yaml", game);
    let o = robots(&["run", "--log", &file]);
    let out = stdout(&o);
    assert!(
        !out.contains('\u{1b}') && !out.contains('\u{7}'),
        "{}",
        stderr(&o)
    );
    assert!(out.contains("\\u{1b}]0;owned\\u{7}"), "{}", stderr(&o));
    // Diagnostics too: a colour written with escapes is quoted escaped.
    let bad = write(
        &dir,
        "bad.yaml",
        "board: duel\nteams:\n  - colour: \"\\e[31mred\"\n    robots: [{program: hunter}]\n",
    );
    let o = robots(&["check", &bad]);
    let err = stderr(&o);
    assert!(
        !err.contains('\u{1b}') && err.contains("\\u{1b}[31mred"),
        "{err:?}"
    );
}

#[test]
fn a_byte_order_mark_is_not_a_second_document() {
    let dir = folder("bom");
    // `name:` first: the reader took the mark for the start of a second document.
    let text = format!("\u{feff}name: b\n{TINY_BOARD}");
    let board = write(&dir, "b.yaml", &text);
    let program = write(&dir, "p.robot", "\u{feff}1: T\n");
    let o = robots(&["check", &board, &program]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(board_file::parse_board("b.yaml", &text).is_ok());
    assert!(match_file::parse_program_file("p.robot", "\u{feff}1: T\n").is_ok());
}
