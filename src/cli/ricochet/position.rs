//! A Ricochet position read from its file, the board it names read beside it, confined to
//! its folder (docs/FORMATS.md).

use crate::cli::io::files::read_input;
use robots_games::ricochet::{self as ricochet_robots, position::Position as RicochetPosition};
use std::path::Path;

pub(super) fn ricochet_position(path: &Path) -> Result<RicochetPosition, String> {
    let path_of_position = path;
    let text = read_input(path).map_err(|d| d.to_string())?;
    let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
    // A position names its board relative to itself, inside its folder (docs/FORMATS.md).
    let read = |name: &str| {
        robots_games::text::confine::Confine::Inside
            .check(name)
            .map_err(|e| e.to_string())?;
        let path = base.join(name);
        let text = crate::cli::io::files::read_input(&path);
        if !crate::cli::io::files::outside(
            crate::cli::io::files::folder_of(path_of_position),
            &path,
        ) {
            return text.map_err(|d| d.to_string());
        }
        // Outside the folder (a link that leads out): any error about it shows nothing of it.
        let text = text.map_err(|d| d.without_content().to_string())?;
        ricochet_robots::files::parse_custom(name, &text)
            .map_err(|d| d.without_content().to_string())?;
        Ok(text)
    };
    ricochet_robots::files::parse(&path.display().to_string(), &text, &read)
        .map_err(|d| d.to_string())
}
