//! What the API and the pages show: hills, standings (cached per hill until its next
//! placement), programs (the text only to whom may read it), matches, the viewer's document
//! of a match with the secret programs left out, and the rank-history plots. What the API
//! answers is built here as the types of `api/bodies.rs`.

use super::api::bodies::{HillView, MatchView, Outcome, ProgramView, Side, StandingRow, Versus};
use super::api::replays::Replays;
use super::db::ids::{AccountId, HillId, MatchId, ProgramId};
use super::db::{Db, DbError};
use super::replays::{self as kept, Doc, Kept, Played};
use super::store::{self, Hill, MatchRow, Program, Ranked, Status};
use super::worker::tournament::{config, entrant, game_result};
use robots_games::battle::compare::tournament::{self, Game, standings};
use robots_games::battle::engine::MatchSetup;
use robots_games::battle::show::page;
use robots_games::battle::show::view::{MAX_DOC_BYTES, ViewDoc, robot_views, view_doc, view_json};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

pub fn hill_view(h: &Hill) -> HillView {
    let s = &h.settings;
    HillView {
        name: h.name.clone(),
        size: s.size,
        seeds: s.seeds,
        board: s.board.clone(),
        scenario: s.scenario,
        robots: s.robots,
        rounds: s.rounds,
        keywords: s.keywords.name().to_string(),
        programs: h.programs,
    }
}

/// The standings of each hill, with the epoch they were computed at; and the lock one
/// computation holds (the requests that find a hill's standings out of date after a
/// placement wait for one computation instead of each making its own).
#[derive(Default)]
pub struct Cache(Mutex<HashMap<HillId, (i64, Table)>>, Mutex<()>);

/// A hill's standings at `epoch`, if computed.
fn cached(cache: &Cache, hill: HillId, epoch: i64) -> Option<Table> {
    let map = cache.0.lock().unwrap_or_else(PoisonError::into_inner);
    map.get(&hill)
        .filter(|(at, _)| *at == epoch)
        .map(|(_, rows)| Arc::clone(rows))
}

/// A hill's standings, shared.
pub type Table = Arc<Vec<StandingRow>>;

/// The standings of a hill, best first.
pub fn standings_of(db: &Db, cache: &Cache, hill: &Hill) -> Result<Arc<Vec<StandingRow>>, DbError> {
    if let Some(rows) = cached(cache, hill.id, hill.epoch) {
        return Ok(rows);
    }
    let _computing = cache.1.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(rows) = cached(cache, hill.id, hill.epoch) {
        return Ok(rows);
    }
    let (members, stored) = db.read(|c| {
        let members = store::programs_of_hill(c, hill.id, &[Status::Placed])?;
        Ok((members, store::placed_matches(c, hill.id)?))
    })?;
    let index: HashMap<ProgramId, usize> =
        members.iter().enumerate().map(|(i, p)| (p.id, i)).collect();
    let results: Vec<_> = stored
        .iter()
        .filter_map(|m| game_result(m, &index))
        .collect();
    let rows = Arc::new(ranked(&members, &results));
    let mut map = cache.0.lock().unwrap_or_else(PoisonError::into_inner);
    map.insert(hill.id, (hill.epoch, Arc::clone(&rows)));
    Ok(rows)
}

/// The standings of `members` from `results` (numbered as `members` are), best first: a
/// hill's, or an event's (`events/`).
pub fn ranked(members: &[Program], results: &[tournament::GameResult]) -> Vec<StandingRow> {
    let names: Vec<String> = members.iter().map(|p| p.name.clone()).collect();
    let table = standings(&names, results);
    table
        .rows
        .iter()
        .enumerate()
        .map(|(rank, r)| {
            let p = &members[r.entrant];
            StandingRow {
                rank: rank + 1,
                id: p.id,
                name: p.name.clone(),
                author: p.author.clone(),
                played: r.played,
                wins: r.wins,
                draws: r.draws,
                losses: r.losses,
                points: r.points,
                win_rate: r.win_rate,
                rating: r.rating.rating,
                interval: r.rating.interval,
                head_to_head: table
                    .rows
                    .iter()
                    .filter(|o| o.entrant != r.entrant)
                    .map(|o| Versus {
                        id: members[o.entrant].id,
                        name: members[o.entrant].name.clone(),
                        share: table.head_to_head.share(r.entrant, o.entrant),
                    })
                    .collect(),
                version: p.version,
            }
        })
        .collect()
}

