//! Where each pane goes for the terminal's size. Wide terminals put the board beside the
//! programs; narrower ones give the programs as much width as the robot shown first needs
//! to be whole, and stack the answer, the watches and the log beside them.

use super::wrap::{to_u16, wrap};
use super::{Ui, lines as panes};
use ratatui::layout::Rect;
use ratatui::text::Line;
use robots::battle::live::debug::Session;

/// Below this size the screen shows only a notice.
pub const MIN_WIDTH: u16 = 60;
pub const MIN_HEIGHT: u16 = 20;
/// The narrowest program column, and the narrowest column beside the programs.
const PROGRAM_MIN: u16 = 30;
const SIDE_MIN: u16 = 28;
/// Rows the answer pane keeps under the board at least.
const UNDER_BOARD_MIN: u16 = 10;

/// The panes' places.
pub struct Plan {
    pub board: Option<Rect>,
    /// The programs (or the board, after `v`, when it has no place of its own).
    pub programs: Rect,
    pub grid: Grid,
    pub answer: Rect,
    pub watches: Rect,
    pub log: Option<Rect>,
    pub position: Rect,
    pub keys: Rect,
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
    /// The tallest program: the grid can show every robot whole in turn if the pane is as
    /// tall (the layout depends on it, not on the robot next, so it does not jump as the
    /// match goes on).
    pub tallest: u16,
}

/// The plan for `area`, or `None` when it is smaller than [`MIN_WIDTH`] × [`MIN_HEIGHT`].
pub fn plan(area: Rect, session: &Session, ui: &Ui) -> Option<Plan> {
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        return None;
    }
    let position_rows =
        to_u16(wrap(session.position().trim_end(), usize::from(area.width), 2).len());
    let body = Rect {
        height: area.height - position_rows - 1,
        ..area
    };
    let position = Rect {
        y: body.bottom(),
        height: position_rows,
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
            });
        }
    }
    Some(plan.unwrap_or_else(|| {
        narrow(
            body,
            session,
            ui,
            (board_width, board_height),
            position,
            keys,
        )
    }))
}

/// Programs on the left, as wide as the robot shown first needs to be whole; beside them the
/// board if it fits, the answer, the watches and the log.
fn narrow(
    body: Rect,
    session: &Session,
    ui: &Ui,
    board: (u16, u16),
    position: Rect,
    keys: Rect,
) -> Plan {
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
        position,
        keys,
    }
}

/// The answer, the watches and (if `with_log` and there is room) the log, top to bottom.
fn stack(area: Rect, session: &Session, ui: &Ui, with_log: bool) -> (Rect, Rect, Option<Rect>) {
    let watch_rows = to_u16(panes::watch_lines(session, ui, area.width.saturating_sub(2)).len());
    let watches_height = (watch_rows + 2).clamp(3, (area.height / 3).max(3));
    let rest = area.height.saturating_sub(watches_height);
    let answer_rows = to_u16(panes::answer_lines(ui, area.width.saturating_sub(2)).len());
    let answer_height = if with_log && rest >= 5 + 4 {
        (answer_rows + 2).clamp(5, rest - 4)
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
        let mut top = 0u16;
        let mut row_height = 0u16;
        for (i, id) in m.robot_ids().enumerate() {
            if i > 0 && i % columns == 0 {
                top += row_height + 1;
                row_height = 0;
            }
            let lines =
                panes::program_block(session, id, column_width.saturating_sub(1), i == first);
            row_height = row_height.max(to_u16(lines.len()));
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
        let tallest = to_u16(blocks.iter().map(|b| b.0.len()).max().unwrap_or(0));
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
