//! The arena as a running server (docs/ARENA.md). Its placement queue survives `kill -9`: a
//! server killed in the middle of placing six programs is started again on its database,
//! finishes the placements, and ends with the hill an uninterrupted run leaves: the same
//! standings, every match played exactly once. `robots arena submit` places a program and
//! says its rank; `serve backup` copies a running database; `--demo` shows standings at once.
//!
//! The server is the crate's binary, spoken to over HTTP/1.1 (one connection a request, a
//! small client over `TcpStream`); its database is read with `rusqlite`, read-only.

use rusqlite::{Connection, OpenFlags};
use serde_json::{Value, json};
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_robots");
const HILL: &str = "resume";
/// The hill's seed indices: wide enough that placing the six programs takes a few seconds.
const SEEDS: u64 = 4000;
const PROGRAMS: [&str; 6] = [
    "hunter", "sentinel", "kamikaze", "sniper", "wanderer", "bomber",
];
/// Every pairing of the six, both colour assignments, each seed index.
const TOTAL: u64 = 15 * 2 * SEEDS;
const PLACEMENT_BOUND: Duration = Duration::from_secs(120);

/// A temporary folder, removed when dropped.
pub(crate) struct TempDir(pub(crate) PathBuf);

impl TempDir {
    pub(crate) fn new() -> Self {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let path =
            std::env::temp_dir().join(format!("robots-arena-resume-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A running `robots serve`, killed (SIGKILL) and reaped when dropped, on every path.
pub(crate) struct Server {
    pub(crate) child: Child,
    pub(crate) addr: String,
}

impl Server {
    fn start(db: &Path, log: &Path) -> Self {
        Server::start_with(db, log, &[])
    }

    pub(crate) fn start_with(db: &Path, log: &Path, extra: &[&str]) -> Self {
        let mut child = Command::new(BIN)
            .args(["serve", "--db"])
            .arg(db)
            .args(extra)
            .args(["--listen", "127.0.0.1:0", "--auth-per-minute", "1000"])
            .args(["--submissions-per-hour", "1000"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(File::create(log).unwrap())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (send, receive) = mpsc::channel();
        // Reads the first line, then drains standard output so that the server never
        // writes to a closed pipe.
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut first = String::new();
            let _ = reader.read_line(&mut first);
            let _ = send.send(first);
            let _ = std::io::copy(&mut reader, &mut std::io::sink());
        });
        let mut server = Server {
            child,
            addr: String::new(),
        };
        let first = receive
            .recv_timeout(Duration::from_secs(20))
            .unwrap_or_default();
        let line = first.trim_end();
        let addr = (line.strip_prefix("robots arena: listening on http://"))
            .or_else(|| line.strip_prefix("robots arena: listening on https://"))
            .and_then(|rest| rest.strip_suffix('/'))
            .unwrap_or_else(|| panic!("first line {first:?}; log:\n{}", tail(log)));
        server.addr = addr.to_string();
        server
    }

    /// `kill -9`.
    fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// One request on its own connection: the status and the body.
    pub(crate) fn http(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let body = body.map(Value::to_string).unwrap_or_default();
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nAccept: application/json\r\n",
            self.addr
        );
        if let Some(token) = token {
            head.push_str(&format!("Authorization: Bearer {token}\r\n"));
        }
        if method != "GET" {
            head.push_str(&format!(
                "Content-Type: application/json\r\nContent-Length: {}\r\n",
                body.len()
            ));
        }
        stream
            .write_all(format!("{head}\r\n{body}").as_bytes())
            .unwrap();
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).unwrap();
        parse_response(&raw)
    }

    /// A request whose answer must have `status`: its body as JSON.
    pub(crate) fn json(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
        status: u16,
    ) -> Value {
        let (got, text) = self.http(method, path, token, body);
        assert_eq!(got, status, "{method} {path}: {text}");
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{method} {path}: {e}: {text}"))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The status and body of an HTTP/1.1 response read to its end (chunked or not).
fn parse_response(raw: &[u8]) -> (u16, String) {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("no end of the head");
    let head = String::from_utf8_lossy(&raw[..split]).to_ascii_lowercase();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("no status");
    let mut body = raw[split + 4..].to_vec();
    if head
        .lines()
        .any(|l| l.starts_with("transfer-encoding:") && l.contains("chunked"))
    {
        body = dechunk(&body);
    }
    (status, String::from_utf8(body).unwrap())
}

fn dechunk(mut rest: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let end = rest
            .windows(2)
            .position(|w| w == b"\r\n")
            .expect("a chunk's size");
        let size_text = String::from_utf8_lossy(&rest[..end]);
        let size =
            usize::from_str_radix(size_text.split(';').next().unwrap_or("").trim(), 16).unwrap();
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&rest[end + 2..end + 2 + size]);
        rest = &rest[end + 4 + size..];
    }
}

/// The last lines of a server's log, for a failure's message.
pub(crate) fn tail(log: &Path) -> String {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(30)..].join("\n")
}

fn create_hill(db: &Path) {
    hill_create(
        db,
        HILL,
        &["--size", "20", "--seeds", &format!("1..{SEEDS}")],
    );
}

/// `robots serve hill create NAME` on duel, one robot a side, with `more` flags.
pub(crate) fn hill_create(db: &Path, name: &str, more: &[&str]) {
    let out = Command::new(BIN)
        .args([
            "serve", "hill", "create", name, "--board", "duel", "--robots", "1",
        ])
        .args(more)
        .arg("--db")
        .arg(db)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "hill create: {stderr}");
}

