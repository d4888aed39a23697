//! The administration's operations (docs/ARENA.md, "Administration"), run on the server's
//! machine against its database: create and list hills, make an account an administrator,
//! back the database up; and the demo hill of `--demo`. The commands' flags and files
//! (`robots serve hill …`, `serve admin`, `serve backup`) are the binary's.

use super::db::ids::HillId;
use super::db::{Db, DbError, now};
use super::store::{self, Hill};
use robots_games::battle::compare::tournament::hill::is_safe_name;
use robots_games::battle::compare::tournament::hill_file::{self, HillSettings, OWN_BOARD};
use robots_games::battle::compare::tournament::{self, Entrant};
use robots_games::battle::engine::SetupError;
use robots_games::battle::files::{board_file, match_file, shipped};
use robots_games::battle::terrain::TeamColour;
use robots_games::text::diagnostic::Diagnostic;
use robots_games::text::escape;
use std::path::Path;

/// Why a hill cannot be made (or the demo hill set up).
#[derive(Debug, thiserror::Error)]
pub enum AdminError {
    #[error("a hill's name is 1 to 64 ASCII letters, digits, `_` and `-`")]
    Name,
    #[error("board `{}`: a shipped board's name (classic, duel, melee)", escape(.0))]
    NotShipped(String),
    /// The board's file (read by the caller), or the board, or the sample program, does not
    /// load.
    #[error("{0}")]
    Load(Diagnostic),
    #[error("{0}")]
    Settings(#[from] hill_file::HillError),
    #[error("a placement would play up to {0} matches (size × 2 × seeds); at most {MAX_PLACEMENT}")]
    TooBig(u64),
    #[error("the board does not load")]
    Board,
    #[error("no shipped program")]
    NoSample,
    #[error("no match can be set up on this hill: {0}")]
    NoMatch(SetupError),
    #[error(transparent)]
    StartPoints(#[from] StartPointsError),
    #[error("no demo account")]
    NoDemoAccount,
    #[error("{0}")]
    Db(#[from] DbError),
}

/// K robots a side do not always find a start point (RULES A.7).
#[derive(Debug, thiserror::Error)]
#[error(
    "{k} robots a side do not always find a start point on this board: the {colour} camp has {own} and the board {outer} outer ones"
)]
pub struct StartPointsError {
    pub k: usize,
    pub colour: TeamColour,
    pub own: usize,
    pub outer: usize,
}

/// The most matches one placement may play: the hill's size × 2 colours × its seeds.
pub const MAX_PLACEMENT: u64 = 200_000;

/// Reads the board's file named by `--board` when it is not a shipped board's name (the
/// command line only), after the hill's name is checked.
pub type ReadBoard<'a> = &'a dyn Fn() -> Result<String, Diagnostic>;

/// Creates a hill; `Ok(None)` when one has the name. `board_file` reads the file named by
/// `--board` when it is not a shipped board's name (the command line only).
pub fn create_hill(
    db: &Db,
    name: &str,
    mut settings: HillSettings,
    board_file: Option<ReadBoard<'_>>,
) -> Result<Option<Hill>, AdminError> {
    if !is_safe_name(name) {
        return Err(AdminError::Name);
    }
    let board_text = match (shipped::board(&settings.board), board_file) {
        (Some(text), _) => text.to_string(),
        (None, Some(read)) => {
            let text = read().map_err(AdminError::Load)?;
            settings.board = OWN_BOARD.into();
            text
        }
        (None, None) => return Err(AdminError::NotShipped(settings.board)),
    };
    settings.check()?;
    let seeds = u64::from(settings.seeds[1] - settings.seeds[0]) + 1;
    let placement = settings.size as u64 * 2 * seeds;
    if placement > MAX_PLACEMENT {
        return Err(AdminError::TooBig(placement));
    }
    let probe = Hill {
        id: HillId(0),
        name: name.into(),
        settings: settings.clone(),
        board_text: board_text.clone(),
        epoch: 0,
        programs: 0,
    };
    let config = super::worker::tournament::config(&probe).map_err(|_| AdminError::Board)?;
    board_file::parse_board("board", &board_text).map_err(AdminError::Load)?;
    let sample = shipped::program("hunter").ok_or(AdminError::NoSample)?;
    let program = match_file::parse_program_file_in("hunter", sample, settings.keywords)
        .map_err(AdminError::Load)?;
    let two = [
        Entrant::single("a".into(), program.clone(), sample.into()),
        Entrant::single("b".into(), program, sample.into()),
    ];
    tournament::check(&two, &config).map_err(AdminError::NoMatch)?;
    enough_start_points(
        &config.board,
        usize::from(settings.robots),
        &[TeamColour::Green, TeamColour::Violet],
    )?;
    let id = db.write(|c| store::hill_insert(c, name, &settings, &board_text, now()))?;
    match id {
        Some(id) => Ok(db.read(|c| store::hill_by_id(c, id))?),
        None => Ok(None),
    }
}

/// Whether every match of the teams of `colours` finds K start points a side, whatever the
/// seed: a team's own camp holds K, or its camp and the outer ones K beyond what the other
/// teams may take of the outer ones first (RULES A.7).
pub fn enough_start_points(
    board: &robots_games::battle::board::Board,
    k: usize,
    colours: &[TeamColour],
) -> Result<(), StartPointsError> {
    let count = |camp: Option<TeamColour>| {
        board
            .cells()
            .filter(|(_, c)| c.start && c.camp == camp)
            .count()
    };
    let outer = count(None);
    // Every other team may take K outer ones before this one's turn comes.
    let others = k * colours.len().saturating_sub(1);
    for &colour in colours {
        let own = count(Some(colour));
        if own < k && own + outer < k + others.min(outer) {
            return Err(StartPointsError {
                k,
                colour,
                own,
                outer,
            });
        }
    }
    Ok(())
}

/// The hills, by name.
pub fn hills(db: &Db) -> Result<Vec<Hill>, DbError> {
    db.read(store::hills)
}

/// Makes the account named `account` an administrator; `false` when none has the name.
pub fn make_admin(db: &Db, account: &str) -> Result<bool, DbError> {
    db.write(|c| store::set_admin(c, account))
}

/// Copies the database, while the server runs, to the new file `file`.
pub fn backup(db: &Db, file: &Path) -> Result<(), DbError> {
    db.backup(file)
}

/// `--demo`: the hill `demo` with the shipped programs, published, by the account `demo`
/// (which no password opens). Once: a second start finds the hill and does nothing.
pub fn demo(db: &Db) -> Result<(), AdminError> {
    let settings = HillSettings {
        size: 20,
        seeds: [1, 10],
        board: "classic".into(),
        scenario: 1,
        robots: 3,
        rounds: 200,
        keywords: robots_games::battle::lang::Keywords::Plain,
    };
    let Some(hill) = create_hill(db, "demo", settings, None)? else {
        return Ok(());
    };
    let t = now();
    let account = match db.write(|c| store::account_insert(c, "demo", "!", t))? {
        Some(id) => id,
        None => db
            .read(|c| store::account_by_name(c, "demo"))?
            .map(|(a, _)| a.id)
            .ok_or(AdminError::NoDemoAccount)?,
    };
    for (name, source) in shipped::PROGRAMS {
        let queued = db.write(|c| {
            store::submit(
                c,
                (account, hill.id),
                (name, source),
                (t, u32::MAX, u32::MAX),
            )
        })?;
        if let Ok(id) = queued {
            db.write(|c| store::publish(c, id))?;
        }
    }
    Ok(())
}
