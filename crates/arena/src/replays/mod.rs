//! The viewer's documents of stored matches, made once (issue 50). A stored match never
//! changes, so its document is played once, at its first request, and kept as the JSON every
//! stranger is given — each robot's steps and tests left out — compressed (gzip), with where
//! its `robots` array lies: in the database (`store.rs`, the table `match_replays`, one row a
//! match) and the most recently used in memory (`api/replays.rs`, bounded by bytes). A request
//! whose caller may read no program of the match is answered with the kept bytes as they are
//! (`Content-Encoding: gzip`, no copy); a caller who may read a side (its author, or anyone
//! once it is published) gets the same document with that side's steps and tests spliced in,
//! made from the programs without playing (`robot_views`). Nothing kept holds a program's
//! steps, tests or text; an account's deletion still removes its matches' rows
//! (`accounts/store.rs`).

pub mod store;
#[cfg(test)]
pub(crate) mod tests;

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use flate2::Compression;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use robots_games::battle::show::view::{RobotView, VIEW_VERSION, ViewJson};
use sha2::{Digest, Sha256};
use std::io::{Read, Write};
use std::ops::Range;

/// The most bytes of gzip kept for one document (in the database and in memory); a larger
/// one is served and made again at its next request.
pub const MAX_KEPT: usize = 8 << 20;

/// What a document was played from: the viewer's version, the seed and both programs'
/// texts (SHA-256). A text erased since (an account deleted) no longer finds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Played(pub [u8; 32]);

impl Played {
    pub fn of(seed: u64, green: &str, violet: &str) -> Played {
        let mut h = Sha256::new();
        h.update(VIEW_VERSION.to_le_bytes());
        h.update(seed.to_le_bytes());
        for text in [green, violet] {
            h.update((text.len() as u64).to_le_bytes());
            h.update(text.as_bytes());
        }
        Played(h.finalize().into())
    }
}

/// A kept document: the JSON with every robot's steps and tests left out, gzip, and where its
/// `robots` array lies in the JSON (bytes `robots.0..robots.1`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kept {
    pub played: Played,
    pub gz: Bytes,
    pub robots: (usize, usize),
    /// The JSON's bytes.
    pub size: usize,
}

/// The document a caller is given: the kept gzip bytes, or JSON made for this caller.
#[derive(Clone, Debug)]
pub enum Doc {
    Gzip(Bytes),
    Json(Bytes),
}

/// The steps and tests of the teams `hidden` says (green, violet) left out of `robots`.
pub fn hide_robots(robots: &mut [RobotView], hidden: [bool; 2]) {
    for r in robots {
        if hidden.get(r.team).copied().unwrap_or(true) {
            r.steps.clear();
            r.tests.clear();
        }
    }
}

/// `doc` made into its kept form: its JSON with every robot's steps and tests left out,
/// gzip; `None` when its gzip is over [`MAX_KEPT`].
pub fn keep(doc: &ViewJson, played: Played) -> Option<Kept> {
    let (json, robots) = spliced(doc, [true, true])?;
    let gz = gzip(&json)?;
    (gz.len() <= MAX_KEPT).then(|| Kept {
        played,
        gz: Bytes::from(gz),
        robots: (robots.start, robots.end),
        size: json.len(),
    })
}

/// `doc`'s JSON with the steps and tests of the teams `hidden` says (green, violet) left out
/// of its robots, and where they lie in it.
fn spliced(doc: &ViewJson, hidden: [bool; 2]) -> Option<(Vec<u8>, Range<usize>)> {
    let mut robots = doc.robot_views.clone();
    hide_robots(&mut robots, hidden);
    splice(&doc.json, doc.robots.clone(), &robots)
}

/// `json` with `robots` written in place of bytes `at`, and where they lie in it.
fn splice(json: &[u8], at: Range<usize>, robots: &[RobotView]) -> Option<(Vec<u8>, Range<usize>)> {
    let robots = serde_json::to_vec(robots).ok()?;
    let (before, after) = (json.get(..at.start)?, json.get(at.end..)?);
    let mut out = Vec::with_capacity(before.len() + robots.len() + after.len());
    out.extend_from_slice(before);
    out.extend_from_slice(&robots);
    out.extend_from_slice(after);
    Some((out, at.start..at.start + robots.len()))
}

/// The document just played as a caller may see it (the teams `hidden` says left out):
/// the kept bytes when every side is hidden, else its JSON, made without reading them again.
pub fn played(doc: &ViewJson, kept: Option<&Kept>, hidden: [bool; 2]) -> Option<Doc> {
    match kept {
        Some(kept) if hidden == [true, true] => Some(Doc::Gzip(kept.gz.clone())),
        _ => Some(Doc::Json(Bytes::from(spliced(doc, hidden)?.0))),
    }
}

fn gzip(json: &[u8]) -> Option<Vec<u8>> {
    let mut e = GzEncoder::new(Vec::with_capacity(json.len() / 8), Compression::fast());
    e.write_all(json).ok()?;
    e.finish().ok()
}

/// The kept document's JSON, decompressed.
pub fn json(kept: &Kept) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(kept.size);
    GzDecoder::new(kept.gz.as_ref())
        .read_to_end(&mut out)
        .ok()?;
    (out.len() == kept.size).then_some(out)
}

/// The document for a caller: the kept bytes when every side is `hidden`, else the kept JSON
/// with `robots` (the match's, every step and test in them) as the caller may see them.
pub fn variant(kept: &Kept, hidden: [bool; 2], robots: Option<Vec<RobotView>>) -> Option<Doc> {
    if hidden == [true, true] {
        return Some(Doc::Gzip(kept.gz.clone()));
    }
    let mut robots = robots?;
    hide_robots(&mut robots, hidden);
    let (start, end) = kept.robots;
    let (json, _) = splice(&json(kept)?, start..end, &robots)?;
    Some(Doc::Json(Bytes::from(json)))
}

impl Doc {
    /// The document's JSON.
    pub fn json(&self) -> Option<Bytes> {
        match self {
            Doc::Json(j) => Some(j.clone()),
            Doc::Gzip(gz) => {
                let mut out = Vec::with_capacity(gz.len() * 8);
                GzDecoder::new(gz.as_ref()).read_to_end(&mut out).ok()?;
                Some(Bytes::from(out))
            }
        }
    }

    /// The API's answer: the kept gzip bytes as they are when the request accepts gzip.
    pub fn response(self, request: &HeaderMap) -> Response {
        let json = HeaderValue::from_static("application/json");
        let vary = HeaderValue::from_static("accept-encoding");
        match self {
            Doc::Gzip(gz) if accepts_gzip(request) => (
                StatusCode::OK,
                [
                    (header::CONTENT_TYPE, json),
                    (header::CONTENT_ENCODING, HeaderValue::from_static("gzip")),
                    (header::VARY, vary),
                ],
                gz,
            )
                .into_response(),
            other => match other.json() {
                Some(body) => ([(header::CONTENT_TYPE, json)], body).into_response(),
                None => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
            },
        }
    }
}

/// Whether `Accept-Encoding` takes gzip (a `q=0` refuses it).
pub fn accepts_gzip(request: &HeaderMap) -> bool {
    request
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|item| {
            let mut parts = item.split(';').map(str::trim);
            let coding = parts.next().unwrap_or("");
            let refused = parts.any(|p| {
                p.strip_prefix("q=")
                    .and_then(|q| q.trim().parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            });
            (coding.eq_ignore_ascii_case("gzip") || coding == "*") && !refused
        })
}
