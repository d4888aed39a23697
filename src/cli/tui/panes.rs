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
use robots::battle::live::debug::Session;

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
    for line in robots::battle::live::debug::command::HELP.lines() {
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
