//! Scenario tests: each `tests/scenarios/*.yaml` is a small match with inline programs. The
//! snapshot shows the input beside the event log and the final board; `err_*` files snapshot
//! the diagnostic instead. Names cite the ruling they exercise (RULES.md).

use crate::support::{file_name, read_under_root, root, shown};
use robots_games::battle::engine::Match;
use robots_games::battle::{files::match_file, show::render};
use robots_games::text::confine::Confine;
use std::path::Path;

fn play(path: &Path) -> String {
    let bytes = std::fs::read(path).expect("scenario file");
    let shown = shown("scenarios", path);
    let text = match robots_games::text::diagnostic::text_from_bytes(&shown, bytes.clone()) {
        Ok(text) => text,
        Err(d) => {
            return format!(
                "{}\n---- diagnostic ----\n{d}\n",
                String::from_utf8_lossy(&bytes)
            );
        }
    };
    let setup = match match_file::parse_match(&shown, &text, &read_under_root, Confine::Anywhere) {
        Ok(setup) => setup,
        Err(d) => return format!("{text}\n---- diagnostic ----\n{d}\n"),
    };
    let mut game = Match::new(&setup).expect("checked by parse_match");
    let first = game.team(game.first_team()).colour;
    let mut out = format!(
        "{text}\n---- start ({first} plays first) ----\n{}",
        render::state(&game)
    );
    out.push_str("---- events ----\n");
    game.run(|e| {
        let indent = if matches!(e, robots_games::battle::engine::Event::Turn { .. }) {
            ""
        } else {
            "  "
        };
        out.push_str(&format!("{indent}{e}\n"));
    });
    out.push_str("---- end ----\n");
    out.push_str(&render::state(&game));
    out
}

#[test]
fn scenarios() {
    insta::glob!("../scenarios", "*.yaml", |path| {
        let output = play(path);
        let is_error_case = file_name(path).starts_with("err_");
        assert_eq!(
            output.contains("---- diagnostic ----"),
            is_error_case,
            "{}: err_* files, and only they, must fail to load",
            path.display()
        );
        snapshot!("scenarios", output);
    });
}

/// Every ruling of part A is named by at least one scenario file (RULES.md).
#[test]
fn every_ruling_has_a_scenario() {
    let names: Vec<String> = std::fs::read_dir(root().join("tests/scenarios"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    for n in 1..=29 {
        let id = format!("R-A{n}-");
        assert!(
            names.iter().any(|f| f.contains(&id)),
            "no scenario names {id}"
        );
    }
}

/// Every ruling of part B is named by at least one file of `tests/ricochet`: a position
/// (R-B1, R-B2) or a game of `tests/ricochet/games` (R-B3) (RULES.md).
#[test]
fn every_part_b_ruling_has_a_scenario() {
    let dir = root().join("tests/ricochet");
    let names: Vec<String> = [dir.clone(), dir.join("games")]
        .iter()
        .flat_map(|d| std::fs::read_dir(d).unwrap())
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    for n in 1..=3 {
        let id = format!("R-B{n}-");
        assert!(
            names.iter().any(|f| f.starts_with(&id)),
            "no file of tests/ricochet names {id}"
        );
    }
}
