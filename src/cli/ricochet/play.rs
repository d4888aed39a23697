//! `robots ricochet play`: a game at the terminal, its log or its record, and the human players.
//!
//! The game decides every bid by the rules from its time ([`robots_games::ricochet::play::bidding`]); this
//! front end owns the clock. Live (standard input and standard error terminals): real seconds
//! from the moment the target is shown, a countdown redrawn on standard error while the player
//! types, bids and lowered bids whenever the player presses Enter. A script (anything else):
//! lines read in turn on a virtual clock, `@SECONDS` giving a line its time
//! (docs/FORMATS.md, "Ricochet play scripts"), the same transcript every run.

use crate::cli::args::game_flags::RicochetPlay;
use crate::cli::io::files::read_input;
use crate::cli::io::output::Failure;
use crate::cli::io::prompt::{self, Editor, Typed, say};
use robots_games::ricochet::play::bidding::{Heard, Humans, Timer};
use robots_games::ricochet::play::record::{Quit, seconds};
use robots_games::ricochet::position::{Move, Position as RicochetPosition, parse_moves};
use robots_games::ricochet::report;
use robots_games::ricochet::{self as ricochet_robots};
use robots_games::text::escape;
use std::time::{Duration, Instant};

/// `robots ricochet play`: a game on a custom board, or on original quarter boards the game
/// draws from its seed; its log in words, or with `--json` its record (JSON Lines).
pub fn play(flags: RicochetPlay) -> Result<(), Failure> {
    let RicochetPlay {
        players,
        seed,
        humans,
        strength,
        board,
        random_board,
        no_ricochet,
        json,
    } = flags;
    let table = robots_games::table::roster(&humans, players, strength)
        .map_err(|e| Failure::Bad(format!("--players {players}: {e}")))?;
    let board = match board {
        Some(path) => {
            let text = read_input(&path)?;
            ricochet_robots::files::parse_custom(&path.display().to_string(), &text)
                .map_err(|d| d.to_string())?
        }
        // A random Ricochets board from the seed's board stream, as `ricochet board
        // --random --seed N` draws it: its bases make the game one of Ricochets (B.2).
        None if random_board => {
            use ricochet_robots::generate::{Spec, generate};
            generate(&Spec::default(), seed)
                .map_err(|e| Failure::Bad(format!("--random-board: {e}")))?
                .board
        }
        None => ricochet_robots::play::game::original_board(seed),
    };
    let rules = ricochet_robots::rules::Rules {
        must_ricochet: !no_ricochet,
        no_single_move: false,
    };
    let players_json = json.then(|| robots_games::table::report::players(&table));
    let mut terminal = TerminalHumans::new(table.iter().map(|p| p.name.clone()).collect(), humans);
    terminal.must_turn = rules.must_ricochet;
    let mut none = ricochet_robots::play::game::NoHumans;
    let humans: &mut dyn Humans = if terminal.humans.is_empty() {
        &mut none
    } else {
        &mut terminal
    };
    let players = table.len();
    let game = ricochet_robots::play::game::Game::new(&board, table, seed, rules)
        .map_err(|e| Failure::Bad(e.to_string()))?;
    let Some(players_json) = players_json else {
        outln!(
            "Ricochet Robots on {} ({players} players, seed {seed})",
            board.name
        );
        game.play(humans, &mut |note| outln!("{note}"));
        return Ok(());
    };
    // Questions to human players go to standard error: standard output is the record's.
    super::super::record::start(&report::setup(&game, seed, players_json));
    let mut folded = report::Record::default();
    game.play(humans, &mut |note| {
        super::super::record::print(folded.note(&note));
    });
    Ok(())
}

/// After the timer runs out, how long a line being typed may still be sent (and refused as
/// late, with the reason) rather than reach the next question.
const LATE_GRACE: Duration = Duration::from_millis(1500);

/// The longest time a script line may give (`@SECONDS`).
const MAX_SCRIPT_SECONDS: f64 = 1e6;

