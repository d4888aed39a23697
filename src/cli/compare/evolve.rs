//! `robots evolve` (docs/EVOLVE.md): the benchmark read, the run on `--jobs` threads with a
//! progress line a generation on stderr, Ctrl-C keeping the best so far, and the champions
//! written as commented `.robot` files (never over a file).

use crate::cli::args::flags::EvolveArgs;
use crate::cli::io::output::Failure;
use robots_games::battle::compare::evolve::{
    Champion, Outcome, Progress, Settings, check_run, commented_text, evolve,
};
use robots_games::battle::compare::tournament::{Config, Entrant, MAX_ENTRANTS};
use robots_games::battle::files::shipped;
use robots_games::battle::lang::Keywords;
use robots_games::text::escape;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// The programs named, the `.robot` files of one folder, or the shipped programs.
fn benchmark(specs: &[String]) -> Result<Vec<Entrant>, Failure> {
    let mut specs = specs.to_vec();
    if specs.is_empty() {
        specs = shipped::PROGRAMS
            .iter()
            .map(|(n, _)| (*n).to_string())
            .collect();
    } else if let [one] = specs.as_slice()
        && Path::new(one).is_dir()
    {
        let dir = one.clone();
        specs = crate::cli::compare::tournament::robot_files(&dir)?;
        if specs.is_empty() {
            return Err(Failure::Bad(format!(
                "{}: error: no .robot file in the folder",
                escape(&dir)
            )));
        }
    }
    if specs.len() > MAX_ENTRANTS {
        return Err(Failure::Bad(format!(
            "{} programs: the benchmark takes at most {MAX_ENTRANTS}",
            specs.len()
        )));
    }
    specs
        .iter()
        .map(|s| crate::cli::compare::tournament::entrant(s, Keywords::Plain))
        .collect()
}

fn config(args: &EvolveArgs) -> Result<Config, Failure> {
    crate::cli::compare::tournament::ground_config("evolve", &args.ground, Keywords::Plain, 1..=1)
}

/// The champions' files: `DIR/evolved-SEED-RANK.robot`.
fn paths(args: &EvolveArgs, n: usize) -> Vec<PathBuf> {
    (1..=n)
        .map(|rank| args.out.join(format!("evolved-{}-{rank}.robot", args.seed)))
        .collect()
}

/// The file of a champion: how it was made and what it scored, in comments, then the
/// program with a comment on each step.
fn champion_file(args: &EvolveArgs, stem: &str, c: &Champion, outcome: &Outcome) -> String {
    let mut out = format!(
        "# {stem}: bred by `robots evolve --seed {}` (population {}, {} of {} generations,\n\
         # {} seed indices a generation and colour; board {}, scenario {}, {} robots a side,\n\
         # at most {} rounds), against the benchmark and a hall of fame of earlier champions.\n",
        args.seed,
        args.population,
        outcome.generations,
        args.generations,
        args.seeds,
        args.ground.board,
        args.ground.scenario,
        args.ground.robots,
        args.ground.rounds
    );
    match c.tallies.first() {
        None => out.push_str(
            "# Stopped (Ctrl-C) before the final check: the best of the last generation.\n",
        ),
        Some((_, t)) => {
            out.push_str(&format!(
                "# The final check, {} matches against each program on fresh seeds (wins,\n\
                 # draws, losses):\n",
                t.wins + t.draws + t.losses
            ));
            for row in c.tallies.chunks(4) {
                let cells: Vec<String> = row
                    .iter()
                    .map(|(n, t)| format!("{n} {}-{}-{}", t.wins, t.draws, t.losses))
                    .collect();
                out.push_str(&format!("#   {}\n", cells.join(", ")));
            }
            out.push_str(&format!(
                "# More wins than losses against {} of {}; mean share (wins and half the\n\
                 # draws) {:.1} %; lint warnings: {}.\n",
                c.beaten(),
                c.tallies.len(),
                100.0 * c.mean(),
                c.warnings
            ));
        }
    }
    out.push('\n');
    out.push_str(&commented_text(&c.program, stem));
    out
}

