//! `robots ricochet …`: positions drawn, solved and checked, benchmarks, games at the terminal.

use crate::cli::args::game_flags::{PictureArgs, RicochetCommand, SolveArgs};
use crate::cli::io::files::read_input;
use crate::cli::io::output::Failure;

use std::path::Path;

use robots_games::ricochet::report::{CheckJson, SolutionJson};
use robots_games::ricochet::{self as ricochet_robots, position::Position as RicochetPosition};

mod analysis;
mod bench;
mod play;
mod position;
mod random_board;

use position::ricochet_position;

/// The position a game id names, under the rules asked for.
fn id_position(id: &str, must_ricochet: bool) -> Result<RicochetPosition, Failure> {
    use ricochet_robots::files::game_id::GameId;
    let rules = ricochet_robots::rules::Rules {
        must_ricochet,
        no_single_move: false,
    };
    id.parse::<GameId>()
        .and_then(|g| g.position(rules))
        .map_err(|e| Failure::Bad(format!("--id: {e}")))
}

pub fn run(command: RicochetCommand) -> Result<(), Failure> {
    match command {
        RicochetCommand::Board {
            random,
            picture,
            solution,
            position,
            id,
            json,
        } => {
            if random.random {
                return random_board::board(&random, &picture);
            }
            if let Some(flag) = random.stray() {
                return Err(Failure::Bad(format!(
                    "{flag} draws a random board: add --random (and no POSITION)"
                )));
            }
            match (id, position) {
                (Some(id), _) => shown(&id_position(&id, true)?, &picture, solution, json)?,
                (None, Some(position)) => board(&position, &picture, solution, json)?,
                (None, None) => return Err(Failure::Bad("give a POSITION file or --id".into())),
            }
        }
        RicochetCommand::Solve(SolveArgs {
            position,
            id,
            must_ricochet,
            json,
            max_moves,
            max_states,
            all,
            limit,
        }) => {
            let p = solve_position(position.as_deref(), id.as_deref(), must_ricochet.on())?;
            if all {
                analysis::all(&p, json, max_moves, max_states, limit)?;
            } else {
                solve(&p, json, max_moves, max_states)?;
            }
        }
        RicochetCommand::Hint {
            position,
            level,
            max_moves,
            max_states,
        } => analysis::hint(&position, level, max_moves, max_states)?,
        RicochetCommand::Hardest {
            board,
            target,
            robots,
            show,
            max_memory,
            jobs,
            must_ricochet,
        } => analysis::hardest(
            &board,
            target.as_deref(),
            (robots, must_ricochet),
            show,
            max_memory,
            jobs,
        )?,
        RicochetCommand::Bench {
            json,
            ids: Some(file),
            must_ricochet,
        } => bench::ids(&file, must_ricochet.on(), json)?,
        RicochetCommand::Bench { json, .. } => bench::shipped(json),
        RicochetCommand::Play(flags) => play::play(flags)?,
        RicochetCommand::Random { seed, robots, id } => random(seed, robots, id),
        RicochetCommand::Check {
            position,
            moves,
            json,
        } => check(&position, &moves, json)?,
    }
    Ok(())
}

/// The position `ricochet solve` is asked about: a game id's, or a file's.
fn solve_position(
    position: Option<&Path>,
    id: Option<&str>,
    must_ricochet: bool,
) -> Result<RicochetPosition, Failure> {
    Ok(match (position, id) {
        (_, Some(id)) => id_position(id, must_ricochet)?,
        (Some(path), None) => ricochet_position(path)?,
        (None, None) => return Err(Failure::Bad("give a POSITION file or --id".into())),
    })
}

/// `ricochet random`: a random position from `seed`, as a game id or a position file.
fn random(seed: u64, robots: u64, id: bool) {
    let n = if robots == 5 { 5 } else { 4 };
    if id {
        outln!("{}", ricochet_robots::files::random_id(seed, n));
    } else {
        out!("{}", ricochet_robots::files::random_yaml(seed, n));
    }
}

/// `ricochet board`: a custom board file (it has a `size:`) is drawn as it is; a position
/// with its robots; as pictures with `--svg`/`--png` (a position with its solution).
fn board(
    position: &Path,
    picture: &PictureArgs,
    solution: bool,
    json: bool,
) -> Result<(), Failure> {
    solution_on_a_picture(picture, solution)?;
    let text = read_input(position)?;
    if robots_games::text::yaml::top_level_keys(&text)
        .iter()
        .any(|k| k == "size")
    {
        if json {
            return Err(Failure::Bad(
                "--json prints a position: give a position file or --id, not a board file".into(),
            ));
        }
        let board = ricochet_robots::files::parse_custom(&position.display().to_string(), &text)
            .map_err(|d| d.to_string())?;
        let bases: Vec<_> = board.bases.clone();
        if picture.wanted() {
            return super::picture::ricochet_board(&board, picture, solution);
        }
        out!(
            "{}",
            ricochet_robots::draw::text::board(&board, &bases, crate::cli::io::output::colour())
        );
    } else {
        shown(&ricochet_position(position)?, picture, solution, json)?;
    }
    Ok(())
}

