//! The README and the tutorial tell the truth: every command of their ```console blocks (a
//! line `$ …`, a trailing `\` joining the next, a here-document `<<'EOF'` its lines up to
//! `EOF`) is run with the built binary as `robots`, with `NO_COLOR` set — the README's from
//! the crate's root, the tutorial's (docs/TUTORIAL.md) one after the other in a fresh
//! folder — and what it prints (standard output and error together) is compared with the
//! lines shown under it. A line `…` stands for any lines (none included); a `…` inside a
//! line for any characters.

use crate::support::{Scratch, read, root};
use std::path::Path;

/// A command of the tour and the lines the README shows it printing.
struct Example {
    command: String,
    shown: Vec<String>,
}

/// The examples of every ```console block of `text`.
fn examples(text: &str) -> Vec<Example> {
    let mut found: Vec<Example> = Vec::new();
    let mut inside = false;
    let mut continued = false;
    for line in text.lines() {
        if !inside {
            inside = line.trim_end() == "```console";
            continue;
        }
        if line.trim_end() == "```" {
            inside = false;
            continue;
        }
        if continued && let Some(last) = found.last_mut() {
            last.command.push('\n');
            last.command.push_str(line);
            continued = if last.command.contains("<<'EOF'") {
                line != "EOF"
            } else {
                line.ends_with('\\')
            };
        } else if let Some(command) = line.strip_prefix("$ ") {
            continued = command.ends_with('\\') || command.contains("<<'EOF'");
            found.push(Example {
                command: command.to_string(),
                shown: Vec::new(),
            });
        } else if let Some(last) = found.last_mut() {
            last.shown.push(line.trim_end().to_string());
        } else {
            panic!("README.md: output before any `$ ` command in a console block: {line}");
        }
    }
    found
}

/// Whether `line` matches `pattern`, where `…` inside the pattern is any characters.
fn line_matches(pattern: &str, line: &str) -> bool {
    let mut parts = pattern.split('…');
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = line.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// Whether the printed `lines` match the `shown` ones, a line `…` matching any lines.
fn matches(shown: &[String], lines: &[&str]) -> bool {
    match shown.split_first() {
        None => lines.is_empty(),
        Some((first, rest)) if first == "…" => {
            (0..=lines.len()).any(|skip| matches(rest, &lines[skip..]))
        }
        Some((first, rest)) => {
            lines.first().is_some_and(|line| line_matches(first, line))
                && matches(rest, &lines[1..])
        }
    }
}

/// Runs a command of the tour in `folder` with `robots` meaning the binary under test.
fn run(command: &str, folder: &Path) -> String {
    // Standard error joins standard output, in the order written.
    let script = format!("exec 2>&1\nrobots() {{ \"$ROBOTS_BINARY\" \"$@\"; }}\n{command}");
    let output = std::process::Command::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(folder)
        .env("ROBOTS_BINARY", env!("CARGO_BIN_EXE_robots"))
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("sh runs");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Runs every example of `file` in `folder`, in order: what differs from what it shows.
fn differences(file: &str, folder: &Path) -> Vec<String> {
    let tour = examples(&read(file));
    assert!(
        tour.len() >= 10,
        "only {} console examples found in {file}",
        tour.len()
    );
    let mut wrong = Vec::new();
    for example in &tour {
        let printed = run(&example.command, folder);
        let lines: Vec<&str> = printed.lines().map(str::trim_end).collect();
        if !matches(&example.shown, &lines) {
            wrong.push(format!(
                "$ {}\n--- {file} shows:\n{}\n--- it prints:\n{printed}",
                example.command,
                example.shown.join("\n")
            ));
        }
    }
    wrong
}

#[test]
fn the_readme_tour_prints_what_the_readme_shows() {
    let wrong = differences("README.md", root());
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

/// docs/TUTORIAL.md, "Your first program": a program written, checked, fixed, duelled,
/// watched, improved and put on a hill, in an empty folder.
#[test]
fn the_tutorial_prints_what_it_shows() {
    let folder = Scratch::new("robots-tutorial", "tour");
    let wrong = differences("docs/TUTORIAL.md", &folder);
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
    assert!(
        folder.join("worst.html").is_file(),
        "the page of the worst loss"
    );
    assert!(folder.join("myhill/hill.yaml").is_file(), "the hill");
}

#[test]
fn the_comparison_accepts_elisions_and_refuses_differences() {
    let shown = |lines: &[&str]| lines.iter().map(ToString::to_string).collect::<Vec<_>>();
    assert!(matches(&shown(&["a", "…", "d"]), &["a", "b", "c", "d"]));
    assert!(matches(&shown(&["a", "…"]), &["a"]));
    assert!(matches(
        &shown(&["{\"x\":…,\"y\":2}"]),
        &["{\"x\":1,\"y\":2}"]
    ));
    assert!(!matches(&shown(&["a", "b"]), &["a", "c"]));
    assert!(!matches(&shown(&["a"]), &["a", "b"]), "no output unshown");
    assert!(!matches(&shown(&["a", "…", "d"]), &["a", "b"]));
    assert!(!matches(&shown(&["x…y"]), &["xy-z"]));
    let parsed =
        examples("```console\n$ robots a \\\n    b\nout\n…\n```\n```sh\n$ not this\n```\n");
    assert_eq!(parsed.len(), 1);
    assert_eq!(parsed[0].command, "robots a \\\n    b");
    assert_eq!(parsed[0].shown, ["out", "…"]);
}
