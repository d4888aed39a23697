//! The words around a battle picture (docs/FORMATS.md, "Pictures"), so that a picture reads
//! on its own: a title (the match or the board) and a line under it (the board, scenario and
//! seed), the round counter, the goal while the match is played and the result once it is
//! over, a panel per team (its colour, each robot's number and program, the robots lost
//! greyed) and a key of the marks on the board with the direction numbering of R-A1.
//!
//! Sizes here are in hex radii (`S` = 1): the pictures' `Layout` (in `svg.rs`) scales them
//! with the board and says where they go ([`Place`]); it draws the key's marks where
//! [`Caption::key_marks`] puts them. What never changes during a match
//! ([`Caption::still`]) is apart from what does ([`Caption::changing`]), so an animation
//! draws the first once.

use crate::battle::board::Board;
use crate::battle::engine::{Match, MatchSetup, Scenario};
use crate::battle::hex::Direction;
use crate::battle::terrain::{Form, ShapeColour, TeamColour, Terrain};
use crate::text::palette::{INK, OUTLINE, PAPER as PLAIN, TEAMS, WHITE, WRECK, named};
use crate::text::svg::{clip, fits, label, line, num, polygon, text_width, words};

/// Left and right padding.
const PAD: f64 = 0.8;
/// The narrowest picture, so the words fit beside a small board.
const MIN_WIDTH: f64 = 24.0;
/// Text heights: the title and round, the line under the title, the rest.
const BIG: f64 = 0.8;
const SMALL: f64 = 0.45;
const TEXT: f64 = 0.55;
/// The height of a line of the team panel and of the key.
const LINE: f64 = 1.25;
/// A robot's disc in the team panel, and the room each takes.
const DISC: f64 = 0.42;
const DISC_STEP: f64 = 0.98;
/// The longest program name shown.
const NAME_CHARS: usize = 16;
/// Where the key's entries start, right of the direction legend.
const KEY_LEFT: f64 = PAD + 5.0;

/// What a picture says besides the board.
#[derive(Clone, Debug)]
pub struct Caption {
    title: String,
    subtitle: String,
    /// A match's: its scenario and round limit.
    game: Option<(Scenario, u32)>,
    teams: Vec<TeamKey>,
    marks: Vec<Mark>,
}

/// A team in the panel: its colour and each robot's program, in robot order.
#[derive(Clone, Debug)]
struct TeamKey {
    colour: TeamColour,
    programs: Vec<String>,
}

/// An entry of the key: what the pictures draw small beside its name.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mark {
    Lake,
    Lightning,
    Shape(Form, ShapeColour),
    Camp(TeamColour),
    Computer(TeamColour),
    Start,
    Robot(TeamColour),
    Lost,
    Shot,
}

impl Mark {
    fn words(self) -> &'static str {
        match self {
            Mark::Lake => "LAKE",
            Mark::Lightning => "LIGHTNING",
            Mark::Shape(Form::Square, _) => "SQUARE",
            Mark::Shape(Form::Triangle, _) => "TRIANGLE",
            Mark::Shape(Form::Circle, _) => "CIRCLE",
            Mark::Camp(_) => "CAMP",
            Mark::Computer(_) => "COMPUTER",
            Mark::Start => "START POINT",
            Mark::Robot(_) => "ROBOT, FACING",
            Mark::Lost => "DESTROYED",
            Mark::Shot => "SHOT",
        }
    }
}

/// Sizes of the words around the board, in hex radii.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    pub width: f64,
    /// Above the board.
    pub header: f64,
    /// Below the board: the team panel and the key.
    pub below: f64,
}

/// Where a picture's words go, in pixels: the hex radius, the picture's size, and where the
/// team panel starts under the board.
#[derive(Clone, Copy, Debug)]
pub struct Place {
    pub s: f64,
    pub width: f64,
    pub height: f64,
    pub below: f64,
}

/// What the team panel holds, left to right, line by line.
#[derive(Clone, Copy, Debug)]
enum Piece {
    /// A team's colour with its name.
    Banner(usize),
    /// A robot's disc: team, robot.
    Disc(usize, usize),
    /// A program's name: team, its first robot.
    Name(usize, usize),
}

