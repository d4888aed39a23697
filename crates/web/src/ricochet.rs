//! Ricochet Robots and Ricochets in the page (web/play/ENGINE.md, "Ricochet"): a position
//! from a game id, a seed (`ricochet random --seed N --id`), a position file or a Ricochets
//! board file; solved, hinted, listed and checked by the games crate's own solver and checker,
//! as `robots ricochet solve|hint|check` do. Every request names its position again (a game id
//! is 19 characters): the methods hold no state.

use crate::answer::{ErrorKind, Failure, json};
use crate::settings::Files;
use robots_games::ricochet::analysis::all::{self, AllError};
use robots_games::ricochet::board::{Colour, Dir};
use robots_games::ricochet::draw::svg;
use robots_games::ricochet::files::{self, game_id::GameId};
use robots_games::ricochet::position::{Move, Position, PositionDraft, TargetDraft};
use robots_games::ricochet::report::{AllJson, CheckJson, MoveJson, PositionJson, SolutionJson};
use robots_games::ricochet::rules::Rules;
use robots_games::ricochet::solve::{self, Budget, NoSolution, Solution};
use robots_games::text::{MAX_INPUT_BYTES, escape};
use serde::{Deserialize, Serialize};

/// The most moves a search looks for (`--max-moves`' default).
pub const MAX_MOVES: u32 = 40;

/// The most states a search may hold in the page on a standard board (16 x 16, its centre,
/// up to 5 robots): the command line's default budget, 84 MiB for the hardest positions.
pub const MAX_STATES: u64 = Budget::DEFAULT_STATES;

/// The most states the page's general search holds (any other board: up to 64 x 64 Ricochets
/// boards, about 130 bytes a state): about 65 MiB and seconds, where the command line's
/// budget would take about 1 GiB and minutes. Past it the search stops and says so.
pub const MAX_GENERAL_STATES: u64 = 500_000;

/// The most states the page searches for `p`: [`MAX_STATES`] on a board of the standard
/// search, [`MAX_GENERAL_STATES`] else.
pub fn max_states(p: &Position) -> u64 {
    if solve::standard::applies(p) {
        MAX_STATES
    } else {
        MAX_GENERAL_STATES
    }
}

/// The most positions one `ricochetSolveMany` call solves.
pub const MAX_BATCH: usize = 5_000;

/// The most solutions `ricochetAll` lists.
pub const MAX_LISTED: usize = 1_000;

/// Where a position comes from, and the rule options over it.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Spec {
    /// A game id, such as `0765+42+2E21BD0F+93`.
    id: Option<String>,
    /// `ricochet random --seed N --id`'s position (`robots`: 4, or 5 with the silver robot).
    seed: Option<u64>,
    robots: Option<u8>,
    /// A position file's text (docs/FORMATS.md), the boards it names in `files`.
    position: Option<String>,
    #[serde(default)]
    files: Files,
    /// A Ricochets board file's text: the robots on their bases, the target the board's
    /// `target`-th (from 0).
    board: Option<String>,
    target: Option<usize>,
    /// R-B1 (default on for ids and seeds, the file's own for files).
    must_ricochet: Option<bool>,
    /// R-B2.
    no_single_move: Option<bool>,
}

fn bad_request(message: impl Into<String>) -> Failure {
    Failure::new(ErrorKind::Request, message)
}

fn setup(message: impl std::fmt::Display) -> Failure {
    Failure::new(ErrorKind::Setup, message.to_string())
}

impl Spec {
    /// The rules asked for over `base`.
    fn rules(&self, base: Rules) -> Rules {
        Rules {
            must_ricochet: self.must_ricochet.unwrap_or(base.must_ricochet),
            no_single_move: self.no_single_move.unwrap_or(base.no_single_move),
        }
    }

    /// The position, checked as the command line checks it.
    pub fn position(&self) -> Result<Position, Failure> {
        let given = [
            self.id.is_some(),
            self.seed.is_some(),
            self.position.is_some(),
            self.board.is_some(),
        ];
        if given.iter().filter(|g| **g).count() != 1 {
            return Err(bad_request(
                "give one of id, seed, position (a position file's text) or board (a board file's text)",
            ));
        }
        self.files.check()?;
        if let Some(id) = &self.id {
            let id: GameId = id
                .parse()
                .map_err(|e| bad_request(format!("id `{}`: {e}", escape(id))))?;
            return id
                .position(self.rules(Rules::default()))
                .map_err(|e| setup(format!("id: {e}")));
        }
        if let Some(seed) = self.seed {
            let robots = match self.robots.unwrap_or(4) {
                4 => 4,
                5 => 5,
                n => return Err(bad_request(format!("robots: 4 or 5, not {n}"))),
            };
            let id = files::random_id(seed, robots);
            return id
                .position(self.rules(Rules::default()))
                .map_err(|e| setup(format!("seed {seed}: {e}")));
        }
        if let Some(text) = &self.position {
            return self.position_file(text);
        }
        self.board_position(self.board.as_deref().unwrap_or_default())
    }

