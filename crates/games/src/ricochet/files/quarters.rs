//! The published quarter boards (`boards/ricochet/quadrants.yaml`, each quarter read on its
//! first use in a process) and the 16×16 boards built from four of them, among them the 96
//! boards of the 1999 game.

use crate::ricochet::board::{Board, Colour, Diagonal, Dir, Target, target_colour};
use crate::text::diagnostic::Diagnostic;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The published quarter boards, from `boards/ricochet/quadrants.yaml`.
pub const QUADRANTS: &str = include_str!("../../../../../boards/ricochet/quadrants.yaml");

/// Why a board of quarters could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum QuarterError {
    /// The quarter boards file itself is broken (it is built in, so this is a bug).
    #[error("the quarter boards file: {0}")]
    File(String),
    #[error("unknown quarter board `{0}`: expected 1A…4D (piece 1–4, side A–D)")]
    Unknown(String),
}

#[derive(Deserialize, Debug, Default, PartialEq)]
struct QuadrantFile {
    walls: Vec<(u16, u16, String)>,
    targets: Vec<(u16, u16, String, String)>,
    #[serde(default)]
    diagonals: Vec<(u16, u16, String, String)>,
}

/// One quarter, checked: cells of the 8×8 quarter in its own orientation (the centre at 7, 7).
#[derive(Debug, PartialEq)]
struct Quarter {
    walls: Vec<(u16, u16, Vec<Dir>)>,
    targets: Vec<(u16, u16, Option<Colour>, String)>,
    /// Cell, leaning `\` (else `/`), colour.
    diagonals: Vec<(u16, u16, bool, Colour)>,
}

/// Reads and checks a quarter-boards file: names `1A`…`4D`, wall sides, target and diagonal
/// colours, cells inside the quarter.
fn parse_quarters(file: &str, source: &str) -> Result<BTreeMap<String, Quarter>, Diagnostic> {
    let all: BTreeMap<String, QuadrantFile> = match plain(source) {
        Some(all) => all,
        None => crate::text::yaml::from_str(file, source)?,
    };
    let mut out = BTreeMap::new();
    for (name, q) in all {
        let err = |m: String| {
            let at = crate::text::yaml::locate_key(source, &name, 1).unwrap_or((1, 1));
            Diagnostic::at(file, source, at.0, at.1, format!("{name}: {m}"))
        };
        let mut chars = name.chars();
        let named = matches!(
            (chars.next(), chars.next(), chars.next()),
            (Some('1'..='4'), Some('A'..='D'), None)
        );
        if !named {
            return Err(err(
                "a quarter is named by its piece 1–4 and side A–D, such as 2B".into(),
            ));
        }
        let inside = |x: u16, y: u16| x < 8 && y < 8;
        let mut quarter = Quarter {
            walls: Vec::new(),
            targets: Vec::new(),
            diagonals: Vec::new(),
        };
        for (x, y, sides) in q.walls {
            let dirs: Option<Vec<Dir>> = sides.chars().map(Dir::parse).collect();
            match dirs {
                Some(dirs) if inside(x, y) && !dirs.is_empty() => quarter.walls.push((x, y, dirs)),
                _ => {
                    return Err(err(format!(
                        "wall [{x}, {y}, {sides}]: a cell of the 8×8 quarter and sides among N, E, S, W"
                    )));
                }
            }
        }
        for (x, y, colour, symbol) in q.targets {
            if !inside(x, y) {
                return Err(err(format!("target at [{x}, {y}] is outside the quarter")));
            }
            let colour = target_colour(&colour)
                .ok_or_else(|| err(format!("unknown target colour `{colour}`")))?;
            quarter.targets.push((x, y, colour, symbol));
        }
        for (x, y, lean, colour) in q.diagonals {
            match Colour::parse(&colour) {
                Some(c) if inside(x, y) && (lean == "/" || lean == "\\") => {
                    quarter.diagonals.push((x, y, lean == "\\", c));
                }
                _ => {
                    return Err(err(format!(
                        "diagonal [{x}, {y}, {lean}, {colour}]: a cell of the quarter, a lean / or \\, a robot colour"
                    )));
                }
            }
        }
        out.insert(name, quarter);
    }
    Ok(out)
}

