//! Ricochet Robots boards (RULES B): cells with walls on their sides, a closed central block,
//! targets, the vortex, coloured diagonals. Built from the published quarter boards or from
//! a custom board file (Ricochets, B.2: any size, walls anywhere).

use crate::text::diagnostic::Diagnostic;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A cell index: `y * width + x`.
pub type Cell = u16;

/// N, E, S, W: also the bit of a wall on that side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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

    pub fn target_named(&self, colour: Option<Colour>, symbol: &str) -> Option<&Target> {
        self.targets
            .iter()
            .find(|t| t.colour == colour && t.symbol.eq_ignore_ascii_case(symbol))
    }
}

// ------------------------------------------------------------------------ quarter boards

/// The published quarter boards, from `boards/ricochet/quadrants.yaml`.
pub const QUADRANTS: &str = include_str!("../../boards/ricochet/quadrants.yaml");

#[derive(Deserialize)]
struct QuadrantFile {
    walls: Vec<(u16, u16, String)>,
    targets: Vec<(u16, u16, String, String)>,
    #[serde(default)]
    diagonals: Vec<(u16, u16, String, String)>,
}

/// Checks a quarter-boards file: names `1A`…`4D`, wall sides, target and diagonal colours,
/// cells inside the quarter. Returns how many quarters it holds.
pub fn check_quadrants(file: &str, source: &str) -> Result<usize, Diagnostic> {
    let all: std::collections::BTreeMap<String, QuadrantFile> =
        crate::text::yaml::from_str(file, source)?;
    for (name, q) in &all {
        let at = crate::text::yaml::locate_key(source, name, 1).unwrap_or((1, 1));
        let err = |m: String| Diagnostic::at(file, source, at.0, at.1, format!("{name}: {m}"));
        let mut chars = name.chars();
        let named = matches!(
            (chars.next(), chars.next(), chars.next()),
            (Some('1'..='4'), Some('A'..='D'), None)
        );
        if !named {
            return Err(err(
                "a quarter is named by its piece 1–4 and side A–D, such as 2B".into(),
            ));
        }
        let inside = |x: u16, y: u16| x < 8 && y < 8;
        for (x, y, sides) in &q.walls {
            if !inside(*x, *y)
                || sides.is_empty()
                || !sides.chars().all(|c| Dir::parse(c).is_some())
            {
                return Err(err(format!(
                    "wall [{x}, {y}, {sides}]: a cell of the 8×8 quarter and sides among N, E, S, W"
                )));
            }
        }
        for (x, y, colour, _) in &q.targets {
            if !inside(*x, *y) {
                return Err(err(format!("target at [{x}, {y}] is outside the quarter")));
            }
            target_colour(colour).map_err(err)?;
        }
        for (x, y, lean, colour) in &q.diagonals {
            if !inside(*x, *y) || !(lean == "/" || lean == "\\") || Colour::parse(colour).is_none()
            {
                return Err(err(format!(
                    "diagonal [{x}, {y}, {lean}, {colour}]: a cell of the quarter, a lean / or \\, a robot colour"
                )));
            }
        }
    }
    Ok(all.len())
}

fn quadrant(name: &str) -> Result<QuadrantFile, String> {
    let all: std::collections::BTreeMap<String, QuadrantFile> =
        serde_yaml_free_parse(QUADRANTS).map_err(|e| format!("the quarter boards file: {e}"))?;
    all.into_iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, q)| q)
        .ok_or_else(|| {
            format!("unknown quarter board `{name}`: expected 1A…4D (piece 1–4, side A–D)")
        })
}

fn serde_yaml_free_parse<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    crate::text::yaml::from_str("boards/ricochet/quadrants.yaml", text).map_err(|d| d.message)
}

fn target_colour(word: &str) -> Result<Option<Colour>, String> {
    if word == "any" {
        return Ok(None);
    }
    Colour::parse(word)
        .map(Some)
        .ok_or_else(|| format!("unknown target colour `{word}`"))
}

