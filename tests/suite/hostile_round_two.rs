//! Files from strangers, round two (issue 30): tournament parts whose headers ask for
//! billions of shards or tens of thousands of programs, compressed bombs of blank lines,
//! pages of the largest legal matches, outputs that cannot be written, files linked from
//! outside a folder, line separators, saves through links and the round limit of the
//! command line. Each test is named after the problem it guards against and fails on the
//! code before the fix (by its message, its time bound, or what it finds written).

use crate::support::{robots_with_stdin, run_within};
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

fn folder(test: &str) -> crate::support::Scratch {
    crate::support::Scratch::new("robots-round-two", test)
}

fn write(dir: &Path, name: &str, text: impl AsRef<[u8]>) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// Refused (exit 2) within `seconds`: standard error.
fn refused_within(seconds: u64, args: &[&str]) -> String {
    let (o, took) = run_within(Duration::from_secs(seconds), args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{args:?} after {took:?}: {err}");
    eprintln!("{args:?}: refused in {took:?}");
    err
}

const PART_HEADER: &str = r#"{"tournament":{"format_version":1,"programs":["hunter","sentinel"],"board":"classic","scenario":1,"robots":3,"rounds":50,"seeds":[1,2]},"shard":[1,2]}"#;

#[test]
fn a_part_claiming_four_billion_shards_is_refused_at_its_header() {
    let dir = folder("shards");
    let forged = PART_HEADER.replace("[1,2]}", "[1,4000000000]}");
    let part = write(&dir, "part.jsonl", forged + "\n");
    for partial in [false, true] {
        let mut args = vec!["tournament", "merge", &part];
        if partial {
            args.push("--partial");
        }
        let err = refused_within(10, &args);
        assert!(
            err.contains("part.jsonl:1: error: shard 1/4000000000 is no shard"),
            "{err}"
        );
        assert!(err.contains("N <= 10000"), "{err}");
    }
    // The command line has the same bound.
    let err = refused_within(
        10,
        &["tournament", "hunter", "sentinel", "--shard", "1/10001"],
    );
    assert!(err.contains("N <= 10000"), "{err}");
}

#[test]
fn a_part_naming_sixty_thousand_programs_is_refused_at_its_header() {
    let dir = folder("programs");
    let names: Vec<String> = (0..60_000).map(|i| format!("\"p{i}\"")).collect();
    let forged = PART_HEADER.replace(
        r#"["hunter","sentinel"]"#,
        &format!("[{}]", names.join(",")),
    );
    let part = write(&dir, "part.jsonl", forged + "\n");
    let err = refused_within(10, &["tournament", "merge", "--partial", &part]);
    assert!(
        err.contains("60000 programs: a tournament has 2 to 1000"),
        "{err}"
    );
    // Other header fields are bounded too, before anything is built from them.
    for (from, to, said) in [
        (
            r#""robots":3"#,
            r#""robots":4000000000"#,
            "robots 4000000000: 1 to 9",
        ),
        (r#""rounds":50"#, r#""rounds":0"#, "rounds 0: 1 to 100000"),
        (
            r#""seeds":[1,2]"#,
            r#""seeds":[1,4000000000]"#,
            "at most 100000000",
        ),
        (
            r#""sentinel""#,
            r#""hunter""#,
            "two programs are named `hunter`",
        ),
    ] {
        let part = write(&dir, "part.jsonl", PART_HEADER.replace(from, to) + "\n");
        let err = refused_within(10, &["tournament", "merge", "--partial", &part]);
        assert!(err.contains(said), "{to}: {err}");
    }
}

/// `header` followed by `mib` MiB of line breaks, gzip-compressed.
fn blank_bomb(header: &str, mib: usize) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(header.as_bytes()).unwrap();
    gz.write_all(b"\n").unwrap();
    let chunk = vec![b'\n'; 1 << 20];
    for _ in 0..mib {
        gz.write_all(&chunk).unwrap();
    }
    gz.finish().unwrap()
}

#[test]
fn a_gzip_bomb_of_blank_lines_is_refused_at_the_blank_line_budget() {
    let dir = folder("bomb");
    let replay = dir.join("duel.jsonl");
    let (o, _) = run_within(
        Duration::from_secs(20),
        &[
            "run",
            "matches/duel.yaml",
            "--replay",
            replay.to_str().unwrap(),
        ],
    );
    assert!(o.status.success());
    let header = std::fs::read_to_string(&replay).unwrap();
    let header = header.lines().next().unwrap();
    // 256 MiB of line breaks: the code before the budget inflated all of it.
    let bomb = blank_bomb(header, 256);
    assert!(bomb.len() < 1 << 20, "{} bytes", bomb.len());
    let file = write(&dir, "bomb.jsonl.gz", &bomb);
    for args in [
        vec!["replay", &file],
        vec!["debug", "--replay", &file, "--script", "/dev/null"],
    ] {
        let err = refused_within(2, &args);
        assert!(
            err.contains("bomb.jsonl.gz:65538: error: the file holds more than 64 KiB of blank lines, the most a replay may"),
            "{err}"
        );
    }
    let started = Instant::now();
    let o = robots_with_stdin(&["replay", "-"], &bomb);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("-:65538: error: the file holds more than 64 KiB of blank lines"),
        "{err}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    let part = write(&dir, "part.jsonl.gz", blank_bomb(PART_HEADER, 256));
    let err = refused_within(2, &["tournament", "merge", "--partial", &part]);
    assert!(
        err.contains("more than 64 KiB of blank lines, the most a tournament part may"),
        "{err}"
    );
}

#[test]
fn a_too_long_part_line_is_called_a_part_line() {
    let dir = folder("long-line");
    let part = write(
        &dir,
        "part.jsonl",
        format!("{PART_HEADER}\n{}\n", "x".repeat(5000)),
    );
    let err = refused_within(10, &["tournament", "merge", "--partial", &part]);
    assert!(
        err.contains(
            "part.jsonl:2: error: the line is longer than 4 KiB, the most a tournament part may be"
        ),
        "{err}"
    );
}

/// A match as large as a file may ask: 6 teams of 9 robots whose turns read 61 TI-57
/// keywords each, for `rounds` rounds, on a board of 100 outer start points.
fn largest_match(dir: &Path, rounds: u32) -> String {
    let mut spin = String::from("name: spin\n");
    for step in 1..=61 {
        spin += &format!("{step}: SUM 1\n");
    }
    spin += "62: R+1\n63: RST\n";
    write(dir, "spin.robot", spin);
    let mut map = String::from("name: wide\nmap: |\n");
    for row in 0..20 {
        let cells: Vec<&str> = (0..20)
            .map(|col| {
                if row % 2 == 0 && col % 2 == 0 {
                    "+"
                } else {
                    "."
                }
            })
            .collect();
        map += &format!(
            "  {}{}\n",
            if row % 2 == 1 { " " } else { "" },
            cells.join(" ")
        );
    }
    write(dir, "wide.yaml", map);
    let mut game = format!(
        "name: largest\nboard: wide.yaml\nscenario: 1\nrules: {{rounds: {rounds}, keywords: ti57, program_steps: 63}}\nteams:\n"
    );
    for colour in ["green", "violet", "red", "blue", "yellow", "orange"] {
        let robots = ["{program: spin.robot}"; 9].join(", ");
        game += &format!("  - colour: {colour}\n    robots: [{robots}]\n");
    }
    write(dir, &format!("largest-{rounds}.yaml"), game)
}

#[test]
fn the_page_of_the_largest_legal_match_is_refused_at_its_byte_budget() {
    let dir = folder("page");
    let game = largest_match(&dir, 1000);
    let page = dir.join("page.html");
    // Before the budget: 14 s, 1.8 GiB and a 275 MB page.
    let err = refused_within(10, &["run", &game, "--html", page.to_str().unwrap()]);
    assert!(
        err.contains("the match's page would hold more than 48 MiB of data, the most a page holds"),
        "{err}"
    );
    assert!(!page.exists());
    // A shorter match of the same kind fits, under the bound.
    let game = largest_match(&dir, 100);
    let (o, _) = run_within(
        Duration::from_secs(20),
        &["run", &game, "--html", page.to_str().unwrap()],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let bytes = std::fs::metadata(&page).unwrap().len();
    assert!(bytes > 10 << 20 && bytes < 50 << 20, "{bytes} bytes");
}

#[test]
fn outputs_that_cannot_be_written_are_refused_before_the_work() {
    let dir = folder("outputs");
    let file = write(&dir, "taken", "not a folder");
    // The evolver bred every generation, then failed to create its folder.
    for out in [file.clone(), format!("{file}/sub")] {
        let err = refused_within(10, &["evolve", "--out", &out]);
        assert!(err.contains("error: cannot create the folder"), "{err}");
    }
    let missing = dir.join("no-such-folder/page.html");
    let err = refused_within(10, &["run", "--html", missing.to_str().unwrap()]);
    assert!(err.contains("cannot write the page: the folder"), "{err}");
    let d = dir.to_str().unwrap();
    let err = refused_within(10, &["run", "--replay", d]);
    assert!(
        err.contains("cannot write the replay: a folder is there"),
        "{err}"
    );
    let err = refused_within(10, &["run", "--gif", d]);
    assert!(
        err.contains("cannot write the GIF: a folder is there"),
        "{err}"
    );
}

#[test]
fn a_board_linked_from_outside_the_folder_shows_nothing_of_its_content() {
    let dir = folder("link");
    write(
        &dir,
        "secret.txt",
        "SECRET-LINE-1\nSECRET-LINE-2 hunter2 password\n",
    );
    let inner = dir.join("inner");
    std::fs::create_dir_all(&inner).unwrap();
    std::os::unix::fs::symlink("../secret.txt", inner.join("b.yaml")).unwrap();
    std::os::unix::fs::symlink("../secret.txt", inner.join("p.robot")).unwrap();
    let game = |key: &str| {
        format!(
            "board: {}\nteams:\n  - colour: green\n    robots: [{{program: {}}}]\n  - colour: violet\n    robots: [{{program: hunter}}]\n",
            if key == "board" { "b.yaml" } else { "duel" },
            if key == "board" { "hunter" } else { "p.robot" },
        )
    };
    for key in ["board", "program"] {
        let file = write(&inner, &format!("{key}.yaml"), game(key));
        for command in ["check", "run"] {
            let err = refused_within(10, &[command, &file]);
            assert!(!err.contains("SECRET") && !err.contains("hunter2"), "{err}");
        }
    }
    // A path outside with --allow-outside: the same.
    let absolute = dir.join("secret.txt");
    let file = write(
        &inner,
        "abs.yaml",
        game("board").replace("b.yaml", absolute.to_str().unwrap()),
    );
    let err = refused_within(10, &["check", "--allow-outside", &file]);
    assert!(!err.contains("SECRET") && !err.contains("hunter2"), "{err}");
    // Inside the folder, a plain text of several lines is quoted up to its first line's end.
    write(&inner, "own.yaml", "first line\nsecond line\n");
    let file = write(
        &inner,
        "own-match.yaml",
        game("board").replace("b.yaml", "own.yaml"),
    );
    let err = refused_within(10, &["check", &file]);
    assert!(
        err.contains("\"first line…\"") && !err.contains("second"),
        "{err}"
    );
}

#[test]
fn line_and_paragraph_separators_from_files_are_escaped() {
    let dir = folder("separators");
    let game = "name: \"a\\u2028b\\u2029c\"\nboard: duel\nteams:\n  - colour: green\n    robots: [{program: hunter}]\n  - colour: violet\n    robots: [{program: hunter}]\n";
    let file = write(&dir, "m.yaml", game);
    let replay = dir.join("m.jsonl");
    let page = dir.join("m.html");
    for args in [
        vec!["run", &file, "--log"],
        vec!["run", &file, "--replay", replay.to_str().unwrap()],
        vec!["run", &file, "--html", page.to_str().unwrap()],
    ] {
        let (o, _) = run_within(Duration::from_secs(20), &args);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "{args:?}");
        assert!(
            !out.contains('\u{2028}') && !out.contains('\u{2029}'),
            "{args:?}: {out}"
        );
    }
    let (o, _) = run_within(
        Duration::from_secs(20),
        &["replay", replay.to_str().unwrap()],
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("a\\u{2028}b\\u{2029}c"), "{out}");
    // Program names from file names, in duels and tournament tables.
    let hunter = std::fs::read_to_string("programs/hunter.robot").unwrap();
    let odd = write(&dir, "x\u{2028}y.robot", &hunter);
    for args in [
        vec!["duel", &odd, "sentinel", "--seeds", "1"],
        vec![
            "tournament",
            &odd,
            "sentinel",
            "--seeds",
            "1",
            "--format",
            "csv",
        ],
        vec!["tournament", &odd, "sentinel", "--seeds", "1"],
    ] {
        let (o, _) = run_within(Duration::from_secs(20), &args);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(
            !out.contains('\u{2028}') && out.contains("x\\u{2028}y"),
            "{args:?}: {out}"
        );
    }
}

#[test]
fn a_save_at_the_table_never_writes_through_a_dangling_link() {
    let dir = folder("save");
    let target = dir.join("elsewhere.yaml");
    let link = dir.join("game.yaml");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let script = format!("start\nmatch {}\ndone\n", link.display());
    let o = robots_with_stdin(&["play", "matches/duel.yaml"], script.as_bytes());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("exists: choose another name"), "{out}");
    assert!(!target.exists(), "written through the link");
}

#[test]
fn rounds_on_the_command_line_replace_a_files_round_limit() {
    let dir = folder("rounds");
    let game = "board: duel\nrules: {rounds: 4294967295}\nteams:\n  - colour: green\n    robots: [{program: sentinel}]\n  - colour: violet\n    robots: [{program: sentinel}]\n";
    let file = write(&dir, "m.yaml", game);
    let err = refused_within(10, &["run", &file]);
    assert!(
        err.contains("a longer match is asked on the command line"),
        "{err}"
    );
    let (o, _) = run_within(
        Duration::from_secs(20),
        &["run", &file, "--rounds", "7", "--json"],
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(doc["rounds"].as_u64().unwrap() <= 7, "{out}");
}
