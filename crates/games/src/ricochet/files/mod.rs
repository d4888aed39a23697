//! The YAML files of Ricochet (docs/FORMATS.md): custom boards and positions. This layer only
//! reads text; the checks belong to [`Board::custom`] and [`Position::validate`], and their
//! typed errors come back here to be located at the key they are about. Where boards come
//! from: [`quarters`] (the published quarter boards), [`custom`] (a custom board's checks),
//! [`game_id`] (a game id turned into a position).

pub mod custom;
pub mod game_id;
pub mod quarters;

use crate::ricochet::board::{Board, Cell, Colour};
use crate::ricochet::position::{Position, PositionDraft, PositionError, TargetDraft};
use crate::ricochet::rules::Rules;
use crate::text::diagnostic::Diagnostic;
use custom::{CustomBoard, CustomBoardError};
use serde::Deserialize;
use std::collections::BTreeMap;

/// A diagnostic at the first `key:` of `source` (or its start).
fn at_key(file: &str, source: &str, key: &str, message: String) -> Diagnostic {
    let (l, c) = crate::text::yaml::locate_key(source, key, 1).unwrap_or((1, 1));
    Diagnostic::at(file, source, l, c, message)
}

// ------------------------------------------------------------------------ custom boards

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CustomFile {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    description: Option<String>,
    size: (u16, u16),
    #[serde(default)]
    walls: Vec<(u16, u16, String)>,
    /// The central enclosure: x, y, width, height (optional).
    #[serde(default)]
    centre: Option<(u16, u16, u16, u16)>,
    #[serde(default)]
    targets: Vec<(u16, u16, String, String)>,
    #[serde(default)]
    bases: BTreeMap<String, (u16, u16)>,
    #[serde(default)]
    diagonals: Vec<(u16, u16, String, String)>,
}

/// The key of a custom board file an error is about.
fn custom_key(e: &CustomBoardError) -> &'static str {
    use CustomBoardError as E;
    match e {
        E::Size(..) => "size",
        E::WallOffBoard { .. } | E::WallSide { .. } => "walls",
        E::Centre(..) => "centre",
        E::TargetPlace(..) | E::TargetColour(_) => "targets",
        E::BaseColour(_)
        | E::BaseOffBoard(..)
        | E::BaseTwice(_)
        | E::BasePlace(..)
        | E::BaseShared(..) => "bases",
        E::DiagonalOffBoard(..) | E::DiagonalColour(_) => "diagonals",
    }
}

/// A custom board file (Ricochets): named by its `name:` or else by the file's stem.
pub fn parse_custom(file: &str, source: &str) -> Result<Board, Diagnostic> {
    let raw: CustomFile = crate::text::yaml::from_str(file, source)?;
    let _ = &raw.description;
    let name = raw.name.unwrap_or_else(|| {
        std::path::Path::new(file)
            .file_stem()
            .map_or("board".into(), |s| s.to_string_lossy().into_owned())
    });
    let spec = CustomBoard {
        name,
        size: raw.size,
        walls: raw.walls,
        centre: raw.centre,
        targets: raw.targets,
        bases: raw.bases.into_iter().collect(),
        diagonals: raw.diagonals,
    };
    Board::custom(&spec).map_err(|e| at_key(file, source, custom_key(&e), e.to_string()))
}