/// A quarter-boards file in the plain shape of the built-in one (`NAME:` lines, `walls:` on one
/// line, `targets:` and `diagonals:` one item a line, plain or single-quoted words), read
/// without the YAML parser: what `serde_yaml` reads from it, in a tenth of the time (the
/// start of every process that builds a board). `None` for anything else, which the YAML
/// parser reads (and whose errors it locates).
fn plain(source: &str) -> Option<BTreeMap<String, QuadrantFile>> {
    let mut all: BTreeMap<String, QuadrantFile> = BTreeMap::new();
    let mut here: Option<(String, QuadrantFile)> = None;
    // Which list `    - [...]` items go to: 0 targets, 1 diagonals.
    let mut list: Option<u8> = None;
    let mut keys = [false; 3];
    for line in source.lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(name) = line.strip_suffix(':').filter(|n| word(n)) {
            if let Some((n, q)) = here.take() {
                all.insert(n, q).is_none().then_some(())?;
                (keys[0] && keys[1]).then_some(())?;
            }
            here = Some((name.to_string(), QuadrantFile::default()));
            (list, keys) = (None, [false; 3]);
            continue;
        }
        let q = &mut here.as_mut()?.1;
        if let Some(walls) = line
            .strip_prefix("  walls: [")
            .and_then(|w| w.strip_suffix(']'))
        {
            if std::mem::replace(&mut keys[0], true) {
                return None;
            }
            for item in walls.split("], ").map(|i| i.trim_end_matches(']')) {
                let [x, y, sides] = items(item.strip_prefix('[')?)?;
                q.walls.push((x.parse().ok()?, y.parse().ok()?, sides));
            }
            list = None;
        } else if let Some(key) = ["  targets:", "  diagonals:"]
            .iter()
            .position(|k| line == *k)
        {
            if std::mem::replace(&mut keys[key + 1], true) {
                return None;
            }
            list = Some(u8::try_from(key).ok()?);
        } else {
            let item = line.strip_prefix("    - [")?.strip_suffix(']')?;
            let [x, y, a, b] = items(item)?;
            let entry = (x.parse().ok()?, y.parse().ok()?, a, b);
            match list? {
                0 => q.targets.push(entry),
                _ => q.diagonals.push(entry),
            }
        }
    }
    let (n, q) = here?;
    (keys[0] && keys[1] && all.insert(n, q).is_none()).then_some(all)
}

/// Letters, digits and `_`, at least one: a plain YAML word of the quarter-boards file.
fn word(w: &str) -> bool {
    !w.is_empty() && w.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// `N` comma-separated words, each plain ([`word`]) or a single-quoted `/` or `\`.
fn items<const N: usize>(list: &str) -> Option<[String; N]> {
    let parts: Vec<&str> = list.split(", ").collect();
    let parts: [&str; N] = parts.try_into().ok()?;
    let mut out = parts.map(str::to_string);
    for w in &mut out {
        if w == "'/'" || w == "'\\'" {
            *w = w[1..2].to_string();
        } else if !word(w) {
            return None;
        }
    }
    Some(out)
}

/// Checks a quarter-boards file (see [`QUADRANTS`]). Returns how many quarters it holds.
pub fn check_quadrants(file: &str, source: &str) -> Result<usize, Diagnostic> {
    parse_quarters(file, source).map(|all| all.len())
}

/// A built-in quarter by its name (`1A`…`4D`, either case), read on its first use: only the
/// lines of that quarter, so that a board of four reads four of the sixteen (issue 37, the
/// start of `ricochet solve --id`).
fn quadrant(name: &str) -> Result<&'static Quarter, QuarterError> {
    static EACH: [OnceLock<Result<Quarter, Diagnostic>>; 16] = [const { OnceLock::new() }; 16];
    let unknown = || QuarterError::Unknown(name.to_string());
    let [piece @ b'1'..=b'4', side] = name.as_bytes() else {
        return Err(unknown());
    };
    let side = side.to_ascii_uppercase();
    if !(b'A'..=b'D').contains(&side) {
        return Err(unknown());
    }
    let index = usize::from(side - b'A') * 4 + usize::from(piece - b'1');
    let name = format!("{}{}", char::from(*piece), char::from(side));
    EACH[index]
        .get_or_init(|| built_in(&name))
        .as_ref()
        .map_err(|d| QuarterError::File(d.message.clone()))
}

