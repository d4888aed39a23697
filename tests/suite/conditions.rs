//! The test-condition language (docs/LANGUAGE.md, RULES A.9), one row a question: a few
//! robots on a tiny board, a condition written as test 1 of green.1's program, and the answer
//! the match log shows when green.1 reads `?1`.
//!
//! The board (`TINY`), with green.1 ("me") at [4, 3] facing 1 (east) unless a row says
//! otherwise. From there: the line of direction 1 runs [5, 3], lightning [6, 3], [7, 3],
//! [8, 3], then off the board; direction 2 (SE) [5, 4], the black circle [5, 5], green camp
//! [6, 6]; direction 3 (SW) [4, 4], [3, 5], [3, 6]; direction 4 (W) [3, 3], [2, 3], the red
//! square [1, 3], [0, 3]; direction 5 (NW) [4, 2], [3, 1], [3, 0]; direction 6 (NE) [5, 2],
//! [5, 1], [6, 0]. The lake [3, 2] is 2 hexes away, off every line; the blue triangle [7, 1]
//! 4 away; the green computer [7, 6] 4 away; the violet computer [1, 0] 5 away. Every hex
//! within 3 is on the board; at 4 some are off it.

use crate::support::root;
use robots_games::battle::engine::{Event, Match, RobotName};
use robots_games::battle::files::match_file::parse_match;
use robots_games::battle::show::render;
use robots_games::battle::terrain::TeamColour;
use robots_games::text::confine::Confine;
use std::path::Path;

const TINY: &str = "\
name: tiny
map: |
  v C v . . . . . .
   V v . . . . . 2 .
  . . . ~ . . . . .
   . 1 . . . . ! . .
  . . . . . . . . .
   . . . . . 3 . g G
  . . . . . . g c g
legend:
  C: {computer: violet}
  c: {computer: green}
  \"1\": {shape: square, colour: red}
  \"2\": {shape: triangle, colour: blue}
  \"3\": {shape: circle, colour: black}
";

const YES: bool = true;
const NO: bool = false;

