//! The arena over HTTPS (docs/ARENA.md, "HTTPS"): a private CA and a certificate for
//! 127.0.0.1 made here with `rcgen`, `robots serve --tls-cert --tls-key` serving with them,
//! and `robots arena submit --ca` placing a program through it (refused without `--ca`: the
//! system's roots do not know the CA); its cookies are Secure. Files that are not a
//! certificate or a key stop the server with words that never repeat them. And the client
//! refuses plain HTTP to another machine, in words, before any connection.

use super::arena::{Server, TempDir, hill_create, tail};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;
use std::time::{Duration, Instant};
use ureq::tls::{Certificate, PemItem, RootCerts, TlsConfig};

const BIN: &str = env!("CARGO_BIN_EXE_robots");

/// A CA, and a certificate for 127.0.0.1 it signed: the files `ca.pem`, `cert.pem`
/// (the server's chain: its certificate, then the CA's) and `key.pem` in `dir`.
fn certificates(dir: &Path) -> [PathBuf; 3] {
    let mut ca = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    ca.distinguished_name
        .push(rcgen::DnType::CommonName, "robots test CA");
    let ca = rcgen::CertifiedIssuer::self_signed(ca, rcgen::KeyPair::generate().unwrap()).unwrap();
    let key = rcgen::KeyPair::generate().unwrap();
    let cert = rcgen::CertificateParams::new(vec!["127.0.0.1".to_string()])
        .unwrap()
        .signed_by(&key, &ca)
        .unwrap();
    let ca_pem = ca.as_ref().pem();
    let files = [
        dir.join("ca.pem"),
        dir.join("cert.pem"),
        dir.join("key.pem"),
    ];
    std::fs::write(&files[0], &ca_pem).unwrap();
    std::fs::write(&files[1], format!("{}{ca_pem}", cert.pem())).unwrap();
    std::fs::write(&files[2], key.serialize_pem()).unwrap();
    files
}

/// An agent that trusts the PEM certificates of `ca` only.
fn agent(ca: &Path) -> ureq::Agent {
    let pem = std::fs::read(ca).unwrap();
    let certs: Vec<Certificate<'static>> = ureq::tls::parse_pem(&pem)
        .filter_map(|item| match item.unwrap() {
            PemItem::Certificate(c) => Some(c.to_owned()),
            _ => None,
        })
        .collect();
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .tls_config(
            TlsConfig::builder()
                .root_certs(RootCerts::Specific(Arc::new(certs)))
                .build(),
        )
        .build()
        .into()
}

fn submit(server: &str, token: &str, extra: &[&str], file: &Path) -> Output {
    Command::new(BIN)
        .args(["arena", "submit", "--server", server, "--hill", "h"])
        .args(extra)
        .arg(file)
        .env("ROBOTS_TOKEN", token)
        .output()
        .unwrap()
}

fn said(out: &Output) -> String {
    format!(
        "exit {:?}\n{}{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn arena_submit_places_a_program_over_https_with_a_private_ca() {
    let dir = TempDir::new();
    let db = dir.0.join("a.sqlite");
    hill_create(&db, "h", &["--seeds", "2"]);
    let [ca, cert, key] = certificates(&dir.0);
    let flags = [
        "--tls-cert",
        cert.to_str().unwrap(),
        "--tls-key",
        key.to_str().unwrap(),
    ];
    let log = dir.0.join("log");
    let server = Server::start_with(&db, &log, &flags);
    let base = format!("https://{}", server.addr);
    let agent = agent(&ca);
    let mut made = agent
        .post(&format!("{base}/api/v1/accounts"))
        .send_json(serde_json::json!({"name": "tls", "password": "tls-password"}))
        .unwrap_or_else(|e| panic!("{e}; log:\n{}", tail(&log)));
    assert_eq!(made.status(), 201);
    let made: serde_json::Value = made.body_mut().read_json().unwrap();
    let token = made["token"].as_str().unwrap();
    // The cookies are Secure without --secure-cookies.
    let page = agent.get(&format!("{base}/signin")).call().unwrap();
    let cookie = page.headers().get("set-cookie").unwrap().to_str().unwrap();
    assert!(
        cookie.starts_with("robots_csrf=") && cookie.ends_with("; Secure"),
        "{cookie}"
    );

    let hunter = Path::new(env!("CARGO_MANIFEST_DIR")).join("programs/hunter.robot");
    let out = submit(&base, token, &["--ca", ca.to_str().unwrap()], &hunter);
    let text = said(&out);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("hunter: queued on hill h as program") && text.contains("placed: rank 1"),
        "{text}"
    );
    // Without --ca the system's roots do not know the test's CA: refused, nothing sent.
    let turret = Path::new(env!("CARGO_MANIFEST_DIR")).join("programs/turret.robot");
    let out = submit(&base, token, &[], &turret);
    let text = said(&out);
    assert!(!out.status.success(), "{text}");
    assert!(
        text.contains("cannot reach the arena") && text.contains("certificate"),
        "{text}"
    );
    let rows: serde_json::Value = agent
        .get(&format!("{base}/api/v1/hills/h/standings"))
        .call()
        .unwrap()
        .body_mut()
        .read_json()
        .unwrap();
    assert_eq!(rows.as_array().map(Vec::len), Some(1), "{rows:#}");
    // Plain HTTP on the HTTPS port is not served.
    let plain = submit(&format!("http://{}", server.addr), token, &[], &turret);
    assert!(!plain.status.success(), "{}", said(&plain));
}