/// Whether the caller (an account id) may read a program's text: its author, or anyone once
/// published. Administrators may not: a program is its author's (the seed's secrecy).
pub fn may_read(p: &Program, caller: Option<AccountId>) -> bool {
    p.published || caller == Some(p.account)
}

pub fn program_view(p: &Program, rank: Option<usize>, caller: Option<AccountId>) -> ProgramView {
    ProgramView {
        id: p.id,
        name: p.name.clone(),
        author: p.author.clone(),
        hill: p.hill_name.clone(),
        status: p.status,
        published: p.published,
        submitted: p.submitted,
        games_done: p.games_done,
        games_total: p.games_total,
        rank,
        source: may_read(p, caller).then(|| p.source.clone()),
        version: p.version,
    }
}

pub fn match_view(m: &MatchRow, of: Option<ProgramId>) -> MatchView {
    let result = of.map(|id| match m.winner.as_str() {
        "draw" => Outcome::Draw,
        "green" if m.green.id == id => Outcome::Win,
        "violet" if m.violet.id == id => Outcome::Win,
        _ => Outcome::Loss,
    });
    MatchView {
        id: m.id,
        hill: m.hill.clone(),
        green: Side {
            id: m.green.id,
            name: m.green.name.clone(),
        },
        violet: Side {
            id: m.violet.id,
            name: m.violet.name.clone(),
        },
        seed_index: m.seed_index,
        seed: m.seed,
        winner: m.winner.clone(),
        rounds: m.rounds,
        reason: m.reason.clone(),
        result,
    }
}

/// The longest match the viewer is given, in robot turns.
const MAX_TURNS: u64 = 100_000;

/// What a replay's request finds.
pub enum Lookup {
    /// No such match, or it cannot be played (a side's text erased: see `match_erased`).
    Missing,
    /// The document for the caller, from the kept one (`replays/`).
    Found(Doc),
    /// Not kept yet: to be played once ([`play_kept`]), under the `heavy` permits.
    Play(Box<ToPlay>),
}

/// A stored match to play, what it is played from, and who asks.
pub struct ToPlay {
    id: MatchId,
    m: MatchRow,
    sides: [Program; 2],
    hill: Hill,
    played: Played,
    hidden: [bool; 2],
}

/// The viewer's document of a stored match for `caller`: the steps and tests of a program
/// the caller may not read are left out (its events stay). A kept document (in memory, else
/// in the database) is served as it is, or with the caller's own side spliced in; else the
/// match is to be played once.
pub fn replay(
    db: &Db,
    replays: &Replays,
    id: MatchId,
    caller: Option<AccountId>,
) -> Result<Lookup, DbError> {
    let Some((m, green, violet, hill)) = db.read(|c| {
        let Some(m) = store::match_by_id(c, id)? else {
            return Ok(None);
        };
        let (Some(g), Some(v)) = (
            store::program(c, m.green.id)?,
            store::program(c, m.violet.id)?,
        ) else {
            return Ok(None);
        };
        let Some(hill) = store::hill_by_id(c, g.hill)? else {
            return Ok(None);
        };
        Ok(Some((m, g, v, hill)))
    })?
    else {
        return Ok(Lookup::Missing);
    };
    let played = Played::of(m.seed, &green.source, &violet.source);
    let hidden = [!may_read(&green, caller), !may_read(&violet, caller)];
    let kept = match replays.get(id, played) {
        Some(kept) => Some(kept),
        None => db.read(|c| kept::store::get(c, id, played))?.map(|kept| {
            let kept = Arc::new(kept);
            replays.put(id, Arc::clone(&kept));
            kept
        }),
    };
    let to = ToPlay {
        id,
        m,
        sides: [green, violet],
        hill,
        played,
        hidden,
    };
    Ok(match kept {
        Some(kept) => shown(&kept, &to).map_or(Lookup::Missing, Lookup::Found),
        None => Lookup::Play(Box::new(to)),
    })
}

