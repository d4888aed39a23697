//! SVG drawings of a hex board and of a match state (docs/FORMATS.md, "Pictures"): terrain,
//! camps, computers, start points, robots with their number and facing, what the last robot
//! turn did (moves, shots, explosions, drownings, lightning) and the column and row numbers
//! of the files' `[col, row]`, framed by the words of [`super::caption`] (title, round,
//! result, teams, the key). Pure: strings in, strings out; the same input gives the same
//! bytes.
//!
//! Geometry: pointy-top hexes of circumradius `S`, odd rows shifted right by half a hex
//! (odd-r, as in [`super::hex`]); the centre of `[col, row]` is at
//! `x = X + M + √3·S·(col + ½·(row & 1)) + √3·S/2`, `y = Y + M + 1.5·S·row + S`, `M` the
//! margin and `(X, Y)` where the board's frame starts under the title.

pub use super::caption::{Caption, Frame};
use super::caption::{Mark, Place, plus, unit};
use crate::battle::board::{Board, CellId};
use crate::battle::engine::{Event, Match, Pos};
use crate::battle::hex::Direction;
use crate::battle::terrain::{Form, ShapeColour, TeamColour, Terrain};
use crate::text::svg::{circle, document, label, line, num, polygon, regular};

/// Plain ground and the hex outlines, and the rest of the battle's colours
/// ([`crate::text::palette`], shared with the other pictures and the replay page).
pub use crate::text::palette::{
    BOLT, BURST, COMPUTER, INK, LAKE, LIGHTNING, OUTLINE, PAPER as PLAIN, SHOT,
    WHITE as BACKGROUND, WRECK,
};
use crate::text::palette::{CAMP_OPACITY, SHAPES, TEAMS, named};

/// The colour of a shape.
pub fn shape_colour(c: ShapeColour) -> &'static str {
    named(&SHAPES, c.name())
}

/// The colour of a team: its robots, its camp (at [`CAMP_OPACITY`]), the border of its
/// computer.
pub fn team_colour(c: TeamColour) -> &'static str {
    named(&TEAMS, c.name())
}

/// The largest side of a picture, in pixels at scale 1: big boards get smaller hexes.
pub const MAX_SIDE_PX: f64 = 4096.0;
/// The circumradius of a hex on boards small enough.
pub const HEX_RADIUS: f64 = 20.0;

/// Where everything goes on a picture: the board and the words around it.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    /// The hexes' circumradius.
    pub s: f64,
    pub margin: f64,
    pub width: f64,
    pub height: f64,
    /// Where the board's frame starts (its margin included), under the title.
    pub board: (f64, f64),
    /// Where the team panel and the key start, under the board.
    pub below: f64,
}

const SQRT3: f64 = 1.732_050_807_568_877_2;

impl Layout {
    pub fn of(board: &Board, caption: &Caption) -> Layout {
        let cols = f64::from(u32::try_from(board.width).unwrap_or(u32::MAX));
        let rows = f64::from(u32::try_from(board.height).unwrap_or(u32::MAX));
        // Sizes at S = 1: margins of 2 on three sides and 1 below, the caption around.
        let board_width = 4.0 + SQRT3 * (cols + 0.5);
        let board_height = 2.0 + 1.5 * (rows - 1.0) + 2.0 + 0.6;
        let frame = caption.frame(board_width);
        let (width, height) = (frame.width, frame.header + board_height + frame.below);
        let s = HEX_RADIUS.min(MAX_SIDE_PX / width.max(height));
        Layout {
            s,
            margin: 2.0 * s,
            width: width * s,
            height: height * s,
            board: ((width - board_width) / 2.0 * s, frame.header * s),
            below: (frame.header + board_height) * s,
        }
    }

    /// The centre of the hex at `[col, row]`.
    pub fn centre(&self, col: usize, row: usize) -> (f64, f64) {
        let c = f64::from(u32::try_from(col).unwrap_or(u32::MAX));
        let r = f64::from(u32::try_from(row).unwrap_or(u32::MAX));
        let shift = if row % 2 == 1 { 0.5 } else { 0.0 };
        (
            self.board.0 + self.margin + SQRT3 * self.s * (c + shift) + SQRT3 * self.s / 2.0,
            self.board.1 + self.margin + 1.5 * self.s * r + self.s,
        )
    }

