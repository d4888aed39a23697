//! Pictures (docs/FORMATS.md, "Pictures"): the SVG of each game snapshotted on small inputs,
//! PNGs and GIFs decoded from the binary, every shipped match, board and position drawn.

use crate::support::{load_match, robots, robots_command, root, stderr, stdout};
use robots_games::battle::engine::{Event, Match};
use robots_games::battle::files::board_file::parse_board;
use robots_games::battle::show::svg;
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
    let caption = svg::Caption::game(&setup);
    snapshot!("duel-explosion.svg", svg::state(&m, &events, &caption));
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
    let caption = svg::Caption::game(&setup);
    let picture = svg::state(&m, &last, &caption);
    assert!(picture.contains(&format!("stroke=\"{}\"", svg::SHOT)));
    assert_eq!(
        picture,
        svg::state(&m, &last, &caption),
        "the same state, the same bytes"
    );
}

#[test]
fn a_ricochet_position_with_its_solution() {
    let path = root().join("tests/ricochet/transparent-robot-crosses-a-wall.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let base = path.parent().unwrap().to_path_buf();
    let p = robots_games::ricochet::files::parse("position.yaml", &text, &|name| {
        std::fs::read_to_string(base.join(name)).map_err(|e| e.to_string())
    })
    .unwrap();
    let solution = robots_games::ricochet::solve::solve(&p, 10).unwrap();
    snapshot!(
        "ricochet-transparent.svg",
        robots_games::ricochet::draw::svg::position(&p, &solution.solution)
    );
}

#[test]
fn a_micro_robots_board() {
    let face = crate::support::micro_face("silver").unwrap();
    let board = robots_games::micro::Board::arrange(&face, robots_games::micro::Arrangement::PLAIN);
    snapshot!("micro-silver.svg", robots_games::micro::svg::board(&board));
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

/// Decodes a GIF and lays each frame over the ones before (a frame's transparent pixels
/// leave what was there): the picture after each frame, as RGBA.
fn gif_pictures(gif: &[u8]) -> (u16, u16, Vec<Vec<u8>>) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(gif).unwrap();
    let (width, height) = (decoder.width(), decoder.height());
    let mut canvas = vec![0u8; usize::from(width) * usize::from(height) * 4];
    let mut pictures = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        assert!(frame.left + frame.width <= width && frame.top + frame.height <= height);
        if pictures.is_empty() {
            assert_eq!((frame.width, frame.height), (width, height));
            assert!(
                frame.buffer.chunks_exact(4).all(|p| p[3] == 255),
                "the first frame is whole"
            );
        }
        for (i, px) in frame.buffer.chunks_exact(4).enumerate() {
            let (x, y) = (i % usize::from(frame.width), i / usize::from(frame.width));
            let at =
                ((usize::from(frame.top) + y) * usize::from(width) + usize::from(frame.left) + x)
                    * 4;
            if px[3] == 255 {
                canvas[at..at + 4].copy_from_slice(px);
            }
        }
        pictures.push(canvas.clone());
    }
    (width, height, pictures)
}

/// How many pixels of `rgba` in rows `rows` are the colour `#rrggbb`.
fn count_colour(rgba: &[u8], width: u16, rows: std::ops::Range<usize>, hex: &str) -> usize {
    let c = u32::from_str_radix(hex.trim_start_matches('#'), 16)
        .unwrap()
        .to_be_bytes();
    let stride = usize::from(width) * 4;
    rgba[rows.start * stride..rows.end * stride]
        .chunks_exact(4)
        .filter(|p| p[..3] == c[1..])
        .count()
}