#[test]
fn files_that_are_not_a_certificate_and_its_key_stop_the_server_in_words() {
    let dir = TempDir::new();
    let [_, cert, key] = certificates(&dir.0);
    let junk = dir.0.join("junk.pem");
    std::fs::write(&junk, "not-a-pem-secret-7c1 line\n").unwrap();
    let other = dir.0.join("other-key.pem");
    std::fs::write(&other, rcgen::KeyPair::generate().unwrap().serialize_pem()).unwrap();
    let missing = dir.0.join("missing.pem");
    let cases: [(&Path, &Path, &str); 4] = [
        (&junk, &key, "junk.pem: holds no certificate"),
        (&cert, &junk, "junk.pem: holds no private key"),
        (
            &cert,
            &other,
            "the certificate and the key do not make a TLS server",
        ),
        (&missing, &key, "missing.pem: cannot read it"),
    ];
    for (c, k, words) in cases {
        let started = Instant::now();
        let out = Command::new(BIN)
            .args(["serve", "--db"])
            .arg(dir.0.join("a.sqlite"))
            .args(["--listen", "127.0.0.1:0", "--tls-cert"])
            .arg(c)
            .arg("--tls-key")
            .arg(k)
            .output()
            .unwrap();
        let text = said(&out);
        assert!(
            !out.status.success() && started.elapsed() < Duration::from_secs(20),
            "{text}"
        );
        assert!(text.contains(words), "{words}: {text}");
        assert!(
            !text.contains("not-a-pem-secret") && !text.contains("PRIVATE KEY"),
            "{text}"
        );
        assert!(!text.contains("listening"), "{text}");
    }
}

#[test]
fn plain_http_to_another_machine_is_refused_in_words() {
    let dir = TempDir::new();
    let file = dir.0.join("p.robot");
    std::fs::write(&file, "1: D+1\n2: GO 1\n").unwrap();
    // 192.0.2.0/24 is documentation's (TEST-NET-1): nothing answers there.
    for server in ["http://192.0.2.7:8080", "http://arena.example.org"] {
        let started = Instant::now();
        let out = submit(server, "t", &[], &file);
        let text = said(&out);
        assert_eq!(out.status.code(), Some(2), "{text}");
        assert!(
            text.contains("refusing plain HTTP to a host other than this machine")
                && text.contains("--insecure-http")
                && text.contains("https://"),
            "{text}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "no connection is tried: {text}"
        );
    }
    // 0.0.0.0 is no loopback address, but Linux connects it to this machine: refused
    // unless told --insecure-http, then tried (nothing listens on port 9). To a loopback
    // address plain HTTP needs no flag.
    let refused = submit("http://0.0.0.0:9", "t", &[], &file);
    assert!(
        said(&refused).contains("refusing plain HTTP"),
        "{}",
        said(&refused)
    );
    let tried = submit("http://0.0.0.0:9", "t", &["--insecure-http"], &file);
    assert!(
        said(&tried).contains("cannot reach the arena"),
        "{}",
        said(&tried)
    );
    for server in ["http://127.0.0.1:9", "http://[::1]:9", "http://localhost:9"] {
        let out = submit(server, "t", &[], &file);
        assert!(
            said(&out).contains("cannot reach the arena"),
            "{}",
            said(&out)
        );
    }
    let out = submit("ftp://127.0.0.1", "t", &[], &file);
    assert!(said(&out).contains("give an https://"), "{}", said(&out));
}
