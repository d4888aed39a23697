//! Text drawings of boards and match states, for the CLI and for snapshots.
//!
//! Each hex is three characters wide; odd rows are shifted right by half a hex (two
//! characters). Every drawing ends with the direction numbering (R-A1) and a legend.

use crate::battle::board::{Board, CellId};
use crate::battle::engine::{Match, RobotId};
use crate::battle::hex::direction_legend;
use crate::battle::terrain::{Form, ShapeColour, TeamColour, Terrain};
use std::fmt::Write;

/// What a hex shows, for views that colour it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Look {
    Terrain(crate::battle::board::Cell),
    Robot(crate::battle::terrain::TeamColour),
}

/// The three characters of a hex and what they show: the robot on it, else its terrain.
pub fn hex_mark(board: &Board, state: Option<&Match>, id: CellId) -> (String, Look) {
    if let Some(robot) = state.and_then(|m| m.robot_at(id).map(|r| m.robot(r))) {
        let text = format!(
            "{}{}{}",
            robot.name.team.letter(),
            robot.name.number,
            robot.facing.arrow()
        );
        return (text, Look::Robot(robot.name.team));
    }
    (terrain_mark(board, id), Look::Terrain(*board.cell(id)))
}

/// The three characters of a hex without robots.
fn terrain_mark(board: &Board, id: CellId) -> String {
    let cell = board.cell(id);
    match cell.terrain {
        Terrain::Lake => " ~ ".into(),
        Terrain::Lightning => " ! ".into(),
        Terrain::Shape(form, colour) => {
            let (open, close) = form.brackets();
            format!("{open}{}{close}", colour.letter())
        }
        Terrain::Computer(c) => format!("#{}#", c.letter().to_ascii_uppercase()),
        Terrain::Plain => match (cell.camp, cell.start) {
            (Some(c), true) => format!(" {} ", c.letter().to_ascii_uppercase()),
            (Some(c), false) => format!(" {} ", c.letter()),
            (None, true) => " + ".into(),
            (None, false) => " . ".into(),
        },
    }
}

/// The column header of a board drawing.
pub fn column_header(board: &Board) -> String {
    let mut out = String::from("     ");
    for col in 0..board.width {
        let _ = write!(out, "{col:^4}");
    }
    out.trim_end().to_string()
}

/// The margin before a row's first hex: its number, and half a hex more on odd rows.
pub fn row_margin(row: usize) -> String {
    format!("{row:>3}  {}", if row % 2 == 1 { "  " } else { "" })
}

/// The ANSI colour of a team, or of a shape's colour.
fn team_code(c: TeamColour) -> &'static str {
    match c {
        TeamColour::Green => "32",
        TeamColour::Violet => "35",
        TeamColour::Red => "31",
        TeamColour::Blue => "34",
        TeamColour::Yellow => "33",
        TeamColour::Orange => "38;5;208",
    }
}

fn shape_code(c: ShapeColour) -> &'static str {
    match c {
        ShapeColour::Red => "31",
        ShapeColour::Blue => "34",
        ShapeColour::Green => "32",
        ShapeColour::Yellow => "33",
        ShapeColour::Orange => "38;5;208",
        ShapeColour::Black => "1;90",
    }
}

/// The ANSI attributes a hex is drawn with: a robot bold in its team's colour; a lake blue,
/// lightning bold yellow, a shape in its colour; a camp dim in its team's colour, a start
/// point bold, a computer reversed; plain ground dim.
fn look_code(look: Look) -> String {
    match look {
        Look::Robot(team) => format!("1;{}", team_code(team)),
        Look::Terrain(cell) => match (cell.terrain, cell.camp) {
            (Terrain::Lake, _) => "34".into(),
            (Terrain::Lightning, _) => "1;33".into(),
            (Terrain::Shape(_, c), _) => shape_code(c).into(),
            (Terrain::Computer(c), _) => format!("7;{}", team_code(c)),
            (Terrain::Plain, Some(c)) if cell.start => format!("1;{}", team_code(c)),
            (Terrain::Plain, Some(c)) => format!("2;{}", team_code(c)),
            (Terrain::Plain, None) if cell.start => "1".into(),
            (Terrain::Plain, None) => "2".into(),
        },
    }
}

/// A board drawing, with the robots of `state` if given; in colour with `colour` (ANSI).
fn draw(board: &Board, state: Option<&Match>, colour: bool) -> String {
    let mut out = column_header(board);
    out.push('\n');
    for row in 0..board.height {
        let mut line = row_margin(row);
        for col in 0..board.width {
            let id = board.cell_at_position(col, row).expect("inside the board");
            let (text, look) = hex_mark(board, state, id);
            if colour {
                let _ = write!(line, "\x1b[{}m{text}\x1b[0m ", look_code(look));
            } else {
                line.push_str(&text);
                line.push(' ');
            }
        }
        out.push_str(line.trim_end_matches(' '));
        out.push('\n');
    }
    out.push_str(&direction_legend());
    out.push('\n');
    out
}

/// What a board has, for its legend.
struct Present {
    lakes: bool,
    lightning: bool,
    forms: Vec<Form>,
    colours: Vec<ShapeColour>,
    camps: Vec<TeamColour>,
    computers: bool,
    /// Start points of no camp.
    outer: bool,
}

