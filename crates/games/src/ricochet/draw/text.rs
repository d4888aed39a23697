//! The text drawings of Ricochet boards and positions: column numbers above and row numbers
//! beside the board (the `[x, y]` of position files and of the game's log), walls, the
//! centre, targets, diagonals, robots and the goal, and a legend naming what the drawing
//! shows. Colour (ANSI) only when the caller says so (`--color`, `NO_COLOR`).

use crate::ricochet::board::{Board, Cell, Colour, Dir};
use crate::ricochet::position::Position;

/// A board with its robots (a custom board's robots stand on their bases).
pub fn board(b: &Board, robots: &[(Colour, Cell)], colour: bool) -> String {
    draw(b, robots, None, colour)
}

/// A position: its board, its robots and its goal (which robot, which cell).
pub fn position(p: &Position, colour: bool) -> String {
    draw(
        &p.board,
        &p.robots,
        Some((p.goal.cell, p.goal.robot)),
        colour,
    )
}

/// The ANSI colour of a robot colour.
fn ansi(c: Colour) -> &'static str {
    match c {
        Colour::Red => "31",
        Colour::Green => "32",
        Colour::Yellow => "33",
        Colour::Blue => "34",
        Colour::Silver => "37",
        Colour::Transparent => "36",
    }
}

/// `text` in colour `c` (bold for robots), or as it is.
fn paint(text: &str, c: Colour, bold: bool, colour: bool) -> String {
    let weight = if bold { "1;" } else { "" };
    paint_code(text, &format!("{weight}{}", ansi(c)), colour)
}