/// A 16×16 board of four quarter boards at NW, NE, SE, SW (each turned 0, 1, 2, 3 quarter
/// turns clockwise), such as `["4B", "3B", "2B", "1A"]`.
pub fn from_quadrants(names: &[String; 4]) -> Result<Board, String> {
    let mut b = Board::empty(&names.join(" "), 16, 16);
    for (position, name) in names.iter().enumerate() {
        let q = quadrant(name)?;
        // Turned `position` times clockwise on the 16×16 board: (x, y) → (15 − y, x).
        let place = |x: u16, y: u16| {
            let (mut x, mut y) = (x, y);
            for _ in 0..position {
                (x, y) = (15 - y, x);
            }
            (x, y)
        };
        let turn = |mut d: Dir| {
            for _ in 0..position {
                d = d.turned();
            }
            d
        };
        for (x, y, sides) in &q.walls {
            let (px, py) = place(*x, *y);
            for c in sides.chars() {
                let d = Dir::parse(c).ok_or_else(|| format!("{name}: bad wall side `{c}`"))?;
                let cell = b.cell(px, py);
                b.add_wall(cell, turn(d));
            }
        }
        for (x, y, colour, symbol) in &q.targets {
            let (px, py) = place(*x, *y);
            let cell = b.cell(px, py);
            b.targets.push(Target {
                cell,
                colour: target_colour(colour)?,
                symbol: symbol.clone(),
            });
        }
        for (x, y, lean, colour) in &q.diagonals {
            let (px, py) = place(*x, *y);
            let cell = b.cell(px, py);
            // A quarter turn swaps the two leans.
            let backslash = (lean == "\\") != (position % 2 == 1);
            let colour = Colour::parse(colour)
                .ok_or_else(|| format!("{name}: bad diagonal colour `{colour}`"))?;
            b.diagonals[usize::from(cell)] = Some(Diagonal { backslash, colour });
        }
        let (cx, cy) = place(7, 7);
        let centre = b.cell(cx, cy);
        b.block(centre);
    }
    Ok(b)
}

/// The 96 boards of the 1999 game: sides A and B, each piece at one position, whole-board
/// rotations counted once (piece 1 stays at NW).
pub fn original_arrangements() -> Vec<[String; 4]> {
    let mut out = Vec::new();
    let orders = [
        [2, 3, 4],
        [2, 4, 3],
        [3, 2, 4],
        [3, 4, 2],
        [4, 2, 3],
        [4, 3, 2],
    ];
    for order in orders {
        for sides in 0..16u8 {
            let side = |i: usize| if sides >> i & 1 == 0 { 'A' } else { 'B' };
            let pieces = [1, order[0], order[1], order[2]];
            out.push(std::array::from_fn(|p| format!("{}{}", pieces[p], side(p))));
        }
    }
    out
}

// ------------------------------------------------------------------------ custom boards

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CustomFile {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    description: Option<String>,
    size: (u16, u16),
    #[serde(default)]
    walls: Vec<(u16, u16, String)>,
    /// The central enclosure: x, y, width, height (optional).
    #[serde(default)]
    centre: Option<(u16, u16, u16, u16)>,
    #[serde(default)]
    targets: Vec<(u16, u16, String, String)>,
    #[serde(default)]
    bases: std::collections::BTreeMap<String, (u16, u16)>,
    #[serde(default)]
    diagonals: Vec<(u16, u16, String, String)>,
}

