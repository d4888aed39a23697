//! The administration commands of `robots serve` (docs/ARENA.md, "Administration"), run on
//! the server's machine against its database: create and list hills, make an account an
//! administrator, back the database up; and the demo hill of `--demo`.

use super::db::{Db, now};
use super::store::{self, Hill};
use crate::cli::args::arena_flags::{DbArg, ServeCommand, ServeHill};
use crate::cli::io::output::Failure;
use robots_games::battle::compare::tournament::hill::is_safe_name;
use robots_games::battle::compare::tournament::hill_file::{HillSettings, OWN_BOARD};
use robots_games::battle::compare::tournament::{self, Entrant};
use robots_games::battle::files::{board_file, match_file, shipped};
use robots_games::text::escape;
use std::path::Path;

/// The most matches one placement may play: the hill's size × 2 colours × its seeds.
pub const MAX_PLACEMENT: u64 = 200_000;

/// Creates a hill; `Ok(None)` when one has the name. `board_file` is the file named by
/// `--board` when it is not a shipped board's name (the command line only).
pub fn create_hill(
    db: &Db,
    name: &str,
    mut settings: HillSettings,
    board_file: Option<&Path>,
) -> Result<Option<Hill>, String> {
    if !is_safe_name(name) {
        return Err("a hill's name is 1 to 64 ASCII letters, digits, `_` and `-`".into());
    }
    let board_text = match (shipped::board(&settings.board), board_file) {
        (Some(text), _) => text.to_string(),
        (None, Some(path)) => {
            let text = crate::cli::io::files::read_input(path).map_err(|d| d.to_string())?;
            settings.board = OWN_BOARD.into();
            text
        }
        (None, None) => {
            return Err(format!(
                "board `{}`: a shipped board's name (classic, duel, melee)",
                escape(&settings.board)
            ));
        }
    };
    settings.check().map_err(|e| e.to_string())?;
    let seeds = u64::from(settings.seeds[1] - settings.seeds[0]) + 1;
    let placement = settings.size as u64 * 2 * seeds;
    if placement > MAX_PLACEMENT {
        return Err(format!(
            "a placement would play up to {placement} matches (size × 2 × seeds); at most {MAX_PLACEMENT}"
        ));
    }
    let probe = Hill {
        id: 0,
        name: name.into(),
        settings: settings.clone(),
        board_text: board_text.clone(),
        epoch: 0,
        programs: 0,
    };
    let config =
        super::worker::config(&probe).map_err(|_| "the board does not load".to_string())?;
    board_file::parse_board("board", &board_text).map_err(|d| d.to_string())?;
    let sample = shipped::program("hunter").ok_or("no shipped program")?;
    let program = match_file::parse_program_file_in("hunter", sample, settings.keywords)
        .map_err(|d| d.to_string())?;
    let two = [
        Entrant::single("a".into(), program.clone(), sample.into()),
        Entrant::single("b".into(), program, sample.into()),
    ];
    tournament::check(&two, &config)
        .map_err(|e| format!("no match can be set up on this hill: {e}"))?;
    enough_start_points(
        &config.board,
        usize::from(settings.robots),
        &[
            robots_games::battle::terrain::TeamColour::Green,
            robots_games::battle::terrain::TeamColour::Violet,
        ],
    )?;
    let id = db
        .write(|c| store::hill_insert(c, name, &settings, &board_text, now()))
        .map_err(|e| e.to_string())?;
    match id {
        Some(id) => db
            .read(|c| store::hill_by_id(c, id))
            .map_err(|e| e.to_string()),
        None => Ok(None),
    }
}

/// Whether every match of the teams of `colours` finds K start points a side, whatever the
/// seed: a team's own camp holds K, or its camp and the outer ones K beyond what the other
/// teams may take of the outer ones first (RULES A.7).
pub fn enough_start_points(
    board: &robots_games::battle::board::Board,
    k: usize,
    colours: &[robots_games::battle::terrain::TeamColour],
) -> Result<(), String> {
    use robots_games::battle::terrain::TeamColour;
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
            return Err(format!(
                "{k} robots a side do not always find a start point on this board: the {colour} camp has {own} and the board {outer} outer ones"
            ));
        }
    }
    Ok(())
}

fn open(db: &DbArg) -> Result<Db, Failure> {
    let target = db.target();
    Db::connect(&target).map_err(|e| Failure::Bad(format!("{}: error: {e}", target.shown())))
}

/// `robots serve hill …`, `robots serve admin`, `robots serve backup`.
pub fn run(command: &ServeCommand) -> Result<(), Failure> {
    match command {
        ServeCommand::Hill {
            command: ServeHill::Create { name, settings, db },
        } => {
            let db = open(db)?;
            let board = settings.board.clone();
            let s = HillSettings {
                size: usize::from(settings.size),
                seeds: [*settings.seeds.0.start(), *settings.seeds.0.end()],
                board: board.clone(),
                scenario: settings.scenario,
                robots: settings.robots,
                rounds: settings.rounds,
                keywords: settings.keywords.language(),
            };
            let file = shipped::board(&board).is_none().then(|| Path::new(&board));
            match create_hill(&db, name, s, file)? {
                Some(h) => outln!("hill {}: created ({})", h.name, h.settings.summary()),
                None => {
                    return Err(Failure::Bad(format!(
                        "a hill is named {} already",
                        escape(name)
                    )));
                }
            }
        }
        ServeCommand::Hill {
            command: ServeHill::List { db },
        } => {
            let db = open(db)?;
            let hills = db.read(store::hills).map_err(|e| e.to_string())?;
            if hills.is_empty() {
                outln!("no hills yet: robots serve hill create NAME");
            }
            for h in hills {
                outln!(
                    "{}: {}; {}",
                    h.name,
                    robots_games::text::count(h.programs, "program"),
                    h.settings.summary()
                );
            }
        }
        ServeCommand::Admin { account, db } => {
            let db = open(db)?;
            if !db
                .write(|c| store::set_admin(c, account))
                .map_err(|e| e.to_string())?
            {
                return Err(Failure::Bad(format!(
                    "no account is named {}",
                    escape(account)
                )));
            }
            outln!("{} is an administrator", escape(account));
        }
        ServeCommand::Backup { file, db } => {
            crate::cli::io::files::writable(file, "the backup")?;
            if file.exists() {
                return Err(Failure::Bad(format!(
                    "{}: error: exists already; a backup is a new file",
                    escape(&file.display().to_string())
                )));
            }
            open(db)?.backup(file).map_err(|e| e.to_string())?;
            outln!(
                "{}: a copy of {}",
                escape(&file.display().to_string()),
                db.target().shown()
            );
        }
    }
    Ok(())
}

/// `--demo`: the hill `demo` with the shipped programs, published, by the account `demo`
/// (which no password opens). Once: a second start finds the hill and does nothing.
pub fn demo(db: &Db) -> Result<(), String> {
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
    let account = match db
        .write(|c| store::account_insert(c, "demo", "!", t))
        .map_err(|e| e.to_string())?
    {
        Some(id) => id,
        None => db
            .read(|c| store::account_by_name(c, "demo"))
            .map_err(|e| e.to_string())?
            .map(|(a, _)| a.id)
            .ok_or("no demo account")?,
    };
    for (name, source) in shipped::PROGRAMS {
        let queued = db
            .write(|c| {
                store::submit(
                    c,
                    (account, hill.id),
                    (name, source),
                    (t, u32::MAX, u32::MAX),
                )
            })
            .map_err(|e| e.to_string())?;
        if let Ok(id) = queued {
            db.write(|c| store::publish(c, id))
                .map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}
