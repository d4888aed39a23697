//! `robots tournament … --slurm-script N` (docs/SCALE.md, "Slurm"): a bash script that is
//! both the submitter and the job array. Run with `bash`, it submits itself as an array of N
//! tasks (task I plays shard I of N into `RESULTS/part-I.jsonl`) and a merge job that runs
//! once every task has succeeded (`afterok`) and writes the standings. Every value from the
//! command line reaches the script single-quoted; line breaks and other control characters
//! are refused, so no value can end a quote, a line or the merge job's here-document.

use crate::cli::args::flags::{TableFormat, TournamentArgs};
use crate::cli::io::output::Failure;
use clap::ValueEnum;
use robots_games::text::escape;
use std::fmt::Write as _;

/// `text` as one shell word: as it is when it holds only safe characters, else in single
/// quotes (a quote inside written `'\''`).
pub fn quote(text: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "_-./:=@%+,".contains(c);
    if !text.is_empty() && text.chars().all(safe) && !text.starts_with('-') {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// A value for the script: refused when empty or when it holds a control character (a line
/// break would end the line it stands on).
fn word(what: &str, text: &str) -> Result<String, Failure> {
    if text.is_empty() {
        return Err(Failure::Bad(format!("{what} is empty")));
    }
    if text.chars().any(char::is_control) {
        return Err(Failure::Bad(format!(
            "{what} `{}` holds a control character: it cannot go in a batch script",
            escape(text)
        )));
    }
    Ok(quote(text))
}

/// The name clap knows a value by (`plain`, `table`, …).
fn name(value: &impl ValueEnum) -> String {
    value
        .to_possible_value()
        .map(|v| v.get_name().to_string())
        .unwrap_or_default()
}

/// The shard's command line without `--shard`: the settings, then `--` and the programs.
fn tournament_line(args: &TournamentArgs) -> Result<String, Failure> {
    let field = &args.field;
    let (first, last) = (args.seeds.0.start(), args.seeds.0.end());
    let mut line = format!(
        "tournament --board {} --scenario {} --robots {} --rounds {} --keywords {} --seeds {first}..{last} --jobs {}",
        word("the board", &field.ground.board)?,
        field.ground.scenario,
        field.ground.robots,
        field.ground.rounds,
        name(&field.keywords),
        field.jobs.unwrap_or(1),
    );
    line += " --shard \"$SLURM_ARRAY_TASK_ID/$shards\" --";
    for program in &args.programs {
        line.push(' ');
        line += &word("the program", program)?;
    }
    Ok(line)
}

/// The script's variables, each a single-quoted word: the folder it runs in, the robots it
/// runs, the results folder and the standings file in it, the number of shards.
fn variables(args: &TournamentArgs, shards: u32) -> Result<String, Failure> {
    let here = std::env::current_dir()
        .map_err(|e| format!("cannot tell the current folder: {e}"))?
        .display()
        .to_string();
    let bin = match &args.robots_bin {
        Some(bin) => bin.clone(),
        None => std::env::current_exe()
            .map_err(|e| format!("cannot tell where this robots is (give --robots-bin): {e}"))?
            .display()
            .to_string(),
    };
    let (here, bin, results) = (
        word("the current folder", &here)?,
        word("the robots binary", &bin)?,
        word("the results folder", &args.results)?,
    );
    let standings = match args.format {
        TableFormat::Table => "standings.txt",
        TableFormat::Json => "standings.json",
        TableFormat::Csv => "standings.csv",
    };
    Ok(format!(
        "cd {here}\nrobots={bin}\nresults={results}\nshards={shards}\nstandings=\"$results\"/{standings}\n"
    ))
}

/// The script (docs/SCALE.md): `shards` array tasks for a tournament of `matches`.
pub fn script(args: &TournamentArgs, shards: u32, matches: u64) -> Result<String, Failure> {
    let jobs = args.field.jobs.unwrap_or(1);
    let each = matches.div_ceil(u64::from(shards));
    let vars = variables(args, shards)?;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"#!/bin/bash
# A robots tournament as a Slurm job array (docs/SCALE.md, "Slurm"): {matches} matches in
# {shards} shards of at most {each}, from `robots tournament … --slurm-script {shards}`.
#
#   bash THIS-SCRIPT          submit the array (task I plays shard I of {shards}) and a merge
#                             job that runs once every task has succeeded (afterok)
#   bash THIS-SCRIPT 2,5-7    submit those tasks again (say, the ones that failed), then the
#                             merge
#   bash THIS-SCRIPT merge    merge here and now (add --partial for the standings of the
#                             parts there are)
#
# Everything runs in the folder of the `cd` below, where the relative paths of the programs
# and of the results folder start: it, robots and the programs must be on a filesystem
# every node sees, at the same path. Task I writes "$results/part-I.jsonl" (its log:
# slurm-JOB_I.out beside it); the merge writes "$standings" (its log: merge-JOB.out) and
# names the shards missing, if any.
#SBATCH --job-name=robots-tournament
#SBATCH --array=1-{shards}
#SBATCH --cpus-per-task={jobs}
set -euo pipefail
self=$(readlink -f -- "$0" || true)
{vars}
if [ -n "${{SLURM_ARRAY_TASK_ID:-}}" ]; then
    mkdir -p -- "$results"
    part="$results/part-$SLURM_ARRAY_TASK_ID.jsonl"
    "$robots" {line} > "$part.tmp"
    mv -- "$part.tmp" "$part"
    exit 0
fi

merge_job() {{
    cat <<'MERGE'
#!/bin/bash
set -euo pipefail
{vars}shopt -s nullglob
parts=("$results"/part-*.jsonl)
if [ "${{#parts[@]}}" -eq 0 ]; then
    echo "no part in $results: did every task fail?" >&2
    exit 2
fi
"$robots" tournament merge --format {format} "$@" "${{parts[@]}}" > "$standings.tmp"
mv -- "$standings.tmp" "$standings"
echo "standings: $standings"
MERGE
}}

if [ "${{1:-}}" = merge ]; then
    shift
    merge_job | bash -s -- "$@"
    exit
fi
if [ ! -f "$self" ] || ! grep -q '^#SBATCH --array' "$self"; then
    echo "save this script to a file and run bash FILE: it submits itself" >&2
    exit 2
fi
mkdir -p -- "$results"
array=$(sbatch --parsable --array="${{1:-1-$shards}}" --output="$results/slurm-%A_%a.out" "$self")
array=${{array%%;*}}
merge=$(merge_job | sbatch --parsable --job-name=robots-tournament-merge \
    --dependency="afterok:$array" --kill-on-invalid-dep=yes --output="$results/merge-%j.out")
merge=${{merge%%;*}}
echo "array job $array (tasks ${{1:-1-$shards}}), merge job $merge: the standings will be in $standings"
"#,
        line = tournament_line(args)?,
        format = name(&args.format),
    );
    Ok(s)
}
