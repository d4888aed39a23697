//! The front door's recent match: the latest won match between two placed programs, named
//! on the home page for front.js to play, with its scripts served; none when no such match.

use crate::db::ids::MatchId;
use crate::store;
use crate::tests::{SECRET_MARK, send, world};
use axum::body::Body;
use axum::http::{Request, StatusCode, header};

async fn get(w: &crate::tests::World, uri: &str) -> (StatusCode, String, String) {
    let (status, headers, body) =
        send(&w.router, Request::get(uri).body(Body::empty()).unwrap()).await;
    let kind = headers
        .get(header::CONTENT_TYPE)
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    (status, kind, body)
}

/// The match the home page names (`figure#recent[data-match]`), if any.
fn named(page: &str) -> Option<MatchId> {
    let (_, rest) = page.split_once("<figure id=\"recent\" data-match=\"")?;
    Some(MatchId(rest.split('"').next()?.parse().ok()?))
}

#[tokio::test]
async fn the_home_page_plays_the_latest_won_match_between_placed_programs() {
    let w = world().await;
    let (status, _, page) = get(&w, "/").await;
    assert_eq!(status, StatusCode::OK);
    let id = named(&page).expect("a recent match on the home page");
    let hill = w
        .app
        .db
        .read(|c| store::hill_by_name(c, "h"))
        .unwrap()
        .unwrap();
    let latest = w
        .app
        .db
        .read(|c| store::hill_matches(c, hill.id))
        .unwrap()
        .into_iter()
        .filter(|m| m.winner != "draw")
        .map(|m| m.id)
        .max()
        .expect("a won match on the world's hill");
    assert_eq!(id, latest);
    let m = w
        .app
        .db
        .read(|c| store::match_by_id(c, id))
        .unwrap()
        .unwrap();
    assert!(
        page.contains(&format!("href=\"/matches/{}\"", id.0)),
        "the way to the viewer"
    );
    assert!(page.contains(&m.green.name) && page.contains(&m.violet.name));
    assert!(
        !page.contains(SECRET_MARK),
        "no program's text on the home page"
    );
    for script in ["palette.js", "model.js", "board.js", "front.js"] {
        assert!(
            page.contains(&format!("src=\"/static/{script}\"")),
            "{script}"
        );
        let (status, kind, body) = get(&w, &format!("/static/{script}")).await;
        assert_eq!(
            (status, kind.as_str()),
            (StatusCode::OK, "text/javascript"),
            "{script}"
        );
        assert!(!body.is_empty());
    }
    // What front.js fetches, as an anonymous visitor: the replay, without anyone's text.
    let (status, _, replay) = get(&w, &format!("/api/v1/matches/{}/replay", id.0)).await;
    assert_eq!(status, StatusCode::OK);
    assert!(!replay.contains(SECRET_MARK));
}

#[tokio::test]
async fn no_recent_match_when_no_two_placed_programs_met() {
    let w = world().await;
    w.app.db.write(|c| store::withdraw(c, w.program)).unwrap();
    let (status, _, page) = get(&w, "/").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        named(&page),
        None,
        "the withdrawn program's matches are not shown"
    );
    assert!(!page.contains("front.js"));
}

#[tokio::test]
async fn the_tutorial_is_rendered_and_html_in_markdown_stays_text() {
    let w = world().await;
    let (status, _, page) = get(&w, "/tutorial").await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        page.contains("<h1>Your first program</h1>"),
        "the title as a heading"
    );
    assert!(page.contains("<h2>1. Write five steps</h2>"));
    assert!(
        page.contains(
            "<pre><code class=\"language-console\">$ cat &gt; rookie.robot &lt;&lt;'EOF'"
        )
    );
    let hostile =
        super::markdown("# a\n\n<script>alert(1)</script>\n\nsee <img src=x onerror=y> `<b>`\n");
    assert!(
        !hostile.contains("<script") && !hostile.contains("<img") && !hostile.contains("<b>"),
        "{hostile}"
    );
    assert!(
        hostile.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{hostile}"
    );
    assert!(hostile.contains("<code>&lt;b&gt;</code>"), "{hostile}");
}
