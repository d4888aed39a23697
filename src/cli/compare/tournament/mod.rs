//! `robots duel` and `robots tournament` (docs/TOURNAMENTS.md): programs read, matches played
//! in parallel (rayon, results independent of the thread count), a progress bar on a
//! terminal, Ctrl-C printing the standings so far; shards and their merge (docs/SCALE.md).

use crate::cli::args::flags::{DuelArgs, DuelFormat, FieldArgs, GroundArgs, TournamentArgs};
use crate::cli::io::files::{FileKind, expect_kind, read_input};
use crate::cli::io::output::Failure;
use robots_games::battle::compare::tournament::parts::{Field, MAX_MATCHES, shard_lines};
use robots_games::battle::compare::tournament::{
    Config, Entrant, Game, GameResult, MAX_ENTRANTS, Score, play_all, schedule, schedule_len,
    standings, wilson,
};
use robots_games::battle::engine::{Rules, Scenario};
use robots_games::battle::lang::Keywords;
use robots_games::battle::{files::board_file, files::match_file, files::shipped};
use robots_games::text::escape;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

pub(super) mod parts;
pub(super) mod show;
pub(super) mod slurm;
mod worst;

/// A program by shipped name or `.robot` file, or a team file (`.yaml`); its name is the
/// shipped name, the file's stem, or the team file's `name:`.
pub(super) fn entrant(spec: &str, keywords: Keywords) -> Result<Entrant, Failure> {
    if let Some(text) = shipped::program(spec) {
        let program =
            match_file::parse_program_file_in(&format!("programs/{spec}.robot"), text, keywords)?;
        return Ok(Entrant::single(spec.to_string(), program, text.into()));
    }
    let path = Path::new(spec);
    let stem = path
        .file_stem()
        .map_or_else(|| spec.to_string(), |s| s.to_string_lossy().into_owned());
    if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
        return team(path, stem, keywords);
    }
    let robot = format!("{spec}.robot");
    let path = if !path.exists() && path.extension().is_none() && Path::new(&robot).exists() {
        Path::new(&robot)
    } else {
        path
    };
    if !path.exists() && !crate::cli::io::files::is_stdin(path) {
        return Err(Failure::Bad(format!(
            "{}: error: no such file (nor {}), and no shipped program of that name (shipped: {})",
            robots_games::text::escape(spec),
            robots_games::text::escape(&robot),
            shipped::PROGRAMS.map(|(n, _)| n).join(", ")
        )));
    }
    let text = read_input(path)?;
    expect_kind("tournament", FileKind::Program, path, &text)?;
    let program = match_file::parse_program_file_in(spec, &text, keywords)?;
    Ok(Entrant::single(stem, program, text.into()))
}

/// A team file (docs/TOURNAMENTS.md, "Teams of mixed programs"): `name:` and `robots:`, the
/// programs of its robots in order, shipped names or files beside it (inside its folder).
fn team(path: &Path, stem: String, keywords: Keywords) -> Result<Entrant, Failure> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct TeamFile {
        name: Option<String>,
        #[serde(default)]
        description: Option<String>,
        robots: Vec<String>,
    }
    let shown = path.display().to_string();
    let text = read_input(path)?;
    let file: TeamFile = robots_games::text::yaml::from_str(&shown, &text)?;
    let _ = &file.description;
    if file.robots.is_empty() || file.robots.len() > 9 {
        return Err(Failure::Bad(format!(
            "{}: error: a team lists 1 to 9 programs, not {}",
            escape(&shown),
            file.robots.len()
        )));
    }
    let base = path.parent().unwrap_or(Path::new(""));
    let mut members = Vec::new();
    for name in &file.robots {
        let (program, source, origin) = if let Some(text) = shipped::program(name) {
            let program = match_file::parse_program_file_in(
                &format!("programs/{name}.robot"),
                text,
                keywords,
            )?;
            (program, Arc::<str>::from(text), name.clone())
        } else {
            robots_games::text::confine::Confine::Inside
                .check(name)
                .map_err(|m| format!("{}: error: robots: {m}", escape(&shown)))?;
            let file = base.join(name);
            let text = read_input(&file)?;
            let program =
                match_file::parse_program_file_in(&file.display().to_string(), &text, keywords)?;
            (program, Arc::<str>::from(text.as_str()), name.clone())
        };
        members.push(robots_games::battle::compare::tournament::Member {
            program: Arc::new(program),
            source,
            origin,
        });
    }
    Ok(Entrant {
        name: file.name.unwrap_or(stem),
        members,
    })
}

/// The `.robot` files of a folder, in name order.
pub fn robot_files(dir: &str) -> Result<Vec<String>, Failure> {
    let listing = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: error: cannot list the folder: {e}", escape(dir)))?;
    let mut files: Vec<String> = listing
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "robot") && p.is_file())
        .map(|p| p.display().to_string())
        .collect();
    files.sort();
    Ok(files)
}

