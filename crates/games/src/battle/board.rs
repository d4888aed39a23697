//! The hex board: terrain per hex, camps, start points, computers, and the neighbour table the
//! engine walks. Built once from a board file; never changes during a match.

use crate::battle::hex::{Direction, Hex};
use crate::battle::terrain::{TeamColour, Terrain};

/// A hex of the board, as an index into its cells (row-major over offset coordinates). A
/// board has at most [`MAX_CELLS`] cells, so every index fits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CellId(u16);

impl CellId {
    /// The index into the board's arrays.
    #[inline]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The cell at an index of a board's arrays (below [`MAX_CELLS`]).
    fn at(index: usize) -> CellId {
        CellId(u16::try_from(index).expect("a board has at most MAX_CELLS cells"))
    }
}

impl std::fmt::Display for CellId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

const OFF_BOARD: CellId = CellId(u16::MAX);

/// The largest board: at most 200 hexes a side and 16,000 in all.
pub const MAX_SIDE: usize = 200;
pub const MAX_CELLS: usize = 16_000;

/// Why cells cannot make a board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    #[error("the map has no hexes")]
    Empty,
    #[error("the map is {width}×{height} hexes: at most {MAX_SIDE}×{MAX_SIDE} and 16,000 hexes")]
    TooLarge { width: usize, height: usize },
    #[error("the cells do not fill a {width}×{height} rectangle")]
    NotARectangle { width: usize, height: usize },
    /// The second computer found for one camp.
    #[error("a second central computer for the {colour} camp: one per camp")]
    SecondComputer { cell: CellId, colour: TeamColour },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    pub terrain: Terrain,
    /// The camp this hex belongs to, if any.
    pub camp: Option<TeamColour>,
    /// A start point (a hollow ring): in a camp, or outside every camp ("outer").
    pub start: bool,
}

#[derive(Clone, Debug)]
pub struct Board {
    pub name: String,
    pub width: usize,
    pub height: usize,
    cells: Vec<Cell>,
    hexes: Vec<Hex>,
    neighbours: Vec<[CellId; 6]>,
    /// For boards up to [`RELATION_LIMIT`] cells, per ordered pair of cells: the distance
    /// (high byte) and the direction of the straight line from the first to the second, or
    /// [`NOT_IN_LINE`] (low byte). Tests ask this in their hottest loop.
    relations: Vec<u16>,
    /// Each hex's terrain classes as bits ([`classes_of`]), what compiled tests ask.
    classes: Vec<u64>,
    /// Per cell and direction (`cell * 6 + direction`): the terrain classes of the hexes 1
    /// and 2 along the line, [`EDGE_CLASS`] once it has left the board (R-A22).
    near: Vec<[u64; 2]>,
    /// Per team colour (its index), the start points it may take (its camp's and the outer
    /// ones), in cell order.
    starts: [Vec<CellId>; 6],
}

/// Off the board, as a terrain class bit (see [`classes_of`]).
pub const EDGE_CLASS: u64 = 1 << 63;

/// A kind of ground as a terrain class bit: plain 0, lake 1, lightning 2, the shapes 3–20
/// (form × colour), the computers 21–26 (camp colour).
pub fn ground_class(terrain: Terrain) -> u64 {
    use crate::battle::terrain::{Form, ShapeColour};
    let bit = match terrain {
        Terrain::Plain => 0,
        Terrain::Lake => 1,
        Terrain::Lightning => 2,
        Terrain::Shape(form, colour) => {
            let f = Form::ALL.iter().position(|&x| x == form).unwrap_or(0);
            let c = ShapeColour::ALL
                .iter()
                .position(|&x| x == colour)
                .unwrap_or(0);
            3 + 6 * f + c
        }
        Terrain::Computer(camp) => 21 + camp.index(),
    };
    1 << bit
}

/// A camp's colour as a terrain class bit: 27–32.
pub fn camp_class(colour: TeamColour) -> u64 {
    1 << (27 + colour.index())
}

/// A hex's terrain classes: its ground, and its camp if it is in one.
pub fn classes_of(cell: &Cell) -> u64 {
    ground_class(cell.terrain) | cell.camp.map_or(0, camp_class)
}

/// The largest board that gets a table of cell-to-cell relations (8 MB at most).
pub const RELATION_LIMIT: usize = 2048;
/// The direction byte of two cells not on one straight line.
pub const NOT_IN_LINE: u8 = u8::MAX;