impl Caption {
    /// A board's: its name, its size, the key of what is on it.
    pub fn board(board: &Board) -> Caption {
        Caption {
            title: board.name.clone(),
            subtitle: format!("{} × {} hexes", board.width, board.height),
            game: None,
            teams: Vec::new(),
            marks: marks(board, &[]),
        }
    }

    /// A match's: its name, its board, scenario and seed, its teams with their programs.
    pub fn game(setup: &MatchSetup) -> Caption {
        let teams: Vec<TeamKey> = setup
            .teams
            .iter()
            .map(|t| TeamKey {
                colour: t.colour,
                programs: t.robots.iter().map(|r| program_name(&r.origin)).collect(),
            })
            .collect();
        let colours: Vec<TeamColour> = teams.iter().map(|t| t.colour).collect();
        Caption {
            title: setup.name.clone(),
            subtitle: format!(
                "on {} · scenario {} · seed {}",
                setup.board.name,
                setup.scenario.number(),
                setup.seed
            ),
            game: Some((setup.scenario, setup.rules.rounds)),
            teams,
            marks: marks(&setup.board, &colours),
        }
    }

    /// The sizes around a board `board_width` wide.
    pub fn frame(&self, board_width: f64) -> Frame {
        let width = board_width.max(MIN_WIDTH);
        let header = if self.game.is_some() { 3.8 } else { 2.5 };
        let (_, lines) = self.team_flow(width);
        let teams = if lines == 0 {
            0.0
        } else {
            lines as f64 * LINE + 0.3
        };
        Frame {
            width,
            header,
            below: teams + self.key_height(width) + 0.4,
        }
    }

    /// What never changes: the title, the line under it, the team panel's names, the key.
    pub fn still(&self, place: &Place) -> String {
        let s = place.s;
        let width = place.width / s;
        let round_room = match self.game {
            Some((_, rounds)) => text_width(&round_words(rounds, rounds), BIG) + 1.0,
            None => 0.0,
        };
        let title_chars = fits(width - 2.0 * PAD - round_room, 0.75 * BIG, 4, 200);
        let title = clip(&self.title.to_uppercase(), title_chars);
        let mut out = words(&title, PAD * s, 0.9 * s, BIG * s, INK);
        let sub_chars = fits(width - 2.0 * PAD, 0.75 * SMALL, 4, 400);
        let subtitle = clip(&self.subtitle.to_uppercase(), sub_chars);
        out.push_str(&words(&subtitle, PAD * s, 1.85 * s, SMALL * s, INK));
        let (pieces, _) = self.team_flow(width);
        for (piece, x, line) in pieces {
            let cy = place.below + (line as f64 * LINE + 0.65) * s;
            match piece {
                Piece::Banner(t) => out.push_str(&banner(self.teams[t].colour, x, cy, s)),
                Piece::Name(t, r) => {
                    let name = &self.teams[t].programs[r];
                    out.push_str(&words(name, x * s, cy, TEXT * s, INK));
                }
                Piece::Disc(..) => {}
            }
        }
        out.push_str(&self.key(place));
        out
    }

    /// What a state of `m` changes: the round, the goal or the result, the robots lost.
    pub fn changing(&self, m: &Match, place: &Place) -> String {
        let Some((scenario, rounds)) = self.game else {
            return String::new();
        };
        let s = place.s;
        let width = place.width / s;
        let round = match m.outcome() {
            Some(o) => o.rounds,
            None if m.clock().slot == 0 && m.clock().next == 0 => m.clock().round.saturating_sub(1),
            None => m.clock().round,
        };
        let text = round_words(round, rounds);
        let x = width - PAD - text_width(&text, BIG);
        let mut out = words(&text, x * s, 0.9 * s, BIG * s, INK);
        out.push_str(&status(m, scenario, width, s));
        let (pieces, _) = self.team_flow(width);
        for (piece, x, line) in pieces {
            let Piece::Disc(t, r) = piece else { continue };
            let cy = place.below + (line as f64 * LINE + 0.65) * s;
            let alive = m
                .robots()
                .iter()
                .find(|robot| {
                    robot.name.team == self.teams[t].colour
                        && usize::from(robot.name.number) == r + 1
                })
                .is_some_and(|robot| robot.alive);
            out.push_str(&disc(
                self.teams[t].colour,
                r + 1,
                alive,
                (x + DISC) * s,
                cy,
                s,
            ));
        }
        out
    }

