//! What each pane shows: the board, the programs, the answer, the watches, the log, the
//! status lines, the help overlay and the too-small notice.

use super::layout::{MIN_HEIGHT, MIN_WIDTH, Plan, hanging, to_u16, wrap};
use super::{KEY_HELP, Tone, Ui, View, watch_text};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};
use robots::battle::debug::{Mark, Session, WatchValue};
use robots::battle::engine::RobotId;
use robots::battle::render::{Look, hex_mark};
use robots::battle::terrain::{ShapeColour, TeamColour, Terrain};

const DIM: Style = Style::new().fg(Color::DarkGray);
const HIGHLIGHT: Style = Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD);
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
    board: &robots::battle::board::Board,
    m: Option<&robots::battle::engine::Match>,
    over: &dyn Fn(robots::battle::board::CellId) -> Option<(String, Style)>,
) -> Vec<Line<'static>> {
    let mut lines = vec![Line::from(robots::battle::render::column_header(board)).style(DIM)];
    for row in 0..board.height {
        let mut spans = vec![Span::styled(robots::battle::render::row_margin(row), DIM)];
        for col in 0..board.width {
            let id = board.cell_at_position(col, row).expect("inside the board");
            let (text, style) = over(id).unwrap_or_else(|| {
                let (text, look) = hex_mark(board, m, id);
                (text, look_style(look))
            });
            spans.push(Span::styled(text, style));
            spans.push(Span::raw(" "));
        }
        lines.push(Line::from(spans));
    }
    lines.push(Line::from(robots::battle::hex::direction_legend()).style(DIM));
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
    let view = session.program_view(id);
    let mut rows = view.lines();
    let width = usize::from(width.max(1));
    let mut header = Style::new()
        .fg(team_colour(m.robot(id).name.team))
        .add_modifier(Modifier::BOLD);
    if first {
        header = header.add_modifier(Modifier::UNDERLINED);
    }
    let mut lines: Vec<Line<'static>> = wrap(rows.next().unwrap_or(""), width, 2)
        .into_iter()
        .map(|l| Line::styled(l, header))
        .collect();
    lines.extend(memory_lines(session, id, width));
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
    let stopped = if c.stopped { " · stopped (R/S)" } else { "" };
    let (xt, r) = (format!("  x = {}  t = {}", c.x, c.t), r.join(" "));
    let mut text = vec![format!("{xt}  R0-R7: {r}")];
    if text[0].chars().count() > width {
        text = vec![xt, format!("  R0-R7: {r}")];
    }
    text.push(format!("  returns: {back}{stopped}"));
    text.iter()
        .flat_map(|l| wrap(l, width, 2))
        .map(|l| Line::styled(l, MEMORY))
        .collect()
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
        lines.push(Line::styled("`:break …`, `:watch …` add lines here", DIM));
    }
    lines
}

/// Draws every pane of `plan`.
pub fn draw_plan(frame: &mut Frame, session: &Session, ui: &Ui, plan: &Plan) {
    let m = session.current();
    let title = format!(
        " {} on {} · scenario {} · seed {} ",
        robots::text::escape(session.match_name()),
        robots::text::escape(&m.board().name),
        m.scenario().number(),
        m.seed()
    );
    let board = |frame: &mut Frame, area: Rect| {
        frame.render_widget(
            Paragraph::new(board_lines(session)).block(Block::bordered().title(title.clone())),
            area,
        );
    };
    match plan.board {
        Some(area) => board(frame, area),
        None if ui.board_first => board(frame, plan.programs),
        None => {}
    }
    if plan.board.is_some() || !ui.board_first {
        programs(frame, ui, plan);
    }
    answer(frame, ui, plan.answer);
    let inner = plan.watches.width.saturating_sub(2);
    frame.render_widget(
        Paragraph::new(watch_lines(session, ui, inner)).block(Block::bordered().title(
            if ui.table.is_some() {
                " players "
            } else {
                " watches and breakpoints "
            },
        )),
        plan.watches,
    );
    if let Some(area) = plan.log {
        log(frame, session, area);
    }
    let position: Vec<Line> = wrap(
        session.position().trim_end(),
        usize::from(plan.position.width),
        2,
    )
    .into_iter()
    .map(|l| Line::styled(l, Style::new().add_modifier(Modifier::BOLD)))
    .collect();
    frame.render_widget(Paragraph::new(position), plan.position);
    let bottom = match &ui.prompt {
        Some(text) => {
            let x = plan.keys.x + to_u16(text.chars().count() + 1);
            frame.set_cursor_position((x.min(plan.keys.right().saturating_sub(1)), plan.keys.y));
            Line::from(vec![
                Span::styled(":", Style::new().fg(Color::Yellow)),
                Span::raw(text.clone()),
            ])
        }
        None => match &ui.table {
            Some(table) => Line::styled(table.keys.clone(), DIM),
            None => key_line(plan.keys.width),
        },
    };
    frame.render_widget(Paragraph::new(bottom), plan.keys);
}

