//! The parts of a sharded tournament (docs/SCALE.md), as text: a shard's output is a header
//! line naming the tournament and its share, then one JSON line per match played; a hill's
//! `results.jsonl` holds the same match lines. [`Merge`] reads parts back line by line,
//! checks that each match belongs where it says, once, and gives the results in the order of
//! the unsharded run. A part comes from a stranger: every header field is bounded before it
//! is used, against the same limits the command line has. The binary reads the files.

use super::{Config, Game, GameResult, MAX_ENTRANTS, Score, game_seed, schedule_len};
use crate::battle::engine::MAX_TEAM_ROBOTS;
use crate::battle::show::report::{reason_code, reason_from_code};
use crate::text::escape;
use crate::text::lines::Budget;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// The most matches one tournament plays (shard a larger one by its seeds).
pub const MAX_MATCHES: u64 = 100_000_000;
/// The most shards a tournament is cut into (`--shard I/N`, `--slurm-script N`).
pub const MAX_SHARDS: u32 = 10_000;
/// The longest round limit (`--rounds`).
pub const MAX_ROUNDS: u32 = 100_000;
/// The longest program name a part holds (a file's stem: 255 bytes on common file systems).
pub const MAX_NAME_BYTES: usize = 255;
/// The longest board a part names (a shipped name, or a path).
pub const MAX_BOARD_BYTES: usize = 4096;
/// The longest header line: a thousand names of 255 bytes, quoted, fit.
pub const MAX_HEADER_BYTES: usize = 1 << 20;
/// The longest match line: one is under 300 bytes when its names are short.
pub const MAX_LINE_BYTES: usize = 4096;
/// What a part (or a hill's results) may hold in all, decompressed: the lines of the largest
/// tournament, at most [`MAX_LINE_BYTES`] each.
pub const MAX_PART_BYTES: u64 = 64 << 30;

/// What a part (or a hill's results) may hold in all: the header and the lines of the
/// largest tournament; blank lines hardly.
pub const PART_BUDGET: Budget = Budget {
    bytes: MAX_PART_BYTES,
    lines: MAX_MATCHES + 1,
    blank_bytes: Budget::BLANK_BYTES,
};

/// What is wrong with a part's header, one of its match lines, or a hill's results.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PartError {
    #[error("not the output of `robots tournament --shard`: {0}")]
    NotAPart(String),
    #[error("`{0}` is not a shard: give I/N with 1 <= I <= N <= {MAX_SHARDS}, such as 2/3")]
    NotAShard(String),
    #[error("shard {index}/{count} is no shard (I/N, 1 <= I <= N <= {MAX_SHARDS})")]
    NoShard { index: u32, count: u32 },
    #[error("format_version {0}: this robots reads 1")]
    Version(u32),
    #[error("{0} programs: a tournament has 2 to {MAX_ENTRANTS}")]
    Programs(usize),
    #[error("a program name of {0} bytes: 1 to {MAX_NAME_BYTES}")]
    NameLength(usize),
    #[error("two programs are named `{0}`")]
    SameName(String),
    #[error("a board of {0} bytes: at most {MAX_BOARD_BYTES}")]
    BoardLength(usize),
    #[error("scenario {0}: 1, 2 or 3")]
    Scenario(u8),
    #[error("robots {0}: 1 to {MAX_TEAM_ROBOTS}")]
    Robots(usize),
    #[error("rounds {0}: 1 to {MAX_ROUNDS}")]
    Rounds(u32),
    #[error("seeds [{0}, {1}]: the first, then the last")]
    Seeds(u32, u32),
    #[error("{0} matches: at most {MAX_MATCHES} in one tournament")]
    Matches(u64),
    #[error("a part of another tournament (other programs, settings or shard count)")]
    OtherTournament,
    #[error("shard {index}/{count} again (also {other})")]
    Again {
        index: u32,
        count: u32,
        other: String,
    },
    #[error("a match line before a part's header")]
    NoHeader,
    #[error("not a match line: {0}")]
    NotAMatchLine(String),
    #[error("`{0}` is not a program of this tournament")]
    NotAProgram(String),
    #[error("not a match of this tournament")]
    NotAMatch,
    #[error("the seed is not the one this match is played with")]
    Seed,
    #[error("winner `{0}`: green, violet or null")]
    Winner(String),
    #[error("reason `{0}` is no end reason")]
    Reason(String),
    #[error("a match of another shard than {index}/{count}")]
    OtherShard { index: u32, count: u32 },
    #[error("the same match twice")]
    Twice,
    #[error("the same match as line {0}")]
    SameAs(u64),
    #[error("no parts")]
    NoParts,
}

