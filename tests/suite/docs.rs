//! The docs tell the truth: every test definition and every program shown in
//! docs/LANGUAGE.md parses, and every example match and board in docs/FORMATS.md loads.

use crate::support::{micro_face, read, read_under_root};
use robots_games::battle::lang::parse_program;

fn blocks(doc: &str, fence: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in doc.lines() {
        match &mut current {
            None if line.trim() == format!("```{fence}") => current = Some(String::new()),
            Some(text) if line.trim() == "```" => {
                out.push(std::mem::take(text));
                current = None;
            }
            Some(text) => {
                text.push_str(line);
                text.push('\n');
            }
            None => {}
        }
    }
    out
}

#[test]
fn every_test_definition_in_the_language_guide_parses() {
    let mut checked = 0;
    for block in blocks(&read("docs/LANGUAGE.md"), "text") {
        for line in block.lines().filter(|l| l.starts_with("test ")) {
            let number = &line[5..6];
            let program = format!("1: ?{number}\n2: RAZ\n{line}\n");
            parse_program("docs/LANGUAGE.md", &program, 15)
                .unwrap_or_else(|d| panic!("{line}\n{d}"));
            checked += 1;
        }
    }
    assert!(checked >= 16, "only {checked} test lines found");
}

#[test]
fn the_language_guide_shows_real_programs_and_real_errors() {
    let blocks = blocks(&read("docs/LANGUAGE.md"), "text");
    let sentinel = blocks
        .iter()
        .find(|b| b.contains("name: sentinel"))
        .unwrap();
    assert_eq!(parse_program("s", sentinel, 15).unwrap().len(), 6);
    // The instruction examples parse once the test they use is defined.
    let examples = blocks.iter().find(|b| b.starts_with("1: D+2")).unwrap();
    parse_program("e", &format!("{examples}test 1: true\n"), 15).unwrap();
    // The error shown is the one the parser gives.
    let error = blocks
        .iter()
        .find(|b| b.contains("error: expected an instruction"))
        .unwrap();
    let d = parse_program(
        "hunter.robot",
        "1: T\n2: T\n3: T\n4: T\n5: T\n6: T\n7: X+1\n",
        15,
    )
    .unwrap_err();
    assert_eq!(d.to_string().trim(), error.trim());
}

/// The TI-57 section of the guide (RULES A.12): every `ti57` block is a program the rule
/// accepts, and the error shown for a keyword without the rule is the one the parser gives.
#[test]
fn the_ti57_examples_parse_under_the_rule() {
    use robots_games::battle::lang::{Keywords, parse_program_in};
    let doc = read("docs/LANGUAGE.md");
    let programs = blocks(&doc, "ti57");
    assert!(programs.len() >= 4, "only {} ti57 blocks", programs.len());
    for program in &programs {
        parse_program_in("docs/LANGUAGE.md", program, 50, Keywords::Ti57)
            .unwrap_or_else(|d| panic!("{program}\n{d}"));
    }
    let error = blocks(&doc, "text")
        .into_iter()
        .find(|b| b.contains("belongs to the TI-57 keywords"))
        .unwrap();
    let d = parse_program("k.robot", "1: LBL 1\n", 15).unwrap_err();
    assert_eq!(d.to_string().trim(), error.trim());
}

/// The `robots check` of a lint file shown in `doc` is what the binary prints.
fn check_output_is_real(doc: &str) {
    let block = blocks(doc, "text")
        .into_iter()
        .find(|b| b.starts_with("$ robots check tests/lints/"))
        .unwrap();
    let command = block.lines().next().unwrap();
    let args: Vec<&str> = command[2..].split(' ').skip(1).collect();
    let o = crate::support::robots(&args);
    let shown = format!(
        "{command}\n{}{}",
        crate::support::stdout(&o),
        crate::support::stderr(&o)
    );
    assert_eq!(shown.trim(), block.trim());
}

/// The warnings shown in docs/LANGUAGE.md and the README are what `robots check` prints,
/// and the guide's table of warnings names every id.
#[test]
fn the_guides_show_real_warnings() {
    let doc = read("docs/LANGUAGE.md");
    // The README's warning is checked with the rest of its tour (tour.rs).
    check_output_is_real(&doc);
    for id in robots_games::battle::lang::lint::WarningId::ALL {
        assert!(
            doc.contains(&format!("| `{}` |", id.code())),
            "{}",
            id.code()
        );
    }
}

#[test]
fn the_formats_guide_examples_load() {
    let blocks = blocks(&read("docs/FORMATS.md"), "yaml");
    let board = blocks.iter().find(|b| b.contains("map: |")).unwrap();
    robots_games::battle::files::board_file::parse_board("board.yaml", board).unwrap();
    let game = blocks.iter().find(|b| b.contains("teams:")).unwrap();
    // Relative paths in the example are relative to a match file in matches/.
    let setup = robots_games::battle::files::match_file::parse_match(
        "matches/example.yaml",
        game,
        &read_under_root,
        robots_games::text::confine::Confine::Anywhere,
    )
    .map_err(|d| d.to_string())
    .unwrap();
    assert_eq!(setup.signals.len(), 2);
}

