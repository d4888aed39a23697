//! The replay page (`robots run --html`, docs/VIEWER.md): its document is the engine's match
//! turn by turn, keeps a pending signal's step secret (R-A23), stays small, and text from
//! files cannot break out of the page's script element. The page in a browser is tested by
//! web/test/e2e.mjs.

use crate::support::{load_match, robots, root, stderr, stdout};
use robots_games::battle::engine::{Event, Match};
use robots_games::battle::show::view::{
    MAX_DOC_BYTES, MemoryState, RobotState, ViewError, view_doc,
};
use std::path::PathBuf;

fn shipped_matches() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("matches"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    assert!(files.len() >= 5);
    files
}

/// Each frame, with the robots that did not change carried over, is the state the engine
/// reaches after that many robot turns (memories too, under the TI-57 rule); its log lines
/// are the turn's events.
#[test]
fn every_frame_is_the_engine_state_after_that_turn() {
    let ti57 = root().join("tests/viewer/ti57.yaml");
    for file in shipped_matches().into_iter().chain([ti57]) {
        let setup = load_match(&file).unwrap();
        let doc = view_doc(&setup, 100_000, MAX_DOC_BYTES).unwrap();
        let mut game = Match::new(&setup).unwrap();
        assert_eq!(doc.frames[0].d.len(), game.robots().len(), "{file:?}");
        assert_eq!(doc.keywords, setup.rules.keywords.name());
        let rule = doc.keywords == "ti57";
        assert_eq!(
            doc.frames[0].m.len(),
            if rule { doc.robots.len() } else { 0 }
        );
        let mut known: Vec<Option<RobotState>> = vec![None; game.robots().len()];
        let mut memories: Vec<Option<MemoryState>> = vec![None; game.robots().len()];
        for (turn, frame) in doc.frames.iter().enumerate() {
            if turn > 0 {
                let events = game.step();
                let log: String = events.iter().map(Event::log_line).collect();
                assert_eq!(frame.l, log, "{file:?} turn {turn}");
                assert_eq!(frame.e.len(), events.len());
            }
            for d in &frame.d {
                known[d.0] = Some(d.clone());
            }
            for m in &frame.m {
                assert!(rule, "{file:?}: memories only under the TI-57 rule");
                memories[m.0] = Some(m.clone());
            }
            for id in game.robot_ids() {
                let r = game.robot(id);
                let (col, row) = game.board().offset(r.cell);
                let expected = RobotState(
                    id.index(),
                    col,
                    row,
                    r.facing.number(),
                    u8::from(r.alive),
                    r.shots,
                    r.pointer,
                    game.next_step(id),
                    r.destroyed_steps(),
                    u8::from(r.pending_signal.is_some()),
                );
                assert_eq!(
                    known[id.index()].as_ref(),
                    Some(&expected),
                    "{file:?} {turn}"
                );
                let memory = game.memories(id).map(|c| {
                    let back = c.remembered().to_vec();
                    MemoryState(id.index(), c.x, c.t, c.r, back, u8::from(c.stopped))
                });
                assert_eq!(memories[id.index()], memory, "{file:?} {turn}");
            }
            assert_eq!(frame.r, game.clock().round);
            assert_eq!(frame.n, game.next_robot().map(|id| id.index()));
            let acting = game
                .next_robot()
                .map_or(0, |id| game.program(id).tests.iter().flatten().count());
            assert_eq!(frame.a.len(), acting);
        }
        assert!(game.is_over(), "{file:?}: the page shows the whole match");
        let end = doc.end.as_ref().unwrap();
        assert_eq!(end.verdict, game.outcome().unwrap().verdict());
    }
}

/// R-A23: the recipient of a signal is public, its step is not until it acts. The page says
/// a signal is pending, and has the step only in the event of the turn it acts.
#[test]
fn a_pending_signals_step_is_not_in_the_page_r_a23() {
    for file in ["matches/default.yaml", "tests/viewer/ti57.yaml"] {
        pending_signal_is_secret(file);
    }
}

