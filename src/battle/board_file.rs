//! Board files (`boards/*.yaml`, docs/FORMATS.md): a text map plus a legend, validated into a
//! [`Board`] with errors that point at the offending hex in the file.

use crate::battle::board::{Board, Cell};
use crate::battle::terrain::{Form, ShapeColour, TeamColour, Terrain};
use crate::text::diagnostic::Diagnostic;
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardFile {
    name: Option<String>,
    #[serde(default)]
    description: Option<String>,
    map: String,
    #[serde(default)]
    legend: BTreeMap<String, LegendEntry>,
}

/// What a map symbol stands for. Every key is optional; an empty entry is plain ground.
#[derive(Deserialize, Default, Clone)]
#[serde(deny_unknown_fields)]
struct LegendEntry {
    /// `plain` (default), `lake` or `lightning`.
    terrain: Option<String>,
    /// A shape's form (square, triangle, circle); needs `colour`.
    shape: Option<String>,
    #[serde(alias = "color")]
    colour: Option<String>,
    /// The central computer of this team colour's camp.
    computer: Option<String>,
    /// The camp this hex belongs to.
    camp: Option<String>,
    #[serde(default)]
    start: bool,
}

/// The symbols every board may use without declaring them.
fn default_legend() -> BTreeMap<char, Cell> {
    let plain = Cell {
        terrain: Terrain::Plain,
        camp: None,
        start: false,
    };
    let mut legend = BTreeMap::from([
        ('.', plain),
        (
            '~',
            Cell {
                terrain: Terrain::Lake,
                ..plain
            },
        ),
        (
            '!',
            Cell {
                terrain: Terrain::Lightning,
                ..plain
            },
        ),
        (
            '+',
            Cell {
                start: true,
                ..plain
            },
        ),
    ]);
    for colour in TeamColour::ALL {
        let letter = colour.letter();
        legend.insert(
            letter,
            Cell {
                camp: Some(colour),
                ..plain
            },
        );
        legend.insert(
            letter.to_ascii_uppercase(),
            Cell {
                camp: Some(colour),
                start: true,
                ..plain
            },
        );
    }
    legend
}

/// Reads and validates a board file. `file` names it in diagnostics.
pub fn parse_board(file: &str, source: &str) -> Result<Board, Diagnostic> {
    let raw: BoardFile = crate::text::yaml::from_str(file, source)?;
    let _ = &raw.description;
    let key_line = |key: &str| crate::text::yaml::locate_key(source, key, 1).unwrap_or((1, 1));
    let mut legend = default_legend();
    for (symbol, entry) in &raw.legend {
        let at =
            crate::text::yaml::locate_text(source, &format!("{symbol}:"), key_line("legend").0)
                .or_else(|| {
                    crate::text::yaml::locate_text(
                        source,
                        &format!("\"{symbol}\""),
                        key_line("legend").0,
                    )
                })
                .unwrap_or(key_line("legend"));
        let error = |msg: String| {
            Diagnostic::at(
                file,
                source,
                at.0,
                at.1,
                format!("legend `{symbol}`: {msg}"),
            )
        };
        let mut chars = symbol.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            return Err(error("a map symbol is one character".into()));
        };
        if c.is_whitespace() {
            return Err(error("a map symbol cannot be a space".into()));
        }
        legend.insert(c, legend_cell(entry).map_err(error)?);
    }

    let rows = map_rows(&raw.map);
    let (map_line, map_indent) = map_origin(source);
    if rows.is_empty() {
        let (l, c) = key_line("map");
        return Err(Diagnostic::at(
            file,
            source,
            l,
            c,
            "the map is empty: draw one line of hexes per row",
        ));
    }
    let mut width = None;
    let mut cells = Vec::new();
    for (row, text) in rows.iter().enumerate() {
        let line = map_line + 1 + row;
        let at =
            |col: usize, msg: String| Diagnostic::at(file, source, line, map_indent + col + 1, msg);
        let indent = text.len() - text.trim_start().len();
        let wanted = row & 1;
        if indent != wanted {
            let msg = if wanted == 1 {
                format!(
                    "row {row} is an odd row: it starts with one space (odd rows are shifted right by half a hex)"
                )
            } else {
                format!("row {row} is an even row: it starts at the margin, with no space")
            };
            return Err(at(0, msg));
        }
        let mut count = 0;
        for (col, ch) in text.char_indices().skip(indent) {
            let char_col = text[..col].chars().count();
            let hex_index = (char_col - indent) / 2;
            let is_symbol_column = (char_col - indent) % 2 == 0;
            if !is_symbol_column {
                if ch != ' ' {
                    return Err(at(
                        char_col,
                        format!(
                            "expected a space between hexes, found `{ch}`: hexes are one character each, separated by one space"
                        ),
                    ));
                }
                continue;
            }
            let Some(cell) = legend.get(&ch) else {
                let known: String = legend
                    .keys()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(" ");
                return Err(at(
                    char_col,
                    format!(
                        "unknown map symbol `{ch}` (hex {hex_index} of row {row}): add it to the legend, or use one of {known}"
                    ),
                ));
            };
            cells.push(*cell);
            count += 1;
        }
        match width {
            None => width = Some(count),
            Some(w) if w != count => {
                return Err(at(
                    text.trim_end().chars().count().saturating_sub(1),
                    format!("ragged row: row {row} has {count} hexes, row 0 has {w}"),
                ));
            }
            _ => {}
        }
    }
    let width = width.unwrap_or(0);
    let height = rows.len();
    if width == 0 {
        let (l, c) = key_line("map");
        return Err(Diagnostic::at(file, source, l, c, "the map has no hexes"));
    }
    if width > 200 || height > 200 || width * height > 16_000 {
        let (l, c) = key_line("map");
        return Err(Diagnostic::at(
            file,
            source,
            l,
            c,
            format!("the map is {width}×{height} hexes: at most 200×200 and 16,000 hexes"),
        ));
    }
    let name = raw.name.clone().unwrap_or_else(|| {
        std::path::Path::new(file)
            .file_stem()
            .map_or("board".into(), |s| s.to_string_lossy().into_owned())
    });
    let board = Board::new(name, width, height, cells);
    check_computers(&board).map_err(|(cell, msg)| {
        let (col, row) = board.offset(cell);
        Diagnostic::at(
            file,
            source,
            map_line + 1 + row,
            map_indent + (row & 1) + 2 * col + 1,
            msg,
        )
    })?;
    Ok(board)
}

