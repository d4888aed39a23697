//! `ricochet board --random`: a random Ricochets board ([`robots_games::ricochet::generate`]) drawn
//! as text, as pictures, or written as a custom board file (`--out`).

use crate::cli::args::game_flags::{PictureArgs, RandomBoard};
use crate::cli::io::output::Failure;
use robots_games::ricochet::generate::{Spec, generate, yaml};
use robots_games::text::escape;

/// Draws the board of the flags; `--out` writes its file (`-`: standard output, which then
/// carries nothing else), pictures replace the text drawing.
pub fn board(flags: &RandomBoard, picture: &PictureArgs) -> Result<(), Failure> {
    let spec = Spec {
        size: flags
            .size
            .unwrap_or(robots_games::ricochet::generate::DEFAULT_SIZE),
        barriers: flags.barriers,
        centre: flags.centre,
    };
    let is_stdout = |p: &std::path::Path| p.as_os_str() == "-";
    let out_to_stdout = flags.out.as_deref().is_some_and(is_stdout);
    let picture_to_stdout = [&picture.svg, &picture.png]
        .iter()
        .any(|p| p.as_deref().is_some_and(is_stdout));
    if out_to_stdout && picture_to_stdout {
        return Err(Failure::Bad(
            "only one thing can go to standard output: --out - or a picture written to `-`".into(),
        ));
    }
    let drawn = generate(&spec, flags.seed.unwrap_or(1))
        .map_err(|e| Failure::Bad(format!("--random: {e}")))?;
    if let Some(path) = &flags.out {
        let text = yaml(&drawn);
        if out_to_stdout {
            out!("{text}");
        } else {
            std::fs::write(path, text).map_err(|e| {
                format!(
                    "{}: error: cannot write the board: {e}",
                    escape(&path.display().to_string())
                )
            })?;
            eprintln!("wrote board {}", path.display());
        }
    }
    if picture.wanted() {
        return super::super::picture::ricochet_board(&drawn.board, picture, false);
    }
    if !out_to_stdout {
        out!(
            "{}",
            robots_games::ricochet::draw::text::board(
                &drawn.board,
                &drawn.board.bases,
                crate::cli::io::output::colour()
            )
        );
    }
    Ok(())
}