/// Signs up and submits the six programs in order: their ids, in the same order.
fn submit_all(server: &Server) -> Vec<u64> {
    let account = json!({"name": "resumer", "password": "resume-password"});
    let token = server.json("POST", "/api/v1/accounts", None, Some(&account), 201);
    let token = token["token"].as_str().expect("a token").to_string();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("programs");
    PROGRAMS
        .iter()
        .map(|name| {
            let source = std::fs::read_to_string(root.join(format!("{name}.robot"))).unwrap();
            let body = json!({"name": name, "source": source});
            let path = format!("/api/v1/hills/{HILL}/programs");
            let answer = server.json("POST", &path, Some(&token), Some(&body), 202);
            answer["id"]
                .as_u64()
                .unwrap_or_else(|| panic!("no id in {answer}"))
        })
        .collect()
}

/// Waits (bounded) until every program is `placed` or `off`.
fn wait_placed(server: &Server, ids: &[u64], log: &Path) {
    let start = Instant::now();
    loop {
        let statuses: Vec<String> = ids
            .iter()
            .map(|id| {
                let program =
                    server.json("GET", &format!("/api/v1/programs/{id}"), None, None, 200);
                program["status"].as_str().unwrap_or("?").to_string()
            })
            .collect();
        if statuses.iter().all(|s| s == "placed" || s == "off") {
            return;
        }
        assert!(
            start.elapsed() < PLACEMENT_BOUND,
            "not placed after {PLACEMENT_BOUND:?}: {statuses:?}; log:\n{}",
            tail(log)
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn open_read_only(db: &Path) -> Connection {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(db, flags).unwrap();
    conn.busy_timeout(Duration::from_secs(5)).unwrap();
    conn
}

fn count(db: &Path, sql: &str) -> u64 {
    let n: i64 = open_read_only(db)
        .query_row(sql, [], |row| row.get(0))
        .unwrap();
    u64::try_from(n).unwrap()
}

fn match_rows(db: &Path) -> u64 {
    count(db, "SELECT COUNT(*) FROM matches")
}

/// Each program's status and progress, for the log.
fn states(db: &Path) -> String {
    let conn = open_read_only(db);
    let mut statement = conn
        .prepare("SELECT name, status, games_done, games_total FROM programs ORDER BY id")
        .unwrap();
    let rows = statement
        .query_map([], |r| {
            let (name, status): (String, String) = (r.get(0)?, r.get(1)?);
            let (done, total): (i64, i64) = (r.get(2)?, r.get(3)?);
            Ok(format!("{name} {status} {done}/{total}"))
        })
        .unwrap();
    rows.map(Result::unwrap).collect::<Vec<_>>().join(", ")
}

/// The (green, violet, seed_index) triples stored more than once.
fn duplicates(db: &Path) -> u64 {
    let sql = "SELECT COUNT(*) FROM (SELECT 1 FROM matches GROUP BY green, violet, seed_index \
               HAVING COUNT(*) > 1)";
    count(db, sql)
}

/// Waits until the database holds some of the matches but not all (a third at least, so that
/// the kill lands inside a placement): the count then.
fn wait_partial(db: &Path) -> u64 {
    let start = Instant::now();
    loop {
        let rows = match_rows(db);
        assert!(
            rows < TOTAL,
            "all {TOTAL} matches played before the kill: widen SEEDS"
        );
        if rows >= TOTAL / 3 {
            return rows;
        }
        assert!(
            start.elapsed() < PLACEMENT_BOUND,
            "only {rows} matches after {PLACEMENT_BOUND:?}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The standings with every program id replaced by the program's name (ids differ between
/// databases).
fn standings(server: &Server) -> Value {
    let mut rows = server.json(
        "GET",
        &format!("/api/v1/hills/{HILL}/standings"),
        None,
        None,
        200,
    );
    let names: Vec<(Value, Value)> = rows
        .as_array()
        .expect("standings are a list")
        .iter()
        .map(|row| (row["id"].clone(), row["name"].clone()))
        .collect();
    rename_ids(&mut rows, &names);
    rows
}

fn rename_ids(value: &mut Value, names: &[(Value, Value)]) {
    match value {
        Value::Object(map) => {
            if let Some(id) = map.get_mut("id") {
                let name = names.iter().find(|(i, _)| i == id).map(|(_, n)| n.clone());
                *id = name.unwrap_or_else(|| json!(format!("unknown id {id}")));
            }
            map.values_mut().for_each(|v| rename_ids(v, names));
        }
        Value::Array(items) => items.iter_mut().for_each(|v| rename_ids(v, names)),
        _ => {}
    }
}

/// A run killed with SIGKILL in the middle of the placements, then started again: the
/// standings at the end.
fn interrupted_run(dir: &Path) -> Value {
    let db = dir.join("interrupted.sqlite");
    create_hill(&db);
    let first_log = dir.join("first.log");
    let server = Server::start(&db, &first_log);
    let ids = submit_all(&server);
    let seen = wait_partial(&db);
    server.kill();
    let at_kill = match_rows(&db);
    eprintln!(
        "killed with {seen} matches seen, {at_kill} stored, of {TOTAL}: {}",
        states(&db)
    );
    assert!(
        at_kill < TOTAL,
        "every match was stored before the kill landed: widen SEEDS"
    );
    let log = dir.join("second.log");
    let server = Server::start(&db, &log);
    wait_placed(&server, &ids, &log);
    let rows = standings(&server);
    drop(server);
    assert_eq!(match_rows(&db), TOTAL, "match rows after the resumed run");
    assert_eq!(
        duplicates(&db),
        0,
        "matches stored twice after the resumed run"
    );
    rows
}

/// The same submissions, in the same order, without a kill.
fn uninterrupted_run(dir: &Path) -> Value {
    let db = dir.join("uninterrupted.sqlite");
    create_hill(&db);
    let log = dir.join("uninterrupted.log");
    let server = Server::start(&db, &log);
    let ids = submit_all(&server);
    wait_placed(&server, &ids, &log);
    let rows = standings(&server);
    drop(server);
    assert_eq!(
        match_rows(&db),
        TOTAL,
        "match rows after the uninterrupted run"
    );
    assert_eq!(
        duplicates(&db),
        0,
        "matches stored twice after the uninterrupted run"
    );
    rows
}

#[test]
fn placement_resumes_after_kill_9() {
    let dir = TempDir::new();
    let start = Instant::now();
    let resumed = interrupted_run(&dir.0);
    eprintln!("interrupted run: {:?}", start.elapsed());
    let start = Instant::now();
    let reference = uninterrupted_run(&dir.0);
    eprintln!("uninterrupted run: {:?}", start.elapsed());
    assert_eq!(
        resumed.as_array().map(Vec::len),
        Some(PROGRAMS.len()),
        "{resumed:#}"
    );
    assert_eq!(
        resumed, reference,
        "standings differ:\nresumed {resumed:#}\nreference {reference:#}"
    );
}

/// A small hill `h` on duel, one robot a side, two seeds.
fn small_hill(db: &Path) {
    hill_create(db, "h", &["--seeds", "2"]);
}

#[test]
fn arena_submit_places_a_program_and_says_its_rank() {
    let dir = TempDir::new();
    let db = dir.0.join("a.sqlite");
    small_hill(&db);
    let server = Server::start(&db, &dir.0.join("log"));
    let account = json!({"name": "cli", "password": "cli-password"});
    let token = server.json("POST", "/api/v1/accounts", None, Some(&account), 201)["token"]
        .as_str()
        .unwrap()
        .to_string();
    let programs = Path::new(env!("CARGO_MANIFEST_DIR")).join("programs");
    let submit = |file: &Path| {
        Command::new(BIN)
            .args([
                "arena",
                "submit",
                "--server",
                &format!("http://{}", server.addr),
            ])
            .args(["--hill", "h"])
            .arg(file)
            .env("ROBOTS_TOKEN", &token)
            .output()
            .unwrap()
    };
    for name in ["hunter", "turret"] {
        let out = submit(&programs.join(format!("{name}.robot")));
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            stdout.contains(&format!("{name}: queued on hill h as program")),
            "{stdout}"
        );
        assert!(stdout.contains("placed: rank "), "{stdout}");
    }
    let bad = dir.0.join("bad.robot");
    std::fs::write(&bad, "1 GO 99\n").unwrap();
    let out = submit(&bad);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("bad.robot:1:") && stderr.contains("error"),
        "{stderr}"
    );
    let rows = server.json("GET", "/api/v1/hills/h/standings", None, None, 200);
    assert_eq!(rows.as_array().map(Vec::len), Some(2), "{rows:#}");
}

#[test]
fn serve_backup_copies_a_running_database() {
    let dir = TempDir::new();
    let db = dir.0.join("a.sqlite");
    small_hill(&db);
    let server = Server::start(&db, &dir.0.join("log"));
    let account = json!({"name": "kept", "password": "kept-password"});
    server.json("POST", "/api/v1/accounts", None, Some(&account), 201);
    let copy = dir.0.join("copy.sqlite");
    let out = Command::new(BIN)
        .args(["serve", "backup"])
        .arg(&copy)
        .arg("--db")
        .arg(&db)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        count(&copy, "SELECT count(*) FROM accounts WHERE name = 'kept'"),
        1
    );
    assert_eq!(count(&copy, "SELECT count(*) FROM hills"), 1);
    // A second backup to the same file is refused: a backup is a new file.
    let again = Command::new(BIN)
        .args(["serve", "backup"])
        .arg(&copy)
        .arg("--db")
        .arg(&db)
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(2));
    drop(server);
}

#[test]
fn the_demo_hill_shows_the_shipped_programs() {
    let dir = TempDir::new();
    let db = dir.0.join("a.sqlite");
    let log = dir.0.join("log");
    let server = Server::start_with(&db, &log, &["--demo"]);
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let rows = server.json("GET", "/api/v1/hills/demo/standings", None, None, 200);
        if rows.as_array().map(Vec::len) == Some(16) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the demo hill is not placed: {rows:#}\n{}",
            tail(&log)
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    server.kill();
    // A second start finds the hill and adds nothing.
    let server = Server::start_with(&db, &log, &["--demo"]);
    let programs = server.json("GET", "/api/v1/hills/demo", None, None, 200);
    assert_eq!(programs["programs"], 16);
}

/// `scripts/k8s/arena.yaml` (docs/SCALE.md): a Service in front of the servers, servers that
/// play no placements (`--workers 0`), workers, all on the database of one Secret; the
/// flags each container passes are ones `robots` takes (its shell line run with `--help`).
#[test]
fn the_kubernetes_arena_has_servers_without_workers_and_workers_on_one_database() {
    let path = "scripts/k8s/arena.yaml";
    let text = crate::support::read(path);
    let docs: Vec<Value> = text
        .split("\n---\n")
        .map(|doc| robots_games::text::yaml::from_str(path, doc).unwrap())
        .collect();
    let kinds: Vec<&str> = docs.iter().map(|d| d["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["Service", "Deployment", "Deployment"]);
    let (service, serve, worker) = (&docs[0], &docs[1], &docs[2]);
    assert_eq!(
        service["spec"]["selector"]["app"],
        serve["spec"]["template"]["metadata"]["labels"]["app"]
    );
    let container = |d: &Value| d["spec"]["template"]["spec"]["containers"][0].clone();
    for (deployment, command) in [(serve, "robots serve "), (worker, "robots worker ")] {
        let c = container(deployment);
        assert_eq!(c["env"][0]["name"], "DB");
        assert_eq!(
            c["env"][0]["valueFrom"]["secretKeyRef"]["name"],
            "robots-db"
        );
        let shell = c["args"][0].as_str().unwrap();
        assert!(
            shell.contains(command) && shell.contains("--db \"$DB\""),
            "{shell}"
        );
        let line = shell.replace("exec robots", &format!("'{BIN}'")) + " --help";
        let o = Command::new("sh")
            .args(["-c", &line])
            .env("DB", "postgres://robots@127.0.0.1:1/robots")
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{line}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    assert!(
        container(serve)["args"][0]
            .as_str()
            .unwrap()
            .contains("--workers 0")
    );
}