    /// A position file, the boards it names read from `files`.
    fn position_file(&self, text: &str) -> Result<Position, Failure> {
        if text.len() > MAX_INPUT_BYTES {
            return Err(robots_games::text::diagnostic::too_large("position.yaml").into());
        }
        let read = |name: &str| {
            self.files
                .get(name)
                .map(str::to_string)
                .ok_or_else(|| format!("{}: no such file in the request", escape(name)))
        };
        let mut p = files::parse("position.yaml", text, &read)?;
        p.rules = self.rules(p.rules);
        Ok(p)
    }

    /// A Ricochets board: the robots on their bases, one of its targets.
    fn board_position(&self, text: &str) -> Result<Position, Failure> {
        if text.len() > MAX_INPUT_BYTES {
            return Err(robots_games::text::diagnostic::too_large("board.yaml").into());
        }
        let board = files::parse_custom("board.yaml", text)?;
        let index = self.target.unwrap_or(0);
        let t = board.targets.get(index).ok_or_else(|| {
            bad_request(format!(
                "target: the board has {} targets, numbered from 0",
                board.targets.len()
            ))
        })?;
        let draft = PositionDraft {
            robots: board
                .bases
                .iter()
                .map(|&(c, cell)| (c.name().to_string(), board.xy(cell)))
                .collect(),
            target: TargetDraft {
                at: Some(board.xy(t.cell)),
                robot: Some(t.colour.map_or("any", Colour::name).to_string()),
                ..TargetDraft::default()
            },
            rules: self.rules(Rules {
                must_ricochet: false,
                no_single_move: true,
            }),
        };
        Position::validate(board, &draft).map_err(setup)
    }
}

/// A request of one position and its search's limits.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Search {
    spec: Spec,
    max_moves: Option<u32>,
    max_states: Option<u64>,
    level: Option<u8>,
    limit: Option<usize>,
}

impl Search {
    /// The limits asked, checked before the search; the states within the page's most for
    /// the position ([`max_states`]).
    fn limits(&self, p: &Position) -> Result<(u32, Budget), Failure> {
        let most = max_states(p);
        let max_moves = self.max_moves.unwrap_or(MAX_MOVES);
        let max_states = self.max_states.unwrap_or(most);
        if !(1..=MAX_MOVES).contains(&max_moves) {
            return Err(Failure::new(
                ErrorKind::Limit,
                format!("maxMoves: 1 to {MAX_MOVES}"),
            ));
        }
        if !(1..=most).contains(&max_states) {
            return Err(Failure::new(
                ErrorKind::Limit,
                format!("maxStates: 1 to {most} on this board"),
            ));
        }
        Ok((max_moves, Budget { max_states }))
    }
}

/// The solver's answer, its failures said as `ricochet solve` says them.
fn optimal(p: &Position, max_moves: u32, budget: Budget) -> Result<Solution, Failure> {
    solve::solve_within(p, max_moves, budget, &mut |_| {}).map_err(|e| match e {
        NoSolution::Limit(_) => Failure::new(
            ErrorKind::Unsolved,
            format!("no solution within {max_moves} moves"),
        ),
        NoSolution::Budget(n) if budget.max_states == MAX_GENERAL_STATES => Failure::new(
            ErrorKind::Unsolved,
            format!(
                "gave up after {n} states, the most the page searches on a board other than the standard 16 x 16 (`robots ricochet solve` searches up to {MAX_STATES})"
            ),
        ),
        NoSolution::Budget(n) => Failure::new(
            ErrorKind::Unsolved,
            format!(
                "gave up after {n} states: raise maxStates (now {})",
                budget.max_states
            ),
        ),
        NoSolution::Malformed => setup(e),
    })
}

#[derive(Serialize)]
struct TargetJson {
    at: (u16, u16),
    colour: &'static str,
    symbol: String,
}

/// A position to draw: `ricochet board --json`'s document, the board's printed targets, its
/// game id when it has one, and the rules.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Drawn {
    id: Option<String>,
    position: PositionJson,
    targets: Vec<TargetJson>,
    no_single_move: bool,
    /// `ricochet board --svg`'s picture of the board alone (no robots): the page puts its
    /// robots on it, a cell being the picture's width / (board width + 2).
    svg: String,
    /// Each robot's colour on the picture.
    colours: std::collections::BTreeMap<&'static str, &'static str>,
}

