//! Micro Robots files (docs/FORMATS.md): a face (four tiles), or a board (six rows, or a face
//! and a layout). This layer only reads the YAML text: the rules are the domain types' own
//! ([`Board::from_rows`], [`Face::new`], [`Arrangement::from_layout`]), and their typed errors
//! become located [`Diagnostic`]s here.

use super::board::{Arrangement, ArrangementError, Board, Cell, Face, POSITIONS, Tile};
use crate::text::diagnostic::Diagnostic;
use crate::text::yaml;
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FaceFile {
    face: String,
    /// Read and ignored: a note for whoever edits the file.
    #[serde(default, rename = "description")]
    _description: Option<String>,
    tiles: Vec<TileFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TileFile {
    rows: Vec<Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardFile {
    #[serde(default)]
    name: Option<String>,
    /// Read and ignored: a note for whoever edits the file.
    #[serde(default, rename = "description")]
    _description: Option<String>,
    /// A whole board, six rows of six cells.
    rows: Option<Vec<Vec<String>>>,
    /// Or a face (a shipped name or a path) and where its tiles go.
    face: Option<String>,
    layout: Option<BTreeMap<String, [u8; 2]>>,
}

/// A face file, or a board file (rows, or a face with a layout).
pub enum MicroFile {
    Face(Face),
    Board(Board),
}

/// How a board file's `face:` is found: a shipped face's name or a path, to a face or to why
/// it cannot be used (the message of the error at `face:`).
pub type ReadFace<'a> = &'a dyn Fn(&str) -> Result<Face, String>;

/// One file's text, to locate errors in.
struct Source<'a> {
    file: &'a str,
    text: &'a str,
}

impl Source<'_> {
    /// An error at a top-level key (or at the start when the key is not there).
    fn at_key(&self, key: &str, message: impl Into<String>) -> Diagnostic {
        let (l, c) = yaml::locate_key(self.text, key, 1).unwrap_or((1, 1));
        Diagnostic::at(self.file, self.text, l, c, message)
    }

    /// An error at the first place `text` appears (or at the start).
    fn at_text(&self, text: &str, message: String) -> Diagnostic {
        let (l, c) = yaml::locate_text(self.text, text, 1).unwrap_or((1, 1));
        Diagnostic::at(self.file, self.text, l, c, message)
    }

    /// A square of cells, `N` rows of `N`.
    fn cell_grid<const N: usize>(
        &self,
        rows: &[Vec<String>],
        what: &str,
    ) -> Result<[[Cell; N]; N], Diagnostic> {
        if rows.len() != N {
            return Err(self.at_text("rows", format!("{what} has {N} rows, not {}", rows.len())));
        }
        let mut grid = [[Cell::FIRST; N]; N];
        for (r, row) in rows.iter().enumerate() {
            if row.len() != N {
                let first = row.first().map_or("rows", String::as_str);
                return Err(self.at_text(
                    first,
                    format!("{what}: row {} has {} cells, not {N}", r + 1, row.len()),
                ));
            }
            for (c, text) in row.iter().enumerate() {
                grid[r][c] = Cell::parse(text).ok_or_else(|| {
                    self.at_text(text, format!("`{text}` is not a cell: a colour letter (B Y G R P W) and a number 1–6, such as P1"))
                })?;
            }
        }
        Ok(grid)
    }

    fn face(&self) -> Result<Face, Diagnostic> {
        let raw: FaceFile = yaml::from_str(self.file, self.text)?;
        if raw.tiles.len() != 4 {
            return Err(self.at_key(
                "tiles",
                format!("a face has 4 tiles, not {}", raw.tiles.len()),
            ));
        }
        let mut tiles: [Tile; 4] = [[[Cell::FIRST; 3]; 3]; 4];
        for (i, t) in raw.tiles.iter().enumerate() {
            tiles[i] = self.cell_grid::<3>(&t.rows, &format!("tile {}", i + 1))?;
        }
        Face::new(raw.face, tiles).map_err(|e| self.at_key("tiles", e.to_string()))
    }

    fn board(&self, read_face: ReadFace) -> Result<Board, Diagnostic> {
        let raw: BoardFile = yaml::from_str(self.file, self.text)?;
        let name = raw.name.clone().unwrap_or_else(|| {
            std::path::Path::new(self.file)
                .file_stem()
                .map_or("board".into(), |s| s.to_string_lossy().into_owned())
        });
        match (&raw.rows, &raw.face) {
            (Some(rows), None) => {
                let cells = self.cell_grid::<6>(rows, "a board")?;
                Board::from_rows(name, cells).map_err(|e| self.at_key("rows", e.to_string()))
            }
            (None, Some(face_name)) => {
                let face = read_face(face_name).map_err(|e| self.at_key("face", e))?;
                let layout = raw.layout.clone().unwrap_or_default();
                let arrangement = self.arrangement(&layout)?;
                Ok(Board::arrange(&face, arrangement).renamed(name))
            }
            _ => Err(self.at_key(
                if raw.rows.is_some() { "face" } else { "name" },
                "a Micro Robots file has `tiles:` (a face), `rows:` (a whole board), or `face:` with an optional `layout:`",
            )),
        }
    }

    /// The arrangement a `layout:` gives (none: the plain arrangement).
    fn arrangement(&self, layout: &BTreeMap<String, [u8; 2]>) -> Result<Arrangement, Diagnostic> {
        if layout.is_empty() {
            return Ok(Arrangement::PLAIN);
        }
        let placements =
            POSITIONS.map(|position| layout.get(position).map(|&[tile, turns]| (tile, turns)));
        let arrangement = Arrangement::from_layout(placements).map_err(|e| match e {
            ArrangementError::Missing(_) => self.at_key("layout", e.to_string()),
            ArrangementError::Placement { corner, .. } => self.at_key(corner.name(), e.to_string()),
        })?;
        if let Some(extra) = layout.keys().find(|k| !POSITIONS.contains(&k.as_str())) {
            return Err(self.at_key(
                extra,
                format!("unknown position `{extra}`: expected NW, NE, SE, SW"),
            ));
        }
        Ok(arrangement)
    }
}

/// Reads a face file or a board file. `read_face` finds the face a board file names.
pub fn parse(file: &str, source: &str, read_face: ReadFace) -> Result<MicroFile, Diagnostic> {
    let source = Source { file, text: source };
    if yaml::top_level_keys(source.text)
        .iter()
        .any(|k| k == "tiles")
    {
        source.face().map(MicroFile::Face)
    } else {
        source.board(read_face).map(MicroFile::Board)
    }
}

/// Reads a face file, for a board file's `face:` (or a command that wants a face). A board
/// file here is an error: a board's face is a face file, never another board, so a board that
/// names itself (or two that name each other) cannot send the reading round in a loop.
pub fn parse_face(file: &str, source: &str) -> Result<Face, Diagnostic> {
    let source = Source { file, text: source };
    if yaml::top_level_keys(source.text)
        .iter()
        .any(|k| k == "tiles")
    {
        source.face()
    } else {
        Err(Diagnostic::whole_file(
            file,
            "a board file, where a face (four tiles) was expected",
        ))
    }
}