/// The GIF of the duel: a frame for each turn that changes the picture, each the rectangle
/// that changed with what stays transparent; laid over each other they end on the result
/// banner in the winner's colour, where the first frame showed the goal.
#[test]
fn a_gif_of_the_duel_has_a_frame_per_visible_turn() {
    let gif = bytes_of(&["run", "matches/duel.yaml", "--gif", "-"]);
    assert_eq!(gif, bytes_of(&["run", "matches/duel.yaml", "--gif", "-"]));
    let (width, height, pictures) = gif_pictures(&gif);
    assert!(pictures.len() >= 10, "{} frames", pictures.len());
    let setup = load_match(Path::new("matches/duel.yaml")).unwrap();
    let m = Match::new(&setup).unwrap();
    let backdrop = svg::backdrop(&m, &svg::Caption::game(&setup));
    let (w, h) = svg_size(&backdrop);
    assert_eq!((u32::from(width), u32::from(height)), (w, h));
    // The status banner under the title (2.45 to 3.45 hex radii of 20 pixels).
    let banner = 50..68;
    let violet = svg::team_colour(robots_games::battle::terrain::TeamColour::Violet);
    let (first, last) = (&pictures[0], pictures.last().unwrap());
    assert_eq!(count_colour(first, width, banner.clone(), violet), 0);
    assert!(
        count_colour(last, width, banner, violet) > 2000,
        "violet wins"
    );
    let size = resvg::tiny_skia::IntSize::from_wh(width.into(), height.into()).unwrap();
    let pixmap = resvg::tiny_skia::Pixmap::from_vec(last.clone(), size).unwrap();
    pixmap.save_png(temp("duel-last-frame.png")).unwrap();
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

/// A PNG frame of a match reads on its own: the goal on a plain banner before play, the
/// result on the winner's colour at the end, and each team's name on its colour under the
/// board.
#[test]
fn a_match_frame_names_the_round_the_teams_and_the_result() {
    let decode = |png: &[u8]| resvg::tiny_skia::Pixmap::decode_png(png).unwrap();
    let start = decode(&bytes_of(&[
        "run",
        "matches/duel.yaml",
        "--png",
        "-",
        "--round",
        "0",
    ]));
    let end = decode(&bytes_of(&["run", "matches/duel.yaml", "--png", "-"]));
    let width = u16::try_from(end.width()).unwrap();
    let height = usize::try_from(end.height()).unwrap();
    // The banner under the title: from 2.45 to 3.45 hex radii of 20 pixels.
    let banner = 50..68;
    let violet = svg::team_colour(robots_games::battle::terrain::TeamColour::Violet);
    let green = svg::team_colour(robots_games::battle::terrain::TeamColour::Green);
    assert_eq!(count_colour(start.data(), width, banner.clone(), violet), 0);
    assert!(count_colour(start.data(), width, banner.clone(), svg::PLAIN) > 4000);
    assert!(
        count_colour(end.data(), width, banner, violet) > 2000,
        "violet wins"
    );
    // The team panel and the key, under the board.
    let below = height - 200..height;
    for (team, colour) in [("green", green), ("violet", violet)] {
        let n = count_colour(end.data(), width, below.clone(), colour);
        assert!(n > 300, "{team}'s banner: {n} pixels");
    }
    let setup = load_match(Path::new("matches/duel.yaml")).unwrap();
    let caption = svg::Caption::game(&setup);
    let m = Match::new(&setup).unwrap();
    let still = svg::state(&m, &[], &caption);
    assert!(still.contains(&robots_games::text::svg::strokes(
        "ROUND 0/200",
        f64::from(width) - 16.0 - robots_games::text::svg::text_width("ROUND 0/200", 16.0) / 2.0,
        18.0,
        16.0
    )));
}

/// A start point is a hollow ring, a circle shape a solid disc; a robot's nose reaches out of
/// its disc almost to the hex's side.
#[test]
fn start_points_circles_and_facings_are_told_apart() {
    let board = parse_board("every.yaml", EVERY_TERRAIN).unwrap();
    let picture = svg::board(&board);
    let start = format!(
        "r=\"4\" fill=\"{}\" stroke=\"{}\"",
        svg::BACKGROUND,
        svg::INK
    );
    assert_eq!(picture.matches(&start).count(), 2, "two start points");
    let circle = format!("r=\"9.6\" fill=\"{}\"/>", svg::INK);
    assert_eq!(picture.matches(&circle).count(), 1, "the black circle");
    let setup = load_match(Path::new("matches/duel.yaml")).unwrap();
    let m = Match::new(&setup).unwrap();
    let picture = svg::state(&m, &[], &svg::Caption::game(&setup));
    let noses = picture
        .lines()
        .filter(|l| l.starts_with("<path") && l.contains("stroke-linejoin=\"round\"/>"))
        .filter(|l| l.contains(&format!("fill=\"{}\"", svg::BACKGROUND)))
        .count();
    assert_eq!(noses, m.robots().len() + 1, "a nose a robot, and the key's");
}

/// Two moves along the same stretch of a row: their arrows go in lanes side by side, and
/// their numbers do not cover each other.
#[test]
fn ricochet_arrows_along_one_stretch_go_side_by_side() {
    use robots_games::ricochet::board::{Colour, Dir};
    use robots_games::ricochet::position::Move;
    let path = root().join("tests/ricochet/hard-24.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let p = robots_games::ricochet::files::parse("hard-24.yaml", &text, &|_| Err(String::new()))
        .unwrap();
    let there_and_back = [Dir::W, Dir::E, Dir::W].map(|dir| Move {
        robot: Colour::Green,
        dir,
        to: None,
    });
    let picture = robots_games::ricochet::draw::svg::position(&p, &there_and_back);
    let green = robots_games::ricochet::draw::svg::colour(Colour::Green);
    let number = |key: &str, line: &str| -> f64 {
        let at = line.find(key).unwrap() + key.len();
        line[at..].split('"').next().unwrap().parse().unwrap()
    };
    let arrows: Vec<f64> = picture
        .lines()
        .filter(|l| l.contains(&format!("fill=\"none\" stroke=\"{green}\"")))
        .map(|l| {
            let start = l.split('"').nth(1).unwrap();
            start[1..]
                .split(['L', ','])
                .nth(1)
                .unwrap()
                .parse()
                .unwrap()
        })
        .collect();
    assert_eq!(arrows.len(), 3, "{picture}");
    for (i, a) in arrows.iter().enumerate() {
        for b in &arrows[i + 1..] {
            assert!((a - b).abs() >= 6.0, "lanes {arrows:?}");
        }
    }
    let rings: Vec<(f64, f64)> = picture
        .lines()
        .filter(|l| l.starts_with("<circle") && l.contains(&format!("stroke=\"{green}\"")))
        .map(|l| (number("cx=\"", l), number("cy=\"", l)))
        .collect();
    let on_board: Vec<&(f64, f64)> = rings.iter().filter(|(_, y)| *y < 680.0).collect();
    assert_eq!(
        on_board.len(),
        3,
        "a number a move, and the list under the board"
    );
    for (i, a) in on_board.iter().enumerate() {
        for b in &on_board[i + 1..] {
            assert!((a.0 - b.0).hypot(a.1 - b.1) >= 17.6, "{a:?} {b:?}");
        }
    }
}

/// The pixels of `text` in the stroke font, `height` pixels high, on a white square.
fn glyph_pixels(text: &str, height: f32) -> Vec<bool> {
    let side = height * 1.5;
    let body = robots_games::text::svg::label(
        text,
        f64::from(side) / 2.0,
        f64::from(side) / 2.0,
        f64::from(height),
        "#000000",
    );
    let svg =
        robots_games::text::svg::document(f64::from(side), f64::from(side), Some("#ffffff"), &body);
    let tree = resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default()).unwrap();
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    pixmap.data().chunks_exact(4).map(|p| p[0] < 128).collect()
}

/// Characters the pictures write that look alike in many small fonts differ here in many
/// pixels at the size of a robot's number (11 pixels): 0 and O and D, 1 and I and L, 5 and S,
/// 8 and B, 2 and Z, 6 and G (a fifth of their ink at least). The font sheet is written next
/// to the other test pictures.
#[test]
fn the_stroke_font_tells_look_alikes_apart() {
    let sheet = [
        "0123456789",
        "ABCDEFGHIJKLM",
        "NOPQRSTUVWXYZ",
        "0O D 1I L 5S 8B 2Z 6G",
        "(GREEN) 3/200: X·Y, Z+1",
    ];
    let mut body = String::new();
    for (row, text) in (0u32..).zip(sheet) {
        let y = 30.0 + 44.0 * f64::from(row);
        body.push_str(&robots_games::text::svg::words(
            text, 12.0, y, 28.0, "#222222",
        ));
    }
    let svg = robots_games::text::svg::document(600.0, 240.0, Some("#ffffff"), &body);
    let tree = resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default()).unwrap();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(600, 240).unwrap();
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    pixmap.save_png(temp("font.png")).unwrap();
    let groups = ["0OD", "1IL", "5S", "8B", "2Z", "6G", "UV"];
    for group in groups {
        let chars: Vec<char> = group.chars().collect();
        for (i, a) in chars.iter().enumerate() {
            for b in &chars[i + 1..] {
                let (pa, pb) = (
                    glyph_pixels(&a.to_string(), 11.0),
                    glyph_pixels(&b.to_string(), 11.0),
                );
                let differ = pa.iter().zip(&pb).filter(|(x, y)| x != y).count();
                let ink = pa
                    .iter()
                    .filter(|x| **x)
                    .count()
                    .min(pb.iter().filter(|x| **x).count());
                assert!(
                    differ * 5 >= ink,
                    "{a} and {b}: {differ} pixels differ of {ink}"
                );
            }
        }
    }
    for c in "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ()/-+:.,·×".chars() {
        assert!(robots_games::text::svg::has_glyph(c), "{c}");
    }
    assert!(!robots_games::text::svg::has_glyph('é'), "drawn as ?");
}
