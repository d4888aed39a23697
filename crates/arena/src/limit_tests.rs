//! The arena against noisy clients (issue 45), on SQLite. A room's WebSocket over loopback
//! (a client written here frame by frame, so that it can send what a browser would not):
//! every frame counts towards the rate, binary frames and pings included, and a binary
//! frame closes the connection at once. Names that differ only in case are one name: a
//! look-alike is refused at sign-up (API and form) and any case signs in.

use super::db::ids::AccountId;
use super::rooms::store::insert;
use super::{App, auth, db::Db, service, store, tests::test_config, worker};
use axum::Router;
use axum::body::Body;
use axum::extract::ws::close_code;
use axum::http::{Request, StatusCode, header};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tower::ServiceExt;

const ROOM: &str = "feedfacefeedfacefeedfacefeedface";
const CSRF: &str = "c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00";

/// An arena of its own, with `alice` hosting the room `ROOM`; stopped and removed when
/// dropped.
struct Arena {
    app: Arc<App>,
    router: Router,
    dir: PathBuf,
    stop: Arc<AtomicBool>,
    alice: AccountId,
}

impl Drop for Arena {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn arena(tag: &str) -> Arena {
    let dir = std::env::temp_dir().join(format!("robots-limits-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("a.sqlite");
    let db = Arc::new(Db::open(&path).unwrap());
    let stop = Arc::new(AtomicBool::new(false));
    let bell = Arc::new(worker::Bell::default());
    let app = Arc::new(App::new(db, &test_config(path), bell, Arc::clone(&stop)));
    let alice = app
        .db
        .write(|c| store::account_insert(c, "alice", "!", 0))
        .unwrap()
        .unwrap();
    let settings = crate::rooms::tests::game_settings("battle", "duel", (50, 4.0, 60));
    let seats = ["green", "violet"];
    app.db
        .write(|c| insert(c, (ROOM, alice), &settings, &seats, (1, 0)))
        .unwrap();
    Arena {
        router: service(Arc::clone(&app)),
        app,
        dir,
        stop,
        alice,
    }
}

/// The arena served on a free loopback port, and a session cookie of alice's.
async fn listening(a: &Arena) -> (SocketAddr, String) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = a
        .router
        .clone()
        .into_make_service_with_connect_info::<SocketAddr>();
    tokio::spawn(async move { axum::serve(listener, app).await });
    let secret = auth::new_secret().unwrap();
    let hash = auth::secret_hash(&secret);
    a.app
        .db
        .write(|c| store::token_insert(c, a.alice, &hash, "session", None, (0, None)))
        .unwrap();
    (addr, secret)
}

/// Alice's WebSocket to the room, upgraded.
async fn open(addr: SocketAddr, session: &str) -> TcpStream {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "GET /rooms/{ROOM}/ws HTTP/1.1\r\nHost: {addr}\r\nConnection: Upgrade\r\n\
         Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nCookie: robots_session={session}\r\n\r\n"
    );
    s.write_all(request.as_bytes()).await.unwrap();
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        head.push(s.read_u8().await.unwrap());
    }
    let head = String::from_utf8_lossy(&head);
    assert!(head.starts_with("HTTP/1.1 101"), "{head}");
    s
}

const TEXT: u8 = 1;
const BINARY: u8 = 2;
const CLOSE: u8 = 8;
const PING: u8 = 9;
const PONG: u8 = 10;

/// A client's frame (masked, as a client's must be, with the mask 0) of 16 bytes.
fn frame(opcode: u8) -> Vec<u8> {
    let payload: &[u8] = if opcode == TEXT {
        b"{\"type\": \"nop\"}\n"
    } else {
        b"0123456789abcdef"
    };
    let mut f = vec![0x80 | opcode, 0x80 | 16, 0, 0, 0, 0];
    f.extend_from_slice(payload);
    f
}

/// The server's next frame: its opcode and payload.
async fn next_frame(r: &mut (impl AsyncRead + Unpin)) -> std::io::Result<(u8, Vec<u8>)> {
    let (first, second) = (r.read_u8().await?, r.read_u8().await?);
    let len = match second & 0x7f {
        126 => u64::from(r.read_u16().await?),
        127 => r.read_u64().await?,
        n => u64::from(n),
    };
    let mut payload = vec![0; usize::try_from(len).unwrap()];
    r.read_exact(&mut payload).await?;
    Ok((first & 0x0f, payload))
}

/// How the server ended the connection: `Some(code)` of its close frame, `None` when the
/// connection ended without one (reset by a server that left frames unread).
async fn until_closed(r: &mut (impl AsyncRead + Unpin)) -> Option<u16> {
    loop {
        match next_frame(r).await {
            Ok((CLOSE, payload)) => {
                return payload.get(..2).map(|c| u16::from_be_bytes([c[0], c[1]]));
            }
            Ok(_) => {}
            Err(_) => return None,
        }
    }
}