/// `--solution` is drawn on a picture only.
fn solution_on_a_picture(picture: &PictureArgs, solution: bool) -> Result<(), Failure> {
    if solution && !picture.wanted() {
        return Err(Failure::Bad(
            "--solution draws the moves on a picture: add --svg or --png".into(),
        ));
    }
    Ok(())
}

/// A position drawn (as text or a picture, with its solution) or printed as JSON.
fn shown(
    p: &RicochetPosition,
    picture: &PictureArgs,
    solution: bool,
    json: bool,
) -> Result<(), Failure> {
    solution_on_a_picture(picture, solution)?;
    if json {
        outln!(
            "{}",
            serde_json::to_string(&ricochet_robots::report::PositionJson::from(p))
                .expect("a position serialises")
        );
    } else if picture.wanted() {
        super::picture::ricochet_position(p, picture, solution)?;
    } else {
        out!(
            "{}",
            ricochet_robots::draw::text::position(p, crate::cli::io::output::colour())
        );
    }
    Ok(())
}

/// `ricochet solve`: a progress line on stderr, when it is a terminal, once the search has
/// run for a second.
fn solve(p: &RicochetPosition, json: bool, max_moves: u32, max_states: u64) -> Result<(), Failure> {
    use ricochet_robots::solve::{Budget, NoSolution};
    use std::io::{IsTerminal, Write};
    let started = std::time::Instant::now();
    let terminal = std::io::stderr().is_terminal();
    let mut shown = false;
    let mut progress = |states: u64| {
        if terminal && started.elapsed().as_secs_f64() > 1.0 {
            eprint!("\rsearching: {states} states held");
            let _ = std::io::stderr().flush();
            shown = true;
        }
    };
    let budget = Budget { max_states };
    let answer = ricochet_robots::solve::solve_within(p, max_moves, budget, &mut progress);
    if shown {
        eprint!("\r\x1b[K");
    }
    let solution = answer.map_err(|e| match e {
        NoSolution::Limit(_) => Failure::NoAnswer(format!("no solution within {max_moves} moves")),
        NoSolution::Budget(n) => Failure::NoAnswer(format!(
            "gave up after {n} states: raise --max-states (now {max_states})"
        )),
        NoSolution::Malformed => Failure::Bad(e.to_string()),
    })?;
    if json {
        outln!(
            "{}",
            serde_json::to_string(&SolutionJson::from(&solution)).expect("a solution serialises")
        );
    } else {
        let moves: Vec<String> = solution.solution.iter().map(ToString::to_string).collect();
        let word = if solution.moves == 1 { "move" } else { "moves" };
        outln!("{} {word}: {}", solution.moves, moves.join(", "));
    }
    Ok(())
}

/// `ricochet check`: a proposed solution replayed.
fn check(position: &Path, moves: &str, json: bool) -> Result<(), Failure> {
    let p = ricochet_position(position)?;
    let moves = ricochet_robots::position::parse_moves(moves).map_err(|e| e.to_string())?;
    use ricochet_robots::position::MoveError;
    use ricochet_robots::solve::CheckError;
    match ricochet_robots::solve::check(&p, &moves) {
        Ok(n) if json => outln!(
            "{}",
            robots_games::table::report::line(&CheckJson::valid(n))
        ),
        Ok(n) => outln!("valid: {}", robots_games::text::count(n, "move")),
        // A move this position cannot even name is bad input (exit 2), not a wrong answer.
        Err(
            why @ CheckError::Illegal {
                why:
                    MoveError::NoSuchRobot(_) | MoveError::OffBoard(..) | MoveError::NotTransparent(_),
                ..
            },
        ) => return Err(Failure::Bad(format!("error: {why}"))),
        Err(why) if json => {
            outln!(
                "{}",
                robots_games::table::report::line(&CheckJson::not_valid(why.to_string()))
            );
            return Err(Failure::NoAnswer(String::new()));
        }
        Err(why) => return Err(Failure::NoAnswer(format!("not valid: {why}"))),
    }
    Ok(())
}
