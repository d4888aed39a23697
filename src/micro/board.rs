//! Micro Robots boards (RULES C.1): 6×6 cells, each a colour and a number, every combination
//! exactly once. A board is the four 3×3 tiles of one face placed at NW, NE, SE, SW, each
//! turned 0–3 quarter turns clockwise, or a whole board written row by row.

use crate::text::diagnostic::Diagnostic;
use serde::Deserialize;
use std::fmt;

/// The six colours of the colour die, with the letters cells are written with.
pub const COLOURS: [(char, &str); 6] = [
    ('B', "blue"),
    ('Y', "yellow"),
    ('G', "green"),
    ('R', "red"),
    ('P', "pink"),
    ('W', "white"),
];

/// A cell's face value: a colour (0–5, in [`COLOURS`] order) and a number 1–6. Written `P1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    pub fn new(colour: usize, number: u8) -> Cell {
        debug_assert!(colour < 6 && (1..=6).contains(&number));
        Cell((colour * 6) as u8 + number - 1)
    }

    /// The 36 cells, `B1` … `W6`.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..36u8).map(Cell)
    }

    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    pub fn colour(self) -> usize {
        usize::from(self.0 / 6)
    }

    pub fn number(self) -> u8 {
        self.0 % 6 + 1
    }

    /// Shares a colour or a number: the robot may stop on `other` after leaving `self`.
    pub fn matches(self, other: Cell) -> bool {
        self.colour() == other.colour() || self.number() == other.number()
    }

    /// `P1`, `w2`: a colour letter and a number.
    pub fn parse(text: &str) -> Option<Cell> {
        let mut chars = text.trim().chars();
        let (letter, digit, rest) = (chars.next()?, chars.next()?, chars.next());
        if rest.is_some() {
            return None;
        }
        let colour = COLOURS
            .iter()
            .position(|(l, _)| *l == letter.to_ascii_uppercase())?;
        let number = digit.to_digit(10).filter(|n| (1..=6).contains(n))? as u8;
        Some(Cell::new(colour, number))
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", COLOURS[self.colour()].0, self.number())
    }
}

impl serde::Serialize for Cell {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A 3×3 tile, rows top to bottom.
pub type Tile = [[Cell; 3]; 3];

/// The corners of the board, in the order arrangements list them.
pub const POSITIONS: [&str; 4] = ["NW", "NE", "SE", "SW"];

/// A tile turned clockwise `turns` quarter turns.
pub fn rotate(tile: &Tile, turns: u8) -> Tile {
    let mut t = *tile;
    for _ in 0..turns % 4 {
        let mut next = t;
        for (r, row) in next.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                // Clockwise: the new row r, column c comes from old row 2 - c, column r.
                *cell = t[2 - c][r];
            }
        }
        t = next;
    }
    t
}

/// One face of the four tiles (silver or copper).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Face {
    pub name: String,
    pub tiles: [Tile; 4],
}

/// Which tile (0–3, the face's order) lies at each position NW, NE, SE, SW, and its turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Arrangement {
    pub tiles: [u8; 4],
    pub turns: [u8; 4],
}

impl Arrangement {
    /// Tiles 1–4 at NW, NE, SE, SW, unturned.
    pub const PLAIN: Arrangement = Arrangement {
        tiles: [0, 1, 2, 3],
        turns: [0; 4],
    };
}

impl fmt::Display for Arrangement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = (0..4)
            .map(|p| {
                format!(
                    "{} tile {} turned {}",
                    POSITIONS[p],
                    self.tiles[p] + 1,
                    self.turns[p]
                )
            })
            .collect();
        f.write_str(&parts.join(", "))
    }
}

/// A 6×6 board: `cells[row][col]`, and where each cell is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub name: String,
    pub cells: [[Cell; 6]; 6],
    /// `at[cell.index()]`: row * 6 + col.
    pub at: [u8; 36],
}

impl Board {
    /// A board from its rows; `Err` names duplicated and missing cells (the invariant).
    pub fn from_rows(name: String, cells: [[Cell; 6]; 6]) -> Result<Board, String> {
        let mut seen = [0u8; 36];
        for cell in cells.iter().flatten() {
            seen[cell.index()] += 1;
        }
        let duplicated: Vec<String> = Cell::all()
            .filter(|c| seen[c.index()] > 1)
            .map(|c| c.to_string())
            .collect();
        let missing: Vec<String> = Cell::all()
            .filter(|c| seen[c.index()] == 0)
            .map(|c| c.to_string())
            .collect();
        if !duplicated.is_empty() {
            let (appear, are) = if duplicated.len() == 1 {
                ("appears", "is")
            } else {
                ("appear", "are")
            };
            return Err(format!(
                "each colour and number must appear exactly once: {} {appear} more than once, {} {are} missing",
                duplicated.join(" "),
                missing.join(" ")
            ));
        }
        let mut at = [0u8; 36];
        for (r, row) in cells.iter().enumerate() {
            for (c, cell) in row.iter().enumerate() {
                at[cell.index()] = (r * 6 + c) as u8;
            }
        }
        Ok(Board { name, cells, at })
    }

