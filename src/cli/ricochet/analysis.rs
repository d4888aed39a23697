//! `ricochet hint`, `ricochet solve --all` and `ricochet hardest`: what a position's optimal
//! solutions have in common, all of them, and a board's hardest start positions.

use super::position::ricochet_position;
use crate::cli::io::output::Failure;
use robots_games::ricochet::analysis::all::{self, AllError};
use robots_games::ricochet::position::{Goal, Move, Position};
use robots_games::ricochet::report::AllJson;
use robots_games::ricochet::solve::{self, Budget, NoSolution, Solution};
use std::path::Path;

/// The optimal solution `solve` finds, its failures said as `ricochet solve` says them.
fn optimal(p: &Position, max_moves: u32, max_states: u64) -> Result<Solution, Failure> {
    let budget = Budget { max_states };
    solve::solve_within(p, max_moves, budget, &mut |_| {}).map_err(|e| match e {
        NoSolution::Limit(_) => Failure::NoAnswer(format!("no solution within {max_moves} moves")),
        NoSolution::Budget(n) => Failure::NoAnswer(format!(
            "gave up after {n} states: raise --max-states (now {max_states})"
        )),
        NoSolution::Malformed => Failure::Bad(e.to_string()),
    })
}

fn all_failure(e: AllError, max_states: u64) -> Failure {
    match e {
        AllError::Budget(n) => Failure::NoAnswer(format!(
            "gave up listing the optimal solutions after {n} states: raise --max-states (now {max_states})"
        )),
        AllError::TooMany => Failure::NoAnswer(e.to_string()),
        AllError::Malformed => Failure::Bad(e.to_string()),
    }
}

