//! `robots arena submit` (docs/ARENA.md): a program sent to an arena's hill through its
//! API, then its placement followed until it is ranked. The token comes from ROBOTS_TOKEN,
//! else `~/.config/robots/token`. Plain HTTP (an arena behind HTTPS needs a TLS-capable
//! client for now: curl with the API does it).

use crate::cli::args::arena_flags::{ArenaArgs, ArenaCommand};
use crate::cli::io::files::read_input;
use crate::cli::io::output::Failure;
use robots_games::text::escape;
use serde_json::{Value, json};
use std::path::Path;
use std::time::Duration;

/// The most bytes of an answer read.
const MAX_ANSWER: u64 = 4 << 20;
/// How long to wait for a placement.
const MAX_WAIT: Duration = Duration::from_secs(600);

fn token() -> Result<String, Failure> {
    if let Ok(t) = std::env::var("ROBOTS_TOKEN") {
        return Ok(t.trim().to_string());
    }
    let home = std::env::var_os("HOME")
        .ok_or_else(|| Failure::Bad("no token: set ROBOTS_TOKEN (docs/ARENA.md)".into()))?;
    let path = Path::new(&home).join(".config/robots/token");
    let text = std::fs::read_to_string(&path).map_err(|_| {
        "no token: set ROBOTS_TOKEN, or put one in ~/.config/robots/token (docs/ARENA.md: POST /api/v1/tokens, or the account page)".to_string()
    })?;
    Ok(text.trim().to_string())
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(30)))
        .build()
        .into()
}

/// The status and JSON body of an answer.
fn answer(
    response: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
    server: &str,
) -> Result<(u16, Value), Failure> {
    let mut response =
        response.map_err(|e| format!("{}: cannot reach the arena: {e}", escape(server)))?;
    let status = response.status().as_u16();
    let body: Value = response
        .body_mut()
        .with_config()
        .limit(MAX_ANSWER)
        .read_json()
        .map_err(|_| {
            format!(
                "{}: the answer is not the arena's JSON (status {status})",
                escape(server)
            )
        })?;
    Ok((status, body))
}

/// A successful answer's body; the server's `{error, detail}` in words otherwise.
fn ok(status: u16, body: Value) -> Result<Value, Failure> {
    if status >= 400 {
        let detail = body["detail"].as_str().unwrap_or("refused");
        return Err(Failure::Bad(format!(
            "the arena says ({status}): {}",
            escape(detail)
        )));
    }
    Ok(body)
}

pub fn run(args: &ArenaArgs) -> Result<(), Failure> {
    let ArenaCommand::Submit {
        server,
        hill,
        name,
        no_wait,
        file,
    } = &args.command;
    let server = server.trim_end_matches('/');
    let source = read_input(file)?;
    let name = match name {
        Some(n) => n.clone(),
        None => file
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("program")
            .to_string(),
    };
    let token = token()?;
    let agent = agent();
    let url = format!("{server}/api/v1/hills/{}/programs", urlencode(hill));
    let sent = agent
        .post(&url)
        .header("Authorization", &format!("Bearer {token}"))
        .send_json(json!({"name": name, "source": source}));
    let (status, body) = answer(sent, server)?;
    if status == 422 {
        for d in body["diagnostics"].as_array().into_iter().flatten() {
            eprintln!("{}", said(d, file));
        }
        return Err(Failure::Bad(
            "the arena refused the program: it has errors".into(),
        ));
    }
    let body = ok(status, body)?;
    let id = body["id"]
        .as_i64()
        .ok_or_else(|| Failure::Bad("the arena gave no program id".into()))?;
    for w in body["warnings"].as_array().into_iter().flatten() {
        eprintln!("{}", said(w, file));
    }
    outln!(
        "{}: queued on hill {} as program {id}: {server}/programs/{id}",
        escape(&name),
        escape(hill)
    );
    if *no_wait {
        return Ok(());
    }
    follow(&agent, server, id)
}

/// A diagnostic of the server as `robots check` says it, about `file`.
fn said(d: &Value, file: &Path) -> String {
    escape(&format!(
        "{}:{}:{}: {}: {}",
        file.display(),
        d["line"].as_u64().unwrap_or(0),
        d["column"].as_u64().unwrap_or(0),
        d["severity"].as_str().unwrap_or("error"),
        d["message"].as_str().unwrap_or("")
    ))
    .into_owned()
}

fn follow(agent: &ureq::Agent, server: &str, id: i64) -> Result<(), Failure> {
    let start = std::time::Instant::now();
    let mut last = String::new();
    while start.elapsed() < MAX_WAIT {
        let (code, p) = answer(
            agent.get(&format!("{server}/api/v1/programs/{id}")).call(),
            server,
        )?;
        let p = ok(code, p)?;
        let status = p["status"].as_str().unwrap_or("");
        let line = format!(
            "{status}: {} of {} matches",
            p["games_done"], p["games_total"]
        );
        if line != last {
            eprintln!("{}", escape(&line));
            last = line;
        }
        match status {
            "placed" => {
                outln!(
                    "placed: rank {} (standings: {server}/hills/{})",
                    p["rank"],
                    escape(p["hill"].as_str().unwrap_or(""))
                );
                return Ok(());
            }
            "off" => {
                outln!("placed, then pushed off the hill (it ranked last)");
                return Ok(());
            }
            "queued" | "playing" => std::thread::sleep(Duration::from_millis(500)),
            other => return Err(Failure::Bad(format!("the program is {}", escape(other)))),
        }
    }
    Err(Failure::NoAnswer(format!(
        "not placed after {} s: see {server}/programs/{id}",
        MAX_WAIT.as_secs()
    )))
}

/// A path segment, percent-encoded.
fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}
