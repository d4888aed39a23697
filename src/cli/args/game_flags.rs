//! The clap types of the token games (`robots ricochet …`, `robots micro …`) and the picture
//! flags every board command shares.

use clap::builder::RangedU64ValueParser;
use clap::{Args, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Pictures of a board or a position (docs/FORMATS.md, "Pictures"): written instead of the
/// text drawing, each named on standard error.
#[derive(Args, Clone, Debug, Default)]
pub struct PictureArgs {
    /// Write the picture as SVG to FILE (`-`: standard output) instead of the text drawing.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Write the picture as PNG to FILE (`-`: standard output, never a terminal) instead of
    /// the text drawing.
    #[arg(long, value_name = "FILE")]
    pub png: Option<PathBuf>,
}

impl PictureArgs {
    /// Whether a picture is asked for.
    pub fn wanted(&self) -> bool {
        self.svg.is_some() || self.png.is_some()
    }
}

/// A random Ricochets board (RULES B.2): barriers anywhere, some at right angles, others
/// alone, a base and a target per robot, every target reachable from the bases.
#[derive(Args, Clone, Debug, Default)]
pub struct RandomBoard {
    /// Draw a random Ricochets board instead of reading one (RULES B.2): every robot reaches
    /// its target from the bases under R-B1 and R-B2, as a game's first mission starts
    /// (checked with the solver, within 20 moves). The same --seed draws the board that
    /// `ricochet play --random-board --seed N` plays on (at the default size).
    #[arg(long)]
    pub random: bool,
    /// The board's width and height, 4 to 64 cells a side, 4,096 cells at most [default:
    /// 16x16].
    #[arg(long, value_name = "WxH", value_parser = size)]
    pub size: Option<(u16, u16)>,
    /// How many barriers (wall segments; a right angle is two), a quarter of the cells at
    /// most [default: 40 on 16x16, as many for their area on other sizes].
    #[arg(long, value_name = "N")]
    pub barriers: Option<u16>,
    /// Close a 2x2 block in the middle with the 8-barrier enclosure (not counted in
    /// --barriers).
    #[arg(long)]
    pub centre: bool,
    /// The seed of the draw: the same seed, size and barriers give the same board [default:
    /// 1].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Write the board as a custom board file to FILE (`-`: standard output; an existing
    /// file is replaced); the drawing still goes to standard output unless the file does.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

impl RandomBoard {
    /// The flags given that only a random board takes (clap's `requires` would count the
    /// default of `--random` as given).
    pub fn stray(&self) -> Option<&'static str> {
        [
            (self.size.is_some(), "--size"),
            (self.barriers.is_some(), "--barriers"),
            (self.centre, "--centre"),
            (self.seed.is_some(), "--seed"),
            (self.out.is_some(), "--out"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
    }
}

/// A size such as `16x16`: two numbers, checked by the generator.
fn size(text: &str) -> Result<(u16, u16), String> {
    let bad = || {
        format!(
            "`{}`: a size is WIDTHxHEIGHT, such as 16x16",
            robots_games::text::escape(text)
        )
    };
    let (w, h) = text.split_once(['x', 'X', '×']).ok_or_else(bad)?;
    let side = |t: &str| t.trim().parse::<u16>().map_err(|_| bad());
    Ok((side(w)?, side(h)?))
}

/// A rule switched on or off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OnOff {
    On,
    Off,
}

impl OnOff {
    pub fn on(self) -> bool {
        self == OnOff::On
    }
}

/// What `robots ricochet --help` says `solve` is.
const SOLVE_ABOUT: &str =
    "Fewest moves to the target, and the moves (exit 1 if none within the limit)";

// `robots ricochet solve`'s flags (no doc comment: the command's description is its
// variant's).
#[derive(Args)]
pub struct SolveArgs {
    /// A Ricochet position file (YAML): board, robots, target.
    #[arg(
        value_name = "POSITION",
        required_unless_present = "id",
        conflicts_with = "id"
    )]
    pub position: Option<PathBuf>,
    /// A game id instead of a file, such as 0765+42+2E21BD0F+93 (docs/FORMATS.md, "Game
    /// ids").
    #[arg(long, value_name = "GAMEID")]
    pub id: Option<String>,
    /// With --id: whether the active robot must ricochet (R-B1); a game id has no rules.
    #[arg(long, value_enum, default_value_t = OnOff::On, requires = "id")]
    pub must_ricochet: OnOff,
    /// Print the solution as one JSON object: {"moves": n, "solution": [{"robot":
    /// "blue", "dir": "N"}, ...]} (the exit code is the same).
    #[arg(long)]
    pub json: bool,
    /// Give up (exit 1) when the fewest moves are more than this.
    #[arg(long, default_value_t = 40)]
    pub max_moves: u32,
    /// Give up (exit 1) once the search holds this many states (about 150 bytes each in
    /// the general search; the parallel search of standard positions counts 16 as one).
    #[arg(long, default_value_t = robots_games::ricochet::solve::Budget::DEFAULT_STATES,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_states: u64,
    /// List every distinct optimal solution (distinct move sequences), sorted: by the
    /// first move, then the next, each by robot (red, green, blue, yellow, silver,
    /// transparent), direction (N, E, S, W) and the transparent robot's stop.
    #[arg(long)]
    pub all: bool,
    /// With --all: list at most this many solutions (the count is still told whole).
    #[arg(long, requires = "all", default_value_t = 100,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub limit: u64,
}

