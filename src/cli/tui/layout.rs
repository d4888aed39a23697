//! Where each pane goes for the terminal's size. Wide terminals put the board beside the
//! programs; narrower ones give the programs as much width as the tallest program needs to
//! be whole, and stack the answer, the watches and the log beside them; `v` (or a game at
//! the table) puts the board whole in the programs' place, the programs in what is left
//! beside it. Every place depends on the terminal's size and the match's programs, never on
//! the moment of the match (each program is measured at its tallest): the panes do not jump
//! from one step to the next.

use super::wrap::to_u16;
use super::{Ui, lines as panes};
use ratatui::layout::Rect;
use ratatui::text::Line;
use robots_games::battle::live::debug::Session;

/// Below this size the screen shows only a notice.
pub const MIN_WIDTH: u16 = 60;
pub const MIN_HEIGHT: u16 = 20;
/// The narrowest program column, and the narrowest column beside the programs.
const PROGRAM_MIN: u16 = 30;
const SIDE_MIN: u16 = 28;
/// Rows the answer pane keeps under the board at least.
const UNDER_BOARD_MIN: u16 = 10;
/// The narrowest column of programs beside the board put in their place (`v`): their
/// steps, with the pointer, fit.
const STEPS_MIN: u16 = 14;
/// Under this many rows, the answer alone goes under the board put in the programs' place;
/// under twice as many, the answer and the watches, without the log.
const STACK_MIN: u16 = 9;
/// The fewest rows for the answer under the board put in the programs' place: with fewer,
/// the board is not put there (`v` does nothing).
const ANSWER_MIN: u16 = 5;

/// The panes' places.
pub struct Plan {
    pub board: Option<Rect>,
    /// The programs (none drawn when it is too narrow).
    pub programs: Rect,
    pub grid: Grid,
    pub answer: Rect,
    pub watches: Rect,
    pub log: Option<Rect>,
    /// The status line: one row.
    pub position: Rect,
    pub keys: Rect,
    /// What `v` shows instead, for the key line: `None` when the board and the programs are
    /// both on screen.
    pub toggle: Option<&'static str>,
}

/// The programs laid out in columns, scrolled so the robot shown first is whole.
pub struct Grid {
    pub column_width: u16,
    /// Each robot's lines and its place in the grid (column, first row), in robot id order.
    pub blocks: Vec<(Vec<Line<'static>>, u16, u16)>,
    /// The first grid row shown.
    pub offset: u16,
    /// The grid's rows in all.
    pub height: u16,
    /// Whether the robot shown first is whole, and how many robots are.
    pub first_whole: bool,
    pub whole: usize,
    /// The tallest program (at its tallest, [`panes::block_bound`]): the grid can show
    /// every robot whole in turn if the pane is as tall (the layout depends on it, not on the
    /// robot next nor on the moment, so it does not jump as the match goes on).
    pub tallest: u16,
}

/// The plan for `area`, or `None` when it is smaller than [`MIN_WIDTH`] × [`MIN_HEIGHT`].
pub fn plan(area: Rect, session: &Session, ui: &Ui) -> Option<Plan> {
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        return None;
    }
    let body = Rect {
        height: area.height - 2,
        ..area
    };
    let position = Rect {
        y: body.bottom(),
        height: 1,
        ..area
    };
    let keys = Rect {
        y: position.bottom(),
        height: 1,
        ..area
    };
    let board = panes::board_lines(session);
    let board_width = to_u16(board.iter().map(Line::width).max().unwrap_or(0) + 2);
    let board_height = to_u16(board.len() + 2);
    let first = ui.shown_first(session);
    let mut plan = None;
    // Wide: the board, with the answer under it; the programs beside, the log under them.
    if body.width >= board_width + PROGRAM_MIN && body.height >= board_height + UNDER_BOARD_MIN {
        let right = Rect {
            x: body.x + board_width,
            width: body.width - board_width,
            ..body
        };
        let grid = arrange(session, first, right);
        let spare = right.height.saturating_sub(grid.height);
        let under = body.height - board_height;
        if grid.tallest <= right.height && (spare >= 6 || under >= UNDER_BOARD_MIN + 6) {
            let (programs, log) = if spare >= 6 {
                let (top, bottom) = split_rows(right, right.height - spare);
                (top, Some(bottom))
            } else {
                (right, None)
            };
            let left = Rect {
                width: board_width,
                ..body
            };
            let (board_area, under) = split_rows(left, board_height);
            let (answer, watches, left_log) = stack(under, session, ui, log.is_none());
            plan = Some(Plan {
                board: Some(board_area),
                programs,
                grid,
                answer,
                watches,
                log: log.or(left_log),
                position,
                keys,
                toggle: None,
            });
        }
    }
    let board = (board_width, board_height);
    Some(plan.unwrap_or_else(|| {
        let instead = body.height >= board.1 + ANSWER_MIN;
        let mut plan = if ui.board_first && instead {
            board_instead(body, session, ui, board)
        } else {
            narrow(body, session, ui, board)
        };
        if plan.board.is_none() && !instead {
            plan.toggle = None;
        }
        plan.position = position;
        plan.keys = keys;
        plan
    }))
}

