//! SVG pictures of Ricochet boards and positions (docs/FORMATS.md, "Pictures"): the grid,
//! walls, the central block, targets by colour and symbol, diagonals, bases, robots, the
//! goal, and a solution's moves as numbered arrows. Pure: the same input, the same bytes.

use crate::ricochet::board::{Board, Cell, Colour, Dir};
use crate::ricochet::position::{Move, Position};
use crate::text::svg::{
    circle, document, fits, label, line, num, polygon, regular, text_width, words,
};

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
        let c = 40.0_f64.min(MAX_SIDE_PX / side);
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
    let side = |n: u16| 2.0 * g.margin + g.c * f64::from(n);
    let mut height = side(b.height);
    if let Some(p) = p {
        let (arrows, played) = path(p, moves, &g);
        body.push_str(&arrows);
        let (list, list_height) = move_list(&played, side(b.width), height, &g);
        body.push_str(&list);
        height += list_height;
    }
    document(side(b.width), height, Some(BACKGROUND), &body)
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

/// The moves replayed from the position: an arrow along each robot's route (turned by
/// diagonals) to where it stopped, numbered; a move that cannot be played ends the drawing.
/// Arrows that would run along the same stretch of a row or column as an earlier one go in
/// lanes side by side, and each number is put where no other number is.
fn path(p: &Position, moves: &[Move], g: &Grid) -> (String, Vec<Move>) {
    let b = &p.board;
    let mut at = p.clone();
    let mut out = String::new();
    let mut numbers = String::new();
    let mut taken: Vec<(Segment, i32)> = Vec::new();
    let mut labels: Vec<(f64, f64)> = Vec::new();
    let mut played = Vec::new();
    for (n, m) in (1u32..).zip(moves) {
        let Some(from) = at.robot_cell(m.robot) else {
            break;
        };
        let before = at.clone();
        let Ok((to, _)) = at.play(*m) else {
            break;
        };
        played.push(*m);
        let route = route(&before, m, from, to);
        let segments: Vec<Segment> = route.windows(2).map(|w| segment(b, w[0], w[1])).collect();
        let lane = LANES
            .into_iter()
            .find(|lane| {
                !taken
                    .iter()
                    .any(|(t, l)| l == lane && segments.iter().any(|s| s.overlaps(t)))
            })
            .unwrap_or(0);
        taken.extend(segments.iter().map(|s| (*s, lane)));
        let shift = f64::from(lane) * g.c * 0.17;
        let points: Vec<(f64, f64)> = route
            .iter()
            .map(|&c| {
                let (x, y) = g.centre(b, c);
                (x + shift, y + shift)
            })
            .collect();
        let stroke = if m.robot == Colour::Transparent {
            INK
        } else {
            colour(m.robot)
        };
        out.push_str(&arrow(&points, stroke, g.c));
        let spot = number_spot(&points, &labels, g.c);
        labels.push(spot);
        numbers.push_str(&number(n, m.robot, spot, g.c));
    }
    (out + &numbers, played)
}

/// A move's number in a ring of its robot's colour.
fn number(n: u32, robot: Colour, (x, y): (f64, f64), c: f64) -> String {
    let stroke = if robot == Colour::Transparent {
        INK
    } else {
        colour(robot)
    };
    let mut out = circle(
        x,
        y,
        c * 0.22,
        &format!(
            " fill=\"{BACKGROUND}\" stroke=\"{stroke}\" stroke-width=\"{}\"",
            num(c / 16.0)
        ),
    );
    let digits = if n < 10 { 0.26 } else { 0.2 };
    out.push_str(&label(&n.to_string(), x, y, c * digits, INK));
    out
}

/// The moves in words under the board, in columns: each number, robot and direction (and
/// where the transparent robot stops); and its height.
fn move_list(moves: &[Move], width: f64, top: f64, g: &Grid) -> (String, f64) {
    let mut height = g.c * 0.36;
    let entries: Vec<String> = moves
        .iter()
        .map(|m| {
            let arrow = ['↑', '→', '↓', '←'][m.dir as usize];
            let mut text = format!("{} {arrow}", m.robot.name().to_uppercase());
            if let Some((x, y)) = m.to {
                text.push_str(&format!(" TO {x},{y}"));
            }
            text
        })
        .collect();
    let room = width - 2.0 * g.margin - g.c * 0.9;
    let mut widest = entries
        .iter()
        .map(|e| text_width(e, height))
        .fold(0.0, f64::max);
    if widest > room {
        // A narrow board: the words shrink to fit its width.
        height *= room / widest;
        widest = room;
    }
    let column = g.c * 0.7 + widest + g.c * 0.8;
    let columns = fits(width - 2.0 * g.margin, column, 1, 40);
    let mut out = String::new();
    for (i, (m, text)) in moves.iter().zip(&entries).enumerate() {
        let x = g.margin + (i % columns) as f64 * column;
        let y = top - g.c * 0.1 + g.c * 0.6 * (i / columns) as f64;
        let n = u32::try_from(i + 1).unwrap_or(u32::MAX);
        out.push_str(&number(n, m.robot, (x + g.c * 0.22, y), g.c));
        out.push_str(&words(text, x + g.c * 0.62, y, height, INK));
    }
    let lines = moves.len().div_ceil(columns);
    (out, g.c * 0.6 * lines as f64)
}

/// The lanes an arrow may take, in order: on the cells' centre line, then either side.
const LANES: [i32; 5] = [0, 1, -1, 2, -2];

/// A stretch of a row (`across`) or a column, from `lo` to `hi`, in cells.
#[derive(Clone, Copy, Debug)]
struct Segment {
    across: bool,
    line: u16,
    lo: u16,
    hi: u16,
}

