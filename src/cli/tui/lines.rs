//! What each pane holds, as lines of styled text: the board, a program, the TI-57 memories,
//! the answer, the watches. The layout measures them; the panes draw them.

use super::wrap::{hanging, wrap};
use super::{Tone, Ui, watch_text};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use robots_games::battle::engine::RobotId;
use robots_games::battle::live::debug::{Mark, Session, WatchValue};
use robots_games::battle::show::render::{Look, hex_mark};
use robots_games::battle::terrain::{ShapeColour, TeamColour, Terrain};

pub const DIM: Style = Style::new().fg(Color::DarkGray);
pub const HIGHLIGHT: Style = Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD);
/// The memories of the TI-57 rule under a program's title.
const MEMORY: Style = Style::new().fg(Color::Cyan);

pub fn team_colour(t: TeamColour) -> Color {
    match t {
        TeamColour::Green => Color::Green,
        TeamColour::Violet => Color::Magenta,
        TeamColour::Red => Color::Red,
        TeamColour::Blue => Color::Blue,
        TeamColour::Yellow => Color::Yellow,
        TeamColour::Orange => Color::Indexed(208),
    }
}

fn shape_colour(c: ShapeColour) -> Color {
    match c {
        ShapeColour::Red => Color::Red,
        ShapeColour::Blue => Color::Blue,
        ShapeColour::Green => Color::Green,
        ShapeColour::Yellow => Color::Yellow,
        ShapeColour::Orange => Color::Indexed(208),
        ShapeColour::Black => Color::DarkGray,
    }
}

fn look_style(look: Look) -> Style {
    match look {
        Look::Robot(t) => Style::new()
            .fg(Color::Black)
            .bg(team_colour(t))
            .add_modifier(Modifier::BOLD),
        Look::Terrain(cell) => match cell.terrain {
            Terrain::Lake => Style::new()
                .fg(Color::LightBlue)
                .add_modifier(Modifier::BOLD),
            Terrain::Lightning => Style::new()
                .fg(Color::LightYellow)
                .add_modifier(Modifier::BOLD),
            Terrain::Shape(_, c) => Style::new()
                .fg(shape_colour(c))
                .add_modifier(Modifier::BOLD),
            Terrain::Computer(t) => Style::new()
                .fg(team_colour(t))
                .add_modifier(Modifier::REVERSED | Modifier::BOLD),
            Terrain::Plain => match cell.camp {
                Some(t) => Style::new().fg(team_colour(t)),
                None => Style::new().fg(Color::Gray),
            },
        },
    }
}

pub fn board_lines(session: &Session) -> Vec<Line<'static>> {
    let m = session.current();
    board_lines_with(m.board(), Some(m), &|_| None)
}

/// A board drawing with the robots of `m` if given, and `over` drawn over any hex it names
/// (a placement's cursor, the free start points).
pub fn board_lines_with(
    board: &robots_games::battle::board::Board,
    m: Option<&robots_games::battle::engine::Match>,
    over: &dyn Fn(robots_games::battle::board::CellId) -> Option<(String, Style)>,
) -> Vec<Line<'static>> {
    let mut lines =
        vec![Line::from(robots_games::battle::show::render::column_header(board)).style(DIM)];
    for row in 0..board.height {
        let mut spans = vec![Span::styled(
            robots_games::battle::show::render::row_margin(row),
            DIM,
        )];
        for col in 0..board.width {
            let id = board.cell_at_position(col, row).expect("inside the board");
            let (text, style) = over(id).unwrap_or_else(|| {
                let (text, look) = hex_mark(board, m, id);
                (text, look_style(look))
            });
            if col > 0 {
                spans.push(Span::raw(" "));
            }
            spans.push(Span::styled(text, style));
        }
        lines.push(Line::from(spans));
    }
    lines.push(Line::from(robots_games::battle::hex::direction_legend()).style(DIM));
    lines
}

/// A robot's program for a column `width` wide: its steps, and its tests wrapped, beside the
/// steps when that is shorter, else under them. `first`: the robot shown first (underlined).
pub fn program_block(
    session: &Session,
    id: RobotId,
    width: u16,
    first: bool,
) -> Vec<Line<'static>> {
    let m = session.current();
    let mut header = Style::new()
        .fg(team_colour(m.robot(id).name.team))
        .add_modifier(Modifier::BOLD);
    if first {
        header = header.add_modifier(Modifier::UNDERLINED);
    }
    let memory = memory_lines(session, id, usize::from(width.max(1)));
    block(&session.program_view(id), memory, width, header)
}