impl Board {
    /// A board from its cells, row by row: a rectangle of at most [`MAX_CELLS`] hexes, with
    /// at most one central computer per camp.
    pub fn new(
        name: String,
        width: usize,
        height: usize,
        cells: Vec<Cell>,
    ) -> Result<Board, BoardError> {
        if width == 0 || height == 0 {
            return Err(BoardError::Empty);
        }
        if width > MAX_SIDE || height > MAX_SIDE || width * height > MAX_CELLS {
            return Err(BoardError::TooLarge { width, height });
        }
        if cells.len() != width * height {
            return Err(BoardError::NotARectangle { width, height });
        }
        let coordinate = |n: usize| i32::try_from(n).expect("at most MAX_SIDE");
        let hexes: Vec<Hex> = (0..cells.len())
            .map(|i| Hex::from_offset(coordinate(i % width), coordinate(i / width)))
            .collect();
        let mut board = Board {
            name,
            width,
            height,
            cells,
            hexes,
            neighbours: Vec::new(),
            relations: Vec::new(),
            classes: Vec::new(),
            near: Vec::new(),
            starts: Default::default(),
        };
        board.classes = board.cells.iter().map(classes_of).collect();
        board.neighbours = board
            .hexes
            .iter()
            .map(|&h| Direction::ALL.map(|d| board.cell_at(h.step(d, 1)).unwrap_or(OFF_BOARD)))
            .collect();
        if board.len() <= RELATION_LIMIT {
            let hexes = &board.hexes;
            board.relations = hexes
                .iter()
                .flat_map(|&a| hexes.iter().map(move |&b| pack_relation(a, b)))
                .collect();
        }
        board.near = board.near_classes();
        board.starts = TeamColour::ALL.map(|colour| {
            board
                .cells()
                .filter(|(_, c)| c.start && c.camp.is_none_or(|camp| camp == colour))
                .map(|(id, _)| id)
                .collect()
        });
        board.check_computers()?;
        Ok(board)
    }

    /// At most one computer per camp: the error names the second one found.
    fn check_computers(&self) -> Result<(), BoardError> {
        for colour in TeamColour::ALL {
            let mut computers = self
                .cells()
                .filter(|(_, c)| c.terrain == Terrain::Computer(colour));
            if let (Some(_), Some((cell, _))) = (computers.next(), computers.next()) {
                return Err(BoardError::SecondComputer { cell, colour });
            }
        }
        Ok(())
    }

