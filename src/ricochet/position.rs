//! Position files (docs/FORMATS.md): a board, where the robots stand, the target and the rule
//! options (R-B1, R-B2).

use super::board::{self, Board, Cell, Colour, Dir};
use crate::text::diagnostic::Diagnostic;
use serde::Deserialize;
use std::sync::Arc;

/// The rule options (RULES B.1, B.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// R-B1: the active robot must turn at least once (default true).
    pub must_ricochet: bool,
    /// R-B2: a one-move solution does not count (default false).
    pub no_single_move: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            must_ricochet: true,
            no_single_move: false,
        }
    }
}

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
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Move {
    pub robot: Colour,
    pub dir: Dir,
    #[serde(skip_serializing_if = "Option::is_none")]
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

impl Position {
    pub fn robot_cell(&self, c: Colour) -> Option<Cell> {
        self.robots.iter().find(|(k, _)| *k == c).map(|(_, p)| *p)
    }

    /// Plays `m`; returns where the robot stops and what the move counts (1, plus one per
    /// crossing of the transparent robot).
    pub fn play(&mut self, m: Move) -> Result<(Cell, u32), String> {
        let i = self
            .robots
            .iter()
            .position(|(c, _)| *c == m.robot)
            .ok_or_else(|| format!("there is no {} robot", m.robot))?;
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
                    return Err(format!("[{x}, {y}] is off the board"));
                }
                let want = self.board.cell(x, y);
                let ends = super::moves::transparent_slides(&self.board, from, m.dir, &occupied);
                let (_, crossed) = ends.iter().find(|(c, _)| *c == want).ok_or_else(|| {
                    format!(
                        "the transparent robot moving {} cannot stop at [{x}, {y}]",
                        m.dir.letter()
                    )
                })?;
                (want, 1 + u32::from(*crossed))
            }
            (_, Some(_)) => {
                return Err(format!(
                    "only the transparent robot chooses where it stops; the {} robot slides to the end",
                    m.robot
                ));
            }
            (_, None) => {
                let to = super::moves::slide(&self.board, from, m.robot, m.dir, &occupied)
                    .ok_or_else(|| {
                        format!("the {} robot cannot move {}", m.robot, m.dir.letter())
                    })?;
                (to, 1)
            }
        };
        self.robots[i].1 = to;
        Ok((to, cost))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionFile {
    board: BoardRef,
    robots: std::collections::BTreeMap<String, (u16, u16)>,
    target: TargetFile,
    #[serde(default)]
    rules: RulesFile,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum BoardRef {
    Quadrants { quadrants: [String; 4] },
    File(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TargetFile {
    #[serde(alias = "colour")]
    color: Option<String>,
    symbol: Option<String>,
    at: Option<(u16, u16)>,
    robot: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RulesFile {
    must_ricochet: Option<bool>,
    no_single_move: Option<bool>,
}

/// Reads a position file; `read` loads a custom board file it names (relative to it).
pub fn parse(
    file: &str,
    source: &str,
    read: &dyn Fn(&str) -> Result<String, String>,
) -> Result<Position, Diagnostic> {
    let raw: PositionFile = crate::text::yaml::from_str(file, source)?;
    let err = |key: &str, msg: String| {
        let (l, c) = crate::text::yaml::locate_key(source, key, 1).unwrap_or((1, 1));
        Diagnostic::at(file, source, l, c, msg)
    };
    let board = match &raw.board {
        BoardRef::Quadrants { quadrants } => {
            board::from_quadrants(quadrants).map_err(|m| err("board", m))?
        }
        BoardRef::File(path) => {
            let text = read(path).map_err(|m| err("board", m))?;
            board::parse_custom(path, &text)?
        }
    };
    let mut robots = Vec::new();
    for (name, (x, y)) in &raw.robots {
        let colour = Colour::parse(name).ok_or_else(|| err(name, format!("unknown robot `{name}`: expected red, green, blue, yellow, silver or transparent")))?;
        if *x >= board.width || *y >= board.height {
            return Err(err(
                name,
                format!(
                    "the {name} robot at [{x}, {y}] is off the {}×{} board",
                    board.width, board.height
                ),
            ));
        }
        let cell = board.cell(*x, *y);
        if board.blocked[usize::from(cell)] || board.diagonals[usize::from(cell)].is_some() {
            return Err(err(
                name,
                format!("the {name} robot at [{x}, {y}] stands in the centre or on a diagonal"),
            ));
        }
        if robots.iter().any(|(_, p)| *p == cell) {
            return Err(err(name, format!("two robots at [{x}, {y}]")));
        }
        robots.push((colour, cell));
    }
    robots.sort();
    if robots.is_empty() {
        return Err(err("robots", "a position needs at least one robot".into()));
    }
    let t = &raw.target;
    let goal = match (&t.at, &t.color, &t.symbol) {
        (Some((x, y)), _, _) => {
            if *x >= board.width || *y >= board.height {
                return Err(err(
                    "target",
                    format!("target at [{x}, {y}] is off the board"),
                ));
            }
            let robot = match t.robot.as_deref().or(t.color.as_deref()) {
                None | Some("any") => None,
                Some(w) => Some(
                    Colour::parse(w)
                        .ok_or_else(|| err("target", format!("unknown robot `{w}`")))?,
                ),
            };
            Goal {
                cell: board.cell(*x, *y),
                robot,
            }
        }
        (None, Some(colour), Some(symbol)) => {
            let c = if colour == "any" {
                None
            } else {
                Some(
                    Colour::parse(colour)
                        .ok_or_else(|| err("target", format!("unknown colour `{colour}`")))?,
                )
            };
            let target = board.target_named(c, symbol).ok_or_else(|| {
                err(
                    "target",
                    format!("this board has no {colour} {symbol} target"),
                )
            })?;
            Goal {
                cell: target.cell,
                robot: c,
            }
        }
        _ => {
            return Err(err(
                "target",
                "give `at: [x, y]` with `robot:`, or `color:` and `symbol:`".into(),
            ));
        }
    };
    if let Some(r) = goal.robot
        && !robots.iter().any(|(c, _)| *c == r)
    {
        return Err(err(
            "target",
            format!("the target is for the {r} robot, which is not on the board"),
        ));
    }
    let defaults = Rules::default();
    let rules = Rules {
        must_ricochet: raw.rules.must_ricochet.unwrap_or(defaults.must_ricochet),
        no_single_move: raw.rules.no_single_move.unwrap_or(defaults.no_single_move),
    };
    Ok(Position {
        board: Arc::new(board),
        robots,
        goal,
        rules,
    })
}

/// `"blue N, red W"` → moves.
pub fn parse_moves(text: &str) -> Result<Vec<Move>, String> {
    text.split([',', ';'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .enumerate()
        .map(|(i, part)| {
            let words: Vec<&str> = part.split_whitespace().collect();
            let (robot, dir, to) = match words.as_slice() {
                [r, d] => (*r, *d, None),
                [r, d, "to", x, y] => {
                    let coord = |t: &str| t.parse::<u16>().map_err(|_| format!("move {}: `{t}` is not a coordinate", i + 1));
                    (*r, *d, Some((coord(x)?, coord(y)?)))
                }
                _ => return Err(format!("move {}: `{part}`: expected a robot and a direction, such as `blue N` (the transparent robot may add `to X Y`)", i + 1)),
            };
            let robot = Colour::parse(robot).ok_or_else(|| format!("move {}: unknown robot `{robot}`", i + 1))?;
            let mut chars = dir.chars();
            let dir = match (chars.next().and_then(Dir::parse), chars.next()) {
                (Some(d), None) => d,
                _ => return Err(format!("move {}: `{dir}` is not a direction (N, E, S, W)", i + 1)),
            };
            Ok(Move { robot, dir, to })
        })
        .collect()
}

/// A random position file on a random original board (seeded): `robots` robots (4, or 5 with
/// the silver one) on free cells, a random target of the board.
pub fn random_yaml(seed: u64, robots: usize) -> String {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let boards = board::original_arrangements();
    let names = &boards[rng.random_range(0..boards.len() as u32) as usize];
    let b = board::from_quadrants(names).expect("the original boards build");
    let colours = [
        Colour::Red,
        Colour::Green,
        Colour::Blue,
        Colour::Yellow,
        Colour::Silver,
    ];
    let mut taken: Vec<Cell> = Vec::new();
    let mut placed = Vec::new();
    for colour in colours.iter().take(robots.clamp(1, 5)) {
        let cell = loop {
            let c = rng.random_range(0..b.len() as u32) as Cell;
            let free = !b.blocked[usize::from(c)]
                && !taken.contains(&c)
                && !b.targets.iter().any(|t| t.cell == c);
            if free {
                break c;
            }
        };
        taken.push(cell);
        let (x, y) = b.xy(cell);
        placed.push(format!("{}: [{x}, {y}]", colour.name()));
    }
    let target = &b.targets[rng.random_range(0..b.targets.len() as u32) as usize];
    let colour = target
        .colour
        .map_or("any".to_string(), |c| c.name().to_string());
    format!(
        "# A random position (robots ricochet random --seed {seed} --robots {robots}).\nboard: {{quadrants: [{}]}}\nrobots: {{{}}}\ntarget: {{color: {colour}, symbol: {}}}\n",
        names.join(", "),
        placed.join(", "),
        target.symbol
    )
}
