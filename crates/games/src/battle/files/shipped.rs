//! The hex game's boards, programs and default match shipped inside the binary, so `robots run` works
//! from any directory. The files themselves live in `boards/`, `programs/` and `matches/`.

pub const BOARDS: [(&str, &str); 3] = [
    (
        "classic",
        include_str!("../../../../../boards/classic.yaml"),
    ),
    ("duel", include_str!("../../../../../boards/duel.yaml")),
    ("melee", include_str!("../../../../../boards/melee.yaml")),
];

pub const PROGRAMS: [(&str, &str); 16] = [
    (
        "hunter",
        include_str!("../../../../../programs/hunter.robot"),
    ),
    (
        "sentinel",
        include_str!("../../../../../programs/sentinel.robot"),
    ),
    (
        "kamikaze",
        include_str!("../../../../../programs/kamikaze.robot"),
    ),
    (
        "camp_runner",
        include_str!("../../../../../programs/camp_runner.robot"),
    ),
    (
        "sniper",
        include_str!("../../../../../programs/sniper.robot"),
    ),
    (
        "wanderer",
        include_str!("../../../../../programs/wanderer.robot"),
    ),
    (
        "listener",
        include_str!("../../../../../programs/listener.robot"),
    ),
    (
        "flanker",
        include_str!("../../../../../programs/flanker.robot"),
    ),
    (
        "turret",
        include_str!("../../../../../programs/turret.robot"),
    ),
    (
        "seeker",
        include_str!("../../../../../programs/seeker.robot"),
    ),
    (
        "stalker",
        include_str!("../../../../../programs/stalker.robot"),
    ),
    (
        "berserker",
        include_str!("../../../../../programs/berserker.robot"),
    ),
    (
        "charger",
        include_str!("../../../../../programs/charger.robot"),
    ),
    (
        "gunner",
        include_str!("../../../../../programs/gunner.robot"),
    ),
    (
        "bomber",
        include_str!("../../../../../programs/bomber.robot"),
    ),
    (
        "lemming",
        include_str!("../../../../../programs/lemming.robot"),
    ),
];

/// The match `robots run` plays when given none.
pub const DEFAULT_MATCH: (&str, &str) = (
    "matches/default.yaml",
    include_str!("../../../../../matches/default.yaml"),
);

pub fn board(name: &str) -> Option<&'static str> {
    BOARDS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

pub fn program(name: &str) -> Option<&'static str> {
    PROGRAMS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}