    /// The board a face's tiles make in an arrangement.
    pub fn arrange(face: &Face, a: Arrangement) -> Board {
        let mut cells = [[Cell(0); 6]; 6];
        let origin = [(0, 0), (0, 3), (3, 3), (3, 0)];
        for (p, &(r0, c0)) in origin.iter().enumerate() {
            let tile = rotate(&face.tiles[usize::from(a.tiles[p])], a.turns[p]);
            for r in 0..3 {
                for c in 0..3 {
                    cells[r0 + r][c0 + c] = tile[r][c];
                }
            }
        }
        Board::from_rows(format!("{} ({a})", face.name), cells)
            .expect("a valid face makes a valid board")
    }

    pub fn cell_at(&self, pos: usize) -> Cell {
        self.cells[pos / 6][pos % 6]
    }

    pub fn position(&self, cell: Cell) -> usize {
        usize::from(self.at[cell.index()])
    }
}

/// Draws a board: one row of cells a line. With `colour`, each cell in its colour (ANSI).
pub fn render(board: &Board, colour: bool) -> String {
    let ansi = ["34", "33", "32", "31", "35", "37"];
    let mut out = String::new();
    for row in &board.cells {
        let cells: Vec<String> = row
            .iter()
            .map(|c| {
                if colour {
                    format!("\x1b[1;{}m{c}\x1b[0m", ansi[c.colour()])
                } else {
                    c.to_string()
                }
            })
            .collect();
        out.push_str(&cells[..3].join(" "));
        out.push_str(" | ");
        out.push_str(&cells[3..].join(" "));
        out.push('\n');
        if out.lines().count() == 3 {
            out.push_str("---------+---------\n");
        }
    }
    out.push_str("B blue  Y yellow  G green  R red  P pink  W white\n");
    out
}

// ------------------------------------------------------------------------------ files

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FaceFile {
    face: String,
    #[serde(default)]
    description: Option<String>,
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
    #[serde(default)]
    description: Option<String>,
    /// A whole board, six rows of six cells.
    rows: Option<Vec<Vec<String>>>,
    /// Or a face (a shipped name or a path) and where its tiles go.
    face: Option<String>,
    layout: Option<std::collections::BTreeMap<String, [u8; 2]>>,
}

/// A face file, or a board file (rows, or a face with a layout).
pub enum MicroFile {
    Face(Face),
    Board(Board),
}

fn cell_grid<const N: usize>(
    file: &str,
    source: &str,
    rows: &[Vec<String>],
    what: &str,
) -> Result<[[Cell; N]; N], Diagnostic> {
    let at_text = |text: &str| {
        crate::text::yaml::locate_text(source, text, 1).map_or_else(
            || Diagnostic::at(file, source, 1, 1, String::new()),
            |(l, c)| Diagnostic::at(file, source, l, c, String::new()),
        )
    };
    let error = |text: &str, message: String| Diagnostic {
        message,
        ..at_text(text)
    };
    if rows.len() != N {
        return Err(error(
            "rows",
            format!("{what} has {N} rows, not {}", rows.len()),
        ));
    }
    let mut grid = [[Cell(0); N]; N];
    for (r, row) in rows.iter().enumerate() {
        if row.len() != N {
            let first = row.first().map_or("rows", String::as_str);
            return Err(error(
                first,
                format!("{what}: row {} has {} cells, not {N}", r + 1, row.len()),
            ));
        }
        for (c, text) in row.iter().enumerate() {
            grid[r][c] = Cell::parse(text).ok_or_else(|| {
                error(text, format!("`{text}` is not a cell: a colour letter (B Y G R P W) and a number 1–6, such as P1"))
            })?;
        }
    }
    Ok(grid)
}