fn programs(frame: &mut Frame, ui: &Ui, plan: &Plan) {
    let area = plan.programs;
    let grid = &plan.grid;
    for (lines, column, top) in &grid.blocks {
        let height = to_u16(lines.len());
        let (start, end) = (
            (*top).max(grid.offset),
            (top + height).min(grid.offset + area.height),
        );
        if start >= end {
            continue;
        }
        let rect = Rect {
            x: area.x + column * grid.column_width,
            y: area.y + start - grid.offset,
            width: grid.column_width.saturating_sub(1),
            height: end - start,
        };
        frame.render_widget(Paragraph::new(lines.clone()).scroll((start - top, 0)), rect);
    }
    // A note on the last row, if no program is drawn there.
    let last_row = grid.offset + area.height - 1;
    let free = grid
        .blocks
        .iter()
        .all(|(lines, _, top)| !(*top..top + to_u16(lines.len())).contains(&last_row));
    let hidden = grid.blocks.len() - grid.whole;
    if hidden > 0 && area.width > 40 && free {
        let who = if ui.focus.is_some() {
            "focus"
        } else {
            "follows the robot next"
        };
        let note = format!(" {hidden} more · {who} · Tab ");
        let width = to_u16(note.chars().count());
        let rect = Rect {
            x: area.right().saturating_sub(width),
            y: area.bottom().saturating_sub(1),
            width: width.min(area.width),
            height: 1,
        };
        frame.render_widget(Clear, rect);
        frame.render_widget(
            Paragraph::new(Line::styled(note, DIM.add_modifier(Modifier::REVERSED))),
            rect,
        );
    }
}

fn answer(frame: &mut Frame, ui: &Ui, area: Rect) {
    let lines = answer_lines(ui, area.width.saturating_sub(2));
    let page = area.height.saturating_sub(2);
    let max = to_u16(lines.len()).saturating_sub(page);
    let first = ui.scroll.min(max);
    ui.view.set(View {
        answer_page: page,
        answer_max: max,
        ..ui.view.get()
    });
    let mut title = match ui.tone {
        _ if ui.table.is_some() => " table ".to_string(),
        Tone::Error => " answer: refused ".to_string(),
        Tone::Stopped => " answer: stopped ".to_string(),
        Tone::Plain => " answer ".to_string(),
    };
    if max > 0 {
        let last = (first + page).min(to_u16(lines.len()));
        let long = format!(
            "· lines {}-{last} of {} · PgUp PgDn ",
            first + 1,
            lines.len()
        );
        let fits = title.chars().count() + long.chars().count() + 2 <= usize::from(area.width);
        if fits {
            title.push_str(&long);
        } else {
            title.push_str(&format!("{}-{last}/{} ", first + 1, lines.len()));
        }
    }
    let border = match ui.tone {
        Tone::Error => Style::new().fg(Color::Red),
        Tone::Stopped => HIGHLIGHT,
        Tone::Plain => Style::new(),
    };
    frame.render_widget(
        Paragraph::new(lines)
            .scroll((first, 0))
            .block(Block::bordered().title(title).border_style(border)),
        area,
    );
}