/// `I/N`: shard I of N, 1 <= I <= N <= [`MAX_SHARDS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl std::str::FromStr for Shard {
    type Err = PartError;

    fn from_str(text: &str) -> Result<Shard, PartError> {
        let bad = || PartError::NotAShard(escape(text).into_owned());
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count) = (
            i.trim().parse::<u32>().map_err(|_| bad())?,
            n.trim().parse::<u32>().map_err(|_| bad())?,
        );
        Shard::new(index, count).ok_or_else(bad)
    }
}

impl Shard {
    /// Shard `index` of `count`, if that is a shard.
    pub fn new(index: u32, count: u32) -> Option<Shard> {
        (index >= 1 && index <= count && count <= MAX_SHARDS).then_some(Shard { index, count })
    }

    /// Whether the match numbered `i` in the unsharded order is this shard's.
    pub fn holds(self, i: u64) -> bool {
        i % u64::from(self.count) == u64::from(self.index - 1)
    }

    /// How many of `matches` matches are this shard's.
    pub fn len(self, matches: u64) -> u64 {
        let first = u64::from(self.index - 1);
        if matches <= first {
            0
        } else {
            (matches - first).div_ceil(u64::from(self.count))
        }
    }
}

/// What a tournament is: its programs in order and the settings of its matches.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Field {
    pub format_version: u32,
    pub programs: Vec<String>,
    pub board: String,
    pub scenario: u8,
    pub robots: usize,
    pub rounds: u32,
    /// The first and last seed index.
    pub seeds: [u32; 2],
}

impl Field {
    pub fn new(names: &[String], config: &Config, board: &str) -> Field {
        Field {
            format_version: 1,
            programs: names.to_vec(),
            board: board.to_string(),
            scenario: config.scenario.number(),
            robots: config.robots,
            rounds: config.rules.rounds,
            seeds: [*config.seeds.start(), *config.seeds.end()],
        }
    }

    pub fn matches(&self) -> u64 {
        schedule_len(self.programs.len(), &(self.seeds[0]..=self.seeds[1]))
    }

    /// What is wrong with a field read from a part: every size bounded as the command line
    /// bounds it, before anything is built from it.
    pub fn check(&self) -> Result<(), PartError> {
        let [first, last] = self.seeds;
        if self.format_version != 1 {
            return Err(PartError::Version(self.format_version));
        }
        if !(2..=MAX_ENTRANTS).contains(&self.programs.len()) {
            return Err(PartError::Programs(self.programs.len()));
        }
        if let Some(name) = self
            .programs
            .iter()
            .find(|n| n.is_empty() || n.len() > MAX_NAME_BYTES)
        {
            return Err(PartError::NameLength(name.len()));
        }
        let mut sorted: Vec<&str> = self.programs.iter().map(String::as_str).collect();
        sorted.sort_unstable();
        if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
            return Err(PartError::SameName(escape(w[0]).into_owned()));
        }
        if self.board.len() > MAX_BOARD_BYTES {
            return Err(PartError::BoardLength(self.board.len()));
        }
        if !(1..=3).contains(&self.scenario) {
            return Err(PartError::Scenario(self.scenario));
        }
        if !(1..=MAX_TEAM_ROBOTS).contains(&self.robots) {
            return Err(PartError::Robots(self.robots));
        }
        if !(1..=MAX_ROUNDS).contains(&self.rounds) {
            return Err(PartError::Rounds(self.rounds));
        }
        if first > last {
            return Err(PartError::Seeds(first, last));
        }
        if self.matches() > MAX_MATCHES {
            return Err(PartError::Matches(self.matches()));
        }
        Ok(())
    }

    /// The programs' indices by name.
    pub fn index(&self) -> HashMap<String, usize> {
        self.programs
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), i))
            .collect()
    }

    /// The number of `game` in the unsharded order (`super::schedule`).
    fn position(&self, game: Game) -> u64 {
        let n = self.programs.len() as u64;
        let (a, b) = (game.a as u64, game.b as u64);
        let pair = a * n - a * (a + 1) / 2 + (b - a - 1);
        let per_seed = u64::from(self.seeds[1] - self.seeds[0]) + 1;
        (pair * 2 + u64::from(game.swapped)) * per_seed + u64::from(game.seed_index - self.seeds[0])
    }
}