/// The most rows robot `id`'s block can take at `width`, whatever the moment of the match:
/// its header as long as it gets (`destroyed`), the `start` (or `(empty)`) line counted,
/// the TI-57 memories with numbers six characters wide. The layout measures this, not the
/// block now, so the panes keep their places as the match goes on.
pub fn block_bound(session: &Session, id: RobotId, width: u16) -> usize {
    let m = session.current();
    let view = session.program_view(id);
    let mut rows: Vec<String> = view.lines().map(str::to_string).collect();
    if let Some((who, state)) = rows.first().and_then(|h| h.rsplit_once(": "))
        && state.chars().count() < "destroyed".len()
    {
        rows[0] = format!("{who}: destroyed");
    }
    if !rows
        .iter()
        .any(|l| l.ends_with(" start") || l.ends_with("(empty)"))
    {
        rows.insert(1.min(rows.len()), "  ●    start".to_string());
    }
    let memory: Vec<Line<'static>> = match m.memories(id) {
        Some(_) => {
            let (n, width) = ("-99999".to_string(), usize::from(width.max(1)));
            let r = vec![n.clone(); 8];
            memory_text((&n, &n), &r, "step 15, step 15", true, width)
                .iter()
                .flat_map(|l| wrap(l, width, 2))
                .map(Line::raw)
                .collect()
        }
        None => Vec::new(),
    };
    let now = program_block(session, id, width, false).len();
    block(&(rows.join("\n") + "\n"), memory, width, Style::new())
        .len()
        .max(now)
}

/// A program view's lines for a column `width` wide, `memory` under the header.
fn block(view: &str, memory: Vec<Line<'static>>, width: u16, header: Style) -> Vec<Line<'static>> {
    let mut rows = view.lines();
    let width = usize::from(width.max(1));
    let mut lines: Vec<Line<'static>> = wrap(rows.next().unwrap_or(""), width, 2)
        .into_iter()
        .map(|l| Line::styled(l, header))
        .collect();
    lines.extend(memory);
    let (tests, steps): (Vec<&str>, Vec<&str>) = rows.partition(|l| {
        let t = l.trim_start();
        t.starts_with('?') || t.starts_with("test ")
    });
    let step_width = steps.iter().map(|s| s.chars().count()).max().unwrap_or(0) + 2;
    let under =
        |w: usize| -> Vec<Line<'static>> { tests.iter().flat_map(|t| test_lines(t, w)).collect() };
    let below = under(width);
    let beside = (width >= step_width + 24).then(|| under(width - step_width));
    match beside {
        Some(beside) if beside.len().max(steps.len()) < steps.len() + below.len() => {
            for i in 0..steps.len().max(beside.len()) {
                let step = steps.get(i).copied().unwrap_or("");
                let pad = step_width - step.chars().count();
                let mut spans = step_line(step).spans;
                spans.push(Span::raw(" ".repeat(pad)));
                if let Some(test) = beside.get(i) {
                    spans.extend(test.spans.iter().cloned());
                }
                lines.push(Line::from(spans));
            }
        }
        _ => {
            lines.extend(steps.iter().flat_map(|s| step_lines(s, width)));
            lines.extend(below);
        }
    }
    lines
}

/// Under the TI-57 rule (RULES A.12), a living robot's memories and remembered returns, in
/// the words of `show robot`, wrapped to `width`; nothing in a plain match.
pub fn memory_lines(session: &Session, id: RobotId, width: usize) -> Vec<Line<'static>> {
    let m = session.current();
    let Some(c) = m.memories(id).filter(|_| m.robot(id).alive) else {
        return Vec::new();
    };
    let r: Vec<String> = c.r.iter().map(i32::to_string).collect();
    let back: Vec<String> = c.remembered().iter().map(|s| format!("step {s}")).collect();
    let back = if back.is_empty() {
        "none".to_string()
    } else {
        back.join(", ")
    };
    memory_text(
        (&c.x.to_string(), &c.t.to_string()),
        &r,
        &back,
        c.stopped,
        width,
    )
    .iter()
    .flat_map(|l| wrap(l, width, 2))
    .map(|l| Line::styled(l, MEMORY))
    .collect()
}

/// The memory lines before wrapping: `x`, `t` and R0-R7 on one line if it fits in `width`,
/// else on two; then the returns.
fn memory_text(
    (x, t): (&str, &str),
    r: &[String],
    back: &str,
    stopped: bool,
    width: usize,
) -> Vec<String> {
    let stopped = if stopped { " · stopped (R/S)" } else { "" };
    let (xt, r) = (format!("  x = {x}  t = {t}"), r.join(" "));
    let mut text = vec![format!("{xt}  R0-R7: {r}")];
    if text[0].chars().count() > width {
        text = vec![xt, format!("  R0-R7: {r}")];
    }
    text.push(format!("  returns: {back}{stopped}"));
    text
}

/// A step line cut to `width`: a long step (`x = TERM`) wraps under its text, past the
/// marks and the number (`  ●✗ 12  `).
fn step_lines(text: &str, width: usize) -> Vec<Line<'static>> {
    const MARGIN: usize = 9;
    let style = step_line(text).style;
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= width || chars.len() <= MARGIN || width <= MARGIN + 8 {
        return vec![step_line(text)];
    }
    let head: String = chars[..MARGIN].iter().collect();
    let body: String = chars[MARGIN..].iter().collect();
    wrap(&body, width - MARGIN, 2)
        .into_iter()
        .enumerate()
        .map(|(i, l)| {
            let lead = if i == 0 {
                head.clone()
            } else {
                " ".repeat(MARGIN)
            };
            Line::styled(format!("{lead}{l}"), style)
        })
        .collect()
}

