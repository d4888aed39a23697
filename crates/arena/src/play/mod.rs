//! `/play`: the page that plays the battle game in the browser (docs/PLAY-IN-BROWSER.md),
//! served from the static folder `scripts/web` writes (`Config::play`, `robots serve
//! --play DIR`). Only the folder's own files, named by one path segment of a known kind,
//! are served, under the arena's Content-Security-Policy with `'wasm-unsafe-eval'` added
//! (the page compiles its WebAssembly engine, and nothing else does). Without the folder,
//! `/play/` is a page saying how to build it.

use super::App;
use super::auth::Caller;
use super::pages;
use axum::Extension;
use axum::extract::{Path, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use maud::html;
use std::sync::Arc;

/// The page's Content-Security-Policy: the arena's (`crate::CSP`) with `'wasm-unsafe-eval'`
/// in `script-src`.
pub const PLAY_CSP: &str = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/// The largest file served from the folder (the engine is about 1 MiB).
const MAX_FILE: u64 = 16 * 1024 * 1024;

/// The kinds of file the folder holds, by the name's ending, with their content type.
const KINDS: [(&str, &str); 4] = [
    (".html", "text/html; charset=utf-8"),
    (".js", "text/javascript; charset=utf-8"),
    (".css", "text/css; charset=utf-8"),
    (".wasm", "application/wasm"),
];

/// `/play` → `/play/`: the page's files are named relative to its folder.
pub async fn to_folder() -> Redirect {
    Redirect::to("/play/")
}

/// `/play/`: the page.
pub async fn index(State(app): State<Arc<App>>, Extension(caller): Extension<Caller>) -> Response {
    serve(&app, "index.html", &caller).await
}

/// `/play/{file}`: one of the page's files.
pub async fn file(
    State(app): State<Arc<App>>,
    Path(name): Path<String>,
    Extension(caller): Extension<Caller>,
) -> Response {
    // The puzzle pages by their names (web/puzzles/): /play/ricochet, /play/micro.
    let name = match name.as_str() {
        "ricochet" | "micro" => format!("{name}.html"),
        _ => name,
    };
    serve(&app, &name, &caller).await
}

/// The content type of a file the page may hold, or `None` for any other name: one path
/// segment of ASCII letters, digits, `-`, `_` and one dot before a known ending.
pub fn kind_of(name: &str) -> Option<&'static str> {
    let (stem, _) = name.split_once('.')?;
    let plain = |s: &str| {
        !s.is_empty()
            && s.len() <= 64
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    };
    if !plain(stem) {
        return None;
    }
    KINDS
        .iter()
        .find(|(ending, _)| name.len() == stem.len() + ending.len() && name.ends_with(ending))
        .map(|(_, kind)| *kind)
}

async fn serve(app: &App, name: &str, caller: &Caller) -> Response {
    let Some(dir) = &app.play else {
        return not_built(caller);
    };
    let Some(kind) = kind_of(name) else {
        return with_csp(pages::error_page(
            StatusCode::NOT_FOUND,
            "There is no such file.",
            caller,
        ));
    };
    let path = dir.join(name);
    // The blocking threads read files (the arena's tokio has no `fs`).
    let body = tokio::task::spawn_blocking(move || read_small(&path))
        .await
        .ok()
        .flatten();
    let Some(body) = body else {
        return if name == "index.html" {
            not_built(caller)
        } else {
            with_csp(pages::error_page(
                StatusCode::NOT_FOUND,
                "There is no such file.",
                caller,
            ))
        };
    };
    with_csp(
        (
            [
                (header::CONTENT_TYPE, kind),
                (header::CACHE_CONTROL, "public, max-age=60"),
            ],
            body,
        )
            .into_response(),
    )
}

/// A file of at most `MAX_FILE` bytes, or `None`.
fn read_small(path: &std::path::Path) -> Option<Vec<u8>> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > MAX_FILE {
        return None;
    }
    std::fs::read(path).ok()
}

/// The answer without the folder: how to build it.
fn not_built(caller: &Caller) -> Response {
    let body = html! {
        h1 { "Play in the browser" }
        p #not-built {
            "This server has no page to play with: build it with " code { "scripts/web" }
            " (it writes " code { "web/dist/" } "), then start " code { "robots serve" }
            " from the repository, or give the folder with " code { "--play DIR" } "."
        }
    };
    pages::respond(StatusCode::OK, pages::layout("Play", caller, body))
}

/// The page's policy on an answer (the arena's layer keeps a policy already set).
fn with_csp(mut response: Response) -> Response {
    response.headers_mut().insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(PLAY_CSP),
    );
    response
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod names {
    use super::{PLAY_CSP, kind_of};

    #[test]
    fn only_plain_names_of_known_kinds_are_files_of_the_page() {
        assert_eq!(kind_of("index.html"), Some("text/html; charset=utf-8"));
        assert_eq!(kind_of("robots.wasm"), Some("application/wasm"));
        assert_eq!(kind_of("main.js"), Some("text/javascript; charset=utf-8"));
        for name in [
            "..",
            "../x.js",
            ".js",
            "a..js",
            "a.js.map",
            "a.txt",
            "a/b.js",
            "%2e%2e.js",
            "a b.js",
            "a.JS",
            "",
            "index.html.",
            "a.wasm2",
        ] {
            assert_eq!(kind_of(name), None, "{name}");
        }
    }

    #[test]
    fn the_page_policy_is_the_arenas_with_wasm_only() {
        assert_eq!(
            PLAY_CSP.replace(" 'wasm-unsafe-eval'", ""),
            crate::CSP,
            "the page's policy adds 'wasm-unsafe-eval' and nothing else"
        );
    }
}