fn present(board: &Board) -> Present {
    let mut p = Present {
        lakes: false,
        lightning: false,
        forms: Vec::new(),
        colours: Vec::new(),
        camps: Vec::new(),
        computers: false,
        outer: false,
    };
    for (_, cell) in board.cells() {
        match cell.terrain {
            Terrain::Lake => p.lakes = true,
            Terrain::Lightning => p.lightning = true,
            Terrain::Shape(form, colour) => {
                p.forms.push(form);
                p.colours.push(colour);
            }
            Terrain::Computer(_) => p.computers = true,
            Terrain::Plain => {}
        }
        if let Some(c) = cell.camp {
            p.camps.push(c);
        }
        p.outer |= cell.camp.is_none() && cell.start;
    }
    p
}

/// The legend of a drawing, in lines under 80 columns: the terrain the board has, its
/// shapes (the bracket is the form, the letter its colour), the camps (a team's letter alone:
/// its camp; in capitals: a start point; between `#`: its computer), and the robots of
/// `teams` (a team's letter, a number, the facing). Only what the board and the match have.
pub fn legend(board: &Board, teams: &[TeamColour]) -> String {
    let Present {
        lakes,
        lightning,
        forms,
        colours,
        camps,
        computers,
        outer,
    } = present(board);
    let terrain: Vec<&str> = [
        (true, ". plain"),
        (lakes, "~ lake"),
        (lightning, "! lightning"),
        (outer, "+ start point of no camp"),
    ]
    .iter()
    .filter(|(has, _)| *has)
    .map(|(_, words)| *words)
    .collect();
    let mut lines = vec![format!("terrain: {}", terrain.join("  "))];
    if !forms.is_empty() {
        let forms: Vec<String> = Form::ALL
            .iter()
            .filter(|f| forms.contains(f))
            .map(|f| {
                let (open, close) = f.brackets();
                format!("{open} {close} {}", f.name())
            })
            .collect();
        let colours: Vec<String> = ShapeColour::ALL
            .iter()
            .filter(|c| colours.contains(c))
            .map(|c| format!("{} {}", c.letter(), c.name()))
            .collect();
        lines.push(format!("shapes: {}; inside, its colour:", forms.join("  ")));
        lines.push(format!("  {}", colours.join("  ")));
    }
    let camps: Vec<&TeamColour> = TeamColour::ALL
        .iter()
        .filter(|c| camps.contains(c))
        .collect();
    if let Some(&&c) = camps.first() {
        let names: Vec<String> = camps
            .iter()
            .map(|c| format!("{} {}", c.letter(), c.name()))
            .collect();
        let big = c.letter().to_ascii_uppercase();
        let computer = if computers {
            format!("  #{big}# its computer")
        } else {
            String::new()
        };
        lines.push(format!("camps: {}", names.join("  ")));
        lines.push(format!(
            "  {} its camp  {big} its start point{computer}",
            c.letter()
        ));
    }
    if let Some(&t) = teams.first() {
        let names: Vec<String> = teams
            .iter()
            .map(|t| format!("{} {}", t.letter(), t.name()))
            .collect();
        lines.push(format!(
            "robots: {}1{} {}.1 facing 1; teams: {}",
            t.letter(),
            crate::battle::hex::Direction::ALL[0].arrow(),
            t.name(),
            names.join("  ")
        ));
    }
    let mut out = String::new();
    for line in lines {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// A board on its own.
pub fn board(board: &Board) -> String {
    board_in(board, false)
}

/// A board on its own, in colour with `colour` (ANSI escapes).
pub fn board_in(board: &Board, colour: bool) -> String {
    format!(
        "{} ({} x {} hexes)\n{}{}",
        crate::text::escape(&board.name),
        board.width,
        board.height,
        draw(board, None, colour),
        legend(board, &[])
    )
}

/// A match state: the board with every robot (team letter, number, facing arrow), then one
/// line per robot.
pub fn state(m: &Match) -> String {
    state_in(m, false)
}

/// A match state, in colour with `colour` (ANSI escapes).
pub fn state_in(m: &Match, colour: bool) -> String {
    let mut out = draw(m.board(), Some(m), colour);
    let teams: Vec<TeamColour> = m.teams().iter().map(|t| t.colour).collect();
    out.push_str(&legend(m.board(), &teams));
    for id in m.robot_ids() {
        let _ = writeln!(out, "{}", robot_line(m, id, m.robot(id).alive));
    }
    out
}

/// One robot's public state in a line.
pub fn robot_line(m: &Match, id: RobotId, alive: bool) -> String {
    let r = m.robot(id);
    if !alive {
        return format!("{}: destroyed", r.name);
    }
    let (col, row) = m.board().offset(r.cell);
    let lost = r.destroyed_steps();
    let lost = if lost.is_empty() {
        String::new()
    } else {
        format!(
            ", lost steps {}",
            lost.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")
        )
    };
    let pointer = if r.pointer == 0 {
        "start".to_string()
    } else {
        format!("step {}", r.pointer)
    };
    // Under the TI-57 rule, its memories and remembered returns too (RULES A.12).
    let memories = m
        .memories(id)
        .map_or(String::new(), |c| format!("; {}", c.summary()));
    format!(
        "{}: at [{col}, {row}] facing {} {}, pointer {pointer}, {} shots{lost}{memories}",
        r.name,
        r.facing.number(),
        r.facing.arrow(),
        r.shots
    )
}
