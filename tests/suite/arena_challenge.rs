//! `robots arena challenge` against a running `robots serve`: a challenge of one's program
//! and one of a file not submitted, each against another account's secret program; the
//! results printed, and the opponent's text in nothing the challenger receives nor in the
//! server's log.

use crate::arena::{Server, TempDir, hill_create};
use serde_json::{Value, json};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_robots");
const MARK: &str = "secret-of-the-opponent-5d1";

#[test]
fn a_challenge_from_the_command_line_keeps_the_opponents_text_secret() {
    let dir = TempDir::new();
    let db = dir.0.join("a.sqlite");
    hill_create(&db, "h", &["--seeds", "2"]);
    let log = dir.0.join("log");
    let server = Server::start_with(&db, &log, &[]);
    let token = |name: &str| {
        let account = json!({"name": name, "password": format!("{name}-password")});
        server.json("POST", "/api/v1/accounts", None, Some(&account), 201)["token"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let (alice, bob) = (token("alice"), token("bob"));
    let programs = Path::new(env!("CARGO_MANIFEST_DIR")).join("programs");
    let read =
        |name: &str| std::fs::read_to_string(programs.join(format!("{name}.robot"))).unwrap();
    let secret = format!("# {MARK}\n{}", read("hunter"));
    let submit = |token: &str, name: &str, source: &str| {
        let body = json!({"name": name, "source": source});
        server.json(
            "POST",
            "/api/v1/hills/h/programs",
            Some(token),
            Some(&body),
            202,
        )["id"]
            .as_i64()
            .unwrap()
    };
    let target = submit(&alice, "hidden", &secret);
    let mine = submit(&bob, "mine", &read("turret"));
    let deadline = Instant::now() + Duration::from_secs(120);
    while server.json("GET", &format!("/api/v1/programs/{mine}"), None, None, 200)["status"]
        != "placed"
    {
        assert!(Instant::now() < deadline, "not placed");
        std::thread::sleep(Duration::from_millis(100));
    }
    let file = dir.0.join("draft.robot");
    std::fs::write(&file, read("sniper")).unwrap();
    let url = format!("http://{}", server.addr);
    let runs = [
        vec!["--program".to_string(), mine.to_string()],
        vec!["--hill".into(), "h".into(), file.display().to_string()],
    ];
    let mut ids = Vec::new();
    for side in runs {
        ids.push(run_challenge(&url, &bob, target, &side));
    }
    for id in ids {
        received(&server, id, (&bob, &alice));
    }
    // Neither the hill's standings nor its matches counted them.
    let rows = server.json("GET", "/api/v1/hills/h/standings", None, None, 200);
    for row in rows.as_array().unwrap() {
        assert_eq!(row["played"], 4, "{row}");
    }
    drop(server);
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(logged.contains("challenge played"), "the log");
    assert!(!logged.contains(MARK), "the log holds the opponent's text");
}

/// `robots arena challenge` as bob against `target` with `side`'s flags: its output
/// checked, the challenge's id.
fn run_challenge(url: &str, bob: &str, target: i64, side: &[String]) -> u64 {
    let out = Command::new(BIN)
        .args([
            "arena",
            "challenge",
            "--server",
            url,
            "--opponent",
            &target.to_string(),
            "--seeds",
            "3",
        ])
        .args(side)
        .env("ROBOTS_TOKEN", bob)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(
        !stdout.contains(MARK) && !stderr.contains(MARK),
        "{stdout}{stderr}"
    );
    let first = stdout.lines().next().unwrap();
    assert!(
        first.starts_with("challenge ")
            && first.contains(" v hidden on hill h, 3 seed(s) both ways"),
        "{stdout}"
    );
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("seed ")).count(),
        6,
        "{stdout}"
    );
    assert!(
        stdout.lines().last().unwrap().ends_with("lost of 6"),
        "{stdout}"
    );
    let id: u64 = first["challenge ".len()..]
        .split(':')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    id
}

/// What bob, a stranger and alice receive of challenge `id`: none of alice's text.
fn received(server: &Server, id: u64, (bob, alice): (&str, &str)) {
    let view = server.json(
        "GET",
        &format!("/api/v1/challenges/{id}"),
        Some(bob),
        None,
        200,
    );
    assert_eq!(view["state"], "done");
    for n in 0..6 {
        let (status, body) = server.http(
            "GET",
            &format!("/api/v1/challenges/{id}/matches/{n}/replay"),
            Some(bob),
            None,
        );
        assert_eq!(status, 200, "{body:.200}");
        assert!(!body.contains(MARK));
        let (status, body) =
            server.http("GET", &format!("/challenges/{id}/matches/{n}"), None, None);
        assert!(
            status == 303 || status == 302,
            "a stranger is sent to sign in: {status}"
        );
        assert!(!body.contains(MARK));
    }
    let seen: Value = server.json(
        "GET",
        &format!("/api/v1/challenges/{id}"),
        Some(alice),
        None,
        200,
    );
    assert_eq!(seen["role"], "opponent");
}