/// A part's first line.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    tournament: Field,
    /// `[I, N]`: shard I of N.
    shard: [u32; 2],
}

/// One match, as a shard writes it.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    green: String,
    violet: String,
    seed_index: u32,
    seed: u64,
    /// `green`, `violet`, or null for a draw.
    winner: Option<String>,
    rounds: u32,
    reason: String,
}

/// A shard's output: its header, then a line per match played, in order.
pub fn shard_lines(field: &Field, shard: Shard, results: &[Option<GameResult>]) -> String {
    let header = Header {
        tournament: field.clone(),
        shard: [shard.index, shard.count],
    };
    let mut out = serde_json::to_string(&header).unwrap_or_default() + "\n";
    for r in results.iter().flatten() {
        out += &match_line(&field.programs, r);
        out.push('\n');
    }
    out
}

/// One match as a JSON line (without its line break), the programs named from `programs`.
pub fn match_line(programs: &[String], r: &GameResult) -> String {
    let (green, violet) = if r.game.swapped {
        (r.game.b, r.game.a)
    } else {
        (r.game.a, r.game.b)
    };
    let green_won = (r.score == Score::Win) != r.game.swapped;
    let line = Line {
        green: programs[green].clone(),
        violet: programs[violet].clone(),
        seed_index: r.game.seed_index,
        seed: r.seed,
        winner: match r.score {
            Score::Draw => None,
            _ if green_won => Some("green".into()),
            _ => Some("violet".into()),
        },
        rounds: r.rounds,
        reason: reason_code(r.reason).into(),
    };
    serde_json::to_string(&line).unwrap_or_default()
}

/// A match line read back and checked against the tournament `f` (`names`: its programs'
/// indices, [`Field::index`]): its programs, seed index and seed. The error is the line's
/// fault in words.
pub fn read_match_line(
    f: &Field,
    names: &HashMap<String, usize>,
    text: &str,
) -> Result<GameResult, PartError> {
    let line: Line = serde_json::from_str(text).map_err(|e| PartError::NotAMatchLine(short(&e)))?;
    result(f, names, &line)
}

/// A match line checked against the tournament: its programs, seed index and seed.
fn result(f: &Field, names: &HashMap<String, usize>, line: &Line) -> Result<GameResult, PartError> {
    let index = |name: &str| {
        names
            .get(name)
            .copied()
            .ok_or_else(|| PartError::NotAProgram(escape(name).into_owned()))
    };
    let (green, violet) = (index(&line.green)?, index(&line.violet)?);
    if green == violet || !(f.seeds[0]..=f.seeds[1]).contains(&line.seed_index) {
        return Err(PartError::NotAMatch);
    }
    if game_seed(&line.green, &line.violet, line.seed_index) != line.seed {
        return Err(PartError::Seed);
    }
    let swapped = green > violet;
    let green_score = match line.winner.as_deref() {
        None => Score::Draw,
        Some("green") => Score::Win,
        Some("violet") => Score::Loss,
        Some(other) => return Err(PartError::Winner(escape(other).into_owned())),
    };
    Ok(GameResult {
        game: Game {
            a: green.min(violet),
            b: green.max(violet),
            swapped,
            seed_index: line.seed_index,
        },
        seed: line.seed,
        score: if swapped {
            green_score.flip()
        } else {
            green_score
        },
        rounds: line.rounds,
        reason: reason_from_code(&line.reason)
            .ok_or_else(|| PartError::Reason(escape(&line.reason).into_owned()))?,
    })
}

fn short(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let cut: String = text.chars().take(160).collect();
    escape(&cut).into_owned()
}

/// A hill's results (or any list of match lines of one field), read line by line: each
/// match checked against the field, none twice.
pub struct Results<'a> {
    field: &'a Field,
    names: HashMap<String, usize>,
    /// Each match seen, with the number of its line.
    seen: BTreeMap<Game, u64>,
    results: Vec<GameResult>,
}

