//! The arena against slow and noisy clients (docs/ARENA.md, "Limits and timeouts"), on the
//! real server over 127.0.0.1: a stop is not held by a client trickling its request's head;
//! a head too slow and an idle connection are closed; a body declared too large is refused
//! at once and a request too slow is answered 408, both in the API's JSON (a page elsewhere)
//! with the headers of every answer.

use super::arena::{Server, TempDir, tail};
use serde_json::Value;
use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

fn start(dir: &TempDir, extra: &[&str]) -> Server {
    let mut flags = vec!["--workers", "1"];
    flags.extend_from_slice(extra);
    Server::start_with(&dir.0.join("a.sqlite"), &dir.0.join("log"), &flags)
}

/// Sends `request` on a new connection and reads until the server closes it or `within`
/// passes: what was read, and how long it took.
fn exchange(server: &Server, request: &[u8], within: Duration) -> (String, Duration) {
    let mut stream = TcpStream::connect(&server.addr).unwrap();
    stream.set_read_timeout(Some(within)).unwrap();
    let started = Instant::now();
    stream.write_all(request).unwrap();
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    (
        String::from_utf8_lossy(&raw).into_owned(),
        started.elapsed(),
    )
}

/// The status of an answer, a header's value (by its lower-case name), its body.
fn status(answer: &str) -> &str {
    answer.split(' ').nth(1).unwrap_or("none")
}

fn header<'a>(answer: &'a str, name: &str) -> Option<&'a str> {
    let head = answer.split("\r\n\r\n").next()?;
    head.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        key.eq_ignore_ascii_case(name).then_some(value.trim())
    })
}

fn body(answer: &str) -> &str {
    answer.split_once("\r\n\r\n").map_or("", |(_, b)| b)
}

/// The headers every answer carries, refusals included.
fn assert_usual_headers(answer: &str, what: &str) {
    let csp = header(answer, "content-security-policy").unwrap_or("");
    assert!(csp.starts_with("default-src 'none'"), "{what}: {answer}");
    assert_eq!(
        header(answer, "x-content-type-options"),
        Some("nosniff"),
        "{what}"
    );
    assert_eq!(header(answer, "x-frame-options"), Some("DENY"), "{what}");
}

/// An API refusal: its status and `{error, detail}` with `code`.
fn assert_api_error(answer: &str, code: &str, what: &str) {
    assert!(
        header(answer, "content-type").is_some_and(|t| t.starts_with("application/json")),
        "{what}: {answer}"
    );
    let v: Value = serde_json::from_str(body(answer)).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(v["error"], code, "{what}: {answer}");
    assert!(v["detail"].is_string(), "{what}: {answer}");
}

/// The probe of issue 45: a client sends a request's head a byte at a time while the server
/// is told to stop. The server answers what is in flight, and closes what is still open at
/// the shutdown deadline (2 s here): it is gone within the deadline and a second.
#[test]
fn a_stop_is_not_held_by_a_client_trickling_its_head() {
    let dir = TempDir::new();
    let mut server = start(&dir, &["--head-timeout", "60", "--shutdown-deadline", "2"]);
    let mut stream = TcpStream::connect(&server.addr).unwrap();
    stream.write_all(b"GET /healthz HTTP/1.1\r\nHo").unwrap();
    // A byte every 0.2 s for 20 s, or until the server closes the connection.
    let trickler = std::thread::spawn(move || {
        for _ in 0..100 {
            if stream.write_all(b"s").is_err() {
                return true;
            }
            sleep(Duration::from_millis(200));
        }
        false
    });
    sleep(Duration::from_millis(600));
    let term = Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .unwrap();
    assert!(term.success());
    let stopped = Instant::now();
    let exit = loop {
        if let Some(exit) = server.child.try_wait().unwrap() {
            break exit;
        }
        assert!(
            stopped.elapsed() < Duration::from_secs(3),
            "the server still runs 3 s after SIGTERM; log:\n{}",
            tail(&dir.0.join("log"))
        );
        sleep(Duration::from_millis(50));
    };
    assert!(exit.success(), "{exit:?}");
    assert!(trickler.join().unwrap(), "the trickling client was cut");
}

