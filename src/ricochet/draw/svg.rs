//! SVG pictures of Ricochet boards and positions (docs/FORMATS.md, "Pictures"): the grid,
//! walls, the central block, targets by colour and symbol, diagonals, bases, robots, the
//! goal, and a solution's moves as numbered arrows. Pure: the same input, the same bytes.

use crate::ricochet::board::{Board, Cell, Colour, Dir};
use crate::ricochet::position::{Move, Position};
use crate::text::svg::{circle, document, label, line, num, polygon, regular};

use crate::text::palette::{BLUE, GREEN, INK, RED, WHITE, YELLOW};
pub use crate::text::palette::{INK as WALL, PAPER as FLOOR, WHITE as BACKGROUND};

pub const GRID: &str = "#d6cdb6";
pub const CENTRE: &str = "#555555";

/// A robot colour on the picture.
pub fn colour(c: Colour) -> &'static str {
    match c {
        Colour::Red => RED,
        Colour::Green => GREEN,
        Colour::Blue => BLUE,
        Colour::Yellow => YELLOW,
        Colour::Silver => "#a8a8a8",
        Colour::Transparent => WHITE,
    }
}

/// The largest side of a picture, in pixels.
const MAX_SIDE_PX: f64 = 2048.0;

/// Cell size and margin.
#[derive(Clone, Copy)]
struct Grid {
    c: f64,
    margin: f64,
}

impl Grid {
    fn of(b: &Board) -> Grid {
        let side = f64::from(b.width.max(b.height)) + 2.0;
        let c = 32.0_f64.min(MAX_SIDE_PX / side);
        Grid { c, margin: c }
    }

    fn corner(&self, x: u16, y: u16) -> (f64, f64) {
        (
            self.margin + self.c * f64::from(x),
            self.margin + self.c * f64::from(y),
        )
    }

    fn centre(&self, b: &Board, cell: Cell) -> (f64, f64) {
        let (x, y) = b.xy(cell);
        let (left, top) = self.corner(x, y);
        (left + self.c / 2.0, top + self.c / 2.0)
    }
}

/// A board with robots standing where given (a custom board's bases, or none).
pub fn board(b: &Board, robots: &[(Colour, Cell)]) -> String {
    picture(b, robots, None, &[])
}

/// A position: its board, robots and goal; with a solution, each move as an arrow numbered
/// in order, in its robot's colour.
pub fn position(p: &Position, solution: &[Move]) -> String {
    picture(&p.board, &p.robots, Some(p), solution)
}

fn picture(b: &Board, robots: &[(Colour, Cell)], p: Option<&Position>, moves: &[Move]) -> String {
    let g = Grid::of(b);
    let mut body = floor(b, &g);
    for t in &b.targets {
        body.push_str(&target(t.colour, &t.symbol, g.centre(b, t.cell), g.c));
    }
    if let Some(p) = p {
        let (x, y) = g.centre(b, p.goal.cell);
        let ring = p.goal.robot.map_or(INK, colour);
        body.push_str(&circle(
            x,
            y,
            g.c * 0.44,
            &format!(
                " fill=\"none\" stroke=\"{ring}\" stroke-width=\"{}\" stroke-dasharray=\"{} {}\"",
                num(g.c / 10.0),
                num(g.c / 6.0),
                num(g.c / 10.0)
            ),
        ));
    }
    for &(c, cell) in &b.bases {
        let (x, y) = g.centre(b, cell);
        body.push_str(&polygon(
            &regular(x, y, g.c * 0.45, 4, 45.0),
            &format!(
                " fill=\"none\" stroke=\"{}\" stroke-width=\"{}\"",
                colour(c),
                num(g.c / 14.0)
            ),
        ));
    }
    body.push_str(&walls(b, &g));
    for &(c, cell) in robots {
        body.push_str(&robot(c, g.centre(b, cell), g.c));
    }
    if let Some(p) = p {
        body.push_str(&path(p, moves, &g));
    }
    let side = |n: u16| 2.0 * g.margin + g.c * f64::from(n);
    document(side(b.width), side(b.height), Some(BACKGROUND), &body)
}

