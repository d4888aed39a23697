//! `/play` served from a folder: the page and its engine with the page's policy, the arena's
//! other pages without `'wasm-unsafe-eval'`, nothing outside the folder, and the page that
//! says how to build it when there is no folder.

use super::PLAY_CSP;
use crate::{App, CSP, service, worker};
use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode, header};
use std::sync::Arc;
use tower::ServiceExt;

async fn get(router: &axum::Router, uri: &str) -> (StatusCode, HeaderMap, Vec<u8>) {
    let response = router
        .clone()
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let (parts, body) = response.into_parts();
    let bytes = axum::body::to_bytes(body, 16 << 20).await.unwrap();
    (parts.status, parts.headers, bytes.to_vec())
}

/// An arena on a fresh database in `dir`, its page's folder `play`.
fn arena(dir: &std::path::Path, play: Option<std::path::PathBuf>) -> axum::Router {
    let mut run = crate::tests::test_config(dir.join("a.sqlite"));
    run.play = play;
    let db = Arc::new(crate::db::Db::open(&dir.join("a.sqlite")).unwrap());
    let app = App::new(db, &run, Arc::new(worker::Bell::default()), Arc::default());
    service(Arc::new(app))
}

fn fresh_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("robots-play-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("dist")).unwrap();
    dir
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_and_its_engine_are_served_from_the_folder_under_the_pages_policy() {
    let dir = fresh_dir("served");
    let dist = dir.join("dist");
    std::fs::write(dist.join("index.html"), "<!doctype html><p>play</p>").unwrap();
    std::fs::write(dist.join("robots.wasm"), b"\0asm\x01\0\0\0").unwrap();
    std::fs::write(dir.join("secret.js"), "outside").unwrap();
    let router = arena(&dir, Some(dist));

    let (status, headers, _) = get(&router, "/play").await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(headers[header::LOCATION], "/play/");
    let (status, headers, body) = get(&router, "/play/").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, b"<!doctype html><p>play</p>");
    assert_eq!(headers[header::CONTENT_SECURITY_POLICY], PLAY_CSP);
    let (status, headers, body) = get(&router, "/play/robots.wasm").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[header::CONTENT_TYPE], "application/wasm");
    assert_eq!(headers[header::CONTENT_SECURITY_POLICY], PLAY_CSP);
    assert_eq!(body, b"\0asm\x01\0\0\0");
    for uri in [
        "/play/..%2Fsecret.js",
        "/play/%2E%2E/secret.js",
        "/play/../secret.js",
        "/play/missing.js",
        "/play/a.txt",
    ] {
        let (status, headers, body) = get(&router, uri).await;
        assert_ne!(status, StatusCode::OK, "{uri}");
        assert!(!String::from_utf8_lossy(&body).contains("outside"), "{uri}");
        if let Some(csp) = headers.get(header::CONTENT_SECURITY_POLICY) {
            assert!(csp == PLAY_CSP || csp == CSP, "{uri}");
        }
    }
    // The arena's own pages keep the arena's policy: no WebAssembly there.
    let (status, headers, body) = get(&router, "/").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[header::CONTENT_SECURITY_POLICY], CSP);
    assert!(String::from_utf8_lossy(&body).contains("href=\"/play/\""));
    let (_, headers, _) = get(&router, "/static/viewer.js").await;
    assert_eq!(headers[header::CONTENT_SECURITY_POLICY], CSP);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_folder_play_says_to_run_scripts_web() {
    let dir = fresh_dir("missing");
    for play in [None, Some(dir.join("no-such-folder"))] {
        let router = arena(&dir, play);
        let (status, headers, body) = get(&router, "/play/").await;
        assert_eq!(status, StatusCode::OK);
        assert!(String::from_utf8_lossy(&body).contains("scripts/web"));
        assert!(
            headers[header::CONTENT_TYPE]
                .to_str()
                .unwrap()
                .starts_with("text/html")
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The submission page and the battle room load /play's editor (`pages::EDITOR_SCRIPT`)
/// only when the folder holds all it needs; else they are the plain forms.
#[test]
fn the_pages_load_the_editor_only_when_the_folder_holds_it() {
    let dir = fresh_dir("editor");
    let dist = dir.join("dist");
    let app = |play: Option<std::path::PathBuf>| {
        let mut run = crate::tests::test_config(dir.join("a.sqlite"));
        run.play = play;
        let db = Arc::new(crate::db::Db::open(&dir.join("a.sqlite")).unwrap());
        App::new(db, &run, Arc::new(worker::Bell::default()), Arc::default())
    };
    assert!(!crate::pages::has_editor(&app(None)));
    let files = ["enhance.js", "worker.js", "robots.wasm", "play.css"];
    for (n, file) in files.iter().enumerate() {
        assert!(
            !crate::pages::has_editor(&app(Some(dist.clone()))),
            "without {file}"
        );
        std::fs::write(dist.join(file), "x").unwrap();
        assert_eq!(
            crate::pages::has_editor(&app(Some(dist.clone()))),
            n + 1 == files.len()
        );
    }
    assert_eq!(crate::pages::EDITOR_SCRIPT, "/play/enhance.js");
    let _ = std::fs::remove_dir_all(&dir);
}
