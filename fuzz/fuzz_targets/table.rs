//! A game at the table (`robots play`) on the shipped duel match with both teams at the
//! table; each input line is one answer to the question of the moment (placements, `undo`,
//! `start`, signals, `skip`, saving), the match played between questions. To keep one input
//! fast the target (not the library) refuses inputs over 4 KiB, takes at most 64 lines and
//! plays at most 2,000 robot turns.
#![no_main]

use libfuzzer_sys::fuzz_target;
use robots_games::battle::live::hot_seat::{HotSeat, Phase};
use robots_games::battle::terrain::TeamColour;
use robots_games::battle::files::match_file;
use robots_games::text::confine::Confine;

const MAX_INPUT: usize = 4096;
const MAX_LINES: usize = 64;
const MAX_TURNS: usize = 2000;

fuzz_target!(|data: &[u8]| {
    if data.len() > MAX_INPUT {
        return;
    }
    let text = String::from_utf8_lossy(data);
    let no_files = |_: &std::path::Path| -> std::io::Result<Vec<u8>> {
        Err(std::io::Error::new(std::io::ErrorKind::NotFound, "no files"))
    };
    let source = include_str!("../../matches/duel.yaml");
    let Ok(setup) = match_file::parse_match("matches/duel.yaml", source, &no_files, Confine::Inside)
    else {
        panic!("the shipped duel match loads");
    };
    let Ok(mut table) = HotSeat::new(setup, &[TeamColour::Green, TeamColour::Violet]) else {
        panic!("two players sit at the duel");
    };
    let mut turns = 0;
    for line in text.lines().take(MAX_LINES) {
        while table.phase() == Phase::Play && turns < MAX_TURNS {
            let _ = table.step();
            turns += 1;
        }
        let phase = table.phase();
        let answered = table.answer(line);
        // A refused answer changes nothing: the same question is asked again.
        if answered.is_err() {
            assert_eq!(table.phase(), phase, "a refusal changed the question: {line:?}");
        }
        // A saved game is a match that starts (what `robots run` will play).
        if table.phase() == Phase::Over {
            let saved = table.saved_setup().expect("the match has started");
            assert!(robots_games::battle::engine::Match::new(&saved).is_ok());
            if let Some(file) = table.match_file() {
                assert!(match_file::parse_match("saved.yaml", &file, &no_files, Confine::Inside).is_ok(), "{file}");
            }
        }
    }
});