/// What a human says while bidding.
#[derive(Clone, Copy, Debug, PartialEq)]
enum What {
    Bid(u32),
    Pass,
    Quit,
    /// The solver's next hint for this target (fewest moves, robots moved, a first move).
    Hint,
}

/// A bidding line: `[@SECONDS] [NAME] MOVES|pass|quit` (an empty line passes).
#[derive(Clone, Debug, PartialEq)]
struct Said {
    /// The time a script gives (`@SECONDS`).
    at: Option<f64>,
    /// The seat of the human it is from.
    seat: usize,
    what: What,
}

/// A bidding line read: `names` are every seat's, `humans` the humans' seats.
fn parse_said(line: &str, names: &[String], humans: &[usize]) -> Result<Said, String> {
    let mut rest = line.trim();
    let mut at = None;
    if let Some(time) = rest.strip_prefix('@') {
        let (number, after) = time.split_once(char::is_whitespace).unwrap_or((time, ""));
        let s: f64 = number
            .parse()
            .ok()
            .filter(|s: &f64| s.is_finite() && (0.0..=MAX_SCRIPT_SECONDS).contains(s))
            .ok_or_else(|| {
                format!(
                    "`@{number}`: a time is seconds after the target was shown, such as `@12.5`"
                )
            })?;
        at = Some(s);
        rest = after.trim();
    }
    let named = humans.iter().copied().find(|&seat| {
        let name = &names[seat];
        rest.get(..name.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(name))
            && rest[name.len()..].starts_with(char::is_whitespace)
    });
    if let Some(seat) = named {
        rest = rest[names[seat].len()..].trim();
    }
    let what = match rest.to_ascii_lowercase().as_str() {
        "" | "pass" => What::Pass,
        "quit" => What::Quit,
        "hint" => What::Hint,
        number => What::Bid(number.parse().map_err(|_| {
            format!(
                "`{}`: a bid is a number of moves; or `pass` (done bidding this round), `hint`, `quit`",
                escape(rest)
            )
        })?),
    };
    let seat = match (named, humans) {
        (Some(seat), _) => seat,
        (None, [only]) => *only,
        (None, [first, ..]) if what == What::Quit => *first,
        (None, _) => {
            let who: Vec<&str> = humans.iter().map(|&s| names[s].as_str()).collect();
            return Err(format!(
                "say who: a name first, such as `{} 5` (humans: {})",
                who[0],
                who.join(", ")
            ));
        }
    };
    Ok(Said { at, seat, what })
}

/// The human players at this terminal: live, or a script on a virtual clock.
struct TerminalHumans {
    /// Every seat's name.
    names: Vec<String>,
    /// The humans' seats.
    humans: Vec<usize>,
    live: bool,
    editor: Editor,
    /// Live: when the round's target was shown.
    shown: Instant,
    /// Script: a line read and kept for a later question.
    pending: Option<String>,
    /// The sand timer's end as last told (`None`: not running).
    told: Option<f64>,
    /// Whether the humans have been told how to bid.
    helped: bool,
    /// Live: a quit heard when no question could take it, for the next one.
    quitting: Option<Quit>,
    /// This round's position, the hints given for it, and its solution once one was asked.
    position: Option<RicochetPosition>,
    hints: u8,
    best: Option<robots_games::ricochet::solve::Solution>,
    /// R-B1: the target's robot must turn on its way.
    must_turn: bool,
}

impl TerminalHumans {
    fn new(names: Vec<String>, humans: Vec<String>) -> Self {
        TerminalHumans {
            humans: (0..humans.len()).collect(),
            names,
            live: prompt::live(),
            editor: Editor::default(),
            shown: Instant::now(),
            pending: None,
            told: None,
            helped: false,
            quitting: None,
            position: None,
            hints: 0,
            best: None,
            must_turn: true,
        }
    }

