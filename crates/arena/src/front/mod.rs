//! The front door (docs/ARENA.md, "The pages"): the home page says what the game is, shows
//! the latest match between two placed programs playing on a small board (`web/arena/
//! front.js` plays its replay, fetched from the API as an anonymous visitor sees it: no
//! program's steps or tests), and leads to play in the browser, the rooms, the hills with
//! their leaders and the tutorial; `/tutorial` serves docs/TUTORIAL.md rendered from its
//! Markdown (pulldown-cmark), any HTML in the file shown as text, never as markup.

use super::App;
use super::api;
use super::auth::Caller;
use super::pages::{api_error, layout, respond};
use super::store;
use axum::Extension;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use maud::html;
use std::sync::Arc;

#[cfg(test)]
mod tests;

/// The tutorial, as the repository ships it.
const TUTORIAL: &str = include_str!("../../../../docs/TUTORIAL.md");

pub async fn home(State(app): State<Arc<App>>, Extension(caller): Extension<Caller>) -> Response {
    let db = Arc::clone(&app.db);
    let read =
        api::blocking(move || Ok(db.read(|c| Ok((store::hills(c)?, store::recent_match(c)?)))?));
    let (hills, recent) = match read.await {
        Ok(h) => h,
        Err(e) => return api_error(e, &caller),
    };
    let mut leaders = Vec::with_capacity(hills.len());
    for h in &hills {
        match api::standings(&app, h).await {
            Ok(rows) => leaders.push(
                rows.first()
                    .map(|r| (r.id, r.name.clone(), r.author.clone())),
            ),
            Err(e) => return api_error(e, &caller),
        }
    }
    let body = html! {
        section #intro {
            h1 { "Robots that you program" }
            p.lead { "Write a few numbered steps for a robot — move, turn, look, fire — and your team plays another's on a hex board, turn by turn, with nobody at the controls." }
            p.lead { "Try it in the browser, play friends live in a room, or put your program on a hill where it meets every other one there and is ranked." }
        }
        @if let Some(m) = &recent { (recent_figure(m)) }
        ul #doors {
            li { a #play-link href="/play/" { "Play in the browser" } ": write a program and run it against the shipped ones, nothing to install." }
            li { a #rooms-link href="/rooms" { "Rooms" } ": play friends live, each from their own device (signed in)." }
            li { a #tutorial-link href="/tutorial" { "The tutorial" } ": your first program, from an empty file to a hill, in a quarter of an hour." }
            li { a #hills-link href="#hills" { "The hills" } ": where programs are ranked; sign up to submit yours, its text stays secret." }
        }
        h2 { "Hills" }
        div.scroll {
            table #hills {
                tr { th { "hill" } th { "leader" } th { "programs" } th { "settings" } }
                @for (h, leader) in hills.iter().zip(&leaders) {
                    tr {
                        td { a href={ "/hills/" (h.name) } { (h.name) } }
                        td.leader {
                            @if let Some((id, name, author)) = leader {
                                a href={ "/programs/" (id) } { (name) } " by " (author)
                            } @else { "—" }
                        }
                        td { (h.programs) " of " (h.settings.size) }
                        td { (h.settings.summary()) }
                    }
                }
            }
        }
    };
    respond(StatusCode::OK, layout("Hills", &caller, body))
}

/// The latest match playing (front.js), its sides, and the way to the viewer.
fn recent_figure(m: &store::MatchRow) -> maud::Markup {
    html! {
        figure #recent data-match=(m.id) {
            svg #recent-board role="img" aria-label="a recent match on the board" {}
            figcaption {
                "A recent match on " a href={ "/hills/" (m.hill) } { (m.hill) } ": "
                a href={ "/programs/" (m.green.id) } { (m.green.name) } " (green) against "
                a href={ "/programs/" (m.violet.id) } { (m.violet.name) } " (violet), seed " (m.seed_index) ", "
                span #recent-turn { "turn 0" } ". "
                a #recent-link href={ "/matches/" (m.id) } { "Watch it in the viewer" } "."
            }
        }
        script src="/static/palette.js" defer {}
        script src="/static/model.js" defer {}
        script src="/static/board.js" defer {}
        script src="/static/front.js" defer {}
    }
}

/// Markdown as HTML; HTML in the Markdown (blocks and inline) is shown as text.
fn markdown(text: &str) -> String {
    use pulldown_cmark::{Event, Parser, html};
    let events = Parser::new(text).map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Event::Text(raw),
        other => other,
    });
    let mut out = String::with_capacity(text.len() * 3 / 2);
    html::push_html(&mut out, events);
    out
}

pub async fn tutorial(Extension(caller): Extension<Caller>) -> Response {
    static RENDERED: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| markdown(TUTORIAL));
    let body = html! {
        p.note { "The tutorial of the robots repository (docs/TUTORIAL.md). Its commands run the " code { "robots" } " program on your machine; " a href="/play/" { "/play" } " runs programs in the browser." }
        article #tutorial { (maud::PreEscaped(RENDERED.as_str())) }
    };
    respond(StatusCode::OK, layout("Tutorial", &caller, body))
}
