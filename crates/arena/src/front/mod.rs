//! The front door (docs/ARENA.md, "The pages"): the home page says what the game is and
//! leads to play in the browser, the rooms, the hills with their leaders and the tutorial;
//! `/tutorial` serves docs/TUTORIAL.md as escaped text (no markup from the file reaches the
//! page as markup).

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

/// The tutorial, as the repository ships it.
const TUTORIAL: &str = include_str!("../../../../docs/TUTORIAL.md");

pub async fn home(State(app): State<Arc<App>>, Extension(caller): Extension<Caller>) -> Response {
    let db = Arc::clone(&app.db);
    let hills = match api::blocking(move || Ok(db.read(store::hills)?)).await {
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

pub async fn tutorial(Extension(caller): Extension<Caller>) -> Response {
    let body = html! {
        p { "The tutorial of the robots repository (docs/TUTORIAL.md), as text. Its commands run the " code { "robots" } " program on your machine; " a href="/play/" { "/play" } " runs programs in the browser." }
        pre #tutorial { (TUTORIAL) }
    };
    respond(StatusCode::OK, layout("Tutorial", &caller, body))
}
