//! What a newcomer meets first (issue 34): a program named with or without `.robot` (or by a
//! shipped name; else the names there are), a match from `--team` flags, each team's
//! programs in the header, a legend under 80 columns saying only what the board and match
//! have, colour on request and never with `--color never`, plurals, the nearest command to
//! a typo, and the worst loss of a duel written to watch.

use crate::support::{Scratch, robots, robots_command, root};
use std::process::Output;

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A folder with `rookie.robot` (a copy of the lemming) in it.
fn folder_with_rookie(test: &str) -> Scratch {
    let folder = Scratch::new("robots-first", test);
    std::fs::copy(
        root().join("programs/lemming.robot"),
        folder.join("rookie.robot"),
    )
    .unwrap();
    folder
}

#[test]
fn a_program_is_found_with_or_without_its_extension_or_by_a_shipped_name() {
    let folder = folder_with_rookie("names");
    for a in ["rookie", "rookie.robot"] {
        let out = robots_command()
            .current_dir(&*folder)
            .args(["duel", a, "hunter", "--seeds", "1"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{a}: {}", text(&out));
        assert!(
            text(&out).starts_with("rookie v hunter: 2 matches"),
            "{}",
            text(&out)
        );
    }
    let out = robots_command()
        .current_dir(&*folder)
        .args(["duel", "nosuch", "hunter"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let said = text(&out);
    assert!(
        said.contains("nosuch: error: no such file (nor nosuch.robot)"),
        "{said}"
    );
    assert!(
        said.contains("shipped: hunter, sentinel"),
        "the names there are: {said}"
    );
}

#[test]
fn run_and_debug_take_teams_from_flags_and_the_header_names_their_programs() {
    let folder = folder_with_rookie("teams");
    let out = robots_command()
        .current_dir(&*folder)
        .args([
            "run",
            "--team",
            "green=rookie",
            "--team",
            "violet=hunter",
            "--robots",
            "2",
        ])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let said = text(&out);
    let header: Vec<&str> = said.lines().take(3).collect();
    assert_eq!(
        header,
        [
            "teams on classic (scenario 1, seed 1); violet plays first",
            "  green: rookie ×2",
            "  violet: hunter ×2"
        ]
    );
    let out = robots_command()
        .current_dir(&*folder)
        .args([
            "debug",
            "--team",
            "green=rookie",
            "--team",
            "violet=hunter",
            "--script",
            "-",
        ])
        .output()
        .unwrap();
    assert!(text(&out).contains("green to play"), "{}", text(&out));
    let out = robots(&["run", "--team", "green=nosuch", "--team", "violet=hunter"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out).contains("--team: error: green=nosuch: no program `nosuch`"),
        "{}",
        text(&out)
    );
    // The default match's header, and its file's comment, say the same teams.
    let out = robots(&["run", "--color", "never"]);
    let said = text(&out);
    assert!(
        said.contains(
            "  green: hunter, kamikaze, listener\n  violet: hunter, wanderer, sentinel\n"
        ),
        "{said}"
    );
    let file = std::fs::read_to_string(root().join("matches/default.yaml")).unwrap();
    assert!(file.contains("a hunter, a kamikaze and a listener (green) against a hunter, a\n# wanderer and a sentinel (violet)"));
}

#[test]
fn the_legend_fits_80_columns_and_names_only_the_teams_in_the_match() {
    for args in [
        &["run", "--color", "never"][..],
        &["board", "melee", "--color", "never"],
        &["board", "classic"],
    ] {
        let out = robots(args);
        for line in text(&out).lines() {
            assert!(
                line.chars().count() < 80,
                "{args:?}: {} columns: {line}",
                line.chars().count()
            );
        }
    }
    let said = text(&robots(&["run", "--color", "never"]));
    assert!(
        said.contains("robots: g1→ green.1 facing 1; teams: g green  v violet\n"),
        "{said}"
    );
    assert!(
        !said.contains("o orange"),
        "no shape or team of orange on classic: {said}"
    );
    assert!(!said.contains("legend:"), "{said}");
}

#[test]
fn colour_is_given_on_request_and_never_against_it() {
    let coloured = text(&robots(&["board", "classic", "--color", "always"]));
    assert!(
        coloured.contains("\x1b[34m ~ \x1b[0m"),
        "a lake in blue: {coloured:?}"
    );
    assert!(
        coloured.contains("\x1b[7;32m#G#\x1b[0m"),
        "green's computer reversed"
    );
    let plain = text(&robots(&["board", "classic", "--color", "never"]));
    assert!(!plain.contains('\x1b'));
    let auto = robots_command()
        .args(["board", "classic"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(
        !text(&auto).contains('\x1b'),
        "NO_COLOR, and not a terminal"
    );
}

#[test]
fn counts_are_plural_only_when_more_than_one() {
    let said = text(&robots(&[
        "duel", "turret", "turret", "--seeds", "1", "--robots", "1",
    ]));
    assert!(said.contains("2 matches on classic"), "{said}");
    assert!(said.contains("1 robot a side"), "{said}");
    assert!(
        !said.contains("1 losses") && !said.contains("1 wins") && !said.contains("1 draws"),
        "{said}"
    );
}

#[test]
fn a_mistyped_command_is_answered_with_the_nearest() {
    let out = robots(&["rn"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out).contains("tip: a similar subcommand exists: 'run'"),
        "{}",
        text(&out)
    );
}

#[test]
fn a_duel_writes_the_worst_loss_to_watch() {
    let folder = folder_with_rookie("worst");
    let out = robots_command()
        .current_dir(&*folder)
        .args([
            "duel",
            "rookie",
            "hunter",
            "--seeds",
            "5",
            "--replay-worst",
            "w.jsonl",
            "--html",
            "w.html",
        ])
        .output()
        .unwrap();
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("wrote the replay of rookie's worst loss: seed "),
        "{said}"
    );
    let replay = robots_command()
        .current_dir(&*folder)
        .args(["replay", "w.jsonl"])
        .output()
        .unwrap();
    let played = text(&replay);
    assert!(replay.status.success(), "{played}");
    assert!(
        played
            .lines()
            .any(|l| l.contains(" wins ") && !l.contains("rookie")),
        "the hunter wins: {played}"
    );
    let page = std::fs::read_to_string(folder.join("w.html")).unwrap();
    assert!(page.contains("<html"));
    let out = robots_command()
        .current_dir(&*folder)
        .args([
            "duel", "rookie", "hunter", "--seeds", "5", "--html", "s.html", "--seed", "3",
        ])
        .output()
        .unwrap();
    assert!(
        text(&out).contains("the page shows the chosen match: seed 3, rookie green"),
        "{}",
        text(&out)
    );
    let out = robots(&[
        "duel",
        "hunter",
        "turret",
        "--seeds",
        "5",
        "--html",
        "/tmp/x.html",
        "--seed",
        "9",
    ]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "a seed outside the duel's, refused before any match"
    );
}