    pub fn len(&self) -> usize {
        self.cells.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    #[inline]
    pub fn cell(&self, id: CellId) -> &Cell {
        &self.cells[id.index()]
    }

    /// The cell of an index below [`Board::len`], if it is one.
    pub fn cell_id(&self, index: usize) -> Option<CellId> {
        (index < self.len()).then(|| CellId::at(index))
    }

    pub fn cells(&self) -> impl Iterator<Item = (CellId, &Cell)> {
        self.cells
            .iter()
            .enumerate()
            .map(|(i, c)| (CellId::at(i), c))
    }

    /// The terrain classes 1 and 2 hexes along a line from `id` ([`EDGE_CLASS`] once off
    /// the board), from a table.
    #[inline]
    pub fn near(&self, id: CellId, dir: Direction) -> [u64; 2] {
        self.near[id.index() * 6 + dir.index()]
    }

    fn near_classes(&self) -> Vec<[u64; 2]> {
        let mut out = Vec::with_capacity(self.len() * 6);
        for (id, _) in self.cells() {
            for dir in Direction::ALL {
                let first = self.neighbour(id, dir);
                let second = first.and_then(|c| self.neighbour(c, dir));
                let class = |c: Option<CellId>| c.map_or(EDGE_CLASS, |c| self.classes(c));
                out.push([class(first), class(second)]);
            }
        }
        out
    }

    /// A hex's terrain classes ([`classes_of`]), from a table.
    #[inline]
    pub fn classes(&self, id: CellId) -> u64 {
        self.classes[id.index()]
    }

    #[inline]
    pub fn hex(&self, id: CellId) -> Hex {
        self.hexes[id.index()]
    }

    /// The cell at a hex, if the hex is on the board.
    pub fn cell_at(&self, hex: Hex) -> Option<CellId> {
        let (col, row) = hex.to_offset();
        self.cell_at_offset(col, row)
    }

    /// The cell at offset coordinates `(col, row)`, as files write them.
    pub fn cell_at_offset(&self, col: i32, row: i32) -> Option<CellId> {
        let col = usize::try_from(col).ok().filter(|&c| c < self.width)?;
        let row = usize::try_from(row).ok().filter(|&r| r < self.height)?;
        Some(CellId::at(row * self.width + col))
    }

    /// The cell at column `col` of row `row`, if both are inside the board.
    pub fn cell_at_position(&self, col: usize, row: usize) -> Option<CellId> {
        (col < self.width && row < self.height).then(|| CellId::at(row * self.width + col))
    }

    /// `(col, row)` of a cell, as files and drawings write it.
    pub fn offset(&self, id: CellId) -> (usize, usize) {
        (id.index() % self.width, id.index() / self.width)
    }

    /// The distance from `a` to `b`, and the direction index (0–5) of the straight line from
    /// `a` that holds `b`, or [`NOT_IN_LINE`]. From a table on boards up to
    /// [`RELATION_LIMIT`] cells.
    #[inline]
    pub fn relation(&self, a: CellId, b: CellId) -> (u32, u8) {
        match self.relations.get(a.index() * self.len() + b.index()) {
            Some(&r) => unpack_relation(r),
            None => {
                let (ha, hb) = (self.hex(a), self.hex(b));
                (ha.distance(hb), line_between(ha, hb))
            }
        }
    }

    /// The table of relations ([`Board::packed_relation`]), cell `a` to cell `b` at
    /// `a * len + b`; empty past [`RELATION_LIMIT`] cells.
    #[inline]
    pub fn relation_table(&self) -> &[u16] {
        &self.relations
    }

    /// The relation from `a` to `b` as the table holds it: the distance (capped at 255) in
    /// the high byte, the line's direction index or [`NOT_IN_LINE`] in the low one.
    pub fn packed_relation(&self, a: CellId, b: CellId) -> u16 {
        pack_relation(self.hex(a), self.hex(b))
    }

    /// The adjacent cell in `dir`, or `None` past the edge (precomputed).
    #[inline]
    pub fn neighbour(&self, id: CellId, dir: Direction) -> Option<CellId> {
        let n = self.neighbours[id.index()][dir.index()];
        (n != OFF_BOARD).then_some(n)
    }

    pub fn has_camp(&self, colour: TeamColour) -> bool {
        self.cells.iter().any(|c| c.camp == Some(colour))
    }

    pub fn computer_of(&self, colour: TeamColour) -> Option<CellId> {
        self.cells()
            .find(|(_, c)| c.terrain == Terrain::Computer(colour))
            .map(|(id, _)| id)
    }

    /// Start points a team may use: those of its own camp and the outer ones (RULES A.7).
    pub fn start_points_for(&self, colour: TeamColour) -> impl Iterator<Item = CellId> + '_ {
        self.starts[colour.index()].iter().copied()
    }

    /// The team colours that have a camp on this board, in rule order.
    pub fn camp_colours(&self) -> Vec<TeamColour> {
        TeamColour::ALL
            .into_iter()
            .filter(|&c| self.has_camp(c))
            .collect()
    }
}

/// The relation from `a` to `b` as the table packs it: the distance (capped at 255) in the
/// high byte, the direction index of the line, or [`NOT_IN_LINE`], in the low one. The one
/// encoding; [`unpack_relation`] the one decoding.
fn pack_relation(a: Hex, b: Hex) -> u16 {
    let distance = u16::try_from(a.distance(b).min(255)).unwrap_or(255);
    distance << 8 | u16::from(line_between(a, b))
}

/// A packed relation ([`Board::relation_table`]): the distance (capped at 255) and the
/// direction index of the line, or [`NOT_IN_LINE`].
#[inline]
pub fn unpack_relation(packed: u16) -> (u32, u8) {
    let [distance, line] = packed.to_be_bytes();
    (u32::from(distance), line)
}

/// The direction index (0–5) of the straight line from `a` that holds `b`, or
/// [`NOT_IN_LINE`].
fn line_between(a: Hex, b: Hex) -> u8 {
    (0u8..)
        .zip(Direction::ALL)
        .find(|&(_, d)| a.along(d, b).is_some())
        .map_or(NOT_IN_LINE, |(i, _)| i)
}