fn progress_line(p: &Progress, total: u32, seconds: f64) -> String {
    format!(
        "generation {}/{total}: best {:.3}, mean {:.3}, diversity {:.2}, hall of fame {} ({seconds:.1} s)",
        p.generation, p.best, p.mean, p.diversity, p.fame
    )
}

/// `robots evolve`.
pub fn run(args: &EvolveArgs) -> Result<(), Failure> {
    let list = benchmark(&args.against)?;
    let config = config(args)?;
    let settings = Settings {
        population: usize::from(args.population),
        generations: args.generations,
        seed: args.seed,
        seeds: args.seeds,
        elite: 2,
        fame_every: 5,
        fame_size: 8,
        final_seeds: 16,
        finalists: 3,
    };
    let files = paths(args, settings.finalists);
    check_run(&settings, &config, &list).map_err(|e| Failure::Bad(format!("error: {e}")))?;
    prepare_out(&args.out, &files)?;
    static STOP: AtomicBool = AtomicBool::new(false);
    // A second Ctrl-C (or a handler already set) falls back to the default: the process ends.
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.map_or(0, usize::from))
        .build()
        .map_err(|e| format!("cannot start the threads: {e}"))?;
    let start = std::time::Instant::now();
    let mut show = |p: &Progress| {
        eprintln!(
            "{}",
            progress_line(p, args.generations, start.elapsed().as_secs_f64())
        );
    };
    let outcome = pool
        .install(|| evolve(&settings, &config, &list, &STOP, &mut show))
        .map_err(|e| Failure::Bad(format!("error: {e}")))?;
    if outcome.champions.is_empty() {
        return Err(Failure::NoAnswer(
            "stopped (Ctrl-C) before the first generation was played: no champion".into(),
        ));
    }
    for (c, path) in outcome.champions.iter().zip(&files) {
        let stem = path
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        write_new(path, &champion_file(args, &stem, c, &outcome))?;
        if c.tallies.is_empty() {
            outln!("{}", path.display());
        } else {
            outln!(
                "{}: beats {} of {} programs, mean share {:.1} %",
                path.display(),
                c.beaten(),
                c.tallies.len(),
                100.0 * c.mean()
            );
        }
    }
    if outcome.stopped {
        return Err(Failure::NoAnswer(format!(
            "stopped (Ctrl-C) after {} of {} generations: the best so far written",
            outcome.generations, args.generations
        )));
    }
    Ok(())
}

/// Everything the champions' files need, checked before any generation is bred: the folder
/// (created if need be, and writable), and none of the files there already (a link counts).
fn prepare_out(out: &Path, files: &[PathBuf]) -> Result<(), Failure> {
    let shown = |p: &Path| escape(&p.display().to_string()).into_owned();
    std::fs::create_dir_all(out)
        .map_err(|e| format!("{}: error: cannot create the folder: {e}", shown(out)))?;
    if let Some(f) = files.iter().find(|f| std::fs::symlink_metadata(f).is_ok()) {
        return Err(Failure::Bad(format!(
            "{}: error: already there: the evolver never overwrites a file (move it, or name \
             another folder with --out)",
            shown(f)
        )));
    }
    // A file made and removed at once: the folder takes new files (permissions, space).
    let probe = out.join(format!(".robots-evolve-{}.probe", std::process::id()));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .and_then(|_| std::fs::remove_file(&probe))
        .map_err(|e| {
            Failure::Bad(format!(
                "{}: error: cannot write the champions there: {e}",
                shown(out)
            ))
        })
}

/// Writes a new file; an existing one is an error, never replaced.
fn write_new(path: &Path, text: &str) -> Result<(), Failure> {
    use std::io::Write;
    let shown = || escape(&path.display().to_string()).into_owned();
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| format!("{}: error: cannot create the file: {e}", shown()))?;
    file.write_all(text.as_bytes())
        .map_err(|e| Failure::Bad(format!("{}: error: cannot write: {e}", shown())))
}
