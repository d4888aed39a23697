//! The layout keeps its promises (ARCHITECTURE.md): no import cycle between the files of
//! the library or of the binary, no file over 600 lines, no folder of more than 12 files,
//! a thin `main.rs`, one module that names the YAML crate, no `Result<_, String>` in the
//! library's public functions,
//! and game folders that neither print nor touch files, clocks or the terminal.

use crate::support::root;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, as paths relative to `src/`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path.strip_prefix(root().join("src")).unwrap().to_path_buf());
            }
        }
    }
    out.sort();
    out
}

/// The code of a file without its comments and its `#[cfg(test)] mod tests`.
fn code(rel: &Path) -> String {
    let text = std::fs::read_to_string(root().join("src").join(rel)).unwrap();
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
/// or a child module of a `mod.rs`): the library's, or with `binary` the binary's (`main.rs`
/// and `cli/`).
fn import_graph(binary: bool) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let src = root().join("src");
    let files: Vec<PathBuf> = rust_files(&src)
        .into_iter()
        .filter(|f| (f.starts_with("cli") || f == Path::new("main.rs")) == binary)
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
        let text = expand_braces(code(rel));
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
            let mut path = match first.as_str() {
                "crate" => Vec::new(),
                "super" => {
                    let mut p = here.clone();
                    p.pop();
                    p
                }
                "self" => here.clone(),
                child
                    if is_mod && modules.contains(&[here.clone(), vec![child.into()]].concat()) =>
                {
                    [here.clone(), vec![child.to_string()]].concat()
                }
                _ => continue,
            };
            let skip = usize::from(matches!(first.as_str(), "crate" | "super" | "self"));
            path.extend(words[skip..].iter().filter(|w| *w != "super").cloned());
            // In the binary a command's `mod.rs` holds what its parts share, so a part names
            // its own folder's module: that edge is not counted there (the library's are).
            if let Some(target) = resolve(&path)
                && target != here
                && !(binary && here.starts_with(&target))
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
    let library = import_graph(false);
    let binary = import_graph(true);
    assert!(library.len() > 40, "the walk found {} files", library.len());
    assert!(binary.len() > 30, "the walk found {} files", binary.len());
    for graph in [library, binary] {
        assert_no_cycle(&graph);
    }
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
    let graph = import_graph(false);
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
    let binary = import_graph(true);
    let layout: Vec<String> = ["cli", "tui", "layout"].map(String::from).to_vec();
    let lines: Vec<String> = ["cli", "tui", "lines"].map(String::from).to_vec();
    assert!(binary[&layout].contains(&lines), "{:?}", binary[&layout]);
}

#[test]
fn files_stay_small_and_main_stays_thin() {
    let src = root().join("src");
    for rel in rust_files(&src) {
        let lines = std::fs::read_to_string(src.join(&rel))
            .unwrap()
            .lines()
            .count();
        assert!(
            lines <= 600,
            "src/{} has {lines} lines (at most 600)",
            rel.display()
        );
    }
    // A folder's name tells a stage; more than 12 files directly in one and it tells less.
    let mut per_folder: BTreeMap<PathBuf, usize> = BTreeMap::new();
    for rel in rust_files(&src) {
        *per_folder
            .entry(rel.parent().map(Path::to_path_buf).unwrap_or_default())
            .or_default() += 1;
    }
    for (folder, n) in per_folder {
        assert!(
            n <= 12,
            "src/{} holds {n} .rs files (at most 12)",
            folder.display()
        );
    }
    let main = std::fs::read_to_string(src.join("main.rs"))
        .unwrap()
        .lines()
        .count();
    assert!(main <= 80, "src/main.rs has {main} lines");
}

#[test]
fn only_the_yaml_module_names_the_yaml_crate() {
    let src = root().join("src");
    let naming: Vec<PathBuf> = rust_files(&src)
        .into_iter()
        .filter(|f| code(f).contains("serde_yaml"))
        .collect();
    assert_eq!(naming, vec![PathBuf::from("text/yaml.rs")]);
}

/// Game folders return events and states: no printing, files, clocks or terminal.
#[test]
fn game_folders_neither_print_nor_touch_files() {
    let src = root().join("src");
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
    for folder in ["battle", "ricochet", "micro", "table", "text"] {
        for rel in rust_files(&src.join(folder)) {
            let text = code(&rel);
            for word in forbidden {
                assert!(!text.contains(word), "src/{} uses `{word}`", rel.display());
            }
        }
    }
}

/// Errors are typed (ARCHITECTURE.md, "Invariants"): no public function of the library
/// returns `Result<_, String>`.
#[test]
fn no_public_library_function_returns_a_string_error() {
    let src = root().join("src");
    let mut found = Vec::new();
    for rel in rust_files(&src) {
        if rel.starts_with("cli") || rel == Path::new("main.rs") {
            continue;
        }
        let text = code(&rel);
        for (at, _) in text.match_indices("pub fn ") {
            let signature = &text[at..text[at..].find('{').map_or(text.len(), |end| at + end)];
            let returns = signature.rsplit("->").next().unwrap_or("");
            if signature.contains("->")
                && returns.contains("Result<")
                && returns.trim_end().ends_with("String>")
            {
                found.push(format!(
                    "src/{}: {}",
                    rel.display(),
                    signature.lines().next().unwrap_or("")
                ));
            }
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}
