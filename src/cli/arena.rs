//! `robots arena submit` (docs/ARENA.md): a program sent to an arena's hill through its
//! API, then its placement followed until it is ranked; `robots arena challenge`: a
//! challenge sent, then followed until its matches are played. The token comes from
//! ROBOTS_TOKEN, else `~/.config/robots/token`. HTTPS with rustls, the system's roots (or
//! `--ca FILE`'s); plain HTTP only to a loopback address unless `--insecure-http`, since the
//! token and the program's text would cross the network readable by anyone on the way. What
//! it sends and reads are the arena's own bodies (`robots_arena::api::bodies`), so the
//! protocol is written once.

use crate::cli::args::arena_flags::{ArenaArgs, ArenaCommand, ChallengeArgs};
use crate::cli::io::files::read_input;
use crate::cli::io::output::Failure;
use robots_arena::api::bodies::{
    ChallengeView, Diagnostic, NewChallenge, ProgramView, Refusal, Status, Submission, Submitted,
};
use robots_arena::db::ids::ProgramId;
use robots_games::text::escape;
use serde::de::DeserializeOwned;
use std::net::IpAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use ureq::tls::{Certificate, PemItem, RootCerts, TlsConfig};

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

/// Whether `server` may be spoken to as it is: HTTPS always; plain HTTP to a loopback
/// address (`localhost`, 127.0.0.0/8, `::1`) or with `--insecure-http`. Refused in words
/// before any connection.
fn check_scheme(server: &str, insecure_http: bool) -> Result<(), Failure> {
    let uri: ureq::http::Uri = server.parse().map_err(|_| {
        Failure::Bad(format!(
            "--server {}: not a URL (e.g. https://arena.example.org)",
            escape(server)
        ))
    })?;
    let host = uri.host().unwrap_or("");
    match uri.scheme_str() {
        Some("https") if !host.is_empty() => Ok(()),
        Some("http") if !host.is_empty() => {
            let bare = host.trim_start_matches('[').trim_end_matches(']');
            let loopback = bare.eq_ignore_ascii_case("localhost")
                || bare.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback());
            if loopback || insecure_http {
                Ok(())
            } else {
                Err(Failure::Bad(format!(
                    "--server {}: refusing plain HTTP to a host other than this machine: the API token and the program's text would cross the network unencrypted. Use https://{} (the arena behind HTTPS, or `robots serve --tls-cert`), or add --insecure-http if the network between is yours",
                    escape(server),
                    escape(server.split_once("://").map_or(server, |(_, rest)| rest))
                )))
            }
        }
        _ => Err(Failure::Bad(format!(
            "--server {}: give an https:// (or, to this machine, http://) URL",
            escape(server)
        ))),
    }
}

/// The roots a server's certificate is checked against: the PEM certificates of `ca`, else
/// the system's (rustls-platform-verifier).
fn roots(ca: Option<&Path>) -> Result<RootCerts, Failure> {
    let Some(path) = ca else {
        return Ok(RootCerts::PlatformVerifier);
    };
    let shown = escape(&path.display().to_string()).into_owned();
    let bytes = std::fs::read(path)
        .map_err(|e| Failure::Bad(format!("--ca {shown}: cannot read it: {}", e.kind())))?;
    let mut certs: Vec<Certificate<'static>> = Vec::new();
    for item in ureq::tls::parse_pem(&bytes) {
        match item {
            Ok(PemItem::Certificate(c)) => certs.push(c.to_owned()),
            Ok(_) => {}
            Err(_) => {
                return Err(Failure::Bad(format!("--ca {shown}: not PEM certificates")));
            }
        }
    }
    if certs.is_empty() {
        return Err(Failure::Bad(format!(
            "--ca {shown}: holds no certificate (PEM `BEGIN CERTIFICATE`)"
        )));
    }
    Ok(RootCerts::Specific(Arc::new(certs)))
}

fn agent(roots: RootCerts) -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(30)))
        .tls_config(TlsConfig::builder().root_certs(roots).build())
        .build()
        .into()
}

/// An answer: its status and its body, not yet read as any type.
struct Answer {
    status: u16,
    body: Vec<u8>,
    server: String,
}

impl Answer {
    fn new(
        response: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
        server: &str,
    ) -> Result<Answer, Failure> {
        let mut response =
            response.map_err(|e| format!("{}: cannot reach the arena: {e}", escape(server)))?;
        let status = response.status().as_u16();
        let body = response
            .body_mut()
            .with_config()
            .limit(MAX_ANSWER)
            .read_to_vec()
            .map_err(|_| Answer::not_json(server, status))?;
        Ok(Answer {
            status,
            body,
            server: server.to_string(),
        })
    }

    fn not_json(server: &str, status: u16) -> Failure {
        Failure::Bad(format!(
            "{}: the answer is not the arena's JSON (status {status})",
            escape(server)
        ))
    }

    /// The body as `T`.
    fn read<T: DeserializeOwned>(&self) -> Result<T, Failure> {
        serde_json::from_slice(&self.body).map_err(|_| Answer::not_json(&self.server, self.status))
    }

    /// A successful answer's body as `T`; the server's refusal in words otherwise.
    fn ok<T: DeserializeOwned>(&self) -> Result<T, Failure> {
        if self.status >= 400 {
            let refusal: Refusal = self.read()?;
            return Err(Failure::Bad(format!(
                "the arena says ({}): {}",
                self.status,
                escape(&refusal.detail)
            )));
        }
        self.read()
    }
}

