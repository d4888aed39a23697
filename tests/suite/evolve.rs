//! `robots evolve` (docs/EVOLVE.md): the same seed gives the same champions on any number
//! of threads; files are never overwritten; hostile flags are refused before any work; the
//! shipped evolved program loads without a warning.

use crate::support::robots;
use std::path::PathBuf;

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("robots-evolve-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn small_run(out: &str, jobs: &str) -> std::process::Output {
    robots(&[
        "evolve",
        "--against",
        "hunter",
        "sniper",
        "turret",
        "--robots",
        "1",
        "--population",
        "6",
        "--generations",
        "3",
        "--seeds",
        "1",
        "--seed",
        "7",
        "--jobs",
        jobs,
        "--out",
        out,
    ])
}

fn champions(dir: &std::path::Path) -> Vec<String> {
    (1..=3)
        .map(|rank| std::fs::read_to_string(dir.join(format!("evolved-7-{rank}.robot"))).unwrap())
        .collect()
}

#[test]
fn same_seed_same_champion_on_one_thread_or_two() {
    let (a, b) = (scratch("one"), scratch("two"));
    let run_a = small_run(a.to_str().unwrap(), "1");
    assert!(run_a.status.success(), "{run_a:?}");
    let run_b = small_run(b.to_str().unwrap(), "2");
    assert!(run_b.status.success(), "{run_b:?}");
    assert_eq!(champions(&a), champions(&b));
    let stderr = String::from_utf8_lossy(&run_a.stderr);
    assert_eq!(stderr.matches("generation ").count(), 3, "{stderr}");
    assert!(stderr.contains("generation 3/3: best "), "{stderr}");
    // Each champion is a program that loads and lints clean enough to play.
    for rank in 1..=3 {
        let file = a.join(format!("evolved-7-{rank}.robot"));
        let o = robots(&["check", file.to_str().unwrap()]);
        assert!(o.status.success(), "{o:?}");
    }
    // Never over a file.
    let again = small_run(a.to_str().unwrap(), "2");
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("never overwrites"));
    let _ = std::fs::remove_dir_all(&a);
    let _ = std::fs::remove_dir_all(&b);
}

#[test]
fn hostile_flags_are_refused_before_any_match() {
    let out = scratch("hostile");
    let o = out.to_str().unwrap();
    for bad in [
        vec!["--population", "0"],
        vec!["--population", "3"],
        vec!["--population", "100000"],
        vec!["--generations", "0"],
        vec!["--generations", "99999999999"],
        vec!["--seeds", "0"],
        vec!["--seeds", "101"],
        vec!["--robots", "10"],
        vec!["--scenario", "4"],
        vec!["--rounds", "0"],
        vec!["--seed", "-1"],
        vec!["--jobs", "0"],
        vec!["--against", "no-such-program"],
        vec!["--against", "Cargo.toml"],
        vec!["--board", "no-such-board"],
        vec!["--board", "duel", "--robots", "9"],
        vec![
            "--population",
            "1000",
            "--seeds",
            "100",
            "--against",
            "programs",
        ],
    ] {
        let mut args = vec!["evolve", "--generations", "1", "--out", o];
        args.extend(bad.iter().copied());
        let r = robots(&args);
        assert_eq!(r.status.code(), Some(2), "{bad:?}: {r:?}");
        assert!(!out.exists(), "{bad:?} wrote files");
    }
}

#[test]
fn the_shipped_evolved_program_loads_without_a_warning() {
    let o = robots(&[
        "check",
        "--deny-warnings",
        "programs/evolved/evolved-1-1.robot",
    ]);
    assert!(o.status.success(), "{o:?}");
}
