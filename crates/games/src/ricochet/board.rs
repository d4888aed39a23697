//! Ricochet Robots boards (RULES B): cells with walls on their sides, a closed central block,
//! targets, the vortex, coloured diagonals. Built from the published quarter boards or from
//! a custom board file (Ricochets, B.2: any size, walls anywhere).

use std::fmt;

/// A cell index: `y * width + x`.
pub type Cell = u16;

/// N, E, S, W: also the bit of a wall on that side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    N,
    E,
    S,
    W,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];

    pub fn bit(self) -> u8 {
        1 << self as u8
    }

    pub fn opposite(self) -> Dir {
        Dir::ALL[(self as usize + 2) % 4]
    }

    /// A quarter turn clockwise.
    pub fn turned(self) -> Dir {
        Dir::ALL[(self as usize + 1) % 4]
    }

    pub fn is_horizontal(self) -> bool {
        matches!(self, Dir::E | Dir::W)
    }

    pub fn parse(c: char) -> Option<Dir> {
        match c.to_ascii_uppercase() {
            'N' => Some(Dir::N),
            'E' => Some(Dir::E),
            'S' => Some(Dir::S),
            'W' => Some(Dir::W),
            _ => None,
        }
    }

    pub fn letter(self) -> char {
        ['N', 'E', 'S', 'W'][self as usize]
    }
}

/// Robot colours: the four of the 1999 game, the fifth (silver) robot, and the transparent
/// robot of Micro Robots (RULES C.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    Red,
    Green,
    Blue,
    Yellow,
    Silver,
    Transparent,
}

impl Colour {
    pub const ALL: [Colour; 6] = [
        Colour::Red,
        Colour::Green,
        Colour::Blue,
        Colour::Yellow,
        Colour::Silver,
        Colour::Transparent,
    ];

    pub fn parse(word: &str) -> Option<Colour> {
        Self::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(word))
    }

    pub fn name(self) -> &'static str {
        match self {
            Colour::Red => "red",
            Colour::Green => "green",
            Colour::Blue => "blue",
            Colour::Yellow => "yellow",
            Colour::Silver => "silver",
            Colour::Transparent => "transparent",
        }
    }

    pub fn letter(self) -> char {
        match self {
            Colour::Transparent => 't',
            c => c.name().chars().next().unwrap_or('?'),
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A target: a colour (`None` for the vortex, which any robot may reach) and a symbol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub cell: Cell,
    pub colour: Option<Colour>,
    pub symbol: String,
}

/// A diagonal wall across a cell: `\` (NW–SE) or `/` (SW–NE), in a robot colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Diagonal {
    pub backslash: bool,
    pub colour: Colour,
}