    /// The team panel laid out in `width`: each piece with its left edge and its line.
    fn team_flow(&self, width: f64) -> (Vec<(Piece, f64, usize)>, usize) {
        let mut pieces = Vec::new();
        let mut line = 0;
        for (t, team) in self.teams.iter().enumerate() {
            let mut x = PAD;
            pieces.push((Piece::Banner(t), x, line));
            x += banner_width(team.colour) + 0.4;
            let indent = x;
            let mut r = 0;
            while r < team.programs.len() {
                let same = team.programs[r..]
                    .iter()
                    .take_while(|p| **p == team.programs[r])
                    .count();
                let room = same as f64 * DISC_STEP + 0.2 + text_width(&team.programs[r], TEXT);
                if x > indent && x + room > width - PAD {
                    (x, line) = (indent, line + 1);
                }
                for k in r..r + same {
                    pieces.push((Piece::Disc(t, k), x, line));
                    x += DISC_STEP;
                }
                pieces.push((Piece::Name(t, r), x + 0.2, line));
                x += room - same as f64 * DISC_STEP + 0.8;
                r += same;
            }
            line += 1;
        }
        (pieces, line)
    }

    /// How many of the key's entries go on a line, and how wide each is.
    fn key_columns(&self, width: f64) -> (usize, f64) {
        let widest = self
            .marks
            .iter()
            .map(|m| text_width(m.words(), TEXT))
            .fold(0.0, f64::max);
        let column = 1.3 + widest + 0.8;
        (fits(width - PAD - KEY_LEFT, column, 1, 20), column)
    }

    fn key_height(&self, width: f64) -> f64 {
        let (columns, _) = self.key_columns(width);
        let lines = self.marks.len().div_ceil(columns);
        (lines as f64 * LINE + 0.4).max(4.7)
    }

    /// Each mark of the key with the centre of its picture, in pixels, and the room it has
    /// (its radius).
    pub fn key_marks(&self, place: &Place) -> Vec<(Mark, (f64, f64), f64)> {
        let s = place.s;
        let width = place.width / s;
        let top = place.height / s - 0.4 - self.key_height(width);
        let (columns, column) = self.key_columns(width);
        (0..self.marks.len())
            .map(|i| {
                let x = KEY_LEFT + (i % columns) as f64 * column;
                let cy = top + 0.75 + (i / columns) as f64 * LINE;
                (self.marks[i], ((x + 0.55) * s, cy * s), 0.55 * s)
            })
            .collect()
    }

    /// The direction legend, then each mark's name (its picture is drawn by the caller).
    fn key(&self, place: &Place) -> String {
        let s = place.s;
        let top = place.height / s - 0.4 - self.key_height(place.width / s);
        let mut out = legend((PAD + 2.2) * s, (top + 2.35) * s, s);
        for (mark, (x, y), r) in self.key_marks(place) {
            out.push_str(&words(mark.words(), x + r + 0.2 * s, y, TEXT * s, INK));
        }
        out
    }
}

/// The name a robot's program goes by: its file's name without folders or `.robot`.
fn program_name(origin: &str) -> String {
    let base = origin.rsplit(['/', '\\']).next().unwrap_or(origin);
    let base = base.strip_suffix(".robot").unwrap_or(base);
    clip(&base.to_uppercase(), NAME_CHARS)
}

fn round_words(round: u32, rounds: u32) -> String {
    format!("ROUND {round}/{rounds}")
}