/// `ricochet solve` alone, which `robots ricochet solve …` is read with first (see
/// `flags::RicochetCli`).
#[derive(Subcommand)]
pub enum SolveOnly {
    #[command(about = SOLVE_ABOUT)]
    Solve(SolveArgs),
}

impl From<SolveOnly> for RicochetCommand {
    fn from(only: SolveOnly) -> RicochetCommand {
        let SolveOnly::Solve(args) = only;
        RicochetCommand::Solve(args)
    }
}

#[derive(Subcommand)]
pub enum RicochetCommand {
    /// Draw a position, or a custom board file, with walls, targets and robots; or draw a
    /// random Ricochets board (--random).
    Board {
        /// A Ricochet position file, or a custom Ricochet board file (YAML).
        #[arg(
            value_name = "POSITION",
            required_unless_present_any = ["random", "id"],
            conflicts_with_all = ["random", "id"]
        )]
        position: Option<PathBuf>,
        /// A game id instead of a file, such as 0765+42+2E21BD0F+93 (docs/FORMATS.md, "Game
        /// ids").
        #[arg(long, value_name = "GAMEID", conflicts_with = "random")]
        id: Option<String>,
        #[command(flatten)]
        picture: PictureArgs,
        /// Solve the position (as `ricochet solve` does, within 40 moves) and draw each
        /// move on the picture as a numbered arrow (needs --svg or --png).
        #[arg(long, conflicts_with = "random")]
        solution: bool,
        /// Print the position as one JSON object instead of the drawing: each cell's closed
        /// sides as bits, the robots and the goal (docs/FORMATS.md, "A position as JSON").
        #[arg(long, conflicts_with_all = ["random", "solution", "svg", "png"])]
        json: bool,
        #[command(flatten)]
        random: RandomBoard,
    },
    #[command(about = SOLVE_ABOUT)]
    Solve(SolveArgs),
    /// A hint: level 1 the fewest moves, 2 which robots move, 3 a first move; nothing more.
    Hint {
        /// A Ricochet position file (YAML): board, robots, target.
        #[arg(value_name = "POSITION")]
        position: PathBuf,
        /// 1: the fewest moves; 2: the robots that move in every optimal solution, and those
        /// that move in some; 3: the first move of an optimal solution.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=3))]
        level: u8,
        /// Give up (exit 1) when the fewest moves are more than this.
        #[arg(long, default_value_t = 40)]
        max_moves: u32,
        /// Give up (exit 1) once a search holds this many states.
        #[arg(long, default_value_t = robots_games::ricochet::solve::Budget::DEFAULT_STATES,
              value_parser = clap::value_parser!(u64).range(1..))]
        max_states: u64,
    },
    /// The start positions that need the most moves, for one target of one board: every
    /// placement of the robots on the free cells, searched backward from the target (R-B1
    /// off unless --must-ricochet; R-B2 off).
    Hardest {
        /// A custom board file, a position file (its board, and its target unless --target),
        /// or four quarters NW,NE,SE,SW such as 1A,2A,3A,4A.
        #[arg(value_name = "BOARD")]
        board: String,
        /// The target: a colour and a symbol printed on the board ("red circle", "any
        /// vortex"), or a cell and a robot ("4 7 red", "4 7 any").
        #[arg(long)]
        target: Option<String>,
        /// How many robots: the target's, then the others in colour order (red, green, blue,
        /// yellow, silver).
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(1..=5))]
        robots: u8,
        /// How many of the hardest start positions to print (smallest index first).
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(0..=1000))]
        show: u64,
        /// Refuse when the placements (one byte each) would take more than this many MiB.
        #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..=65536))]
        max_memory: u64,
        /// Threads to search on [default: every core]. The answer is the same for any number.
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
        jobs: Option<u16>,
        /// R-B1 on: the goal robot must turn (coloured targets only; four times the memory).
        #[arg(long)]
        must_ricochet: bool,
    },
    /// Solve a fixed set of positions; print time and peak memory for each.
    Bench {
        /// Print the figures as one JSON object (docs/FORMATS.md, "Benchmark figures").
        #[arg(long)]
        json: bool,
        /// Time the positions of a file of game ids (one a line; `#` comments and blank lines
        /// skipped) instead of the shipped set, and end with the median, p99 and maximum.
        #[arg(long, value_name = "FILE")]
        ids: Option<PathBuf>,
        /// With --ids: whether the active robot must ricochet (R-B1); a game id has no rules.
        #[arg(long, value_enum, default_value_t = OnOff::On, requires = "ids")]
        must_ricochet: OnOff,
    },
    /// Play a game: targets drawn, bids, demonstrations, tokens.
    Play(RicochetPlay),
    /// Write a random position on a random original board.
    Random {
        /// The seed of the draw: the same seed gives the same position.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// How many robots: 4, or 5 with the silver robot.
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(4..=5))]
        robots: u64,
        /// Print the position's game id (docs/FORMATS.md, "Game ids") instead of a position
        /// file.
        #[arg(long)]
        id: bool,
    },
    /// Replay a proposed solution, such as "blue N, red W, blue E", and say if it is valid.
    Check {
        /// A Ricochet position file (YAML).
        #[arg(value_name = "POSITION")]
        position: PathBuf,
        /// The moves, each a colour and a direction (N, E, S, W), separated by commas.
        #[arg(value_name = "MOVES")]
        moves: String,
        /// Print the verdict as one JSON object: {"valid": true, "moves": n} or {"valid":
        /// false, "reason": "..."} (the exit code is the same).
        #[arg(long)]
        json: bool,
    },
}