fn step_line(text: &str) -> Line<'static> {
    let style = if text.contains('▶') {
        Style::new().add_modifier(Modifier::REVERSED)
    } else if text.contains('✗') {
        DIM.add_modifier(Modifier::CROSSED_OUT)
    } else {
        Style::new()
    };
    Line::styled(text.to_string(), style)
}

/// A test line (`?1 yes CONDITION`) wrapped to `width`, its answer in colour.
fn test_lines(text: &str, width: usize) -> Vec<Line<'static>> {
    wrap(text.trim_start(), width, 3)
        .into_iter()
        .enumerate()
        .map(|(i, line)| {
            let mut words = line.splitn(3, ' ');
            let (label, value) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
            let colour = match value {
                "yes" => Some(Color::Green),
                "no" => Some(Color::Red),
                _ => None,
            };
            match colour {
                Some(c) if i == 0 => Line::from(vec![
                    Span::raw(format!("{label} ")),
                    Span::styled(
                        value.to_string(),
                        Style::new().fg(c).add_modifier(Modifier::BOLD),
                    ),
                    Span::raw(line[label.len() + 1 + value.len()..].to_string()),
                ]),
                _ => Line::raw(line),
            }
        })
        .collect()
}

/// The answer's lines wrapped to `width`: errors red, a breakpoint's stop highlighted.
pub fn answer_lines(ui: &Ui, width: u16) -> Vec<Line<'static>> {
    let width = usize::from(width.max(1));
    ui.answer
        .lines()
        .flat_map(|line| {
            let style = match ui.tone {
                Tone::Error => Style::new().fg(Color::Red),
                Tone::Stopped if ui.stopped.as_deref() == Some(line.trim_end()) => HIGHLIGHT,
                _ => Style::new(),
            };
            wrap(line, width, hanging(line, width))
                .into_iter()
                .map(move |l| Line::styled(l, style))
        })
        .collect()
}

/// The most rows the watches' pane can need at `width`, whatever the moment: each watch
/// with its longest value and `(changed)`, each player with a signal waiting. The layout
/// measures this, so the pane does not grow and shrink as values change.
pub fn watch_rows_bound(session: &Session, ui: &Ui, width: u16) -> usize {
    let now = watch_lines(session, ui, width).len();
    let width = usize::from(width.max(1));
    let rows = |line: &str| wrap(line, width, 2).len();
    let bound: usize = match &ui.table {
        Some(table) => table
            .players
            .iter()
            .map(|l| match l.contains("waiting") {
                true => rows(l),
                false => rows(&format!("{l}, signal waiting for violet.1")),
            })
            .sum(),
        None => session
            .watch_values()
            .iter()
            .map(|(w, _)| rows(&format!("{w} = (robot destroyed) (changed)")))
            .sum(),
    };
    now.max(bound)
}

/// Each watch with its value (a value the last command changed highlighted), then each
/// breakpoint, wrapped to `width`.
pub fn watch_lines(session: &Session, ui: &Ui, width: u16) -> Vec<Line<'static>> {
    let width = usize::from(width.max(1));
    let mut lines = Vec::new();
    if let Some(table) = &ui.table {
        for line in &table.players {
            lines.extend(wrap(line, width, 2).into_iter().map(Line::raw));
        }
        return lines;
    }
    for (text, value) in session.watch_values() {
        let changed = ui.changed.contains(&text);
        let shown = watch_text(value);
        let colour = match value {
            Some(WatchValue::Truth(true)) => Color::Green,
            Some(WatchValue::Truth(false)) => Color::Red,
            Some(WatchValue::Number(_)) => Color::Reset,
            None => Color::DarkGray,
        };
        let line = format!(
            "{text} = {shown}{}",
            if changed { " (changed)" } else { "" }
        );
        for (i, l) in wrap(&line, width, 2).into_iter().enumerate() {
            let style = if changed {
                HIGHLIGHT
            } else if i > 0 || l.ends_with(&format!(" = {shown}")) {
                Style::new().fg(colour)
            } else {
                Style::new()
            };
            lines.push(Line::styled(l, style));
        }
    }
    for mark in session.marks() {
        if matches!(mark, Mark::Break { .. }) {
            lines.extend(wrap(&mark.describe(), width, 2).into_iter().map(Line::raw));
        }
    }
    if lines.is_empty() {
        let hint = "`:break …`, `:watch …` add lines here";
        lines.extend(
            wrap(hint, width, 2)
                .into_iter()
                .map(|l| Line::styled(l, DIM)),
        );
    }
    lines
}