/// The kept document as `to`'s caller may see it: the robots' steps and tests made from the
/// programs (not played) when the caller may read a side.
fn shown(kept: &Kept, to: &ToPlay) -> Option<Doc> {
    let robots = if to.hidden == [true, true] {
        None
    } else {
        let [ge, ve] = entrants(to)?;
        let config = config(&to.hill).ok()?;
        let setup = tournament::setup(&[ge, ve], &config, game_of(&to.m));
        Some(robot_views(&setup).ok()?)
    };
    kept::variant(kept, to.hidden, robots)
}

fn entrants(to: &ToPlay) -> Option<[tournament::Entrant; 2]> {
    let [green, violet] = &to.sides;
    Some([entrant(green, &to.hill)?, entrant(violet, &to.hill)?])
}

/// A stored match's game: green is the first entrant.
fn game_of(m: &MatchRow) -> Game {
    Game {
        a: 0,
        b: 1,
        swapped: false,
        seed_index: m.seed_index,
    }
}

/// Plays a match [`replay`] did not find kept, keeps its document (in the database and in
/// memory) and returns it as the caller may see it; `None` when it cannot be played.
pub fn play_kept(db: &Db, replays: &Replays, to: &ToPlay) -> Result<Option<Doc>, DbError> {
    let Some(entrants) = entrants(to) else {
        return Ok(None);
    };
    let Some(setup) = setup_again(&to.hill, &entrants, game_of(&to.m), to.m.seed) else {
        return Ok(None);
    };
    // Written as JSON as it is played: no document built, serialised once.
    let Ok(doc) = view_json(&setup, MAX_TURNS, MAX_DOC_BYTES) else {
        return Ok(None);
    };
    // Too big to keep: served, made again at the next request.
    let kept = kept::keep(&doc, to.played).map(Arc::new);
    if let Some(kept) = &kept {
        if let Err(e) = db.write(|c| kept::store::put(c, to.id, kept)) {
            tracing::warn!(game = to.id.get(), error = %e, "a replay cannot be kept");
        }
        replays.put(to.id, Arc::clone(kept));
    }
    Ok(kept::played(&doc, kept.as_deref(), to.hidden))
}

/// The match of `entrants` (green first, unless `game` swaps them) on its hill; `None` when
/// it does not give the stored `seed`.
fn setup_again(
    hill: &Hill,
    entrants: &[tournament::Entrant; 2],
    game: Game,
    seed: u64,
) -> Option<MatchSetup> {
    let config = config(hill).ok()?;
    let setup = tournament::setup(entrants, &config, game);
    (setup.seed == seed).then_some(setup)
}

/// The viewer's document of a match of `entrants` (green first, unless `game` swaps them)
/// played again on its hill; `None` when it does not give the stored `seed`. The steps and
/// tests of the entrants `hidden` says (each entrant's, in the same order) are left out.
pub fn played_again(
    hill: &Hill,
    entrants: [tournament::Entrant; 2],
    game: Game,
    seed: u64,
    hidden: [bool; 2],
) -> Option<ViewDoc> {
    let setup = setup_again(hill, &entrants, game, seed)?;
    let mut doc = view_doc(&setup, MAX_TURNS, MAX_DOC_BYTES).ok()?;
    // The teams are green, then violet.
    hide(
        &mut doc,
        if game.swapped {
            [hidden[1], hidden[0]]
        } else {
            hidden
        },
    );
    Some(doc)
}

/// The steps and tests of the teams `hidden` says (green, violet) left out of `doc`.
fn hide(doc: &mut ViewDoc, hidden: [bool; 2]) {
    kept::hide_robots(&mut doc.robots, hidden);
}

/// A program's line on a rank plot: its rank after each placement.
pub struct Series {
    pub name: String,
    pub points: Vec<Ranked>,
}

/// Rank over placements as a small SVG plot: one line per program, rank 1 at the top.
pub fn history_svg(series: &[Series]) -> String {
    history_svg_marked(series, &[])
}

