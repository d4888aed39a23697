//! The game at the table in a terminal. Placement: the board with the robots placed so far,
//! the free start points of the team placing highlighted, a cursor robot with its facing.
//! Then the match on the debugger's screen (board, programs with pointers, log), at a pace the
//! players set, stopping at the end of a player's turn to offer a signal whose step is typed
//! hidden (R-A23). On a terminal too small for the board and the programs whole, the board
//! comes first (the steps beside it), and `v` swaps, at any moment but while a file name is
//! typed. [`draw`] is pure drawing, so tests render it into `TestBackend`.

use super::{placement_text, result_text, save};
use crate::cli::tui::layout;
use crate::cli::tui::lines::{board_lines_with, team_colour};
use crate::cli::tui::{Key, TableView, Ui};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Wrap};
use robots_games::battle::hex::Direction;
use robots_games::battle::live::hot_seat::{HotSeat, Phase};
use std::time::Duration;

/// The pace: milliseconds between robot turns, and its bounds.
const PACE: u64 = 400;
const PACE_RANGE: (u64, u64) = (25, 3200);

/// What the screen keeps besides the table.
pub struct Screen {
    pub table: HotSeat,
    /// The free start point under the cursor (an index into the phase's list), the facing.
    pub cursor: usize,
    pub facing: Direction,
    /// The last refusal or news, shown in the side pane.
    pub message: String,
    pub paused: bool,
    pub pace: u64,
    /// A signal being written: the robot chosen (an index) and the step typed (never drawn).
    pub draft: (usize, String),
    /// A file name being typed at the end: (a replay?, the name).
    pub saving: Option<(bool, String)>,
    pub ui: Ui,
}

impl Screen {
    pub fn new(table: HotSeat) -> Screen {
        Screen {
            table,
            cursor: 0,
            facing: Direction::ALL[0],
            message: String::new(),
            paused: false,
            pace: PACE,
            draft: (0, String::new()),
            saving: None,
            ui: Ui {
                board_first: true,
                ..Ui::default()
            },
        }
    }

    /// Acts on a key; `true` to quit.
    pub fn key(&mut self, key: Key) -> bool {
        if let Some((replay, name)) = &mut self.saving {
            match key {
                Key::Char(c) if !c.is_control() => name.push(c),
                Key::Backspace => {
                    name.pop();
                }
                Key::Escape => self.saving = None,
                Key::Enter => {
                    let (replay, name) = (*replay, name.clone());
                    self.saving = None;
                    self.message = save(&self.table, std::path::Path::new(&name), replay)
                        .unwrap_or_else(|e| format!("refused: {e}"));
                }
                _ => {}
            }
            return false;
        }
        match key {
            Key::Char('q') => return true,
            Key::Char('v') if self.table.session().is_some() => {
                self.ui.board_first = !self.ui.board_first;
                return false;
            }
            _ => {}
        }
        match self.table.phase() {
            Phase::Place { free, .. } => self.place_key(key, free.len()),
            Phase::Confirm => match key {
                Key::Char('u') => self.undo(),
                Key::Enter => self.start(),
                _ => {}
            },
            Phase::Signal { robots, .. } => self.signal_key(key, robots),
            Phase::Play => match key {
                Key::Char(' ') => self.paused = !self.paused,
                Key::Char('+') => self.pace = (self.pace / 2).max(PACE_RANGE.0),
                Key::Char('-') => self.pace = (self.pace * 2).min(PACE_RANGE.1),
                Key::Char('n') if self.paused => self.tick(),
                _ => {}
            },
            Phase::Over => match key {
                Key::Char('m') => self.saving = Some((false, "game.yaml".into())),
                Key::Char('r') => self.saving = Some((true, "game.replay".into())),
                Key::Enter => return true,
                _ => {}
            },
        }
        false
    }

    /// Starts the match and says who plays first (drawn, RULES A.7).
    fn start(&mut self) {
        self.message = match self.table.start() {
            Err(e) => format!("refused: {e}"),
            Ok(()) => match self.table.session().map(|s| s.current()) {
                Some(m) => format!(
                    "the match starts; {} plays first (drawn)",
                    m.team(m.first_team()).colour
                ),
                None => String::new(),
            },
        };
    }

