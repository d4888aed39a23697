//! `robots lsp` driven over standard input and output as an editor drives it (issue 35):
//! diagnostics in `robots check`'s words, hover, definition, completion, formatting, the
//! outline, shutdown and exit. Every read has a time bound, so a hang fails the test.

use crate::support::{robots_with_stdin, stdout};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

const LIMIT: Duration = Duration::from_secs(20);
const URI: &str = "file:///nowhere/hunter.robot";

struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    from: Receiver<Value>,
    next_id: i64,
}

/// Reads Content-Length framed messages into the channel until the stream ends.
fn read_messages(stdout: impl Read, to: std::sync::mpsc::Sender<Value>) {
    let mut reader = BufReader::new(stdout);
    loop {
        let mut length = None;
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                length = n.parse::<usize>().ok();
            }
        }
        let Some(n) = length else { return };
        let mut body = vec![0; n];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let Ok(message) = serde_json::from_slice(&body) else {
            return;
        };
        if to.send(message).is_err() {
            return;
        }
    }
}

impl Client {
    fn start(args: &[&str]) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_robots"))
            .arg("lsp")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (to, from) = channel();
        std::thread::spawn(move || read_messages(stdout, to));
        let stdin = child.stdin.take();
        let mut client = Client {
            child,
            stdin,
            from,
            next_id: 0,
        };
        let init = client.request(
            "initialize",
            json!({"processId": null, "rootUri": null, "capabilities": {}}),
        );
        assert_eq!(init["capabilities"]["hoverProvider"], json!(true), "{init}");
        client.notify("initialized", json!({}));
        client
    }

    fn send(&mut self, message: &Value) {
        let body = message.to_string();
        let stdin = self.stdin.as_mut().unwrap();
        write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        stdin.flush().unwrap();
    }

    fn next(&self) -> Value {
        self.from
            .recv_timeout(LIMIT)
            .expect("robots lsp answers within the time bound")
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let m = self.next();
            if m["id"] == json!(id) && m.get("method").is_none() {
                assert!(m.get("error").is_none(), "{method}: {m}");
                return m["result"].clone();
            }
        }
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The next diagnostics published.
    fn diagnostics(&self) -> Vec<Value> {
        loop {
            let m = self.next();
            if m["method"] == "textDocument/publishDiagnostics" {
                return m["params"]["diagnostics"].as_array().unwrap().clone();
            }
        }
    }

    fn open(&mut self, text: &str) -> Vec<Value> {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": URI, "languageId": "robot", "version": 1, "text": text}}),
        );
        self.diagnostics()
    }

    fn change(&mut self, version: i64, text: &str) -> Vec<Value> {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": URI, "version": version}, "contentChanges": [{"text": text}]}),
        );
        self.diagnostics()
    }

    fn at(&mut self, method: &str, line: u32, character: u32) -> Value {
        self.request(
            method,
            json!({"textDocument": {"uri": URI}, "position": {"line": line, "character": character}}),
        )
    }

    /// Shutdown, exit, and the exit code.
    fn stop(mut self) -> Option<i32> {
        assert_eq!(self.request("shutdown", Value::Null), Value::Null);
        self.notify("exit", Value::Null);
        drop(self.stdin.take());
        let start = Instant::now();
        while start.elapsed() < LIMIT {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        panic!("robots lsp did not exit after `exit`");
    }
}

const BROKEN: &str =
    "name: hunter\n1: ?1\n2: GO 4\n3: X+1\n4: T\n5: RAZ\ntest 1: enemy ahead within 2\n";
const FIXED: &str =
    "name: hunter\n1: ?1\n2: GO 4\n3: R+1\n4: T\n5: RAZ\ntest 1: enemy ahead within 2\n";

