//! The release binary in a real terminal: `robots debug` and `robots play` in tmux at 80×24
//! (`new-session -x 80 -y 24`, `send-keys`, `capture-pane -p`), the board on screen or the
//! footer saying how to see it. tmux is needed: these tests fail, never skip, without it.

use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// A tmux server of the test's own (its socket named after the test and this process) with
/// one session running a command; killed when dropped, even on a failed assertion.
struct Tmux {
    socket: String,
    /// The socket's file, removed with the server.
    path: Option<String>,
}

impl Tmux {
    /// `robots ARGS` in an 80×24 window, then `exit N` written when it ends.
    fn robots(test: &str, args: &str) -> Tmux {
        let socket = format!("robots-{test}-{}", std::process::id());
        let line = format!(
            "'{}' {args}; echo \"exit $?\"; sleep 60",
            env!("CARGO_BIN_EXE_robots")
        );
        let mut tmux = Tmux { socket, path: None };
        let out = tmux.run(&[
            "new-session",
            "-d",
            "-x",
            "80",
            "-y",
            "24",
            "-s",
            "main",
            "-c",
            env!("CARGO_MANIFEST_DIR"),
            "sh",
            "-c",
            &line,
        ]);
        assert!(out.status.success(), "tmux: {out:?}");
        let path = tmux.run(&["display-message", "-p", "#{socket_path}"]);
        tmux.path = Some(String::from_utf8_lossy(&path.stdout).trim().to_string());
        tmux
    }

    fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .args(["-L", &self.socket, "-f", "/dev/null"])
            .args(args)
            .output()
            .expect("tmux runs: install it (apt-get install tmux)")
    }

    fn keys(&self, keys: &[&str]) {
        for key in keys {
            let out = self.run(&["send-keys", "-t", "main", key]);
            assert!(out.status.success(), "send-keys {key}: {out:?}");
            // One key a draw: the screen reads keys one by one, as a person types them.
            std::thread::sleep(Duration::from_millis(40));
        }
    }

    fn screen(&self) -> String {
        let out = self.run(&["capture-pane", "-p", "-t", "main"]);
        assert!(out.status.success(), "capture-pane: {out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// The screen once it shows `needle` (within ten seconds).
    fn wait_for(&self, needle: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(needle) {
                return screen;
            }
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "no `{needle}` after 10 s:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Tmux {
    /// The screen once it differs from `before` (within ten seconds).
    fn wait_for_change(&self, before: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen != before {
                return screen;
            }
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "no change after 10 s:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
        if let Some(path) = self.path.as_deref().filter(|p| p.contains(&self.socket)) {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// Each of the classic board's rows whole: its column numbers to 12, its 12 rows, the
/// direction key; nothing cut at the right edge.
fn assert_classic_board_whole(screen: &str) {
    let lines: Vec<&str> = screen.lines().collect();
    assert_eq!(lines.len(), 24, "{screen}");
    assert!(lines.iter().all(|l| l.chars().count() <= 80), "{screen}");
    let header = lines
        .iter()
        .position(|l| l.contains("0   1   2   3   4   5   6   7   8   9   10  11  12"))
        .unwrap_or_else(|| panic!("no column numbers to 12:\n{screen}"));
    // Column 12's hex (its middle under the header's `12`) ends every row.
    let chars = |l: &str| l.chars().collect::<Vec<char>>();
    let twelve = chars(lines[header])
        .windows(2)
        .position(|w| w == ['1', '2'])
        .unwrap_or(0);
    for row in 0..12 {
        let line = chars(lines[header + 1 + row]);
        let number: String = line[1..5].iter().collect();
        assert_eq!(number.trim(), row.to_string(), "row {row}:\n{screen}");
        let hex = &line[twelve - 1..twelve + 2 + 2 * (row % 2)];
        assert!(
            hex.iter().any(|c| !c.is_whitespace() && *c != '│'),
            "row {row}: column 12 cut off:\n{screen}"
        );
    }
    assert!(screen.contains("directions: 1 → E"), "{screen}");
}

#[test]
fn debug_at_80x24_says_v_and_v_shows_the_whole_board() {
    let tmux = Tmux::robots("debug", "debug");
    let screen = tmux.wait_for("? help  q quit");
    assert!(screen.contains("green.1 hunter"), "{screen}");
    let footer = screen.lines().last().unwrap_or("");
    assert!(footer.ends_with("v board  ? help  q quit"), "{screen}");
    tmux.keys(&["v"]);
    let screen = tmux.wait_for("v programs");
    assert_classic_board_whole(&screen);
    // Beside it, the steps of the robot next, about to read step 1.
    assert!(screen.contains("▶   1  "), "{screen}");
    // Ten steps: the board stays whole, the status stays on its one line (`turn 10: round 2,
    // violet to play, …` is 81 characters: shortened, not wrapped).
    tmux.keys(&["s"; 10]);
    let screen = tmux.wait_for("turn 10");
    assert_classic_board_whole(&screen);
    let lines: Vec<&str> = screen.lines().collect();
    assert!(lines[22].starts_with("turn 10"), "{screen}");
    assert!(
        lines[23].ends_with("v programs  ? help  q quit"),
        "{screen}"
    );
    tmux.keys(&["v"]);
    tmux.wait_for("v board  ? help");
    tmux.keys(&["q"]);
    tmux.wait_for("exit 0");
}

#[test]
fn play_at_80x24_shows_the_board_and_who_plays_first_and_v_and_q_work_at_the_prompt() {
    let tmux = Tmux::robots("play", "play --human green --human violet");
    let screen = tmux.wait_for("green.1 to place");
    assert_classic_board_whole(&screen);
    // Six robots on their first free start points, one at a time, then the match.
    let mut screen = screen;
    for _ in 0..6 {
        tmux.keys(&["Enter"]);
        screen = tmux.wait_for_change(&screen);
    }
    tmux.wait_for("every robot is placed");
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for("plays first (drawn)");
    assert_classic_board_whole(&screen);
    assert!(screen.contains("v programs  q quit"), "{screen}");
    // The first signal prompt (after violet's turn): the board is there while a player
    // chooses; the step typed shows as dots.
    let screen = tmux.wait_for("a signal?");
    assert_classic_board_whole(&screen);
    tmux.keys(&["1", "2"]);
    let screen = tmux.wait_for("step: ••");
    assert_classic_board_whole(&screen);
    assert!(!screen.contains("step: 12"), "{screen}");
    // `v` and `q` work while the prompt is open.
    tmux.keys(&["v"]);
    let screen = tmux.wait_for("v board  q quit");
    assert!(!screen.contains("directions:"), "{screen}");
    assert!(screen.contains("signal? (5 left)"), "{screen}");
    tmux.keys(&["q"]);
    let screen = tmux.wait_for("exit 0");
    assert!(screen.contains("the game is left"), "{screen}");
}
