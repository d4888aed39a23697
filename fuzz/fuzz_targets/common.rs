//! What the targets share: the files a fuzzed input may name, served from memory (a
//! target does no I/O), looked up by file name whatever folder the input wrote.

#![allow(dead_code)]

use std::path::Path;

/// Boards and programs a match file may name by path (shipped ones are found by name
/// without reading).
const MATCH_FILES: &[(&str, &str)] = &[
    ("arena.yaml", include_str!("../../tests/boards/arena.yaml")),
    (
        "camps_only.yaml",
        include_str!("../../tests/boards/camps_only.yaml"),
    ),
    ("classic.yaml", include_str!("../../boards/classic.yaml")),
    ("duel.yaml", include_str!("../../boards/duel.yaml")),
    ("melee.yaml", include_str!("../../boards/melee.yaml")),
    ("hunter.robot", include_str!("../../programs/hunter.robot")),
    (
        "sentinel.robot",
        include_str!("../../programs/sentinel.robot"),
    ),
    (
        "all_instructions.robot",
        include_str!("../../tests/programs/all_instructions.robot"),
    ),
    (
        "conditions.robot",
        include_str!("../../tests/programs/conditions.robot"),
    ),
    (
        "crlf_line_ends.robot",
        include_str!("../../tests/programs/crlf_line_ends.robot"),
    ),
    (
        "empty.robot",
        include_str!("../../tests/programs/empty.robot"),
    ),
    (
        "word_forms.robot",
        include_str!("../../tests/programs/word_forms.robot"),
    ),
];

/// Custom Ricochet boards a position file may name.
const RICOCHET_BOARDS: &[(&str, &str)] = &[
    (
        "open-5x5.yaml",
        include_str!("../../tests/ricochet/boards/open-5x5.yaml"),
    ),
    (
        "walled-5x5.yaml",
        include_str!("../../tests/ricochet/boards/walled-5x5.yaml"),
    ),
    (
        "diagonal-5x5.yaml",
        include_str!("../../tests/ricochet/boards/diagonal-5x5.yaml"),
    ),
    (
        "ricochets-10x8.yaml",
        include_str!("../../boards/ricochet/ricochets-10x8.yaml"),
    ),
];

fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

fn lookup(table: &[(&str, &'static str)], path: &str) -> Option<&'static str> {
    let name = file_name(path);
    table.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// The reader `match_file::parse_match` calls: known files, or "not found".
pub fn read_match_file(path: &Path) -> std::io::Result<Vec<u8>> {
    lookup(MATCH_FILES, &path.to_string_lossy())
        .map(|t| t.as_bytes().to_vec())
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "not served"))
}

/// The reader `ricochet::files::parse` calls.
pub fn read_ricochet_board(path: &str) -> Result<String, String> {
    lookup(RICOCHET_BOARDS, path)
        .map(str::to_string)
        .ok_or_else(|| format!("`{path}` not served"))
}

/// A shipped Micro Robots face by name (`silver`, `copper`, or a path ending in one).
pub fn micro_face(name: &str) -> Result<robots_games::micro::Face, String> {
    let stem = file_name(name).trim_end_matches(".yaml");
    let text =
        robots_games::micro::shipped::micro_face(stem).ok_or_else(|| format!("no face `{name}`"))?;
    match robots_games::micro::file::parse(name, text, &|_| Err("faces name no faces".into())) {
        Ok(robots_games::micro::MicroFile::Face(face)) => Ok(face),
        Ok(robots_games::micro::MicroFile::Board(_)) => Err("not a face".into()),
        Err(d) => Err(d.to_string()),
    }
}