impl<'a> Results<'a> {
    pub fn new(field: &'a Field) -> Results<'a> {
        Results {
            field,
            names: field.index(),
            seen: BTreeMap::new(),
            results: Vec::new(),
        }
    }

    /// Line `number` of the list.
    pub fn line(&mut self, number: u64, text: &str) -> Result<(), PartError> {
        let r = read_match_line(self.field, &self.names, text)?;
        if let Some(other) = self.seen.insert(r.game, number) {
            return Err(PartError::SameAs(other));
        }
        self.results.push(r);
        Ok(())
    }

    /// The results, in the order of their games.
    pub fn finish(mut self) -> Vec<GameResult> {
        self.results.sort_by_key(|r| r.game);
        self.results
    }
}

/// What the parts of a sharded tournament hold.
pub struct Merged {
    pub field: Field,
    /// Every result of the parts, in the unsharded order.
    pub results: Vec<GameResult>,
    /// The shards of no part, by number (1 to N).
    pub missing: Vec<u32>,
    /// The shards cut short: number, matches there, matches of the shard.
    pub short: Vec<(u32, u64, u64)>,
    pub count: u32,
}

impl Merged {
    /// What is missing, in words, or `None` when the tournament is whole.
    pub fn gaps(&self) -> Option<String> {
        let mut said = Vec::new();
        if !self.missing.is_empty() {
            let numbers: Vec<String> = self.missing.iter().map(u32::to_string).collect();
            let noun = if self.missing.len() == 1 {
                "shard"
            } else {
                "shards"
            };
            said.push(format!(
                "missing {noun} {} of {}",
                numbers.join(", "),
                self.count
            ));
        }
        for (index, have, of) in &self.short {
            said.push(format!(
                "shard {index} of {} cut short ({have} of its {of} matches)",
                self.count
            ));
        }
        (!said.is_empty()).then(|| said.join("; "))
    }
}

/// The parts of one tournament read back: a part's header ([`Merge::header`]), then its
/// match lines ([`Merge::line`]), part after part; [`Merge::finish`] says what is there.
/// Errors are in words; the caller adds the file and line.
#[derive(Default)]
pub struct Merge {
    field: Option<Field>,
    /// The field's programs' indices by name.
    names: HashMap<String, usize>,
    /// Each shard's part, by the name the caller gave it.
    shards: BTreeMap<u32, String>,
    count: u32,
    results: BTreeMap<u64, GameResult>,
    per_shard: BTreeMap<u32, u64>,
    /// The shard of the part being read.
    current: Option<Shard>,
}

impl Merge {
    pub fn new() -> Merge {
        Merge::default()
    }

    /// The header of the part `name`: its tournament (the same as the other parts') and its
    /// shard (not seen before). Bounded before it is used.
    pub fn header(&mut self, name: &str, text: &str) -> Result<(), PartError> {
        self.current = None;
        let header: Header =
            serde_json::from_str(text).map_err(|e| PartError::NotAPart(short(&e)))?;
        let [index, n] = header.shard;
        let shard = Shard::new(index, n).ok_or(PartError::NoShard { index, count: n })?;
        match &self.field {
            None => {
                header.tournament.check()?;
                self.names = header.tournament.index();
                self.count = n;
                self.field = Some(header.tournament);
            }
            Some(f) if *f != header.tournament || self.count != n => {
                return Err(PartError::OtherTournament);
            }
            Some(_) => {}
        }
        if let Some(other) = self.shards.insert(index, name.to_string()) {
            return Err(PartError::Again {
                index,
                count: n,
                other,
            });
        }
        self.per_shard.insert(index, 0);
        self.current = Some(shard);
        Ok(())
    }

    /// A match line of the part whose header was read last.
    pub fn line(&mut self, text: &str) -> Result<(), PartError> {
        let (Some(f), Some(shard)) = (&self.field, self.current) else {
            return Err(PartError::NoHeader);
        };
        let r = read_match_line(f, &self.names, text)?;
        let at = f.position(r.game);
        if !shard.holds(at) {
            return Err(PartError::OtherShard {
                index: shard.index,
                count: shard.count,
            });
        }
        if self.results.insert(at, r).is_some() {
            return Err(PartError::Twice);
        }
        *self.per_shard.entry(shard.index).or_default() += 1;
        Ok(())
    }

    /// The tournament and every result of its parts, in the unsharded order, with the
    /// shards that are missing or cut short.
    pub fn finish(self) -> Result<Merged, PartError> {
        let field = self.field.ok_or(PartError::NoParts)?;
        let missing = (1..=self.count)
            .filter(|i| !self.shards.contains_key(i))
            .collect();
        let matches = field.matches();
        let count = self.count;
        let short = self
            .per_shard
            .into_iter()
            .map(|(index, have)| (index, have, Shard { index, count }.len(matches)))
            .filter(|(_, have, of)| have < of)
            .collect();
        Ok(Merged {
            field,
            results: self.results.into_values().collect(),
            missing,
            short,
            count,
        })
    }
}
