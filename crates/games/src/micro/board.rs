//! Micro Robots boards (RULES C.1): 6×6 cells, each a colour and a number, every combination
//! exactly once. A board is the four 3×3 tiles of one face placed at NW, NE, SE, SW, each
//! turned 0–3 quarter turns clockwise, or a whole board written row by row. The types here
//! own the rules: a [`Board`] or a [`Face`] that breaks the one-of-each invariant, or an
//! [`Arrangement`] that uses a tile twice, cannot be built ([`BoardError`], [`FaceError`],
//! [`ArrangementError`]).

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
    /// A placeholder while a grid is filled.
    pub(crate) const FIRST: Cell = Cell(0);

    /// The cell of a colour (0–5) and a number (1–6); `None` for anything the dice cannot show.
    pub fn new(colour: usize, number: u8) -> Option<Cell> {
        if !(1..=6).contains(&number) {
            return None;
        }
        let colour = u8::try_from(colour).ok().filter(|c| *c < 6)?;
        Some(Cell(colour * 6 + number - 1))
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
        let number = u8::try_from(digit.to_digit(10)?).ok()?;
        Cell::new(colour, number)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", COLOURS[self.colour()].0, self.number())
    }
}

/// A 3×3 tile, rows top to bottom.
pub type Tile = [[Cell; 3]; 3];

/// The cells of a whole board, `rows[row][col]`.
pub type Rows = [[Cell; 6]; 6];

/// The corners of the board, in the order arrangements list them.
pub const POSITIONS: [&str; 4] = ["NW", "NE", "SE", "SW"];

/// A corner of the board, where a tile lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Corner {
    NW,
    NE,
    SE,
    SW,
}

impl Corner {
    /// NW, NE, SE, SW: the order arrangements list them.
    pub const ALL: [Corner; 4] = [Corner::NW, Corner::NE, Corner::SE, Corner::SW];

    /// The corner's row and column on the board.
    fn origin(self) -> (usize, usize) {
        match self {
            Corner::NW => (0, 0),
            Corner::NE => (0, 3),
            Corner::SE => (3, 3),
            Corner::SW => (3, 0),
        }
    }

    pub fn name(self) -> &'static str {
        POSITIONS[self as usize]
    }
}

impl fmt::Display for Corner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

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

/// The one-of-each invariant broken: which cells appear twice or more, which never.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("each colour and number must appear exactly once: {}", one_of_each(.duplicated, .missing))]
pub struct BoardError {
    pub duplicated: Vec<Cell>,
    pub missing: Vec<Cell>,
}

fn one_of_each(duplicated: &[Cell], missing: &[Cell]) -> String {
    let list = |cells: &[Cell]| {
        let names: Vec<String> = cells.iter().map(Cell::to_string).collect();
        names.join(" ")
    };
    let (appear, are) = if duplicated.len() == 1 {
        ("appears", "is")
    } else {
        ("appear", "are")
    };
    format!(
        "{} {appear} more than once, {} {are} missing",
        list(duplicated),
        list(missing)
    )
}

/// A face's tiles that cannot make a board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FaceError {
    #[error("the four tiles together: {0}")]
    Tiles(#[from] BoardError),
}

/// One face of the four tiles (silver or copper): together they hold every cell once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Face {
    name: String,
    tiles: [Tile; 4],
}

impl Face {
    /// A face from its tiles, checked against the invariant (any arrangement has the same
    /// cells, so the plain one is checked).
    pub fn new(name: String, tiles: [Tile; 4]) -> Result<Face, FaceError> {
        Board::validate(&lay(&tiles, Arrangement::PLAIN))?;
        Ok(Face { name, tiles })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn tiles(&self) -> &[Tile; 4] {
        &self.tiles
    }
}

/// An arrangement that is not one: a corner with no tile, or a tile used twice or turned
/// too far.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArrangementError {
    #[error("layout: {0} is missing (give NW, NE, SE and SW)")]
    Missing(Corner),
    #[error("{corner}: [{tile}, {turns}]: a tile 1–4 not used elsewhere, and 0–3 quarter turns")]
    Placement { corner: Corner, tile: u8, turns: u8 },
}

