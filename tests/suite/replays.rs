//! Replays (docs/FORMATS.md, "Replays"): written by `robots run --replay`, read back by
//! `robots replay` and `robots debug --replay`, every turn played again and compared. The
//! files of `tests/replays/` are snapshot-tested: `duel.jsonl` reads back as `run --log`
//! prints the match, and each `err_*` file is refused with what is wrong and where.

use crate::support::{robots, robots_with_stdin, root, stderr, stdout};
use std::path::{Path, PathBuf};

/// A fresh folder for one test's files.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("robots-replays-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(path: &Path) -> String {
    path.display().to_string()
}

/// The match files of `matches/` (not `matches/ti57/`, the link to the TI-57 programs).
fn shipped_matches() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("matches"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_shipped_match_replays_as_run_log_prints_it_plain_or_compressed() {
    let dir = scratch("shipped");
    for path in shipped_matches() {
        let name = text(&path);
        let log = robots(&["run", &name, "--log"]);
        assert!(log.status.success(), "{name}: {}", stderr(&log));
        for file in ["m.jsonl", "m.jsonl.gz"] {
            let file = text(&dir.join(file));
            let o = robots(&["run", &name, "--replay", &file]);
            assert!(o.status.success(), "{name}: {}", stderr(&o));
            let again = robots(&["replay", &file]);
            assert!(again.status.success(), "{name}: {}", stderr(&again));
            assert_eq!(stdout(&again), stdout(&log), "{name} from {file}");
        }
        let compressed = std::fs::read(dir.join("m.jsonl.gz")).unwrap();
        assert_eq!(compressed[..2], [0x1f, 0x8b], "a .gz replay is gzip");
        // The whole match as a GIF, from the match file and from its replay: the same bytes.
        let gz = text(&dir.join("m.jsonl.gz"));
        let gif = robots(&["run", &name, "--gif", "-"]);
        let again = robots(&["replay", &gz, "--gif", "-"]);
        assert!(again.status.success(), "{name}: {}", stderr(&again));
        assert!(gif.stdout.starts_with(b"GIF89a"), "{name}");
        assert_eq!(gif.stdout, again.stdout, "{name}: the GIF");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_replay_makes_the_same_page_as_its_match() {
    let page = robots(&["run", "matches/duel.yaml", "--html", "-"]);
    assert!(page.status.success(), "{}", stderr(&page));
    let again = robots(&["replay", "tests/replays/duel.jsonl", "--html", "-"]);
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(
        stdout(&page).starts_with("<!doctype html>"),
        "{}",
        &stdout(&page)[..40]
    );
    assert_eq!(page.stdout, again.stdout);
    // The pictures too: the state after a round, and the whole match as a GIF.
    for flags in [
        ["--svg", "-", "--round", "2"],
        ["--gif", "-", "--round", "2"],
    ] {
        let flags = if flags[0] == "--gif" {
            &flags[..2]
        } else {
            &flags[..]
        };
        let run = robots(&[&["run", "matches/duel.yaml"][..], flags].concat());
        let replay = robots(&[&["replay", "tests/replays/duel.jsonl"][..], flags].concat());
        assert!(replay.status.success(), "{flags:?}: {}", stderr(&replay));
        assert!(!replay.stdout.is_empty());
        assert_eq!(run.stdout, replay.stdout, "{flags:?}");
    }
}

#[test]
fn a_replay_goes_through_a_pipe_both_ways() {
    let written = robots(&["run", "matches/duel.yaml", "--replay", "-"]);
    assert!(written.status.success(), "{}", stderr(&written));
    let read = robots_with_stdin(&["replay", "-"], &written.stdout);
    assert!(read.status.success(), "{}", stderr(&read));
    let log = robots(&["run", "matches/duel.yaml", "--log"]);
    assert_eq!(stdout(&read), stdout(&log));
    // Compressed on standard input too: recognised by its first bytes, not its name.
    let gz = std::fs::read(root().join("tests/replays/duel.jsonl")).unwrap();
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut encoder, &gz).unwrap();
    let read = robots_with_stdin(&["replay", "-"], &encoder.finish().unwrap());
    assert!(read.status.success(), "{}", stderr(&read));
}

#[test]
fn the_debugger_opens_a_replay_on_the_match_it_records() {
    let dir = scratch("debug");
    let script = dir.join("s.script");
    std::fs::write(&script, "step 7\nshow board\nback 3\nshow robot green.1\n").unwrap();
    let replay = text(&dir.join("m.jsonl"));
    for path in shipped_matches() {
        let name = text(&path);
        let o = robots(&["run", &name, "--replay", &replay]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        let from_match = robots(&["debug", &name, "--script", &text(&script)]);
        let from_replay = robots(&["debug", "--replay", &replay, "--script", &text(&script)]);
        assert!(
            from_replay.status.success(),
            "{name}: {}",
            stderr(&from_replay)
        );
        // The same transcript, but for the first line, which names the match file.
        let body =
            |o: &std::process::Output| stdout(o).lines().skip(1).collect::<Vec<_>>().join("\n");
        assert_eq!(body(&from_replay), body(&from_match), "{name}");
    }
    let o = robots(&["debug", "--replay", "tests/replays/err_changed_event.jsonl"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("disagrees with this engine at robot turn 3"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Each file of `tests/replays/`: what `robots replay` prints and its exit code.
#[test]
fn replay_files() {
    insta::glob!("../replays", "*.json*", |path| {
        let o = robots(&["replay", &text(path)]);
        let shown = text(path.strip_prefix(root()).unwrap());
        let out = stdout(&o);
        let tail: Vec<&str> = out.lines().rev().take(4).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        snapshot!(
            "replay_files",
            format!(
                "robots replay {shown}\nexit {:?}\n---- stdout (last lines) ----\n{}\n---- stderr ----\n{}",
                o.status.code(),
                tail.join("\n"),
                stderr(&o).replace(&text(root()), ".")
            )
        );
        let name = path.file_name().unwrap().to_string_lossy();
        assert_eq!(o.status.success(), !name.starts_with("err_"), "{name}");
        assert!(
            !stderr(&o).contains('\u{1b}'),
            "{name}: escape characters shown"
        );
    });
}

#[test]
fn hostile_replays_are_refused_at_the_bound() {
    let dir = scratch("hostile");
    // One endless line: refused once the header's bound is passed, not read to the end.
    let o = robots(&["replay", "/dev/zero"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("longer than"), "{}", stderr(&o));
    // A turn line of 2 MiB.
    let mut long = std::fs::read_to_string(root().join("tests/replays/duel.jsonl")).unwrap();
    let header_end = long.find('\n').unwrap() + 1;
    long.insert_str(header_end, &format!("[{}]\n", " ".repeat(2 << 20)));
    std::fs::write(dir.join("long.jsonl"), &long).unwrap();
    let o = robots(&["replay", &text(&dir.join("long.jsonl"))]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(":2: error: the line is longer than 1 MiB, the most a replay may be"),
        "{}",
        stderr(&o)
    );
    // A compressed bomb: 64 MiB of zeros in a few kilobytes; refused at the header's bound.
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    for _ in 0..64 {
        std::io::Write::write_all(&mut encoder, &vec![0u8; 1 << 20]).unwrap();
    }
    std::fs::write(dir.join("bomb.jsonl.gz"), encoder.finish().unwrap()).unwrap();
    let o = robots(&["replay", &text(&dir.join("bomb.jsonl.gz"))]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("longer than"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_long_match_is_written_as_it_is_played() {
    // 20,000 rounds of robots that only turn: 40,000 robot turns, a line each.
    let dir = scratch("long");
    let matched = dir.join("idle.yaml");
    std::fs::write(
        &matched,
        "name: idle\nboard: duel\nteams:\n  - colour: green\n    robots: [{code: \"1: R+1\"}]\n  - colour: violet\n    robots: [{code: \"1: R+1\"}]\n",
    )
    .unwrap();
    let file = dir.join("idle.jsonl.gz");
    let o = robots(&[
        "run",
        &text(&matched),
        "--rounds",
        "20000",
        "--replay",
        &text(&file),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = robots(&["replay", &text(&file)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("draw (round limit) after 20000 rounds"),
        "{}",
        stdout(&o)
    );
    std::fs::remove_dir_all(&dir).ok();
}
