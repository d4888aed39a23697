//! The hex board: terrain per hex, camps, start points, computers, and the neighbour table the
//! engine walks. Built once from a board file; never changes during a match.

use crate::battle::hex::{Direction, Hex};
use crate::battle::terrain::{TeamColour, Terrain};

/// A hex of the board, as an index into its cells (row-major over offset coordinates).
pub type CellId = u16;

const OFF_BOARD: CellId = CellId::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    pub terrain: Terrain,
    /// The camp this hex belongs to, if any.
    pub camp: Option<TeamColour>,
    /// A start point (a black dot): in a camp, or outside every camp ("outer").
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
}

/// The largest board that gets a table of cell-to-cell relations (8 MB at most).
pub const RELATION_LIMIT: usize = 2048;
/// The direction byte of two cells not on one straight line.
pub const NOT_IN_LINE: u8 = u8::MAX;

impl Board {
    /// A board from its cells, row by row. The caller has checked `cells.len() == width * height`.
    pub fn new(name: String, width: usize, height: usize, cells: Vec<Cell>) -> Board {
        assert_eq!(
            cells.len(),
            width * height,
            "board cells must fill the rectangle"
        );
        let hexes: Vec<Hex> = (0..cells.len())
            .map(|i| Hex::from_offset((i % width) as i32, (i / width) as i32))
            .collect();
        let mut board = Board {
            name,
            width,
            height,
            cells,
            hexes,
            neighbours: Vec::new(),
            relations: Vec::new(),
        };
        board.neighbours = board
            .hexes
            .iter()
            .map(|&h| Direction::ALL.map(|d| board.cell_at(h.step(d, 1)).unwrap_or(OFF_BOARD)))
            .collect();
        if board.len() <= RELATION_LIMIT {
            let hexes = &board.hexes;
            board.relations = hexes
                .iter()
                .flat_map(|&a| {
                    hexes.iter().map(move |&b| {
                        let distance = a.distance(b).min(255) as u16;
                        let dir = Direction::ALL
                            .iter()
                            .find(|&&d| a.along(d, b).is_some())
                            .map_or(NOT_IN_LINE, |d| d.index() as u8);
                        distance << 8 | u16::from(dir)
                    })
                })
                .collect();
        }
        board
    }

    pub fn len(&self) -> usize {
        self.cells.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    pub fn cell(&self, id: CellId) -> &Cell {
        &self.cells[usize::from(id)]
    }

    pub fn cells(&self) -> impl Iterator<Item = (CellId, &Cell)> {
        self.cells.iter().enumerate().map(|(i, c)| (i as CellId, c))
    }

    pub fn hex(&self, id: CellId) -> Hex {
        self.hexes[usize::from(id)]
    }

    /// The cell at a hex, if the hex is on the board.
    pub fn cell_at(&self, hex: Hex) -> Option<CellId> {
        let (col, row) = hex.to_offset();
        self.cell_at_offset(col, row)
    }

    /// The cell at offset coordinates `(col, row)`, as files write them.
    pub fn cell_at_offset(&self, col: i32, row: i32) -> Option<CellId> {
        let in_range =
            (0..self.width as i32).contains(&col) && (0..self.height as i32).contains(&row);
        in_range.then(|| (row as usize * self.width + col as usize) as CellId)
    }

    /// `(col, row)` of a cell, as files and drawings write it.
    pub fn offset(&self, id: CellId) -> (usize, usize) {
        (usize::from(id) % self.width, usize::from(id) / self.width)
    }

    /// The distance from `a` to `b`, and the direction index (0–5) of the straight line from
    /// `a` that holds `b`, or [`NOT_IN_LINE`]. From a table on boards up to
    /// [`RELATION_LIMIT`] cells.
    pub fn relation(&self, a: CellId, b: CellId) -> (u32, u8) {
        match self
            .relations
            .get(usize::from(a) * self.len() + usize::from(b))
        {
            Some(&r) => (u32::from(r >> 8), r as u8),
            None => {
                let (ha, hb) = (self.hex(a), self.hex(b));
                let dir = Direction::ALL.iter().find(|&&d| ha.along(d, hb).is_some());
                (
                    ha.distance(hb),
                    dir.map_or(NOT_IN_LINE, |d| d.index() as u8),
                )
            }
        }
    }

    /// The adjacent cell in `dir`, or `None` past the edge (precomputed).
    pub fn neighbour(&self, id: CellId, dir: Direction) -> Option<CellId> {
        let n = self.neighbours[usize::from(id)][dir.index()];
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
        self.cells()
            .filter(move |(_, c)| c.start && (c.camp.is_none() || c.camp == Some(colour)))
            .map(|(id, _)| id)
    }

    /// The team colours that have a camp on this board, in rule order.
    pub fn camp_colours(&self) -> Vec<TeamColour> {
        TeamColour::ALL
            .into_iter()
            .filter(|&c| self.has_camp(c))
            .collect()
    }
}
