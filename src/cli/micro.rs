//! `robots micro …`: Micro Robots boards, the solver, the analysis and games at the terminal.

use crate::cli::args::game_flags::{MicroCommand, MicroPlay, MicroVariant};
use crate::cli::io::files::read_input;
use crate::cli::io::output::Failure;
use crate::cli::io::prompt::{ask, say};
use robots_games::micro::answer::{self, Answer, AnswerError};
use robots_games::micro::board::Marks;
use robots_games::micro::game::{Game, Quit, Variant};
use robots_games::micro::report::{self, AnalysisJson, SolutionJson};
use robots_games::micro::{self as micro_robots, Board as MicroBoard, Cell, Face, MicroFile};
use robots_games::text::confine::Confine;
use robots_games::text::diagnostic::Diagnostic;
use std::path::Path;

/// Why a Micro Robots file or cell named on the command line cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum MicroInputError {
    /// The file cannot be read (the message names it).
    #[error("{0}")]
    Unreadable(String),
    #[error(transparent)]
    Invalid(#[from] Diagnostic),
    #[error(
        "--{flag} {text}: a cell is a colour letter (B Y G R P W) and a number 1-6, such as P1"
    )]
    NotACell { flag: &'static str, text: String },
}

impl From<MicroInputError> for Failure {
    fn from(e: MicroInputError) -> Self {
        Failure::Bad(e.to_string())
    }
}

/// A shipped face's name (shown as its file), or a path: the name shown and the text.
fn face_or_file(name: &str) -> Result<(String, String), MicroInputError> {
    match micro_robots::shipped::micro_face(name) {
        Some(text) => Ok((format!("boards/micro/{name}.yaml"), text.to_string())),
        None if !Path::new(name).exists() => Err(MicroInputError::Unreadable(format!(
            "{name}: no such file, nor a shipped face ({})",
            micro_robots::shipped::names()
        ))),
        None => Ok((
            name.to_string(),
            read_input(Path::new(name)).map_err(|d| MicroInputError::Unreadable(d.to_string()))?,
        )),
    }
}

/// Reads a Micro Robots file; a board file's `face:` is a shipped face or a path from the
/// file's folder, if `confine` allows its path.
pub fn micro_file(
    shown: &str,
    text: &str,
    base: &Path,
    confine: Confine,
) -> Result<MicroFile, Diagnostic> {
    let read_face = |face: &str| {
        let found = match micro_robots::shipped::micro_face(face) {
            Some(_) => micro_face(face),
            None => {
                confine.check(face).map_err(|e| e.to_string())?;
                let path = base.join(face);
                let hide = crate::cli::io::files::outside(
                    crate::cli::io::files::folder_of(&base.join("x")),
                    &path,
                );
                micro_face(&path.display().to_string()).map_err(|e| match e {
                    MicroInputError::Invalid(d) if hide => {
                        MicroInputError::Invalid(d.without_content())
                    }
                    e => e,
                })
            }
        };
        found.map_err(|e| e.to_string())
    };
    micro_robots::file::parse(shown, text, &read_face)
}

/// A face, shipped or a file: a board file here is an error (a board's `face:` names a face,
/// never another board).
pub fn micro_face(name: &str) -> Result<Face, MicroInputError> {
    let (shown, text) = face_or_file(name)?;
    Ok(micro_robots::file::parse_face(&shown, &text)?)
}

/// A board file, or a face (shipped or a file) in its plain arrangement.
fn micro_board(name: &str) -> Result<MicroBoard, MicroInputError> {
    let (shown, text) = face_or_file(name)?;
    let base = Path::new(name)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    Ok(match micro_file(&shown, &text, &base, Confine::Inside)? {
        MicroFile::Board(board) => board,
        MicroFile::Face(face) => MicroBoard::arrange(&face, micro_robots::Arrangement::PLAIN),
    })
}

fn cell(text: &str, flag: &'static str) -> Result<Cell, MicroInputError> {
    Cell::parse(text).ok_or_else(|| MicroInputError::NotACell {
        flag,
        text: text.to_string(),
    })
}

pub fn run(command: MicroCommand) -> Result<(), Failure> {
    match command {
        MicroCommand::Board { board, picture } => {
            let board = micro_board(&board)?;
            if picture.wanted() {
                return super::picture::write_pictures(&picture, &micro_robots::svg::board(&board));
            }
            outln!("{}", board.name());
            out!(
                "{}",
                micro_robots::board::render(&board, crate::cli::io::output::colour())
            );
        }
        MicroCommand::Solve {
            board,
            from,
            to,
            via,
            json,
        } => solve(&board, &from, &to, via.as_deref(), json)?,
        MicroCommand::Analyse { face, json } => analyse(&face, json)?,
        MicroCommand::Play(flags) => play(flags)?,
    }
    Ok(())
}

fn solve(board: &str, from: &str, to: &str, via: Option<&str>, json: bool) -> Result<(), Failure> {
    let board = micro_board(board)?;
    let (from, to) = (cell(from, "from")?, cell(to, "to")?);
    let via = via.map(|v| cell(v, "via")).transpose()?;
    let Some(solution) = micro_robots::solve::solve(&board, from, to, via) else {
        let through = via.map(|v| format!(" through {v}")).unwrap_or_default();
        return Err(Failure::NoAnswer(format!(
            "no way from {from} to {to}{through} on this board"
        )));
    };
    if json {
        let output = SolutionJson::from(&solution);
        outln!(
            "{}",
            serde_json::to_string(&output).expect("a solution serialises")
        );
    } else {
        let path: Vec<String> = solution.path.iter().map(Cell::to_string).collect();
        outln!(
            "{}: {}",
            robots_games::text::count(solution.moves, "move"),
            path.join(" → ")
        );
    }
    Ok(())
}

