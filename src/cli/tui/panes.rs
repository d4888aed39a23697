//! What each pane shows, drawn where the layout puts it: the board, the programs, the
//! answer, the watches, the log, the status lines, the help overlay and the too-small
//! notice.

use super::layout::{MIN_HEIGHT, MIN_WIDTH, Plan};
use super::lines::{DIM, HIGHLIGHT, answer_lines, board_lines, watch_lines};
use super::wrap::{hanging, to_u16, wrap};
use super::{KEY_HELP, Tone, Ui, View};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};
use robots_games::battle::live::debug::Session;

/// Draws every pane of `plan`.
pub fn draw_plan(frame: &mut Frame, session: &Session, ui: &Ui, plan: &Plan) {
    let m = session.current();
    let title = format!(
        " {} on {} · scenario {} · seed {} ",
        robots_games::text::escape(session.match_name()),
        robots_games::text::escape(&m.board().name),
        m.scenario().number(),
        m.seed()
    );
    let board = |frame: &mut Frame, area: Rect| {
        frame.render_widget(
            Paragraph::new(board_lines(session)).block(Block::bordered().title(title.clone())),
            area,
        );
    };
    if let Some(area) = plan.board {
        board(frame, area);
    }
    if plan.programs.width > 0 {
        programs(frame, ui, plan);
    }
    answer(frame, ui, plan.answer);
    let inner = plan.watches.width.saturating_sub(2);
    frame.render_widget(
        Paragraph::new(watch_lines(session, ui, inner)).block(Block::bordered().title(
            match (ui.table.is_some(), inner) {
                (true, _) => " players ",
                (false, 26..) => " watches and breakpoints ",
                (false, _) => " watches ",
            },
        )),
        plan.watches,
    );
    if let Some(area) = plan.log {
        log(frame, session, area);
    }
    let status = Line::styled(
        status_line(session, usize::from(plan.position.width)),
        Style::new().add_modifier(Modifier::BOLD),
    );
    frame.render_widget(Paragraph::new(status), plan.position);
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
            Some(table) => table_key_line(&table.keys, plan.toggle, plan.keys.width),
            None => key_line(plan.keys.width, plan.toggle),
        },
    };
    frame.render_widget(Paragraph::new(bottom), plan.keys);
}

/// Where the match stands on one row: the words of the transcript when they fit, else
/// shorter ones, else cut with `…`.
pub fn status_line(session: &Session, width: usize) -> String {
    let full = session.position().trim_end().to_string();
    if full.chars().count() <= width {
        return full;
    }
    let m = session.current();
    let turn = session.timeline().turn();
    let short = match (m.outcome(), m.next_robot()) {
        (Some(o), _) => format!("turn {turn} · over: {} · round {}", o.verdict(), o.rounds),
        (None, Some(id)) => {
            let signals: Vec<String> = m
                .teams()
                .iter()
                .map(|t| format!("{} {}", t.colour, t.signals_left))
                .collect();
            format!(
                "turn {turn} · round {} · {} next · signals {}",
                m.clock().round,
                m.robot(id).name,
                signals.join(", ")
            )
        }
        (None, None) => full,
    };
    if short.chars().count() <= width {
        return short;
    }
    let mut cut: String = short.chars().take(width.saturating_sub(1)).collect();
    cut.push('…');
    cut
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

/// The keys that fit in `width`, whole: `? help` and `q quit` always, and before them what
/// `v` shows (`toggle`) when the board and the programs are not both on screen.
pub fn key_line(width: u16, toggle: Option<&str>) -> Line<'static> {
    let width = usize::from(width);
    let tail = match toggle {
        Some(what) => format!("  v {what}  ? help  q quit"),
        None => "  ? help  q quit".to_string(),
    };
    let items: Vec<String> = KEY_HELP[..KEY_HELP.len() - 2]
        .iter()
        .filter(|(key, _, _)| *key != "v")
        .map(|(key, label, _)| format!("{key} {label}"))
        .collect();
    let count = |s: &str| s.chars().count();
    let all = items.join("  ");
    let text = if count(&all) + count(&tail) <= width {
        all
    } else {
        let mut text = String::new();
        for item in &items {
            let gap = if text.is_empty() { 0 } else { 2 };
            if count(&text) + gap + count(item) + count("  …") + count(&tail) > width {
                break;
            }
            if gap > 0 {
                text.push_str("  ");
            }
            text.push_str(item);
        }
        text + "  …"
    };
    Line::styled(format!("{text}{tail}").trim_start().to_string(), DIM)
}

/// A game's keys (at the table), with what `v` shows when the board and the programs are
/// not both on screen; cut with `…` if they do not fit.
fn table_key_line(keys: &str, toggle: Option<&str>, width: u16) -> Line<'static> {
    let mut text = match (toggle, keys.strip_suffix("  q quit")) {
        (Some(what), Some(keys)) => format!("{keys}  v {what}  q quit"),
        (Some(what), None) => format!("{keys}  v {what}"),
        (None, _) => keys.to_string(),
    };
    let width = usize::from(width);
    if text.chars().count() > width {
        text = text
            .chars()
            .take(width.saturating_sub(1))
            .collect::<String>()
            + "…";
    }
    Line::styled(text, DIM)
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
    for line in robots_games::battle::live::debug::command::HELP.lines() {
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
