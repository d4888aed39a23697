//! `robots micro …`: Micro Robots boards, the solver, the analysis and games at the terminal.

use super::files::read_text;
use super::flags::MicroCommand;
use super::output::Failure;
use super::prompt::{ask, ask_moves};
use robots::micro::{self as micro_robots, Board as MicroBoard, Cell, Face, MicroFile};
use std::path::Path;

pub fn micro_face(name: &str) -> Result<Face, String> {
    let (shown, text) = match micro_robots::shipped::micro_face(name) {
        Some(text) => (format!("boards/micro/{name}.yaml"), text.to_string()),
        None => (name.to_string(), read_text(Path::new(name))?),
    };
    match micro_robots::board::parse(&shown, &text, &micro_face).map_err(|d| d.to_string())? {
        MicroFile::Face(face) => Ok(face),
        MicroFile::Board(_) => Err(format!(
            "{shown}: error: a board file, where a face (four tiles) was expected"
        )),
    }
}

/// A board file, or a face (shipped or a file) in its plain arrangement.
fn micro_board(name: &str) -> Result<MicroBoard, String> {
    let (shown, text) = match micro_robots::shipped::micro_face(name) {
        Some(text) => (format!("boards/micro/{name}.yaml"), text.to_string()),
        None => (name.to_string(), read_text(Path::new(name))?),
    };
    let base = Path::new(name)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let read_face = |face: &str| match micro_robots::shipped::micro_face(face) {
        Some(_) => micro_face(face),
        None => micro_face(&base.join(face).display().to_string()),
    };
    Ok(
        match micro_robots::board::parse(&shown, &text, &read_face).map_err(|d| d.to_string())? {
            MicroFile::Board(board) => board,
            MicroFile::Face(face) => MicroBoard::arrange(&face, micro_robots::Arrangement::PLAIN),
        },
    )
}

fn cell(text: &str, flag: &str) -> Result<Cell, String> {
    Cell::parse(text).ok_or_else(|| {
        format!(
            "--{flag} {text}: a cell is a colour letter (B Y G R P W) and a number 1-6, such as P1"
        )
    })
}

pub fn run(command: MicroCommand) -> Result<(), Failure> {
    use std::io::IsTerminal;
    match command {
        MicroCommand::Board { board } => {
            let board = micro_board(&board)?;
            outln!("{}", board.name);
            out!(
                "{}",
                micro_robots::board::render(&board, std::io::stdout().is_terminal())
            );
        }
        MicroCommand::Solve {
            board,
            from,
            to,
            via,
            json,
        } => {
            let board = micro_board(&board)?;
            let (from, to) = (cell(&from, "from")?, cell(&to, "to")?);
            let via = via.map(|v| cell(&v, "via")).transpose()?;
            let Some(solution) = micro_robots::solve::solve(&board, from, to, via) else {
                let through = via.map(|v| format!(" through {v}")).unwrap_or_default();
                return Err(Failure::NoAnswer(format!(
                    "no way from {from} to {to}{through} on this board"
                )));
            };
            if json {
                outln!(
                    "{}",
                    serde_json::to_string(&solution).expect("a solution serialises")
                );
            } else {
                let path: Vec<String> = solution.path.iter().map(Cell::to_string).collect();
                outln!("{} moves: {}", solution.moves, path.join(" → "));
            }
        }
        MicroCommand::Analyse { face, json } => {
            let face = micro_face(&face)?;
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
                bar.set_length(total as u64);
                bar.set_position(done as u64);
            });
            bar.finish_and_clear();
            if json {
                outln!(
                    "{}",
                    serde_json::to_string(&analysis).expect("an analysis serialises")
                );
            } else {
                out!("{}", micro_robots::analyse::report(&analysis));
                outln!("analysed in {:.3} s", started.elapsed().as_secs_f64());
            }
        }
        MicroCommand::Play {
            players,
            seed,
            variant,
            humans,
            strength,
            face,
        } => {
            use micro_robots::game::{Kind, Player, Variant};
            let variant = match variant.as_deref() {
                None | Some("standard") => Variant::Standard,
                Some("waypoint") => Variant::Waypoint,
                Some("no-token") => Variant::NoToken,
                Some(other) => {
                    return Err(Failure::Bad(format!(
                        "--variant {other}: expected waypoint or no-token"
                    )));
                }
            };
            if !(1..=3).contains(&strength) {
                return Err(Failure::Bad("--strength: 1 to 3".into()));
            }
            if !(2..=8).contains(&players) || humans.len() > players {
                return Err(Failure::Bad(format!(
                    "--players {players}: 2 to 8 players, at least as many as --human names"
                )));
            }
            let face = micro_face(&face)?;
            // The tiles are laid out at random, from the same seed.
            let arrangements = micro_robots::analyse::arrangements();
            let arrangement = arrangements[(seed % arrangements.len() as u64) as usize];
            let board = MicroBoard::arrange(&face, arrangement);
            let mut table: Vec<Player> = humans
                .iter()
                .map(|h| Player {
                    name: h.clone(),
                    kind: Kind::Human,
                    tokens: 0,
                })
                .collect();
            let robots_names = [
                "Ada", "Blaise", "Carl", "Dora", "Emmy", "Felix", "Grace", "Hugo",
            ];
            for name in robots_names.iter().take(players - humans.len()) {
                table.push(Player {
                    name: (*name).to_string(),
                    kind: Kind::Computer { strength },
                    tokens: 0,
                });
            }
            outln!("Micro Robots on {}", board.name);
            out!(
                "{}",
                micro_robots::board::render(&board, std::io::stdout().is_terminal())
            );
            let mut terminal = TerminalHumans;
            let mut none = micro_robots::game::NoHumans;
            let humans: &mut dyn micro_robots::game::Humans = if humans.is_empty() {
                &mut none
            } else {
                &mut terminal
            };
            micro_robots::game::play(&board, table, variant, seed, humans, &mut |line| {
                outln!("{line}")
            });
        }
    }
    Ok(())
}

/// Humans answer at the terminal; their thinking time is measured for real.
struct TerminalHumans;

impl micro_robots::game::Humans for TerminalHumans {
    fn announce(
        &mut self,
        name: &str,
        board: &MicroBoard,
        start: Cell,
        via: Option<Cell>,
        target: Cell,
    ) -> Option<(u32, f64)> {
        out!(
            "{}",
            micro_robots::board::render(
                board,
                std::io::IsTerminal::is_terminal(&std::io::stdout())
            )
        );
        let through = via
            .map(|v| format!(", stopping on {v}"))
            .unwrap_or_default();
        ask_moves(&format!(
            "{name}: from {start} to {target}{through}: how many moves? (Enter to pass) "
        ))
    }

    fn demonstrate(&mut self, name: &str, announced: u32) -> Vec<Cell> {
        loop {
            let Some(answer) = ask(&format!(
                "{name}: show your {announced} stops, such as `P6 W6 R6`: "
            )) else {
                return Vec::new();
            };
            let cells: Option<Vec<Cell>> = answer.split_whitespace().map(Cell::parse).collect();
            match cells {
                Some(cells) => return cells,
                None => outln!("cells are written like P6 (colour letter, number)"),
            }
        }
    }
}
