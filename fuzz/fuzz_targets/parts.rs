//! Any bytes as a hill's settings file (`hill_file::parse_hill`), and as a sharded
//! tournament's parts and a hill's results: gzip told by its first bytes and inflated
//! through the library's bounded line reader (`text::lines`, with the budget the binary
//! uses), the first line as a part's header, every other as a match
//! line; then the merge's gaps and the standings of what was merged, as `robots tournament
//! merge --partial` prints them. The same lines read as a hill's results against a fixed
//! field. Never a panic, and never more memory than the header's bounded fields allow.
#![no_main]

use libfuzzer_sys::fuzz_target;
use robots_games::battle::compare::tournament::parts::{
    Field, MAX_HEADER_BYTES, MAX_LINE_BYTES, Merge, PART_BUDGET, Results,
};
use robots_games::battle::compare::tournament::hill_file::parse_hill;
use robots_games::battle::compare::tournament::standings;
use robots_games::text::lines::{Lines, decompressing};

fn hill_field() -> Field {
    Field {
        format_version: 1,
        programs: vec!["hunter".into(), "sentinel".into(), "sniper".into()],
        board: "classic".into(),
        scenario: 1,
        robots: 3,
        rounds: 200,
        seeds: [1, 2],
    }
}

fuzz_target!(|data: &[u8]| {
    // The same bytes as a hill's settings file (`hill.yaml`): checked, or an error at a key.
    let _ = parse_hill("hill.yaml", &String::from_utf8_lossy(data));
    let Ok(reader) = decompressing(data) else {
        return;
    };
    let mut lines = Lines::new(reader, PART_BUDGET, "a tournament part");
    let Ok(Some(first)) = lines.next(MAX_HEADER_BYTES) else {
        return;
    };
    let field = hill_field();
    let mut merge = Merge::new();
    let mut results = Results::new(&field);
    let header = merge.header("part", &first);
    let _ = results.line(1, &first);
    while let Ok(Some(text)) = lines.next(MAX_LINE_BYTES) {
        if header.is_ok() {
            let _ = merge.line(&text);
        }
        let _ = results.line(lines.number(), &text);
    }
    let on_hill = results.finish();
    let _ = standings(&field.programs, &on_hill);
    if let Ok(merged) = merge.finish() {
        let _ = merged.gaps();
        let _ = standings(&merged.field.programs, &merged.results);
    }
});