/// Cells, the central block, diagonals, the grid and the coordinates.
fn floor(b: &Board, g: &Grid) -> String {
    let mut out = String::new();
    let (w, h) = (f64::from(b.width) * g.c, f64::from(b.height) * g.c);
    out.push_str(&format!(
        "<rect x=\"{m}\" y=\"{m}\" width=\"{}\" height=\"{}\" fill=\"{FLOOR}\"/>\n",
        num(w),
        num(h),
        m = num(g.margin)
    ));
    let grid = format!(" stroke=\"{GRID}\" stroke-width=\"{}\"", num(g.c / 32.0));
    for x in 1..b.width {
        out.push_str(&line(g.corner(x, 0), g.corner(x, b.height), &grid));
    }
    for y in 1..b.height {
        out.push_str(&line(g.corner(0, y), g.corner(b.width, y), &grid));
    }
    for cell in (0..b.len()).filter_map(|i| Cell::try_from(i).ok()) {
        let (x, y) = b.xy(cell);
        let (left, top) = g.corner(x, y);
        if b.blocked[usize::from(cell)] {
            out.push_str(&polygon(
                &[
                    (left, top),
                    (left + g.c, top),
                    (left + g.c, top + g.c),
                    (left, top + g.c),
                ],
                &format!(" fill=\"{CENTRE}\""),
            ));
        }
        if let Some(d) = b.diagonals[usize::from(cell)] {
            let k = g.c * 0.1;
            let (a, z) = if d.backslash {
                ((left + k, top + k), (left + g.c - k, top + g.c - k))
            } else {
                ((left + k, top + g.c - k), (left + g.c - k, top + k))
            };
            out.push_str(&line(
                a,
                z,
                &format!(
                    " stroke=\"{}\" stroke-width=\"{}\" stroke-linecap=\"round\"",
                    colour(d.colour),
                    num(g.c / 8.0)
                ),
            ));
        }
    }
    let size = g.c * 0.36;
    for x in 0..b.width {
        let (left, _) = g.corner(x, 0);
        out.push_str(&label(
            &x.to_string(),
            left + g.c / 2.0,
            g.margin / 2.0,
            size,
            INK,
        ));
    }
    for y in 0..b.height {
        let (_, top) = g.corner(0, y);
        out.push_str(&label(
            &y.to_string(),
            g.margin / 2.0,
            top + g.c / 2.0,
            size,
            INK,
        ));
    }
    out
}

/// Every wall once: each cell's north and west sides, and the south and east sides no
/// neighbour draws.
fn walls(b: &Board, g: &Grid) -> String {
    let mut d = String::new();
    let mut side = |from: (f64, f64), to: (f64, f64)| {
        d.push_str(&format!(
            "M{},{}L{},{}",
            num(from.0),
            num(from.1),
            num(to.0),
            num(to.1)
        ));
    };
    for cell in (0..b.len()).filter_map(|i| Cell::try_from(i).ok()) {
        let (x, y) = b.xy(cell);
        let above = b.neighbour(cell, Dir::N);
        let left = b.neighbour(cell, Dir::W);
        let below = b.neighbour(cell, Dir::S);
        let right = b.neighbour(cell, Dir::E);
        if b.wall(cell, Dir::N) || above.is_some_and(|n| b.wall(n, Dir::S)) {
            side(g.corner(x, y), g.corner(x + 1, y));
        }
        if b.wall(cell, Dir::W) || left.is_some_and(|n| b.wall(n, Dir::E)) {
            side(g.corner(x, y), g.corner(x, y + 1));
        }
        if below.is_none() {
            side(g.corner(x, y + 1), g.corner(x + 1, y + 1));
        }
        if right.is_none() {
            side(g.corner(x + 1, y), g.corner(x + 1, y + 1));
        }
    }
    format!(
        "<path d=\"{d}\" fill=\"none\" stroke=\"{WALL}\" stroke-width=\"{}\" stroke-linecap=\"square\"/>\n",
        num(g.c / 8.0)
    )
}

