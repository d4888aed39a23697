//! The Micro Robots faces shipped inside the binary: two tile sets that public programs
//! encode (most likely the published game's, though the publisher's own print may differ),
//! and two stand-ins designed for this project. Each file says where it comes from.

/// The Micro Robots faces, by name: the public tile sets first, then the stand-ins.
pub const MICRO_FACES: [(&str, &str); 4] = [
    (
        "public-silver",
        include_str!("../../../../boards/micro/public-silver.yaml"),
    ),
    (
        "public-copper",
        include_str!("../../../../boards/micro/public-copper.yaml"),
    ),
    (
        "silver",
        include_str!("../../../../boards/micro/silver.yaml"),
    ),
    (
        "copper",
        include_str!("../../../../boards/micro/copper.yaml"),
    ),
];

/// The face `micro play` is played on when none is named: the public silver face, the one a
/// player of the published game most likely knows.
pub const DEFAULT_FACE: &str = "public-silver";

pub fn micro_face(name: &str) -> Option<&'static str> {
    MICRO_FACES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

/// The shipped faces' names, in order, joined with `, `.
pub fn names() -> String {
    let names: Vec<&str> = MICRO_FACES.iter().map(|(n, _)| *n).collect();
    names.join(", ")
}
