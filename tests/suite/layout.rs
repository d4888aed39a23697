//! The layout keeps its promises (ARCHITECTURE.md): no import cycle between the files of
//! a library or of the binary, nor between the crates; no file over 600 lines, no folder of
//! more than 12 files, a thin `main.rs`, one module that names the YAML crate, no
//! `Result<_, String>` in any crate's public functions, a games crate that names no front
//! end's crate, an arena that names no command line's, and game folders that neither print
//! nor touch files, clocks or the terminal.

use crate::support::root;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The binary's source folder (`main.rs`, `cli/`), relative to the workspace's root.
const BINARY: &str = "src";

/// The games' library, where every rule is (`crates/games/src`).
const GAMES: &str = "crates/games/src";

/// The arena's library, the server behind `robots serve` (`crates/arena/src`).
const ARENA: &str = "crates/arena/src";

/// Each library's source folder, `crates/*/src`, relative to the workspace's root.
fn libraries() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(root().join("crates"))
        .unwrap()
        .map(|e| Path::new("crates").join(e.unwrap().file_name()).join("src"))
        .filter(|src| root().join(src).is_dir())
        .collect();
    out.sort();
    assert!(out.contains(&PathBuf::from(GAMES)), "{out:?}");
    assert!(out.contains(&PathBuf::from(ARENA)), "{out:?}");
    out
}

/// Every source folder: the binary's and the libraries'.
fn sources() -> Vec<PathBuf> {
    [vec![PathBuf::from(BINARY)], libraries()].concat()
}

/// Every `.rs` file under `dir` (relative to the workspace's root), as paths relative to the
/// root.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root().join(dir)];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path.strip_prefix(root()).unwrap().to_path_buf());
            }
        }
    }
    out.sort();
    out
}

/// The code of a file (relative to the root) without its comments and its
/// `#[cfg(test)] mod tests`.
fn code(rel: &Path) -> String {
    let text = std::fs::read_to_string(root().join(rel)).unwrap();
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => &text,
    };
    text.lines()
        .map(|l| l.find("//").map_or(l, |i| &l[..i]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The module path of a library file: `battle/engine/mod.rs` → `battle::engine`.
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .with_extension("")
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if parts
        .last()
        .is_some_and(|p| p == "mod" || p == "lib" || p == "main")
    {
        parts.pop();
    }
    parts
}

/// `a::{b, c::d}` written out as `a::b a::c::d` (nested braces too).
fn expand_braces(mut text: String) -> String {
    while let Some(open) = text.find("::{") {
        let Some(close) = text[open..].find('}').map(|i| open + i) else {
            break;
        };
        let inner = &text[open + 3..close];
        if let Some(nested) = inner.rfind('{') {
            // Expand the innermost group first.
            let start = open + 3 + nested;
            let head_start = text[..start]
                .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .map_or(0, |i| i + 1);
            let head = text[head_start..start].to_string();
            let end = text[start..].find('}').unwrap() + start;
            let items: Vec<String> = text[start + 1..end]
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| format!("{head}{s}"))
                .collect();
            text.replace_range(head_start..=end, &items.join(", "));
            continue;
        }
        let head_start = text[..open]
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .map_or(0, |i| i + 1);
        let head = text[head_start..open].to_string();
        let items: Vec<String> = inner
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| format!("{head}::{s}"))
            .collect();
        text.replace_range(head_start..=close, &items.join(" "));
    }
    text
}

