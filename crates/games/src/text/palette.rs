//! The colours of every picture: the three games' SVG pictures and the replay page, whose
//! `web/js/palette.js` is written from here ([`web_script`]; a test keeps the file the same
//! as what this module writes). One palette: a colour changed here changes everywhere.

/// Paper: plain ground, the Ricochet floor, the Micro Robots board.
pub const PAPER: &str = "#f4efe1";
/// Ink: labels, walls, start points, pointers.
pub const INK: &str = "#222222";
pub const WHITE: &str = "#ffffff";
pub const RED: &str = "#d64541";
pub const BLUE: &str = "#3b6fd6";
pub const GREEN: &str = "#3fa34d";
pub const YELLOW: &str = "#e8c21c";
pub const ORANGE: &str = "#f08a24";

/// The hex battle: hex outlines, lakes, lightning and its bolt, computers.
pub const OUTLINE: &str = "#9a927d";
pub const LAKE: &str = "#7fb7e6";
pub const LIGHTNING: &str = "#ffe066";
pub const BOLT: &str = "#b8860b";
pub const COMPUTER: &str = "#333333";
/// Destroyed robots.
pub const WRECK: &str = "#9e9e9e";
/// Shots and explosions.
pub const SHOT: &str = "#ff2d00";
pub const BURST: &str = "#ff9f1a";
/// A camp is its team's colour at this opacity.
pub const CAMP_OPACITY: &str = "0.25";

/// The shapes' colours, by name.
pub const SHAPES: [(&str, &str); 6] = [
    ("red", RED),
    ("blue", BLUE),
    ("green", GREEN),
    ("yellow", YELLOW),
    ("orange", ORANGE),
    ("black", INK),
];

/// The teams' colours, by name: robots, camps, the borders of computers.
pub const TEAMS: [(&str, &str); 6] = [
    ("green", "#2e9e44"),
    ("violet", "#8a4fc8"),
    ("red", "#d23c3c"),
    ("blue", "#2f6fd0"),
    ("yellow", "#d9b400"),
    ("orange", "#e67e22"),
];

/// The colour named `name` in `table`.
pub fn named(table: &[(&str, &'static str)], name: &str) -> &'static str {
    table
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(INK, |(_, c)| c)
}

/// The text of `web/js/palette.js`: the palette the replay page draws with.
pub fn web_script() -> String {
    let table = |entries: &[(&str, &str)]| -> String {
        entries
            .iter()
            .map(|(name, colour)| format!("    {name}: '{colour}',\n"))
            .collect()
    };
    format!(
        "// The replay page's palette, written from crates/games/src/text/palette.rs (the SVG pictures' own):\n\
         // do not edit. tests/suite/viewer.rs checks this file is what the crate writes.\n\
         'use strict';\n\n\
         const RobotsPalette = {{\n  plain: '{PAPER}',\n  stroke: '{OUTLINE}',\n  lake: '{LAKE}',\n  \
         lightning: '{LIGHTNING}',\n  bolt: '{BOLT}',\n  computer: '{COMPUTER}',\n  start: '{INK}',\n  \
         campOpacity: {CAMP_OPACITY},\n  shapes: {{\n{}  }},\n  teams: {{\n{}  }},\n}};\n\n\
         if (typeof module === 'object' && module.exports) module.exports = RobotsPalette;\n",
        table(&SHAPES),
        table(&TEAMS),
    )
}
