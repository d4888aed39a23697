//! A private PostgreSQL for the tests: `initdb` in a new temporary folder, the server on a
//! free loopback port with its socket in that folder, stopped by its pid when dropped (a fast
//! shutdown, then SIGKILL). As root the cluster belongs to the user `postgres` (PostgreSQL
//! refuses root). Needs Debian's `postgresql` (scripts/test installs it).

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct PgCluster {
    dir: PathBuf,
    pid: Option<u32>,
    runner: Option<Child>,
    pub url: String,
}

fn bin() -> PathBuf {
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path().join("bin")))
                .collect()
        })
        .unwrap_or_default();
    found.retain(|p| p.join("initdb").exists());
    found.sort_by_key(|p| {
        p.parent()
            .and_then(|v| v.file_name())
            .and_then(|v| v.to_str())
            .and_then(|v| v.parse::<u32>().ok())
    });
    found
        .pop()
        .expect("PostgreSQL is not installed (apt-get install postgresql; scripts/test does)")
}

fn root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.trim_ascii() == b"0")
}

/// `program args…`, as the user `postgres` when root.
fn as_owner(program: PathBuf) -> Command {
    if root() {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(program);
        c
    } else {
        Command::new(program)
    }
}

impl PgCluster {
    pub fn start(tag: &str) -> PgCluster {
        let bin = bin();
        let dir = std::env::temp_dir().join(format!("robots-pg-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        if root() {
            let ok = Command::new("chown")
                .arg("postgres")
                .arg(&dir)
                .status()
                .is_ok_and(|s| s.success());
            assert!(ok, "chown postgres {}", dir.display());
        }
        let data = dir.join("data");
        let init = as_owner(bin.join("initdb"))
            .arg("-D")
            .arg(&data)
            .args(["-U", "robots", "-A", "trust", "--no-sync", "-E", "UTF8"])
            .output()
            .expect("initdb runs");
        assert!(
            init.status.success(),
            "initdb: {}",
            String::from_utf8_lossy(&init.stderr)
        );
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let runner = as_owner(bin.join("postgres"))
            .arg("-D")
            .arg(&data)
            .args(["-p", &port.to_string(), "-k"])
            .arg(&dir)
            .args(["-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("postgres starts");
        let url = format!("postgres://robots@127.0.0.1:{port}/postgres");
        let mut cluster = PgCluster {
            dir,
            pid: None,
            runner: Some(runner),
            url,
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if postgres::Client::connect(&cluster.url, postgres::NoTls).is_ok() {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "PostgreSQL did not start in 30 s"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        cluster.pid = std::fs::read_to_string(data.join("postmaster.pid"))
            .ok()
            .and_then(|t| t.lines().next().and_then(|l| l.trim().parse().ok()));
        cluster
    }
}

impl Drop for PgCluster {
    fn drop(&mut self) {
        if let Some(pid) = self.pid {
            let alive = || std::path::Path::new(&format!("/proc/{pid}")).exists();
            let _ = Command::new("kill")
                .args(["-INT", &pid.to_string()])
                .status();
            let deadline = Instant::now() + Duration::from_secs(10);
            while alive() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(20));
            }
            if alive() {
                let _ = Command::new("kill")
                    .args(["-KILL", &pid.to_string()])
                    .status();
            }
        }
        if let Some(mut runner) = self.runner.take() {
            let _ = runner.kill();
            let _ = runner.wait();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