// ------------------------------------------------------------------------ positions

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionFile {
    board: BoardRef,
    robots: BTreeMap<String, (u16, u16)>,
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

/// The key of a position file an error is about: the robot's own entry, `robots:` or
/// `target:`.
fn position_key(e: &PositionError) -> &str {
    match e {
        PositionError::NoRobot => "robots",
        e => e.robot().unwrap_or("target"),
    }
}

/// Reads a position file; `read` loads a custom board file it names (relative to it).
pub fn parse(
    file: &str,
    source: &str,
    read: &dyn Fn(&str) -> Result<String, String>,
) -> Result<Position, Diagnostic> {
    let raw: PositionFile = crate::text::yaml::from_str(file, source)?;
    let err = |key: &str, msg: String| at_key(file, source, key, msg);
    let board = match &raw.board {
        BoardRef::Quadrants { quadrants } => {
            quarters::from_quadrants(quadrants).map_err(|e| err("board", e.to_string()))?
        }
        BoardRef::File(path) => {
            let text = read(path).map_err(|m| err("board", m))?;
            parse_custom(path, &text)?
        }
    };
    let defaults = Rules::default();
    let draft = PositionDraft {
        robots: raw.robots.into_iter().collect(),
        target: TargetDraft {
            at: raw.target.at,
            colour: raw.target.color,
            symbol: raw.target.symbol,
            robot: raw.target.robot,
        },
        rules: Rules {
            must_ricochet: raw.rules.must_ricochet.unwrap_or(defaults.must_ricochet),
            no_single_move: raw.rules.no_single_move.unwrap_or(defaults.no_single_move),
        },
    };
    Position::validate(board, &draft).map_err(|e| err(position_key(&e), e.to_string()))
}

// ------------------------------------------------------------------------ random positions

/// A number in `0..n` (`n` at most `u32::MAX`), drawn as the generator has always drawn it.
fn below(rng: &mut rand_chacha::ChaCha8Rng, n: usize) -> usize {
    use rand::RngExt;
    let n = u32::try_from(n).expect("a count of boards, cells or targets fits 32 bits");
    usize::try_from(rng.random_range(0..n)).expect("a u32 fits a usize")
}

/// A random position on a random original board (seeded): `robots` robots (4, or 5 with the
/// silver one) on free cells, a random target of the board.
pub struct Random {
    pub quarters: [String; 4],
    pub robots: Vec<(Colour, (u16, u16))>,
    /// The target's colour (`None`: the vortex), symbol and cell.
    pub target: (Option<Colour>, String, (u16, u16)),
}

/// Draws the random position of `seed`.
pub fn random(seed: u64, robots: usize) -> Random {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let boards = quarters::original_arrangements();
    let names = boards[below(&mut rng, boards.len())].clone();
    let b = quarters::from_quadrants(&names).expect("the original boards build");
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
        let cell = b
            .draw_free_cell(&mut rng, |c| {
                !b.blocked[usize::from(c)]
                    && !taken.contains(&c)
                    && !b.targets.iter().any(|t| t.cell == c)
            })
            .expect("an original board has free cells for five robots");
        taken.push(cell);
        placed.push((*colour, b.xy(cell)));
    }
    let target = &b.targets[below(&mut rng, b.targets.len())];
    Random {
        quarters: names,
        robots: placed,
        target: (target.colour, target.symbol.clone(), b.xy(target.cell)),
    }
}

/// The random position of `seed` as a position file.
pub fn random_yaml(seed: u64, robots: usize) -> String {
    let r = random(seed, robots);
    let placed: Vec<String> = r
        .robots
        .iter()
        .map(|(c, (x, y))| format!("{}: [{x}, {y}]", c.name()))
        .collect();
    let colour = r.target.0.map_or("any", Colour::name);
    format!(
        "# A random position (robots ricochet random --seed {seed} --robots {robots}).\nboard: {{quadrants: [{}]}}\nrobots: {{{}}}\ntarget: {{color: {colour}, symbol: {}}}\n",
        r.quarters.join(", "),
        placed.join(", "),
        r.target.1
    )
}

/// The random position of `seed` as a game id ([`game_id`]).
pub fn random_id(seed: u64, robots: usize) -> game_id::GameId {
    let r = random(seed, robots);
    let cell = |(x, y): (u16, u16)| u8::try_from(y * 16 + x).expect("a cell of a 16×16 board");
    let index = |name: &String| {
        let i = game_id::QUARTERS.iter().position(|q| q == name);
        u8::try_from(i.expect("an original quarter")).expect("16 quarters")
    };
    game_id::GameId {
        quarters: [0, 1, 2, 3].map(|i| index(&r.quarters[i])),
        active: r.target.0,
        robots: r.robots.iter().map(|&(_, at)| cell(at)).collect(),
        target: cell(r.target.2),
    }
}
