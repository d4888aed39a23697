//! The hex game's commands: `run`, `check`, `board`, `debug`, `bench`.

use super::replay::Recorder;
use crate::cli::args::flags::{DebugArgs, ReplayArgs, RunArgs, confine};
use crate::cli::io::files::{FileKind, expect_kind, read_input};
use crate::cli::io::output::Failure;
use robots_games::battle::engine::{Match, MatchSetup, Outcome};
use robots_games::battle::show::report::{FORMAT_VERSION, ResultDoc};
use robots_games::battle::show::{render, run_text};
use robots_games::battle::{files::board_file, files::match_file, files::shipped};
use robots_games::text::confine::Confine;
use robots_games::text::diagnostic::Diagnostic;
use std::path::Path;

/// A match file (or the shipped default match), the files it names read if `confine` allows.
/// `command` names the command in the error for a file of another kind.
pub fn load_match(
    command: &str,
    file: Option<&Path>,
    confine: Confine,
    rounds: Option<u32>,
) -> Result<MatchSetup, Diagnostic> {
    let (name, text) = match file {
        Some(path) => {
            let text = read_input(path)?;
            expect_kind(command, FileKind::Match, path, &text)?;
            (path.display().to_string(), text)
        }
        None => (
            shipped::DEFAULT_MATCH.0.to_string(),
            shipped::DEFAULT_MATCH.1.to_string(),
        ),
    };
    let fetch = crate::cli::io::files::fetcher(Path::new(&name));
    match_file::parse_match_rounds(&name, &text, &fetch, confine, rounds)
}

/// `robots run`: play a match; print the result, the log, JSON, or write a replay.
pub fn run(args: RunArgs) -> Result<(), Failure> {
    let to_stdout = args
        .replay
        .as_deref()
        .is_some_and(crate::cli::io::files::is_stdin);
    if to_stdout && (args.log || args.json) {
        return Err(Failure::Bad(
            "--replay - writes the replay to standard output: it cannot share it with --log or --json".into(),
        ));
    }
    check_outputs(args.html.as_deref(), args.replay.as_deref(), &args.picture)?;
    let allow = args.allow_outside;
    let mut setup = if args.team.teams.is_empty() {
        load_match(
            "run",
            args.file.as_deref(),
            confine(args.allow_outside),
            args.rounds,
        )?
    } else {
        let t = &args.team;
        super::teams::setup(&t.teams, (t.robots, &t.board), confine(allow), args.rounds)?
    };
    if let Some(seed) = args.seed {
        setup.seed = seed;
    }
    let html_to_stdout = args
        .html
        .as_deref()
        .is_some_and(crate::cli::io::files::is_stdin);
    let others = args.log || args.json || to_stdout || html_to_stdout;
    if super::picture::match_pictures(&setup, &args.picture, others)? {
        return Ok(());
    }
    if let Some(path) = &args.html {
        return super::viewer::write_html(&setup, path);
    }
    let mut game = Match::new(&setup)?;
    let recorder = match &args.replay {
        Some(path) => Some(Recorder::create(path, &setup, &game)?),
        None => None,
    };
    let log = args.log && !args.json;
    if !args.json && !to_stdout {
        print_start(&setup, &game);
    }
    let outcome = play_to_the_end(&mut game, log, recorder)?;
    if to_stdout {
        return Ok(());
    }
    if args.json {
        let doc = ResultDoc::new(&game, &outcome);
        outln!(
            "{}",
            serde_json::to_string(&doc).map_err(|e| e.to_string())?
        );
        return Ok(());
    }
    if !log {
        out!("{}", run_text::rounds_of_play(outcome.rounds));
    }
    print_end(&game, &outcome);
    Ok(())
}

/// Plays `game` to its end, printing each turn's log lines when `log`, writing each turn to
/// the replay, with a progress bar on long matches; the outcome.
pub(crate) fn play_to_the_end(
    game: &mut Match,
    log: bool,
    mut recorder: Option<Recorder>,
) -> Result<Outcome, Failure> {
    let progress = Progress::new(game.rules().rounds);
    let mut events = Vec::new();
    let mut turns = 0u64;
    while {
        events.clear();
        game.step_into(&mut events)
    } {
        turns += 1;
        if log {
            for e in &events {
                out!("{}", e.log_line());
            }
        }
        if let Some(recorder) = &mut recorder {
            recorder.turn(&events)?;
        }
        progress.tick(turns, game.state().round());
    }
    progress.done();
    let outcome = game
        .outcome()
        .cloned()
        .ok_or_else(|| Failure::Bad("the match has no team to play".into()))?;
    if let Some(recorder) = recorder {
        recorder.finish(&outcome)?;
    }
    Ok(outcome)
}