fn pending_signal_is_secret(file: &str) {
    let setup = load_match(&root().join(file)).unwrap();
    let doc = view_doc(&setup, 100_000, MAX_DOC_BYTES).unwrap();
    let pending = doc
        .frames
        .iter()
        .filter(|f| f.d.iter().any(|d| d.9 == 1))
        .count();
    assert!(pending > 0, "{file} sends signals");
    let mut sent = 0;
    for frame in &doc.frames {
        for row in &frame.e {
            let row = serde_json::to_value(row).unwrap();
            let row = row.as_array().unwrap();
            if row[0] == "signal_sent" {
                assert_eq!(row.len(), 2, "code and robot only: {row:?}");
                sent += 1;
            }
        }
        for line in frame.l.lines().filter(|l| l.contains("signal is sent")) {
            assert!(!line.contains("step"), "{line}");
        }
    }
    assert!(sent > 0);
}

#[test]
fn a_match_longer_than_the_limit_is_refused() {
    let setup = load_match(&root().join("matches/default.yaml")).unwrap();
    let error = view_doc(&setup, 10, MAX_DOC_BYTES).unwrap_err();
    assert_eq!(error, ViewError::TooLong { max_turns: 10 });
    assert!(
        error.to_string().contains("more than 10 robot turns"),
        "{error}"
    );
    // 20,000 rounds of eight robots: refused at robot turn 100,000, before any page is written.
    let o = robots(&[
        "run",
        "--rounds",
        "20000",
        "tests/viewer/long.yaml",
        "--html",
        "-",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("more than 100000 robot turns"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).is_empty());
}

/// One file, no request: no element loads anything; the same match gives the same bytes; a
/// 200-round match of eight robots stays well under 3 MB.
#[test]
fn the_page_is_one_small_file_the_same_every_time() {
    let page = |args: &[&str]| {
        let o = robots(args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stdout(&o)
    };
    let first = page(&["run", "--html", "-"]);
    assert_eq!(first, page(&["run", "--html", "-"]));
    assert!(first.starts_with("<!doctype html>"));
    for loads in ["<link", " src=", " href=", "url(", "@import"] {
        assert!(!first.contains(loads), "{loads}");
    }
    assert!(first.len() < 300_000, "{} bytes", first.len());
    let long = page(&["run", "tests/viewer/long.yaml", "--html", "-"]);
    assert!(long.len() < 3_000_000, "{} bytes", long.len());
    let o = robots(&["run", "--html", "x.html", "--log"]);
    assert_eq!(o.status.code(), Some(2), "--html and --log conflict");
}

/// Text from files (a match's name here; a program's origin in the binary's unit test) is
/// data: `</script>` and `<!--` in it cannot end the page's script element early.
#[test]
fn text_from_files_cannot_close_the_script_element() {
    let dir = std::env::temp_dir().join(format!("robots-viewer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let name = "</script><script>alert(1)</script><!-- x";
    let file = dir.join("m.yaml");
    let text = format!(
        "name: '{name}'\nboard: duel\nteams:\n  - colour: green\n    robots: [{{code: \"1: R+1\\n\"}}]\n  - colour: violet\n    robots: [{{code: \"1: T\\n\"}}]\n"
    );
    std::fs::write(&file, text).unwrap();
    let o = robots(&["run", &file.display().to_string(), "--html", "-"]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let html = stdout(&o);
    assert_eq!(html.to_ascii_lowercase().matches("</script").count(), 2);
    assert!(!html.contains("<!--"));
    let open = "<script id=\"match-data\" type=\"application/json\">";
    let data = &html[html.find(open).unwrap() + open.len()..];
    let data = &data[..data.find("</script>").unwrap()];
    let doc: serde_json::Value = serde_json::from_str(data).unwrap();
    assert_eq!(doc["name"], name);
    assert!(html.contains("<title>&lt;/script&gt;&lt;script&gt;alert(1)"));
}

/// Under the TI-57 rule (RULES A.12) the document has the rule, each robot's memories and
/// remembered returns, `x = TERM` steps with their term, and a `calc` row for each keyword
/// read with the words of its log line; a plain match has neither.
#[test]
fn a_ti57_match_shows_memories_returns_and_calc_rows() {
    let setup = load_match(&root().join("tests/viewer/ti57.yaml")).unwrap();
    let doc = view_doc(&setup, 100_000, MAX_DOC_BYTES).unwrap();
    let json = serde_json::to_value(&doc).unwrap();
    assert_eq!(json["v"], 3);
    assert!(json["seed"].is_string(), "a 64-bit seed is a string");
    assert_eq!(json["keywords"], "ti57");
    assert_eq!(json["robots"][0]["steps"][7], "x = count(enemy anywhere)");
    assert_eq!(
        json["frames"][0]["m"][0],
        serde_json::json!([0, 0, 0, [0, 0, 0, 0, 0, 0, 0, 0], [], 0])
    );
    // Turn 8: R0 counted down to 0 by DSZ, x = 3, two returns remembered (SBR 2, SBR 3).
    assert_eq!(
        json["frames"][8]["m"],
        serde_json::json!([[0, 3, 0, [0, 0, 0, 0, 0, 0, 0, 0], [8, 14], 0]])
    );
    // Turn 12: R/S.
    assert_eq!(
        json["frames"][12]["m"],
        serde_json::json!([[0, 0, 1, [0, 0, 0, 0, 0, 0, 0, 0], [], 1]])
    );
    assert!(json["frames"][1].get("m").is_none(), "no change, no key");
    let mut calcs = 0;
    for frame in &doc.frames {
        for row in &frame.e {
            let row = serde_json::to_value(row).unwrap();
            let row = row.as_array().unwrap();
            if row[0] == "calc" {
                let (robot, step, words) = (&row[1], &row[2], row[4].as_str().unwrap());
                let name = &doc.robots[usize::try_from(robot.as_u64().unwrap()).unwrap()].name;
                let line = format!("  {name} step {step}: {words}\n");
                assert!(frame.l.contains(&line), "{line:?} not in {:?}", frame.l);
                calcs += 1;
            }
        }
    }
    assert!(calcs > 10, "{calcs} calc rows");
    assert_eq!(
        json["frames"][12]["e"][1],
        serde_json::json!(["calc", 0, 11, "stop", "R/S, the program stops"])
    );
    let idle = &json["frames"][14]["e"][1];
    assert_eq!(idle, &serde_json::json!(["idle", 0, 11, "stopped"]));

    let plain = load_match(&root().join("matches/duel.yaml")).unwrap();
    let json = serde_json::to_value(view_doc(&plain, 100_000, MAX_DOC_BYTES).unwrap()).unwrap();
    assert_eq!(json["keywords"], "plain");
    let frames = json["frames"].as_array().unwrap();
    assert!(frames.iter().all(|f| f.get("m").is_none()));
}

/// One palette (issue 31): the page draws with `web/js/palette.js`, which must be what the
/// crate writes from the palette its SVG pictures use. Run with `ROBOTS_WRITE_PALETTE=1` to
/// write the file after a change of `crates/games/src/text/palette.rs`.
#[test]
fn the_page_and_the_pictures_share_one_palette() {
    let path = root().join("web/js/palette.js");
    let written = robots_games::text::palette::web_script();
    if std::env::var_os("ROBOTS_WRITE_PALETTE").is_some() {
        std::fs::write(&path, &written).unwrap();
    }
    let file = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        file, written,
        "web/js/palette.js is not the crate's palette"
    );
    // And the pictures draw with it: a camp's team colour, a lake, plain ground.
    let svg = robots_games::battle::show::svg::board(
        &robots_games::battle::files::board_file::parse_board(
            "b",
            robots_games::battle::files::shipped::board("classic").unwrap(),
        )
        .unwrap(),
    );
    for colour in [
        robots_games::text::palette::PAPER,
        robots_games::text::palette::LAKE,
        "#2e9e44",
    ] {
        assert!(svg.contains(colour) && file.contains(colour), "{colour}");
    }
}