/// `v`: the board whole at the top left, the answer (and the watches, and the log if there
/// is room) under it, the programs in the column left beside it.
fn board_instead(body: Rect, session: &Session, ui: &Ui, board: (u16, u16)) -> Plan {
    let width = board.0.min(body.width);
    let beside = body.width - width >= STEPS_MIN;
    let (left, right) = if beside {
        split_columns(body, width)
    } else {
        split_columns(body, body.width)
    };
    let (board_area, under) = split_rows(left, board.1);
    let (answer, watches, log) = if under.height < STACK_MIN {
        (under, Rect { height: 0, ..under }, None)
    } else {
        stack(under, session, ui, under.height >= 2 * STACK_MIN)
    };
    // No room under the board for the debugger's watches and breakpoints: under the steps.
    let marked = !session.marks().is_empty();
    let (programs, watches) = if watches.height == 0 && ui.table.is_none() && marked && beside {
        let rows = to_u16(panes::watch_rows_bound(
            session,
            ui,
            right.width.saturating_sub(2),
        ));
        let height = (rows + 2).clamp(3, (right.height / 2).max(3));
        split_rows(right, right.height.saturating_sub(height))
    } else {
        (right, watches)
    };
    let grid = arrange(session, ui.shown_first(session), programs);
    Plan {
        board: Some(board_area),
        programs,
        grid,
        answer,
        watches,
        log,
        position: Rect::default(),
        keys: Rect::default(),
        toggle: Some("programs"),
    }
}

/// Programs on the left, as wide as the tallest program (at its tallest) needs to be whole;
/// beside them the board if it fits, the answer, the watches and the log.
fn narrow(body: Rect, session: &Session, ui: &Ui, board: (u16, u16)) -> Plan {
    let first = ui.shown_first(session);
    let widest = body.width.saturating_sub(SIDE_MIN).max(PROGRAM_MIN);
    let needed = (PROGRAM_MIN..=widest)
        .step_by(2)
        .find(|&w| arrange(session, first, Rect { width: w, ..body }).tallest <= body.height)
        .unwrap_or(widest);
    let room = body.width - needed;
    let side_width = if room >= board.0 && body.height >= board.1 + UNDER_BOARD_MIN {
        board.0
    } else {
        room.min((body.width * 2 / 5).clamp(SIDE_MIN, 64))
    };
    let programs = Rect {
        width: body.width - side_width,
        ..body
    };
    let side = Rect {
        x: programs.right(),
        width: side_width,
        ..body
    };
    let grid = arrange(session, first, programs);
    let (board_area, side) = if side_width >= board.0 && body.height >= board.1 + UNDER_BOARD_MIN {
        let (top, bottom) = split_rows(side, board.1);
        (Some(top), bottom)
    } else {
        (None, side)
    };
    let (answer, watches, log) = stack(side, session, ui, true);
    Plan {
        board: board_area,
        programs,
        grid,
        answer,
        watches,
        log,
        position: Rect::default(),
        keys: Rect::default(),
        toggle: board_area.is_none().then_some("board"),
    }
}