fn legend_cell(entry: &LegendEntry) -> Result<Cell, String> {
    let team = |word: &str| {
        TeamColour::parse(word).ok_or_else(|| {
            format!(
                "unknown team colour `{word}`: expected one of {}",
                TeamColour::names()
            )
        })
    };
    let camp = entry.camp.as_deref().map(team).transpose()?;
    let mut terrain = match entry.terrain.as_deref() {
        None | Some("plain") => Terrain::Plain,
        Some("lake") => Terrain::Lake,
        Some("lightning") => Terrain::Lightning,
        Some(other) => {
            return Err(format!(
                "unknown terrain `{other}`: expected plain, lake or lightning (shapes use `shape:`, computers `computer:`)"
            ));
        }
    };
    if let Some(form) = &entry.shape {
        let form = Form::parse(form).ok_or_else(|| {
            format!("unknown shape `{form}`: expected square, triangle or circle")
        })?;
        let colour = entry.colour.as_deref().ok_or("a shape needs a `colour`")?;
        let colour = ShapeColour::parse(colour).ok_or_else(|| {
            format!(
                "unknown shape colour `{colour}`: expected one of {}",
                ShapeColour::names()
            )
        })?;
        if terrain != Terrain::Plain {
            return Err("a hex holds one thing: a shape cannot also be a lake or lightning".into());
        }
        terrain = Terrain::Shape(form, colour);
    } else if entry.colour.is_some() {
        return Err("`colour` is for shapes: add `shape: square` (or triangle, circle)".into());
    }
    if let Some(owner) = &entry.computer {
        if terrain != Terrain::Plain {
            return Err("a computer hex cannot also hold a shape, a lake or lightning".into());
        }
        let owner = team(owner)?;
        if camp.is_some_and(|c| c != owner) {
            return Err("a computer stands in its own team's camp".into());
        }
        return Ok(Cell {
            terrain: Terrain::Computer(owner),
            camp: Some(owner),
            start: false,
        })
        .and_then(|c| {
            if entry.start {
                Err("a computer cannot be a start point".to_string())
            } else {
                Ok(c)
            }
        });
    }
    if entry.start && terrain != Terrain::Plain {
        return Err("a start point must be on plain ground".into());
    }
    Ok(Cell {
        terrain,
        camp,
        start: entry.start,
    })
}

/// At most one computer per camp: the error names the second one found.
fn check_computers(board: &Board) -> Result<(), (crate::battle::board::CellId, String)> {
    for colour in TeamColour::ALL {
        let mut computers = board
            .cells()
            .filter(|(_, c)| c.terrain == Terrain::Computer(colour));
        if let (Some(_), Some((second, _))) = (computers.next(), computers.next()) {
            return Err((
                second,
                format!("a second central computer for the {colour} camp: one per camp"),
            ));
        }
    }
    Ok(())
}

/// The map's rows, without the trailing blank lines a block scalar may carry.
fn map_rows(map: &str) -> Vec<&str> {
    let mut rows: Vec<&str> = map
        .lines()
        .map(|l| l.trim_end_matches('\r').trim_end())
        .collect();
    while rows.last().is_some_and(|r| r.is_empty()) {
        rows.pop();
    }
    rows
}

/// The line of the `map:` key and the indentation of its block, so map errors point into
/// the file. The first row is even (unshifted), so its indentation is the block's.
fn map_origin(source: &str) -> (usize, usize) {
    let Some((line, _)) = crate::text::yaml::locate_key(source, "map", 1) else {
        return (0, 0);
    };
    let indent = source
        .lines()
        .skip(line)
        .find(|l| !l.trim().is_empty())
        .map_or(0, |l| l.len() - l.trim_start().len());
    (line, indent)
}