    fn place_key(&mut self, key: Key, free: usize) {
        let free = free.max(1);
        match key {
            Key::Right | Key::Down => self.cursor = (self.cursor + 1) % free,
            Key::Left | Key::Up => self.cursor = (self.cursor + free - 1) % free,
            Key::Char('r') => self.facing = self.facing.turned(1),
            Key::Char('R') => self.facing = self.facing.turned(-1),
            Key::Char(c @ '1'..='6') => {
                let n = usize::from(u8::try_from(c).unwrap_or(b'1') - b'1');
                self.facing = Direction::ALL[n];
            }
            Key::Char('u') => self.undo(),
            Key::Enter => {
                let Phase::Place { free, robot, .. } = self.table.phase() else {
                    return;
                };
                let Some(&cell) = free.get(self.cursor) else {
                    return;
                };
                self.message = match self.table.place(cell, self.facing) {
                    Ok(()) => format!(
                        "{robot} placed at {}",
                        placement_text(&self.table, cell, self.facing)
                    ),
                    Err(e) => format!("refused: {e}"),
                };
                self.cursor = 0;
            }
            _ => {}
        }
    }

    fn undo(&mut self) {
        self.message = if self.table.undo() {
            "the last placement by hand is taken back".into()
        } else {
            "refused: no placement by hand to take back".into()
        };
        self.cursor = 0;
    }

    fn signal_key(&mut self, key: Key, robots: Vec<robots_games::battle::engine::RobotName>) {
        let count = robots.len().max(1);
        match key {
            Key::Left | Key::BackTab => self.draft.0 = (self.draft.0 + count - 1) % count,
            Key::Right | Key::Tab => self.draft.0 = (self.draft.0 + 1) % count,
            Key::Char(c @ '0'..='9') if self.draft.1.len() < 2 => self.draft.1.push(c),
            Key::Backspace => {
                self.draft.1.pop();
            }
            Key::Escape | Key::Char('s') => {
                self.table.skip();
                self.draft = (0, String::new());
                self.message = "no signal".into();
            }
            Key::Enter => {
                let Some(&robot) = robots.get(self.draft.0 % count) else {
                    return;
                };
                let step = self.draft.1.parse::<u8>().unwrap_or(0);
                self.message = match self.table.signal(robot, step) {
                    Ok(()) => {
                        self.draft = (0, String::new());
                        format!(
                            "signal sent to {robot}; its step stays secret until it acts (R-A23)"
                        )
                    }
                    Err(e) => {
                        self.draft.1.clear();
                        format!("refused: {e}")
                    }
                };
            }
            _ => {}
        }
    }

    /// One robot turn, if the match is going on.
    pub fn tick(&mut self) {
        let _ = self.table.step();
    }

    /// Whether the clock should play a turn when the pace's time is up.
    fn running(&self) -> bool {
        !self.paused && self.saving.is_none() && self.table.phase() == Phase::Play
    }
}

/// Draws the screen: the placement, or the match on the debugger's panes.
pub fn draw(frame: &mut Frame, screen: &Screen) {
    let area = frame.area();
    let Some(session) = screen.table.session() else {
        placement(frame, screen, area);
        return;
    };
    let mut ui = screen.ui.clone();
    // While a signal is written, the program shown first is that of the robot chosen.
    if let Phase::Signal { robots, .. } = screen.table.phase() {
        let chosen = robots.get(screen.draft.0 % robots.len().max(1));
        ui.focus = chosen
            .and_then(|&r| session.current().robot_by_name(r))
            .map(|id| id.index());
    }
    ui.answer = table_text(screen);
    ui.table = Some(TableView {
        players: players(screen),
        keys: keys(screen).into(),
    });
    ui.prompt = screen
        .saving
        .as_ref()
        .map(|(replay, name)| format!("{} file: {name}", if *replay { "replay" } else { "match" }));
    crate::cli::tui::draw(frame, session, &ui);
}

fn keys(screen: &Screen) -> &'static str {
    match screen.table.phase() {
        _ if screen.saving.is_some() => "Enter save  Esc cancel",
        Phase::Signal { .. } => "←/→ robot  digits step (hidden)  Enter send  Esc skip  q quit",
        Phase::Over => "m save the match file  r save the replay  q quit",
        _ if screen.paused => "space resume  n next turn  + faster  - slower  q quit",
        _ => "space pause  + faster  - slower  q quit",
    }
}