/// The programs named, or the `.robot` files of one folder, in name order; names unique.
fn entrants(specs: &[String], keywords: Keywords) -> Result<Vec<Entrant>, Failure> {
    let mut specs = specs.to_vec();
    if let [one] = specs.as_slice()
        && Path::new(one).is_dir()
    {
        specs = robot_files(one)?;
    }
    if specs.len() < 2 {
        return Err(Failure::Bad(
            "a tournament needs at least two programs (files, shipped names, or a folder of .robot files)".into(),
        ));
    }
    if specs.len() > MAX_ENTRANTS {
        return Err(Failure::Bad(format!(
            "{} programs: a tournament takes at most {MAX_ENTRANTS}",
            specs.len()
        )));
    }
    let list: Vec<Entrant> = specs
        .iter()
        .map(|s| entrant(s, keywords))
        .collect::<Result<_, _>>()?;
    let mut names: Vec<&str> = list.iter().map(|e| e.name.as_str()).collect();
    names.sort_unstable();
    if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
        return Err(Failure::Bad(format!(
            "two programs are named `{}`: a program's name (its file's stem) must be unique",
            escape(w[0])
        )));
    }
    Ok(list)
}

/// A shipped hex board by name, or a board file (`command` names the command in the error
/// for a file of another kind).
pub fn hex_board(command: &str, name: &str) -> Result<robots_games::battle::board::Board, Failure> {
    Ok(match shipped::board(name) {
        Some(text) => board_file::parse_board(&format!("boards/{name}.yaml"), text)?,
        None => {
            let path = Path::new(name);
            let text = read_input(path)?;
            expect_kind(command, FileKind::HexBoard, path, &text)?;
            board_file::parse_board(name, &text)?
        }
    })
}

/// The shared settings of every match.
fn config(field: &FieldArgs, seeds: std::ops::RangeInclusive<u32>) -> Result<Config, Failure> {
    ground_config(
        "tournament",
        &field.ground,
        field.keywords.language(),
        seeds,
    )
}

/// The settings of every match played on `ground` in `language` (`command` names the
/// command in errors about the board).
pub(super) fn ground_config(
    command: &str,
    ground: &GroundArgs,
    language: Keywords,
    seeds: std::ops::RangeInclusive<u32>,
) -> Result<Config, Failure> {
    let board = hex_board(command, &ground.board)?;
    Ok(Config {
        board: Arc::new(board),
        scenario: Scenario::from_number(u32::from(ground.scenario))
            .ok_or_else(|| Failure::Bad("the scenario is 1, 2 or 3".into()))?,
        rules: Rules {
            rounds: ground.rounds,
            ..Rules::with_keywords(language)
        },
        robots: usize::from(ground.robots),
        seeds,
    })
}

