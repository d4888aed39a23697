//! Flags shared by the command line's files: the seed range, the program language, and a
//! hill's settings (`robots hill DIR init`, `robots serve hill create`).

use clap::{Args, ValueEnum};

/// The program language (RULES A.4), or with the TI-57 keywords (A.12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Default)]
pub enum KeywordsArg {
    /// The language of RULES A.4; programs of 15 steps.
    #[default]
    Plain,
    /// Plus the calculator keywords (LBL, GTO, SBR, STO, RCL, DSZ, …); programs of 50 steps.
    Ti57,
}

impl KeywordsArg {
    pub fn language(self) -> robots_games::battle::lang::Keywords {
        match self {
            KeywordsArg::Plain => robots_games::battle::lang::Keywords::Plain,
            KeywordsArg::Ti57 => robots_games::battle::lang::Keywords::Ti57,
        }
    }
}

/// The seed indices: `N` for 1 to N, or `A..B` (both included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seeds(pub std::ops::RangeInclusive<u32>);

impl std::str::FromStr for Seeds {
    type Err = String;

    fn from_str(text: &str) -> Result<Seeds, String> {
        let number = |t: &str| {
            t.trim()
                .parse::<u32>()
                .map_err(|_| format!("`{t}` is not a seed index (0 to 4294967295)"))
        };
        let (first, last) = match text.split_once("..") {
            Some((a, b)) => (number(a)?, number(b.trim_start_matches('='))?),
            None => (1, number(text)?),
        };
        if first > last || (first == 1 && last == 0) {
            return Err(format!(
                "`{text}` holds no seed: give N (1 to N) or A..B with A <= B"
            ));
        }
        if u64::from(last - first) >= 1_000_000 {
            return Err(format!("`{text}`: at most 1,000,000 seeds"));
        }
        Ok(Seeds(first..=last))
    }
}

/// `robots hill DIR init`: the settings of every match on the hill, fixed for its life.
#[derive(Args, Clone, Debug)]
pub struct HillInit {
    /// How many programs the hill holds (1 to 999): beyond it, the last is pushed off.
    #[arg(long, value_name = "H", default_value_t = 10, value_parser = clap::value_parser!(u16).range(1..=999))]
    pub size: u16,
    /// The seed indices of each pairing and colour assignment: N (1 to N) or A..B.
    #[arg(long, default_value = "20")]
    pub seeds: Seeds,
    /// The board: a shipped board's name (classic, duel, melee) or a board file, copied into
    /// the hill as board.yaml.
    #[arg(long, default_value = "classic")]
    pub board: String,
    /// The scenario: 1 destroy every enemy robot, 2 enter the enemy camp, 3 hit the enemy
    /// computer.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=3))]
    pub scenario: u8,
    /// Robots a side: K copies of the side's program (1 to 9).
    #[arg(long, value_name = "K", default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=9))]
    pub robots: u8,
    /// The round limit of every match: reaching it is a draw (R-A18).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub rounds: u32,
    /// The program language: plain, or ti57 with the calculator keywords and 50 steps
    /// (RULES A.12).
    #[arg(long, value_enum, default_value_t = KeywordsArg::Plain)]
    pub keywords: KeywordsArg,
}

/// A match from the command line (`robots run`, `robots debug`): its teams and their
/// programs, with no match file.
#[derive(Args, Clone, Debug, Default)]
pub struct TeamArgs {
    /// Without a MATCH: a team and its program (a `.robot` file, with or without `.robot`,
    /// or a shipped name), in play order; 2 to 6 of them.
    #[arg(long = "team", value_name = "COLOUR=PROGRAM", conflicts_with = "file")]
    pub teams: Vec<String>,
    /// With --team: robots a team, K copies of its program (1 to 9).
    #[arg(long, value_name = "K", default_value_t = 3, requires = "teams")]
    pub robots: usize,
    /// With --team: the board, a shipped board's name (classic, duel, melee) or a board file.
    #[arg(long, default_value = "classic", requires = "teams")]
    pub board: String,
}