/// "red", "red and blue", "red, green and blue".
fn colours(list: &[robots_games::ricochet::board::Colour]) -> String {
    let names: Vec<&str> = list.iter().map(|c| c.name()).collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

fn moves_text(moves: &[Move]) -> String {
    let words: Vec<String> = moves.iter().map(ToString::to_string).collect();
    words.join(", ")
}

/// `ricochet hint --level 1|2|3`: each level says what it is asked and no more.
pub fn hint(position: &Path, level: u8, max_moves: u32, max_states: u64) -> Result<(), Failure> {
    let p = ricochet_position(position)?;
    let best = optimal(&p, max_moves, max_states)?;
    match level {
        1 => outln!("fewest moves: {}", best.moves),
        2 => {
            let budget = Budget { max_states };
            match all::movers(&p, best.moves, budget) {
                Ok(m) => {
                    let also: Vec<_> = m
                        .some
                        .into_iter()
                        .filter(|c| !m.every.contains(c))
                        .collect();
                    if m.every.is_empty() {
                        outln!("no robot moves in every optimal solution");
                    } else {
                        outln!("every optimal solution moves {}", colours(&m.every));
                    }
                    match (m.every.is_empty(), also.is_empty()) {
                        (_, true) => outln!("no optimal solution moves another robot"),
                        (true, false) => outln!("some optimal solutions move {}", colours(&also)),
                        (false, false) => {
                            outln!("some optimal solutions also move {}", colours(&also));
                        }
                    }
                }
                Err(AllError::Budget(_)) => {
                    let mut moved: Vec<_> = best.solution.iter().map(|m| m.robot).collect();
                    moved.sort_unstable();
                    moved.dedup();
                    outln!("an optimal solution moves {}", colours(&moved));
                    outln!(
                        "(too many states to say which robots every optimal solution moves: raise --max-states)"
                    );
                }
                Err(e) => return Err(all_failure(e, max_states)),
            }
        }
        _ => {
            let first = best
                .solution
                .first()
                .map(ToString::to_string)
                .unwrap_or_default();
            outln!("first move of an optimal solution: {first}");
        }
    }
    Ok(())
}

/// `ricochet solve --all`: the optimal length from the solver, then every distinct optimal
/// solution, each checked by replaying it, at most `limit` listed.
pub fn all(
    p: &Position,
    json: bool,
    max_moves: u32,
    max_states: u64,
    limit: u64,
) -> Result<(), Failure> {
    let best = optimal(p, max_moves, max_states)?;
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    let found = all::optimal(p, best.moves, limit, Budget { max_states })
        .map_err(|e| all_failure(e, max_states))?;
    for s in &found.solutions {
        if solve::check(p, s) != Ok(found.moves) {
            return Err(Failure::Bad(format!(
                "internal error: the listed solution {} does not check",
                moves_text(s)
            )));
        }
    }
    if json {
        let doc = AllJson::from(&found);
        outln!("{}", serde_json::to_string(&doc).unwrap_or_default());
        return Ok(());
    }
    let word = if found.moves == 1 { "move" } else { "moves" };
    let listed = found.solutions.len();
    let solutions = if found.count == 1 {
        "solution"
    } else {
        "solutions"
    };
    if u128::try_from(listed).is_ok_and(|l| l == found.count) {
        outln!(
            "{} optimal {solutions} of {} {word}:",
            found.count,
            found.moves
        );
    } else {
        outln!(
            "{} optimal {solutions} of {} {word}; the first {listed} (--limit {limit}):",
            found.count,
            found.moves
        );
    }
    for s in &found.solutions {
        outln!("{}", moves_text(s));
    }
    Ok(())
}

/// The board and goal of `ricochet hardest`: a custom board file, a position file, or four
/// quarters; the target from `--target` or the position file.
fn hardest_question(
    board: &str,
    target: Option<&str>,
) -> Result<(robots_games::ricochet::board::Board, Goal, String), Failure> {
    use robots_games::ricochet::files::{self, quarters};
    let path = Path::new(board);
    let quarters_named = board.split(',').count() == 4 && !path.exists();
    let (b, from_file) = if quarters_named {
        let names: Vec<String> = board.split(',').map(|q| q.trim().to_string()).collect();
        let names: [String; 4] = names.try_into().unwrap_or_default();
        let b = quarters::from_quadrants(&names).map_err(|e| e.to_string())?;
        (b, None)
    } else {
        let text = crate::cli::io::files::read_input(path)?;
        let keys = robots_games::text::yaml::top_level_keys(&text);
        if keys.iter().any(|k| k == "size") {
            let b = files::parse_custom(&path.display().to_string(), &text)
                .map_err(|d| d.to_string())?;
            (b, None)
        } else {
            let p = ricochet_position(path)?;
            ((*p.board).clone(), Some(p.goal))
        }
    };
    let goal = match (target, from_file) {
        (Some(words), _) => target_goal(&b, words)?,
        (None, Some(goal)) => goal,
        (None, None) => {
            return Err(Failure::Bad(
                "name the target: --target \"red circle\" or --target \"4 7 red\"".into(),
            ));
        }
    };
    let name = b.name.clone();
    Ok((b, goal, name))
}

/// `--target`: "COLOUR SYMBOL" printed on the board, or "X Y ROBOT" (`any` for the vortex).
fn target_goal(b: &robots_games::ricochet::board::Board, words: &str) -> Result<Goal, Failure> {
    use robots_games::ricochet::board::Colour;
    let w: Vec<&str> = words.split_whitespace().collect();
    let robot = |word: &str| -> Result<Option<Colour>, Failure> {
        if word.eq_ignore_ascii_case("any") {
            return Ok(None);
        }
        Colour::parse(word)
            .map(Some)
            .ok_or_else(|| Failure::Bad(format!("--target: unknown robot `{}`", escape(word))))
    };
    match w.as_slice() {
        [x, y, r] => {
            let (Ok(x), Ok(y)) = (x.parse::<u16>(), y.parse::<u16>()) else {
                return Err(Failure::Bad(format!(
                    "--target: `{}` is not X Y ROBOT",
                    escape(words)
                )));
            };
            if x >= b.width || y >= b.height {
                return Err(Failure::Bad(format!("--target: [{x}, {y}] is off the board")));
            }
            Ok(Goal {
                cell: b.cell(x, y),
                robot: robot(r)?,
            })
        }
        [colour, symbol] => {
            let c = robot(colour)?;
            let t = b.target_named(c, symbol).ok_or_else(|| {
                Failure::Bad(format!(
                    "--target: this board has no {} {} target",
                    escape(colour),
                    escape(symbol)
                ))
            })?;
            Ok(Goal {
                cell: t.cell,
                robot: c,
            })
        }
        _ => Err(Failure::Bad(
            "--target: give a colour and a symbol (\"red circle\") or a cell and a robot (\"4 7 red\")"
                .into(),
        )),
    }
}

fn escape(text: &str) -> String {
    robots_games::text::excerpt(&robots_games::text::escape(text), 40).into_owned()
}

/// `ricochet hardest`: the search on `jobs` threads with a progress bar on a terminal; the
/// answer on standard output, the time and memory on standard error.
pub fn hardest(
    board: &str,
    target: Option<&str>,
    (robots_placed, must_ricochet): (u8, bool),
    show: u64,
    max_memory: u64,
    jobs: Option<u16>,
) -> Result<(), Failure> {
    use robots_games::ricochet::analysis::hardest::{Plan, Report, search};
    use std::io::IsTerminal;
    let (b, goal, name) = hardest_question(board, target)?;
    let limit = max_memory.saturating_mul(1 << 20);
    let placed = usize::from(robots_placed);
    let plan = Plan::new(&b, goal, placed, must_ricochet, limit).map_err(|e| match e {
        robots_games::ricochet::analysis::hardest::HardestError::TooBig { .. } => {
            Failure::Bad(format!("{e}: raise --max-memory (now {max_memory} MiB)"))
        }
        e => Failure::Bad(e.to_string()),
    })?;
    let bar = if std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(plan.states());
        bar.set_style(
            indicatif::ProgressStyle::with_template("{msg} {wide_bar} {percent}% ETA {eta}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_message("1 move");
    let report = |r: Report| match r {
        Report::Scanned(n) => bar.inc(n),
        Report::Layer { moves, .. } => {
            bar.reset();
            bar.set_message(format!("{} moves", moves + 1));
        }
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.map_or(0, usize::from))
        .build()
        .map_err(|e| format!("cannot start the threads: {e}"))?;
    crate::cli::io::memory::reset_peak();
    let started = std::time::Instant::now();
    let shown = usize::try_from(show).unwrap_or(usize::MAX);
    let answer = pool
        .install(|| search(&plan, shown, &report))
        .map_err(|e| Failure::NoAnswer(e.to_string()))?;
    let seconds = started.elapsed().as_secs_f64();
    let peak = crate::cli::io::memory::peak();
    bar.finish_and_clear();
    print_hardest(&answer, &plan, &b, &name);
    eprintln!(
        "searched {} states in {seconds:.1} s on {} threads; peak memory {:.1} MiB",
        plan.states(),
        pool.current_num_threads(),
        peak as f64 / 1048576.0
    );
    Ok(())
}

fn print_hardest(
    answer: &robots_games::ricochet::analysis::hardest::Answer,
    plan: &robots_games::ricochet::analysis::hardest::Plan,
    b: &robots_games::ricochet::board::Board,
    name: &str,
) {
    let (x, y) = b.xy(plan.goal.cell);
    let who = plan
        .goal
        .robot
        .map_or("any robot".to_string(), |c| format!("the {c} robot"));
    let rule = if plan.must_ricochet { "on" } else { "off" };
    outln!(
        "{who} to [{x}, {y}] on {name}, {} robots (R-B1 {rule}): {} start positions",
        plan.colours.len(),
        plan.placements()
    );
    let Some((most, count)) = answer.most() else {
        outln!("no placement has a solution");
        return;
    };
    let helpers = if plan.goal.robot.is_some() {
        "the other robots' colours aside"
    } else {
        "the robots' colours aside"
    };
    let positions = robots_games::text::count(count, "start position");
    outln!("most moves: {most}, for {positions} ({helpers})");
    if !answer.hardest.is_empty() {
        outln!("the first {}, smallest index first:", answer.hardest.len());
    }
    for placement in &answer.hardest {
        let robots: Vec<String> = placement
            .iter()
            .map(|(c, (x, y))| format!("{c}: [{x}, {y}]"))
            .collect();
        outln!("  robots: {{{}}}", robots.join(", "));
    }
    outln!("moves  start positions");
    for (m, n) in answer.by_moves.iter().enumerate().skip(1) {
        outln!("{m:>5}  {n}");
    }
    outln!(" none  {}", answer.unsolvable);
}
