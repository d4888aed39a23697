//! Positions: a board, where the robots stand, the goal and the rule options (R-B1, R-B2).
//! [`Position::validate`] owns every check of a position; reading one from a file
//! (docs/FORMATS.md) is [`super::files::parse`]. Moves, played one at a time.

use super::board::{Board, Cell, Colour, Dir};
use std::sync::Arc;

use super::rules::Rules;

/// What to bring where: a robot of a colour, or any robot (the vortex).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Goal {
    pub cell: Cell,
    pub robot: Option<Colour>,
}

#[derive(Clone, Debug)]
pub struct Position {
    pub board: Arc<Board>,
    /// The robots, in colour order.
    pub robots: Vec<(Colour, Cell)>,
    pub goal: Goal,
    pub rules: Rules,
}

/// One move of a solution: a robot and a direction; for the transparent robot, where it
/// stops (it may cross walls and diagonals on the way, each crossing one more move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub robot: Colour,
    pub dir: Dir,
    pub to: Option<(u16, u16)>,
}

impl std::fmt::Display for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.robot, self.dir.letter())?;
        if let Some((x, y)) = self.to {
            write!(f, " to {x} {y}")?;
        }
        Ok(())
    }
}

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("there is no {0} robot")]
    NoSuchRobot(Colour),
    #[error("[{0}, {1}] is off the board")]
    OffBoard(u16, u16),
    #[error("the transparent robot moving {} cannot stop at [{x}, {y}]", .dir.letter())]
    CannotStop { dir: Dir, x: u16, y: u16 },
    #[error("only the transparent robot chooses where it stops; the {0} robot slides to the end")]
    NotTransparent(Colour),
    #[error("the {robot} robot cannot move {}", .dir.letter())]
    CannotMove { robot: Colour, dir: Dir },
}

impl Position {
    pub fn robot_cell(&self, c: Colour) -> Option<Cell> {
        self.robots.iter().find(|(k, _)| *k == c).map(|(_, p)| *p)
    }

    /// Plays `m`; returns where the robot stops and what the move counts (1, plus one per
    /// crossing of the transparent robot).
    pub fn play(&mut self, m: Move) -> Result<(Cell, u32), MoveError> {
        let i = self
            .robots
            .iter()
            .position(|(c, _)| *c == m.robot)
            .ok_or(MoveError::NoSuchRobot(m.robot))?;
        let from = self.robots[i].1;
        let others: Vec<Cell> = self
            .robots
            .iter()
            .filter(|(c, _)| *c != m.robot)
            .map(|(_, p)| *p)
            .collect();
        let occupied = |c: Cell| others.contains(&c);
        let (to, cost) = match (m.robot, m.to) {
            (Colour::Transparent, Some((x, y))) => {
                if x >= self.board.width || y >= self.board.height {
                    return Err(MoveError::OffBoard(x, y));
                }
                let want = self.board.cell(x, y);
                let ends = super::moves::transparent_slides(&self.board, from, m.dir, &occupied);
                let (_, crossed) = ends
                    .iter()
                    .find(|(c, _)| *c == want)
                    .ok_or(MoveError::CannotStop { dir: m.dir, x, y })?;
                (want, 1 + u32::from(*crossed))
            }
            (_, Some(_)) => return Err(MoveError::NotTransparent(m.robot)),
            (_, None) => {
                let to = super::moves::slide(&self.board, from, m.robot, m.dir, &occupied).ok_or(
                    MoveError::CannotMove {
                        robot: m.robot,
                        dir: m.dir,
                    },
                )?;
                (to, 1)
            }
        };
        self.robots[i].1 = to;
        Ok((to, cost))
    }
}

// ------------------------------------------------------------------------ validation

/// A position as written, before any check: robots by colour word, the target by cell or by
/// its colour and symbol on the board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PositionDraft {
    /// A colour word and a cell, in the order they are checked.
    pub robots: Vec<(String, (u16, u16))>,
    pub target: TargetDraft,
    pub rules: Rules,
}

/// The target as written: `at` a cell for a `robot` (or `colour`), or `colour` and `symbol`
/// of a printed target.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TargetDraft {
    pub at: Option<(u16, u16)>,
    pub colour: Option<String>,
    pub symbol: Option<String>,
    pub robot: Option<String>,
}