/// A custom board file (Ricochets): any size, walls anywhere, an optional central enclosure,
/// targets and bases anywhere.
pub fn parse_custom(file: &str, source: &str) -> Result<Board, Diagnostic> {
    let raw: CustomFile = crate::text::yaml::from_str(file, source)?;
    let _ = &raw.description;
    let err = |key: &str, msg: String| {
        let (l, c) = crate::text::yaml::locate_key(source, key, 1).unwrap_or((1, 1));
        Diagnostic::at(file, source, l, c, msg)
    };
    let (w, h) = raw.size;
    if !(2..=64).contains(&w) || !(2..=64).contains(&h) || u32::from(w) * u32::from(h) > 4096 {
        return Err(err(
            "size",
            format!("size [{w}, {h}]: 2 to 64 cells a side, 4,096 cells at most"),
        ));
    }
    let name = raw.name.clone().unwrap_or_else(|| {
        std::path::Path::new(file)
            .file_stem()
            .map_or("board".into(), |s| s.to_string_lossy().into_owned())
    });
    let mut b = Board::empty(&name, w, h);
    let inside = |x: u16, y: u16| x < w && y < h;
    for (x, y, sides) in &raw.walls {
        if !inside(*x, *y) {
            return Err(err(
                "walls",
                format!("wall at [{x}, {y}] is off the {w}×{h} board"),
            ));
        }
        for c in sides.chars() {
            let d = Dir::parse(c).ok_or_else(|| {
                err(
                    "walls",
                    format!("wall at [{x}, {y}]: `{c}` is not a side (N, E, S, W)"),
                )
            })?;
            let cell = b.cell(*x, *y);
            b.add_wall(cell, d);
        }
    }
    if let Some((x, y, cw, ch)) = raw.centre {
        if cw == 0 || ch == 0 || !inside(x + cw - 1, y + ch - 1) {
            return Err(err(
                "centre",
                format!("centre [{x}, {y}, {cw}, {ch}] does not fit on the board"),
            ));
        }
        for cy in y..y + ch {
            for cx in x..x + cw {
                let cell = b.cell(cx, cy);
                b.block(cell);
            }
        }
    }
    for (x, y, colour, symbol) in &raw.targets {
        if !inside(*x, *y) || b.blocked[usize::from(b.cell(*x, *y))] {
            return Err(err(
                "targets",
                format!("target at [{x}, {y}] is off the board or in the centre"),
            ));
        }
        let colour = target_colour(colour).map_err(|m| err("targets", m))?;
        let cell = b.cell(*x, *y);
        b.targets.push(Target {
            cell,
            colour,
            symbol: symbol.clone(),
        });
    }
    for (colour, (x, y)) in &raw.bases {
        let c = Colour::parse(colour)
            .ok_or_else(|| err("bases", format!("unknown robot colour `{colour}`")))?;
        if !inside(*x, *y) {
            return Err(err("bases", format!("base at [{x}, {y}] is off the board")));
        }
        let cell = b.cell(*x, *y);
        b.bases.push((c, cell));
    }
    for (x, y, lean, colour) in &raw.diagonals {
        if !inside(*x, *y) {
            return Err(err(
                "diagonals",
                format!("diagonal at [{x}, {y}] is off the board"),
            ));
        }
        let colour = Colour::parse(colour)
            .ok_or_else(|| err("diagonals", format!("unknown colour `{colour}`")))?;
        let cell = b.cell(*x, *y);
        b.diagonals[usize::from(cell)] = Some(Diagonal {
            backslash: lean == "\\",
            colour,
        });
    }
    Ok(b)
}

// ------------------------------------------------------------------------ drawing

/// Draws a board with walls (`|` and `---`), the centre (`###`), targets (colour letter and
/// symbol letter, `**` for the vortex), diagonals (`\` `/`), robots (`R`, `G`, …), and the
/// goal (`@`) when it is given by position rather than by a printed target.
pub fn render(b: &Board, robots: &[(Colour, Cell)]) -> String {
    render_with_goal(b, robots, None)
}

pub fn render_with_goal(b: &Board, robots: &[(Colour, Cell)], goal: Option<Cell>) -> String {
    let mut out = String::new();
    let w = usize::from(b.width);
    for y in 0..b.height {
        // The line above row y: walls on north sides.
        let mut top = String::from("+");
        for x in 0..b.width {
            let c = b.cell(x, y);
            top.push_str(if b.wall(c, Dir::N) { "---+" } else { "   +" });
        }
        out.push_str(&top);
        out.push('\n');
        let mut row = String::new();
        for x in 0..b.width {
            let c = b.cell(x, y);
            row.push(if b.wall(c, Dir::W) { '|' } else { ' ' });
            let mark = if let Some((colour, _)) = robots.iter().find(|(_, p)| *p == c) {
                format!(" {} ", colour.letter().to_ascii_uppercase())
            } else if b.blocked[usize::from(c)] {
                "###".to_string()
            } else if goal == Some(c) && !b.targets.iter().any(|t| t.cell == c) {
                " @ ".to_string()
            } else if let Some(t) = b.targets.iter().find(|t| t.cell == c) {
                match t.colour {
                    None => " **".to_string(),
                    Some(col) => format!(
                        " {}{}",
                        col.letter(),
                        t.symbol.chars().next().unwrap_or('?')
                    ),
                }
            } else if let Some(d) = b.diagonals[usize::from(c)] {
                format!(
                    " {}{}",
                    if d.backslash { '\\' } else { '/' },
                    d.colour.letter()
                )
            } else {
                "   ".to_string()
            };
            row.push_str(&mark);
        }
        row.push('|');
        out.push_str(&row);
        out.push('\n');
    }
    out.push('+');
    out.push_str(&"---+".repeat(w));
    out.push('\n');
    out
}
