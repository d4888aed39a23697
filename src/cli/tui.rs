//! The debugger's terminal front end (ratatui + crossterm). It draws a [`Session`] and turns
//! keys into the same [`Command`]s script mode reads; `:` opens a prompt for any command.
//! [`draw`] is pure drawing, so tests render it into ratatui's `TestBackend`.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use robots::battle::debug::{Command, Session, WatchValue};
use robots::battle::render::{Look, hex_mark};
use robots::battle::terrain::{ShapeColour, TeamColour, Terrain};

/// The keys, as the status line lists them.
pub const KEYS: &str = "s step  t turn  r round  b back  B back turn  R back round  c continue  e end  g goto round  n signal  : command  L reload  q quit";

/// What the front end keeps besides the session: the prompt being typed and the last answer.
#[derive(Clone, Debug, Default)]
pub struct Ui {
    /// The command being typed after `:` (or prefilled by `g`, `n`), if the prompt is open.
    pub prompt: Option<String>,
    /// The last command's answer.
    pub message: String,
}

fn team_colour(t: TeamColour) -> Color {
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

fn board_lines(session: &Session) -> Vec<Line<'static>> {
    let m = session.current();
    let board = m.board();
    let mut lines = vec![
        Line::from(robots::battle::render::column_header(board))
            .style(Style::new().fg(Color::DarkGray)),
    ];
    for row in 0..board.height {
        let mut spans = vec![Span::styled(
            robots::battle::render::row_margin(row),
            Style::new().fg(Color::DarkGray),
        )];
        for col in 0..board.width {
            let id = board.cell_at_position(col, row).expect("inside the board");
            let (text, look) = hex_mark(board, Some(m), id);
            spans.push(Span::styled(text, look_style(look)));
            spans.push(Span::raw(" "));
        }
        lines.push(Line::from(spans));
    }
    lines.push(
        Line::from(robots::battle::hex::direction_legend()).style(Style::new().fg(Color::DarkGray)),
    );
    lines
}

/// The programs, side by side in as many columns as fit.
fn program_lines(session: &Session, width: u16) -> Vec<Line<'static>> {
    let m = session.current();
    // As many columns as fit at 26 characters, spread evenly over the rows they need.
    let inner = usize::from(width.saturating_sub(2));
    let robots = m.robots().len().max(1);
    let fit = (inner / 26).max(1);
    let rows = robots.div_ceil(fit);
    let per_row = robots.div_ceil(rows);
    let column = (inner / per_row).clamp(12, 48);
    let blocks: Vec<(Color, Vec<String>)> = m
        .robot_ids()
        .map(|id| {
            let text = session.program_view(id);
            (
                team_colour(m.robot(id).name.team),
                text.lines().map(str::to_string).collect(),
            )
        })
        .collect();
    let mut lines = Vec::new();
    for group in blocks.chunks(per_row) {
        let height = group.iter().map(|(_, b)| b.len()).max().unwrap_or(0);
        for i in 0..height {
            let mut spans = Vec::new();
            for (colour, block) in group {
                let text = block.get(i).map_or("", String::as_str);
                let clipped: String = text.chars().take(column - 1).collect();
                let pad = column - clipped.chars().count();
                let style = if i == 0 {
                    Style::new().fg(*colour).add_modifier(Modifier::BOLD)
                } else if clipped.contains('▶') {
                    Style::new().add_modifier(Modifier::REVERSED)
                } else if clipped.contains('✗') {
                    Style::new()
                        .fg(Color::DarkGray)
                        .add_modifier(Modifier::CROSSED_OUT)
                } else {
                    Style::new()
                };
                spans.push(Span::styled(clipped, style));
                spans.push(Span::raw(" ".repeat(pad)));
            }
            lines.push(Line::from(spans));
        }
        lines.push(Line::from(""));
    }
    lines
}

/// Draws the whole screen: board, programs, log, watches, status and prompt.
pub fn draw(frame: &mut Frame, session: &Session, ui: &Ui) {
    let [top, bottom, status, prompt] = Layout::vertical([
        Constraint::Min(16),
        Constraint::Length(10),
        Constraint::Length(2),
        Constraint::Length(1),
    ])
    .areas(frame.area());
    let board_width = u16::try_from(session.current().board().width * 4 + 8).unwrap_or(u16::MAX);
    let [board_area, programs_area] =
        Layout::horizontal([Constraint::Length(board_width), Constraint::Min(20)]).areas(top);
    let [log_area, marks_area] =
        Layout::horizontal([Constraint::Percentage(60), Constraint::Percentage(40)]).areas(bottom);

    let m = session.current();
    let title = format!(
        " {} on {} · scenario {} · seed {} ",
        robots::text::escape(session.match_name()),
        robots::text::escape(&m.board().name),
        m.scenario().number(),
        m.seed()
    );
    frame.render_widget(
        Paragraph::new(board_lines(session)).block(Block::bordered().title(title)),
        board_area,
    );
    frame.render_widget(
        Paragraph::new(program_lines(session, programs_area.width))
            .block(Block::bordered().title(" programs  ● pointer  ▶ next  ✗ destroyed ")),
        programs_area,
    );
    draw_log(frame, session, log_area);
    draw_marks(frame, session, marks_area);

    let position = session.position();
    let status_lines = vec![
        Line::from(Span::styled(
            position.trim_end().to_string(),
            Style::new().add_modifier(Modifier::BOLD),
        )),
        Line::from(Span::styled(KEYS, Style::new().fg(Color::DarkGray))),
    ];
    frame.render_widget(Paragraph::new(status_lines), status);
    let bottom_line = match &ui.prompt {
        Some(text) => Line::from(vec![
            Span::styled(":", Style::new().fg(Color::Yellow)),
            Span::raw(text.clone()),
        ]),
        None => Line::from(ui.message.lines().next_back().unwrap_or("").to_string()),
    };
    frame.render_widget(Paragraph::new(bottom_line), prompt);
}