/// Which tile (0–3, the face's order) lies at each position NW, NE, SE, SW, and its turns
/// (0–3 quarter turns clockwise): each tile once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Arrangement {
    tiles: [u8; 4],
    turns: [u8; 4],
}

impl Arrangement {
    /// Tiles 1–4 at NW, NE, SE, SW, unturned.
    pub const PLAIN: Arrangement = Arrangement {
        tiles: [0, 1, 2, 3],
        turns: [0; 4],
    };

    /// Tiles 0–3 (the face's order) at NW, NE, SE, SW, each once, and their turns 0–3.
    pub fn new(tiles: [u8; 4], turns: [u8; 4]) -> Result<Arrangement, ArrangementError> {
        Arrangement::from_layout(std::array::from_fn(|p| {
            Some((tiles[p].saturating_add(1), turns[p]))
        }))
    }

    /// The tile (0–3, the face's order) at NW, NE, SE, SW.
    pub fn tiles(&self) -> [u8; 4] {
        self.tiles
    }

    /// The quarter turns of the tiles at NW, NE, SE, SW.
    pub fn turns(&self) -> [u8; 4] {
        self.turns
    }

    /// An arrangement from what lies at NW, NE, SE, SW: a tile numbered 1–4 as the face
    /// lists them, each used once, and 0–3 quarter turns. The first fault, in that order.
    pub fn from_layout(layout: [Option<(u8, u8)>; 4]) -> Result<Arrangement, ArrangementError> {
        let mut a = Arrangement::PLAIN;
        let mut used = [false; 4];
        for (p, corner) in Corner::ALL.into_iter().enumerate() {
            let (tile, turns) = layout[p].ok_or(ArrangementError::Missing(corner))?;
            let index = usize::from(tile)
                .checked_sub(1)
                .filter(|&i| i < 4 && !used[i] && turns <= 3)
                .ok_or(ArrangementError::Placement {
                    corner,
                    tile,
                    turns,
                })?;
            used[index] = true;
            a.tiles[p] = tile - 1;
            a.turns[p] = turns;
        }
        Ok(a)
    }
}

impl fmt::Display for Arrangement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = Corner::ALL
            .iter()
            .enumerate()
            .map(|(p, corner)| {
                format!(
                    "{corner} tile {} turned {}",
                    self.tiles[p] + 1,
                    self.turns[p]
                )
            })
            .collect();
        f.write_str(&parts.join(", "))
    }
}

/// The cells four tiles make in an arrangement (tiles indexed 0–3).
fn lay(tiles: &[Tile; 4], a: Arrangement) -> Rows {
    let mut cells = [[Cell::FIRST; 6]; 6];
    for (p, corner) in Corner::ALL.into_iter().enumerate() {
        let (r0, c0) = corner.origin();
        let tile = rotate(&tiles[usize::from(a.tiles[p])], a.turns[p]);
        for (r, row) in tile.iter().enumerate() {
            cells[r0 + r][c0..c0 + 3].copy_from_slice(row);
        }
    }
    cells
}

/// A 6×6 board holding every cell once, and where each cell is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    name: String,
    cells: Rows,
    /// `at[cell.index()]`: row * 6 + col.
    at: [u8; 36],
}

impl Board {
    /// The one-of-each invariant: `Err` names duplicated and missing cells.
    pub fn validate(cells: &Rows) -> Result<(), BoardError> {
        let mut seen = [0u8; 36];
        for cell in cells.iter().flatten() {
            seen[cell.index()] += 1;
        }
        let duplicated: Vec<Cell> = Cell::all().filter(|c| seen[c.index()] > 1).collect();
        if duplicated.is_empty() {
            return Ok(());
        }
        let missing = Cell::all().filter(|c| seen[c.index()] == 0).collect();
        Err(BoardError {
            duplicated,
            missing,
        })
    }

    /// A board from its rows, if they hold every cell once.
    pub fn from_rows(name: String, cells: Rows) -> Result<Board, BoardError> {
        Board::validate(&cells)?;
        let mut at = [0u8; 36];
        for (position, cell) in (0u8..).zip(cells.iter().flatten()) {
            at[cell.index()] = position;
        }
        Ok(Board { name, cells, at })
    }