/// The table pane: news, then the signal being written or the end.
fn table_text(screen: &Screen) -> String {
    let mut text = String::new();
    match screen.table.phase() {
        Phase::Signal { team, robots, left } => {
            let robot = robots
                .get(screen.draft.0 % robots.len().max(1))
                .map(ToString::to_string)
                .unwrap_or_default();
            text.push_str(&format!(
                "end of {team}'s turn: a signal? ({left} left)\nrobot: ◀ {robot} ▶   step: {}\n\
                 the others look away; the step stays secret (R-A23)\n",
                "•".repeat(screen.draft.1.len())
            ));
        }
        Phase::Over => {
            if let Some(s) = screen.table.session() {
                text.push_str(&result_text(s.current()));
            }
        }
        _ => text.push_str(&format!(
            "{} · {} ms a turn\n",
            if screen.paused { "paused" } else { "playing" },
            screen.pace
        )),
    }
    if !screen.message.is_empty() {
        text.push_str(&screen.message);
        text.push('\n');
    }
    text
}

/// A line a team: at the table or by the file, signals left, signals waiting (their robot
/// only: the step is secret, R-A23).
fn players(screen: &Screen) -> Vec<String> {
    let Some(m) = screen.table.session().map(|s| s.current()) else {
        return Vec::new();
    };
    let players = screen.table.players();
    m.teams()
        .iter()
        .zip(players)
        .map(|(team, (_, at_table))| {
            let waiting: Vec<String> = m
                .robots()
                .iter()
                .filter(|r| r.name.team == team.colour && r.pending_signal.is_some())
                .map(|r| r.name.to_string())
                .collect();
            format!(
                "{}: {}, {} signals left{}",
                team.colour,
                if at_table { "at the table" } else { "the file" },
                team.signals_left,
                if waiting.is_empty() {
                    String::new()
                } else {
                    format!(", signal waiting for {}", waiting.join(", "))
                }
            )
        })
        .collect()
}

/// The placement screen: the board, and beside it (or under it) what to do.
fn placement(frame: &mut Frame, screen: &Screen, area: Rect) {
    let table = &screen.table;
    let setup = table.setup();
    let board = &setup.board;
    let phase = table.phase();
    let free = match &phase {
        Phase::Place { free, .. } => free.clone(),
        _ => Vec::new(),
    };
    let cursor = free.get(screen.cursor % free.len().max(1)).copied();
    let placed = table.placing().placed();
    let lines = placement_board(screen, &phase, &free, cursor, &placed);
    let board_width = lines.iter().map(Line::width).max().unwrap_or(0) + 2;
    let board_width = u16::try_from(board_width)
        .unwrap_or(u16::MAX)
        .min(area.width);
    let side_beside = area.width.saturating_sub(board_width) >= 30;
    let board_height = u16::try_from(lines.len() + 2).unwrap_or(u16::MAX);
    let (left, side) = if side_beside {
        layout::split_columns(area, board_width)
    } else {
        layout::split_rows(area, board_height.min(area.height * 2 / 3))
    };
    let board_area = Rect {
        height: board_height.min(left.height),
        ..left
    };
    let title = format!(
        " {} on {} · placement (R-A12) ",
        robots_games::text::escape(&setup.name),
        robots_games::text::escape(&board.name)
    );
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(title)),
        board_area,
    );
    let under = Rect {
        y: board_area.bottom(),
        height: left.height - board_area.height,
        ..left
    };
    if under.height >= 3 {
        let legend = "+ (yellow) a free start point of the team placing: its camp's or an \
                      outer one · g1↗ robot green.1 facing 6 · the programs are shown once \
                      every robot is placed (RULES A.7)";
        frame.render_widget(
            Paragraph::new(legend)
                .wrap(Wrap { trim: true })
                .style(Style::new().fg(Color::DarkGray)),
            Rect {
                x: under.x + 1,
                width: under.width.saturating_sub(2),
                ..under
            },
        );
    }
    let text = placement_side(screen, &phase, cursor, &free, &placed);
    frame.render_widget(
        Paragraph::new(text)
            .wrap(Wrap { trim: false })
            .block(Block::bordered().title(" the table ")),
        side,
    );
}

/// The board while placing: the robots placed, the free start points, the cursor robot.
fn placement_board(
    screen: &Screen,
    phase: &Phase,
    free: &[robots_games::battle::board::CellId],
    cursor: Option<robots_games::battle::board::CellId>,
    placed: &[(
        robots_games::battle::engine::Slot,
        robots_games::battle::board::CellId,
        Direction,
    )],
) -> Vec<Line<'static>> {
    let setup = screen.table.setup();
    let board = &setup.board;
    let robot = match phase {
        Phase::Place { robot, .. } => Some(*robot),
        _ => None,
    };
    let over = |id| {
        if Some(id) == cursor {
            let r = robot?;
            let text = format!("{}{}{}", r.team.letter(), r.number, screen.facing.arrow());
            return Some((
                text,
                Style::new()
                    .fg(Color::Black)
                    .bg(team_colour(r.team))
                    .add_modifier(Modifier::BOLD | Modifier::SLOW_BLINK | Modifier::UNDERLINED),
            ));
        }
        if let Some((slot, _, facing)) = placed.iter().find(|(_, c, _)| *c == id) {
            let colour = setup.teams[slot.team].colour;
            let text = format!("{}{}{}", colour.letter(), slot.robot + 1, facing.arrow());
            return Some((
                text,
                Style::new()
                    .fg(Color::Black)
                    .bg(team_colour(colour))
                    .add_modifier(Modifier::BOLD),
            ));
        }
        free.contains(&id).then(|| {
            (
                " + ".to_string(),
                Style::new()
                    .fg(Color::Yellow)
                    .add_modifier(Modifier::BOLD | Modifier::REVERSED),
            )
        })
    };
    board_lines_with(board, None, &over)
}