/// `(condition, robots, answer)`. Robots: `COLOUR COL,ROW [>FACING] [[STEP; STEP]]`, comma
/// separated; `me` is green.1 (default `me 4,3 >1`), whose steps are played before it reads
/// `?1`; other robots face 1 and have no program unless given steps. Teams in order of
/// appearance, green first.
const ROWS: &[(&str, &str, bool)] = &[
    // Robots: who, and where along lines and rings.
    ("enemy ahead", "violet 7,3", YES),
    ("enemy ahead within 2", "violet 7,3", NO),
    ("enemy ahead at 3", "violet 7,3", YES),
    ("enemy behind", "violet 7,3", NO),
    ("friend behind 2", "green 2,3, violet 0,6", YES),
    ("enemy behind 2", "green 2,3, violet 0,6", NO),
    ("any within 1", "violet 5,4", YES),
    ("robot at 2", "violet 5,4", NO),
    ("robots at distance 2", "violet 3,5", YES),
    ("enemy right", "violet 5,4", YES),
    ("enemy left", "violet 5,4", NO),
    ("enemy ahead-right 1", "me 4,3 >6, violet 5,3", YES),
    ("enemy behind-right", "violet 3,5", YES),
    ("enemy behind-left within 2", "violet 3,1", YES),
    ("enemy behind-left within 1", "violet 3,1", NO),
    ("enemy ahead-left 2", "violet 5,1", YES),
    ("violet in direction 4 within 4", "violet 0,3", YES),
    ("violet direction 4 within 3", "violet 0,3", NO),
    ("violet in direction 4", "me 4,3 >3, violet 0,3", YES),
    ("violet ahead within 4", "me 4,3 >3, violet 0,3", NO),
    ("red robot anywhere", "violet 0,6, red 8,0", YES),
    ("red robots", "violet 0,6", NO),
    ("violet robot", "violet 0,6", YES),
    ("friend", "violet 0,6", NO),
    ("friends", "green 8,0, violet 0,6", YES),
    ("any here", "violet 5,4", NO),
    // Counts and comparisons.
    (
        "count(enemy within 3) = 2",
        "violet 5,4, violet 3,5, violet 0,3",
        YES,
    ),
    (
        "count(enemy within 3) != 2",
        "violet 5,4, violet 3,5, violet 0,3",
        NO,
    ),
    (
        "count(enemy) == 3",
        "violet 5,4, violet 3,5, violet 0,3",
        YES,
    ),
    ("count(enemy) > count(friend)", "green 2,3, violet 7,3", NO),
    (
        "count(enemy) >= count(friend)",
        "green 2,3, violet 7,3",
        YES,
    ),
    ("count(any) < 3", "green 2,3, violet 7,3, red 8,0", NO),
    (
        "count(red robots) <= 1",
        "green 2,3, violet 7,3, red 8,0",
        YES,
    ),
    ("count(lake within 2) = 1", "violet 0,6", YES),
    ("count(plain at 1) = 6", "violet 0,6", YES),
    ("count(shape) > 3", "violet 0,6", NO),
    // Terrain at relative hexes.
    ("lightning ahead 2", "violet 0,6", YES),
    ("lightning ahead 1", "violet 0,6", NO),
    ("lake within 2", "violet 0,6", YES),
    ("lake within 1", "violet 0,6", NO),
    ("plain ahead 1", "violet 0,6", YES),
    ("plain here", "me 6,3, violet 0,6", NO),
    ("edge ahead within 4", "violet 0,6", NO),
    ("edge ahead 5", "violet 0,6", YES),
    ("edge within 3", "violet 0,6", NO),
    ("edge within 4", "violet 0,6", YES),
    ("shape behind 3", "violet 0,6", YES),
    ("square behind within 2", "violet 0,6", NO),
    ("red square within 3", "violet 0,6", YES),
    ("blue square within 3", "violet 0,6", NO),
    ("black shape within 2", "violet 0,6", YES),
    ("circle right 2", "violet 0,6", YES),
    ("triangle within 3", "violet 0,6", NO),
    ("blue triangle within 4", "violet 0,6", YES),
    ("camp within 3", "violet 0,6", YES),
    ("own camp right 3", "violet 0,6", YES),
    ("enemy camp within 3", "violet 0,6", NO),
    ("enemy camp within 4", "violet 0,6", YES),
    ("violet camp within 4", "violet 0,6", YES),
    ("computer within 4", "violet 0,6", YES),
    ("enemy computer within 4", "violet 0,6", NO),
    ("own computer within 4", "violet 0,6", YES),
    ("violet computer at 5", "violet 0,6", YES),
    // The robot itself.
    ("facing 1", "violet 0,6", YES),
    ("facing 2", "violet 0,6", NO),
    ("facing direction 4", "me 4,3 >4, violet 0,6", YES),
    ("shots = 10", "violet 0,6", YES),
    ("shots left < 10", "me [T], violet 0,6", YES),
    ("damage = 0", "violet 0,6", YES),
    // violet.1 hits me at distance 2 twice, after each of my two turns: two steps lost.
    ("damage = 2", "me [R+1; R-1], violet 2,3 [T; RAZ]", YES),
    (
        "destroyed steps >= 3",
        "me [R+1; R-1], violet 2,3 [T; RAZ]",
        NO,
    ),
    ("in camp", "violet 0,6", NO),
    ("in own camp", "me 7,5, violet 0,6", YES),
    ("in enemy camp", "me 7,5, violet 0,6", NO),
    ("in enemy camp", "me 2,0, violet 0,6", YES),
    ("in violet camp", "me 2,0, violet 0,6", YES),
    ("in green camp", "me 2,0, violet 0,6", NO),
    ("true", "violet 0,6", YES),
    ("false", "violet 0,6", NO),
    // and, or, not, parentheses: `not` binds tightest, then `and`, then `or`.
    (
        "enemy ahead and not friend ahead",
        "green 5,3, violet 7,3",
        NO,
    ),
    ("enemy ahead and not friend ahead", "violet 7,3", YES),
    ("lake ahead 1 or lightning ahead 2", "violet 0,6", YES),
    ("not (lake within 2 or edge within 3)", "violet 0,6", NO),
    (
        "not lake within 1 and (false or facing 1)",
        "violet 0,6",
        YES,
    ),
    ("false and true or true", "violet 0,6", YES),
    ("not false and false", "violet 0,6", NO),
];

/// A robot of a row: colour (`me` is green.1), placement, facing, steps.
struct Robot<'a> {
    colour: &'a str,
    at: (i32, i32),
    facing: u8,
    steps: Vec<&'a str>,
}