#[derive(Subcommand)]
pub enum MicroCommand {
    /// Draw a board (a board file, a face file, or a shipped face: public-silver,
    /// public-copper, silver, copper).
    Board {
        /// A Micro Robots board file, a face file, or a shipped face: public-silver,
        /// public-copper (tile sets found in public programs), silver, copper (stand-ins).
        #[arg(value_name = "BOARD")]
        board: String,
        #[command(flatten)]
        picture: PictureArgs,
    },
    /// Fewest moves from one cell to another, and the path (exit 1 if there is none).
    Solve {
        /// A Micro Robots board file, a face file, or a shipped face: public-silver,
        /// public-copper (tile sets found in public programs), silver, copper (stand-ins).
        #[arg(value_name = "BOARD")]
        board: String,
        /// The start cell, such as P1.
        #[arg(long)]
        from: String,
        /// The target cell, such as W2.
        #[arg(long)]
        to: String,
        /// A waypoint cell the robot must stop on before the target, such as R3.
        #[arg(long)]
        via: Option<String>,
        /// Print the path as one JSON object: {"moves": n, "path": ["P1", ...]} (the exit
        /// code is the same).
        #[arg(long)]
        json: bool,
    },
    /// Every arrangement of a face's tiles: optimal lengths, hardest pairs, worst cases.
    Analyse {
        /// A Micro Robots face file, or a shipped face: public-silver, public-copper (tile
        /// sets found in public programs), silver, copper (stand-ins).
        #[arg(value_name = "FACE")]
        face: String,
        /// Print the analysis as one JSON object (its fields are those of the report).
        #[arg(long)]
        json: bool,
    },
    /// Play a game: dice, announcements, demonstrations, tokens.
    Play(MicroPlay),
}

