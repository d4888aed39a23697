//! The methods that hold no state: `check`, `shipped`, `play`, `duel`, `bench` (its
//! constant workload parsed once, `benchPrepare`)
//! (web/play/ENGINE.md). Each reads its request, calls the games crate as the command line
//! does, and writes its answer.

use crate::answer::{ErrorKind, Failure, json};
use crate::settings::{Files, MatchSettings, keywords};
use robots_games::battle::compare::bench;
use robots_games::battle::compare::tournament::{
    Config, Entrant, GameResult, Score, check as check_entrants, play_all, schedule,
};
use robots_games::battle::engine::{Match, Rules, Scenario};
use robots_games::battle::files::{board_file, match_file, shipped};
use robots_games::battle::lang::Keywords;
use robots_games::battle::show::run_text;
use robots_games::battle::show::view::{
    MAX_DOC_BYTES, MAX_TURNS, ViewError, script_json, view_doc,
};
use robots_games::text::MAX_INPUT_BYTES;
use robots_games::text::diagnostic::{checked_line, too_large};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The most seeds one `duel` call plays (each twice).
pub const MAX_DUEL_SEEDS: u32 = 10_000;

/// The most matches one `bench` call plays.
pub const MAX_BENCH_MATCHES: u32 = 1_000_000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckRequest {
    text: String,
    file: Option<String>,
    keywords: Option<String>,
}

/// `robots check [--keywords ti57] FILE` on one program: the line it prints when the program
/// loads, and the diagnostics `--format json` prints.
pub fn check(request: &str) -> Result<String, Failure> {
    let r: CheckRequest = serde_json::from_str(request)?;
    let file = r.file.as_deref().unwrap_or("program.robot");
    let language = keywords(r.keywords.as_deref())?;
    let (summary, diagnostics) = if r.text.len() > MAX_INPUT_BYTES {
        (None, vec![too_large(file)])
    } else {
        match match_file::check_program(file, &r.text, language) {
            Ok((line, warnings)) => (Some(checked_line(&line, warnings.len())), warnings),
            Err(d) => (None, vec![d]),
        }
    };
    // Each diagnostic exactly as `robots check --format json` writes its line.
    let lines: Vec<String> = diagnostics.iter().map(|d| d.json()).collect();
    Ok(format!(
        "{{\"summary\":{},\"diagnostics\":[{}]}}",
        json(&summary)?,
        lines.join(",")
    ))
}

#[derive(Serialize)]
struct Named {
    name: &'static str,
    text: &'static str,
}

/// The programs, boards and default match the binary ships.
pub fn shipped() -> String {
    #[derive(Serialize)]
    struct Shipped {
        programs: Vec<Named>,
        boards: Vec<Named>,
        matches: Vec<Named>,
    }
    let named = |(name, text): (&'static str, &'static str)| Named { name, text };
    let doc = Shipped {
        programs: shipped::PROGRAMS.map(named).into(),
        boards: shipped::BOARDS.map(named).into(),
        matches: vec![Named {
            name: "default",
            text: shipped::DEFAULT_MATCH.1,
        }],
    };
    serde_json::to_string(&doc).unwrap_or_default()
}