/// What is wrong with a position, in the order the checks run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("unknown robot `{0}`: expected red, green, blue, yellow, silver or transparent")]
    UnknownRobot(String),
    #[error("the {name} robot at [{x}, {y}] is off the {width}×{height} board")]
    RobotOffBoard {
        name: String,
        x: u16,
        y: u16,
        width: u16,
        height: u16,
    },
    #[error("the {name} robot at [{x}, {y}] stands in the centre or on a diagonal")]
    RobotOnObstacle { name: String, x: u16, y: u16 },
    #[error("two robots at [{x}, {y}]")]
    TwoRobots { name: String, x: u16, y: u16 },
    /// Colours are read whatever their case: `red` and `RED` are one robot.
    #[error("robot `{0}` is given twice (colours are the same in any case)")]
    RobotTwice(String),
    #[error("a position needs at least one robot")]
    NoRobot,
    #[error("target at [{0}, {1}] is off the board")]
    TargetOffBoard(u16, u16),
    #[error("unknown robot `{0}`")]
    UnknownTargetRobot(String),
    #[error("unknown colour `{0}`")]
    UnknownTargetColour(String),
    #[error("this board has no {colour} {symbol} target")]
    NoSuchTarget { colour: String, symbol: String },
    #[error("give `at: [x, y]` with `robot:`, or `color:` and `symbol:`")]
    NoTarget,
    #[error("the target is for the {0} robot, which is not on the board")]
    AbsentRobot(Colour),
}

impl PositionError {
    /// The robot entry (its colour word as written) the error is about, if it is about one.
    pub fn robot(&self) -> Option<&str> {
        match self {
            PositionError::UnknownRobot(name)
            | PositionError::RobotOffBoard { name, .. }
            | PositionError::RobotOnObstacle { name, .. }
            | PositionError::TwoRobots { name, .. }
            | PositionError::RobotTwice(name) => Some(name),
            _ => None,
        }
    }
}

/// The most robots a position holds: one of each colour.
pub const MAX_ROBOTS: usize = Colour::ALL.len();

impl Position {
    /// Whether a position built in code holds what the searches assume (what
    /// [`Position::validate`] checks of a drafted one): one to [`MAX_ROBOTS`] robots of
    /// distinct colours on free cells of the board, the goal on the board, its robot present.
    pub fn is_well_formed(&self) -> bool {
        let b = &self.board;
        let n = b.len();
        let shape = usize::from(b.width) * usize::from(b.height) == n
            && b.blocked.len() == n
            && b.diagonals.len() == n;
        let on_board = |c: Cell| usize::from(c) < n;
        let robots_ok = self.robots.iter().enumerate().all(|(i, (colour, cell))| {
            b.blocked.get(usize::from(*cell)) == Some(&false)
                && self.robots[..i]
                    .iter()
                    .all(|(c, p)| c != colour && p != cell)
        });
        shape
            && (1..=MAX_ROBOTS).contains(&self.robots.len())
            && robots_ok
            && on_board(self.goal.cell)
            && self
                .goal
                .robot
                .is_none_or(|r| self.robots.iter().any(|(c, _)| *c == r))
    }

    /// Checks a drafted position on `board`: robots known, each colour once (so at most
    /// [`MAX_ROBOTS`]), on the board, off the centre and the diagonals, one per cell, at least
    /// one; a target on the board, or printed on it; the target's robot present.
    pub fn validate(board: Board, draft: &PositionDraft) -> Result<Position, PositionError> {
        use PositionError as E;
        let mut robots = Vec::new();
        for (name, (x, y)) in &draft.robots {
            let (x, y, name) = (*x, *y, name.clone());
            let colour = Colour::parse(&name).ok_or_else(|| E::UnknownRobot(name.clone()))?;
            if robots.iter().any(|(c, _)| *c == colour) {
                return Err(E::RobotTwice(name));
            }
            if x >= board.width || y >= board.height {
                return Err(E::RobotOffBoard {
                    name,
                    x,
                    y,
                    width: board.width,
                    height: board.height,
                });
            }
            let cell = board.cell(x, y);
            if board.blocked[usize::from(cell)] || board.diagonals[usize::from(cell)].is_some() {
                return Err(E::RobotOnObstacle { name, x, y });
            }
            if robots.iter().any(|(_, p)| *p == cell) {
                return Err(E::TwoRobots { name, x, y });
            }
            robots.push((colour, cell));
        }
        robots.sort();
        if robots.is_empty() {
            return Err(E::NoRobot);
        }
        let goal = goal(&board, &draft.target)?;
        if let Some(r) = goal.robot
            && !robots.iter().any(|(c, _)| *c == r)
        {
            return Err(E::AbsentRobot(r));
        }
        Ok(Position {
            board: Arc::new(board),
            robots,
            goal,
            rules: draft.rules,
        })
    }
}

