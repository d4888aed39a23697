//! The pages of versions, for the author only (the routes' rule): a diff between two
//! versions, line numbers on both sides and every text escaped by the template; and the form
//! that submits an old version again (a new version, then its page).

use super::api::{diff, resubmit};
use crate::App;
use crate::api::bodies::{DiffLine, DiffQuery};
use crate::auth::Caller;
use crate::db::ids::ProgramId;
use crate::forms::{CsrfForm, checked};
use crate::pages::{api_error, error_page, layout, respond};
use axum::Extension;
use axum::extract::rejection::{FormRejection, QueryRejection};
use axum::extract::{Form, Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use maud::{Markup, html};
use std::sync::Arc;

fn number(n: Option<usize>) -> String {
    n.map_or_else(String::new, |n| n.to_string())
}

fn line(l: &DiffLine) -> Markup {
    let mark = match l.kind.as_str() {
        "removed" => "-",
        "added" => "+",
        _ => " ",
    };
    html! {
        tr class=(l.kind) {
            td.old { (number(l.old)) }
            td.new { (number(l.new)) }
            td.text { code { (mark) (l.text) } }
        }
    }
}

pub async fn diff_page(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    Path(id): Path<ProgramId>,
    q: Result<Query<DiffQuery>, QueryRejection>,
) -> Response {
    let Ok(Query(q)) = q else {
        return error_page(
            StatusCode::BAD_REQUEST,
            "from and to are version numbers",
            &caller,
        );
    };
    let d = match diff(&app, id, &q).await {
        Ok(d) => d,
        Err(e) => return api_error(e, &caller),
    };
    let body = html! {
        h1 { "v" (d.from) " → v" (d.to) }
        p { a href={ "/programs/" (id) } { "back to the program" } }
        @if d.hunks.is_empty() {
            p #same { "The two versions' texts are the same." }
        }
        div.scroll-x {
            table #diff data-from=(d.from) data-to=(d.to) {
                @for (i, hunk) in d.hunks.iter().enumerate() {
                    @if i > 0 { tr.gap { td colspan="3" { "⋯" } } }
                    @for l in hunk { (line(l)) }
                }
            }
        }
    };
    respond(
        StatusCode::OK,
        layout(&format!("v{} → v{}", d.from, d.to), &caller, body),
    )
}

pub async fn resubmit_form(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    Path((id, n)): Path<(ProgramId, u32)>,
    form: Result<Form<CsrfForm>, FormRejection>,
) -> Response {
    if let Err(page) = checked(form, |f| &f.csrf, &caller) {
        return *page;
    }
    match resubmit(&app, &caller, id, n).await {
        Ok(s) => Redirect::to(&format!("/programs/{}", s.id)).into_response(),
        Err(e) => api_error(e, &caller),
    }
}