/// `text` with the ANSI attributes `code` (such as `1;35`), or as it is.
fn paint_code(text: &str, code: &str, colour: bool) -> String {
    if colour {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// The ANSI attributes of the goal's mark: its robot's colour (magenta, the vortex's, for any
/// robot), reversed so that the goal stands out.
fn goal_code(robot: Option<Colour>) -> String {
    format!("1;7;{}", robot.map_or("35", ansi))
}

/// The characters of `text` a terminal shows: the ANSI colour codes take no room.
fn width(text: &str) -> usize {
    plain(text).chars().count()
}

/// `text` without its ANSI colour codes.
fn plain(text: &str) -> String {
    let mut out = String::new();
    let mut in_code = false;
    for c in text.chars() {
        match (in_code, c) {
            (false, '\x1b') => in_code = true,
            (true, 'm') => in_code = false,
            (true, _) => {}
            (false, c) => out.push(c),
        }
    }
    out
}

/// The vortex's mark, bold magenta: it is every colour.
const VORTEX: &str = "1;35";

/// The first letter of a target's symbol (`c` circle, `t` triangle, …).
fn symbol_letter(symbol: &str) -> char {
    symbol.chars().next().unwrap_or('?')
}

/// The three characters of cell `c`; in colour, the goal's mark stands out.
fn mark(
    b: &Board,
    c: Cell,
    robots: &[(Colour, Cell)],
    goal: Option<(Cell, Option<Colour>)>,
    colour: bool,
) -> String {
    let goal_robot = goal.filter(|(g, _)| *g == c).map(|(_, robot)| robot);
    if let Some((robot, _)) = robots.iter().find(|(_, p)| *p == c) {
        let letter = robot.letter().to_ascii_uppercase().to_string();
        format!(" {} ", paint(&letter, *robot, true, colour))
    } else if b.blocked[usize::from(c)] {
        "###".to_string()
    } else if let Some(t) = b.targets.iter().find(|t| t.cell == c) {
        let text = match t.colour {
            None => "**".to_string(),
            Some(col) => format!("{}{}", col.letter(), symbol_letter(&t.symbol)),
        };
        let code = match (goal_robot, t.colour) {
            (Some(robot), _) => goal_code(robot),
            (None, None) => VORTEX.to_string(),
            (None, Some(col)) => ansi(col).to_string(),
        };
        format!(" {}", paint_code(&text, &code, colour))
    } else if let Some(robot) = goal_robot {
        format!(" {} ", paint_code("@", &goal_code(robot), colour))
    } else if let Some(d) = b.diagonals[usize::from(c)] {
        let text = format!(
            "{}{}",
            if d.backslash { '\\' } else { '/' },
            d.colour.letter()
        );
        format!(" {}", paint(&text, d.colour, false, colour))
    } else {
        "   ".to_string()
    }
}

fn draw(
    b: &Board,
    robots: &[(Colour, Cell)],
    goal: Option<(Cell, Option<Colour>)>,
    colour: bool,
) -> String {
    // Row numbers as wide as the last one, then a space.
    let margin = b.height.saturating_sub(1).to_string().len();
    let blank = " ".repeat(margin + 1);
    let mut out = blank.clone();
    for x in 0..b.width {
        // The number's last digit above the middle of its cell.
        out.push_str(&format!("{x:>3} "));
    }
    out = out.trim_end().to_string();
    out.push('\n');
    for y in 0..b.height {
        // The line above row y: walls on north sides.
        out.push_str(&blank);
        out.push('+');
        for x in 0..b.width {
            let c = b.cell(x, y);
            out.push_str(if b.wall(c, Dir::N) { "---+" } else { "   +" });
        }
        out.push('\n');
        out.push_str(&format!("{y:>margin$} "));
        for x in 0..b.width {
            let c = b.cell(x, y);
            out.push(if b.wall(c, Dir::W) { '|' } else { ' ' });
            out.push_str(&mark(b, c, robots, goal, colour));
        }
        out.push_str("|\n");
    }
    out.push_str(&blank);
    out.push('+');
    out.push_str(&"---+".repeat(usize::from(b.width)));
    out.push('\n');
    for line in legend(b, robots, goal, colour) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The legend: what the drawing's marks mean, only those it shows.
fn legend(
    b: &Board,
    robots: &[(Colour, Cell)],
    goal: Option<(Cell, Option<Colour>)>,
    colour: bool,
) -> Vec<String> {
    let mut lines = Vec::new();
    if !robots.is_empty() {
        let names: Vec<String> = robots
            .iter()
            .map(|(c, _)| {
                let letter = c.letter().to_ascii_uppercase().to_string();
                format!("{} {c}", paint(&letter, *c, true, colour))
            })
            .collect();
        let bases = if b.bases.is_empty() || goal.is_some() {
            ""
        } else {
            " (on their bases)"
        };
        lines.push(format!("robots: {}{bases}", names.join(", ")));
    }
    if let Some((cell, robot)) = goal {
        let (x, y) = b.xy(cell);
        let who = robot.map_or("any robot".to_string(), |c| format!("the {c} robot"));
        let shown = match b.targets.iter().find(|t| t.cell == cell) {
            Some(t) => match t.colour {
                Some(c) => format!("{}{}", c.letter(), symbol_letter(&t.symbol)),
                None => "**".to_string(),
            },
            None => "@".to_string(),
        };
        let shown = paint_code(&shown, &goal_code(robot), colour);
        lines.push(format!("goal: {who} to [{x}, {y}] ({shown})"));
    }
    let mut marks = Vec::new();
    let mut symbols: Vec<&str> = b
        .targets
        .iter()
        .filter(|t| t.colour.is_some())
        .map(|t| t.symbol.as_str())
        .collect();
    symbols.sort_unstable();
    symbols.dedup();
    if !symbols.is_empty() {
        let named: Vec<String> = symbols
            .iter()
            .map(|s| format!("{} {s}", symbol_letter(s)))
            .collect();
        marks.push(format!(
            "rc a target: colour and symbol letter ({})",
            named.join(", ")
        ));
    }
    if b.targets.iter().any(|t| t.colour.is_none()) {
        let vortex = paint_code("**", VORTEX, colour);
        marks.push(format!("{vortex} the vortex (any robot)"));
    }
    if b.diagonals.iter().any(Option::is_some) {
        marks.push("\\b /b a diagonal and its colour".to_string());
    }
    if b.blocked.iter().any(|&blocked| blocked) {
        marks.push("### the centre".to_string());
    }
    marks.push("| --- walls".to_string());
    marks.push("a cell is [x, y]: column x, row y".to_string());
    // The marks joined by `; `, a line at most 78 characters long.
    let mut line = String::new();
    for m in marks {
        if !line.is_empty() && width(&line) + 2 + width(&m) > 78 {
            lines.push(std::mem::take(&mut line) + ";");
        }
        if !line.is_empty() {
            line.push_str("; ");
        }
        line.push_str(&m);
    }
    lines.push(line);
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Colour changes the marks, never where the legend's lines break.
    #[test]
    fn colour_takes_no_room() {
        assert_eq!(width(&paint_code("**", VORTEX, true)), 2);
        use crate::ricochet::files::quarters::{from_quadrants, original_arrangements};
        let b = from_quadrants(&original_arrangements()[0]).unwrap();
        let uncoloured = board(&b, &[], false);
        let coloured = board(&b, &[], true);
        assert!(coloured.contains("\x1b[1;35m**\x1b[0m the vortex"));
        assert_eq!(plain(&coloured), uncoloured);
    }
}