impl Drawn {
    pub fn of(p: &Position) -> Drawn {
        let b = &p.board;
        Drawn {
            svg: svg::board(b, &[]),
            colours: Colour::ALL
                .iter()
                .map(|&c| (c.name(), svg::colour(c)))
                .collect(),
            id: GameId::of(p).map(|g| g.to_string()),
            position: PositionJson::from(p),
            targets: b
                .targets
                .iter()
                .map(|t| TargetJson {
                    at: b.xy(t.cell),
                    colour: t.colour.map_or("any", Colour::name),
                    symbol: t.symbol.clone(),
                })
                .collect(),
            no_single_move: p.rules.no_single_move,
        }
    }
}

/// The position, to draw ([`Drawn`]).
pub fn position(request: &str) -> Result<String, Failure> {
    let spec: Spec = serde_json::from_str(request)?;
    json(&Drawn::of(&spec.position()?))
}

/// `ricochet solve --json`: the fewest moves and a solution.
pub fn solve(request: &str) -> Result<String, Failure> {
    let r: Search = serde_json::from_str(request)?;
    let p = r.spec.position()?;
    let (max_moves, budget) = r.limits(&p)?;
    json(&SolutionJson::from(&optimal(&p, max_moves, budget)?))
}

/// `ricochet solve --all --json`: every optimal solution, the first `limit` listed, each
/// checked by replaying it.
pub fn all_optimal(request: &str) -> Result<String, Failure> {
    let r: Search = serde_json::from_str(request)?;
    let p = r.spec.position()?;
    let (max_moves, budget) = r.limits(&p)?;
    let limit = r.limit.unwrap_or(100);
    if limit > MAX_LISTED {
        return Err(Failure::new(
            ErrorKind::Limit,
            format!("limit: at most {MAX_LISTED} solutions listed"),
        ));
    }
    let best = optimal(&p, max_moves, budget)?;
    let found = all::optimal(&p, best.moves, limit, budget).map_err(all_failure)?;
    if let Some(s) = found
        .solutions
        .iter()
        .find(|s| solve::check(&p, s) != Ok(found.moves))
    {
        let words: Vec<String> = s.iter().map(ToString::to_string).collect();
        return Err(setup(format!(
            "internal error: the listed solution {} does not check",
            words.join(", ")
        )));
    }
    json(&AllJson::from(&found))
}

fn all_failure(e: AllError) -> Failure {
    match e {
        AllError::Budget(n) => Failure::new(
            ErrorKind::Unsolved,
            format!("gave up listing the optimal solutions after {n} states: raise maxStates"),
        ),
        AllError::TooMany => Failure::new(ErrorKind::Unsolved, e.to_string()),
        AllError::Malformed => setup(e),
    }
}

/// "red", "red and blue", "red, green and blue".
fn and_list(list: &[Colour]) -> String {
    let mut text = String::new();
    for (i, c) in list.iter().enumerate() {
        let sep = match i {
            0 => "",
            _ if i + 1 == list.len() => " and ",
            _ => ", ",
        };
        text.push_str(sep);
        text.push_str(c.name());
    }
    text
}

/// `ricochet hint --level 1|2|3`: the lines it prints, and what they say as data.
pub fn hint(request: &str) -> Result<String, Failure> {
    let r: Search = serde_json::from_str(request)?;
    let p = r.spec.position()?;
    let (max_moves, budget) = r.limits(&p)?;
    let level = r.level.unwrap_or(1).clamp(1, 3);
    let best = optimal(&p, max_moves, budget)?;
    #[derive(Serialize)]
    struct Hint {
        level: u8,
        lines: Vec<String>,
        moves: Option<u32>,
        every: Option<Vec<&'static str>>,
        some: Option<Vec<&'static str>>,
        first: Option<MoveJson>,
    }
    let mut h = Hint {
        level,
        lines: Vec::new(),
        moves: None,
        every: None,
        some: None,
        first: None,
    };
    match level {
        1 => {
            h.lines.push(format!("fewest moves: {}", best.moves));
            h.moves = Some(best.moves);
        }
        2 => movers_lines(&p, &best, budget, &mut h.lines, &mut |every, some| {
            h.every = Some(every.iter().map(|c| c.name()).collect());
            h.some = Some(some.iter().map(|c| c.name()).collect());
        })?,
        _ => {
            let first = best.solution.first();
            let words = first.map(ToString::to_string).unwrap_or_default();
            h.lines
                .push(format!("first move of an optimal solution: {words}"));
            h.first = first.map(MoveJson::from);
        }
    }
    json(&h)
}