/// Which files of one crate each file names an item of (`crate::…`, `super::…`, `self::…`,
/// or a child module of a `mod.rs`): the crate whose source folder is `src` (a library's, or
/// the binary's: `main.rs` and `cli/`).
fn import_graph(src: &str) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let files: Vec<PathBuf> = rust_files(Path::new(src))
        .into_iter()
        .map(|f| f.strip_prefix(src).unwrap().to_path_buf())
        .collect();
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(f)).collect();
    let resolve = |path: &[String]| {
        (0..=path.len())
            .rev()
            .map(|k| path[..k].to_vec())
            .find(|p| modules.contains(p))
    };
    let mut graph = BTreeMap::new();
    for rel in &files {
        let here = module_of(rel);
        let is_mod =
            rel.ends_with("mod.rs") || rel == Path::new("lib.rs") || rel == Path::new("main.rs");
        let text = expand_braces(code(&Path::new(src).join(rel)));
        let mut edges = BTreeSet::new();
        let tokens = text
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .filter(|t| t.contains("::"));
        for token in tokens {
            let words: Vec<String> = token
                .split("::")
                .filter(|w| !w.is_empty())
                .map(str::to_string)
                .collect();
            let Some(first) = words.first() else { continue };
            // `super::super::x` climbs once for each `super`.
            let supers = words.iter().take_while(|w| *w == "super").count();
            let mut path = match first.as_str() {
                "crate" => Vec::new(),
                "super" => here[..here.len().saturating_sub(supers)].to_vec(),
                "self" => here.clone(),
                child
                    if is_mod && modules.contains(&[here.clone(), vec![child.into()]].concat()) =>
                {
                    [here.clone(), vec![child.to_string()]].concat()
                }
                _ => continue,
            };
            let skip = match first.as_str() {
                "super" => supers,
                "crate" | "self" => 1,
                _ => 0,
            };
            path.extend(words[skip..].iter().cloned());
            if let Some(target) = resolve(&path)
                && target != here
            {
                edges.insert(target);
            }
        }
        graph.insert(here, edges);
    }
    graph
}

#[test]
fn no_import_cycle_between_files() {
    let games = import_graph(GAMES);
    let binary = import_graph(BINARY);
    assert!(games.len() > 40, "the walk found {} files", games.len());
    assert!(binary.len() > 30, "the walk found {} files", binary.len());
    for graph in [games, binary] {
        assert_no_cycle(&graph);
    }
    assert!(import_graph(ARENA).len() > 20, "the walk missed the arena");
    for library in libraries() {
        assert_no_cycle(&import_graph(&library.display().to_string()));
    }
}

/// The workspace's packages (the root's and each of `crates/*`), each with the packages of
/// the workspace it names (`robots-…`) in any section of its manifest.
fn package_graph() -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let manifests = std::iter::once(PathBuf::from("Cargo.toml")).chain(
        libraries()
            .into_iter()
            .map(|src| src.parent().unwrap().join("Cargo.toml")),
    );
    let mut graph = BTreeMap::new();
    for manifest in manifests {
        let text = std::fs::read_to_string(root().join(&manifest)).unwrap();
        let mut name = None;
        let mut named = BTreeSet::new();
        let mut section = "";
        for line in text.lines().map(str::trim) {
            if line.starts_with('[') {
                section = line;
            } else if let Some((key, value)) = line.split_once('=') {
                let key = key.trim();
                if section == "[package]" && key == "name" {
                    name = Some(value.trim().trim_matches('"').to_string());
                } else if section.ends_with("dependencies]")
                    && section != "[workspace.dependencies]"
                    && key.starts_with("robots")
                {
                    named.insert(vec![key.trim_end_matches(".workspace").to_string()]);
                }
            }
        }
        graph.insert(vec![name.unwrap()], named);
    }
    graph
}

/// The binary names the arena and the games, the arena the games, the games neither: no
/// cycle between the crates, whatever crates come.
#[test]
fn no_cycle_between_crates() {
    let graph = package_graph();
    let key = |n: &str| vec![n.to_string()];
    assert!(
        graph[&key("robots")].contains(&key("robots-arena")),
        "{graph:?}"
    );
    assert!(
        graph[&key("robots-arena")].contains(&key("robots-games")),
        "{graph:?}"
    );
    assert!(graph[&key("robots-games")].is_empty(), "{graph:?}");
    assert_no_cycle(&graph);
}