    fn cell_centre(&self, board: &Board, id: CellId) -> (f64, f64) {
        let (col, row) = board.offset(id);
        self.centre(col, row)
    }

    fn pos_centre(&self, pos: Pos) -> (f64, f64) {
        self.centre(usize::from(pos.0), usize::from(pos.1))
    }

    /// Where the caption's words go.
    pub fn place(&self) -> Place {
        Place {
            s: self.s,
            width: self.width,
            height: self.height,
            below: self.below,
        }
    }

    /// The six corners of a hex, pointy top, `scale` times the circumradius.
    fn hex(&self, (x, y): (f64, f64), scale: f64) -> Vec<(f64, f64)> {
        regular(x, y, self.s * scale, 6, -90.0)
    }
}

/// A board on its own: terrain, coordinates, its name and the key.
pub fn board(board: &Board) -> String {
    let caption = Caption::board(board);
    let layout = Layout::of(board, &caption);
    let mut body = terrain_layer(board, &layout);
    body.push_str(&words(&caption, &layout));
    document(layout.width, layout.height, Some(BACKGROUND), &body)
}

/// A match state with its caption (made once a match by [`Caption::game`]): the board,
/// every robot, what `turn` (the events of the robot turn that led to this state, or none)
/// did, the round, the goal or the result, the teams and the key.
pub fn state(m: &Match, turn: &[Event], caption: &Caption) -> String {
    let layout = Layout::of(m.board(), caption);
    let mut body = terrain_layer(m.board(), &layout);
    body.push_str(&words(caption, &layout));
    body.push_str(&robot_layer(m, turn, &layout));
    body.push_str(&caption.changing(m, &layout.place()));
    document(layout.width, layout.height, Some(BACKGROUND), &body)
}

/// What never changes during the match of `m`: [`state`] without the robots, the turn's
/// effects, the round and the result. Animations draw it once, then [`overlay`] each frame.
pub fn backdrop(m: &Match, caption: &Caption) -> String {
    let layout = Layout::of(m.board(), caption);
    let mut body = terrain_layer(m.board(), &layout);
    body.push_str(&words(caption, &layout));
    document(layout.width, layout.height, Some(BACKGROUND), &body)
}

/// Only what changes during a match (robots, the turn's effects, the round, the result, the
/// robots lost in the team panel), on a transparent background the size of [`backdrop`].
pub fn overlay(m: &Match, turn: &[Event], caption: &Caption) -> String {
    let layout = Layout::of(m.board(), caption);
    let mut body = robot_layer(m, turn, &layout);
    body.push_str(&caption.changing(m, &layout.place()));
    document(layout.width, layout.height, None, &body)
}

/// The caption's still words, and the key's marks drawn small beside their names.
fn words(caption: &Caption, layout: &Layout) -> String {
    let place = layout.place();
    let mut out = caption.still(&place);
    for (mark, (x, y), r) in caption.key_marks(&place) {
        out.push_str(&key_mark(mark, (x, y), r, layout.s));
    }
    out
}

/// A mark of the key, in a hex of circumradius `r` around `c`.
fn key_mark(mark: Mark, c: (f64, f64), r: f64, s: f64) -> String {
    let hex = |fill: &str| {
        polygon(
            &regular(c.0, c.1, r, 6, -90.0),
            &format!(
                " fill=\"{fill}\" stroke=\"{OUTLINE}\" stroke-width=\"{}\"",
                num(s / 16.0)
            ),
        )
    };
    match mark {
        Mark::Lake => hex(LAKE),
        Mark::Lightning => hex(LIGHTNING) + &terrain_mark(Terrain::Lightning, c, r),
        Mark::Shape(form, colour) => hex(PLAIN) + &terrain_mark(Terrain::Shape(form, colour), c, r),
        Mark::Camp(team) => hex(PLAIN) + &camp(team, c, r),
        Mark::Computer(team) => hex(PLAIN) + &terrain_mark(Terrain::Computer(team), c, r),
        Mark::Start => hex(PLAIN) + &start_point(c, r),
        Mark::Robot(team) => robot_mark(team, 1, Direction::ALL[0], (c.0 - 0.12 * s, c.1), r),
        Mark::Lost => wreck(c, r),
        Mark::Shot => shot_line((c.0 - 0.6 * s, c.1), (c.0 + 0.5 * s, c.1), r),
    }
}