/// Level 2's lines: which robots every optimal solution moves and which some do; with too
/// many states for that, the robots one optimal solution moves.
fn movers_lines(
    p: &Position,
    best: &Solution,
    budget: Budget,
    lines: &mut Vec<String>,
    found: &mut dyn FnMut(&[Colour], &[Colour]),
) -> Result<(), Failure> {
    match all::movers(p, best.moves, budget) {
        Ok(m) => {
            let also: Vec<Colour> = m
                .some
                .iter()
                .copied()
                .filter(|c| !m.every.contains(c))
                .collect();
            found(&m.every, &m.some);
            lines.push(if m.every.is_empty() {
                "no robot moves in every optimal solution".to_string()
            } else {
                format!("every optimal solution moves {}", and_list(&m.every))
            });
            lines.push(match (m.every.is_empty(), also.is_empty()) {
                (_, true) => "no optimal solution moves another robot".to_string(),
                (true, false) => format!("some optimal solutions move {}", and_list(&also)),
                (false, false) => format!("some optimal solutions also move {}", and_list(&also)),
            });
        }
        Err(AllError::Budget(_)) => {
            let mut moved: Vec<Colour> = best.solution.iter().map(|m| m.robot).collect();
            moved.sort_unstable();
            moved.dedup();
            found(&[], &moved);
            lines.push(format!("an optimal solution moves {}", and_list(&moved)));
            lines.push("(too many states to say which robots every optimal solution moves: raise --max-states)".to_string());
        }
        Err(e) => return Err(all_failure(e)),
    }
    Ok(())
}

/// Moves as the page sends them: `{robot, dir}` (and `to` for the transparent robot).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveIn {
    robot: String,
    dir: String,
    to: Option<(u16, u16)>,
}

impl MoveIn {
    pub fn read(&self) -> Result<Move, Failure> {
        let robot = Colour::parse(&self.robot).ok_or_else(|| {
            bad_request(format!("robot `{}`: no such colour", escape(&self.robot)))
        })?;
        let mut letters = self.dir.chars();
        let dir = match (letters.next().and_then(Dir::parse), letters.next()) {
            (Some(d), None) => d,
            _ => {
                return Err(bad_request(format!(
                    "dir `{}`: N, E, S or W",
                    escape(&self.dir)
                )));
            }
        };
        Ok(Move {
            robot,
            dir,
            to: self.to,
        })
    }
}

/// The most moves one replay takes.
pub const MAX_REPLAY: usize = 10_000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Replay {
    spec: Spec,
    moves: Vec<MoveIn>,
}

/// The moves played one by one from the position: where each robot stops and what it counts;
/// a move that cannot be played is refused with its number. Then `ricochet check --json` on
/// the whole list: whether it is a solution, of how many moves.
pub fn replay(request: &str) -> Result<String, Failure> {
    let r: Replay = serde_json::from_str(request)?;
    if r.moves.len() > MAX_REPLAY {
        return Err(Failure::new(
            ErrorKind::Limit,
            format!("moves: at most {MAX_REPLAY}"),
        ));
    }
    let p = r.spec.position()?;
    let moves = r
        .moves
        .iter()
        .map(MoveIn::read)
        .collect::<Result<Vec<_>, _>>()?;
    #[derive(Serialize)]
    struct Step {
        robot: &'static str,
        dir: char,
        from: (u16, u16),
        to: (u16, u16),
        counts: u32,
    }
    let mut now = p.clone();
    let mut steps = Vec::new();
    for (i, m) in moves.iter().enumerate() {
        let from = now.robot_cell(m.robot).map(|c| p.board.xy(c));
        let (to, counts) = now
            .play(*m)
            .map_err(|why| setup(format!("move {} ({m}): {why}", i + 1)))?;
        steps.push(Step {
            robot: m.robot.name(),
            dir: m.dir.letter(),
            from: from.unwrap_or_default(),
            to: p.board.xy(to),
            counts,
        });
    }
    let check = match solve::check(&p, &moves) {
        Ok(n) => CheckJson::valid(n),
        Err(why) => CheckJson::not_valid(why.to_string()),
    };
    #[derive(Serialize)]
    struct Replayed {
        steps: Vec<Step>,
        check: CheckJson,
    }
    json(&Replayed { steps, check })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Many {
    ids: Vec<String>,
    must_ricochet: Option<bool>,
    max_moves: Option<u32>,
}

/// Game ids solved in one call, as `ricochet bench --ids FILE --json` solves them (up to 40
/// moves, the default budget): each one's fewest moves, or null.
pub fn solve_many(request: &str) -> Result<String, Failure> {
    let r: Many = serde_json::from_str(request)?;
    if r.ids.len() > MAX_BATCH {
        return Err(Failure::new(
            ErrorKind::Limit,
            format!("ids: at most {MAX_BATCH} a call"),
        ));
    }
    let max_moves = r.max_moves.unwrap_or(MAX_MOVES).min(MAX_MOVES);
    let mut moves = Vec::with_capacity(r.ids.len());
    for id in &r.ids {
        let spec = Spec {
            id: Some(id.clone()),
            must_ricochet: r.must_ricochet,
            ..Spec::default()
        };
        let p = spec.position()?;
        moves.push(solve::solve(&p, max_moves).ok().map(|s| s.moves));
    }
    json(&moves)
}