fn goal(board: &Board, t: &TargetDraft) -> Result<Goal, PositionError> {
    use PositionError as E;
    match (&t.at, &t.colour, &t.symbol) {
        (Some((x, y)), _, _) => {
            if *x >= board.width || *y >= board.height {
                return Err(E::TargetOffBoard(*x, *y));
            }
            let robot = match t.robot.as_deref().or(t.colour.as_deref()) {
                None | Some("any") => None,
                Some(w) => {
                    Some(Colour::parse(w).ok_or_else(|| E::UnknownTargetRobot(w.to_string()))?)
                }
            };
            Ok(Goal {
                cell: board.cell(*x, *y),
                robot,
            })
        }
        (None, Some(colour), Some(symbol)) => {
            let c = if colour == "any" {
                None
            } else {
                Some(Colour::parse(colour).ok_or_else(|| E::UnknownTargetColour(colour.clone()))?)
            };
            let target = board
                .target_named(c, symbol)
                .ok_or_else(|| E::NoSuchTarget {
                    colour: colour.clone(),
                    symbol: symbol.clone(),
                })?;
            Ok(Goal {
                cell: target.cell,
                robot: c,
            })
        }
        _ => Err(E::NoTarget),
    }
}

// ------------------------------------------------------------------------ move lists

/// Why a list of moves could not be read; `index` counts from 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MovesError {
    #[error("move {index}: `{text}` is not a coordinate")]
    Coordinate { index: usize, text: String },
    #[error(
        "move {index}: `{text}`: expected a robot and a direction, such as `blue N` (the transparent robot may add `to X Y`)"
    )]
    Shape { index: usize, text: String },
    #[error("move {index}: unknown robot `{text}`")]
    Robot { index: usize, text: String },
    #[error("move {index}: `{text}` is not a direction (N, E, S, W)")]
    Direction { index: usize, text: String },
}

