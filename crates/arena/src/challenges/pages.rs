//! The challenges' pages and forms (docs/ARENA.md, "Challenges"): the forms of one's
//! program page and of the submission page's unsaved text, the list of one's challenges, a
//! challenge's results, and its matches in the viewer (the challenger's). The parts shown
//! on other pages are `section.rs`.

use super::section::table;
use crate::App;
use crate::api::bodies::NewChallenge;
use crate::auth::Caller;
use crate::db::ids::{ChallengeId, ProgramId};
use crate::forms::checked;
use crate::pages::{api_error, doc_page, error_page, layout, respond};
use axum::Extension;
use axum::extract::rejection::FormRejection;
use axum::extract::{Form, Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use maud::html;
use serde::Deserialize;
use std::sync::Arc;

/// The challenge form from one's program page.
#[derive(Deserialize)]
pub struct ProgramChallengeForm {
    pub opponent: String,
    pub seeds: u32,
    pub csrf: String,
}

/// The challenge form from the submission page: its unsaved text.
#[derive(Deserialize)]
pub struct TextChallengeForm {
    pub name: String,
    pub source: String,
    pub opponent: String,
    pub seeds: u32,
    pub csrf: String,
}

/// An opponent as the forms name it: `program:ID` or `shipped:NAME`.
fn opponent(value: &str, n: &mut NewChallenge) -> bool {
    if let Some(id) = value.strip_prefix("program:") {
        n.opponent = id.parse().ok();
        n.opponent.is_some()
    } else if let Some(name) = value.strip_prefix("shipped:") {
        n.shipped = Some(name.to_string());
        true
    } else {
        false
    }
}

/// After a form's challenge: its page, or the refusal's.
async fn made(app: &Arc<App>, caller: &Caller, n: NewChallenge) -> Response {
    let Some(account) = &caller.account else {
        return error_page(StatusCode::UNAUTHORIZED, "sign in first", caller);
    };
    match super::api::create(app, account.id, n).await {
        Ok(id) => Redirect::to(&format!("/challenges/{id}")).into_response(),
        Err(refusal) => {
            let status = refusal.status();
            let body = axum::body::to_bytes(refusal.into_body(), 1 << 16)
                .await
                .unwrap_or_default();
            let words: Option<crate::api::bodies::Refusal> = serde_json::from_slice(&body).ok();
            let page = match words {
                Some(r) => html! {
                    h1 { (status.as_u16()) }
                    p #error { (r.detail) }
                    ul #diagnostics {
                        @for d in r.diagnostics.unwrap_or_default() {
                            li class={ "diagnostic " (d.severity) } data-line=(d.line) data-column=(d.column) {
                                "line " (d.line) ", column " (d.column) ": " (d.message)
                            }
                        }
                    }
                },
                None => {
                    html! { h1 { (status.as_u16()) } p #error { "The challenge was refused." } }
                }
            };
            respond(status, layout("Challenge refused", caller, page))
        }
    }
}

pub async fn challenge_program(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    Path(id): Path<ProgramId>,
    form: Result<Form<ProgramChallengeForm>, FormRejection>,
) -> Response {
    let f = match checked(form, |f| &f.csrf, &caller) {
        Ok(f) => f,
        Err(page) => return *page,
    };
    let mut n = NewChallenge {
        program: Some(id),
        seeds: f.seeds,
        ..NewChallenge::default()
    };
    if !opponent(&f.opponent, &mut n) {
        return error_page(StatusCode::BAD_REQUEST, "Pick an opponent.", &caller);
    }
    made(&app, &caller, n).await
}

pub async fn challenge_text(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    Path(hill): Path<String>,
    form: Result<Form<TextChallengeForm>, FormRejection>,
) -> Response {
    let f = match checked(form, |f| &f.csrf, &caller) {
        Ok(f) => f,
        Err(page) => return *page,
    };
    let mut n = NewChallenge {
        hill: Some(hill),
        name: Some(f.name),
        source: Some(f.source),
        seeds: f.seeds,
        ..NewChallenge::default()
    };
    if !opponent(&f.opponent, &mut n) {
        return error_page(StatusCode::BAD_REQUEST, "Pick an opponent.", &caller);
    }
    made(&app, &caller, n).await
}

pub async fn list(State(app): State<Arc<App>>, Extension(caller): Extension<Caller>) -> Response {
    match super::api::list(&app, &caller).await {
        Ok(list) => respond(
            StatusCode::OK,
            layout(
                "Challenges",
                &caller,
                html! {
                    h1 { "Your challenges" }
                    p { "Made with your programs, or met by them. Unranked: the standings never count them." }
                    (table(&list))
                },
            ),
        ),
        Err(e) => api_error(e, &caller),
    }
}

pub async fn challenge(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    Path(id): Path<ChallengeId>,
) -> Response {
    let c = match super::api::load(&app, id, &caller).await {
        Ok(c) => c,
        Err(e) => return api_error(e, &caller),
    };
    let body = html! {
        h1 { "Challenge: " (c.name) " v " (c.opponent.name) }
        p { "by " (c.challenger) " on hill " a href={ "/hills/" (c.hill) } { (c.hill) } ", against "
            @match (&c.opponent.id, &c.opponent.author) {
                (Some(id), Some(author)) => { a href={ "/programs/" (id) } { (c.opponent.name) } " by " (author) }
                _ => { "the shipped " (c.opponent.name) }
            }
            ", " (c.seeds) " seed(s) both ways; unranked." }
        p #challenge-state data-state=(c.state) data-id=(c.id) { "state: " (c.state) }
        p #tally { (c.name) ": " (c.wins) " won, " (c.draws) " drawn, " (c.losses) " lost of " (c.played) " played" }
        @if let Some(matches) = &c.matches {
            div.scroll {
                table #challenge-matches {
                    tr { th { "result" } th { "colour" } th { "seed" } th { "rounds" } th { "how" } th {} }
                    @for m in matches {
                        tr data-n=(m.n) class=(m.result.word()) {
                            td { (m.result.word()) } td { (m.colour) } td { (m.seed_index) }
                            td { (m.rounds) } td { (m.reason) }
                            td { a href={ "/challenges/" (c.id) "/matches/" (m.n) } { "watch" } }
                        }
                    }
                }
            }
        }
    };
    respond(
        StatusCode::OK,
        layout(&format!("Challenge {}", c.id), &caller, body),
    )
}

pub async fn viewer(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    Path((id, n)): Path<(ChallengeId, u32)>,
) -> Response {
    doc_page(super::api::replay(&app, id, n, &caller).await, &caller)
}
