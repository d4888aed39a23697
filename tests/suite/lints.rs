//! Warnings (docs/LANGUAGE.md, "Warnings"): each `tests/lints/W-*` file shows one warning,
//! named by its file; `clean.robot` none. The snapshot shows the input beside what
//! `robots check` prints, in words and as JSON lines.

use crate::support::{file_name, read_under_root, root, shown};
use robots_games::battle::files::match_file;
use robots_games::battle::lang::Keywords;
use robots_games::battle::lang::lint::WarningId;
use robots_games::text::confine::Confine;
use robots_games::text::diagnostic::Diagnostic;
use std::path::Path;

fn warnings(path: &Path) -> (String, Vec<Diagnostic>) {
    let text = std::fs::read_to_string(path).unwrap();
    let shown = shown("lints", path);
    let found = if file_name(path).ends_with(".robot") {
        let program = match_file::parse_program_file(&shown, &text).unwrap();
        match_file::program_warnings(&shown, &text, &program)
    } else {
        match_file::check_match(&shown, &text, &read_under_root, Confine::Anywhere)
            .unwrap()
            .1
    };
    (text, found)
}

#[test]
fn each_warning_file_shows_its_warning() {
    insta::glob!("../lints", "*.robot", check_one);
    insta::glob!("../lints", "*.yaml", check_one);
}

fn check_one(path: &Path) {
    {
        let (text, found) = warnings(path);
        let name = file_name(path);
        let ids: Vec<&str> = found.iter().filter_map(|d| d.id).collect();
        if name.starts_with("clean") {
            assert!(ids.is_empty(), "{name}: {ids:?}");
        } else {
            assert!(
                ids.iter()
                    .any(|id| name.starts_with(&format!("{id}."))
                        || name.starts_with(&format!("{id}-"))),
                "{name} shows none of its warning: {ids:?}"
            );
        }
        let mut out = format!("{text}\n---- warnings ----\n");
        for d in &found {
            out.push_str(&format!("{d}\n"));
        }
        out.push_str("---- as JSON lines (robots check --format json) ----\n");
        for d in &found {
            out.push_str(&format!("{}\n", d.json()));
        }
        snapshot!("lints", out);
    }
}

#[test]
fn every_warning_has_a_test_file() {
    let names: Vec<String> = std::fs::read_dir(root().join("tests/lints"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    for id in WarningId::ALL {
        assert!(
            names.iter().any(|n| n.starts_with(id.code())),
            "no tests/lints file for {}",
            id.code()
        );
    }
}

/// The shipped programs and matches, the benchmark's frozen programs and the sample
/// programs of the TI-57 rule (RULES A.12), check with no warning.
#[test]
fn shipped_files_have_no_warning() {
    for dir in ["programs", "programs/bench", "programs/ti57", "matches"] {
        for entry in std::fs::read_dir(root().join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if !path
                .extension()
                .is_some_and(|e| e == "robot" || e == "yaml")
            {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let shown = format!("{dir}/{}", file_name(&path));
            let found = if dir.starts_with("programs") {
                let keywords = if dir == "programs/ti57" {
                    Keywords::Ti57
                } else {
                    Keywords::Plain
                };
                let program = match_file::parse_program_file_in(&shown, &text, keywords)
                    .unwrap_or_else(|d| panic!("{d}"));
                match_file::program_warnings(&shown, &text, &program)
            } else {
                match_file::check_match(&shown, &text, &read_under_root, Confine::Inside)
                    .unwrap()
                    .1
            };
            let shown: Vec<String> = found.iter().map(ToString::to_string).collect();
            assert!(shown.is_empty(), "{}", shown.join("\n"));
        }
    }
}