    /// The next hint for this round's target, graded: the fewest moves, then the robots an
    /// optimal solution moves, then its first move (`ricochet hint --level 1|2|3`).
    fn hint(&mut self) -> String {
        self.hints = (self.hints + 1).min(3);
        if self.best.is_none()
            && let Some(p) = &self.position
        {
            self.best =
                robots_games::ricochet::solve::solve(p, ricochet_robots::play::game::SEARCH_LIMIT)
                    .ok();
        }
        let Some(best) = &self.best else {
            return "  hint: no solution within the search's reach\n".into();
        };
        format!("  hint {} of 3: {}\n", self.hints, best.hint(self.hints))
    }

    /// The prompt of a bidding line: the only human's name, or none.
    fn prompt(&self) -> String {
        match self.humans.as_slice() {
            [only] => format!("{}> ", self.names[*only]),
            _ => "> ".to_string(),
        }
    }

    /// Script: the next line (a kept one first); `None` at the end of the input.
    fn next_line(&mut self) -> Option<String> {
        if let Some(line) = self.pending.take() {
            return Some(line);
        }
        match prompt::read_line(&mut std::io::stdin().lock()) {
            None | Some(Err(_)) => None,
            Some(Ok(line)) => Some(line.trim().to_string()),
        }
    }

    /// Says when the sand timer runs out, each time that changes.
    fn tell_timer(&mut self, timer: &Timer) {
        if timer.runs_out == self.told {
            return;
        }
        self.told = timer.runs_out;
        if let Some(end) = timer.runs_out {
            if timer.turned && timer.standing.iter().all(Option::is_none) {
                say(&format!(
                    "  no bid after {} s: the sand timer is turned (RULES B.1); it runs out at {} s\n",
                    seconds(ricochet_robots::play::game::NO_BID),
                    seconds(end)
                ));
            } else {
                say(&format!(
                    "  the sand timer runs out at {} s\n",
                    seconds(end)
                ));
            }
        }
    }
}

/// The status line of a live wait: the clock since the target was `shown` or the countdown,
/// the bids standing (`names`: every seat's).
fn status(shown: Instant, names: &[String], timer: &Timer) -> String {
    let elapsed = shown.elapsed();
    let clock = match timer.runs_out {
        Some(end) => {
            let left = (end - elapsed.as_secs_f64()).max(0.0).ceil();
            format!("sand timer: {left:>2} s left")
        }
        None => {
            let whole = elapsed.as_secs();
            format!("{}:{:02}, no bid yet", whole / 60, whole % 60)
        }
    };
    let bids: Vec<String> = timer
        .standing
        .iter()
        .zip(names)
        .filter_map(|(bid, name)| bid.map(|b| format!("{name} {b}")))
        .collect();
    if bids.is_empty() {
        format!("[{clock}] ")
    } else {
        format!("[{clock} | {}] ", bids.join(", "))
    }
}

impl TerminalHumans {
    /// A said line as the game hears it, `at` seconds.
    fn heard(&self, said: &Said, at: f64) -> Heard {
        match said.what {
            What::Bid(moves) => Heard::Bid {
                at,
                player: said.seat,
                moves,
            },
            What::Pass => Heard::Pass {
                at,
                player: said.seat,
            },
            What::Quit => Heard::Quit(Quit::Asked(self.names[said.seat].clone())),
            // Never heard by the game: a hint is answered where it is read.
            What::Hint => Heard::Nothing,
        }
    }

    fn wait_script(&mut self, timer: &Timer) -> Heard {
        loop {
            let Some(line) = self.next_line() else {
                return Heard::Quit(Quit::InputEnded);
            };
            let said = match parse_said(&line, &self.names, &self.humans) {
                Ok(said) => said,
                Err(e) => {
                    say(&format!("{}{}\n  {e}\n", self.prompt(), escape(&line)));
                    continue;
                }
            };
            if said.what == What::Hint {
                say(&format!(
                    "{}{}\n{}",
                    self.prompt(),
                    escape(&line),
                    self.hint()
                ));
                continue;
            }
            let at = said.at.unwrap_or(timer.now);
            if at > timer.until {
                self.pending = Some(line);
                return Heard::Nothing;
            }
            say(&format!("{}{}\n", self.prompt(), escape(&line)));
            return self.heard(&said, at);
        }
    }

