//! `robots hill` (docs/TOURNAMENTS.md, "The hill"): the hill's standings are the tournament's
//! of the programs that stay, the last is pushed off with its file and results, only new
//! pairings are played, a program of the same name is replaced, bad names, bad programs and
//! corrupted files are refused with nothing written, and the bytes do not depend on --jobs.
//! Adds started together wait for each other and every result is kept once; a killed writer's
//! temporary file is swept; a failed add leaves the hill as it was.

use crate::support::{robots, robots_command, stderr, stdout};
use std::collections::{BTreeMap, BTreeSet};
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("robots-hill-{}-{test}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn ok(args: &[&str]) -> (String, String) {
    let o = robots(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    (stdout(&o), stderr(&o))
}

/// Fails with exit code 2; its standard error.
fn refused(args: &[&str]) -> String {
    let o = robots(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stdout(&o));
    assert!(o.stdout.is_empty(), "{args:?}: {}", stdout(&o));
    stderr(&o)
}

/// Every file under `dir` with its bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut all = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(listing) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in listing {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let name = path.strip_prefix(dir).unwrap().display().to_string();
                all.insert(name, std::fs::read(&path).unwrap());
            }
        }
    }
    all
}

fn lines(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |t| t.lines().count())
}

const FOUR: [&str; 4] = ["hunter", "kamikaze", "sentinel", "sniper"];

/// A hill of size 3 over seeds 1..2 with the four programs added in order.
fn four_on_three(dir: &Path, jobs: &str) -> Vec<(String, String)> {
    let d = dir.to_str().unwrap();
    ok(&["hill", d, "init", "--size", "3", "--seeds", "2"]);
    FOUR.iter()
        .map(|p| {
            let file = format!("programs/{p}.robot");
            ok(&["hill", d, "add", &file, "--jobs", jobs])
        })
        .collect()
}