fn robot(spec: &str) -> Robot<'_> {
    let (head, steps) = match spec.split_once('[') {
        Some((head, steps)) => (
            head,
            steps
                .trim_end_matches(']')
                .split(';')
                .map(str::trim)
                .collect(),
        ),
        None => (spec, Vec::new()),
    };
    let mut words = head.split_whitespace();
    let colour = words.next().unwrap();
    let mut r = Robot {
        colour,
        at: (4, 3),
        facing: 1,
        steps,
    };
    for word in words {
        if let Some(facing) = word.strip_prefix('>') {
            r.facing = facing.parse().unwrap();
        } else {
            let (col, row) = word.split_once(',').unwrap();
            r.at = (col.parse().unwrap(), row.parse().unwrap());
        }
    }
    r
}

/// The match file of a row: green.1 plays its steps, then asks test 1.
fn match_text(condition: &str, robots: &str) -> String {
    let mut all: Vec<Robot> = robots.split(", ").map(robot).collect();
    if !all.iter().any(|r| r.colour == "me") {
        all.insert(0, robot("me"));
    }
    let me = all.iter().position(|r| r.colour == "me").unwrap();
    let mut me = all.remove(me);
    let mut program = String::new();
    for (n, step) in me.steps.iter().chain(&["?1", "R+1", "R-1"]).enumerate() {
        program.push_str(&format!("{}: {step}\n", n + 1));
    }
    program.push_str(&format!("test 1: {condition}\n"));
    me.colour = "green";
    let mut colours = vec!["green"];
    for r in &all {
        if !colours.contains(&r.colour) {
            colours.push(r.colour);
        }
    }
    let mut text = String::from("board: tiny.yaml\nrules: {rounds: 10}\nteams:\n");
    for colour in colours {
        text.push_str(&format!("  - colour: {colour}\n    robots:\n"));
        let team = std::iter::once(&me)
            .filter(|_| colour == "green")
            .chain(all.iter().filter(|r| r.colour == colour));
        for r in team {
            let code: String = if std::ptr::eq(r, &me) {
                program.clone()
            } else {
                r.steps
                    .iter()
                    .enumerate()
                    .map(|(n, s)| format!("{}: {s}\n", n + 1))
                    .collect()
            };
            text.push_str(&format!(
                "      - {{at: [{}, {}], facing: {}, code: {}}}\n",
                r.at.0,
                r.at.1,
                r.facing,
                serde_json::to_string(&code).unwrap()
            ));
        }
    }
    text
}

/// Green.1's answer to test 1 the first time it reads `?1`, green playing first.
fn answer(condition: &str, robots: &str) -> Result<bool, String> {
    let text = match_text(condition, robots);
    let read = |p: &Path| {
        if p == Path::new("tiny.yaml") {
            Ok(TINY.as_bytes().to_vec())
        } else {
            std::fs::read(root().join(p))
        }
    };
    let mut setup = parse_match("conditions.yaml", &text, &read, Confine::Inside)
        .map_err(|d| format!("{text}\n{d}"))?;
    let mut game = (1..100)
        .map(|seed| {
            setup.seed = seed;
            Match::new(&setup).unwrap()
        })
        .find(|m| m.team(m.first_team()).colour == TeamColour::Green)
        .unwrap();
    let start = render::state(&game);
    while !game.is_over() {
        for event in game.step() {
            if let Event::Tested {
                robot:
                    RobotName {
                        team: TeamColour::Green,
                        number: 1,
                    },
                test: 1,
                answer,
                ..
            } = event
            {
                return Ok(answer);
            }
        }
    }
    Err(format!("green.1 never read ?1\n{text}\n{start}"))
}

#[test]
fn every_row_gets_its_answer() {
    let mut wrong = Vec::new();
    for &(condition, robots, expected) in ROWS {
        match answer(condition, robots) {
            Ok(got) if got == expected => {}
            Ok(got) => wrong.push(format!(
                "{condition:?} with {robots:?}: {got}, not {expected}"
            )),
            Err(e) => wrong.push(format!("{condition:?} with {robots:?}: {e}")),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A table of one answer would pass with an evaluator that always gives it.
#[test]
fn the_table_has_both_answers() {
    let yes = ROWS.iter().filter(|r| r.2).count();
    assert!(
        yes >= 20 && ROWS.len() - yes >= 20,
        "{yes} yes of {}",
        ROWS.len()
    );
}
