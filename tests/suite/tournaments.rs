//! `robots duel` and `robots tournament` (docs/TOURNAMENTS.md): results independent of the
//! number of threads, shards merged into the same bytes, duels seen from either side, and
//! parts that do not belong refused.

use crate::support::{robots, stderr, stdout};
use std::path::PathBuf;

fn scratch(test: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("robots-tournaments-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn ok(args: &[&str]) -> String {
    let o = robots(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

#[test]
fn the_shipped_tournament_is_the_same_on_one_thread_two_or_three_shards() {
    let dir = scratch("shards");
    for format in ["table", "json", "csv"] {
        let base = [
            "tournament",
            "programs/",
            "--seeds",
            "2",
            "--format",
            format,
        ];
        let one = ok(&[&base[..], &["--jobs", "1"]].concat());
        let two = ok(&[&base[..], &["--jobs", "2"]].concat());
        assert_eq!(one, two, "{format}: --jobs 1 and --jobs 2");
        let mut parts = Vec::new();
        for i in 1..=3 {
            let part = dir.join(format!("part{i}.jsonl"));
            let shard = format!("{i}/3");
            let out = ok(&["tournament", "programs/", "--seeds", "2", "--shard", &shard]);
            std::fs::write(&part, out).unwrap();
            parts.push(part.display().to_string());
        }
        let mut merge = vec!["tournament", "merge", "--format", format];
        merge.extend(parts.iter().map(String::as_str));
        assert_eq!(ok(&merge), one, "{format}: shards merged");
        // A part may be gzip-compressed.
        let gz = dir.join("part1.jsonl.gz");
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut encoder, &std::fs::read(&parts[0]).unwrap()).unwrap();
        std::fs::write(&gz, encoder.finish().unwrap()).unwrap();
        let gz = gz.display().to_string();
        let merge = [
            "tournament",
            "merge",
            "--format",
            format,
            &gz,
            &parts[1],
            &parts[2],
        ];
        assert_eq!(ok(&merge), one, "{format}: a compressed part");
    }
    // Every pairing both ways: 16 programs, 120 pairings, 2 colours, 2 seeds.
    let table = ok(&["tournament", "programs/", "--seeds", "2"]);
    assert!(table.contains("both colours: 480 matches"), "{table}");
    assert!(table.contains("Head to head"), "{table}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_duel_from_either_side_is_the_same_matches() {
    let parse = |text: String| -> serde_json::Value { serde_json::from_str(text.trim()).unwrap() };
    let ab = parse(ok(&[
        "duel", "hunter", "kamikaze", "--seeds", "10", "--format", "json",
    ]));
    let ba = parse(ok(&[
        "duel", "hunter", "kamikaze", "--seeds", "10", "--format", "json",
    ]
    .map(|s| match s {
        "hunter" => "kamikaze",
        "kamikaze" => "hunter",
        s => s,
    })));
    assert_eq!(ab["matches"], 20);
    assert_eq!(ab["wins"], ba["losses"]);
    assert_eq!(ab["draws"], ba["draws"]);
    let n = |v: &serde_json::Value, k: &str| v[k].as_u64().unwrap();
    assert_eq!(n(&ab, "wins") + n(&ab, "draws") + n(&ab, "losses"), 20);
    let rate = ab["win_rate"].as_f64().unwrap();
    let (lo, hi) = (
        ab["interval"][0].as_f64().unwrap(),
        ab["interval"][1].as_f64().unwrap(),
    );
    assert!(lo <= rate && rate <= hi, "{ab}");
    let text = ok(&["duel", "hunter", "programs/kamikaze.robot", "--seeds", "3"]);
    assert!(text.contains("hunter v kamikaze: 6 matches"), "{text}");
}

#[test]
fn parts_that_do_not_make_the_tournament_are_refused() {
    let dir = scratch("refused");
    let part = |i: u32, seeds: &str| {
        let path = dir.join(format!("p{i}-{seeds}.jsonl"));
        let shard = format!("{i}/2");
        let out = ok(&[
            "tournament",
            "hunter",
            "sentinel",
            "kamikaze",
            "--seeds",
            seeds,
            "--shard",
            &shard,
        ]);
        std::fs::write(&path, out).unwrap();
        path.display().to_string()
    };
    let (one, two, other) = (part(1, "2"), part(2, "2"), part(2, "3"));
    let refused = |parts: &[&str], expected: &str| {
        let o = robots(&[&["tournament", "merge"][..], parts].concat());
        assert_eq!(o.status.code(), Some(2), "{parts:?}");
        assert!(stderr(&o).contains(expected), "{parts:?}: {}", stderr(&o));
    };
    refused(&[&one], "shards missing: 2/2");
    refused(&[&one, &one], "shard 1/2 again");
    refused(&[&one, &other], "a part of another tournament");
    let tampered = dir.join("tampered.jsonl");
    let text = std::fs::read_to_string(&two).unwrap();
    let line = text.lines().nth(1).unwrap();
    let seed = line
        .split("\"seed\":")
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap();
    std::fs::write(&tampered, text.replacen(seed, "7", 1)).unwrap();
    refused(
        &[&one, &tampered.display().to_string()],
        "the seed is not the one",
    );
    let o = robots(&["tournament", "merge", &one, &two]);
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_tournament_needs_two_programs_with_distinct_names() {
    let o = robots(&["tournament", "hunter"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("at least two programs"),
        "{}",
        stderr(&o)
    );
    let o = robots(&["tournament", "hunter", "programs/hunter.robot"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("two programs are named `hunter`"),
        "{}",
        stderr(&o)
    );
    let o = robots(&["tournament", "hunter", "sentinel", "--shard", "4/3"]);
    assert_eq!(o.status.code(), Some(2));
    let o = robots(&["duel", "hunter", "sentinel", "--seeds", "5..2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("holds no seed"), "{}", stderr(&o));
}

/// The reference field is informative: at least 12 programs, and fewer than 30 % of their
/// round robin's matches drawn (scenario 1, classic, 3 a side, 20 seeds); the README shows
/// its standings as they are.
#[test]
fn the_shipped_field_decides_most_matches_and_the_readme_shows_its_table() {
    let json = ok(&[
        "tournament",
        "programs/",
        "--seeds",
        "20",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    let rows = v["standings"].as_array().unwrap();
    assert!(rows.len() >= 12, "{} programs", rows.len());
    let draws: u64 = rows
        .iter()
        .map(|r| r["draws"].as_u64().unwrap())
        .sum::<u64>()
        / 2;
    let matches = v["matches"].as_u64().unwrap();
    assert!(
        draws * 100 < matches * 30,
        "{draws} draws in {matches} matches"
    );
    let table = ok(&["tournament", "programs/", "--seeds", "20"]);
    let readme = crate::support::read("README.md");
    let shown: Vec<&str> = table.lines().take(19).collect();
    assert!(
        readme.contains(&shown.join("\n")),
        "README.md does not show:\n{}",
        shown.join("\n")
    );
}

#[test]
fn a_team_file_plays_its_programs_in_turn() {
    let dir = scratch("team");
    let team = dir.join("trio.yaml");
    std::fs::write(
        &team,
        "name: trio\nrobots: [hunter, sentinel, mine.robot]\n",
    )
    .unwrap();
    std::fs::write(dir.join("mine.robot"), "1: R+1\n").unwrap();
    let team = team.display().to_string();
    let out = ok(&["tournament", &team, "hunter", "seeker", "--seeds", "2"]);
    assert!(out.contains("  trio "), "{out}");
    assert!(out.contains("both colours: 12 matches"), "{out}");
    // A team's files stay in its folder.
    let bad = dir.join("bad.yaml");
    std::fs::write(&bad, "robots: [../x.robot]\n").unwrap();
    let o = robots(&["duel", &bad.display().to_string(), "hunter"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("climbs out"), "{}", stderr(&o));
    std::fs::write(&bad, "robots: []\n").unwrap();
    let o = robots(&["duel", &bad.display().to_string(), "hunter"]);
    assert!(stderr(&o).contains("1 to 9 programs"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}