/// Plays `games` on `jobs` threads, with a progress bar on a terminal; Ctrl-C stops what is
/// left. The results in the order of `games`, `None` for those not played.
pub(super) fn play(
    entrants: &[Entrant],
    config: &Config,
    games: &[Game],
    jobs: Option<u16>,
) -> Result<Vec<Option<GameResult>>, Failure> {
    use std::io::IsTerminal;
    robots_games::battle::compare::tournament::check(entrants, config)?;
    static STOP: AtomicBool = AtomicBool::new(false);
    // A second Ctrl-C (or a handler already set) falls back to the default: the process ends.
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    let bar = if std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(games.len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{pos}/{len} matches {wide_bar} {percent}% ETA {eta}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let threads = jobs.map_or(0, usize::from);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start the threads: {e}"))?;
    let results = pool.install(|| play_all(entrants, config, games, &STOP, &|| bar.inc(1)));
    bar.finish_and_clear();
    Ok(results?)
}

/// How many were not played, said on stderr, as a failure after the output.
fn stopped(results: &[Option<GameResult>]) -> Result<(), Failure> {
    let missing = results.iter().filter(|r| r.is_none()).count();
    if missing == 0 {
        return Ok(());
    }
    Err(Failure::NoAnswer(format!(
        "stopped (Ctrl-C) with {missing} of {} matches not played: the standings above count only those played",
        results.len()
    )))
}

/// `robots duel A B`.
pub fn duel(args: &DuelArgs) -> Result<(), Failure> {
    let mut list = vec![
        entrant(&args.a, args.field.keywords.language())?,
        entrant(&args.b, args.field.keywords.language())?,
    ];
    // A program against itself: the second copy is told apart by a mark (and so gets its
    // own seeds).
    if list[0].name == list[1].name {
        list[1].name.push('\'');
    }
    let config = config(&args.field, args.seeds.0.clone())?;
    worst::check(args)?;
    let games = schedule(2, &config.seeds);
    let results = play(&list, &config, &games, args.field.jobs)?;
    let played: Vec<GameResult> = results.iter().flatten().copied().collect();
    let count = |s: Score| played.iter().filter(|r| r.score == s).count() as u64;
    let (wins, draws, losses) = (count(Score::Win), count(Score::Draw), count(Score::Loss));
    let matches = played.len() as u64;
    let share = if matches == 0 {
        0.0
    } else {
        (wins as f64 + draws as f64 / 2.0) / matches as f64
    };
    let (lo, hi) = wilson(share, matches);
    let doc = show::DuelDoc {
        a: list[0].name.clone(),
        b: list[1].name.clone(),
        matches,
        wins,
        draws,
        losses,
        win_rate: show::round4(share),
        interval: [show::round4(lo), show::round4(hi)],
    };
    match args.format {
        DuelFormat::Json => outln!(
            "{}",
            serde_json::to_string(&doc).map_err(|e| e.to_string())?
        ),
        DuelFormat::Text => out!("{}", show::duel_text(&doc, &config)),
    }
    worst::write(&list, &config, &played, args)?;
    stopped(&results)
}

/// `robots tournament PROGRAMS... | DIR`, `--shard I/N`, and `robots tournament merge`.
pub fn tournament(args: &TournamentArgs) -> Result<(), Failure> {
    if let Some(crate::cli::args::flags::TournamentCommand::Merge {
        parts,
        format,
        partial,
    }) = &args.command
    {
        let merged = parts::merge(parts)?;
        let gaps = merged.gaps();
        if let Some(gaps) = &gaps
            && !partial
        {
            return Err(Failure::Bad(format!(
                "{gaps}: every shard's output is needed (play those shards again, or --partial \
                 for the standings of the parts there are)"
            )));
        }
        let table = standings(&merged.field.programs, &merged.results);
        out!("{}", show::standings(&table, &merged.field, *format));
        if let Some(gaps) = gaps {
            eprintln!(
                "partial standings: {gaps}; {} of the tournament's {} matches counted",
                merged.results.len(),
                merged.field.matches()
            );
        }
        return Ok(());
    }
    let list = entrants(&args.programs, args.field.keywords.language())?;
    let config = config(&args.field, args.seeds.0.clone())?;
    let total = schedule_len(list.len(), &config.seeds);
    if total > MAX_MATCHES {
        return Err(Failure::Bad(format!(
            "{total} matches: at most {MAX_MATCHES} in one tournament (fewer seeds or programs)"
        )));
    }
    if let Some(shards) = args.slurm_script {
        out!("{}", slurm::script(args, shards, total)?);
        return Ok(());
    }
    let mut games = schedule(list.len(), &config.seeds);
    if let Some(shard) = args.shard {
        let keep = |i: usize| shard.holds(i as u64);
        games = games
            .into_iter()
            .enumerate()
            .filter(|(i, _)| keep(*i))
            .map(|(_, g)| g)
            .collect();
    }
    let results = play(&list, &config, &games, args.field.jobs)?;
    let names: Vec<String> = list.iter().map(|e| e.name.clone()).collect();
    let field = Field::new(&names, &config, &args.field.ground.board);
    if let Some(shard) = args.shard {
        out!("{}", shard_lines(&field, shard, &results));
        return stopped(&results);
    }
    let played: Vec<GameResult> = results.iter().flatten().copied().collect();
    let table = standings(&names, &played);
    out!("{}", show::standings(&table, &field, args.format));
    stopped(&results)
}

/// `robots bench --tournament`: the tournament of the shipped programs (20 seeds, the
/// defaults of `robots tournament`) timed on one thread, then on every core.
pub fn bench() -> Result<(), Failure> {
    let list: Vec<Entrant> = shipped::PROGRAMS
        .iter()
        .map(|(name, _)| entrant(name, Keywords::Plain))
        .collect::<Result<_, _>>()?;
    let field = FieldArgs {
        ground: GroundArgs {
            board: "classic".into(),
            scenario: 1,
            robots: 3,
            rounds: 200,
        },
        jobs: None,
        keywords: crate::cli::args::flags::KeywordsArg::Plain,
    };
    let config = config(&field, 1..=20)?;
    let games = schedule(list.len(), &config.seeds);
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    for threads in [1, cores] {
        let start = std::time::Instant::now();
        let results = play(&list, &config, &games, u16::try_from(threads).ok())?;
        let seconds = start.elapsed().as_secs_f64();
        stopped(&results)?;
        let rate = games.len() as f64 / seconds;
        outln!(
            "{} programs, {} matches on {}: {:.2} s, {:.0} matches/s ({:.0} per core)",
            list.len(),
            games.len(),
            robots_games::text::count(threads, "thread"),
            seconds,
            rate,
            rate / threads as f64
        );
    }
    Ok(())
}
