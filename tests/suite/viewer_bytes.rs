//! The replay page's document written as JSON as it is played (issue 50): the same bytes as
//! the document built and then serialised, the same bytes as before the change, the same
//! bound on its size, and the answers of the compiled tests those of the tree walk.

use crate::support::{load_match, root};
use robots_games::battle::compare::bench;
use robots_games::battle::engine::{Match, MatchSetup};
use robots_games::battle::show::view::{MAX_DOC_BYTES, ViewError, view_doc, view_json};

/// FNV-1a, 64 bits: the same digest is the same bytes.
fn digest(docs: &[Vec<u8>]) -> u64 {
    let mut d = 0xcbf2_9ce4_8422_2325_u64;
    for &b in docs.iter().flatten() {
        d = (d ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    d
}

/// The shipped matches and the viewer's test matches (TI-57 ones among them); 144 matches of
/// `robots bench`'s workload (four seeds of each of its 36 pairings).
fn setups() -> (Vec<MatchSetup>, Vec<MatchSetup>) {
    let mut files: Vec<_> = ["matches", "tests/viewer"]
        .iter()
        .flat_map(|d| std::fs::read_dir(root().join(d)).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    let files = files.iter().map(|f| load_match(f).unwrap()).collect();
    let workload = bench::workload().unwrap();
    let games = (0..4)
        .flat_map(|seed| {
            workload
                .iter()
                .map(move |s| MatchSetup { seed, ..s.clone() })
        })
        .collect();
    (files, games)
}

/// The digests were taken from `view_doc` before the document was written as it is played
/// (commit 7e98312): a change of these bytes is a change of the page's format
/// (docs/VIEWER.md), to be made in `web/js` too.
#[test]
fn the_document_is_written_as_played_the_same_bytes_as_before() {
    let (files, games) = setups();
    for (setups, before) in [
        (files, 0x856f_394a_b140_d590),
        (games, 0x5ee1_c935_908f_3d6b),
    ] {
        let mut built = Vec::new();
        for s in &setups {
            let doc = view_doc(s, 100_000, MAX_DOC_BYTES).unwrap();
            let written = view_json(s, 100_000, MAX_DOC_BYTES).unwrap();
            let json = serde_json::to_vec(&doc).unwrap();
            assert!(
                json == written.json,
                "{}: written as played, other bytes",
                s.name
            );
            let robots = serde_json::to_vec(&written.robot_views).unwrap();
            assert_eq!(json[written.robots], robots[..], "{}", s.name);
            assert_eq!(written.turns, doc.frames.len() as u64 - 1);
            built.push(json);
        }
        assert_eq!(digest(&built), before, "{} documents", built.len());
    }
}

/// Both refuse a document at the same byte: the bound counts the robots, the board and every
/// frame, each `<` as the six bytes of `\u003c`.
#[test]
fn the_document_written_as_played_has_the_same_bound() {
    let setup = load_match(&root().join("matches/default.yaml")).unwrap();
    let (mut fits, mut over) = (MAX_DOC_BYTES, 0);
    while fits - over > 1 {
        let mid = u64::midpoint(fits, over);
        match view_doc(&setup, 100_000, mid) {
            Ok(_) => fits = mid,
            Err(e) => {
                assert_eq!(e, ViewError::TooBig { max_bytes: mid });
                over = mid;
            }
        }
    }
    assert!(fits > 10_000, "{fits}");
    assert!(view_json(&setup, 100_000, fits).is_ok());
    let refused = view_json(&setup, 100_000, over).unwrap_err();
    assert_eq!(refused, ViewError::TooBig { max_bytes: over });
    let long = view_json(&setup, 10, MAX_DOC_BYTES).unwrap_err();
    assert_eq!(long, ViewError::TooLong { max_turns: 10 });
}

/// The next robot's answers in every frame (`a`) are asked from the compiled tests: the same
/// as the tree walk's (`Match::evaluate`), for every robot after every turn.
#[test]
fn the_compiled_answers_are_the_tree_walks() {
    let (files, games) = setups();
    let mut asked = 0;
    for setup in files.iter().chain(&games) {
        let mut game = Match::new(setup).unwrap();
        while !game.is_over() && game.turns_played() < 2_000 {
            game.step();
            for id in game.robot_ids() {
                let tests = &game.program(id).tests;
                let tree = tests
                    .each_ref()
                    .map(|t| t.as_ref().map(|t| game.evaluate(id, &t.condition)));
                assert_eq!(
                    game.test_answers(id),
                    tree,
                    "{} robot {}",
                    setup.name,
                    id.index()
                );
                asked += 1;
            }
        }
    }
    assert!(asked > 100_000, "{asked}");
}
