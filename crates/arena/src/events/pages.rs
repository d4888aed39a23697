//! The events' pages (docs/ARENA.md, "Events"): a hill's events, an event (its state, its
//! programs with their versions, its table, the head-to-head and every match linked to the
//! viewer) and its matches in the viewer. Every name is escaped by the template; the tables
//! scroll inside their box on a phone (`div.scroll`, as the front door's).

use super::Detail;
use crate::App;
use crate::api::bodies::{EventView, StandingRow};
use crate::auth::Caller;
use crate::db::ids::{EventId, ProgramId};
use crate::pages::{api_error, doc_page, head_to_head, layout, respond, standings_table};
use crate::versions::date;
use axum::Extension;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use maud::{Markup, html};
use std::sync::Arc;

/// What an event is, in a line: its programs, seeds and time.
fn summary(e: &EventView) -> String {
    let who = e
        .top
        .map_or_else(|| "every program".to_string(), |n| format!("the top {n}"));
    format!(
        "{who} of hill {}, a round robin over {} seed(s) both ways, at {} UTC",
        e.hill,
        e.seeds,
        date(e.at)
    )
}

fn state_line(e: &EventView) -> Markup {
    html! {
        p #event-state data-state=(e.state) data-played=(e.played) data-total=(e.total) {
            "state: " (e.state)
            @match e.state.as_str() {
                "scheduled" => { " (starts at " (date(e.at)) " UTC)" }
                "running" => { " (" (e.played) " of " (e.total) " matches played)" }
                _ => { " (" (e.played) " matches; finished " (e.finished.map(date).unwrap_or_default()) " UTC; final)" }
            }
        }
    }
}

pub async fn hill_events(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    Path(hill): Path<String>,
) -> Response {
    let list = match super::api::of_hill(&app, hill.clone()).await {
        Ok(list) => list,
        Err(e) => return api_error(e, &caller),
    };
    let body = html! {
        h1 { "Events on hill " a href={ "/hills/" (hill) } { (hill) } }
        p { "Round robins among the hill's programs as they stood at the event's time; never counted in the standings." }
        @if list.is_empty() { p #no-events { "No event yet." } }
        div.scroll {
            table #events {
                tr { th { "event" } th { "state" } th { "time (UTC)" } th { "programs" } th { "seeds" } th { "played" } }
                @for e in &list {
                    tr data-event=(e.id) data-state=(e.state) {
                        td { a href={ "/events/" (e.id) } { "event " (e.id) } }
                        td { (e.state) }
                        td.date { (date(e.at)) }
                        td { (e.top.map_or_else(|| "all".to_string(), |n| format!("top {n}"))) }
                        td { (e.seeds) }
                        td { (e.played) " of " (e.total) }
                    }
                }
            }
        }
    };
    respond(
        StatusCode::OK,
        layout(&format!("Events on {hill}"), &caller, body),
    )
}

/// The table's rows numbered by the event's results (its own matches only).
fn table_part(rows: &[StandingRow]) -> Markup {
    html! {
        h2 { "Table" }
        div.scroll { (standings_table(rows)) }
        h2 { "Head to head" }
        p { "What the row's program scored against the column's (wins and half the draws)." }
        div.scroll { (head_to_head(rows)) }
    }
}

fn matches_part(e: &EventView) -> Markup {
    let name = |id: ProgramId| {
        e.programs
            .iter()
            .find(|p| p.id == id)
            .map_or_else(String::new, |p| p.name.clone())
    };
    html! {
        h2 { "Matches" }
        div.scroll {
            table #event-matches {
                tr { th { "#" } th { "green" } th { "violet" } th { "seed" } th { "winner" } th { "rounds" } th { "how" } th {} }
                @for m in e.matches.iter().flatten() {
                    tr data-n=(m.n) {
                        td { (m.n) } td { (name(m.green)) } td { (name(m.violet)) } td { (m.seed_index) }
                        td { (m.winner) } td { (m.rounds) } td { (m.reason) }
                        td { a href={ "/events/" (e.id) "/matches/" (m.n) } { "watch" } }
                    }
                }
            }
        }
    }
}

pub async fn event(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    Path(id): Path<EventId>,
) -> Response {
    let e = match super::api::load(&app, id, Detail::Full).await {
        Ok(e) => e,
        Err(e) => return api_error(e, &caller),
    };
    let body = html! {
        h1 { "Event " (e.id) " on hill " a href={ "/hills/" (e.hill) } { (e.hill) } }
        p #event-summary { (summary(&e)) "; unranked: the hill's standings never count it." }
        (state_line(&e))
        @if !e.programs.is_empty() {
            h2 { "Programs" }
            p { "The versions that stood on the hill at the event's start, and their rank then." }
            div.scroll {
                table #event-programs {
                    tr { th { "program" } th { "version" } th { "author" } th { "rank at the start" } }
                    @for p in &e.programs {
                        tr data-program=(p.id) {
                            td { a href={ "/programs/" (p.id) } { (p.name) } }
                            td { "v" (p.version) }
                            td { (p.author) }
                            td { (p.rank) }
                        }
                    }
                }
            }
            (table_part(&e.table))
            (matches_part(&e))
        }
    };
    respond(
        StatusCode::OK,
        layout(&format!("Event {}", e.id), &caller, body),
    )
}

pub async fn viewer(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    Path((id, n)): Path<(EventId, u32)>,
) -> Response {
    doc_page(super::api::replay(&app, id, n, &caller).await, &caller)
}