/// Reads a face file or a board file. `read_face` finds the face a board file names.
pub fn parse(
    file: &str,
    source: &str,
    read_face: &dyn Fn(&str) -> Result<Face, String>,
) -> Result<MicroFile, Diagnostic> {
    let keys = crate::text::yaml::top_level_keys(source);
    let where_key = |key: &str| crate::text::yaml::locate_key(source, key, 1).unwrap_or((1, 1));
    if keys.iter().any(|k| k == "tiles") {
        let raw: FaceFile = crate::text::yaml::from_str(file, source)?;
        let _ = &raw.description;
        if raw.tiles.len() != 4 {
            let (l, c) = where_key("tiles");
            return Err(Diagnostic::at(
                file,
                source,
                l,
                c,
                format!("a face has 4 tiles, not {}", raw.tiles.len()),
            ));
        }
        let mut tiles = [[[Cell(0); 3]; 3]; 4];
        for (i, t) in raw.tiles.iter().enumerate() {
            tiles[i] = cell_grid::<3>(file, source, &t.rows, &format!("tile {}", i + 1))?;
        }
        let face = Face {
            name: raw.face,
            tiles,
        };
        // The invariant, on the plain arrangement (any arrangement has the same cells).
        let mut cells = [[Cell(0); 6]; 6];
        for (p, origin) in [(0usize, (0, 0)), (1, (0, 3)), (2, (3, 3)), (3, (3, 0))] {
            for r in 0..3 {
                for c in 0..3 {
                    cells[origin.0 + r][origin.1 + c] = face.tiles[p][r][c];
                }
            }
        }
        Board::from_rows(face.name.clone(), cells).map_err(|m| {
            let (l, c) = where_key("tiles");
            Diagnostic::at(file, source, l, c, format!("the four tiles together: {m}"))
        })?;
        return Ok(MicroFile::Face(face));
    }
    let raw: BoardFile = crate::text::yaml::from_str(file, source)?;
    let _ = &raw.description;
    let name = raw.name.clone().unwrap_or_else(|| {
        std::path::Path::new(file)
            .file_stem()
            .map_or("board".into(), |s| s.to_string_lossy().into_owned())
    });
    match (&raw.rows, &raw.face) {
        (Some(rows), None) => {
            let cells = cell_grid::<6>(file, source, rows, "a board")?;
            let board = Board::from_rows(name, cells).map_err(|m| {
                let (l, c) = where_key("rows");
                Diagnostic::at(file, source, l, c, m)
            })?;
            Ok(MicroFile::Board(board))
        }
        (None, Some(face_name)) => {
            let (l, c) = where_key("face");
            let face = read_face(face_name).map_err(|m| Diagnostic::at(file, source, l, c, m))?;
            let layout = raw.layout.clone().unwrap_or_default();
            let mut a = Arrangement::PLAIN;
            let mut used = [false; 4];
            for (p, position) in POSITIONS.iter().enumerate() {
                let (l, c) = where_key(position);
                let Some([tile, turns]) = layout.get(*position).copied() else {
                    if layout.is_empty() {
                        // No layout: the plain arrangement.
                        break;
                    }
                    let (l, c) = where_key("layout");
                    return Err(Diagnostic::at(
                        file,
                        source,
                        l,
                        c,
                        format!("layout: {position} is missing (give NW, NE, SE and SW)"),
                    ));
                };
                if !(1..=4).contains(&tile) || turns > 3 || used[usize::from(tile - 1)] {
                    return Err(Diagnostic::at(
                        file,
                        source,
                        l,
                        c,
                        format!(
                            "{position}: [{tile}, {turns}]: a tile 1–4 not used elsewhere, and 0–3 quarter turns"
                        ),
                    ));
                }
                used[usize::from(tile - 1)] = true;
                a.tiles[p] = tile - 1;
                a.turns[p] = turns;
            }
            if let Some(extra) = layout.keys().find(|k| !POSITIONS.contains(&k.as_str())) {
                let (l, c) = where_key(extra);
                return Err(Diagnostic::at(
                    file,
                    source,
                    l,
                    c,
                    format!("unknown position `{extra}`: expected NW, NE, SE, SW"),
                ));
            }
            let mut board = Board::arrange(&face, a);
            board.name = name;
            Ok(MicroFile::Board(board))
        }
        _ => {
            let (l, c) = where_key(if raw.rows.is_some() { "face" } else { "name" });
            Err(Diagnostic::at(
                file,
                source,
                l,
                c,
                "a Micro Robots file has `tiles:` (a face), `rows:` (a whole board), or `face:` with an optional `layout:`",
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_quarter_turns_are_no_turn_and_one_turn_is_clockwise() {
        let t: Tile = [
            [Cell::new(0, 1), Cell::new(0, 2), Cell::new(0, 3)],
            [Cell::new(1, 1), Cell::new(1, 2), Cell::new(1, 3)],
            [Cell::new(2, 1), Cell::new(2, 2), Cell::new(2, 3)],
        ];
        assert_eq!(rotate(&t, 4), t);
        let once = rotate(&t, 1);
        // The left column, read bottom to top, becomes the top row.
        assert_eq!(once[0], [t[2][0], t[1][0], t[0][0]]);
    }

    #[test]
    fn cells_parse_and_print() {
        for c in Cell::all() {
            assert_eq!(Cell::parse(&c.to_string()), Some(c));
        }
        assert_eq!(Cell::parse("p1"), Cell::parse("P1"));
        assert_eq!(Cell::parse("X1"), None);
        assert_eq!(Cell::parse("P7"), None);
    }
}
