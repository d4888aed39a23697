//! What the test modules share.

/// Asserts a snapshot kept as `tests/snapshots/{module}__{name}.snap` (with `@{file}` added
/// inside `insta::glob!`), `module` being the test module's name. These are the names the
/// snapshots had when every module was its own test binary; insta would otherwise prefix
/// them with `suite__` and look for them in `tests/suite/snapshots/`.
macro_rules! snapshot {
    ($name:expr, $value:expr) => {{
        let module = module_path!().rsplit("::").next().unwrap_or_default();
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path("../snapshots");
        settings.set_prepend_module_to_snapshot(false);
        settings.bind(|| {
            insta::assert_snapshot!(format!("{module}__{}", $name), $value);
        });
    }};
}

use robots_games::battle::engine::MatchSetup;
use robots_games::battle::files::match_file::parse_match;
use robots_games::battle::live::debug::Session;
use robots_games::text::confine::Confine;
use robots_games::text::diagnostic::{Diagnostic, text_from_bytes};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The crate's root: test inputs are named relative to it.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The text of a file named relative to the crate's root.
pub fn read(path: impl AsRef<Path>) -> String {
    let path = root().join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The reader the loaders are given: paths relative to the crate's root, or absolute.
pub fn read_under_root(path: &Path) -> std::io::Result<Vec<u8>> {
    std::fs::read(root().join(path))
}

/// The name a diagnostic shows for a file of a `tests/` folder: `tests/{dir}/{file name}`.
pub fn shown(dir: &str, path: &Path) -> String {
    format!("tests/{dir}/{}", file_name(path))
}

pub fn file_name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

/// A test input as its snapshot shows it (NUL bytes escaped) and as a loader reads it: UTF-8
/// text, or the diagnostic naming it `shown`.
pub fn input(path: &Path, shown: &str) -> (String, Result<String, Diagnostic>) {
    let bytes = std::fs::read(path).unwrap();
    let input = String::from_utf8_lossy(&bytes).replace('\0', "\\0");
    (input, text_from_bytes(shown, bytes))
}

/// The match file at `path` (relative to the crate's root, or absolute), its diagnostic
/// naming it as given.
pub fn load_match(path: &Path) -> Result<MatchSetup, Diagnostic> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(root().join(path))
        .map_err(|e| Diagnostic::whole_file(&shown, e.to_string()))?;
    parse_match(&shown, &text, &read_under_root, Confine::Anywhere)
}

/// A debugger session on the match file at `path`, read again on `reload`.
pub fn session_on(path: PathBuf) -> Session {
    Session::new(Box::new(move || load_match(&path))).unwrap()
}

/// A shipped Micro Robots face, `boards/micro/{name}.yaml`.
pub fn micro_face(name: &str) -> Result<robots_games::micro::Face, String> {
    use robots_games::micro::{MicroFile, file::parse};
    let text = std::fs::read_to_string(root().join(format!("boards/micro/{name}.yaml")))
        .map_err(|e| e.to_string())?;
    match parse(name, &text, &|_| Err("no".into())).map_err(|d| d.to_string())? {
        MicroFile::Face(f) => Ok(f),
        MicroFile::Board(_) => Err(format!("{name}: a board, not a face")),
    }
}

/// The `robots` binary, run from the crate's root.
pub fn robots_command() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_robots"));
    command.current_dir(root());
    command
}

/// Runs the `robots` binary to its end.
pub fn robots(args: &[&str]) -> Output {
    robots_command()
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Runs the `robots` binary with `input` on its standard input. The binary may stop reading
/// early (an error): a closed pipe is its answer, not a failure of the test.
pub fn robots_with_stdin(args: &[&str], input: &[u8]) -> Output {
    use std::io::Write;
    let mut child = robots_command()
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("a pipe");
    let _ = stdin.write_all(input);
    drop(stdin);
    child.wait_with_output().expect("the binary ends")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs the binary with `args` and no standard input, killed after `limit` (a panic saying
/// it ran too long); the output and how long it took.
pub fn run_within(limit: std::time::Duration, args: &[&str]) -> (Output, std::time::Duration) {
    use std::process::Stdio;
    let mut child = robots_command()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let started = std::time::Instant::now();
    while child.try_wait().expect("a child").is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("`robots {}` still running after {limit:?}", args.join(" "));
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let took = started.elapsed();
    (child.wait_with_output().expect("the binary ends"), took)
}

/// A test's own folder under the system's temporary one, removed when the test is done (when
/// dropped, even on a failed assertion).
pub struct Scratch(PathBuf);

impl Scratch {
    /// A fresh, empty folder named after the test and this process.
    pub fn new(prefix: &str, test: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("{prefix}-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
