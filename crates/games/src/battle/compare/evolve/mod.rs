//! The evolver (docs/EVOLVE.md): programs of the plain language bred against a frozen
//! benchmark set and a hall of fame of earlier champions. Matches are played with the
//! tournament's machinery (`tournament::setup`, `play_all`, `game_seed`), in parallel on the
//! current rayon pool and collected in schedule order, so a run is the same on any number of
//! threads; every random choice comes from one `ChaCha8Rng` seeded with the run's seed, and
//! the seed indices of each generation from the seed and the generation's number.
//!
//! Pure: the caller reads the benchmark, prints the progress it is handed and writes the
//! champions; a stop flag ends the run early with the best so far.

mod genome;
mod text;

pub use genome::MAX_STEPS;
pub use text::{commented_text, condition_text, program_text};

use crate::battle::compare::tournament::{Config, Entrant, Game, Score, check, play_all};
use crate::battle::lang::lint::{WarningId, lint_program};
use crate::battle::lang::{Keywords, Program, parse_program_in};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The most programs a population holds.
pub const MAX_POPULATION: usize = 1_000;
/// The most generations a run plays.
pub const MAX_GENERATIONS: u32 = 10_000;
/// The most matches one generation may play (checked before the run starts).
pub const MAX_MATCHES_PER_GENERATION: u64 = 1_000_000;
/// The name every candidate plays under: all candidates of a generation meet each opponent
/// on the same seeds (a match's seed comes from the two names and the seed index).
pub const CANDIDATE: &str = "candidate";
/// What a draw is worth in the fitness, a win being 1 ([`Tally::value`]).
pub const DRAW: f64 = 0.4;
/// What one lint warning costs a candidate, as a share of its matches.
pub const WARNING_COST: f64 = 0.01;

/// How a run goes.
#[derive(Clone, Debug)]
pub struct Settings {
    pub population: usize,
    pub generations: u32,
    pub seed: u64,
    /// Seed indices per opponent and colour assignment in each generation.
    pub seeds: u32,
    /// The best programs carried over unchanged to the next generation.
    pub elite: usize,
    /// A generation's best joins the hall of fame every this many generations.
    pub fame_every: u32,
    /// The most programs in the hall of fame (the oldest leaves first).
    pub fame_size: usize,
    /// Seed indices per opponent and colour of the final check of the best programs.
    pub final_seeds: u32,
    /// How many programs the final check ranks (and the caller may write).
    pub finalists: usize,
}

impl Settings {
    /// Matches one generation plays against `opponents` programs (the hall of fame full).
    pub fn matches_per_generation(&self, opponents: usize) -> u64 {
        (self.population as u64) * ((opponents + self.fame_size) as u64) * 2 * u64::from(self.seeds)
    }
}

/// A program of the population with what it scored.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub program: Arc<Program>,
    /// Its text as written out and read back.
    pub text: Arc<str>,
    /// Lint warnings (each costs [`WARNING_COST`]).
    pub warnings: usize,
    /// The mean points share ([`Tally::value`]) against the opponents, less the
    /// warnings' cost.
    pub fitness: f64,
}

/// What a generation did, for the progress line.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// 1-based.
    pub generation: u32,
    pub best: f64,
    pub mean: f64,
    /// Distinct programs over the population's size.
    pub diversity: f64,
    /// Programs in the hall of fame.
    pub fame: usize,
}

/// Wins, draws and losses of a candidate against one opponent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Tally {
    /// The fitness of these matches: a win 1, a draw [`DRAW`], over the matches. A draw
    /// is worth a little less than half a win, so that a program that only waits for the
    /// round limit is pushed to go and win.
    pub fn value(self) -> f64 {
        let n = self.wins + self.draws + self.losses;
        if n == 0 {
            return 0.0;
        }
        (f64::from(self.wins) + DRAW * f64::from(self.draws)) / f64::from(n)
    }

    /// Wins and half the draws over the matches: the win rate `robots duel` reports.
    pub fn share(self) -> f64 {
        let n = self.wins + self.draws + self.losses;
        if n == 0 {
            return 0.0;
        }
        (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(n)
    }

    fn add(&mut self, score: Score) {
        match score {
            Score::Win => self.wins += 1,
            Score::Draw => self.draws += 1,
            Score::Loss => self.losses += 1,
        }
    }
}