/// A target: its symbol's shape in its colour; the vortex in the four colours.
fn target(c: Option<Colour>, symbol: &str, (x, y): (f64, f64), size: f64) -> String {
    let r = size * 0.3;
    let Some(c) = c else {
        let quarters = [Colour::Red, Colour::Green, Colour::Blue, Colour::Yellow];
        return quarters
            .iter()
            .enumerate()
            .map(|(i, &q)| {
                let start = 90.0 * f64::from(u8::try_from(i).unwrap_or(0));
                let mut points = vec![(x, y)];
                points.extend(regular(x, y, r * 1.2, 12, start).into_iter().take(4));
                polygon(&points, &format!(" fill=\"{}\"", colour(q)))
            })
            .collect();
    };
    let fill = format!(
        " fill=\"{}\" stroke=\"{INK}\" stroke-width=\"{}\"",
        colour(c),
        num(size / 40.0)
    );
    match symbol.to_ascii_lowercase().as_str() {
        "circle" => circle(x, y, r, &fill),
        "triangle" => polygon(&regular(x, y + r * 0.2, r * 1.25, 3, -90.0), &fill),
        "square" => polygon(&regular(x, y, r * 1.3, 4, 45.0), &fill),
        "hexagon" => polygon(&regular(x, y, r * 1.15, 6, 0.0), &fill),
        _ => polygon(&regular(x, y, r * 1.2, 4, 0.0), &fill),
    }
}

/// A robot: a disc in its colour (the transparent robot's outline dashed).
fn robot(c: Colour, (x, y): (f64, f64), size: f64) -> String {
    let dash = if c == Colour::Transparent {
        format!(
            " stroke-dasharray=\"{} {}\"",
            num(size / 10.0),
            num(size / 14.0)
        )
    } else {
        String::new()
    };
    circle(
        x,
        y,
        size * 0.34,
        &format!(
            " fill=\"{}\" stroke=\"{INK}\" stroke-width=\"{}\"{dash}",
            colour(c),
            num(size / 16.0)
        ),
    )
}

/// The moves replayed from the position: an arrow from where each robot stood to where it
/// stopped, numbered; a move that cannot be played ends the drawing.
fn path(p: &Position, moves: &[Move], g: &Grid) -> String {
    let b = &p.board;
    let mut at = p.clone();
    let mut out = String::new();
    let mut numbers = String::new();
    for (n, m) in (1u32..).zip(moves) {
        let Some(from) = at.robot_cell(m.robot) else {
            break;
        };
        let Ok((to, _)) = at.play(*m) else {
            break;
        };
        // Robots' arrows side by side: each colour a little off the cells' centre line.
        let index = Colour::ALL.iter().position(|c| *c == m.robot).unwrap_or(0);
        let k = f64::from(u8::try_from(index).unwrap_or(0)) - 2.0;
        let shift = k * g.c * 0.07;
        let (a, z) = (g.centre(b, from), g.centre(b, to));
        let (a, z) = ((a.0 + shift, a.1 + shift), (z.0 + shift, z.1 + shift));
        let stroke = if m.robot == Colour::Transparent {
            INK
        } else {
            colour(m.robot)
        };
        out.push_str(&arrow(a, z, stroke, g.c));
        let mid = ((a.0 + z.0) / 2.0, (a.1 + z.1) / 2.0);
        numbers.push_str(&circle(
            mid.0,
            mid.1,
            g.c * 0.22,
            &format!(
                " fill=\"{BACKGROUND}\" stroke=\"{stroke}\" stroke-width=\"{}\"",
                num(g.c / 20.0)
            ),
        ));
        let digits = if n < 10 { 0.26 } else { 0.2 };
        numbers.push_str(&label(&n.to_string(), mid.0, mid.1, g.c * digits, INK));
    }
    out + &numbers
}

/// A line with an arrowhead at `z`.
fn arrow(a: (f64, f64), z: (f64, f64), stroke: &str, size: f64) -> String {
    let (dx, dy) = (z.0 - a.0, z.1 - a.1);
    let length = (dx * dx + dy * dy).sqrt().max(1e-9);
    let (ux, uy) = (dx / length, dy / length);
    let head = size * 0.28;
    let base = (z.0 - ux * head, z.1 - uy * head);
    let mut out = line(
        a,
        base,
        &format!(
            " stroke=\"{stroke}\" stroke-width=\"{}\" stroke-linecap=\"round\"",
            num(size / 12.0)
        ),
    );
    out.push_str(&polygon(
        &[
            z,
            (base.0 - uy * head * 0.5, base.1 + ux * head * 0.5),
            (base.0 + uy * head * 0.5, base.1 - ux * head * 0.5),
        ],
        &format!(" fill=\"{stroke}\""),
    ));
    out
}
