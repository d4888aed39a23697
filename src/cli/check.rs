//! `robots check`: programs (.robot), boards and match files (.yaml), each said to be what
//! it is, with its diagnostics; exit 2 on any error (and on warnings with
//! `--deny-warnings`).

use super::micro::micro_file;
use crate::cli::args::flags::{CheckArgs, CheckFormat, confine};
use crate::cli::io::files::{FileKind, read_input};
use crate::cli::io::output::Failure;
use robots_games::battle::{files::board_file, files::match_file};
use robots_games::micro::MicroFile;
use robots_games::text::confine::Confine;
use robots_games::text::diagnostic::{Diagnostic, checked_line};
use robots_games::text::escape;
use std::path::Path;

/// What a file is, from its extension and (for YAML) its keys: a line saying so, and the
/// warnings about it.
fn check_one(
    path: &Path,
    confine: Confine,
    keywords: robots_games::battle::lang::Keywords,
) -> Result<(String, Vec<Diagnostic>), Diagnostic> {
    let text = read_input(path)?;
    let shown = path.display().to_string();
    // Standard input (`-`) has no extension: what it holds says what it is.
    let ext = match path.extension().and_then(|e| e.to_str()) {
        Some(ext) => ext,
        None if crate::cli::io::files::is_stdin(path)
            && FileKind::of(path, &text) == FileKind::Program =>
        {
            "robot"
        }
        None if crate::cli::io::files::is_stdin(path) => "yaml",
        None => "",
    };
    match ext {
        "robot" => match_file::check_program(&shown, &text, keywords),
        "yaml" | "yml" => check_yaml(path, &shown, &text, confine),
        _ => Err(Diagnostic::whole_file(
            &shown,
            "unknown kind of file: expected .robot (a program) or .yaml (a board, a match, a Ricochet position or a Micro Robots file)",
        )),
    }
}

/// A YAML file, by what its top-level keys say it is ([`FileKind`]): a line saying so, and
/// the warnings (matches have them).
fn check_yaml(
    path: &Path,
    shown: &str,
    text: &str,
    confine: Confine,
) -> Result<(String, Vec<Diagnostic>), Diagnostic> {
    let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let line = match FileKind::of(path, text) {
        FileKind::Match => {
            let fetch = crate::cli::io::files::fetcher(Path::new(shown));
            let (m, warnings) = match_file::check_match_fetched(shown, text, &fetch, confine)?;
            let teams = m.teams.len();
            let line = format!("{shown}: ok (match `{}`, {teams} teams)", escape(&m.name));
            return Ok((line, warnings));
        }
        FileKind::HexBoard => {
            let b = board_file::parse_board(shown, text)?;
            format!(
                "{shown}: ok (board `{}`, {} x {} hexes)",
                escape(&b.name),
                b.width,
                b.height
            )
        }
        FileKind::MicroFace | FileKind::MicroBoard => {
            match micro_file(shown, text, &base, confine)? {
                MicroFile::Face(f) => {
                    format!(
                        "{shown}: ok (Micro Robots face `{}`, 4 tiles)",
                        escape(f.name())
                    )
                }
                MicroFile::Board(b) => {
                    format!("{shown}: ok (Micro Robots board `{}`)", escape(b.name()))
                }
            }
        }
        FileKind::RicochetQuarters => {
            let n = robots_games::ricochet::quarters::check_quadrants(shown, text)?;
            format!("{shown}: ok (Ricochet quarter boards, {n})")
        }
        FileKind::RicochetBoard => {
            let b = robots_games::ricochet::files::parse_custom(shown, text)?;
            format!(
                "{shown}: ok (Ricochet board `{}`, {} x {})",
                escape(&b.name),
                b.width,
                b.height
            )
        }
        FileKind::RicochetPosition => {
            let read = |name: &str| {
                confine.check(name).map_err(|e| e.to_string())?;
                read_input(&base.join(name)).map_err(|d| d.to_string())
            };
            let p = robots_games::ricochet::files::parse(shown, text, &read)?;
            format!(
                "{shown}: ok (Ricochet position, {})",
                robots_games::text::count(p.robots.len(), "robot")
            )
        }
        FileKind::Program | FileKind::Unknown => {
            // Let the reader say what is wrong with it (it may not be YAML at all).
            robots_games::text::yaml::check_syntax(shown, text)?;
            return Err(Diagnostic::at(
                shown,
                text,
                1,
                1,
                "not a file robots knows: a hex board has `map:`, a match `teams:`, a Ricochet position `robots:` and `target:`, a Ricochet board `size:`, Ricochet quarter boards `1A:` and the like, a Micro Robots face `tiles:`, a Micro Robots board `rows:` or `face:`",
            ));
        }
    };
    Ok((line, Vec::new()))
}

pub fn check(args: &CheckArgs) -> Result<(), Failure> {
    let confine = confine(args.allow_outside);
    let json = args.format == CheckFormat::Json;
    let (mut failed, mut warned, mut warnings) = (0, 0, 0);
    for path in &args.files {
        let diagnostics = match check_one(path, confine, args.keywords.language()) {
            Ok((line, found)) => {
                if !json {
                    // The line names the file and what it holds, both from the stranger.
                    outln!("{}", checked_line(&line, found.len()));
                }
                warned += usize::from(!found.is_empty());
                warnings += found.len();
                found
            }
            Err(d) => {
                failed += 1;
                vec![d]
            }
        };
        for d in diagnostics {
            if json {
                outln!("{}", d.json());
            } else {
                eprintln!("{d}");
            }
        }
    }
    let files = args.files.len();
    let of = |n: usize| {
        if files == 1 {
            "the file".to_string()
        } else {
            format!("{n} of {files} files")
        }
    };
    if failed > 0 {
        let verb = if failed == 1 && files == 1 {
            "has"
        } else {
            "have"
        };
        return Err(Failure::Bad(format!("{} {verb} errors", of(failed))));
    }
    if args.deny_warnings && warnings > 0 {
        return Err(Failure::Bad(format!(
            "{} {} warnings, and --deny-warnings makes them errors",
            of(warned),
            if warned == 1 && files == 1 {
                "has"
            } else {
                "have"
            }
        )));
    }
    Ok(())
}
