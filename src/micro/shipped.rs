//! The Micro Robots faces shipped inside the binary (stand-in tiles: see the files).

/// The Micro Robots faces (stand-in tiles: see the files).
pub const MICRO_FACES: [(&str, &str); 2] = [
    ("silver", include_str!("../../boards/micro/silver.yaml")),
    ("copper", include_str!("../../boards/micro/copper.yaml")),
];

pub fn micro_face(name: &str) -> Option<&'static str> {
    MICRO_FACES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}