/// The marks a board shows, in the key's order; with teams, what robots look like too.
fn marks(board: &Board, teams: &[TeamColour]) -> Vec<Mark> {
    let mut found = Vec::new();
    let mut add = |m: Mark| {
        let same = |a: &Mark| match (a, m) {
            (Mark::Shape(f, _), Mark::Shape(g, _)) => *f == g,
            (Mark::Camp(_), Mark::Camp(_)) | (Mark::Computer(_), Mark::Computer(_)) => true,
            (a, m) => *a == m,
        };
        if !found.iter().any(same) {
            found.push(m);
        }
    };
    for (_, cell) in board.cells() {
        match cell.terrain {
            Terrain::Plain => {}
            Terrain::Lake => add(Mark::Lake),
            Terrain::Lightning => add(Mark::Lightning),
            Terrain::Shape(form, colour) => add(Mark::Shape(form, colour)),
            Terrain::Computer(team) => add(Mark::Computer(team)),
        }
        if let Some(team) = cell.camp {
            add(Mark::Camp(team));
        }
        if cell.start {
            add(Mark::Start);
        }
    }
    let rank = |m: &Mark| match m {
        Mark::Lake => 0,
        Mark::Lightning => 1,
        Mark::Shape(Form::Square, _) => 2,
        Mark::Shape(Form::Triangle, _) => 3,
        Mark::Shape(Form::Circle, _) => 4,
        Mark::Camp(_) => 5,
        Mark::Computer(_) => 6,
        _ => 7,
    };
    found.sort_by_key(rank);
    if let Some(&team) = teams.first() {
        found.extend([Mark::Robot(team), Mark::Lost, Mark::Shot]);
    }
    found
}

/// The colour of a team.
fn team_colour(c: TeamColour) -> &'static str {
    named(&TEAMS, c.name())
}

/// The unit vector of a facing on the screen (1 east, then clockwise, y down).
pub fn unit(d: Direction) -> (f64, f64) {
    let a = (60.0 * f64::from(d.number() - 1)).to_radians();
    (a.cos(), a.sin())
}

/// `(x, y)` moved `k` times `(dx, dy)`.
pub fn plus((x, y): (f64, f64), (dx, dy): (f64, f64), k: f64) -> (f64, f64) {
    (x + dx * k, y + dy * k)
}

/// The line under the title: the goal while the match is played, then the result.
fn status(m: &Match, scenario: Scenario, width: f64, s: f64) -> String {
    let (text, fill, ink) = match m.outcome() {
        Some(o) => {
            let text = format!(
                "{} after {}",
                o.verdict(),
                crate::text::count(o.rounds, "round")
            );
            match o.winner {
                Some(team) => (text, team_colour(team), ink_on(team)),
                None => (text, INK, WHITE),
            }
        }
        None => {
            let goal = match scenario {
                Scenario::Elimination => "goal: destroy every enemy robot",
                Scenario::CampRaid => "goal: be the first to enter an enemy camp",
                Scenario::ComputerStrike => "goal: from an enemy camp, shoot its computer",
            };
            (goal.to_string(), PLAIN, INK)
        }
    };
    let (top, height) = (2.45, 1.0);
    let mut out = polygon(
        &[
            (PAD * s, top * s),
            ((width - PAD) * s, top * s),
            ((width - PAD) * s, (top + height) * s),
            (PAD * s, (top + height) * s),
        ],
        &format!(
            " fill=\"{fill}\" stroke=\"{OUTLINE}\" stroke-width=\"{}\"",
            num(s / 16.0)
        ),
    );
    let chars = fits(width - 2.0 * PAD - 0.6, 0.75 * TEXT, 4, 400);
    let text = clip(&text.to_uppercase(), chars);
    out.push_str(&label(
        &text,
        width / 2.0 * s,
        (top + height / 2.0) * s,
        TEXT * s,
        ink,
    ));
    out
}

/// The ink that reads on a team's colour.
fn ink_on(team: TeamColour) -> &'static str {
    if team == TeamColour::Yellow {
        INK
    } else {
        WHITE
    }
}

fn banner_width(team: TeamColour) -> f64 {
    text_width(team.name(), TEXT) + 0.7
}

/// A team's name on its colour, its left edge at `x` (in hex radii).
fn banner(team: TeamColour, x: f64, cy: f64, s: f64) -> String {
    let (w, h) = (banner_width(team), 0.95);
    let mut out = polygon(
        &[
            (x * s, cy - h / 2.0 * s),
            ((x + w) * s, cy - h / 2.0 * s),
            ((x + w) * s, cy + h / 2.0 * s),
            (x * s, cy + h / 2.0 * s),
        ],
        &format!(" fill=\"{}\"", team_colour(team)),
    );
    let name = team.name().to_uppercase();
    out.push_str(&label(&name, (x + w / 2.0) * s, cy, TEXT * s, ink_on(team)));
    out
}