fn analyse(face: &str, json: bool) -> Result<(), Failure> {
    let face = micro_face(face)?;
    let started = std::time::Instant::now();
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(1536),
        indicatif::ProgressDrawTarget::hidden(),
    );
    let mut shown = false;
    let analysis = micro_robots::analyse::analyse(&face, &mut |done, total| {
        // A bar only when the work takes more than a second.
        if !shown && started.elapsed().as_secs_f64() > 1.0 {
            bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
            shown = true;
        }
        bar.set_length(u64::try_from(total).unwrap_or(u64::MAX));
        bar.set_position(u64::try_from(done).unwrap_or(u64::MAX));
    });
    bar.finish_and_clear();
    if json {
        let output = AnalysisJson::from(&analysis);
        outln!(
            "{}",
            serde_json::to_string(&output).expect("an analysis serialises")
        );
    } else {
        out!("{}", micro_robots::analyse::report(&analysis));
        outln!("analysed in {:.3} s", started.elapsed().as_secs_f64());
    }
    Ok(())
}

/// `robots micro play`: a game on a face's tiles laid out from the seed; its log in words,
/// or with `--json` its record (JSON Lines).
fn play(flags: MicroPlay) -> Result<(), Failure> {
    let MicroPlay {
        players,
        seed,
        variant,
        humans,
        strength,
        face,
        json,
    } = flags;
    let variant = match variant {
        MicroVariant::Standard => Variant::Standard,
        MicroVariant::Waypoint => Variant::Waypoint,
        MicroVariant::NoToken => Variant::NoToken,
    };
    let table = robots_games::table::roster(&humans, players, strength)
        .map_err(|e| Failure::Bad(format!("--players {players}: {e}")))?;
    let face = micro_face(&face)?;
    let players_json = json.then(|| robots_games::table::report::players(&table));
    // The tiles are laid out at random, from the same seed.
    let game = Game::on_face(&face, table, variant, seed);
    let mut terminal = TerminalHumans { told: false };
    let mut none = micro_robots::game::NoHumans;
    let humans: &mut dyn micro_robots::game::Humans = if humans.is_empty() {
        &mut none
    } else {
        &mut terminal
    };
    let Some(players_json) = players_json else {
        outln!("Micro Robots on {}", game.board().name());
        out!(
            "{}",
            micro_robots::board::render(game.board(), crate::cli::io::output::colour())
        );
        game.play(humans, &mut |note| outln!("{note}"));
        return Ok(());
    };
    // Questions to human players go to standard error: standard output is the record's.
    super::record::start(&report::setup(&game, seed, players_json));
    let mut folded = report::Record::default();
    game.play(humans, &mut |note| super::record::print(folded.note(&note)));
    Ok(())
}

/// Humans answer at the terminal; their thinking time is measured for real. `quit`, or the
/// end of the input (Ctrl-D), at either question ends the game.
struct TerminalHumans {
    /// Whether the movement rule has been said.
    told: bool,
}

/// Asks until the line is an answer; the end of the input is `quit`.
fn ask_until<T>(
    prompt: &str,
    read: impl Fn(&str) -> Result<Answer<T>, AnswerError>,
) -> Result<T, Quit> {
    loop {
        let Some(line) = ask(prompt) else {
            // Ctrl-D: end the prompt's line before the game's last words.
            say("\n");
            return Err(Quit);
        };
        match read(&line) {
            Ok(Answer::Given(answer)) => return Ok(answer),
            Ok(Answer::Quit) => return Err(Quit),
            Err(why) => say(&format!("{why}\n")),
        }
    }
}

impl micro_robots::game::Humans for TerminalHumans {
    fn announce(
        &mut self,
        name: &str,
        board: &MicroBoard,
        start: Cell,
        via: Option<Cell>,
        target: Cell,
    ) -> Result<Option<(u32, f64)>, Quit> {
        let marks = Marks {
            robot: start,
            via,
            target,
        };
        say(&micro_robots::board::render_marked(
            board,
            marks,
            crate::cli::io::prompt::colour(),
        ));
        if !self.told {
            self.told = true;
            say(
                "A move: the robot slides along its row or its column, as far as you like, and\n\
                 stops only on a cell of its colour or of its number (RULES C.1). Count the moves.\n",
            );
        }
        let through = via
            .map(|v| format!(", stopping on {v}"))
            .unwrap_or_default();
        let started = std::time::Instant::now();
        let moves = ask_until(
            &format!(
                "{name}: from {start} to {target}{through}: how many moves? (Enter to pass, `quit` to leave) "
            ),
            answer::announcement,
        )?;
        Ok(moves.map(|n| (n, started.elapsed().as_secs_f64())))
    }

    fn demonstrate(&mut self, name: &str, start: Cell, announced: u32) -> Result<Vec<Cell>, Quit> {
        ask_until(
            &format!(
                "{name}: show your {}: the cells the robot stops on after {start}, such as `P6 W6 R6` (starting with {start} is fine too) ",
                robots_games::text::count(announced, "move")
            ),
            |line| answer::demonstration(line, start),
        )
    }
}