/// A program of the final check: how it did against each benchmark program, by name.
#[derive(Clone, Debug)]
pub struct Champion {
    pub program: Arc<Program>,
    pub text: Arc<str>,
    pub tallies: Vec<(String, Tally)>,
    pub warnings: usize,
}

impl Champion {
    /// The mean share (wins and half the draws) against the benchmark.
    pub fn mean(&self) -> f64 {
        self.tallies.iter().map(|s| s.1.share()).sum::<f64>() / self.tallies.len().max(1) as f64
    }

    /// The benchmark programs it won more matches against than it lost.
    pub fn beaten(&self) -> usize {
        self.tallies
            .iter()
            .filter(|t| t.1.wins > t.1.losses)
            .count()
    }

    /// The mean points share, less the warnings' cost.
    pub fn points(&self) -> f64 {
        self.tallies.iter().map(|s| s.1.value()).sum::<f64>() / self.tallies.len().max(1) as f64
            - WARNING_COST * self.warnings as f64
    }
}

/// How a run ended.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The finalists, best first: checked over `final_seeds` fresh seeds against the
    /// benchmark, or, if the run was stopped, the best of the last whole generation as it
    /// scored there.
    pub champions: Vec<Champion>,
    pub generations: u32,
    pub stopped: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum EvolveError {
    #[error("the population is {0}: expected 2 to {MAX_POPULATION}")]
    Population(usize),
    #[error("{0} generations: expected 1 to {MAX_GENERATIONS}")]
    Generations(u32),
    #[error("no benchmark program to play against")]
    NoOpponents,
    #[error("{0} matches a generation: at most {MAX_MATCHES_PER_GENERATION}")]
    TooManyMatches(u64),
    #[error("{0}")]
    Setup(#[from] crate::battle::engine::SetupError),
}

/// A genome written out and read back by the real parser, with its lint warnings; `None`
/// when the parser refuses it or it never acts.
pub fn checked(program: &Program) -> Option<(Program, String, usize)> {
    let text = program_text(program, "evolved");
    let parsed = parse_program_in("evolved", &text, MAX_STEPS, Keywords::Plain).ok()?;
    let warnings = lint_program(&parsed, &text);
    if warnings
        .iter()
        .any(|w| matches!(w.id, WarningId::Empty | WarningId::NeverActs))
    {
        return None;
    }
    let n = warnings.len();
    Some((parsed, text, n))
}

fn candidate(program: Program, text: String, warnings: usize) -> Candidate {
    Candidate {
        program: Arc::new(program),
        text: text.into(),
        warnings,
        fitness: 0.0,
    }
}

/// The seed indices of generation `g` (0 for the final check): fixed by the run's seed.
fn seed_indices(seed: u64, g: u32, n: u32) -> Vec<u32> {
    let mut rng =
        ChaCha8Rng::seed_from_u64(seed ^ u64::from(g).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    (0..n).map(|_| rng.random()).collect()
}

/// Each candidate's tally against each opponent over `seeds`, both colours; `None` if the
/// stop flag ended the matches.
fn tallies(
    candidates: &[Candidate],
    opponents: &[Entrant],
    config: &Config,
    seeds: &[u32],
    stop: &AtomicBool,
) -> Result<Option<Vec<Vec<Tally>>>, EvolveError> {
    let mut entrants = opponents.to_vec();
    entrants.extend(candidates.iter().map(|c| Entrant {
        name: CANDIDATE.into(),
        members: vec![crate::battle::compare::tournament::Member {
            program: Arc::clone(&c.program),
            source: Arc::clone(&c.text),
            origin: CANDIDATE.into(),
        }],
    }));
    let o = opponents.len();
    let per = 2 * seeds.len();
    let mut games = Vec::with_capacity(candidates.len() * o * per);
    for c in 0..candidates.len() {
        for a in 0..o {
            for swapped in [false, true] {
                games.extend(seeds.iter().map(|&seed_index| Game {
                    a,
                    b: o + c,
                    swapped,
                    seed_index,
                }));
            }
        }
    }
    let results = play_all(&entrants, config, &games, stop, &|| {})?;
    let mut out = vec![vec![Tally::default(); o]; candidates.len()];
    for (i, r) in results.iter().enumerate() {
        let Some(r) = r else { return Ok(None) };
        // Scores are the opponent's (`a`); the candidate's is the other side.
        out[i / (o * per)][(i / per) % o].add(r.score.flip());
    }
    Ok(Some(out))
}

/// What is wrong with a run before any match is played: its limits, and whether the board
/// holds the teams ([`evolve`] checks it first; a front end may ask before it prepares its
/// outputs).
pub fn check_run(
    settings: &Settings,
    config: &Config,
    benchmark: &[Entrant],
) -> Result<(), EvolveError> {
    if !(2..=MAX_POPULATION).contains(&settings.population) {
        return Err(EvolveError::Population(settings.population));
    }
    if !(1..=MAX_GENERATIONS).contains(&settings.generations) {
        return Err(EvolveError::Generations(settings.generations));
    }
    let Some(first) = benchmark.first() else {
        return Err(EvolveError::NoOpponents);
    };
    let matches = settings.matches_per_generation(benchmark.len());
    if matches > MAX_MATCHES_PER_GENERATION {
        return Err(EvolveError::TooManyMatches(matches));
    }
    check(&[first.clone(), first.clone()], config)?;
    Ok(())
}

/// One run of the evolver against `benchmark` (programs under their names), each
/// generation's progress handed to `progress`.
pub fn evolve(
    settings: &Settings,
    config: &Config,
    benchmark: &[Entrant],
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Outcome, EvolveError> {
    check_run(settings, config, benchmark)?;
    let mut rng = ChaCha8Rng::seed_from_u64(settings.seed);
    let mut population = first_generation(settings, benchmark, &mut rng);
    let mut fame: Vec<Entrant> = Vec::new();
    let mut fame_count = 0;
    let mut last: Option<Vec<Candidate>> = None;
    let mut done = 0;
    for g in 1..=settings.generations {
        let mut opponents = benchmark.to_vec();
        opponents.extend(fame.iter().cloned());
        let seeds = seed_indices(settings.seed, g, settings.seeds);
        let Some(table) = tallies(&population, &opponents, config, &seeds, stop)? else {
            break;
        };
        for (c, row) in population.iter_mut().zip(&table) {
            c.fitness = row.iter().map(|t| t.value()).sum::<f64>() / row.len() as f64
                - WARNING_COST * c.warnings as f64;
        }
        // Best first; equal fitness keeps the earlier index (a stable sort).
        population.sort_by(|a, b| b.fitness.total_cmp(&a.fitness));
        done = g;
        if g % settings.fame_every.max(1) == 0
            && !fame
                .iter()
                .any(|e| e.members[0].source == population[0].text)
        {
            fame_count += 1;
            fame.push(Entrant::single(
                format!("fame-{fame_count}"),
                (*population[0].program).clone(),
                Arc::clone(&population[0].text),
            ));
            if fame.len() > settings.fame_size {
                fame.remove(0);
            }
        }
        progress(&report(g, &population, fame.len()));
        last = Some(population.clone());
        if g < settings.generations {
            population = next_generation(settings, &population, &mut rng);
        }
    }
    let Some(last) = last else {
        return Ok(Outcome {
            champions: Vec::new(),
            generations: 0,
            stopped: true,
        });
    };
    finish(settings, config, benchmark, &last, done, stop)
}

fn report(g: u32, population: &[Candidate], fame: usize) -> Progress {
    let mut texts: Vec<&str> = population.iter().map(|c| &*c.text).collect();
    texts.sort_unstable();
    texts.dedup();
    Progress {
        generation: g,
        best: population[0].fitness,
        mean: population.iter().map(|c| c.fitness).sum::<f64>() / population.len() as f64,
        diversity: texts.len() as f64 / population.len() as f64,
        fame,
    }
}

/// The benchmark's programs that the evolver can write (plain, at most 15 steps), then
/// random programs up to the population's size.
fn first_generation(
    settings: &Settings,
    benchmark: &[Entrant],
    rng: &mut ChaCha8Rng,
) -> Vec<Candidate> {
    let mut population: Vec<Candidate> = benchmark
        .iter()
        .filter_map(|e| checked(&e.members[0].program))
        .map(|(p, t, w)| candidate(p, t, w))
        .take(settings.population / 2)
        .collect();
    while population.len() < settings.population {
        if let Some((p, t, w)) = checked(&genome::random_program(rng)) {
            population.push(candidate(p, t, w));
        }
    }
    population
}

/// Tournament selection of three.
fn pick<'a>(population: &'a [Candidate], rng: &mut ChaCha8Rng) -> &'a Candidate {
    let mut best = rng.random_range(0..population.len());
    for _ in 0..2 {
        best = best.min(rng.random_range(0..population.len()));
    }
    &population[best]
}

/// The elite unchanged, then children: a crossover of two parents (a quarter of them) or a
/// copy of one, then one or two mutations; a child the parser or lint refuses is bred again.
fn next_generation(
    settings: &Settings,
    population: &[Candidate],
    rng: &mut ChaCha8Rng,
) -> Vec<Candidate> {
    let mut next: Vec<Candidate> = population
        .iter()
        .take(settings.elite.min(population.len()))
        .cloned()
        .collect();
    while next.len() < settings.population {
        let a = pick(population, rng);
        let mut child = if rng.random_bool(0.25) {
            let b = pick(population, rng);
            genome::crossover(&a.program, &b.program, rng)
        } else {
            (*a.program).clone()
        };
        let times = if rng.random_bool(0.3) { 2 } else { 1 };
        for _ in 0..times {
            child = genome::mutate(&child, rng);
        }
        if let Some((p, t, w)) = checked(&child) {
            next.push(candidate(p, t, w));
        }
    }
    next
}

/// The final check: the best distinct programs of the last generation play the benchmark
/// again over fresh seeds; ranked by the programs they beat, then their points.
fn finish(
    settings: &Settings,
    config: &Config,
    benchmark: &[Entrant],
    last: &[Candidate],
    generations: u32,
    stop: &AtomicBool,
) -> Result<Outcome, EvolveError> {
    let mut finalists: Vec<Candidate> = Vec::new();
    for c in last {
        if finalists.len() < settings.finalists.max(1)
            && !finalists.iter().any(|f| f.text == c.text)
        {
            finalists.push(c.clone());
        }
    }
    let seeds = seed_indices(settings.seed, 0, settings.final_seeds.max(1));
    let (table, stopped) = match tallies(&finalists, benchmark, config, &seeds, stop)? {
        Some(table) => (table, generations < settings.generations),
        None => {
            // Stopped: the best of the last whole generation, as it scored there.
            finalists.truncate(1);
            let c = &finalists[0];
            let champion = Champion {
                program: Arc::clone(&c.program),
                text: Arc::clone(&c.text),
                tallies: Vec::new(),
                warnings: c.warnings,
            };
            return Ok(Outcome {
                champions: vec![champion],
                generations,
                stopped: true,
            });
        }
    };
    let mut champions: Vec<Champion> = finalists
        .iter()
        .zip(table)
        .map(|(c, row)| Champion {
            program: Arc::clone(&c.program),
            text: Arc::clone(&c.text),
            tallies: benchmark.iter().map(|e| e.name.clone()).zip(row).collect(),
            warnings: c.warnings,
        })
        .collect();
    // Most programs beaten first (the goal), then the points; a stable sort.
    champions.sort_by(|a, b| (b.beaten().cmp(&a.beaten())).then(b.points().total_cmp(&a.points())));
    Ok(Outcome {
        champions,
        generations,
        stopped,
    })
}

#[cfg(test)]
mod tests;