/// Every hex, then the coordinates.
fn terrain_layer(board: &Board, layout: &Layout) -> String {
    let mut out = String::new();
    let stroke = format!(
        " stroke=\"{OUTLINE}\" stroke-width=\"{}\"",
        num(layout.s / 16.0)
    );
    for (id, cell) in board.cells() {
        let c = layout.cell_centre(board, id);
        let ground = match cell.terrain {
            Terrain::Lake => LAKE,
            Terrain::Lightning => LIGHTNING,
            _ => PLAIN,
        };
        out.push_str(&polygon(
            &layout.hex(c, 1.0),
            &format!(" fill=\"{ground}\"{stroke}"),
        ));
        if let Some(team) = cell.camp {
            out.push_str(&camp(team, c, layout.s));
        }
        out.push_str(&terrain_mark(cell.terrain, c, layout.s));
        if cell.start {
            out.push_str(&start_point(c, layout.s));
        }
    }
    out.push_str(&coordinates(board, layout));
    out
}

/// A camp's tint over a hex of circumradius `s`.
fn camp(team: TeamColour, c: (f64, f64), s: f64) -> String {
    polygon(
        &regular(c.0, c.1, s, 6, -90.0),
        &format!(
            " fill=\"{}\" fill-opacity=\"{CAMP_OPACITY}\"",
            team_colour(team)
        ),
    )
}

/// A start point: a small hollow ring, unlike any shape (a black circle shape is a disc).
fn start_point((x, y): (f64, f64), s: f64) -> String {
    circle(
        x,
        y,
        s * 0.2,
        &format!(
            " fill=\"{BACKGROUND}\" stroke=\"{INK}\" stroke-width=\"{}\"",
            num(s / 10.0)
        ),
    )
}

/// What stands on a hex: a shape, a computer, a lightning bolt.
fn terrain_mark(terrain: Terrain, (x, y): (f64, f64), s: f64) -> String {
    match terrain {
        Terrain::Plain | Terrain::Lake => String::new(),
        Terrain::Lightning => {
            let bolt = [
                (0.12, -0.72),
                (-0.34, 0.08),
                (-0.02, 0.08),
                (-0.16, 0.72),
                (0.34, -0.12),
                (0.02, -0.12),
            ];
            let points: Vec<(f64, f64)> =
                bolt.iter().map(|(a, b)| (x + a * s, y + b * s)).collect();
            polygon(&points, &format!(" fill=\"{BOLT}\""))
        }
        Terrain::Shape(form, colour) => {
            let fill = format!(" fill=\"{}\"", shape_colour(colour));
            match form {
                Form::Square => polygon(&regular(x, y, s * 0.62, 4, 45.0), &fill),
                Form::Triangle => polygon(&regular(x, y + s * 0.12, s * 0.68, 3, -90.0), &fill),
                Form::Circle => circle(x, y, s * 0.48, &fill),
            }
        }
        Terrain::Computer(team) => polygon(
            &regular(x, y, s * 0.6, 4, 45.0),
            &format!(
                " fill=\"{COMPUTER}\" stroke=\"{}\" stroke-width=\"{}\"",
                team_colour(team),
                num(s * 0.16)
            ),
        ),
    }
}

/// Column numbers along the top, row numbers down the left, 0-based as files write them.
fn coordinates(board: &Board, layout: &Layout) -> String {
    let size = layout.s * 0.55;
    let mut d = String::new();
    for col in 0..board.width {
        let (x, _) = layout.centre(col, 0);
        d.push_str(&crate::text::svg::strokes(
            &col.to_string(),
            x,
            layout.board.1 + layout.margin / 2.0,
            size,
        ));
    }
    for row in 0..board.height {
        let (_, y) = layout.centre(0, row);
        d.push_str(&crate::text::svg::strokes(
            &row.to_string(),
            layout.board.0 + layout.margin / 2.0,
            y,
            size,
        ));
    }
    format!(
        "<path d=\"{d}\" fill=\"none\" stroke=\"{INK}\" stroke-width=\"{}\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>\n",
        num(size / 7.0)
    )
}