#[test]
fn the_micro_robots_examples_load() {
    let mut loaded = 0;
    for block in blocks(&read("docs/FORMATS.md"), "yaml") {
        if block.contains("tiles:") || block.contains("rows:") || block.contains("layout:") {
            robots_games::micro::file::parse("FORMATS.md", &block, &micro_face)
                .unwrap_or_else(|d| panic!("{block}\n{d}"));
            loaded += 1;
        }
    }
    assert_eq!(loaded, 3);
}

#[test]
fn the_ricochet_examples_load() {
    let blocks = blocks(&read("docs/FORMATS.md"), "yaml");
    let position = blocks.iter().find(|b| b.contains("quadrants:")).unwrap();
    let p = robots_games::ricochet::files::parse("FORMATS.md", position, &|_| Err("no".into()))
        .unwrap();
    assert_eq!(p.robots.len(), 4);
    let custom = blocks.iter().find(|b| b.contains("size: [10, 8]")).unwrap();
    let b = robots_games::ricochet::files::parse_custom("FORMATS.md", custom).unwrap();
    assert_eq!((b.width, b.height, b.bases.len()), (10, 8, 4));
}

/// The JSON shown in docs/FORMATS.md is what the binary writes: the result of the default
/// match to the byte, and replay events with the same fields as the real ones.
#[test]
fn the_formats_guide_shows_the_real_json() {
    use crate::support::{robots, stdout};
    let doc = read("docs/FORMATS.md");
    let shown = blocks(&doc, "json");
    let result = stdout(&robots(&["run", "--json"]));
    assert!(
        shown.iter().any(|b| b.trim() == result.trim()),
        "FORMATS.md does not show `robots run --json` as it is:\n{result}"
    );
    let dir = std::env::temp_dir().join(format!("robots-docs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("replay.json");
    robots(&["run", "--replay", &file.display().to_string()]);
    let replay = std::fs::read_to_string(&file).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    let lines: Vec<serde_json::Value> = replay
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let events: Vec<serde_json::Value> = lines[1..lines.len() - 1]
        .iter()
        .flat_map(|turn| turn.as_array().unwrap().clone())
        .collect();
    let mut checked = 0;
    for line in shown
        .iter()
        .flat_map(|b| b.lines())
        .filter(|l| l.contains("\"event\""))
    {
        let example: serde_json::Value = serde_json::from_str(line).unwrap();
        let keys = |v: &serde_json::Value| {
            let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
            k.sort();
            k
        };
        assert!(
            events.iter().any(|e| e == &example),
            "FORMATS.md shows an event the default match does not have: {line}"
        );
        assert!(
            events
                .iter()
                .filter(|e| e["event"] == example["event"])
                .all(|e| keys(e) == keys(&example))
        );
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} events shown");
}

/// ARCHITECTURE.md's code map names every folder and file under `src/` (the binary) and each
/// library's `crates/*/src/`, and nothing that is not there: a bullet opens with a folder's
/// path and names its files (`name.rs`).
#[test]
fn the_code_map_matches_the_tree() {
    let map = read("ARCHITECTURE.md");
    let map = &map[map.find("## Code map").unwrap()..map.find("## Invariants").unwrap()];
    let mut named = std::collections::BTreeSet::new();
    let mut folder: Option<String> = None;
    for line in map.lines() {
        if let Some(rest) = line.strip_prefix("- `") {
            folder = rest
                .split('`')
                .next()
                .filter(|p| (p.starts_with("src/") || p.starts_with("crates/")) && p.ends_with('/'))
                .map(str::to_string);
            named.extend(folder.clone());
        } else if !line.starts_with("  ") {
            folder = None;
        }
        let Some(folder) = &folder else { continue };
        for span in line.split('`').skip(1).step_by(2) {
            if span.ends_with(".rs") && !span.contains('/') {
                named.insert(format!("{folder}{span}"));
            }
        }
    }
    let root = crate::support::root();
    let mut tree = std::collections::BTreeSet::new();
    let mut stack = vec![root.join("src")];
    for library in std::fs::read_dir(root.join("crates")).unwrap() {
        stack.push(library.unwrap().path().join("src"));
    }
    for src in &stack {
        tree.insert(format!("{}/", src.strip_prefix(root).unwrap().display()));
    }
    assert!(tree.contains("crates/games/src/"), "{tree:?}");
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path.strip_prefix(root).unwrap().display();
            if path.is_dir() {
                tree.insert(format!("{rel}/"));
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                tree.insert(rel.to_string());
            }
        }
    }
    let missing: Vec<_> = tree.difference(&named).collect();
    let stale: Vec<_> = named.difference(&tree).collect();
    assert!(
        missing.is_empty() && stale.is_empty(),
        "not in the code map: {missing:?}\nin the code map but not in the tree: {stale:?}"
    );
}