    fn wait_live(&mut self, timer: &Timer) -> Heard {
        let deadline = self.shown + Duration::from_secs_f64(timer.until);
        loop {
            let prompt = self.prompt();
            let (shown, names) = (self.shown, &self.names);
            let typed = self
                .editor
                .read(&prompt, Some(deadline), &mut || status(shown, names, timer));
            let line = match typed {
                Typed::Timeout => return Heard::Nothing,
                Typed::End => return Heard::Quit(Quit::InputEnded),
                Typed::Interrupt => {
                    return Heard::Quit(Quit::Asked(self.names[self.humans[0]].clone()));
                }
                Typed::Line(line) => line,
            };
            let at = self.shown.elapsed().as_secs_f64();
            match parse_said(&line, &self.names, &self.humans) {
                Ok(said) if said.at.is_some() => say(&format!(
                    "  `@SECONDS` is for scripts: here the clock is real, type `{}`\n",
                    escape(line.split_once(' ').map_or("", |(_, rest)| rest))
                )),
                Ok(said) if said.what == What::Hint => say(&self.hint()),
                Ok(said) => return self.heard(&said, at),
                Err(e) => say(&format!("  {e}\n")),
            }
        }
    }

    /// Live: a line being typed as the timer ran out may still be sent for a moment, to be
    /// refused as late with the reason rather than meet the next question.
    fn late_live(&mut self) -> Vec<(f64, usize, u32)> {
        if self.editor.is_empty() {
            return Vec::new();
        }
        let prompt = self.prompt();
        let deadline = Some(Instant::now() + LATE_GRACE);
        let mut status = || "[time is up] ".to_string();
        match self.editor.read(&prompt, deadline, &mut status) {
            Typed::Line(line) => match parse_said(&line, &self.names, &self.humans) {
                Ok(Said {
                    seat,
                    what: What::Bid(moves),
                    ..
                }) => vec![(self.shown.elapsed().as_secs_f64(), seat, moves)],
                Ok(Said {
                    seat,
                    what: What::Quit,
                    ..
                }) => {
                    self.quitting = Some(Quit::Asked(self.names[seat].clone()));
                    Vec::new()
                }
                Ok(_) => Vec::new(),
                Err(e) => {
                    say(&format!("  {e}\n"));
                    Vec::new()
                }
            },
            Typed::End => {
                self.quitting = Some(Quit::InputEnded);
                Vec::new()
            }
            Typed::Interrupt => {
                self.quitting = Some(Quit::Asked(self.names[self.humans[0]].clone()));
                Vec::new()
            }
            _ => {
                say(&format!(
                    "  time is up: `{}` was being typed, not sent\n",
                    escape(self.editor.take().trim())
                ));
                Vec::new()
            }
        }
    }

    /// Script: the timed bid lines after the timer ran out, each a late bid.
    fn late_script(&mut self, ran_out: f64) -> Vec<(f64, usize, u32)> {
        let mut late = Vec::new();
        while let Some(line) = self.next_line() {
            match parse_said(&line, &self.names, &self.humans) {
                Ok(Said {
                    at: Some(at),
                    seat,
                    what: What::Bid(moves),
                }) if at > ran_out => {
                    say(&format!("{}{}\n", self.prompt(), escape(&line)));
                    late.push((at, seat, moves));
                }
                _ => {
                    self.pending = Some(line);
                    break;
                }
            }
        }
        late
    }
}

