//! The arena's pages (docs/ARENA.md, "The pages"), made with maud: every text from a
//! stranger (names, comments, diagnostics) is escaped by the template; the pages' scripts
//! and styles are files (`web/arena/`, `web/`), so the Content-Security-Policy forbids
//! inline script. The forms' handlers are in `forms.rs`.

use super::App;
use super::api::bodies::{Diagnostic, MatchView, Outcome, ProgramView, StandingRow};
use super::api::{self, ApiError};
use super::auth::Caller;
use super::db::ids::{MatchId, ProgramId};
use super::store::{self, Status};
use super::versions;
use super::views::{self, Mark, Series, history_svg, history_svg_marked, may_read};
use axum::Extension;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use maud::{DOCTYPE, Markup, html};
use std::sync::Arc;

/// A page: the layout around `body`.
pub fn layout(title: &str, caller: &Caller, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · robots arena" }
                link rel="stylesheet" href="/static/arena.css";
                script src="/static/arena.js" defer {}
            }
            body {
                nav {
                    a href="/" { "robots arena" }
                    @if let Some(a) = &caller.account {
                        span { "signed in as " span #who { (a.name) } }
                        a href="/rooms" { "rooms" }
                    a href="/account" { "account" }
                        form #signout method="post" action="/signout" {
                            input type="hidden" name="csrf" value=(caller.csrf);
                            button type="submit" { "Sign out" }
                        }
                    } @else {
                        a href="/signin" { "Sign in" }
                        a href="/signup" { "Sign up" }
                    }
                }
                main { (body) }
            }
        }
    }
}

/// A page with its status code.
pub fn respond(status: StatusCode, page: Markup) -> Response {
    (status, Html(page.into_string())).into_response()
}

pub fn error_page(status: StatusCode, detail: &str, caller: &Caller) -> Response {
    respond(
        status,
        layout(
            "Error",
            caller,
            html! { h1 { (status.as_u16()) } p #error { (detail) } },
        ),
    )
}

/// An API error as a page.
pub fn api_error(e: ApiError, caller: &Caller) -> Response {
    error_page(e.status, &e.detail, caller)
}

/// The sign-up or sign-in form, with an error when there is one.
pub fn credentials_form(id: &str, caller: &Caller, error: Option<&str>) -> Markup {
    let (title, action, button) = if id == "signup" {
        ("Sign up", "/signup", "Create the account")
    } else {
        ("Sign in", "/signin", "Sign in")
    };
    let body = html! {
        h1 { (title) }
        @if let Some(e) = error { p #error { (e) } }
        form #(id) method="post" action=(action) {
            input type="hidden" name="csrf" value=(caller.csrf);
            label { "name " input name="name" required maxlength="32" autocomplete="username"; }
            label { "password " input name="password" type="password" required minlength="8" maxlength="128"; }
            button type="submit" { (button) }
        }
    };
    layout(title, caller, body)
}

pub async fn signup_form(Extension(caller): Extension<Caller>) -> Response {
    respond(StatusCode::OK, credentials_form("signup", &caller, None))
}

pub async fn signin_form(Extension(caller): Extension<Caller>) -> Response {
    respond(StatusCode::OK, credentials_form("signin", &caller, None))
}

pub(crate) fn standings_table(rows: &[StandingRow]) -> Markup {
    html! {
        table #standings {
            tr { th { "rank" } th { "program" } th { "author" } th { "points" } th { "W/D/L" } th { "rating ± 95 %" } th { "played" } }
            @for r in rows {
                tr data-program=(r.id) {
                    td.rank { (r.rank) }
                    td.name { a href={ "/programs/" (r.id) } { (r.name) } }
                    td.author { (r.author) }
                    td.points { (r.points) }
                    td.wdl { (r.wins) "/" (r.draws) "/" (r.losses) }
                    td.rating { (format!("{:.0} ± {:.0}", r.rating, r.interval)) }
                    td.played { (r.played) }
                }
            }
        }
    }
}

pub(crate) fn head_to_head(rows: &[StandingRow]) -> Markup {
    html! {
        table #head-to-head {
            tr { th {} @for r in rows { th title=(r.name) { (r.rank) } } }
            @for r in rows {
                tr {
                    th { (r.rank) " " (r.name) }
                    @for o in rows {
                        @if o.id == r.id { td { "—" } } @else {
                            td { (r.head_to_head.iter().find(|v| v.id == o.id).and_then(|v| v.share).map_or("".to_string(), |s| format!("{:.0} %", s * 100.0))) }
                        }
                    }
                }
            }
        }
    }
}

