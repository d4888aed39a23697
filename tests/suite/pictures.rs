//! Pictures (docs/FORMATS.md, "Pictures"): the SVG of each game snapshotted on small inputs,
//! PNGs and GIFs decoded from the binary, every shipped match, board and position drawn.

use crate::support::{load_match, robots, robots_command, root, stderr, stdout};
use robots::battle::engine::{Event, Match};
use robots::battle::files::board_file::parse_board;
use robots::battle::show::svg;
use std::path::{Path, PathBuf};
use std::process::Stdio;

/// One hex of every kind: plain, lake, lightning, the three shapes, a camp with a start point
/// and its computer, an outer start point.
const EVERY_TERRAIN: &str = "name: every terrain
map: |
  . ~ !
   1 2 3
  g G c
   + . .
legend:
  c: {computer: green}
  \"1\": {shape: square, colour: red}
  \"2\": {shape: triangle, colour: blue}
  \"3\": {shape: circle, colour: black}
";

#[test]
fn a_small_board_with_every_terrain() {
    let board = parse_board("every.yaml", EVERY_TERRAIN).unwrap();
    let picture = svg::board(&board);
    assert!(!picture.contains("<text"), "no fonts: labels are strokes");
    snapshot!("every-terrain.svg", picture);
}

/// The duel until its first explosion: the burst, the wrecks and the robots left.
#[test]
fn a_duel_state_with_an_explosion() {
    let setup = load_match(Path::new("matches/duel.yaml")).unwrap();
    let mut m = Match::new(&setup).unwrap();
    let events = loop {
        let events = m.step();
        assert!(!m.is_over(), "the duel has an explosion");
        if events.iter().any(|e| matches!(e, Event::Exploded { .. })) {
            break events;
        }
    };
    snapshot!("duel-explosion.svg", svg::state(&m, &events));
}

/// The end of the duel: the last shot, from the shooter along its facing to its target.
#[test]
fn a_duel_state_with_a_shot() {
    let setup = load_match(Path::new("matches/duel.yaml")).unwrap();
    let mut m = Match::new(&setup).unwrap();
    let mut last = Vec::new();
    while !m.is_over() {
        last = m.step();
    }
    assert!(last.iter().any(|e| matches!(e, Event::Fired { .. })));
    let picture = svg::state(&m, &last);
    assert!(picture.contains(&format!("stroke=\"{}\"", svg::SHOT)));
    assert_eq!(
        picture,
        svg::state(&m, &last),
        "the same state, the same bytes"
    );
}

#[test]
fn a_ricochet_position_with_its_solution() {
    let path = root().join("tests/ricochet/transparent-robot-crosses-a-wall.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let base = path.parent().unwrap().to_path_buf();
    let p = robots::ricochet::files::parse("position.yaml", &text, &|name| {
        std::fs::read_to_string(base.join(name)).map_err(|e| e.to_string())
    })
    .unwrap();
    let solution = robots::ricochet::solve::solve(&p, 10).unwrap();
    snapshot!(
        "ricochet-transparent.svg",
        robots::ricochet::draw::svg::position(&p, &solution.solution)
    );
}

#[test]
fn a_micro_robots_board() {
    let face = crate::support::micro_face("silver").unwrap();
    let board = robots::micro::Board::arrange(&face, robots::micro::Arrangement::PLAIN);
    snapshot!("micro-silver.svg", robots::micro::svg::board(&board));
}

/// `robots ARGS` with standard output a pipe: its bytes.
fn bytes_of(args: &[&str]) -> Vec<u8> {
    let o = robots_command()
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    o.stdout
}

/// `width="…" height="…"` of an SVG document.
fn svg_size(svg: &str) -> (u32, u32) {
    let number = |key: &str| {
        let at = svg.find(key).unwrap() + key.len();
        svg[at..].split('"').next().unwrap().parse().unwrap()
    };
    (number("width=\""), number("height=\""))
}

#[test]
fn a_png_is_the_size_of_its_svg_and_not_blank() {
    let svg = String::from_utf8(bytes_of(&["board", "classic", "--svg", "-"])).unwrap();
    let png = bytes_of(&["board", "classic", "--png", "-"]);
    let pixmap = resvg::tiny_skia::Pixmap::decode_png(&png).unwrap();
    assert_eq!((pixmap.width(), pixmap.height()), svg_size(&svg));
    let colours: std::collections::BTreeSet<&[u8]> = pixmap.data().chunks_exact(4).collect();
    assert!(colours.len() >= 10, "{} colours", colours.len());
    assert_eq!(png, bytes_of(&["board", "classic", "--png", "-"]));
}

#[test]
fn a_gif_of_the_duel_has_a_frame_per_visible_turn() {
    let gif = bytes_of(&["run", "matches/duel.yaml", "--gif", "-"]);
    assert_eq!(gif, bytes_of(&["run", "matches/duel.yaml", "--gif", "-"]));
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(gif.as_slice()).unwrap();
    let (width, height) = (decoder.width(), decoder.height());
    let mut frames = 0;
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        if frames == 0 {
            assert_eq!((frame.width, frame.height), (width, height));
        }
        assert!(frame.left + frame.width <= width && frame.top + frame.height <= height);
        frames += 1;
    }
    assert!(frames >= 10, "{frames} frames");
    let svg = String::from_utf8(bytes_of(&["board", "duel", "--svg", "-"])).unwrap();
    let (w, h) = svg_size(&svg);
    assert_eq!((u32::from(width), u32::from(height)), (w, h));
}