/// A request's head must arrive within the head timeout (1 s here), however slowly its
/// bytes come; and a kept-alive connection with no new request is closed after as long.
#[test]
fn a_head_too_slow_and_an_idle_connection_are_closed() {
    let dir = TempDir::new();
    let server = start(&dir, &["--head-timeout", "1"]);
    let mut stream = TcpStream::connect(&server.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut writer = stream.try_clone().unwrap();
    let started = Instant::now();
    std::thread::spawn(move || {
        let _ = writer.write_all(b"GET /healthz HTTP/1.1\r\nX-Slow: ");
        for _ in 0..100 {
            if writer.write_all(b"a").is_err() {
                return;
            }
            sleep(Duration::from_millis(100));
        }
    });
    let mut buf = [0u8; 1024];
    let read = stream.read(&mut buf);
    let took = started.elapsed();
    assert!(
        !matches!(&read, Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut)),
        "the trickled head was still read after {took:?}"
    );
    assert!(took < Duration::from_millis(2500), "closed after {took:?}");

    // Idle: a request answered, then nothing.
    let mut stream = TcpStream::connect(&server.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: arena\r\n\r\n")
        .unwrap();
    let mut answer = Vec::new();
    while !String::from_utf8_lossy(&answer).ends_with('}') {
        let n = stream.read(&mut buf).unwrap();
        assert!(n > 0, "closed before the answer");
        answer.extend_from_slice(&buf[..n]);
    }
    let answered = Instant::now();
    let read = stream.read(&mut buf);
    let idle = answered.elapsed();
    assert!(matches!(read, Ok(0)), "{read:?} after {idle:?}");
    assert!(
        idle > Duration::from_millis(800) && idle < Duration::from_millis(2500),
        "an idle connection closed after {idle:?}"
    );
}

/// The probe of issue 45: ten gigabytes declared, two bytes sent. The answer is 413 at once,
/// before the body: the API's JSON on the API, a page elsewhere, with the usual headers.
#[test]
fn a_body_declared_too_large_is_refused_at_once() {
    let dir = TempDir::new();
    let server = start(&dir, &[]);
    for (path, kind, body) in [
        ("/api/v1/check", "application/json", "{}"),
        ("/signin", "application/x-www-form-urlencoded", "a="),
    ] {
        let request = format!(
            "POST {path} HTTP/1.1\r\nHost: arena\r\nContent-Type: {kind}\r\nContent-Length: 10000000000\r\n\r\n{body}"
        );
        let (answer, took) = exchange(&server, request.as_bytes(), Duration::from_secs(10));
        assert!(
            took < Duration::from_secs(1),
            "{path}: answered after {took:?}"
        );
        assert_eq!(status(&answer), "413", "{path}: {answer}");
        assert_usual_headers(&answer, path);
        if path.starts_with("/api/") {
            assert_api_error(&answer, "too_large", path);
        } else {
            assert!(
                header(&answer, "content-type").is_some_and(|t| t.starts_with("text/html")),
                "{answer}"
            );
        }
    }
}

/// A request whose body does not come is answered 408 at the request timeout (1 s here): in
/// the API's JSON on the API, a page elsewhere, with the usual headers.
#[test]
fn a_request_too_slow_is_answered_408_with_the_usual_headers() {
    let dir = TempDir::new();
    let server = start(&dir, &["--request-timeout", "1"]);
    for (path, kind, part) in [
        ("/api/v1/check", "application/json", "{\"source\": "),
        ("/signin", "application/x-www-form-urlencoded", "name="),
    ] {
        let request = format!(
            "POST {path} HTTP/1.1\r\nHost: arena\r\nConnection: close\r\nContent-Type: {kind}\r\nContent-Length: 100\r\n\r\n{part}"
        );
        let (answer, took) = exchange(&server, request.as_bytes(), Duration::from_secs(10));
        assert_eq!(status(&answer), "408", "{path}: {answer}");
        assert!(
            took > Duration::from_millis(900) && took < Duration::from_secs(3),
            "{path}: answered after {took:?}"
        );
        assert_usual_headers(&answer, path);
        if path.starts_with("/api/") {
            assert_api_error(&answer, "timeout", path);
        } else {
            assert!(body(&answer).contains("id=\"error\""), "{answer}");
        }
    }
}