fn draw_log(frame: &mut Frame, session: &Session, area: Rect) {
    let log = session.timeline().log();
    let rows = usize::from(area.height.saturating_sub(2));
    let lines: Vec<Line> = log[log.len().saturating_sub(rows)..]
        .iter()
        .map(|e| Line::from(e.log_line().trim_end().to_string()))
        .collect();
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(" log ")),
        area,
    );
}

fn draw_marks(frame: &mut Frame, session: &Session, area: Rect) {
    let mut lines: Vec<Line> = session
        .watch_values()
        .into_iter()
        .map(|(text, value)| {
            let (v, colour) = match value {
                Some(WatchValue::Truth(true)) => ("yes".to_string(), Color::Green),
                Some(WatchValue::Truth(false)) => ("no".to_string(), Color::Red),
                Some(WatchValue::Number(n)) => (n.to_string(), Color::Reset),
                None => ("-".to_string(), Color::DarkGray),
            };
            Line::from(vec![
                Span::raw(format!("{text} = ")),
                Span::styled(v, Style::new().fg(colour).add_modifier(Modifier::BOLD)),
            ])
        })
        .collect();
    for mark in session.marks() {
        if matches!(mark, robots::battle::debug::Mark::Break { .. }) {
            lines.push(Line::from(mark.describe()));
        }
    }
    if lines.is_empty() {
        lines.push(Line::from(Span::styled(
            "`:break …` and `:watch …` add lines here",
            Style::new().fg(Color::DarkGray),
        )));
    }
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: true })
            .block(Block::bordered().title(" watches and breakpoints ")),
        area,
    );
}

/// What a key does. `None`: nothing. Keys in the status line map to commands; `g`, `n` and
/// `:` open the prompt.
pub fn key_command(key: char) -> Option<Command> {
    Some(match key {
        's' => Command::Step(1),
        't' => Command::Turn,
        'r' => Command::Round,
        'b' => Command::Back(1),
        'B' => Command::BackTurn,
        'R' => Command::BackRound,
        'c' => Command::Continue,
        'e' => Command::Step(u64::MAX),
        'L' => Command::Reload,
        'q' => Command::Quit,
        _ => return None,
    })
}

/// Handles one typed character or key; returns `true` to quit.
pub fn handle(session: &mut Session, ui: &mut Ui, key: Key) -> bool {
    if let Some(text) = &mut ui.prompt {
        match key {
            Key::Char(c) => text.push(c),
            Key::Backspace => {
                text.pop();
            }
            Key::Escape => ui.prompt = None,
            Key::Enter => {
                let line = ui.prompt.take().unwrap_or_default();
                let reply = session.run_line(&line);
                ui.message = reply.text;
                return reply.quit;
            }
            _ => {}
        }
        return false;
    }
    let command = match key {
        Key::Char(':') => {
            ui.prompt = Some(String::new());
            return false;
        }
        Key::Char('g') => {
            ui.prompt = Some("goto round ".into());
            return false;
        }
        Key::Char('n') => {
            ui.prompt = Some("signal ".into());
            return false;
        }
        Key::Right => Some(Command::Step(1)),
        Key::Left => Some(Command::Back(1)),
        Key::Char(c) => key_command(c),
        _ => None,
    };
    match command {
        Some(cmd) => {
            let reply = session.execute(cmd);
            ui.message = reply.text;
            reply.quit
        }
        None => false,
    }
}

/// The keys the front end understands, independent of the terminal library.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    Char(char),
    Enter,
    Escape,
    Backspace,
    Left,
    Right,
}

