//! How duels and standings are printed: text, JSON and CSV (docs/TOURNAMENTS.md).

use crate::cli::args::flags::TableFormat;
use robots_games::battle::compare::tournament::parts::Field;
use robots_games::battle::compare::tournament::{Config, Standings};
use robots_games::text::escape;
use serde::Serialize;
use std::fmt::Write;

/// `robots duel --format json`: counted from A's side.
#[derive(Serialize)]
pub struct DuelDoc {
    pub a: String,
    pub b: String,
    pub matches: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Wins and half the draws, over the matches.
    pub win_rate: f64,
    /// Wilson's 95 % interval of the win rate.
    pub interval: [f64; 2],
}

/// A figure to four decimals, so JSON prints it short.
pub fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

fn percent(x: f64) -> String {
    format!("{:.1} %", x * 100.0)
}

pub fn duel_text(d: &DuelDoc, config: &Config) -> String {
    use robots_games::text::count;
    format!(
        "{} v {}: {} on {} (scenario {}, {} a side, at most {}), seeds {}..{}, both colours\n\
         {}: {}, {}, {}; win rate {} (95 % interval {} to {})\n",
        escape(&d.a),
        escape(&d.b),
        count(d.matches, "match"),
        escape(&config.board.name),
        config.scenario.number(),
        count(config.robots, "robot"),
        count(config.rules.rounds, "round"),
        config.seeds.start(),
        config.seeds.end(),
        escape(&d.a),
        count(d.wins, "win"),
        count(d.draws, "draw"),
        count(d.losses, "loss"),
        percent(d.win_rate),
        percent(d.interval[0]),
        percent(d.interval[1]),
    )
}

/// The standings in the format asked for.
pub fn standings(t: &Standings, field: &Field, format: TableFormat) -> String {
    match format {
        TableFormat::Table => table(t, field),
        TableFormat::Json => json(t, field),
        TableFormat::Csv => csv(t),
    }
}

fn table(t: &Standings, f: &Field) -> String {
    let mut out = format!(
        "{} on {} (scenario {}, {} a side, at most {}), seeds {}..{}, both colours: {}\n\n",
        robots_games::text::count(f.programs.len(), "program"),
        escape(&f.board),
        f.scenario,
        robots_games::text::count(f.robots, "robot"),
        robots_games::text::count(f.rounds, "round"),
        f.seeds[0],
        f.seeds[1],
        robots_games::text::count(t.matches, "match")
    );
    let names: Vec<String> = t
        .rows
        .iter()
        .map(|r| escape(&r.name).chars().take(20).collect())
        .collect();
    let width = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(0)
        .max(7);
    let _ = writeln!(
        out,
        "rank  {:<width$}  played      W      D      L  points   win %   rating",
        "program"
    );
    for (i, (r, name)) in t.rows.iter().zip(&names).enumerate() {
        let _ = writeln!(
            out,
            "{:>4}  {name:<width$}  {:>6} {:>6} {:>6} {:>6}  {:>6}  {:>6.1}  {:>5.0} ± {:.0}",
            i + 1,
            r.played,
            r.wins,
            r.draws,
            r.losses,
            r.points,
            r.win_rate * 100.0,
            r.rating.rating,
            r.rating.interval
        );
    }
    let _ = writeln!(
        out,
        "\nHead to head: the row's score against the column (wins and half the draws), in %:\n"
    );
    let _ = write!(out, "{:>4}  {:<width$}", "", "");
    for i in 0..t.rows.len() {
        let _ = write!(out, " {:>4}", i + 1);
    }
    out.push('\n');
    for (i, (r, name)) in t.rows.iter().zip(&names).enumerate() {
        let _ = write!(out, "{:>4}  {name:<width$}", i + 1);
        for c in &t.rows {
            match t.head_to_head.share(r.entrant, c.entrant) {
                Some(s) => {
                    let _ = write!(out, " {:>4.0}", s * 100.0);
                }
                None => out.push_str("    —"),
            }
        }
        out.push('\n');
    }
    out
}

#[derive(Serialize)]
struct TableDoc<'a> {
    format_version: u32,
    tournament: &'a Field,
    matches: u64,
    standings: Vec<RowDoc<'a>>,
    /// `score[i][j]`: what the program ranked i scored against the one ranked j, as a share.
    head_to_head: Vec<Vec<Option<f64>>>,
}

#[derive(Serialize)]
struct RowDoc<'a> {
    rank: usize,
    program: &'a str,
    played: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    points: u32,
    win_rate: f64,
    rating: f64,
    /// The half-width of the rating's 95 % interval.
    interval: f64,
}

fn rows(t: &Standings) -> Vec<RowDoc<'_>> {
    t.rows
        .iter()
        .enumerate()
        .map(|(i, r)| RowDoc {
            rank: i + 1,
            program: &r.name,
            played: r.played,
            wins: r.wins,
            draws: r.draws,
            losses: r.losses,
            points: r.points,
            win_rate: round4(r.win_rate),
            rating: (r.rating.rating * 10.0).round() / 10.0,
            interval: (r.rating.interval * 10.0).round() / 10.0,
        })
        .collect()
}

fn json(t: &Standings, f: &Field) -> String {
    let doc = TableDoc {
        format_version: 1,
        tournament: f,
        matches: t.matches,
        standings: rows(t),
        head_to_head: t
            .rows
            .iter()
            .map(|r| {
                t.rows
                    .iter()
                    .map(|c| t.head_to_head.share(r.entrant, c.entrant).map(round4))
                    .collect()
            })
            .collect(),
    };
    serde_json::to_string(&doc).unwrap_or_default() + "\n"
}

/// A CSV field: quoted when it holds a comma, a quote or a line break; control characters
/// made visible.
fn field(text: &str) -> String {
    let text = escape(text);
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.into_owned()
    }
}

fn csv(t: &Standings) -> String {
    let mut out =
        String::from("rank,program,played,wins,draws,losses,points,win_rate,rating,interval\n");
    for r in rows(t) {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{}",
            r.rank,
            field(r.program),
            r.played,
            r.wins,
            r.draws,
            r.losses,
            r.points,
            r.win_rate,
            r.rating,
            r.interval
        );
    }
    out
}