/// `"blue N, red W"` → moves.
pub fn parse_moves(text: &str) -> Result<Vec<Move>, MovesError> {
    text.split([',', ';'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .enumerate()
        .map(|(i, part)| {
            let index = i + 1;
            let words: Vec<&str> = part.split_whitespace().collect();
            let (robot, dir, to) = match words.as_slice() {
                [r, d] => (*r, *d, None),
                [r, d, "to", x, y] => {
                    let coord = |t: &str| {
                        t.parse::<u16>().map_err(|_| MovesError::Coordinate {
                            index,
                            text: t.to_string(),
                        })
                    };
                    (*r, *d, Some((coord(x)?, coord(y)?)))
                }
                _ => {
                    return Err(MovesError::Shape {
                        index,
                        text: part.to_string(),
                    });
                }
            };
            let robot = Colour::parse(robot).ok_or_else(|| MovesError::Robot {
                index,
                text: robot.to_string(),
            })?;
            let mut chars = dir.chars();
            let dir = match (chars.next().and_then(Dir::parse), chars.next()) {
                (Some(d), None) => d,
                _ => {
                    return Err(MovesError::Direction {
                        index,
                        text: dir.to_string(),
                    });
                }
            };
            Ok(Move { robot, dir, to })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ricochet::board::{Diagonal, Target};

    fn board() -> Board {
        let mut b = Board::empty("t", 5, 5);
        b.block(b.cell(2, 2));
        let corner = usize::from(b.cell(4, 4));
        b.diagonals[corner] = Some(Diagonal {
            backslash: true,
            colour: Colour::Blue,
        });
        b.targets.push(Target {
            cell: b.cell(0, 4),
            colour: Some(Colour::Red),
            symbol: "star".into(),
        });
        b
    }

    fn draft(robots: &[(&str, (u16, u16))], target: TargetDraft) -> PositionDraft {
        PositionDraft {
            robots: robots.iter().map(|(n, c)| ((*n).to_string(), *c)).collect(),
            target,
            rules: Rules::default(),
        }
    }

    fn at(x: u16, y: u16, robot: &str) -> TargetDraft {
        TargetDraft {
            at: Some((x, y)),
            robot: Some(robot.into()),
            ..TargetDraft::default()
        }
    }

    fn named(colour: &str, symbol: &str) -> TargetDraft {
        TargetDraft {
            colour: Some(colour.into()),
            symbol: Some(symbol.into()),
            ..TargetDraft::default()
        }
    }

    /// Drafts whose robots are wrong, each with its error.
    fn robot_errors() -> Vec<(PositionDraft, PositionError)> {
        use PositionError as E;
        let off = E::RobotOffBoard {
            name: "red".into(),
            x: 5,
            y: 0,
            width: 5,
            height: 5,
        };
        vec![
            (
                draft(&[("pink", (0, 0))], at(1, 1, "red")),
                E::UnknownRobot("pink".into()),
            ),
            (draft(&[("red", (5, 0))], at(1, 1, "red")), off),
            (
                draft(&[("red", (2, 2))], at(1, 1, "red")),
                E::RobotOnObstacle {
                    name: "red".into(),
                    x: 2,
                    y: 2,
                },
            ),
            (
                draft(&[("blue", (4, 4))], at(1, 1, "blue")),
                E::RobotOnObstacle {
                    name: "blue".into(),
                    x: 4,
                    y: 4,
                },
            ),
            (
                draft(&[("blue", (1, 1)), ("red", (1, 1))], at(1, 1, "red")),
                E::TwoRobots {
                    name: "red".into(),
                    x: 1,
                    y: 1,
                },
            ),
        ]
    }

    /// Drafts whose target is wrong, each with its error.
    fn target_errors() -> Vec<(PositionDraft, PositionError)> {
        use PositionError as E;
        vec![
            (draft(&[], at(1, 1, "red")), E::NoRobot),
            (
                draft(&[("red", (0, 0))], at(9, 1, "red")),
                E::TargetOffBoard(9, 1),
            ),
            (
                draft(&[("red", (0, 0))], at(1, 1, "pink")),
                E::UnknownTargetRobot("pink".into()),
            ),
            (
                draft(&[("red", (0, 0))], named("pink", "star")),
                E::UnknownTargetColour("pink".into()),
            ),
            (
                draft(&[("red", (0, 0))], named("red", "moon")),
                E::NoSuchTarget {
                    colour: "red".into(),
                    symbol: "moon".into(),
                },
            ),
            (
                draft(&[("red", (0, 0))], TargetDraft::default()),
                E::NoTarget,
            ),
            (
                draft(&[("red", (0, 0))], at(1, 1, "green")),
                E::AbsentRobot(Colour::Green),
            ),
        ]
    }

    #[test]
    fn validation_finds_each_problem() {
        for (d, want) in robot_errors().into_iter().chain(target_errors()) {
            assert_eq!(Position::validate(board(), &d).err(), Some(want));
        }
        let p = Position::validate(
            board(),
            &draft(&[("red", (0, 0)), ("blue", (1, 0))], named("red", "star")),
        )
        .expect("a valid position");
        assert_eq!(p.robots, vec![(Colour::Red, 0), (Colour::Blue, 1)]);
        assert_eq!(
            p.goal,
            Goal {
                cell: 20,
                robot: Some(Colour::Red)
            }
        );
    }

    #[test]
    fn move_lists_read_or_say_which_move_is_wrong() {
        assert_eq!(
            parse_moves("blue N, transparent E to 1 0").map(|m| m.len()),
            Ok(2)
        );
        let rows = [
            ("red", "move 1: `red`: expected a robot and a direction"),
            ("red N; pink S", "move 2: unknown robot `pink`"),
            ("red NE", "move 1: `NE` is not a direction (N, E, S, W)"),
            ("transparent E to x 0", "move 1: `x` is not a coordinate"),
        ];
        for (text, want) in rows {
            let got = parse_moves(text).map_err(|e| e.to_string());
            assert!(
                got.as_ref().is_err_and(|e| e.starts_with(want)),
                "{text}: {got:?}"
            );
        }
    }
}
