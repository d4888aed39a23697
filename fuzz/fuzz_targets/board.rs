//! Any text through the board file reader: a board or a diagnostic; never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use robots_games::battle::files::board_file;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = board_file::parse_board("b.yaml", &text);
});