/// Sends `count` frames of `opcode` at once on a new connection: how the server ended it
/// (`Err` when it was still open a second later).
async fn flood(tag: &str, opcode: u8, count: usize) -> Result<Option<u16>, String> {
    let a = arena(tag);
    let (addr, session) = listening(&a).await;
    let (mut r, mut w) = open(addr, &session).await.into_split();
    let burst: Vec<u8> = (0..count).flat_map(|_| frame(opcode)).collect();
    let (_, closed) = tokio::join!(
        w.write_all(&burst),
        tokio::time::timeout(Duration::from_secs(1), until_closed(&mut r))
    );
    drop(w);
    closed.map_err(|_| format!("{count} frames of opcode {opcode}: still open after 1 s"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_binary_frames_close_the_connection_within_a_second() {
    flood("binary-flood", BINARY, 10_000).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_pings_close_the_connection_within_a_second() {
    flood("ping-flood", PING, 10_000).await.unwrap();
}

/// One binary frame is enough, closed as unsupported data; 41 frames of any kind in a
/// second are too many, closed as a policy violation.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_says_why_it_closes() {
    let binary = flood("one-binary", BINARY, 1).await;
    assert_eq!(binary, Ok(Some(close_code::UNSUPPORTED)));
    for (tag, opcode) in [("texts", TEXT), ("pings", PING), ("pongs", PONG)] {
        let closed = flood(tag, opcode, 41).await;
        assert_eq!(closed, Ok(Some(close_code::POLICY)), "41 frames of {tag}");
    }
    let forty = flood("forty", PING, 40).await;
    assert!(
        forty.is_err(),
        "40 pings in a second are allowed: {forty:?}"
    );
}

async fn post(router: &Router, uri: &str, body: String) -> (StatusCode, String) {
    let form = !uri.starts_with("/api/");
    let kind = if form {
        "application/x-www-form-urlencoded"
    } else {
        "application/json"
    };
    let request = Request::post(uri)
        .header(header::CONTENT_TYPE, kind)
        .header(header::COOKIE, format!("robots_csrf={CSRF}"))
        .body(Body::from(body))
        .unwrap();
    let response = router.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .unwrap();
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

/// `bob` signs up; `Bob` and `BOB` are refused as taken (API, form); `BOB` and `bOb` sign
/// in to `bob` (API, form).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_that_differ_only_in_case_are_one_name() {
    let a = arena("names");
    let json = |name: &str| format!(r#"{{"name": "{name}", "password": "password-bob"}}"#);
    let form = |name: &str| format!("name={name}&password=password-bob&csrf={CSRF}");
    let r = &a.router;
    assert_eq!(
        post(r, "/api/v1/accounts", json("bob")).await.0,
        StatusCode::CREATED
    );
    let (status, body) = post(r, "/api/v1/accounts", json("Bob")).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(body.contains("that name is taken"), "{body}");
    let (status, body) = post(r, "/signup", form("BOB")).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body:.300}");
    assert!(body.contains("That name is taken."), "{body:.300}");
    let (status, body) = post(r, "/api/v1/tokens", json("BOB")).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(
        post(r, "/signin", form("bOb")).await.0,
        StatusCode::SEE_OTHER
    );
    let wrong = r#"{"name": "BOB", "password": "password-eve"}"#.to_string();
    assert_eq!(
        post(r, "/api/v1/tokens", wrong).await.0,
        StatusCode::UNAUTHORIZED
    );
    let names: Vec<String> = a
        .app
        .db
        .read(|c| c.query("SELECT name FROM accounts ORDER BY id", &[], |r| r.get(0)))
        .unwrap();
    assert_eq!(names, ["alice", "bob"]);
}

/// Accounts whose names differ only in case, as a database of version 4 could hold them
/// (made in a new database: ids 1 `alice`, 2 `Alice`, 3 `bob`), each with the password
/// `password-1` hashed as `hash`.
pub(super) fn look_alikes(hash: &str) -> String {
    ["alice", "Alice", "bob"]
        .map(|name| {
            format!(
                "INSERT INTO accounts (name, password, created) VALUES ('{name}', '{hash}', 0);"
            )
        })
        .join("\n")
}

/// After migration 5 the accounts of `look_alikes` all sign in: each by its exact name,
/// another case to the first of its look-alikes; no new look-alike is taken.
pub(super) fn look_alikes_sign_in(db: &Db, hash: &str) {
    let opens = |name: &str| {
        let found = db.read(|c| store::account_by_name(c, name)).unwrap();
        let hash = found.as_ref().map(|(_, h)| h.as_str());
        assert_eq!(auth::check_password("password-1", hash), found.is_some());
        found.map(|(a, _)| a.id)
    };
    let expected = [
        ("alice", Some(AccountId(1))),
        ("Alice", Some(AccountId(2))),
        ("ALICE", Some(AccountId(1))),
        ("bob", Some(AccountId(3))),
        ("BOB", Some(AccountId(3))),
        ("carol", None),
    ];
    for (name, id) in expected {
        assert_eq!(opens(name), id, "{name} signs in to account {id:?}");
    }
    for name in ["alice", "aLice", "Bob", "bob"] {
        let made = db
            .write(|c| store::account_insert(c, name, hash, 0))
            .unwrap();
        assert_eq!(made, None, "{name} is taken");
    }
    assert!(
        db.write(|c| store::account_insert(c, "carol", hash, 0))
            .unwrap()
            .is_some()
    );
    assert_eq!(
        db.write(|c| store::account_insert(c, "CAROL", hash, 0))
            .unwrap(),
        None
    );
    assert_eq!(opens("Carol").map(|_| ()), Some(()));
}

/// A SQLite file of version 4 with look-alike accounts: migration 5 applies and keeps
/// every account able to sign in.
#[test]
fn migration_5_keeps_look_alike_accounts_signing_in() {
    let dir = std::env::temp_dir().join(format!("robots-limits-v4-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("a.sqlite");
    let hash = auth::hash_password("password-1").unwrap();
    let c = rusqlite::Connection::open(&path).unwrap();
    for (i, sql) in super::db::dialect::LITE_MIGRATIONS[..4].iter().enumerate() {
        c.execute_batch(sql).unwrap();
        c.pragma_update(None, "user_version", i64::try_from(i + 1).unwrap())
            .unwrap();
    }
    c.execute_batch(&look_alikes(&hash)).unwrap();
    drop(c);
    let db = Db::open(&path).unwrap();
    look_alikes_sign_in(&db, &hash);
    drop(db);
    std::fs::remove_dir_all(&dir).unwrap();
}