/// Beside the board while placing: whose turn, where, the keys, the robots placed.
fn placement_side(
    screen: &Screen,
    phase: &Phase,
    cursor: Option<robots_games::battle::board::CellId>,
    free: &[robots_games::battle::board::CellId],
    placed: &[(
        robots_games::battle::engine::Slot,
        robots_games::battle::board::CellId,
        Direction,
    )],
) -> Vec<Line<'static>> {
    let table = &screen.table;
    let setup = table.setup();
    let robot = match phase {
        Phase::Place { robot, .. } => Some(*robot),
        _ => None,
    };
    let mut text = Vec::new();
    match (phase, robot, cursor) {
        (Phase::Place { .. }, Some(r), Some(cell)) => {
            text.push(Line::styled(
                format!("{r} to place"),
                Style::new()
                    .fg(team_colour(r.team))
                    .add_modifier(Modifier::BOLD),
            ));
            text.push(Line::raw(format!(
                "here: {} · {} free start points (yellow)",
                placement_text(table, cell, screen.facing),
                free.len()
            )));
            text.push(Line::raw("←/→ start point  r/R or 1-6 facing"));
            text.push(Line::raw("Enter place  u undo  q quit"));
        }
        _ => {
            text.push(Line::styled(
                "every robot is placed",
                Style::new().add_modifier(Modifier::BOLD),
            ));
            text.push(Line::raw("Enter start the match"));
            text.push(Line::raw("u undo the last placement  q quit"));
        }
    }
    if !screen.message.is_empty() {
        text.push(Line::styled(
            screen.message.clone(),
            Style::new().fg(Color::Yellow),
        ));
    }
    text.push(Line::raw(""));
    for (slot, cell, facing) in placed {
        let by = if table.at_table(slot.team) {
            "placed"
        } else {
            "drawn"
        };
        text.push(Line::raw(format!(
            "{}.{} {} ({by})",
            setup.teams[slot.team].colour,
            slot.robot + 1,
            placement_text(table, *cell, *facing)
        )));
    }
    text
}

/// Runs the game in the terminal until the players quit.
pub fn run(table: HotSeat) -> std::io::Result<()> {
    use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
    let colourful = crate::cli::io::output::colour();
    let mut terminal = ratatui::try_init()?;
    let mut screen = Screen::new(table);
    let result = loop {
        if let Err(e) = terminal.draw(|frame| {
            draw(frame, &screen);
            if !colourful {
                crate::cli::tui::without_colour(frame.buffer_mut());
            }
        }) {
            break Err(e);
        }
        let wait = if screen.running() {
            screen.pace
        } else {
            60_000
        };
        match event::poll(Duration::from_millis(wait)) {
            Err(e) => break Err(e),
            Ok(false) => {
                if screen.running() {
                    screen.tick();
                }
                continue;
            }
            Ok(true) => {}
        }
        let key = match event::read() {
            Err(e) => break Err(e),
            Ok(Event::Key(k)) if k.kind == KeyEventKind::Press => match k.code {
                KeyCode::Char('c') if k.modifiers.contains(KeyModifiers::CONTROL) => break Ok(()),
                code => match crate::cli::tui::key_of(code) {
                    Some(key) => key,
                    None => continue,
                },
            },
            Ok(_) => continue,
        };
        if screen.key(key) {
            break Ok(());
        }
    };
    ratatui::restore();
    // What the players leave with: the result, or where the game stopped.
    match screen.table.session() {
        Some(s) if s.current().is_over() => crate::cli::io::prompt::say(&result_text(s.current())),
        Some(s) => crate::cli::io::prompt::say(&format!("the game is left: {}", s.position())),
        None => crate::cli::io::prompt::say("the game is left before the match started\n"),
    }
    result
}