pub fn run(args: &ArenaArgs) -> Result<(), Failure> {
    let (server, hill, name, no_wait, file, ca, insecure_http) = match &args.command {
        ArenaCommand::Submit {
            server,
            hill,
            name,
            no_wait,
            file,
            ca,
            insecure_http,
        } => (server, hill, name, no_wait, file, ca, insecure_http),
        ArenaCommand::Challenge(c) => return challenge(c),
    };
    let server = server.trim_end_matches('/');
    check_scheme(server, *insecure_http)?;
    let roots = roots(ca.as_deref())?;
    let source = read_input(file)?;
    let name = name_of(name.as_deref(), file);
    let token = token()?;
    let agent = agent(roots);
    let url = format!("{server}/api/v1/hills/{}/programs", urlencode(hill));
    let sent = agent
        .post(&url)
        .header("Authorization", &format!("Bearer {token}"))
        .send_json(Submission {
            name: name.clone(),
            source,
        });
    let answer = Answer::new(sent, server)?;
    refused_program(&answer, file)?;
    let submitted: Submitted = answer.ok()?;
    let id = submitted.id;
    for w in &submitted.warnings {
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

/// A program's name: the one given, else the file's stem.
fn name_of(name: Option<&str>, file: &Path) -> String {
    match name {
        Some(n) => n.to_string(),
        None => file
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("program")
            .to_string(),
    }
}

/// A program refused for its errors (422): the diagnostics on standard error, the failure.
fn refused_program(answer: &Answer, file: &Path) -> Result<(), Failure> {
    if answer.status != 422 {
        return Ok(());
    }
    let refusal: Refusal = answer.read()?;
    for d in refusal.diagnostics.iter().flatten() {
        eprintln!("{}", said(d, file));
    }
    Err(Failure::Bad(
        "the arena refused the program: it has errors".into(),
    ))
}

/// `robots arena challenge`: the challenge sent, then followed until its matches are played.
fn challenge(args: &ChallengeArgs) -> Result<(), Failure> {
    let server = args.server.trim_end_matches('/');
    let mut body = NewChallenge {
        program: args.program.map(ProgramId),
        opponent: args.opponent.map(ProgramId),
        shipped: args.shipped.clone(),
        seeds: args.seeds,
        ..NewChallenge::default()
    };
    if let (Some(file), Some(hill)) = (&args.file, &args.hill) {
        body.source = Some(read_input(file)?);
        body.name = Some(name_of(args.name.as_deref(), file));
        body.hill = Some(hill.clone());
    }
    check_scheme(server, args.insecure_http)?;
    let roots = roots(args.ca.as_deref())?;
    let token = token()?;
    let agent = agent(roots);
    let auth = format!("Bearer {token}");
    let sent = agent
        .post(&format!("{server}/api/v1/challenges"))
        .header("Authorization", &auth)
        .send_json(&body);
    let answer = Answer::new(sent, server)?;
    if let Some(file) = &args.file {
        refused_program(&answer, file)?;
    }
    let mut c: ChallengeView = answer.ok()?;
    let id = c.id;
    outln!(
        "challenge {id}: {} v {} on hill {}, {} seed(s) both ways: {server}/challenges/{id}",
        escape(&c.name),
        escape(&c.opponent.name),
        escape(&c.hill),
        c.seeds
    );
    if args.no_wait {
        return Ok(());
    }
    let start = std::time::Instant::now();
    while c.state != "done" {
        if start.elapsed() > MAX_WAIT {
            return Err(Failure::NoAnswer(format!(
                "not played after {} s: see {server}/challenges/{id}",
                MAX_WAIT.as_secs()
            )));
        }
        std::thread::sleep(Duration::from_millis(500));
        let url = format!("{server}/api/v1/challenges/{id}");
        c = Answer::new(
            agent.get(&url).header("Authorization", &auth).call(),
            server,
        )?
        .ok()?;
    }
    for m in c.matches.iter().flatten() {
        outln!(
            "seed {} as {}: {} in {} rounds ({}): {server}/challenges/{id}/matches/{}",
            m.seed_index,
            escape(&m.colour),
            m.result.word(),
            m.rounds,
            escape(&m.reason),
            m.n
        );
    }
    outln!(
        "{}: {} won, {} drawn, {} lost of {}",
        escape(&c.name),
        c.wins,
        c.draws,
        c.losses,
        c.played
    );
    Ok(())
}

/// A diagnostic of the server as `robots check` says it, about `file`.
fn said(d: &Diagnostic, file: &Path) -> String {
    escape(&format!(
        "{}:{}:{}: {}: {}",
        file.display(),
        d.line,
        d.column,
        d.severity,
        d.message
    ))
    .into_owned()
}

fn follow(agent: &ureq::Agent, server: &str, id: ProgramId) -> Result<(), Failure> {
    let start = std::time::Instant::now();
    let mut last = String::new();
    while start.elapsed() < MAX_WAIT {
        let answer = Answer::new(
            agent.get(&format!("{server}/api/v1/programs/{id}")).call(),
            server,
        )?;
        let p: ProgramView = answer.ok()?;
        let line = format!(
            "{}: {} of {} matches",
            p.status.word(),
            p.games_done,
            p.games_total
        );
        if line != last {
            eprintln!("{}", escape(&line));
            last = line;
        }
        match p.status {
            Status::Placed => {
                // A placed program has its rank; JSON's `null` where the hill is gone.
                let rank = p.rank.map_or_else(|| "null".to_string(), |r| r.to_string());
                outln!(
                    "placed: rank {rank} (standings: {server}/hills/{})",
                    escape(&p.hill)
                );
                return Ok(());
            }
            Status::Off => {
                outln!("placed, then pushed off the hill (it ranked last)");
                return Ok(());
            }
            Status::Queued | Status::Playing => std::thread::sleep(Duration::from_millis(500)),
            other => return Err(Failure::Bad(format!("the program is {}", other.word()))),
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
