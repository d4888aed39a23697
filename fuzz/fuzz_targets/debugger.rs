//! A live debugger session on the shipped default match; each input line is one command.
//! To keep one input fast the target (not the library) refuses inputs over 4 KiB, runs at
//! most 64 lines, and skips lines with a number above 10,000.
#![no_main]

use libfuzzer_sys::fuzz_target;
use robots_games::battle::{live::debug::Session, files::match_file, files::shipped};
use robots_games::text::confine::Confine;

const MAX_INPUT: usize = 4096;
const MAX_LINES: usize = 64;
const MAX_NUMBER: u64 = 10_000;

/// Whether every run of ASCII digits in `line` is at most `MAX_NUMBER`.
fn small_numbers(line: &str) -> bool {
    line.split(|c: char| !c.is_ascii_digit())
        .filter(|run| !run.is_empty())
        .all(|run| run.len() <= 6 && run.parse::<u64>().is_ok_and(|n| n <= MAX_NUMBER))
}

fuzz_target!(|data: &[u8]| {
    if data.len() > MAX_INPUT {
        return;
    }
    let text = String::from_utf8_lossy(data);
    let loader = Box::new(|| {
        let (file, source) = shipped::DEFAULT_MATCH;
        match_file::parse_match(
            file,
            source,
            &|_| {
                Err(std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "no files",
                ))
            },
            Confine::Inside,
        )
    });
    let Ok(mut session) = Session::new(loader) else {
        panic!("the shipped default match loads");
    };
    for line in text.lines().filter(|l| small_numbers(l)).take(MAX_LINES) {
        if session.run_line(line).quit {
            break;
        }
    }
});