fn assert_no_cycle(graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) {
    // A file is in a cycle when it can reach itself.
    let mut cycles = Vec::new();
    for start in graph.keys() {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<&Vec<String>> = graph[start].iter().collect();
        while let Some(m) = stack.pop() {
            if m == start {
                cycles.push(start.join("::"));
                break;
            }
            if seen.insert(m) {
                stack.extend(graph.get(m).into_iter().flatten());
            }
        }
    }
    assert!(cycles.is_empty(), "files in an import cycle: {cycles:?}");
}

/// The cycle check sees real imports: the engine's match names its state and play.
#[test]
fn the_import_graph_sees_imports() {
    let graph = import_graph(GAMES);
    let engine = vec!["battle".to_string(), "engine".to_string()];
    let named: Vec<String> = graph[&engine].iter().map(|m| m.join("::")).collect();
    for m in [
        "battle::engine::play",
        "battle::engine::placement",
        "battle::board",
    ] {
        assert!(named.contains(&m.to_string()), "{named:?}");
    }
    let play = vec!["battle".into(), "engine".into(), "play".into()];
    assert!(graph[&play].contains(&vec!["battle".to_string(), "engine".into(), "fixed".into()]));
    // The binary's too: the terminal screen's layout measures what the panes hold.
    let binary = import_graph(BINARY);
    let layout: Vec<String> = ["cli", "tui", "layout"].map(String::from).to_vec();
    let lines: Vec<String> = ["cli", "tui", "lines"].map(String::from).to_vec();
    assert!(binary[&layout].contains(&lines), "{:?}", binary[&layout]);
    // `super::super::picture` climbs twice: to the command line's picture, not the folder.
    let drawn: Vec<String> = ["cli", "ricochet", "random_board"]
        .map(String::from)
        .to_vec();
    let picture: Vec<String> = ["cli", "picture"].map(String::from).to_vec();
    assert!(binary[&drawn].contains(&picture), "{:?}", binary[&drawn]);
    let folder: Vec<String> = ["cli", "ricochet"].map(String::from).to_vec();
    assert!(!binary[&drawn].contains(&folder), "{:?}", binary[&drawn]);
}

#[test]
fn files_stay_small_and_main_stays_thin() {
    let files: Vec<PathBuf> = sources().iter().flat_map(|s| rust_files(s)).collect();
    assert!(files.contains(&PathBuf::from("crates/games/src/battle/hex.rs")));
    for rel in &files {
        let lines = std::fs::read_to_string(root().join(rel))
            .unwrap()
            .lines()
            .count();
        assert!(
            lines <= 600,
            "{} has {lines} lines (at most 600)",
            rel.display()
        );
    }
    // A folder's name tells a stage; more than 12 files directly in one and it tells less.
    let mut per_folder: BTreeMap<PathBuf, usize> = BTreeMap::new();
    for rel in &files {
        *per_folder
            .entry(rel.parent().map(Path::to_path_buf).unwrap_or_default())
            .or_default() += 1;
    }
    for (folder, n) in per_folder {
        assert!(
            n <= 12,
            "{} holds {n} .rs files (at most 12)",
            folder.display()
        );
    }
    let main = std::fs::read_to_string(root().join(BINARY).join("main.rs"))
        .unwrap()
        .lines()
        .count();
    assert!(main <= 80, "src/main.rs has {main} lines");
}

#[test]
fn only_the_yaml_module_names_the_yaml_crate() {
    let naming: Vec<PathBuf> = sources()
        .iter()
        .flat_map(|s| rust_files(s))
        .filter(|f| code(f).contains("serde_yaml"))
        .collect();
    assert_eq!(naming, vec![Path::new(GAMES).join("text/yaml.rs")]);
}