#[test]
fn a_hill_of_three_keeps_the_tournaments_best_three_of_four() {
    let dir = scratch("four");
    let d = dir.to_str().unwrap();
    let results = dir.join("results.jsonl");
    let outputs = four_on_three(&dir, "2");
    // Only new pairings are played: 1, 2, then 3 opponents, 2 colours, 2 seeds each.
    for (i, (_, err)) in outputs.iter().enumerate() {
        let played = format!("{} played {} matches", FOUR[i], i * 4);
        assert!(err.contains(&played), "{err}");
    }
    let err = &outputs[3].1;
    let pushed = err
        .split("pushed off the hill: ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .unwrap_or_else(|| panic!("nobody pushed off: {err}"));
    // The one pushed off is the last of the tournament of all four.
    let all: Vec<String> = FOUR.iter().map(|p| format!("programs/{p}.robot")).collect();
    let mut args = vec!["tournament", "--seeds", "2", "--format", "json"];
    args.extend(all.iter().map(String::as_str));
    let whole: serde_json::Value = serde_json::from_str(&ok(&args).0).unwrap();
    assert_eq!(whole["standings"][3]["program"], pushed);
    // Its file and results are gone; the three left have met each other 2 × 2 times.
    assert!(!dir.join(format!("programs/{pushed}.robot")).exists());
    let text = std::fs::read_to_string(&results).unwrap();
    assert!(!text.contains(&format!("\"{pushed}\"")), "{text}");
    assert_eq!(lines(&results), 3 * 4);
    assert_eq!(files(&dir.join("programs")).len(), 3);
    // The standings are those of `robots tournament` of the three that stay, in every format.
    let programs = format!("{d}/programs");
    for format in ["table", "json", "csv"] {
        let tournament = ok(&["tournament", &programs, "--seeds", "2", "--format", format]).0;
        assert_eq!(
            ok(&["hill", d, "--format", format]).0,
            tournament,
            "{format}"
        );
    }
    assert_eq!(
        outputs[3].0,
        ok(&["tournament", &programs, "--seeds", "2"]).0
    );
    // Nothing is left behind but the hill's own files.
    let names: Vec<String> = files(&dir).into_keys().collect();
    assert!(
        names
            .iter()
            .all(|n| n == "hill.yaml" || n == "results.jsonl" || n.starts_with("programs/")),
        "{names:?}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_program_added_again_replaces_the_one_of_its_name() {
    let dir = scratch("again");
    let d = dir.to_str().unwrap();
    four_on_three(&dir, "1");
    let on_hill: Vec<String> = files(&dir.join("programs")).into_keys().collect();
    let name = on_hill[0].trim_end_matches(".robot").to_string();
    // Another program's text under the name of one on the hill.
    let other = FOUR
        .iter()
        .find(|p| !on_hill.contains(&format!("{p}.robot")))
        .unwrap();
    let new = scratch("again-new").join(format!("{name}.robot"));
    let text = std::fs::read(format!("programs/{other}.robot")).unwrap();
    std::fs::write(&new, &text).unwrap();
    let (_, err) = ok(&["hill", d, "add", new.to_str().unwrap()]);
    assert!(
        err.contains(&format!(
            "{name} was on the hill: replaced, its 8 matches dropped"
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!("{name} played 8 matches against 2 programs")),
        "{err}"
    );
    assert!(!err.contains("pushed off"), "{err}");
    assert_eq!(
        std::fs::read(dir.join(format!("programs/{name}.robot"))).unwrap(),
        text
    );
    assert_eq!(lines(&dir.join("results.jsonl")), 12);
    // The same text again: the same hill, byte for byte.
    let before = files(&dir);
    ok(&["hill", d, "add", new.to_str().unwrap()]);
    assert_eq!(files(&dir), before);
    std::fs::remove_dir_all(&dir).ok();
    std::fs::remove_dir_all(new.parent().unwrap()).ok();
}

#[test]
fn one_thread_or_two_give_the_same_hill() {
    let (one, two) = (scratch("jobs1"), scratch("jobs2"));
    let a = four_on_three(&one, "1");
    let b = four_on_three(&two, "2");
    let outs = |v: Vec<(String, String)>| v.into_iter().map(|(o, _)| o).collect::<Vec<_>>();
    assert_eq!(outs(a), outs(b));
    assert_eq!(files(&one), files(&two));
    std::fs::remove_dir_all(&one).ok();
    std::fs::remove_dir_all(&two).ok();
}

#[test]
fn bad_names_and_bad_programs_are_refused_with_nothing_written() {
    let dir = scratch("bad");
    let d = dir.to_str().unwrap();
    let sources = scratch("bad-sources");
    let hunter = std::fs::read("programs/hunter.robot").unwrap();
    for name in [
        "bad name.robot",
        "bad.name.robot",
        &format!("{}.robot", "x".repeat(65)),
    ] {
        let path = sources.join(name);
        std::fs::write(&path, &hunter).unwrap();
        // No hill yet: nothing is created.
        let err = refused(&["hill", d, "add", path.to_str().unwrap()]);
        assert!(err.contains("cannot name a program on a hill"), "{err}");
        assert!(files(&dir).is_empty());
    }
    let broken = sources.join("broken.robot");
    std::fs::write(&broken, "name: broken\n1: FLY\n").unwrap();
    let err = refused(&["hill", d, "add", broken.to_str().unwrap()]);
    assert!(err.contains("broken.robot"), "{err}");
    assert!(files(&dir).is_empty());
    // The same on a hill with programs on it.
    ok(&["hill", d, "init", "--size", "2", "--seeds", "1"]);
    ok(&["hill", d, "add", "programs/hunter.robot"]);
    ok(&["hill", d, "add", "programs/sentinel.robot"]);
    let before = files(&dir);
    refused(&["hill", d, "add", broken.to_str().unwrap()]);
    refused(&[
        "hill",
        d,
        "add",
        sources.join("bad name.robot").to_str().unwrap(),
    ]);
    assert_eq!(files(&dir), before);
    // init on a hill is refused too.
    let err = refused(&["hill", d, "init"]);
    assert!(err.contains("there is a hill here already"), "{err}");
    assert_eq!(files(&dir), before);
    std::fs::remove_dir_all(&dir).ok();
    std::fs::remove_dir_all(&sources).ok();
}

#[test]
fn add_without_a_hill_creates_one_with_the_defaults() {
    let dir = scratch("defaults").join("new");
    let d = dir.to_str().unwrap();
    let (out, err) = ok(&["hill", d, "add", "hunter", "--format", "csv"]);
    assert!(
        err.contains("created one with the defaults (size 10, seeds 1..20"),
        "{err}"
    );
    assert!(out.starts_with("rank,program,"), "{out}");
    let settings = std::fs::read_to_string(dir.join("hill.yaml")).unwrap();
    assert!(
        settings.contains("size: 10\nseeds: [1, 20]\nboard: classic"),
        "{settings}"
    );
    assert!(dir.join("programs/hunter.robot").is_file());
    assert_eq!(lines(&dir.join("results.jsonl")), 0);
    let err = refused(&["hill", dir.parent().unwrap().to_str().unwrap()]);
    assert!(err.contains("no hill here"), "{err}");
    std::fs::remove_dir_all(dir.parent().unwrap()).ok();
}

#[test]
fn a_corrupted_hill_is_reported_by_file_and_line() {
    let dir = scratch("corrupt");
    let d = dir.to_str().unwrap();
    ok(&["hill", d, "init", "--size", "3", "--seeds", "2"]);
    for p in ["hunter", "sentinel", "sniper"] {
        ok(&["hill", d, "add", p]);
    }
    let results = dir.join("results.jsonl");
    let good = std::fs::read_to_string(&results).unwrap();
    let mut edited: Vec<String> = good.lines().map(String::from).collect();
    let third = edited[2].clone();
    let mut reseeded: serde_json::Value = serde_json::from_str(&third).unwrap();
    reseeded["seed"] = 12345.into();
    let line = |i: usize, with: &str| {
        let mut e = edited.clone();
        e[i] = with.to_string();
        e.join("\n") + "\n"
    };
    let cases = [
        (
            line(2, "{\"green\":"),
            "results.jsonl:3: error: not a match line",
        ),
        (
            line(2, &reseeded.to_string()),
            "results.jsonl:3: error: the seed is not the one",
        ),
        (
            line(
                4,
                &third
                    .replace("sentinel", "stranger")
                    .replace("hunter", "stranger"),
            ),
            "results.jsonl:5: error: `stranger` is not a program",
        ),
        (
            line(2, &third.replace("\"seed_index\":1", "\"seed_index\":3")),
            "results.jsonl:3: error: not a match of this tournament",
        ),
        (
            line(3, &third),
            "results.jsonl:4: error: the same match as line 3",
        ),
        (
            line(1, &"x".repeat(10_000)),
            "results.jsonl:2: error: the line is longer",
        ),
    ];
    for (text, expected) in cases {
        std::fs::write(&results, &text).unwrap();
        let err = refused(&["hill", d]);
        assert!(err.contains(expected), "{expected}: {err}");
        let before = files(&dir);
        let err = refused(&["hill", d, "add", "kamikaze"]);
        assert!(err.contains(expected), "{expected}: {err}");
        assert_eq!(files(&dir), before);
    }
    // A missing line is a match to play again; the rest is trusted once checked.
    edited.remove(5);
    std::fs::write(&results, edited.join("\n") + "\n").unwrap();
    let (_, err) = ok(&["hill", d]);
    assert!(
        err.contains("1 match between the programs on the hill missing from results.jsonl"),
        "{err}"
    );
    ok(&["hill", d, "add", "sentinel"]);
    assert_eq!(lines(&results), 12);
    std::fs::write(&results, &good).unwrap();
    ok(&["hill", d]);
    std::fs::remove_dir_all(&dir).ok();
}

/// A hand-edited `hill.yaml` is refused at the key it is wrong at; files that are not a
/// hill's own (a stray file, a link) are refused by name.
#[test]
fn bad_settings_and_stray_files_are_reported() {
    let dir = scratch("stray");
    let d = dir.to_str().unwrap();
    ok(&["hill", d, "init", "--size", "3", "--seeds", "2"]);
    ok(&["hill", d, "add", "hunter"]);
    let settings = dir.join("hill.yaml");
    let yaml = std::fs::read_to_string(&settings).unwrap();
    std::fs::write(&settings, yaml.replace("size: 3", "size: 0")).unwrap();
    let err = refused(&["hill", d]);
    assert!(
        err.contains("hill.yaml:3:1: error: size 0: 1 to 999"),
        "{err}"
    );
    std::fs::write(
        &settings,
        yaml.replace("board: classic", "board: ../x.yaml"),
    )
    .unwrap();
    assert!(refused(&["hill", d]).contains("board `../x.yaml`"));
    std::fs::write(&settings, &yaml).unwrap();
    std::fs::write(dir.join("programs/notes.txt"), "hello").unwrap();
    assert!(refused(&["hill", d]).contains("holds only NAME.robot files"));
    std::fs::remove_file(dir.join("programs/notes.txt")).unwrap();
    std::fs::write(dir.join("programs/broken.robot"), "1: FLY\n").unwrap();
    assert!(refused(&["hill", d]).contains("broken.robot"));
    std::fs::remove_file(dir.join("programs/broken.robot")).unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("/etc/hostname", dir.join("programs/link.robot")).unwrap();
        assert!(refused(&["hill", d]).contains("not a plain file"));
        std::fs::remove_file(dir.join("programs/link.robot")).unwrap();
    }
    ok(&["hill", d]);
    std::fs::remove_dir_all(&dir).ok();
}

/// `results.jsonl` holds `count` lines, each a different match.
fn assert_each_match_once(results: &Path, count: usize) {
    let text = std::fs::read_to_string(results).unwrap();
    let games: BTreeSet<(String, String, u64)> = text
        .lines()
        .map(|line| {
            let r: serde_json::Value = serde_json::from_str(line).unwrap();
            let name = |key: &str| r[key].as_str().unwrap().to_string();
            (
                name("green"),
                name("violet"),
                r["seed_index"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(text.lines().count(), count);
    assert_eq!(games.len(), count);
}

/// Issue 30: ten adds started together all wrote one temporary file and nobody locked the
/// hill: some failed ("cannot write it") and left their program behind, others exited 0 with
/// their results overwritten by a later add.
#[test]
fn ten_adds_at_once_keep_every_result_once() {
    const TEN: [&str; 10] = [
        "berserker",
        "bomber",
        "charger",
        "flanker",
        "gunner",
        "hunter",
        "kamikaze",
        "lemming",
        "sentinel",
        "sniper",
    ];
    let start = Instant::now();
    let dir = scratch("ten");
    let d = dir.to_str().unwrap();
    ok(&[
        "hill", d, "init", "--size", "20", "--seeds", "1", "--rounds", "50",
    ]);
    let children: Vec<_> = TEN
        .iter()
        .map(|p| {
            robots_command()
                .args([
                    "hill",
                    d,
                    "add",
                    &format!("programs/{p}.robot"),
                    "--jobs",
                    "1",
                ])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut played = 0;
    for (p, child) in TEN.iter().zip(children) {
        let o = child.wait_with_output().unwrap();
        let err = stderr(&o);
        assert!(o.status.success(), "{p}: {err}");
        // Each add plays against the programs the adds before it left: every match once.
        let count = err
            .split(&format!("{p} played "))
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .unwrap_or_else(|| panic!("{p}: {err}"));
        played += count.parse::<usize>().unwrap();
    }
    assert_eq!(played, 10 * 9);
    let standings: serde_json::Value =
        serde_json::from_str(&ok(&["hill", d, "--format", "json"]).0).unwrap();
    let rows = standings["standings"].as_array().unwrap();
    let ranked: BTreeSet<&str> = rows
        .iter()
        .map(|r| r["program"].as_str().unwrap())
        .collect();
    assert_eq!(ranked, TEN.into_iter().collect());
    for row in rows {
        // 9 opponents, both colours, 1 seed.
        assert_eq!(row["played"], 18, "{row}");
    }
    assert_each_match_once(&dir.join("results.jsonl"), 10 * 9);
    assert_eq!(files(&dir.join("programs")).len(), 10);
    assert!(
        files(&dir).keys().all(|n| !n.starts_with('.')),
        "a temporary file left: {:?}",
        files(&dir).keys()
    );
    eprintln!("ten adds at once: {:.2?}", start.elapsed());
    std::fs::remove_dir_all(&dir).ok();
}

/// A writer killed before its rename leaves its temporary file in the hill's folder: the next
/// add must neither trip on it nor leave it there (the old fixed name `.results.jsonl.tmp`,
/// and names of other processes).
#[test]
fn a_killed_writers_temporary_file_neither_stops_an_add_nor_stays() {
    let dir = scratch("stale");
    let d = dir.to_str().unwrap();
    ok(&["hill", d, "init", "--size", "3", "--seeds", "1"]);
    let stale = [
        ".results.jsonl.tmp",
        ".results.jsonl.99999.tmp",
        ".hunter.robot.4242.tmp",
    ];
    for name in stale {
        std::fs::write(dir.join(name), "half written").unwrap();
    }
    // Only plain files named `.*.tmp` are a writer's.
    std::fs::create_dir(dir.join(".folder.tmp")).unwrap();
    std::fs::write(dir.join(".notes"), "mine").unwrap();
    ok(&["hill", d, "add", "hunter"]);
    ok(&["hill", d, "add", "sentinel"]);
    for name in stale {
        assert!(!dir.join(name).exists(), "{name} is still there");
    }
    assert!(dir.join(".folder.tmp").is_dir());
    assert!(dir.join(".notes").is_file());
    assert_eq!(lines(&dir.join("results.jsonl")), 2);
    std::fs::remove_dir_all(&dir).ok();
}

/// `robots hill ARGS` with files limited to `blocks` blocks of 512 bytes (a write past the
/// limit fails with "File too large").
#[cfg(unix)]
fn with_file_limit(blocks: u32, args: &[&str]) -> std::process::Output {
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "trap '' XFSZ; ulimit -f {blocks} && exec \"$0\" \"$@\""
        ))
        .arg(env!("CARGO_BIN_EXE_robots"))
        .args(args)
        .current_dir(crate::support::root())
        .output()
        .unwrap()
}

/// An add whose results.jsonl cannot be written (here: a file size limit, so the program,
/// written before it, fits and the results do not) left its program on the hill, in place of
/// the one it replaced or beside the others, with no results: it must leave the hill as it was.
#[cfg(unix)]
#[test]
fn a_failed_add_leaves_the_hill_as_it_was() {
    let dir = scratch("failed");
    let d = dir.to_str().unwrap();
    ok(&[
        "hill", d, "init", "--size", "4", "--seeds", "8", "--rounds", "50",
    ]);
    for p in ["hunter", "sentinel", "sniper"] {
        ok(&["hill", d, "add", p]);
    }
    // 3 pairings × 2 colours × 8 seeds: over 3 KiB, while a program is under 1.5 KiB.
    assert!(std::fs::metadata(dir.join("results.jsonl")).unwrap().len() > 3 * 1024);
    let sources = scratch("failed-sources");
    let lemming = std::fs::read("programs/lemming.robot").unwrap();
    let renamed = sources.join("hunter.robot");
    std::fs::write(&renamed, &lemming).unwrap();
    let before = files(&dir);
    for (newcomer, what) in [
        ("kamikaze", "a new program"),
        (renamed.to_str().unwrap(), "a program replaced"),
    ] {
        let o = with_file_limit(3, &["hill", d, "add", newcomer]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{what}: {err}");
        assert!(
            err.contains("results.jsonl: error: cannot write it"),
            "{what}: {err}"
        );
        let after = files(&dir);
        let changed: Vec<&String> = before
            .keys()
            .chain(after.keys())
            .filter(|n| before.get(*n) != after.get(*n))
            .collect();
        assert!(changed.is_empty(), "{what}: {changed:?} changed: {err}");
    }
    // Without the limit, the same add goes through.
    ok(&["hill", d, "add", renamed.to_str().unwrap()]);
    assert_eq!(
        std::fs::read(dir.join("programs/hunter.robot")).unwrap(),
        lemming
    );
    std::fs::remove_dir_all(&dir).ok();
    std::fs::remove_dir_all(&sources).ok();
}

/// The next line of a child's standard error, read on another thread so that the test can
/// wait for it with a bound.
fn next_line(lines: &std::sync::mpsc::Receiver<String>) -> String {
    lines
        .recv_timeout(Duration::from_secs(60))
        .expect("a line on standard error within a minute")
}

/// `robots hill ARGS` started, and its standard error's lines as they come.
fn started(args: &[&str]) -> (std::process::Child, std::sync::mpsc::Receiver<String>) {
    let mut child = robots_command()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let err = child.stderr.take().unwrap();
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(err).lines() {
            if send.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    (child, receive)
}

/// While one command writes the hill, another add, or a reader of the standings, must wait
/// for it (saying so) instead of reading a hill half written or writing over it; readers do
/// not wait for each other.
#[test]
fn an_add_waits_while_another_holds_the_hill() {
    let dir = scratch("wait");
    let d = dir.to_str().unwrap();
    ok(&["hill", d, "init", "--size", "3", "--seeds", "1"]);
    ok(&["hill", d, "add", "sentinel"]);
    // The test reads the hill: another reader goes straight on.
    let held = std::fs::File::open(&dir).unwrap();
    held.lock_shared().unwrap();
    let (_, err) = ok(&["hill", d]);
    assert!(!err.contains("waiting"), "{err}");
    held.unlock().unwrap();
    // The test writes the hill.
    held.lock().unwrap();
    let (mut add, add_err) = started(&["hill", d, "add", "hunter"]);
    assert_eq!(
        next_line(&add_err),
        format!("waiting for another add on the hill {d}…")
    );
    let (mut reader, reader_err) = started(&["hill", d]);
    assert_eq!(
        next_line(&reader_err),
        format!("waiting for an add on the hill {d} to end…")
    );
    std::thread::sleep(Duration::from_millis(300));
    assert!(add.try_wait().unwrap().is_none(), "the add did not wait");
    assert!(
        reader.try_wait().unwrap().is_none(),
        "the reader did not wait"
    );
    assert!(!dir.join("programs/hunter.robot").exists());
    drop(held);
    assert!(add.wait().unwrap().success());
    assert!(reader.wait().unwrap().success());
    assert!(next_line(&add_err).contains("hunter played 2 matches against 1 program"));
    assert!(dir.join("programs/hunter.robot").is_file());
    std::fs::remove_dir_all(&dir).ok();
}