pub async fn hill(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    Path(name): Path<String>,
) -> Response {
    let loaded = async {
        let hill = api::hill(&app, name).await?;
        let rows = api::standings(&app, &hill).await?;
        let db = Arc::clone(&app.db);
        let id = hill.id;
        let waiting = api::blocking(move || {
            Ok(db.read(|c| store::programs_of_hill(c, id, &[Status::Queued, Status::Playing]))?)
        })
        .await?;
        Ok::<_, ApiError>((hill, rows, waiting))
    };
    let (hill, rows, waiting) = match loaded.await {
        Ok(x) => x,
        Err(e) => return api_error(e, &caller),
    };
    let body = html! {
        h1 { "Hill " (hill.name) }
        p #settings { (hill.settings.summary()) }
        p { a #submit-link href={ "/hills/" (hill.name) "/submit" } { "Submit a program" } " · " a #events-link href={ "/hills/" (hill.name) "/events" } { "Events" } }
        @if !waiting.is_empty() {
            h2 { "Being placed" }
            ul #waiting { @for p in &waiting { li { a href={ "/programs/" (p.id) } { (p.name) } " by " (p.author) ": " (p.status.word()) " (" (p.games_done) " of " (p.games_total) " matches)" } } }
        }
        h2 { "Standings" }
        (standings_table(&rows))
        h2 { "Rank over time" }
        img #history src={ "/hills/" (hill.name) "/history.svg" } alt="the rank of each program after each placement";
        h2 { "Head to head" }
        p { "What the row's program scored against the column's (wins and half the draws)." }
        (head_to_head(&rows))
    };
    respond(
        StatusCode::OK,
        layout(&format!("Hill {}", hill.name), &caller, body),
    )
}

fn svg(body: String) -> Response {
    ([(header::CONTENT_TYPE, "image/svg+xml")], body).into_response()
}

pub async fn hill_history(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    Path(name): Path<String>,
) -> Response {
    let found = async {
        let hill = api::hill(&app, name).await?;
        let db = Arc::clone(&app.db);
        api::blocking(move || {
            let placed = db.read(|c| store::programs_of_hill(c, hill.id, &[Status::Placed]))?;
            let all = db.read(|c| store::history_of_hill(c, hill.id))?;
            Ok(placed
                .iter()
                .map(|p| Series {
                    name: p.name.clone(),
                    points: all
                        .iter()
                        .filter(|h| h.program == p.id)
                        .map(|h| h.ranked)
                        .collect(),
                })
                .collect::<Vec<Series>>())
        })
        .await
    };
    match found.await {
        Ok(series) => svg(history_svg(&series)),
        Err(e) => api_error(e, &caller),
    }
}

pub async fn program_history(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    Path(id): Path<ProgramId>,
) -> Response {
    let db = Arc::clone(&app.db);
    let found = api::blocking(move || {
        let p = db
            .read(|c| store::program(c, id))?
            .ok_or_else(|| ApiError::not_found("program"))?;
        let plotted = db.read(|c| versions::plotted(c, &p))?;
        let marks = plotted.iter().map(|v| Mark {
            epoch: v.since,
            label: format!("v{}", v.version),
        });
        let series = plotted.iter().map(|v| Series {
            name: format!("{} v{}", p.name, v.version),
            points: v.points.clone(),
        });
        Ok((series.collect::<Vec<_>>(), marks.collect::<Vec<_>>()))
    });
    match found.await {
        Ok((series, marks)) => svg(history_svg_marked(&series, &marks)),
        Err(e) => api_error(e, &caller),
    }
}

/// The editor's script for the arena's submission page and battle room (`web/play/edit/
/// enhance.js` bundled by `web/play/build.mjs`): /play's editor with the engine's `check`,
/// run in /play's worker (play/) (whose answer carries `PLAY_CSP`: the pages keep the arena's).
pub const EDITOR_SCRIPT: &str = "/play/enhance.js";

/// Whether the folder holds the editor (its script, the worker and the engine): the pages
/// then load it; else they are the plain forms they are without JavaScript.
pub fn has_editor(app: &App) -> bool {
    app.play.as_ref().is_some_and(|dir| {
        ["enhance.js", "worker.js", "robots.wasm", "play.css"]
            .iter()
            .all(|f| dir.join(f).is_file())
    })
}

/// The editor: name, text, the diagnostics at their line and column. With `editor` (the
/// `/play` folder holds the editor's bundle), the textarea is marked for /play's editor and
/// its script loaded (`EDITOR_SCRIPT`); without it the page is the plain form.
pub fn submit_page(
    caller: &Caller,
    hill: &store::Hill,
    (name, source): (&str, &str),
    error: Option<&str>,
    diagnostics: &[Diagnostic],
    (editor, challenge): (bool, Markup),
) -> Markup {
    let (hill, keywords) = (&hill.name, hill.settings.keywords.name());
    let body = html! {
        h1 { "Submit a program to " a href={ "/hills/" (hill) } { (hill) } }
        p { "Its text stays secret: others see its name, standings and matches (docs/LANGUAGE.md tells the language). A new version under the same name replaces yours." }
        @if let Some(e) = error { p #error { (e) } }
        form #submit-form method="post" action={ "/hills/" (hill) "/submit" } data-hill=(hill) {
            input type="hidden" name="csrf" value=(caller.csrf);
            label { "name " input #name name="name" value=(name) required maxlength="64" pattern="[A-Za-z0-9_\\-]+"; }
            @if editor {
                textarea #source name="source" rows="20" cols="70" spellcheck="false" data-editor="robot" data-keywords=(keywords) { (source) }
            } @else {
                textarea #source name="source" rows="20" cols="70" spellcheck="false" { (source) }
            }
            div { button #check type="button" { "Check" } " " button #submit type="submit" { "Submit" } }
            (challenge)
        }
        ul #diagnostics { @for d in diagnostics { (diagnostic(d)) } }
        @if editor { script type="module" src=(EDITOR_SCRIPT) {} }
    };
    layout("Submit", caller, body)
}

fn diagnostic(d: &Diagnostic) -> Markup {
    html! {
        li class={ "diagnostic " (d.severity) } data-line=(d.line) data-column=(d.column) {
            "line " (d.line) ", column " (d.column) ": " (d.message)
        }
    }
}

pub async fn submit_form(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    Path(name): Path<String>,
) -> Response {
    match api::hill(&app, name).await {
        Ok(hill) => {
            let challenge = crate::challenges::section::submit_fieldset(&app, &hill).await;
            respond(
                StatusCode::OK,
                submit_page(
                    &caller,
                    &hill,
                    ("", ""),
                    None,
                    &[],
                    (has_editor(&app), challenge),
                ),
            )
        }
        Err(e) => api_error(e, &caller),
    }
}

fn program_page(
    caller: &Caller,
    p: &ProgramView,
    (owner, versions, challenges): (bool, Markup, Markup),
    matches: &[MatchView],
) -> Markup {
    html! {
        h1 { "Program " (p.name) }
        p { "by " (p.author) " on hill " a href={ "/hills/" (p.hill) } { (p.hill) } }
        p #status data-status=(p.status.word()) data-id=(p.id) { "status: " (p.status.word()) }
        p #progress { "played " (p.games_done) " of " (p.games_total) " placement matches" }
        @if let Some(rank) = p.rank { p #rank { "rank " (rank) } }
        img #history src={ "/programs/" (p.id) "/history.svg" } alt="its rank after each placement";
        @if let Some(source) = &p.source { h2 { "Its text" } pre #source { (source) } }
        @if owner {
            @if !p.published { form #publish method="post" action={ "/programs/" (p.id) "/publish" } { input type="hidden" name="csrf" value=(caller.csrf); button type="submit" { "Publish its text" } } }
            @if p.status.live() { form #withdraw method="post" action={ "/programs/" (p.id) "/withdraw" } { input type="hidden" name="csrf" value=(caller.csrf); button type="submit" { "Withdraw it" } } }
        }
        (versions)
        (challenges)
        h2 { "Matches, worst first" }
        div.scroll-x { table #matches {
            tr { th { "result" } th { "green" } th { "violet" } th { "seed" } th { "rounds" } th { "how" } th {} }
            @for m in matches {
                tr data-match=(m.id) class=(m.result.map_or("", Outcome::word)) {
                    td { (m.result.map_or("", Outcome::word)) } td { (m.green.name) } td { (m.violet.name) }
                    td { (m.seed_index) } td { (m.rounds) } td { (m.reason) }
                    td { a href={ "/matches/" (m.id) } { "watch" } }
                }
            }
        } }
    }
}

pub async fn program(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    Path(id): Path<ProgramId>,
) -> Response {
    let loaded = async {
        let (p, rank) = api::program(&app, id).await?;
        let matches = api::program_matches(&app, id, 100, 0).await?;
        let (_, versions) = versions::api::versions(&app, id).await?;
        Ok::<_, ApiError>((p, rank, matches, versions))
    };
    let (p, rank, matches, list) = match loaded.await {
        Ok(x) => x,
        Err(e) => return api_error(e, &caller),
    };
    let who = caller.account.as_ref().map(|a| a.id);
    let view = views::program_view(&p, rank, who);
    debug_assert_eq!(view.source.is_some(), may_read(&p, who));
    let owner = caller.is(p.account);
    let table = versions::table(&p, &list, owner.then_some(caller.csrf.as_str()));
    let challenges = crate::challenges::section::program_section(&app, &caller, &p).await;
    let body = program_page(&caller, &view, (owner, table, challenges), &matches);
    respond(
        StatusCode::OK,
        layout(&format!("Program {}", p.name), &caller, body),
    )
}

pub async fn viewer(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    Path(id): Path<MatchId>,
) -> Response {
    let json = api::replay(&app, id, &caller)
        .await
        .map(|doc| doc.json().and_then(|j| views::viewer_page_json(&j)));
    page_of(json, &caller)
}

/// The viewer's page of a match's document, or the error's page.
pub fn doc_page(
    doc: Result<robots_games::battle::show::view::ViewDoc, ApiError>,
    caller: &Caller,
) -> Response {
    page_of(doc.map(|doc| views::viewer_page(&doc)), caller)
}

/// The viewer's page made (`None`: it cannot be), or the error's page.
fn page_of(page: Result<Option<String>, ApiError>, caller: &Caller) -> Response {
    match page {
        Ok(page) => match page {
            Some(page) => Html(page).into_response(),
            None => error_page(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the page cannot be made",
                caller,
            ),
        },
        Err(e) => api_error(e, caller),
    }
}

/// A room's page (docs/ROOMS.md, "The pages"): its ES modules, `room.js` the entry that
/// imports the others (web/README.md); served beside palette.js and model.js, which the page
/// loads first as classic scripts.
pub const ROOM_MODULES: [(&str, &str); 8] = [
    ("room.js", include_str!("../../../web/rooms/room.js")),
    ("socket.js", include_str!("../../../web/rooms/socket.js")),
    ("dom.js", include_str!("../../../web/rooms/dom.js")),
    ("words.js", include_str!("../../../web/rooms/words.js")),
    ("battle.js", include_str!("../../../web/rooms/battle.js")),
    ("tokens.js", include_str!("../../../web/rooms/tokens.js")),
    (
        "ricochet.js",
        include_str!("../../../web/rooms/ricochet.js"),
    ),
    ("micro.js", include_str!("../../../web/rooms/micro.js")),
];

/// The pages' files, from the binary.
pub async fn asset(Path(file): Path<String>) -> Response {
    let (kind, body): (&str, String) = match file.as_str() {
        "arena.css" => (
            "text/css",
            include_str!("../../../web/arena/arena.css").into(),
        ),
        "arena.js" => (
            "text/javascript",
            include_str!("../../../web/arena/arena.js").into(),
        ),
        "viewer.css" => ("text/css", robots_games::battle::show::page::STYLE.into()),
        "room.css" => (
            "text/css",
            include_str!("../../../web/rooms/room.css").into(),
        ),
        "palette.js" => (
            "text/javascript",
            robots_games::battle::show::page::SCRIPTS[0].into(),
        ),
        "model.js" => (
            "text/javascript",
            robots_games::battle::show::page::SCRIPTS[1].into(),
        ),
        "board.js" => (
            "text/javascript",
            robots_games::battle::show::page::SCRIPTS[2].into(),
        ),
        "front.js" => (
            "text/javascript",
            include_str!("../../../web/arena/front.js").into(),
        ),
        "viewer.js" => (
            "text/javascript",
            robots_games::battle::show::page::SCRIPTS.concat(),
        ),
        name => match ROOM_MODULES.iter().find(|(module, _)| *module == name) {
            Some((_, body)) => ("text/javascript", (*body).into()),
            None => return (StatusCode::NOT_FOUND, "no such file").into_response(),
        },
    };
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "public, max-age=300"),
        ],
        body,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::ROOM_MODULES;

    /// Every module of web/rooms/ is served, and every module one imports is one served.
    #[test]
    fn the_room_page_serves_every_module_it_imports() {
        let mut served: Vec<&str> = ROOM_MODULES.iter().map(|(name, _)| *name).collect();
        served.sort_unstable();
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/rooms");
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .expect("web/rooms")
            .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
            .filter(|name| name.ends_with(".js"))
            .collect();
        files.sort_unstable();
        assert_eq!(files, served, "web/rooms/*.js and ROOM_MODULES");
        for (name, body) in ROOM_MODULES {
            for line in body.lines().filter(|l| !l.trim_start().starts_with("//")) {
                let Some(at) = line.find(" from './") else {
                    continue;
                };
                let rest = &line[at + " from './".len()..];
                let module = &rest[..rest.find('\'').expect("a quoted module")];
                assert!(
                    served.contains(&module),
                    "{name} imports {module}, not served"
                );
            }
        }
    }
}
