//! The arena against slow and noisy clients (docs/ARENA.md, "Limits and timeouts"), on the
//! real server over 127.0.0.1: a stop is not held by a client trickling its request's head;
//! a head too slow and an idle connection are closed.

use super::arena::{Server, TempDir, tail};
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