fn files(dir: &str) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with("err_"))
        .collect();
    found.sort();
    found
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("robots-pictures-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Every shipped match drawn at its end and after round 1, as SVG and PNG, with its usual
/// result printed all the same.
#[test]
fn every_shipped_match_draws() {
    let (svg, png) = (temp("match.svg"), temp("match.png"));
    for path in files("matches") {
        let m = path.display().to_string();
        for round in [None, Some("1")] {
            let mut args = vec!["run", &m, "--svg", svg.to_str().unwrap()];
            args.extend(["--png", png.to_str().unwrap()]);
            if let Some(r) = round {
                args.extend(["--round", r]);
            }
            let o = robots(&args);
            assert!(o.status.success(), "{m}: {}", stderr(&o));
            assert!(stdout(&o).contains("robots left:"), "{m}");
            assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg "));
            assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
        }
    }
}

/// Every shipped board of the three games, and every Ricochet position of the tests, drawn.
#[test]
fn every_shipped_board_and_position_draws() {
    let png = temp("board.png");
    let png = png.to_str().unwrap();
    let mut commands: Vec<Vec<String>> = Vec::new();
    for board in files("boards") {
        commands.push(vec!["board".into(), board.display().to_string()]);
    }
    for board in files("boards/micro") {
        commands.push(vec![
            "micro".into(),
            "board".into(),
            board.display().to_string(),
        ]);
    }
    commands.push(vec![
        "ricochet".into(),
        "board".into(),
        "boards/ricochet/ricochets-10x8.yaml".into(),
    ]);
    for position in files("tests/ricochet") {
        commands.push(vec![
            "ricochet".into(),
            "board".into(),
            position.display().to_string(),
        ]);
    }
    for mut command in commands {
        command.extend(["--png".into(), png.into()]);
        let args: Vec<&str> = command.iter().map(String::as_str).collect();
        let o = robots(&args);
        assert!(o.status.success(), "{command:?}: {}", stderr(&o));
        assert!(
            stdout(&o).is_empty(),
            "{command:?}: the picture replaces the drawing"
        );
        assert!(stderr(&o).starts_with("wrote PNG picture"), "{command:?}");
        assert!(std::fs::read(png).unwrap().starts_with(b"\x89PNG"));
    }
    let o = robots(&[
        "ricochet",
        "board",
        "tests/ricochet/vortex-any-robot.yaml",
        "--solution",
        "--svg",
        "-",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("<path d=\"M"), "an arrow");
}

/// The largest board (200 x 80 hexes) gets smaller hexes: its PNG stays within 4096 pixels
/// a side.
#[test]
fn the_largest_board_stays_bounded() {
    let row = |r: usize| {
        let cells = vec!["."; 200].join(" ");
        if r % 2 == 1 {
            format!("   {cells}\n")
        } else {
            format!("  {cells}\n")
        }
    };
    let map: String = (0..80).map(row).collect();
    let file = temp("largest.yaml");
    std::fs::write(&file, format!("name: largest\nmap: |\n{map}")).unwrap();
    let png = bytes_of(&["board", file.to_str().unwrap(), "--png", "-"]);
    let pixmap = resvg::tiny_skia::Pixmap::decode_png(&png).unwrap();
    assert!(pixmap.width() <= 4096 && pixmap.height() <= 4096);
    assert!(pixmap.width() >= 2000, "{}", pixmap.width());
}

#[test]
fn picture_flags_that_cannot_work_are_refused() {
    for args in [
        &["run", "--round", "3"][..],
        &["run", "--svg", "-", "--png", "-"],
        &["run", "--svg", "-", "--json"],
        &["board", "duel", "--svg", "-", "--png", "-"],
        &[
            "ricochet",
            "board",
            "tests/ricochet/vortex-any-robot.yaml",
            "--solution",
        ],
        &[
            "ricochet",
            "board",
            "boards/ricochet/ricochets-10x8.yaml",
            "--solution",
            "--svg",
            "-",
        ],
    ] {
        let o = robots(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(!stderr(&o).is_empty(), "{args:?} says why");
    }
}