impl Humans for TerminalHumans {
    fn look(&mut self, _round: u32, p: &RicochetPosition) {
        if self.live {
            let ahead = self.editor.typed_ahead();
            if !ahead.is_empty() {
                say(&format!(
                    "  ignored, typed before this target was shown: `{}`\n",
                    escape(&ahead)
                ));
            }
        }
        say(&ricochet_robots::draw::text::position(
            p,
            crate::cli::io::prompt::colour(),
        ));
        if !self.helped {
            self.helped = true;
            let who = if self.humans.len() > 1 {
                "a name and "
            } else {
                ""
            };
            let clock = if self.live {
                "the clock runs from the moment the target is shown"
            } else {
                "a script line may start with `@SECONDS`, its time on the game's clock"
            };
            let turn = if self.must_turn {
                ",\nturning on the way (R-B1)"
            } else {
                ""
            };
            say(&format!(
                "The rules in a line: a robot slides until a wall or a robot stops it; bring the\n\
                 target's robot (any, for the cosmic target) onto it in the fewest moves{turn}.\n\
                 Bid with {who}a number of moves when you find one; lower it as you like until\n\
                 the sand timer runs out (a minute after the first bid). `pass`: done bidding\n\
                 this round; `hint`: the solver's next hint; `quit` or Ctrl-D: the game ends.\n\
                 Here {clock}.\n"
            ));
        }
        self.told = None;
        self.shown = Instant::now();
        (self.position, self.hints, self.best) = (Some(p.clone()), 0, None);
    }

    fn wait(&mut self, timer: &Timer) -> Heard {
        if let Some(quit) = self.quitting.take() {
            return Heard::Quit(quit);
        }
        self.tell_timer(timer);
        if self.live {
            self.wait_live(timer)
        } else {
            self.wait_script(timer)
        }
    }

    fn late(&mut self, ran_out: f64) -> Vec<(f64, usize, u32)> {
        say(&format!(
            "  time is up: the sand timer ran out at {} s\n",
            seconds(ran_out)
        ));
        if self.live {
            self.late_live()
        } else {
            self.late_script(ran_out)
        }
    }

    fn demonstrate(&mut self, seat: usize, name: &str, bid: u32) -> Result<Vec<Move>, Quit> {
        let question = format!(
            "{name}: show your {}, such as `blue N, red W` (or `quit`): ",
            robots_games::text::count(bid, "move")
        );
        if let Some(quit) = self.quitting.take() {
            return Err(quit);
        }
        loop {
            let answer = if self.live {
                match self.editor.read(&question, None, &mut String::new) {
                    Typed::Line(line) => line,
                    Typed::End | Typed::Timeout => return Err(Quit::InputEnded),
                    Typed::Interrupt => return Err(Quit::Asked(name.to_string())),
                }
            } else {
                say(&question);
                let Some(line) = self.next_line() else {
                    say("\n");
                    return Err(Quit::InputEnded);
                };
                say(&format!("{}\n", escape(&line)));
                line
            };
            if answer.eq_ignore_ascii_case("quit") {
                return Err(Quit::Asked(self.names[seat].clone()));
            }
            match parse_moves(&answer) {
                Ok(moves) => return Ok(moves),
                Err(e) if answer.parse::<u32>().is_ok() => {
                    say(&format!("  the bidding is over: {e}\n"));
                }
                Err(e) => say(&format!("  {e}\n")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Vec<String> {
        ["Zoe", "Max", "Ada"].map(String::from).to_vec()
    }

    #[test]
    fn bidding_lines_read_a_time_a_name_and_what_is_said() {
        let one = parse_said("@12.5 4", &names(), &[0]).unwrap();
        assert_eq!((one.at, one.seat, one.what), (Some(12.5), 0, What::Bid(4)));
        let named = parse_said("max pass", &names(), &[0, 1]).unwrap();
        assert_eq!((named.seat, named.what), (1, What::Pass));
        assert_eq!(parse_said("", &names(), &[0]).unwrap().what, What::Pass);
        assert_eq!(
            parse_said("quit", &names(), &[0, 1]).unwrap().what,
            What::Quit
        );
        assert!(
            parse_said("4", &names(), &[0, 1])
                .unwrap_err()
                .contains("say who")
        );
        assert!(parse_said("@-1 4", &names(), &[0]).is_err());
        assert!(parse_said("four", &names(), &[0]).is_err());
    }
}