/// Which match, where, with which seed, each team's programs, and how it starts.
fn print_start(setup: &MatchSetup, game: &Match) {
    out!(
        "{}",
        run_text::start(setup, game, crate::cli::io::output::colour())
    );
}

/// The final board, the verdict and who is left.
fn print_end(game: &Match, outcome: &Outcome) {
    out!(
        "{}",
        run_text::end(game, outcome, crate::cli::io::output::colour())
    );
}

/// The page, replay and pictures asked for can be written: checked before the match plays.
fn check_outputs(
    html: Option<&Path>,
    replay: Option<&Path>,
    picture: &crate::cli::args::flags::MatchPictureArgs,
) -> Result<(), Failure> {
    let outputs = [
        (html, "the page"),
        (replay, "the replay"),
        (picture.svg.as_deref(), "the picture"),
        (picture.png.as_deref(), "the picture"),
        (picture.gif.as_deref(), "the GIF"),
    ];
    for (path, what) in outputs {
        if let Some(path) = path {
            crate::cli::io::files::writable(path, what)?;
        }
    }
    Ok(())
}

/// `robots replay FILE`: the match of a replay, played again, checked turn by turn against
/// the file, and printed as `robots run --log` prints it.
pub fn replay(args: &ReplayArgs) -> Result<(), Failure> {
    let pictures = [&args.picture.svg, &args.picture.png, &args.picture.gif];
    check_outputs(args.html.as_deref(), None, &args.picture)?;
    if args.html.is_some() || pictures.iter().any(|p| p.is_some()) {
        // The replay is checked whole first; then its setup makes the page and pictures.
        let (setup, _) = super::replay::read(&args.file, |_, _, _| {})?;
        let html_to_stdout = args
            .html
            .as_deref()
            .is_some_and(crate::cli::io::files::is_stdin);
        super::picture::match_pictures(&setup, &args.picture, html_to_stdout)?;
        if let Some(path) = &args.html {
            super::viewer::write_html(&setup, path)?;
        }
        return Ok(());
    }
    let mut progress = Progress(None);
    let read = super::replay::read(&args.file, |setup, game, events| {
        if events.is_empty() {
            print_start(setup, game);
            progress = Progress::new(game.rules().rounds);
            return;
        }
        for e in events {
            out!("{}", e.log_line());
        }
        progress.tick(game.turns_played(), game.state().round());
    });
    progress.done();
    let (_, game) = read?;
    let outcome = game
        .outcome()
        .cloned()
        .ok_or_else(|| Failure::Bad("the replay's match did not end".into()))?;
    print_end(&game, &outcome);
    Ok(())
}

/// A progress bar on standard error for long matches (more than [`Progress::LONG`] rounds
/// allowed), only when standard error is a terminal: rounds played against the limit.
struct Progress(Option<indicatif::ProgressBar>);

impl Progress {
    const LONG: u32 = 20_000;

    fn new(rounds: u32) -> Progress {
        use std::io::IsTerminal;
        if rounds <= Self::LONG || !std::io::stderr().is_terminal() {
            return Progress(None);
        }
        let bar = indicatif::ProgressBar::new(u64::from(rounds));
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "round {pos}/{len} {wide_bar} {percent}% ETA {eta}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        Progress(Some(bar))
    }

    /// Every 4,096 robot turns, the round reached.
    fn tick(&self, turns: u64, round: u32) {
        if let Some(bar) = &self.0
            && turns.is_multiple_of(4096)
        {
            bar.set_position(u64::from(round));
        }
    }

