//! `robots duel` and `robots tournament` (docs/TOURNAMENTS.md): results independent of the
//! number of threads, shards merged into the same bytes, duels seen from either side, parts
//! that do not belong refused, missing shards named, and the Slurm script of
//! `--slurm-script` run as its array's tasks would run it (docs/SCALE.md).

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
    refused(
        &[&one],
        "missing shard 2 of 2: every shard's output is needed",
    );
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

/// Merge names the shards that are missing or cut short and refuses to rank without them;
/// `--partial` ranks what there is and says on stderr what is not.
#[test]
fn merge_names_the_missing_shards_and_ranks_a_part_only_when_asked() {
    let dir = scratch("missing");
    let part = |i: u32| {
        let path = dir.join(format!("p{i}.jsonl"));
        let shard = format!("{i}/4");
        let args = [
            "tournament",
            "hunter",
            "sentinel",
            "kamikaze",
            "--seeds",
            "2",
            "--shard",
            &shard,
        ];
        std::fs::write(&path, ok(&args)).unwrap();
        path.display().to_string()
    };
    let (one, two, three, four) = (part(1), part(2), part(3), part(4));
    let o = robots(&["tournament", "merge", &one, &three]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("missing shards 2, 4 of 4: every shard's output is needed"),
        "{}",
        stderr(&o)
    );
    let o = robots(&["tournament", "merge", "--partial", &one, &three]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("both colours: 6 matches"),
        "{}",
        stdout(&o)
    );
    assert_eq!(
        stderr(&o),
        "partial standings: missing shards 2, 4 of 4; 6 of the tournament's 12 matches counted\n"
    );
    // A shard stopped early (its last line lost) is named too.
    let cut = dir.join("cut.jsonl");
    let text = std::fs::read_to_string(&two).unwrap();
    std::fs::write(&cut, &text[..text.trim_end().rfind('\n').unwrap() + 1]).unwrap();
    let cut = cut.display().to_string();
    let o = robots(&["tournament", "merge", &one, &cut, &three, &four]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("shard 2 of 4 cut short (2 of its 3 matches)"),
        "{}",
        stderr(&o)
    );
    let whole = ok(&[
        "tournament",
        "hunter",
        "sentinel",
        "kamikaze",
        "--seeds",
        "2",
    ]);
    assert_eq!(
        ok(&["tournament", "merge", &one, &two, &three, &four]),
        whole
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// The printed Slurm script, run as the array's tasks and the merge job would run it (no
/// Slurm needed: Slurm only sets `SLURM_ARRAY_TASK_ID`), gives the unsharded standings; a
/// program and a results folder with spaces, quotes and `$(…)` in their names stay words;
/// submitting calls `sbatch` for the array and for a merge after it (a stand-in `sbatch`).
#[test]
fn the_slurm_script_plays_each_shard_as_a_task_and_merges() {
    let dir = scratch("slurm dir's");
    let odd = dir.join("it's a $(touch pwned).robot");
    std::fs::copy(crate::support::root().join("programs/hunter.robot"), &odd).unwrap();
    let odd = odd.display().to_string();
    let results = dir.join("my results").display().to_string();
    let field = [
        "sentinel", "kamikaze", &odd, "--seeds", "2", "--format", "csv",
    ];
    let script_args = [
        &["tournament"][..],
        &field,
        &["--slurm-script", "3", "--results", &results],
    ]
    .concat();
    let script = ok(&script_args);
    assert!(script.starts_with("#!/bin/bash\n"), "{script}");
    assert!(script.contains("\n#SBATCH --array=1-3\n"), "{script}");
    let file = dir.join("tournament.sh");
    std::fs::write(&file, &script).unwrap();
    let bash = |env: &[(&str, &str)], args: &[&str]| {
        let o = std::process::Command::new("bash")
            .arg(&file)
            .args(args)
            .envs(env.iter().copied())
            .output()
            .unwrap();
        assert!(o.status.success(), "{env:?} {args:?}: {}", stderr(&o));
        stdout(&o)
    };
    for task in ["1", "2", "3"] {
        bash(&[("SLURM_ARRAY_TASK_ID", task)], &[]);
    }
    bash(&[], &["merge"]);
    let standings = std::fs::read_to_string(format!("{results}/standings.csv")).unwrap();
    assert_eq!(standings, ok(&[&["tournament"][..], &field].concat()));
    assert!(!crate::support::root().join("pwned").exists());
    assert!(!dir.join("pwned").exists());
    // Submitting: the array, then the merge after it, through a stand-in sbatch.
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let sbatch = bin.join("sbatch");
    std::fs::write(
        &sbatch,
        "#!/bin/bash\nprintf '%s\\n' \"$@\" >> \"$(dirname \"$0\")/calls\"\n\
         [ -t 0 ] || cat >> \"$(dirname \"$0\")/calls\"\necho 42\n",
    )
    .unwrap();
    std::process::Command::new("chmod")
        .args(["+x", &sbatch.display().to_string()])
        .status()
        .unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let said = bash(&[("PATH", &path)], &["2,3"]);
    assert!(
        said.starts_with("array job 42 (tasks 2,3), merge job 42"),
        "{said}"
    );
    let calls = std::fs::read_to_string(bin.join("calls")).unwrap();
    assert!(calls.contains("\n--array=2,3\n"), "{calls}");
    assert!(calls.contains("\n--dependency=afterok:42\n"), "{calls}");
    assert!(calls.contains("tournament merge --format csv"), "{calls}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_slurm_script_has_one_to_ten_thousand_tasks_and_no_shard() {
    for (args, expected) in [
        (&["--slurm-script", "0"][..], "0 is not in 1..=10000"),
        (
            &["--slurm-script", "10001"][..],
            "10001 is not in 1..=10000",
        ),
        (
            &["--slurm-script", "2", "--shard", "1/2"][..],
            "cannot be used with",
        ),
        (&["--results", "r"][..], "--slurm-script <N>"),
        (
            &["--slurm-script", "2", "--results", "a\nb"][..],
            "control character",
        ),
        (
            &["--slurm-script", "2", "--results", ""][..],
            "the results folder is empty",
        ),
        (
            &["--slurm-script", "2", "--robots-bin", ""][..],
            "the robots binary is empty",
        ),
    ] {
        let o = robots(&[&["tournament", "hunter", "sentinel"][..], args].concat());
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(expected), "{args:?}: {}", stderr(&o));
    }
}

/// The Kubernetes manifests of `scripts/k8s/` (docs/SCALE.md) read as YAML; the Indexed
/// Job's shard count is one number in its three places, and its shell lines, run for each
/// completion index (paths moved to a scratch folder, 2 seeds), then the merge Job's, give
/// the unsharded standings.
#[test]
fn the_kubernetes_jobs_shard_by_completion_index_and_merge() {
    let root = crate::support::root();
    let read = |name: &str| -> serde_json::Value {
        let path = format!("scripts/k8s/{name}");
        robots_games::text::yaml::from_str(&path, &crate::support::read(&path)).unwrap()
    };
    let pvc = read("results.yaml");
    assert_eq!(pvc["kind"], "PersistentVolumeClaim");
    let job = read("tournament.yaml");
    let spec = &job["spec"];
    assert_eq!(spec["completionMode"], "Indexed");
    let container = &spec["template"]["spec"]["containers"][0];
    let shards = container["env"][0]["value"].as_str().unwrap();
    assert_eq!(container["env"][0]["name"], "SHARDS");
    assert_eq!(spec["completions"].to_string(), shards);
    assert_eq!(spec["parallelism"].to_string(), shards);
    let dir = scratch("k8s");
    let bin = env!("CARGO_BIN_EXE_robots");
    let local = |text: &str| {
        text.replace("/results", &dir.display().to_string())
            .replace("/programs", &root.join("programs").display().to_string())
            .replace("robots tournament", &format!("'{bin}' tournament"))
            .replace("--seeds 20", "--seeds 2")
    };
    let shell = local(container["args"][0].as_str().unwrap());
    for index in 0..shards.parse::<u32>().unwrap() {
        let o = std::process::Command::new("sh")
            .args(["-c", &shell])
            .env("JOB_COMPLETION_INDEX", index.to_string())
            .env("SHARDS", shards)
            .output()
            .unwrap();
        assert!(o.status.success(), "index {index}: {}", stderr(&o));
    }
    let merge = read("merge.yaml");
    let container = &merge["spec"]["template"]["spec"]["containers"][0];
    let shell = local(container["args"][0].as_str().unwrap());
    let o = std::process::Command::new("sh")
        .args(["-c", &shell])
        .output()
        .unwrap();
    assert!(o.status.success(), "merge: {}", stderr(&o));
    assert_eq!(stdout(&o), ok(&["tournament", "programs/", "--seeds", "2"]));
    std::fs::remove_dir_all(&dir).ok();
}
