//! Versions (docs/ARENA.md, "Versions"): every submission under a name on a hill is a
//! program of its own, kept with its text when a newer one replaces it; the versions of a
//! name are its programs in the order of their ids, numbered from 1. Each keeps its date,
//! the best rank it reached and its record; its text stays its author's (`views::may_read`).
//! Two versions compare as a unified diff (`diff.rs`); an old version submitted again is a
//! new version, queued as any submission. The API's handlers are in `api.rs`, the pages' in
//! `pages.rs`; the list on a program's page and the marks of its rank plot are made here.

use crate::api::bodies::VersionView;
use crate::db::ids::ProgramId;
use crate::db::sql::{Row, Sql, SqlResult};
use crate::store::{self, Program, Ranked, Status};
use maud::{Markup, html};
use rusqlite::params;

pub mod api;
pub mod diff;
pub mod pages;
#[cfg(test)]
pub(crate) mod tests;

/// The most versions a list shows (the newest).
pub const MAX_LISTED: u32 = 500;

/// The filter of a name's versions: its hill, its name, its author (`?1`, `?2`, `?3`).
const OF_NAME: &str = "p.hill = ?1 AND p.name = ?2 AND p.account = ?3";

/// A version's columns: its id, status, date, best rank and record.
const VERSION_COLUMNS: &str = "p.id, p.status, p.submitted, \
    (SELECT min(h.rank) FROM history h WHERE h.program = p.id), \
    (SELECT count(*) FROM matches m WHERE m.green = p.id AND m.winner = 'green') \
      + (SELECT count(*) FROM matches m WHERE m.violet = p.id AND m.winner = 'violet'), \
    (SELECT count(*) FROM matches m WHERE m.green = p.id AND m.winner = 'draw') \
      + (SELECT count(*) FROM matches m WHERE m.violet = p.id AND m.winner = 'draw'), \
    (SELECT count(*) FROM matches m WHERE m.green = p.id AND m.winner = 'violet') \
      + (SELECT count(*) FROM matches m WHERE m.violet = p.id AND m.winner = 'green') \
    FROM programs p";

fn version_row(r: &Row) -> SqlResult<VersionView> {
    let status: String = r.get(1)?;
    Ok(VersionView {
        version: 0,
        id: r.get(0)?,
        status: Status::from_word(&status),
        submitted: r.get(2)?,
        best_rank: r.get(3)?,
        wins: r.get(4)?,
        draws: r.get(5)?,
        losses: r.get(6)?,
        source: None,
    })
}

/// The versions of `p`'s name, newest first (at most `MAX_LISTED`), each with its record
/// and the best rank it reached; no text.
pub fn list(c: &Sql, p: &Program) -> SqlResult<Vec<VersionView>> {
    let total: i64 = c.query_row(
        &format!("SELECT count(*) FROM programs p WHERE {OF_NAME}"),
        params![p.hill, p.name, p.account],
        |r| r.get(0),
    )?;
    let rows = c.query(
        &format!("SELECT {VERSION_COLUMNS} WHERE {OF_NAME} ORDER BY p.id DESC LIMIT ?4"),
        params![p.hill, p.name, p.account, MAX_LISTED],
        version_row,
    )?;
    Ok(rows
        .into_iter()
        .zip((1..=total).rev())
        .map(|(v, n)| VersionView {
            version: u32::try_from(n).unwrap_or(u32::MAX),
            ..v
        })
        .collect())
}

/// Program `p` as a version: its number, date, best rank and record, and its text.
pub fn one(c: &Sql, p: &Program) -> SqlResult<VersionView> {
    let v = c.query_row(
        &format!("SELECT {VERSION_COLUMNS} WHERE p.id = ?1"),
        params![p.id],
        version_row,
    )?;
    Ok(VersionView {
        version: p.version,
        source: Some(p.source.clone()),
        ..v
    })
}

/// The program that is version `n` of `p`'s name, if there is one.
pub fn nth(c: &Sql, p: &Program, n: u32) -> SqlResult<Option<ProgramId>> {
    if n == 0 {
        return Ok(None);
    }
    c.query_opt(
        &format!("SELECT p.id FROM programs p WHERE {OF_NAME} ORDER BY p.id LIMIT 1 OFFSET ?4"),
        params![p.hill, p.name, p.account, n - 1],
        |r| r.get(0),
    )
}

/// Version `n` of `p`'s name, read whole (its text included: for its author only).
pub fn nth_program(c: &Sql, p: &Program, n: u32) -> SqlResult<Option<Program>> {
    match nth(c, p, n)? {
        Some(id) => store::program(c, id),
        None => Ok(None),
    }
}

/// A version on the rank plot: its rank after each placement, and where it came in.
pub struct Plotted {
    pub version: u32,
    pub points: Vec<Ranked>,
    /// The hill's epoch when it was submitted (its submission's mark).
    pub since: i64,
}

/// Every version of `p`'s name (the newest `MAX_LISTED`), oldest first, with its ranks and
/// the hill's epoch at its submission: the last placement recorded before it, or its own
/// first rank's epoch less one when it was placed at once.
pub fn plotted(c: &Sql, p: &Program) -> SqlResult<Vec<Plotted>> {
    let mut out = Vec::new();
    for v in list(c, p)?.into_iter().rev() {
        let points = store::history_of(c, v.id)?;
        let before: Option<i64> = c.query_row(
            "SELECT max(epoch) FROM history WHERE hill = ?1 AND at < ?2",
            params![p.hill, v.submitted],
            |r| r.get(0),
        )?;
        let first = points.first().map(|r| r.epoch - 1);
        let since = match (before, first) {
            (Some(b), Some(f)) => b.min(f),
            (b, f) => b.or(f).unwrap_or(0),
        };
        out.push(Plotted {
            version: v.version,
            points,
            since,
        });
    }
    Ok(out)
}

/// The list of versions on a program's page, for anyone (no text); for its author, each
/// version's diff against the shown program's and a button that submits it again.
pub fn table(p: &Program, versions: &[VersionView], author: Option<&str>) -> Markup {
    html! {
        h2 { "Versions" }
        div.scroll-x { table #versions {
            tr { th { "version" } th { "submitted" } th { "status" } th { "best rank" } th { "W/D/L" } @if author.is_some() { th {} th {} } }
            @for v in versions {
                tr data-version=(v.version) data-program=(v.id) class=[(v.id == p.id).then_some("shown")] {
                    td { a href={ "/programs/" (v.id) } { "v" (v.version) } }
                    td.date { (date(v.submitted)) }
                    td { (v.status.word()) }
                    td { (v.best_rank.map_or_else(|| "—".to_string(), |r| r.to_string())) }
                    td.wdl { (v.wins) "/" (v.draws) "/" (v.losses) }
                    @if let Some(csrf) = author {
                        td {
                            @if v.version != p.version {
                                a.diff href={ "/programs/" (p.id) "/diff?from=" (v.version.min(p.version)) "&to=" (v.version.max(p.version)) } { "diff with v" (p.version) }
                            }
                        }
                        td {
                            form.resubmit method="post" action={ "/programs/" (p.id) "/versions/" (v.version) "/resubmit" } {
                                input type="hidden" name="csrf" value=(csrf);
                                button type="submit" { "Submit v" (v.version) " again" }
                            }
                        }
                    }
                }
            }
        } }
    }
}

/// A time (seconds since 1970) as `YYYY-MM-DD HH:MM` UTC.
pub fn date(seconds: i64) -> String {
    let (days, secs) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    // The civil date of a day count (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}",
        secs / 3600,
        secs % 3600 / 60
    )
}