/// The answer, the watches and (if `with_log` and there is room) the log, top to bottom.
/// With a log, the answer takes a fixed two thirds of the rows the watches leave (it
/// scrolls), so the panes stay put from step to step; a refusal grows it to be read whole.
fn stack(area: Rect, session: &Session, ui: &Ui, with_log: bool) -> (Rect, Rect, Option<Rect>) {
    let watch_rows = to_u16(panes::watch_rows_bound(
        session,
        ui,
        area.width.saturating_sub(2),
    ));
    let watches_height = (watch_rows + 2).clamp(3, (area.height / 3).max(3));
    let rest = area.height.saturating_sub(watches_height);
    let answer_rows = to_u16(panes::answer_lines(ui, area.width.saturating_sub(2)).len());
    let answer_height = if with_log && rest >= 5 + 4 {
        // A game's table pane holds a question and a line of news: 7 lines.
        let share = match ui.table {
            Some(_) => (rest * 2 / 3).min(9),
            None => rest * 2 / 3,
        };
        let fixed = share.clamp(5, rest - 4);
        match ui.tone {
            super::Tone::Error => (answer_rows + 2).clamp(fixed, rest - 4),
            _ => fixed,
        }
    } else {
        rest
    };
    let (answer, below) = split_rows(area, answer_height);
    let (watches, log) = split_rows(below, watches_height);
    let log = (log.height >= 3).then_some(log);
    (answer, watches, log)
}

/// The first `rows` rows of `area` (at most all of them) and the rest.
pub fn split_rows(area: Rect, rows: u16) -> (Rect, Rect) {
    let rows = rows.min(area.height);
    (
        Rect {
            height: rows,
            ..area
        },
        Rect {
            y: area.y + rows,
            height: area.height - rows,
            ..area
        },
    )
}

/// `area` cut into its first `columns` columns (at most all of them) and the rest.
pub fn split_columns(area: Rect, columns: u16) -> (Rect, Rect) {
    let columns = columns.min(area.width);
    (
        Rect {
            width: columns,
            ..area
        },
        Rect {
            x: area.x + columns,
            width: area.width - columns,
            ..area
        },
    )
}

/// The programs in as many columns as keep the most robots whole, scrolled so the robot
/// shown first (`first`) starts at the top, or as near as the grid's end allows.
pub fn arrange(session: &Session, first: usize, area: Rect) -> Grid {
    let m = session.current();
    let count = m.robots().len().max(1);
    let mut best: Option<Grid> = None;
    for columns in 1..=count {
        let column_width = area.width / to_u16(columns);
        if columns > 1 && column_width < PROGRAM_MIN {
            break;
        }
        let mut blocks = Vec::new();
        let mut slots = Vec::new();
        let mut top = 0u16;
        let mut row_height = 0u16;
        for (i, id) in m.robot_ids().enumerate() {
            if i > 0 && i % columns == 0 {
                top += row_height + 1;
                row_height = 0;
            }
            let width = column_width.saturating_sub(1);
            let lines = panes::program_block(session, id, width, i == first);
            let slot = to_u16(panes::block_bound(session, id, width));
            row_height = row_height.max(slot);
            slots.push(slot);
            blocks.push((lines, to_u16(i % columns), top));
        }
        let height = top + row_height;
        let first_top = blocks.get(first).map_or(0, |b| b.2);
        let offset = first_top.min(height.saturating_sub(area.height));
        let whole_block = |(lines, _, top): &(Vec<Line>, u16, u16)| {
            *top >= offset && top + to_u16(lines.len()) <= offset + area.height
        };
        let whole = blocks.iter().filter(|b| whole_block(b)).count();
        let first_whole = blocks.get(first).is_some_and(whole_block);
        let tallest = slots.iter().copied().max().unwrap_or(0);
        let grid = Grid {
            tallest,
            column_width,
            blocks,
            offset,
            height,
            first_whole,
            whole,
        };
        if best.as_ref().is_none_or(|b| {
            let fits = |g: &Grid| g.tallest <= area.height;
            (fits(&grid), grid.first_whole, grid.whole) > (fits(b), b.first_whole, b.whole)
        }) {
            best = Some(grid);
        }
    }
    best.unwrap_or(Grid {
        column_width: area.width,
        blocks: Vec::new(),
        offset: 0,
        height: 0,
        first_whole: true,
        whole: 0,
        tallest: 0,
    })
}