/// Runs the debugger in the terminal until `q`.
pub fn run(mut session: Session) -> std::io::Result<()> {
    use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
    let mut terminal = ratatui::try_init()?;
    let mut ui = Ui {
        message: format!("{}press : for a command, q to quit", session.position()),
        ..Ui::default()
    };
    let result = (|| -> std::io::Result<()> {
        loop {
            terminal.draw(|frame| draw(frame, &session, &ui))?;
            let Event::Key(k) = event::read()? else {
                continue;
            };
            if k.kind != KeyEventKind::Press {
                continue;
            }
            let key = match k.code {
                KeyCode::Char('c') if k.modifiers.contains(KeyModifiers::CONTROL) => return Ok(()),
                KeyCode::Char(c) => Key::Char(c),
                KeyCode::Enter => Key::Enter,
                KeyCode::Esc => Key::Escape,
                KeyCode::Backspace => Key::Backspace,
                KeyCode::Left => Key::Left,
                KeyCode::Right => Key::Right,
                _ => continue,
            };
            if handle(&mut session, &mut ui, key) {
                return Ok(());
            }
        }
    })();
    ratatui::restore();
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use robots::battle::{match_file, shipped};

    fn session(_: &str, _: Option<u64>) -> Session {
        Session::new(Box::new(|| {
            let read = |p: &std::path::Path| {
                std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(p))
            };
            let (file, text) = shipped::DEFAULT_MATCH;
            match_file::parse_match(file, text, &read, robots::text::confine::Confine::Inside)
        }))
        .expect("the default match loads")
    }

    fn screen(
        session: &Session,
        ui: &super::Ui,
        width: u16,
        height: u16,
    ) -> (String, ratatui::buffer::Buffer) {
        let mut terminal =
            ratatui::Terminal::new(ratatui::backend::TestBackend::new(width, height)).unwrap();
        terminal
            .draw(|frame| super::draw(frame, session, ui))
            .unwrap();
        let buffer = terminal.backend().buffer().clone();
        let mut text = String::new();
        for y in 0..height {
            let line: String = (0..width)
                .map(|x| buffer[(x, y)].symbol().to_string())
                .collect();
            text.push_str(line.trim_end());
            text.push('\n');
        }
        (text, buffer)
    }

    #[test]
    fn the_screen_shows_board_programs_log_watches_and_status() {
        let mut s = session("default", None);
        let mut ui = super::Ui::default();
        for line in [
            "step 8",
            "watch green.1 enemy within 4",
            "break violet.2 step 11",
        ] {
            ui.message = s.run_line(line).text;
        }
        let (text, buffer) = screen(&s, &ui, 170, 48);
        insta::with_settings!({
            snapshot_path => "../../tests/snapshots",
            prepend_module_to_snapshot => false,
        }, {
            insta::assert_snapshot!("debugger__the_screen_shows_board_programs_log_watches_and_status", text);
        });
        // Robots are drawn in their team's colour: find green.1's mark and check its background.
        let (x, y) = (0..48u16)
            .flat_map(|y| (0..170u16).map(move |x| (x, y)))
            .find(|&(x, y)| buffer[(x, y)].symbol() == "g" && buffer[(x + 1, y)].symbol() == "1")
            .expect("green.1 is on the board");
        assert_eq!(buffer[(x, y)].bg, ratatui::style::Color::Green);
    }

    #[test]
    fn keys_drive_the_same_commands() {
        use super::{Key, handle};
        let mut s = session("default", None);
        let mut ui = super::Ui::default();
        for key in "sstrbBR".chars() {
            assert!(!handle(&mut s, &mut ui, Key::Char(key)));
        }
        assert_eq!(
            s.timeline().turn(),
            0,
            "s s t r forward, then b B R all the way back"
        );
        handle(&mut s, &mut ui, Key::Char('g'));
        for c in "4".chars() {
            handle(&mut s, &mut ui, Key::Char(c));
        }
        handle(&mut s, &mut ui, Key::Enter);
        assert_eq!(s.current().clock().round, 4);
        handle(&mut s, &mut ui, Key::Char(':'));
        for c in "break green.1 step 11".chars() {
            handle(&mut s, &mut ui, Key::Char(c));
        }
        handle(&mut s, &mut ui, Key::Enter);
        assert_eq!(s.marks().len(), 1);
        // `c` runs to the breakpoint: green.1 is about to read step 11.
        handle(&mut s, &mut ui, Key::Char('c'));
        assert!(
            ui.message.contains("is about to read step 11"),
            "{}",
            ui.message
        );
        // `n` opens the signal prompt; mid-turn the rules refuse, and say why; Esc closes a prompt.
        handle(&mut s, &mut ui, Key::Char('n'));
        assert_eq!(ui.prompt.as_deref(), Some("signal "));
        for c in "green.1 1".chars() {
            handle(&mut s, &mut ui, Key::Char(c));
        }
        handle(&mut s, &mut ui, Key::Enter);
        assert!(
            ui.message.starts_with("error: signals are sent at the end"),
            "{}",
            ui.message
        );
        handle(&mut s, &mut ui, Key::Char(':'));
        handle(&mut s, &mut ui, Key::Escape);
        assert!(ui.prompt.is_none());
        handle(&mut s, &mut ui, Key::Char('e'));
        assert!(s.current().is_over());
        handle(&mut s, &mut ui, Key::Char('L'));
        assert_eq!(s.timeline().turn(), 0);
        assert_eq!(s.marks().len(), 1, "reload keeps breakpoints");
        assert!(handle(&mut s, &mut ui, Key::Char('q')));
    }
}