/// Game folders return events and states: no printing, files, clocks or terminal. The whole
/// games crate is held to it (its root files too).
#[test]
fn game_folders_neither_print_nor_touch_files() {
    let forbidden = [
        "println!",
        "print!",
        "eprintln!",
        "eprint!",
        "dbg!",
        "std::fs",
        "stdin",
        "stdout",
        "stderr",
        "Instant::",
        "SystemTime",
        "thread_rng",
        "rand::rng()",
    ];
    let files = rust_files(Path::new(GAMES));
    for folder in ["battle", "ricochet", "micro", "table", "text"] {
        let under = Path::new(GAMES).join(folder);
        assert!(files.iter().any(|f| f.starts_with(&under)), "{folder}");
    }
    for rel in files {
        let text = code(&rel);
        for word in forbidden {
            assert!(!text.contains(word), "{} uses `{word}`", rel.display());
        }
    }
}

/// The games build without a front end (issue 46): the games crate's manifest names none of
/// the server's, the terminal's or the command line's crates, and rayon only as its optional
/// `parallel` feature's (`cargo tree -p robots-games -e normal --no-default-features` shows
/// the whole tree).
#[test]
fn the_games_crate_names_no_front_end_crate() {
    let manifest = std::fs::read_to_string(root().join("crates/games/Cargo.toml")).unwrap();
    let mut section = "";
    let mut named = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line;
        } else if section == "[dependencies]"
            && let Some((name, spec)) = line.split_once('=')
        {
            let name = name.trim().trim_end_matches(".workspace").trim();
            named.push(name.to_string());
            if name == "rayon" {
                assert!(spec.contains("optional = true"), "{line}");
            }
        }
    }
    assert!(named.iter().any(|n| n == "pest"), "{named:?}");
    let front_ends = [
        "tokio",
        "axum",
        "tower",
        "hyper",
        "rusqlite",
        "postgres",
        "argon2",
        "ratatui",
        "crossterm",
        "clap",
        "ureq",
        "lsp",
        "getrandom",
    ];
    for name in &named {
        assert!(
            !front_ends.iter().any(|f| name.starts_with(f)),
            "crates/games names `{name}`"
        );
    }
    assert!(
        manifest.contains("rand = { version = \"0.10.3\", default-features = false }"),
        "rand without its operating system's generator"
    );
}

/// The arena is a library of its own (issue 46): its manifest names no command line's,
/// terminal's, editor protocol's or HTTP client's crate (the binary's front ends).
#[test]
fn the_arena_crate_names_no_command_line_crate() {
    let named = dependencies("crates/arena/Cargo.toml");
    assert!(named.iter().any(|n| n == "axum"), "{named:?}");
    for name in &named {
        assert!(
            ![
                "clap",
                "ratatui",
                "crossterm",
                "lsp",
                "ureq",
                "robots-arena"
            ]
            .iter()
            .any(|f| name.starts_with(f))
                && name != "robots",
            "crates/arena names `{name}`"
        );
    }
}

/// The crates a manifest's `[dependencies]` names.
fn dependencies(manifest: &str) -> Vec<String> {
    let text = std::fs::read_to_string(root().join(manifest)).unwrap();
    let mut section = "";
    let mut named = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line;
        } else if section == "[dependencies]"
            && let Some((name, _)) = line.split_once('=')
        {
            named.push(
                name.trim()
                    .trim_end_matches(".workspace")
                    .trim()
                    .to_string(),
            );
        }
    }
    named
}

/// Errors are typed (ARCHITECTURE.md, "Invariants"): no public function of a library or of
/// the binary returns `Result<_, String>`, its signature on one line or several.
#[test]
fn no_public_function_returns_a_string_error() {
    let mut found = Vec::new();
    for rel in sources().iter().flat_map(|l| rust_files(l)) {
        let text = code(&rel);
        for (at, _) in text.match_indices("pub fn ") {
            let signature = &text[at..text[at..].find('{').map_or(text.len(), |end| at + end)];
            let returns = signature.rsplit("->").next().unwrap_or("");
            if signature.contains("->")
                && returns.contains("Result<")
                && returns.trim_end().ends_with("String>")
            {
                found.push(format!(
                    "{}: {}",
                    rel.display(),
                    signature.lines().next().unwrap_or("")
                ));
            }
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}