/// A robot of the team panel: its disc and number, grey and struck through once lost.
fn disc(team: TeamColour, number: usize, alive: bool, x: f64, y: f64, s: f64) -> String {
    let r = DISC * s;
    let (fill, ink) = if alive {
        (team_colour(team), ink_on(team))
    } else {
        (WRECK, INK)
    };
    let mut out = crate::text::svg::circle(
        x,
        y,
        r,
        &format!(
            " fill=\"{fill}\" stroke=\"{INK}\" stroke-width=\"{}\"",
            num(s / 16.0)
        ),
    );
    if !alive {
        let k = r * 0.8;
        let strike = format!(" stroke=\"{OUTLINE}\" stroke-width=\"{}\"", num(s / 12.0));
        out.push_str(&line((x - k, y - k), (x + k, y + k), &strike));
        out.push_str(&line((x - k, y + k), (x + k, y - k), &strike));
    }
    out.push_str(&label(&number.to_string(), x, y, r * 1.15, ink));
    out
}

/// The direction numbering (R-A1) around `(cx, cy)`: a hex with an arrow and a number
/// towards each side.
fn legend(cx: f64, cy: f64, s: f64) -> String {
    let c = (cx, cy);
    let mut out = polygon(
        &crate::text::svg::regular(cx, cy, 1.3 * s, 6, -90.0),
        &format!(
            " fill=\"{PLAIN}\" stroke=\"{INK}\" stroke-width=\"{}\"",
            num(s / 12.0)
        ),
    );
    let arrows = format!(" stroke=\"{INK}\" stroke-width=\"{}\"", num(s / 12.0));
    for d in Direction::ALL {
        let u = unit(d);
        out.push_str(&line(plus(c, u, s * 0.2), plus(c, u, s * 0.85), &arrows));
        let tip = plus(c, u, s * 1.0);
        let side = (-u.1, u.0);
        let head = [
            tip,
            plus(plus(c, u, s * 0.72), side, s * 0.14),
            plus(plus(c, u, s * 0.72), side, -s * 0.14),
        ];
        out.push_str(&polygon(&head, &format!(" fill=\"{INK}\"")));
        let at = plus(c, u, s * 1.75);
        out.push_str(&label(&d.number().to_string(), at.0, at.1, s * 0.6, INK));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_goes_by_its_file_name() {
        assert_eq!(program_name("programs/hunter.robot"), "HUNTER");
        assert_eq!(program_name("C:\\bots\\my_bot.robot"), "MY_BOT");
        assert_eq!(program_name("inline"), "INLINE");
        assert_eq!(program_name("a-very-long-program-name"), "A-VERY-LONG-PR..");
    }

    /// Nine robots of different programs wrap onto more lines, each piece within the width.
    #[test]
    fn the_team_panel_wraps_within_the_picture() {
        let programs: Vec<String> = (1..=9).map(|i| format!("PROGRAM-NUMBER-{i}")).collect();
        let caption = Caption {
            title: "t".into(),
            subtitle: String::new(),
            game: Some((Scenario::Elimination, 10)),
            teams: vec![
                TeamKey {
                    colour: TeamColour::Green,
                    programs: programs.clone(),
                },
                TeamKey {
                    colour: TeamColour::Yellow,
                    programs: vec!["SAME".into(); 9],
                },
            ],
            marks: Vec::new(),
        };
        let width = MIN_WIDTH;
        let (pieces, lines) = caption.team_flow(width);
        assert!(lines >= 4, "{lines} lines");
        for (piece, x, _) in &pieces {
            let right = match piece {
                Piece::Name(t, r) => x + text_width(&caption.teams[*t].programs[*r], TEXT),
                Piece::Disc(..) => x + 2.0 * DISC,
                Piece::Banner(t) => x + banner_width(caption.teams[*t].colour),
            };
            assert!(right <= width - PAD + 1e-9, "{piece:?} ends at {right}");
        }
        let names = pieces
            .iter()
            .filter(|p| matches!(p.0, Piece::Name(1, _)))
            .count();
        assert_eq!(names, 1, "nine robots of one program share its name");
        assert!(caption.frame(10.0).width >= MIN_WIDTH);
    }
}