impl Segment {
    fn overlaps(&self, other: &Segment) -> bool {
        self.across == other.across
            && self.line == other.line
            && self.lo <= other.hi
            && other.lo <= self.hi
    }
}

fn segment(b: &Board, from: Cell, to: Cell) -> Segment {
    let ((x1, y1), (x2, y2)) = (b.xy(from), b.xy(to));
    if y1 == y2 {
        Segment {
            across: true,
            line: y1,
            lo: x1.min(x2),
            hi: x1.max(x2),
        }
    } else {
        Segment {
            across: false,
            line: x1,
            lo: y1.min(y2),
            hi: y1.max(y2),
        }
    }
}

/// The cells where a move starts, turns and stops: a robot is turned by the diagonals of
/// other colours (RULES C.2). The transparent robot's move is drawn straight.
fn route(before: &Position, m: &Move, from: Cell, to: Cell) -> Vec<Cell> {
    let b = &before.board;
    let mut corners = vec![from];
    if m.robot != Colour::Transparent {
        let others: Vec<Cell> = before
            .robots
            .iter()
            .filter(|(c, _)| *c != m.robot)
            .map(|(_, cell)| *cell)
            .collect();
        let free = |c: Cell, d: Dir| {
            if b.wall(c, d) {
                return None;
            }
            b.neighbour(c, d)
                .filter(|n| !b.blocked[usize::from(*n)] && !others.contains(n))
        };
        let (mut here, mut d) = (from, m.dir);
        for _ in 0..b.len() * 4 {
            if here == to {
                break;
            }
            let Some(next) = free(here, d) else { break };
            here = next;
            if let Some(diag) = b.diagonals[usize::from(next)].filter(|g| g.colour != m.robot) {
                d = diag.deflect(d);
                corners.push(next);
            }
        }
    }
    corners.push(to);
    corners.dedup();
    if corners.len() < 2 {
        corners.push(to);
    }
    corners
}

/// Where a move's number goes: on its route (cell centres and the quarters between) as near
/// the middle as keeps clear of the numbers already drawn and of the robot at either end,
/// else beside the route, else wherever is farthest from the other numbers.
fn number_spot(points: &[(f64, f64)], labels: &[(f64, f64)], c: f64) -> (f64, f64) {
    // (distance along the route, on the route or beside it, the spot)
    let mut spots: Vec<(f64, bool, (f64, f64))> = Vec::new();
    let mut length = 0.0;
    for w in points.windows(2) {
        let ((x1, y1), (x2, y2)) = (w[0], w[1]);
        let d = (x2 - x1).abs().max((y2 - y1).abs()).max(1e-9);
        let (nx, ny) = ((y1 - y2) / d * c * 0.34, (x2 - x1) / d * c * 0.34);
        let quarters = fits(d + c / 8.0, c / 4.0, 2, 4 * 256);
        for k in 1..quarters {
            let t = k as f64 / quarters as f64;
            let (x, y) = (x1 + (x2 - x1) * t, y1 + (y2 - y1) * t);
            spots.push((length + d * t, true, (x, y)));
            spots.push((length + d * t, false, (x + nx, y + ny)));
            spots.push((length + d * t, false, (x - nx, y - ny)));
        }
        length += d;
    }
    let middle = length / 2.0;
    let (first, last) = (points[0], points[points.len() - 1]);
    let near = |p: (f64, f64), q: (f64, f64)| (p.0 - q.0).hypot(p.1 - q.1);
    let clearance = |p: (f64, f64)| {
        labels
            .iter()
            .map(|l| near(*l, p))
            .fold(f64::INFINITY, f64::min)
    };
    let clear = |p: (f64, f64)| {
        clearance(p) >= c * 0.5 && near(p, first) >= c * 0.58 && near(p, last) >= c * 0.5
    };
    let by_middle = |a: &&(f64, bool, (f64, f64)), b: &&(f64, bool, (f64, f64))| {
        (a.0 - middle).abs().total_cmp(&(b.0 - middle).abs())
    };
    let on = spots.iter().filter(|s| s.1 && clear(s.2)).min_by(by_middle);
    let beside = || {
        spots
            .iter()
            .filter(|s| !s.1 && clear(s.2))
            .min_by(by_middle)
    };
    let farthest = || {
        spots
            .iter()
            .max_by(|a, b| clearance(a.2).total_cmp(&clearance(b.2)))
    };
    on.or_else(beside).or_else(farthest).map_or(first, |s| s.2)
}

/// A polyline through `points` with an arrowhead at its end.
fn arrow(points: &[(f64, f64)], stroke: &str, size: f64) -> String {
    let (Some(&z), Some(&a)) = (points.last(), points.get(points.len().saturating_sub(2))) else {
        return String::new();
    };
    let (dx, dy) = (z.0 - a.0, z.1 - a.1);
    let length = (dx * dx + dy * dy).sqrt().max(1e-9);
    let (ux, uy) = (dx / length, dy / length);
    let head = size * 0.3;
    let base = (z.0 - ux * head, z.1 - uy * head);
    let mut d = String::new();
    for (i, p) in points.iter().enumerate() {
        let p = if i + 1 == points.len() { base } else { *p };
        d.push_str(&format!(
            "{}{},{}",
            if i == 0 { "M" } else { "L" },
            num(p.0),
            num(p.1)
        ));
    }
    let mut out = format!(
        "<path d=\"{d}\" fill=\"none\" stroke=\"{stroke}\" stroke-width=\"{}\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>\n",
        num(size / 11.0)
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