impl Diagonal {
    /// The direction a robot of another colour leaves the cell in, entering it going `d`.
    pub fn deflect(self, d: Dir) -> Dir {
        match (self.backslash, d) {
            (true, Dir::N) => Dir::W,
            (true, Dir::S) => Dir::E,
            (true, Dir::E) => Dir::S,
            (true, Dir::W) => Dir::N,
            (false, Dir::N) => Dir::E,
            (false, Dir::S) => Dir::W,
            (false, Dir::E) => Dir::N,
            (false, Dir::W) => Dir::S,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Board {
    pub name: String,
    pub width: u16,
    pub height: u16,
    /// Per cell: bit `Dir::bit()` set when a wall closes that side. The board's edge is a wall.
    pub walls: Vec<u8>,
    /// The central block: cells no robot ever enters.
    pub blocked: Vec<bool>,
    pub targets: Vec<Target>,
    pub diagonals: Vec<Option<Diagonal>>,
    /// Ricochets (B.2): each robot's base, not an obstacle.
    pub bases: Vec<(Colour, Cell)>,
}

impl Board {
    pub fn empty(name: &str, width: u16, height: u16) -> Board {
        let n = usize::from(width) * usize::from(height);
        let mut b = Board {
            name: name.to_string(),
            width,
            height,
            walls: vec![0; n],
            blocked: vec![false; n],
            targets: Vec::new(),
            diagonals: vec![None; n],
            bases: Vec::new(),
        };
        let at = |x: u16, y: u16| usize::from(y * width + x);
        for x in 0..width {
            b.walls[at(x, 0)] |= Dir::N.bit();
            b.walls[at(x, height - 1)] |= Dir::S.bit();
        }
        for y in 0..height {
            b.walls[at(0, y)] |= Dir::W.bit();
            b.walls[at(width - 1, y)] |= Dir::E.bit();
        }
        b
    }

    pub fn len(&self) -> usize {
        self.walls.len()
    }

    pub fn is_empty(&self) -> bool {
        self.walls.is_empty()
    }

    pub fn cell(&self, x: u16, y: u16) -> Cell {
        y * self.width + x
    }

    pub fn xy(&self, c: Cell) -> (u16, u16) {
        (c % self.width, c / self.width)
    }

    /// The neighbouring cell in `d`, if on the board.
    pub fn neighbour(&self, c: Cell, d: Dir) -> Option<Cell> {
        let (x, y) = self.xy(c);
        match d {
            Dir::N if y > 0 => Some(c - self.width),
            Dir::S if y + 1 < self.height => Some(c + self.width),
            Dir::W if x > 0 => Some(c - 1),
            Dir::E if x + 1 < self.width => Some(c + 1),
            _ => None,
        }
    }

    pub fn wall(&self, c: Cell, d: Dir) -> bool {
        self.walls[usize::from(c)] & d.bit() != 0
    }

    /// A wall on side `d` of `c`, and on the facing side of the neighbour.
    pub fn add_wall(&mut self, c: Cell, d: Dir) {
        self.walls[usize::from(c)] |= d.bit();
        if let Some(n) = self.neighbour(c, d) {
            self.walls[usize::from(n)] |= d.opposite().bit();
        }
    }

    /// Closes a cell: part of the central block, walled all round.
    pub fn block(&mut self, c: Cell) {
        self.blocked[usize::from(c)] = true;
        for d in Dir::ALL {
            self.add_wall(c, d);
        }
    }

    /// Whether the wall on side `d` of `c` is the board's edge or a side of the central block
    /// (the transparent robot can cross neither, RULES C.2).
    pub fn uncrossable(&self, c: Cell, d: Dir) -> bool {
        match self.neighbour(c, d) {
            None => true,
            Some(n) => self.blocked[usize::from(n)] || self.blocked[usize::from(c)],
        }
    }

    /// A random cell for which `free` holds, drawn as the games have always drawn one (cells
    /// tried at random until one is free); `None` when no cell is free. Bounded: after 64
    /// tries per cell, one of the free cells is drawn from their list.
    pub fn draw_free_cell(
        &self,
        rng: &mut rand_chacha::ChaCha8Rng,
        free: impl Fn(Cell) -> bool,
    ) -> Option<Cell> {
        use rand::RngExt;
        let all: Vec<Cell> = (0..self.len())
            .filter_map(|i| Cell::try_from(i).ok())
            .filter(|&c| free(c))
            .collect();
        if all.is_empty() {
            return None;
        }
        let cells = u32::try_from(self.len()).ok()?;
        for _ in 0..64 * self.len() {
            let c = Cell::try_from(rng.random_range(0..cells)).ok()?;
            if free(c) {
                return Some(c);
            }
        }
        let last = u32::try_from(all.len()).ok()?;
        let at = usize::try_from(rng.random_range(0..last)).ok()?;
        all.get(at).copied()
    }

    pub fn target_named(&self, colour: Option<Colour>, symbol: &str) -> Option<&Target> {
        self.targets
            .iter()
            .find(|t| t.colour == colour && t.symbol.eq_ignore_ascii_case(symbol))
    }
}

/// A target's colour word: a robot colour, or `any` (the vortex, `None`). `None` if neither.
pub(super) fn target_colour(word: &str) -> Option<Option<Colour>> {
    if word == "any" {
        return Some(None);
    }
    Colour::parse(word).map(Some)
}