/// A mark on a rank plot: a dashed line half a placement after `epoch`, labelled.
pub struct Mark {
    pub epoch: i64,
    pub label: String,
}

/// `history_svg` with `marks` (a program's versions: where each was submitted).
pub fn history_svg_marked(series: &[Series], marks: &[Mark]) -> String {
    let (w, h, pad) = (360.0, 140.0, 24.0);
    let epochs = series.iter().flat_map(|s| s.points.iter().map(|p| p.epoch));
    let epochs = epochs.chain(marks.iter().flat_map(|m| [m.epoch, m.epoch + 1]));
    let (first, last) = epochs.fold((i64::MAX, i64::MIN), |(a, b), e| (a.min(e), b.max(e)));
    let worst = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.rank))
        .max()
        .unwrap_or(1)
        .max(2);
    let span = (last - first).max(1) as f64;
    let x = |e: i64| pad + (e - first) as f64 / span * (w - 2.0 * pad);
    let y = |r: i64| pad / 2.0 + (r - 1) as f64 / (worst - 1) as f64 * (h - 1.5 * pad);
    let palette = [
        "#2a9d8f", "#7b2cbf", "#e76f51", "#264653", "#e9c46a", "#457b9d",
    ];
    let mut body = format!(
        "<text x=\"2\" y=\"{}\" font-size=\"10\">rank 1</text><text x=\"2\" y=\"{}\" font-size=\"10\">{worst}</text>",
        y(1) + 3.0,
        y(worst)
    );
    for m in marks {
        let at = (x(m.epoch) + x(m.epoch + 1)) / 2.0;
        body.push_str(&format!(
            "<line class=\"version\" x1=\"{at:.1}\" y1=\"{:.1}\" x2=\"{at:.1}\" y2=\"{:.1}\" stroke=\"#999\" stroke-dasharray=\"3 3\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"9\" fill=\"#666\">{}</text>",
            pad / 4.0,
            h - pad / 2.0,
            at + 2.0,
            h - pad / 4.0,
            page::markup_text(&m.label)
        ));
    }
    for (i, Series { name, points }) in series.iter().enumerate() {
        let colour = palette[i % palette.len()];
        let line: Vec<String> = points
            .iter()
            .map(|p| format!("{:.1},{:.1}", x(p.epoch), y(p.rank)))
            .collect();
        body.push_str(&format!(
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{}\"><title>{}</title></polyline>",
            line.join(" "),
            page::markup_text(name)
        ));
        if let Some(last) = points.last() {
            body.push_str(&format!(
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"{colour}\"/>",
                x(last.epoch),
                y(last.rank)
            ));
        }
    }
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\">\
         <rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>{body}</svg>"
    )
}

/// The viewer's page for the arena: the template of `robots run --html` with its style and
/// scripts as files of the site (no inline script: the arena's CSP), the document inline as
/// JSON data.
pub fn viewer_page(doc: &ViewDoc) -> Option<String> {
    viewer_page_json(&serde_json::to_vec(doc).ok()?)
}

/// [`viewer_page`] of a document's JSON.
pub fn viewer_page_json(json: &[u8]) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Named {
        name: String,
    }
    let name = serde_json::from_slice::<Named>(json).ok()?.name;
    let template = page::TEMPLATE
        .replace(
            "<style>\n{{STYLE}}\n</style>",
            "<link rel=\"stylesheet\" href=\"/static/viewer.css\">",
        )
        .replace(
            "<script>\n{{SCRIPT}}\n</script>",
            "<script src=\"/static/viewer.js\"></script>",
        );
    let template: String = template
        .lines()
        .filter(|l| !l.contains("http-equiv=\"Content-Security-Policy\""))
        .map(|l| format!("{l}\n"))
        .collect();
    if template.contains("{{SCRIPT}}") || template.contains("{{STYLE}}") {
        return None;
    }
    // As `script_json` writes it: every `<` escaped, so no text closes the element.
    let data = std::str::from_utf8(json).ok()?.replace('<', "\\u003c");
    Some(page::fill(
        &template,
        &[
            ("{{TITLE}}", &page::markup_text(&name)),
            ("{{DATA}}", &data),
        ],
    ))
}