/// `robots run` and `robots run --html` for one match: the text each prints, and the viewer's
/// document.
pub fn play(request: &str) -> Result<String, Failure> {
    let settings: MatchSettings = serde_json::from_str(request)?;
    let setup = settings.setup()?;
    let doc = view_doc(&setup, MAX_TURNS, MAX_DOC_BYTES).map_err(|e| match e {
        ViewError::Setup(e) => Failure::new(ErrorKind::Setup, e.to_string()),
        other => Failure::new(ErrorKind::Limit, other.to_string()),
    })?;
    let doc_json = script_json(&doc)?;
    drop(doc);
    // The document's bound has held: the match ends within MAX_TURNS robot turns.
    let mut game = Match::new(&setup).map_err(|e| Failure::new(ErrorKind::Setup, e.to_string()))?;
    let start = run_text::start(&setup, &game, false);
    let mut log = start.clone();
    let mut events = Vec::new();
    while {
        events.clear();
        game.step_into(&mut events)
    } {
        for e in &events {
            log.push_str(&e.log_line());
        }
    }
    let outcome = game
        .outcome()
        .cloned()
        .ok_or_else(|| Failure::new(ErrorKind::Setup, "the match has no team to play"))?;
    let end = run_text::end(&game, &outcome, false);
    log.push_str(&end);
    let text = format!("{start}{}{end}", run_text::rounds_of_play(outcome.rounds));
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Played {
        text: String,
        log: String,
        doc_json: String,
    }
    json(&Played {
        text,
        log,
        doc_json,
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct DuelRequest {
    a: String,
    b: String,
    board: Option<String>,
    scenario: Option<u32>,
    robots: Option<usize>,
    rounds: Option<u32>,
    keywords: Option<String>,
    #[serde(default)]
    files: Files,
    first_seed: u32,
    count: u32,
}

/// A program of a duel by shipped name or file of the request, named as `robots duel` names
/// it (the shipped name, or the file's stem).
fn entrant(spec: &str, files: &Files, language: Keywords) -> Result<Entrant, Failure> {
    if let Some(text) = shipped::program(spec) {
        let file = format!("programs/{spec}.robot");
        let program = match_file::parse_program_file_in(&file, text, language)?;
        return Ok(Entrant::single(spec.to_string(), program, text.into()));
    }
    let Some((file, text)) = files.program(spec) else {
        return Err(Failure::new(
            ErrorKind::Request,
            format!(
                "{}: no such file (nor {0}.robot), and no shipped program of that name (shipped: {})",
                robots_games::text::escape(spec),
                shipped::PROGRAMS.map(|(n, _)| n).join(", ")
            ),
        ));
    };
    let program = match_file::parse_program_file_in(spec, text, language)?;
    let stem = std::path::Path::new(&file)
        .file_stem()
        .map_or_else(|| spec.to_string(), |s| s.to_string_lossy().into_owned());
    Ok(Entrant::single(stem, program, text.into()))
}

/// The settings of every match of a duel, within the command line's ranges.
fn duel_config(r: &DuelRequest, language: Keywords) -> Result<Config, Failure> {
    let limit = |m: &str| Failure::new(ErrorKind::Limit, m.to_string());
    let (robots, rounds) = (r.robots.unwrap_or(3), r.rounds.unwrap_or(200));
    if !(1..=9).contains(&robots) {
        return Err(limit("robots: 1 to 9 a side (--robots)"));
    }
    if !(1..=100_000).contains(&rounds) {
        return Err(limit("rounds: 1 to 100000 (--rounds)"));
    }
    if !(1..=MAX_DUEL_SEEDS).contains(&r.count) {
        return Err(limit("count: 1 to 10000 seeds a call"));
    }
    let last = r
        .first_seed
        .checked_add(r.count - 1)
        .ok_or_else(|| limit("the seeds go past 4294967295"))?;
    let name = r.board.as_deref().unwrap_or("classic");
    let board = match (shipped::board(name), r.files.get(name)) {
        (Some(text), _) => board_file::parse_board(&format!("boards/{name}.yaml"), text)?,
        (None, Some(text)) => board_file::parse_board(name, text)?,
        (None, None) => {
            return Err(Failure::new(
                ErrorKind::Request,
                format!("board: no board `{}`", robots_games::text::escape(name)),
            ));
        }
    };
    let scenario = Scenario::from_number(r.scenario.unwrap_or(1))
        .ok_or_else(|| Failure::new(ErrorKind::Request, "scenario: 1, 2 or 3"))?;
    Ok(Config {
        board: Arc::new(board),
        scenario,
        rules: Rules {
            rounds,
            ..Rules::with_keywords(language)
        },
        robots,
        seeds: r.first_seed..=last,
    })
}

/// `robots duel A B --seeds FIRST..LAST`: each game counted from A's side, and the counts.
pub fn duel(request: &str) -> Result<String, Failure> {
    let r: DuelRequest = serde_json::from_str(request)?;
    r.files.check()?;
    let language = keywords(r.keywords.as_deref())?;
    let mut list = vec![
        entrant(&r.a, &r.files, language)?,
        entrant(&r.b, &r.files, language)?,
    ];
    // A program against itself: the second copy is told apart by a mark, as `robots duel` does.
    if list[0].name == list[1].name {
        list[1].name.push('\'');
    }
    let config = duel_config(&r, language)?;
    let setup =
        |e: robots_games::battle::engine::SetupError| Failure::new(ErrorKind::Setup, e.to_string());
    check_entrants(&list, &config).map_err(setup)?;
    let games = schedule(2, &config.seeds);
    let never = AtomicBool::new(false);
    let played: Vec<GameResult> = play_all(&list, &config, &games, &never, &|| ())
        .map_err(setup)?
        .into_iter()
        .flatten()
        .collect();
    #[derive(Serialize)]
    struct Played {
        seed_index: u32,
        a_colour: &'static str,
        seed: String,
        score: &'static str,
        rounds: u32,
        reason: &'static str,
    }
    #[derive(Serialize)]
    struct Duel {
        a: String,
        b: String,
        games: Vec<Played>,
        wins: usize,
        draws: usize,
        losses: usize,
    }
    let count = |s: Score| played.iter().filter(|g| g.score == s).count();
    let doc = Duel {
        a: list[0].name.clone(),
        b: list[1].name.clone(),
        wins: count(Score::Win),
        draws: count(Score::Draw),
        losses: count(Score::Loss),
        games: played
            .iter()
            .map(|g| Played {
                seed_index: g.game.seed_index,
                a_colour: if g.game.swapped { "violet" } else { "green" },
                seed: g.seed.to_string(),
                score: match g.score {
                    Score::Win => "win",
                    Score::Draw => "draw",
                    Score::Loss => "loss",
                },
                rounds: g.rounds,
                reason: g.reason_code(),
            })
            .collect(),
    };
    json(&doc)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BenchRequest {
    matches: u32,
}

thread_local! {
    /// `bench`'s workload, parsed once ([`bench_prepare`]): it never changes.
    static WORKLOAD: std::cell::OnceCell<Vec<robots_games::battle::engine::MatchSetup>> =
        const { std::cell::OnceCell::new() };
}

/// `robots bench`'s workload parsed (its programs and board) and kept for `bench`, which
/// then only plays, as `robots bench` times only the playing: the number of match setups.
pub fn bench_prepare() -> Result<String, Failure> {
    let setups = WORKLOAD.with(|w| -> Result<usize, Failure> {
        if w.get().is_none() {
            let _ = w.set(bench::workload()?);
        }
        Ok(w.get().map_or(0, Vec::len))
    })?;
    Ok(format!("{{\"setups\":{setups}}}"))
}

/// `robots bench --matches N`'s workload played: what was played, for the caller to time
/// (the workload parsed first when [`bench_prepare`] has not been called).
pub fn bench(request: &str) -> Result<String, Failure> {
    let r: BenchRequest = serde_json::from_str(request)?;
    if !(1..=MAX_BENCH_MATCHES).contains(&r.matches) {
        return Err(Failure::new(
            ErrorKind::Limit,
            "matches: 1 to 1000000 a call",
        ));
    }
    bench_prepare()?;
    let report = WORKLOAD.with(|w| bench::play(w.get().map_or(&[], Vec::as_slice), r.matches));
    Ok(format!(
        "{{\"matches\":{},\"decided\":{},\"drawn\":{},\"turns\":{}}}",
        report.matches, report.decided, report.drawn, report.turns
    ))
}
