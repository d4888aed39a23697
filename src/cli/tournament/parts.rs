//! Shards (docs/SCALE.md): a shard prints a header line naming the tournament and its share,
//! then one JSON line per match played; `merge` reads every shard back, checks that each
//! match of the tournament is there once and belongs where it says, and gives the results
//! in the order of the unsharded run.

use super::super::flags::Shard;
use super::super::output::Failure;
use super::super::replay::Lines;
use robots::battle::report::{reason_code, reason_from_code};
use robots::battle::tournament::{Config, Game, GameResult, Score, game_seed, schedule_len};
use robots::text::escape;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

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

    /// The number of `game` in the unsharded order (`robots::battle::tournament::schedule`).
    fn position(&self, game: Game) -> u64 {
        let n = self.programs.len() as u64;
        let (a, b) = (game.a as u64, game.b as u64);
        let pair = a * n - a * (a + 1) / 2 + (b - a - 1);
        let per_seed = u64::from(self.seeds[1] - self.seeds[0]) + 1;
        (pair * 2 + u64::from(game.swapped)) * per_seed + u64::from(game.seed_index - self.seeds[0])
    }
}

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
/// indices): its programs, seed index and seed. The error is the line's fault in words.
pub fn read_match_line(
    f: &Field,
    names: &HashMap<&str, usize>,
    text: &str,
) -> Result<GameResult, String> {
    let line: Line =
        serde_json::from_str(text).map_err(|e| format!("not a match line: {}", short(&e)))?;
    result(f, names, &line)
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
            said.push(format!(
                "missing {} {} of {}",
                if self.missing.len() == 1 {
                    "shard"
                } else {
                    "shards"
                },
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

/// The matches of shard `index` of `count` among `matches` (those numbered `index - 1`
/// modulo `count`).
fn shard_len(matches: u64, index: u32, count: u32) -> u64 {
    let first = u64::from(index - 1);
    if matches <= first {
        0
    } else {
        (matches - first).div_ceil(u64::from(count))
    }
}

/// The tournament and every result of its parts, in the unsharded order, with the shards
/// that are missing or cut short.
pub fn merge(parts: &[PathBuf]) -> Result<Merged, Failure> {
    let mut field: Option<Field> = None;
    let mut shards: BTreeMap<u32, String> = BTreeMap::new();
    let mut count = 0;
    let mut results: BTreeMap<u64, GameResult> = BTreeMap::new();
    let mut per_shard: BTreeMap<u32, u64> = BTreeMap::new();
    for path in parts {
        let mut lines = Lines::open(path)?;
        let shown = lines.shown().to_string();
        let err = |number: u64, m: String| Failure::Bad(format!("{shown}:{number}: error: {m}"));
        let first = lines
            .next(robots::battle::replay::MAX_HEADER_BYTES)?
            .ok_or_else(|| err(1, "the part is empty".into()))?;
        let header: Header = serde_json::from_str(&first).map_err(|e| {
            err(
                1,
                format!(
                    "not the output of `robots tournament --shard`: {}",
                    short(&e)
                ),
            )
        })?;
        match &field {
            None => {
                count = header.shard[1];
                field = Some(header.tournament);
            }
            Some(f) if *f != header.tournament || count != header.shard[1] => {
                return Err(err(
                    1,
                    "a part of another tournament (other programs, settings or shard count)".into(),
                ));
            }
            Some(_) => {}
        }
        let [index, n] = header.shard;
        if index == 0 || index > n {
            return Err(err(1, format!("shard {index}/{n} is no shard")));
        }
        if let Some(other) = shards.insert(index, shown.clone()) {
            return Err(err(1, format!("shard {index}/{n} again (also {other})")));
        }
        let f = field
            .as_ref()
            .ok_or_else(|| err(1, "no tournament".into()))?;
        let names: HashMap<&str, usize> = f
            .programs
            .iter()
            .enumerate()
            .map(|(i, n)| (n.as_str(), i))
            .collect();
        let mut have = 0;
        while let Some(text) = lines.next(robots::battle::replay::MAX_TURN_BYTES)? {
            let number = lines.number();
            let r = read_match_line(f, &names, &text).map_err(|m| err(number, m))?;
            let at = f.position(r.game);
            if at % u64::from(n) != u64::from(index - 1) {
                return Err(err(
                    number,
                    format!("a match of another shard than {index}/{n}"),
                ));
            }
            if results.insert(at, r).is_some() {
                return Err(err(number, "the same match twice".into()));
            }
            have += 1;
        }
        per_shard.insert(index, have);
    }
    let field = field.ok_or_else(|| Failure::Bad("no parts".into()))?;
    let missing = (1..=count).filter(|i| !shards.contains_key(i)).collect();
    let matches = field.matches();
    let short = per_shard
        .into_iter()
        .map(|(index, have)| (index, have, shard_len(matches, index, count)))
        .filter(|(_, have, of)| have < of)
        .collect();
    Ok(Merged {
        field,
        results: results.into_values().collect(),
        missing,
        short,
        count,
    })
}

/// A match line checked against the tournament: its programs, seed index and seed.
fn result(f: &Field, names: &HashMap<&str, usize>, line: &Line) -> Result<GameResult, String> {
    let index = |name: &str| {
        names
            .get(name)
            .copied()
            .ok_or_else(|| format!("`{}` is not a program of this tournament", escape(name)))
    };
    let (green, violet) = (index(&line.green)?, index(&line.violet)?);
    if green == violet || !(f.seeds[0]..=f.seeds[1]).contains(&line.seed_index) {
        return Err("not a match of this tournament".into());
    }
    if game_seed(&line.green, &line.violet, line.seed_index) != line.seed {
        return Err("the seed is not the one this match is played with".into());
    }
    let swapped = green > violet;
    let green_score = match line.winner.as_deref() {
        None => Score::Draw,
        Some("green") => Score::Win,
        Some("violet") => Score::Loss,
        Some(other) => return Err(format!("winner `{}`: green, violet or null", escape(other))),
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
            .ok_or_else(|| format!("reason `{}` is no end reason", escape(&line.reason)))?,
    })
}

fn short(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let cut: String = text.chars().take(160).collect();
    escape(&cut).into_owned()
}