fn log(frame: &mut Frame, session: &Session, area: Rect) {
    let log = session.timeline().log();
    let rows = usize::from(area.height.saturating_sub(2));
    let width = usize::from(area.width.saturating_sub(2));
    let mut lines: Vec<Line> = Vec::new();
    for event in log.iter().rev() {
        let wrapped = wrap(event.log_line().trim_end(), width, 4);
        if lines.len() + wrapped.len() > rows && !lines.is_empty() {
            break;
        }
        lines.splice(0..0, wrapped.into_iter().map(Line::raw));
    }
    let skip = lines.len().saturating_sub(rows);
    frame.render_widget(
        Paragraph::new(lines.split_off(skip)).block(Block::bordered().title(" log ")),
        area,
    );
}

/// The keys that fit in `width`, whole: `? help` and `q quit` always.
pub fn key_line(width: u16) -> Line<'static> {
    let width = usize::from(width);
    let tail = "  ? help  q quit";
    let mut text = String::new();
    let mut all = true;
    for (key, label, _) in &KEY_HELP[..KEY_HELP.len() - 2] {
        let item = format!("{}{key} {label}", if text.is_empty() { "" } else { "  " });
        if text.chars().count() + item.chars().count() + tail.len() + 2 > width {
            all = false;
            break;
        }
        text.push_str(&item);
    }
    if !all {
        text.push_str("  …");
    }
    text.push_str(tail);
    Line::styled(text.trim_start().to_string(), DIM)
}

/// The help overlay: every key, then every command; `first` is the first line shown.
pub fn help(frame: &mut Frame, ui: &Ui, area: Rect, first: u16) {
    let width = area.width.saturating_sub(2).min(104);
    let rect = Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y,
        width,
        height: area.height,
    };
    let width = usize::from(rect.width.saturating_sub(2));
    let mut lines = vec![Line::styled(
        "keys:",
        Style::new().add_modifier(Modifier::BOLD),
    )];
    for (key, _, does) in KEY_HELP {
        lines.extend(
            wrap(&format!("  {key:<10} {does}"), width, 11)
                .into_iter()
                .map(Line::raw),
        );
    }
    lines.push(Line::raw(""));
    lines.extend(
        wrap("programs: ● pointer (the last step read)  ▶ the step read next  ✗ destroyed; the robot next to act shows each test's answer; under the TI-57 rule, the memories and remembered returns under the robot's name", width, 2)
            .into_iter()
            .map(Line::raw),
    );
    lines.push(Line::raw(""));
    for line in robots::battle::debug::command::HELP.lines() {
        lines.extend(
            wrap(line, width, hanging(line, width))
                .into_iter()
                .map(Line::raw),
        );
    }
    let rect = Rect {
        height: to_u16(lines.len() + 2).min(area.height),
        ..rect
    };
    let page = rect.height.saturating_sub(2);
    let max = to_u16(lines.len()).saturating_sub(page);
    ui.view.set(View {
        help_page: page,
        help_max: max,
        ..ui.view.get()
    });
    let title = if max > 0 {
        " help · PgUp PgDn scroll · any other key closes "
    } else {
        " help · any key closes "
    };
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(lines)
            .scroll((first.min(max), 0))
            .block(Block::bordered().title(title).border_style(HIGHLIGHT)),
        rect,
    );
}

/// The notice below [`MIN_WIDTH`] × [`MIN_HEIGHT`], centred.
pub fn too_small(frame: &mut Frame, area: Rect) {
    let text = format!(
        "terminal too small: {}×{}, need at least {MIN_WIDTH}×{MIN_HEIGHT}",
        area.width, area.height
    );
    let lines: Vec<Line> = wrap(&text, usize::from(area.width), 0)
        .into_iter()
        .map(|l| Line::from(l).centered())
        .collect();
    let height = to_u16(lines.len()).min(area.height);
    let rect = Rect {
        y: area.y + (area.height - height) / 2,
        height,
        ..area
    };
    frame.render_widget(Paragraph::new(lines).style(HIGHLIGHT), rect);
}