/// `robots check --format json`'s diagnostics of a program on standard input.
fn check_json(text: &str) -> Vec<Value> {
    let out = robots_with_stdin(&["check", "--format", "json", "-"], text.as_bytes());
    stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn edited(text: &str, edits: &Value) -> String {
    let offset = |p: &Value| {
        let line = usize::try_from(p["line"].as_u64().unwrap()).unwrap();
        let col = usize::try_from(p["character"].as_u64().unwrap()).unwrap();
        let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        (start + col).min(text.len())
    };
    let mut out = text.to_string();
    let mut edits = edits.as_array().unwrap().clone();
    edits.sort_by_key(|e| std::cmp::Reverse(offset(&e["range"]["start"])));
    for e in edits {
        let (a, b) = (offset(&e["range"]["start"]), offset(&e["range"]["end"]));
        out.replace_range(a..b, e["newText"].as_str().unwrap());
    }
    out
}

/// Open with an error, fix it, add a warning, fix it: each time `robots check`'s words.
fn diagnostics_are_the_checks(client: &mut Client) {
    // The error, in `robots check`'s words and place.
    let found = client.open(BROKEN);
    let checked = check_json(BROKEN);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(checked.len(), 1, "{checked:?}");
    let (d, c) = (&found[0], &checked[0]);
    assert_eq!(d["message"], c["message"]);
    assert_eq!(
        d["range"]["start"]["line"],
        json!(c["line"].as_u64().unwrap() - 1)
    );
    assert_eq!(
        d["range"]["start"]["character"],
        json!(c["column"].as_u64().unwrap() - 1)
    );
    assert_eq!(d["range"]["end"], json!({"line": 3, "character": 6}), "{d}");
    assert_eq!(d["severity"], json!(1));
    assert!(d.get("code").is_none(), "an error has no id: {d}");
    // Fixed: no diagnostics left.
    assert_eq!(client.change(2, FIXED), Vec::<Value>::new());
    // A warning carries its id as the code.
    let unused = format!("{FIXED}test 2: true\n");
    let warned = client.change(3, &unused);
    assert_eq!(warned.len(), 1, "{warned:?}");
    assert_eq!(warned[0]["code"], json!("W-unused-test"));
    assert_eq!(warned[0]["message"], check_json(&unused)[0]["message"]);
    assert_eq!(warned[0]["range"]["start"]["line"], json!(7));
    assert_eq!(client.change(4, FIXED), Vec::<Value>::new());
}

/// Formatting a messy program: the canonical layout, comments kept, and stable.
fn formatting_gives_the_layout(client: &mut Client) {
    // Formatting: the canonical layout, comments kept.
    let messy = "name:   hunter\n1:?1 # look\n2 . go to 4\n3) r + 1\n4 T\n5: raz\n\n\ntest 1 : ENEMY ahead within 2\n";
    client.change(6, messy);
    let edits = client.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": URI}, "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    let formatted = edited(messy, &edits);
    assert_eq!(
        formatted,
        "name: hunter\n1: ?1         # look\n2: GO 4\n3: R+1\n4: T\n5: RAZ\n\ntest 1: enemy ahead within 2\n"
    );
    client.change(7, &formatted);
    let again = client.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": URI}, "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    assert_eq!(again, json!([]), "the layout is stable");
}

#[test]
fn an_editor_session_gets_every_answer() {
    let mut client = Client::start(&[]);
    diagnostics_are_the_checks(&mut client);
    // Hover on `2: GO 4`: what it does and where it goes.
    let hover = client.at("textDocument/hover", 2, 4);
    let words = hover["contents"]["value"].as_str().unwrap();
    assert!(
        words.contains("`GO 4`") && words.contains("step 4 (`T`)"),
        "{words}"
    );
    // From `?1` to `test 1:`, and from `GO 4` to step 4.
    let to_test = client.at("textDocument/definition", 1, 4);
    assert_eq!(to_test["uri"], json!(URI));
    assert_eq!(
        to_test["range"]["start"],
        json!({"line": 6, "character": 0})
    );
    let to_step = client.at("textDocument/definition", 2, 4);
    assert_eq!(
        to_step["range"]["start"],
        json!({"line": 4, "character": 0})
    );

    // Completion at an empty step: the instructions.
    client.change(5, &format!("{FIXED}6: "));
    let items = client.at("textDocument/completion", 7, 3);
    let labels: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    for wanted in ["D+1", "R-2", "T", "*", "?1", "RAZ", "GO 1"] {
        assert!(labels.contains(&wanted), "{wanted} in {labels:?}");
    }
    assert!(
        !labels.contains(&"LBL 0"),
        "plain: no TI-57 key in {labels:?}"
    );

    formatting_gives_the_layout(&mut client);
    // The outline: the steps and the test.
    let symbols = client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": URI}}),
    );
    let names: Vec<&str> = symbols
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "name: hunter",
            "1: ?1",
            "2: GO 4",
            "3: R+1",
            "4: T",
            "5: RAZ",
            "test 1"
        ]
    );
    assert_eq!(client.stop(), Some(0));
}

#[test]
fn the_ti57_keywords_when_asked_and_a_63_step_program_answers_fast() {
    let mut client = Client::start(&["--keywords", "ti57"]);
    let mut text = String::from("1: LBL 1\n");
    for n in 2..=62 {
        text.push_str(&format!("{n}: ?1\n"));
    }
    text.push_str("63: GTO 1\ntest 1: enemy ahead within 2\n");
    let start = Instant::now();
    let found = client.open(&text);
    let took = start.elapsed();
    // 63 steps is past the TI-57 rule's default 50 (a match may allow it): said at step 51.
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["range"]["start"]["line"], json!(50));
    assert!(took < Duration::from_secs(2), "{took:?}");
    let items = client.at("textDocument/completion", 1, 3);
    assert!(
        items
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["label"] == "LBL 0")
    );
    let to_label = client.at("textDocument/definition", 62, 4);
    assert_eq!(to_label["range"]["start"]["line"], json!(0));
    assert_eq!(client.stop(), Some(0));
}

#[test]
fn a_message_it_cannot_read_is_answered_and_the_server_lives_on() {
    let mut client = Client::start(&[]);
    client.send(&json!({"jsonrpc": "2.0", "id": 99, "method": "textDocument/hover", "params": {"nonsense": 1}}));
    let answer = client.next();
    assert_eq!(answer["id"], json!(99));
    assert!(answer.get("error").is_some(), "{answer}");
    client.send(&json!({"jsonrpc": "2.0", "id": 100, "method": "no/such", "params": null}));
    assert!(client.next().get("error").is_some());
    client.notify("textDocument/didOpen", json!({"textDocument": 3}));
    let big = "#".repeat(robots_games::text::MAX_INPUT_BYTES + 1);
    let found = client.open(&big);
    assert_eq!(found.len(), 1);
    assert!(
        found[0]["message"].as_str().unwrap().contains("MiB"),
        "{found:?}"
    );
    assert_eq!(client.stop(), Some(0));
}
