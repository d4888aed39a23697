//! Board files (`boards/*.yaml`, docs/FORMATS.md): a text map plus a legend, validated into a
//! [`Board`] with errors that point at the offending hex in the file.

use crate::battle::board::{Board, BoardError, Cell, MAX_CELLS, MAX_SIDE};
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

/// Reads a board file; [`Board::new`] says whether its cells make a board, and the errors
/// point at the offending hex in the file. `file` names it in diagnostics.
pub fn parse_board(file: &str, source: &str) -> Result<Board, Diagnostic> {
    let raw: BoardFile = crate::text::yaml::from_str(file, source)?;
    let _ = &raw.description;
    let legend = read_legend(file, source, &raw.legend)?;
    let map_key = crate::text::yaml::locate_key(source, "map", 1).unwrap_or((1, 1));
    let rows = map_rows(&raw.map);
    let (map_line, map_indent) = map_origin(source);
    if rows.is_empty() {
        return Err(Diagnostic::at(
            file,
            source,
            map_key.0,
            map_key.1,
            "the map is empty: draw one line of hexes per row",
        ));
    }
    let too_large = |width: usize| {
        let e = BoardError::TooLarge {
            width,
            height: rows.len(),
        };
        Diagnostic::at(file, source, map_key.0, map_key.1, e.to_string())
    };
    // The limits are checked before any work per hex: the rows, then each row's length.
    if rows.len() > MAX_SIDE {
        let message = format!(
            "the map has {} rows: at most {MAX_SIDE} a side and {MAX_CELLS} hexes",
            rows.len()
        );
        return Err(Diagnostic::at(file, source, map_key.0, map_key.1, message));
    }
    let mut width = None;
    let mut cells = Vec::new();
    for (row, text) in rows.iter().enumerate() {
        let at = |col: usize, msg: String| {
            Diagnostic::at(file, source, map_line + 1 + row, map_indent + col + 1, msg)
        };
        // A row of MAX_SIDE hexes is at most 2 × MAX_SIDE characters (odd rows are shifted).
        let longest = 2 * MAX_SIDE;
        if text.chars().take(longest + 1).count() > longest {
            return Err(at(
                longest,
                format!("row {row} is longer than {MAX_SIDE} hexes, the most a side may have"),
            ));
        }
        let count = read_row(row, text, &legend, &mut cells).map_err(|(col, m)| at(col, m))?;
        if count.saturating_mul(rows.len()) > MAX_CELLS {
            return Err(too_large(count));
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
    let name = raw.name.clone().unwrap_or_else(|| {
        std::path::Path::new(file)
            .file_stem()
            .map_or("board".into(), |s| s.to_string_lossy().into_owned())
    });
    let (width, height) = (width.unwrap_or(0), rows.len());
    Board::new(name, width, height, cells).map_err(|e| match e {
        BoardError::SecondComputer { cell, .. } => {
            let (col, row) = (cell.index() % width, cell.index() / width);
            let col = map_indent + (row & 1) + 2 * col + 1;
            Diagnostic::at(file, source, map_line + 1 + row, col, e.to_string())
        }
        _ => Diagnostic::at(file, source, map_key.0, map_key.1, e.to_string()),
    })
}

/// The legend: the default symbols and the file's own, each checked where it is written.
fn read_legend(
    file: &str,
    source: &str,
    entries: &BTreeMap<String, LegendEntry>,
) -> Result<BTreeMap<char, Cell>, Diagnostic> {
    let legend_key = crate::text::yaml::locate_key(source, "legend", 1).unwrap_or((1, 1));
    let mut legend = default_legend();
    for (symbol, entry) in entries {
        let at = crate::text::yaml::locate_text(source, &format!("{symbol}:"), legend_key.0)
            .or_else(|| {
                crate::text::yaml::locate_text(source, &format!("\"{symbol}\""), legend_key.0)
            })
            .unwrap_or(legend_key);
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
    Ok(legend)
}

/// One row of the map: its hexes appended to `cells`; returns how many. An error is the
/// character column it is about and the message.
fn read_row(
    row: usize,
    text: &str,
    legend: &BTreeMap<char, Cell>,
    cells: &mut Vec<Cell>,
) -> Result<usize, (usize, String)> {
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
        return Err((0, msg));
    }
    let mut count = 0;
    for (char_col, ch) in text.chars().enumerate().skip(indent) {
        let hex_index = (char_col - indent) / 2;
        if (char_col - indent) % 2 == 1 {
            if ch != ' ' {
                return Err((
                    char_col,
                    format!(
                        "expected a space between hexes, found `{ch}`: hexes are one character each, separated by one space"
                    ),
                ));
            }
            continue;
        }
        let Some(cell) = legend.get(&ch) else {
            let known: Vec<String> = legend.keys().map(|k| format!("`{k}`")).collect();
            return Err((
                char_col,
                format!(
                    "unknown map symbol `{ch}` (hex {hex_index} of row {row}): add it to the legend, or use one of {}",
                    known.join(" ")
                ),
            ));
        };
        cells.push(*cell);
        count += 1;
    }
    Ok(count)
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