/// The robots, destroyed ones first (grey and crossed, where they fell), then what the turn
/// did, then the robots still in play.
fn robot_layer(m: &Match, turn: &[Event], layout: &Layout) -> String {
    let board = m.board();
    let s = layout.s;
    let mut out = String::new();
    for robot in m.robots().iter().filter(|r| !r.alive) {
        out.push_str(&wreck(layout.cell_centre(board, robot.cell), s));
    }
    out.push_str(&effects_under(turn, layout));
    for robot in m.robots().iter().filter(|r| r.alive) {
        let c = layout.cell_centre(board, robot.cell);
        out.push_str(&robot_mark(
            robot.name.team,
            robot.name.number,
            robot.facing,
            c,
            s,
        ));
    }
    out.push_str(&shots(m, turn, layout));
    out
}

/// A destroyed robot: a grey disc crossed out.
fn wreck((x, y): (f64, f64), s: f64) -> String {
    let mut out = circle(
        x,
        y,
        s * 0.5,
        &format!(
            " fill=\"{WRECK}\" stroke=\"{INK}\" stroke-width=\"{}\"",
            num(s / 16.0)
        ),
    );
    let k = s * 0.32;
    let cross = format!(" stroke=\"{INK}\" stroke-width=\"{}\"", num(s / 8.0));
    out.push_str(&line((x - k, y - k), (x + k, y + k), &cross));
    out.push_str(&line((x - k, y + k), (x + k, y - k), &cross));
    out
}

/// A robot: a disc in its team's colour with its number, and a white nose outlined in ink
/// sticking out of the disc towards its facing (its base hidden under the disc, so it points
/// one way only), almost to the hex's side.
fn robot_mark(team: TeamColour, number: u8, facing: Direction, c: (f64, f64), s: f64) -> String {
    let u = unit(facing);
    let side = (-u.1, u.0);
    let nose = [
        plus(c, u, s * 0.98),
        plus(plus(c, u, s * 0.15), side, s * 0.46),
        plus(plus(c, u, s * 0.15), side, -s * 0.46),
    ];
    let mut out = polygon(
        &nose,
        &format!(
            " fill=\"{BACKGROUND}\" stroke=\"{INK}\" stroke-width=\"{}\" stroke-linejoin=\"round\"",
            num(s / 12.0)
        ),
    );
    out.push_str(&circle(
        c.0,
        c.1,
        s * 0.5,
        &format!(
            " fill=\"{}\" stroke=\"{INK}\" stroke-width=\"{}\"",
            team_colour(team),
            num(s / 14.0)
        ),
    ));
    let ink = if team == TeamColour::Yellow {
        INK
    } else {
        BACKGROUND
    };
    out.push_str(&label(&number.to_string(), c.0, c.1, s * 0.56, ink));
    out
}

/// Moves (a dashed trail), explosions (a burst two hexes wide), drownings and lightning (a
/// ring), drawn under the robots.
fn effects_under(turn: &[Event], layout: &Layout) -> String {
    let s = layout.s;
    let mut out = String::new();
    for event in turn {
        match event {
            Event::Moved { from, to, .. } => out.push_str(&line(
                layout.pos_centre(*from),
                layout.pos_centre(*to),
                &format!(
                    " stroke=\"{INK}\" stroke-width=\"{}\" stroke-dasharray=\"{} {}\"",
                    num(s / 10.0),
                    num(s / 4.0),
                    num(s / 6.0)
                ),
            )),
            Event::Exploded { at, .. } => {
                let (x, y) = layout.pos_centre(*at);
                let star: Vec<(f64, f64)> = regular(x, y, 1.0, 24, -90.0)
                    .iter()
                    .enumerate()
                    .map(|(i, (px, py))| {
                        let r = if i % 2 == 0 { 2.2 * s } else { 1.4 * s };
                        (x + (px - x) * r, y + (py - y) * r)
                    })
                    .collect();
                out.push_str(&polygon(
                    &star,
                    &format!(
                        " fill=\"{BURST}\" fill-opacity=\"0.6\" stroke=\"{SHOT}\" stroke-width=\"{}\"",
                        num(s / 10.0)
                    ),
                ));
            }
            Event::Drowned { at, .. } => out.push_str(&ring(layout.pos_centre(*at), s, LAKE)),
            Event::Lightning { at, .. } => out.push_str(&ring(layout.pos_centre(*at), s, BOLT)),
            _ => {}
        }
    }
    out
}

