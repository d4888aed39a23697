//! `robots ricochet bench`: positions solved in this process and timed, each with the peak
//! memory of its solve: the shipped set, or a file of game ids with the median, p99 and
//! maximum.

use crate::cli::io::files::read_input;
use crate::cli::io::memory;
use crate::cli::io::output::Failure;
use robots_games::ricochet::{self as ricochet_robots, files::game_id::GameId, rules::Rules};
use std::path::Path;

/// `ricochet bench`: the fixed position set, each solved and timed, with its peak memory.
pub fn shipped(json: bool) {
    #[derive(serde::Serialize)]
    struct Line {
        position: String,
        /// Null when the position has no solution within 40 moves.
        moves: Option<u32>,
        milliseconds: f64,
        peak_mib: f64,
    }
    let mut total = 0.0;
    let mut highest = 0;
    let mut lines = Vec::new();
    for (name, p) in ricochet_robots::bench::positions() {
        memory::reset_peak();
        let started = std::time::Instant::now();
        let answer = ricochet_robots::solve::solve(&p, 40);
        let seconds = started.elapsed().as_secs_f64();
        let peak = memory::peak();
        total += seconds;
        highest = highest.max(peak);
        let line = Line {
            position: name.clone(),
            moves: answer.ok().map(|s| s.moves),
            milliseconds: (seconds * 1e6).round() / 1e3,
            peak_mib: (peak as f64 / 1048576.0 * 10.0).round() / 10.0,
        };
        if !json {
            let moves = line.moves.map_or("none".to_string(), |m| m.to_string());
            outln!(
                "{name:<10} {moves:>4} moves {:>10.3} ms {:>8.1} MiB peak",
                seconds * 1e3,
                peak as f64 / 1048576.0
            );
        }
        lines.push(line);
    }
    if json {
        #[derive(serde::Serialize)]
        struct Doc {
            positions: Vec<Line>,
            total_seconds: f64,
            highest_peak_mib: f64,
        }
        let doc = Doc {
            positions: lines,
            total_seconds: (total * 1e3).round() / 1e3,
            highest_peak_mib: (highest as f64 / 1048576.0 * 10.0).round() / 10.0,
        };
        outln!("{}", serde_json::to_string(&doc).unwrap_or_default());
        return;
    }
    outln!(
        "all {} positions: {total:.3} s; highest peak {:.1} MiB",
        ricochet_robots::bench::positions().len(),
        highest as f64 / 1048576.0
    );
}

/// One timed solve of `ricochet bench --ids`.
#[derive(serde::Serialize)]
struct IdLine {
    id: String,
    /// Null when the position has no solution within 40 moves.
    moves: Option<u32>,
    milliseconds: f64,
    peak_mib: f64,
}

/// `ricochet bench --ids FILE`: each game id of the file solved and timed, then the median,
/// p99 and maximum time. Every id is read and checked before the first solve.
pub fn ids(file: &Path, must_ricochet: bool, json: bool) -> Result<(), Failure> {
    let text = read_input(file)?;
    let rules = Rules {
        must_ricochet,
        no_single_move: false,
    };
    let mut positions = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = || format!("{}:{}", file.display(), n + 1);
        let id: GameId = line
            .parse()
            .map_err(|e| Failure::Bad(format!("{}: {e}", at())))?;
        let p = id
            .position(rules)
            .map_err(|e| Failure::Bad(format!("{}: {e}", at())))?;
        positions.push((id.to_string(), p));
    }
    if positions.is_empty() {
        return Err(Failure::Bad(format!(
            "{}: no game ids in the file",
            file.display()
        )));
    }
    let mut lines = Vec::new();
    for (id, p) in positions {
        memory::reset_peak();
        let started = std::time::Instant::now();
        let answer = ricochet_robots::solve::solve(&p, 40);
        let seconds = started.elapsed().as_secs_f64();
        let peak = memory::peak() as f64 / 1048576.0;
        let line = IdLine {
            id,
            moves: answer.ok().map(|s| s.moves),
            milliseconds: seconds * 1e3,
            peak_mib: (peak * 10.0).round() / 10.0,
        };
        if !json {
            let moves = line.moves.map_or("none".to_string(), |m| m.to_string());
            outln!(
                "{:<21} {moves:>4} moves {:>10.3} ms {peak:>8.1} MiB peak",
                line.id,
                line.milliseconds
            );
        }
        lines.push(line);
    }
    let times: Vec<f64> = lines.iter().map(|l| l.milliseconds).collect();
    let s = ricochet_robots::bench::Summary::of(&times);
    if json {
        #[derive(serde::Serialize)]
        struct Doc {
            positions: Vec<IdLine>,
            median_ms: f64,
            p99_ms: f64,
            max_ms: f64,
        }
        let doc = Doc {
            positions: lines,
            median_ms: s.median,
            p99_ms: s.p99,
            max_ms: s.max,
        };
        outln!("{}", serde_json::to_string(&doc).unwrap_or_default());
        return Ok(());
    }
    outln!("median: {:.3} ms", s.median);
    outln!("p99: {:.3} ms", s.p99);
    outln!("max: {:.3} ms", s.max);
    Ok(())
}