    fn done(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

pub fn board(
    file: &str,
    picture: &crate::cli::args::game_flags::PictureArgs,
) -> Result<(), Failure> {
    let board = match shipped::board(file) {
        Some(text) => board_file::parse_board(&format!("boards/{file}.yaml"), text),
        None => {
            let path = Path::new(file);
            let text = read_input(path)?;
            expect_kind("board", FileKind::HexBoard, path, &text)?;
            board_file::parse_board(file, &text)
        }
    }?;
    if picture.wanted() {
        return super::picture::write_pictures(
            picture,
            &robots_games::battle::show::svg::board(&board),
        );
    }
    out!(
        "{}",
        render::board_in(&board, crate::cli::io::output::colour())
    );
    Ok(())
}

pub fn debug(args: DebugArgs) -> Result<(), Failure> {
    use std::io::IsTerminal;
    let DebugArgs {
        file,
        team,
        seed,
        script,
        replay,
        allow_outside,
    } = args;
    let loader: robots_games::battle::live::debug::Loader = match replay {
        // A replay is read and checked once; `reload` opens the same match again.
        Some(path) => {
            let (setup, _) = super::replay::read(&path, |_, _, _| {})?;
            Box::new(move || Ok(setup.clone()))
        }
        None => Box::new(move || {
            let mut setup = if team.teams.is_empty() {
                load_match("debug", file.as_deref(), confine(allow_outside), None)?
            } else {
                let (robots, board) = (team.robots, team.board.as_str());
                super::teams::setup(&team.teams, (robots, board), confine(allow_outside), None)?
            };
            if let Some(seed) = seed {
                setup.seed = seed;
            }
            Ok(setup)
        }),
    };
    let mut session = robots_games::battle::live::debug::Session::new(loader)?;
    let lines: Box<dyn Iterator<Item = std::io::Result<String>>> = match script {
        Some(path) => Box::new(
            read_input(&path)?
                .lines()
                .map(|l| Ok(l.to_string()))
                .collect::<Vec<_>>()
                .into_iter(),
        ),
        None if !std::io::stdin().is_terminal() => {
            Box::new(crate::cli::io::prompt::lines(std::io::stdin().lock()))
        }
        None => {
            return super::tui::run(session)
                .map_err(|e| Failure::Bad(format!("the terminal failed: {e}")));
        }
    };
    // Script mode: each command echoed, then its answer, as the commands arrive.
    // Names and program origins come from the files: shown escaped, line breaks kept.
    let shown = |text: &str| robots_games::text::escape_keeping(text, &['\n', '\t']).into_owned();
    out!("{}", shown(&session.position()));
    let (mut commands, mut failed) = (0usize, 0usize);
    for line in lines {
        let line = line.map_err(|e| format!("cannot read the commands: {e}"))?;
        if let Some(reply) = session.script_line(&line) {
            commands += 1;
            failed += usize::from(reply.failed);
            out!("{}", shown(&reply.text));
            if reply.quit {
                break;
            }
        }
    }
    // A script whose commands were refused did not do what it said: exit 1.
    match failed {
        0 => Ok(()),
        1 => Err(Failure::NoAnswer(format!(
            "1 of {commands} commands failed (its `error:` is above)"
        ))),
        n => Err(Failure::NoAnswer(format!(
            "{n} of {commands} commands failed (their `error:`s are above)"
        ))),
    }
}

pub fn bench(matches: u32, json: bool) -> Result<(), Failure> {
    let workload = robots_games::battle::compare::bench::workload()?;
    let started = std::time::Instant::now();
    let report = robots_games::battle::compare::bench::play(&workload, matches);
    let seconds = started.elapsed().as_secs_f64();
    // The debugger: going back in a long match (a checkpoint and a short replay).
    let mut timeline = robots_games::battle::compare::bench::long_timeline()?;
    let end = timeline.turn();
    let rounds = timeline.current().clock().round;
    let started = std::time::Instant::now();
    timeline.go_to(end - 1000);
    let one_jump = started.elapsed().as_secs_f64() * 1e3;
    timeline.go_to(end);
    let started = std::time::Instant::now();
    for _ in 0..1000 {
        timeline.go_to(timeline.turn() - 1);
    }
    let single_steps = started.elapsed().as_secs_f64() * 1e3;
    let per_second = report.turns as f64 / seconds.max(1e-9);
    if json {
        let doc = serde_json::json!({
            "format_version": FORMAT_VERSION,
            "matches": report.matches,
            "decided": report.decided,
            "drawn": report.drawn,
            "robot_turns": report.turns,
            "seconds": seconds,
            "robot_turns_per_second": per_second.round(),
            "debugger": {
                "rounds": rounds,
                "robot_turns": end,
                "back_1000_turns_ms": one_jump,
                "back_1_turn_1000_times_ms": single_steps,
            },
        });
        outln!("{doc}");
        return Ok(());
    }
    outln!("matches: {}", report.matches);
    outln!("decided: {}, drawn: {}", report.decided, report.drawn);
    outln!("robot turns: {}", report.turns);
    outln!("seconds: {seconds:.3}");
    outln!(
        "debugger, {rounds} rounds, {end} robot turns: back 1000 turns at once: {one_jump:.3} ms"
    );
    outln!("debugger: 1000 times back 1 turn: {single_steps:.3} ms");
    outln!("robot-turns/s: {per_second:.0}");
    Ok(())
}
