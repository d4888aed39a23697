//! The hex board: terrain per hex, camps, start points, computers, and the neighbour table the
//! engine walks. Built once from a board file; never changes during a match.

use crate::hex::{Direction, Hex};
use crate::terrain::{TeamColour, Terrain};

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
}

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
        };
        board.neighbours = board
            .hexes
            .iter()
            .map(|&h| Direction::ALL.map(|d| board.cell_at(h.step(d, 1)).unwrap_or(OFF_BOARD)))
            .collect();
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