/// The quarter `name` of [`QUADRANTS`], read from its own lines (from `NAME:` to the next
/// quarter's name) as [`parse_quarters`] reads the whole file.
fn built_in(name: &str) -> Result<Quarter, Diagnostic> {
    const FILE: &str = "boards/ricochet/quadrants.yaml";
    let missing = || Diagnostic::at(FILE, QUADRANTS, 1, 1, format!("no quarter {name}"));
    let at = QUADRANTS
        .find(&format!("\n{name}:\n"))
        .ok_or_else(missing)?
        + 1;
    let body = at + name.len() + 2;
    let end = QUADRANTS[body..]
        .match_indices('\n')
        .map(|(i, _)| body + i + 1)
        .find(|&i| QUADRANTS[i..].starts_with(|c: char| !matches!(c, ' ' | '#' | '\n')))
        .unwrap_or(QUADRANTS.len());
    parse_quarters(FILE, &QUADRANTS[at..end])?
        .remove(name)
        .ok_or_else(missing)
}

/// A 16×16 board of four quarter boards at NW, NE, SE, SW (each turned 0, 1, 2, 3 quarter
/// turns clockwise), such as `["4B", "3B", "2B", "1A"]`.
pub fn from_quadrants(names: &[String; 4]) -> Result<Board, QuarterError> {
    let mut b = Board::empty(&names.join(" "), 16, 16);
    for (position, name) in names.iter().enumerate() {
        let q = quadrant(name)?;
        // Turned `position` times clockwise on the 16×16 board: (x, y) → (15 − y, x).
        let place = |x: u16, y: u16| {
            let (mut x, mut y) = (x, y);
            for _ in 0..position {
                (x, y) = (15 - y, x);
            }
            (x, y)
        };
        let turn = |mut d: Dir| {
            for _ in 0..position {
                d = d.turned();
            }
            d
        };
        for (x, y, sides) in &q.walls {
            let (px, py) = place(*x, *y);
            let cell = b.cell(px, py);
            for &d in sides {
                b.add_wall(cell, turn(d));
            }
        }
        for (x, y, colour, symbol) in &q.targets {
            let (px, py) = place(*x, *y);
            let cell = b.cell(px, py);
            b.targets.push(Target {
                cell,
                colour: *colour,
                symbol: symbol.clone(),
            });
        }
        for &(x, y, backslash, colour) in &q.diagonals {
            let (px, py) = place(x, y);
            let cell = b.cell(px, py);
            // A quarter turn swaps the two leans.
            let backslash = backslash != (position % 2 == 1);
            b.diagonals[usize::from(cell)] = Some(Diagonal { backslash, colour });
        }
        let (cx, cy) = place(7, 7);
        let centre = b.cell(cx, cy);
        b.block(centre);
    }
    Ok(b)
}

/// The 96 boards of the 1999 game: sides A and B, each piece at one position, whole-board
/// rotations counted once (piece 1 stays at NW).
pub fn original_arrangements() -> Vec<[String; 4]> {
    let mut out = Vec::new();
    let orders = [
        [2, 3, 4],
        [2, 4, 3],
        [3, 2, 4],
        [3, 4, 2],
        [4, 2, 3],
        [4, 3, 2],
    ];
    for order in orders {
        for sides in 0..16u8 {
            let side = |i: usize| if sides >> i & 1 == 0 { 'A' } else { 'B' };
            let pieces = [1, order[0], order[1], order[2]];
            out.push(std::array::from_fn(|p| format!("{}{}", pieces[p], side(p))));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_quarters_are_read_once_and_all_sixteen_are_there() {
        let all = parse_quarters("q", QUADRANTS).expect("the built-in file reads");
        assert_eq!(all.len(), 16);
        for (name, whole) in &all {
            let first = quadrant(name).expect("each quarter reads alone");
            assert_eq!(first, whole, "{name} alone is {name} in the whole file");
            let again = quadrant(&name.to_lowercase()).expect("in either case");
            assert!(std::ptr::eq(first, again), "parsed once per process");
        }
        for name in ["5A", "1E", "1", "1AA", "", "é"] {
            assert_eq!(quadrant(name), Err(QuarterError::Unknown(name.into())));
        }
        let yaml: BTreeMap<String, QuadrantFile> =
            crate::text::yaml::from_str("q", QUADRANTS).expect("reads");
        assert_eq!(
            plain(QUADRANTS),
            Some(yaml),
            "the plain reading is the YAML one"
        );
        for other in [
            "1A:\n  walls: [[1, 0, \"E\"]]\n  targets:\n",
            "1A:\n  targets:\n",
        ] {
            assert_eq!(plain(other), None, "{other}");
        }
        assert_eq!(
            from_quadrants(&["1A".into(), "2A".into(), "3A".into(), "5A".into()])
                .map(|b| b.name)
                .map_err(|e| e.to_string()),
            Err("unknown quarter board `5A`: expected 1A…4D (piece 1–4, side A–D)".into())
        );
    }
}