/// The rules of a game of Micro Robots (RULES C.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MicroVariant {
    /// A token on the rolled target.
    Standard,
    /// A first roll to stop on, then the target.
    Waypoint,
    /// No token on the target: the mission starts at the roll.
    NoToken,
}

/// A table of the token games seats 2 to 8 players.
fn players() -> RangedU64ValueParser<usize> {
    RangedU64ValueParser::new().range(2..=8)
}

/// The flags of `robots ricochet play`.
#[derive(Args)]
pub struct RicochetPlay {
    /// How many players in all (humans included): 2 to 8.
    #[arg(long, default_value_t = 3, value_parser = players())]
    pub players: usize,
    /// The seed of the game's draws; with no --board, it also draws the board.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A human player, who bids and shows moves at the terminal (repeat for more). Live
    /// when standard input and standard error are terminals: the clock is real, a countdown
    /// shows the sand timer, bids and lower bids go in with Enter until it runs out. Otherwise
    /// the answers are a script, a line each, on a virtual clock: `@SECONDS` starts a line
    /// that has a time (docs/FORMATS.md, "Ricochet play scripts"). `pass` ends a human's
    /// bidding for the round; `quit` or the end of the input ends the game with the scores.
    #[arg(long = "human", value_name = "NAME")]
    pub humans: Vec<String>,
    /// The computer players' strength, 1 to 4: how far they see (6, 9, 12 moves, or as far
    /// as the solver goes), how fast they bid and how rarely they are wrong. Ricochet has a
    /// fourth level because its positions can be far deeper than a Micro Robots mission.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=4))]
    pub strength: u8,
    /// A custom board file; with robot bases it is a game of Ricochets (RULES B.2)
    /// [default: original quarter boards drawn from --seed].
    #[arg(long, value_name = "FILE")]
    pub board: Option<PathBuf>,
    /// Play Ricochets (RULES B.2) on a random 16x16 board drawn from --seed, the board
    /// `ricochet board --random --seed N` draws: 40 barriers, every robot able to reach its
    /// target from the bases.
    #[arg(long, conflicts_with = "board")]
    pub random_board: bool,
    /// Turn off R-B1 (the active robot need not turn).
    #[arg(long)]
    pub no_ricochet: bool,
    /// Print the game's record as JSON Lines instead of its log: the setup, a line a round,
    /// the scores (docs/FORMATS.md, "Game records"); questions to humans go to stderr.
    #[arg(long)]
    pub json: bool,
}

/// The flags of `robots micro play`.
#[derive(Args)]
pub struct MicroPlay {
    /// How many players in all (humans included): 2 to 8.
    #[arg(long, default_value_t = 3, value_parser = players())]
    pub players: usize,
    /// The seed of the game's dice and of the arrangement of the face's tiles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The rules: standard, waypoint (a cell to stop on first) or no-token.
    #[arg(long, value_enum, default_value_t = MicroVariant::Standard)]
    pub variant: MicroVariant,
    /// A human player, who answers at the terminal (repeat for more).
    #[arg(long = "human", value_name = "NAME")]
    pub humans: Vec<String>,
    /// The computer players' strength, 1 to 3: how fast they announce and how rarely they
    /// are wrong (1: slow, wrong a quarter of the time; 3: fast, wrong one time in twenty).
    /// Every Micro Robots mission is within their sight, so there is no level for depth.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=3))]
    pub strength: u8,
    /// The face to play on: public-silver, public-copper (tile sets found in public
    /// programs), silver, copper (stand-ins) or a face file; its tiles are arranged at random.
    #[arg(long, default_value = robots_games::micro::shipped::DEFAULT_FACE)]
    pub face: String,
    /// Print the game's record as JSON Lines instead of its log: the setup, a line a
    /// mission, the scores (docs/FORMATS.md, "Game records"); questions to humans go to
    /// stderr.
    #[arg(long)]
    pub json: bool,
}