    /// The board a face's tiles make in an arrangement.
    pub fn arrange(face: &Face, a: Arrangement) -> Board {
        Board::from_rows(format!("{} ({a})", face.name), lay(&face.tiles, a))
            .expect("a face holds every cell once, in any arrangement")
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The same board under another name.
    pub fn renamed(self, name: String) -> Board {
        Board { name, ..self }
    }

    /// The rows of cells, top to bottom.
    pub fn rows(&self) -> &Rows {
        &self.cells
    }

    pub fn cell_at(&self, pos: usize) -> Cell {
        self.cells[pos / 6][pos % 6]
    }

    pub fn position(&self, cell: Cell) -> usize {
        usize::from(self.at[cell.index()])
    }
}

impl TryFrom<Rows> for Board {
    type Error = BoardError;

    /// A board with no name from its rows.
    fn try_from(cells: Rows) -> Result<Board, BoardError> {
        Board::from_rows(String::new(), cells)
    }
}

/// The ANSI colour of each colour of [`COLOURS`].
const ANSI: [&str; 6] = ["34", "33", "32", "31", "35", "37"];

/// The colour letters in words, the last line of a drawing.
const COLOUR_LEGEND: &str = "B blue  Y yellow  G green  R red  P pink  W white\n";

/// A cell in its colour (bold), with `extra` ANSI attributes (`;7` reverse, `;4` underline).
fn coloured(c: Cell, extra: &str) -> String {
    format!("\x1b[1;{}{extra}m{c}\x1b[0m", ANSI[c.colour()])
}

/// Draws a board: one row of cells a line. With `colour`, each cell in its colour (ANSI).
pub fn render(board: &Board, colour: bool) -> String {
    let mut out = String::new();
    for row in &board.cells {
        let cells: Vec<String> = row
            .iter()
            .map(|c| {
                if colour {
                    coloured(*c, "")
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
    out.push_str(COLOUR_LEGEND);
    out
}

/// What a mission puts on the board: the robot, the waypoint (if any) and the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Marks {
    pub robot: Cell,
    pub via: Option<Cell>,
    pub target: Cell,
}

/// Draws a board with a mission on it: the robot's cell in brackets `[R1]`, the target's in
/// parentheses `(W2)`, the waypoint's in braces `{R3}`, and a legend saying so. With
/// `colour`, each cell in its colour, the robot's also in reverse video and the target's and
/// the waypoint's underlined; the brackets are there either way.
pub fn render_marked(board: &Board, marks: Marks, colour: bool) -> String {
    let slot = |c: Cell| {
        let (open, close, extra) = if c == marks.robot {
            ('[', ']', ";7")
        } else if c == marks.target {
            ('(', ')', ";4")
        } else if Some(c) == marks.via {
            ('{', '}', ";4")
        } else {
            (' ', ' ', "")
        };
        let text = if colour {
            coloured(c, extra)
        } else {
            c.to_string()
        };
        format!("{open}{text}{close}")
    };
    let mut out = String::new();
    for (r, row) in board.cells.iter().enumerate() {
        let half = |cells: &[Cell]| cells.iter().map(|c| slot(*c)).collect::<String>();
        let line = format!("{}|{}", half(&row[..3]), half(&row[3..]));
        out.push_str(line.trim_end());
        out.push('\n');
        if r == 2 {
            out.push_str("------------+------------\n");
        }
    }
    out.push_str(&format!(
        "[{}] the robot  ({}) the target",
        marks.robot, marks.target
    ));
    if let Some(via) = marks.via {
        out.push_str(&format!("  {{{via}}} the waypoint"));
    }
    out.push('\n');
    out.push_str(COLOUR_LEGEND);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(text: &str) -> Cell {
        Cell::parse(text).expect("a cell")
    }

    /// Every cell once, colour by row.
    fn plain_rows() -> Rows {
        let mut rows = [[Cell::FIRST; 6]; 6];
        for (c, cell) in Cell::all().enumerate() {
            rows[c / 6][c % 6] = cell;
        }
        rows
    }

    #[test]
    fn four_quarter_turns_are_no_turn_and_one_turn_is_clockwise() {
        let t: Tile = [
            [cell("B1"), cell("B2"), cell("B3")],
            [cell("Y1"), cell("Y2"), cell("Y3")],
            [cell("G1"), cell("G2"), cell("G3")],
        ];
        assert_eq!(rotate(&t, 4), t);
        let once = rotate(&t, 1);
        // The left column, read bottom to top, becomes the top row.
        assert_eq!(once[0], [t[2][0], t[1][0], t[0][0]]);
    }

    #[test]
    fn a_mission_is_marked_on_the_drawing_with_a_legend() {
        let board = Board::try_from(plain_rows()).expect("every cell once");
        let marks = Marks {
            robot: cell("B1"),
            via: Some(cell("Y6")),
            target: cell("W6"),
        };
        let drawn = render_marked(&board, marks, false);
        let lines: Vec<&str> = drawn.lines().collect();
        assert_eq!(lines[0], "[B1] B2  B3 | B4  B5  B6");
        assert_eq!(lines[1], " Y1  Y2  Y3 | Y4  Y5 {Y6}");
        assert_eq!(lines[3], "------------+------------");
        assert_eq!(lines[6], " W1  W2  W3 | W4  W5 (W6)");
        assert_eq!(
            lines[7],
            "[B1] the robot  (W6) the target  {Y6} the waypoint"
        );
        let coloured = render_marked(&board, marks, true);
        assert!(coloured.contains("[\x1b[1;34;7mB1\x1b[0m]"));
        assert!(coloured.contains("{\x1b[1;33;4mY6\x1b[0m}"));
    }

    #[test]
    fn cells_parse_and_print() {
        for c in Cell::all() {
            assert_eq!(Cell::parse(&c.to_string()), Some(c));
        }
        assert_eq!(Cell::parse("p1"), Cell::parse("P1"));
        assert_eq!(Cell::parse("X1"), None);
        assert_eq!(Cell::parse("P7"), None);
        assert_eq!(Cell::new(6, 1), None);
        assert_eq!(Cell::new(0, 0), None);
    }

    #[test]
    fn a_board_holds_every_cell_once() {
        let rows = plain_rows();
        let board = Board::try_from(rows).expect("every cell once");
        for c in Cell::all() {
            assert_eq!(board.cell_at(board.position(c)), c);
        }
        let mut twice = rows;
        twice[5][5] = cell("B1");
        let error = Board::try_from(twice).expect_err("B1 twice");
        assert_eq!(error.duplicated, [cell("B1")]);
        assert_eq!(error.missing, [cell("W6")]);
        assert_eq!(
            error.to_string(),
            "each colour and number must appear exactly once: B1 appears more than once, W6 is missing"
        );
    }

    #[test]
    fn a_face_and_an_arrangement_check_their_rules() {
        let rows = plain_rows();
        let tile = |r0: usize, c0: usize| -> Tile {
            std::array::from_fn(|r| std::array::from_fn(|c| rows[r0 + r][c0 + c]))
        };
        let tiles = [tile(0, 0), tile(0, 3), tile(3, 3), tile(3, 0)];
        let face = Face::new("plain".into(), tiles).expect("a face");
        assert_eq!(Board::arrange(&face, Arrangement::PLAIN).rows(), &rows);
        let same = [tiles[0], tiles[0], tiles[2], tiles[3]];
        assert!(matches!(
            Face::new("twice".into(), same),
            Err(FaceError::Tiles(_))
        ));
        let layout = [Some((2, 1)), Some((1, 0)), Some((4, 3)), Some((3, 2))];
        let a = Arrangement::from_layout(layout).expect("an arrangement");
        assert_eq!((a.tiles(), a.turns()), ([1, 0, 3, 2], [1, 0, 3, 2]));
        assert_eq!(Arrangement::new([1, 0, 3, 2], [1, 0, 3, 2]), Ok(a));
        assert!(Arrangement::new([1, 1, 3, 2], [0; 4]).is_err());
        let used_twice = [Some((2, 1)), Some((2, 0)), None, None];
        assert_eq!(
            Arrangement::from_layout(used_twice),
            Err(ArrangementError::Placement {
                corner: Corner::NE,
                tile: 2,
                turns: 0
            })
        );
        let missing = [Some((1, 0)), Some((2, 0)), None, Some((4, 4))];
        assert_eq!(
            Arrangement::from_layout(missing),
            Err(ArrangementError::Missing(Corner::SE))
        );
        let too_far = [Some((1, 4)), None, None, None];
        assert!(Arrangement::from_layout(too_far).is_err());
    }
}