fn ring((x, y): (f64, f64), s: f64, colour: &str) -> String {
    circle(
        x,
        y,
        s * 0.85,
        &format!(
            " fill=\"none\" stroke=\"{colour}\" stroke-width=\"{}\"",
            num(s / 5.0)
        ),
    )
}

/// Each shot: a line from the shooter along its facing to where the shot stopped (the robot
/// or computer it hit, a shape under the advanced rule, the board's edge, or 2 hexes).
fn shots(m: &Match, turn: &[Event], layout: &Layout) -> String {
    let board = m.board();
    let s = layout.s;
    let mut out = String::new();
    for (i, event) in turn.iter().enumerate() {
        let Event::Fired { robot, facing, .. } = event else {
            continue;
        };
        let Some(id) = m.robot_by_name(*robot) else {
            continue;
        };
        let from = m.robot(id).cell;
        // What this shot did: the events after it, up to the next shot.
        let hit = turn[i + 1..]
            .iter()
            .take_while(|e| !matches!(e, Event::Fired { .. }))
            .find_map(|e| match e {
                Event::Hit { distance, .. } => Some(*distance),
                _ => None,
            });
        let mut end = layout.cell_centre(board, from);
        let mut cell = from;
        for distance in 1..=2u8 {
            let Some(next) = board.neighbour(cell, *facing) else {
                end = plus(end, unit(*facing), s * 0.87);
                break;
            };
            cell = next;
            end = layout.cell_centre(board, cell);
            let stops = match board.cell(cell).terrain {
                Terrain::Computer(_) => true,
                Terrain::Shape(..) => m.rules().shapes_block,
                _ => false,
            };
            if hit == Some(distance) || stops {
                break;
            }
        }
        let start = plus(layout.cell_centre(board, from), unit(*facing), s * 0.6);
        out.push_str(&shot_line(start, end, s));
    }
    out
}

/// A shot's line from `start` and the mark where it stopped, at `end`.
fn shot_line(start: (f64, f64), end: (f64, f64), s: f64) -> String {
    let mut out = line(
        start,
        end,
        &format!(
            " stroke=\"{SHOT}\" stroke-width=\"{}\" stroke-linecap=\"round\"",
            num(s / 5.0)
        ),
    );
    out.push_str(&polygon(
        &regular(end.0, end.1, s * 0.3, 4, 0.0),
        &format!(" fill=\"{SHOT}\""),
    ));
    out
}

/// Whether a robot turn changed what a picture shows: a move, a turn, a shot, an
/// explosion, a robot lost, lightning.
pub fn visible(turn: &[Event]) -> bool {
    turn.iter().any(|e| {
        matches!(
            e,
            Event::Moved { .. }
                | Event::Rotated { .. }
                | Event::Fired { .. }
                | Event::Hit { .. }
                | Event::ComputerHit { .. }
                | Event::Exploded { .. }
                | Event::Destroyed { .. }
                | Event::Drowned { .. }
                | Event::FellOff { .. }
                | Event::Lightning { .. }
        )
    })
}

/// Every colour the pictures use as it is (blends of camps and effects aside), for a fixed
/// palette.
pub fn palette() -> Vec<&'static str> {
    let mut colours = vec![
        BACKGROUND, PLAIN, OUTLINE, LAKE, LIGHTNING, BOLT, COMPUTER, INK, WRECK, SHOT, BURST,
    ];
    colours.extend(ShapeColour::ALL.map(shape_colour));
    colours.extend(TeamColour::ALL.map(team_colour));
    colours
}
