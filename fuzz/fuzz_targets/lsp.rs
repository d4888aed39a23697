//! Random edits to a program's text, and after each every question an editor asks of it
//! (`battle::lang::editor`, what `robots lsp` answers) at a random position, in the plain
//! language and with the TI-57 keywords: never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use robots_games::battle::lang::Keywords;
use robots_games::battle::lang::editor::{self, Position};

const START: &str = "name: f\n1: ?1\n2: GO 4\n3: R+1\n4: T\n5: RAZ\ntest 1: enemy ahead within 2\n";

fuzz_target!(|data: &[u8]| {
    let mut text = String::from(START);
    // Each edit: where (line, column), how much to remove, the keywords and a place to ask
    // about, then up to 4 bytes to insert.
    for edit in data.chunks(8) {
        let [line, column, removed, asked, insert @ ..] = edit else {
            break;
        };
        let from = Position {
            line: u32::from(line % 16),
            character: u32::from(*column),
        };
        let to = Position {
            character: from.character + u32::from(removed % 8),
            ..from
        };
        let start = editor::offset(&text, from);
        let end = editor::offset(&text, to).max(start);
        text.replace_range(start..end, &String::from_utf8_lossy(insert));
        let keywords = if asked & 1 == 0 {
            Keywords::Plain
        } else {
            Keywords::Ti57
        };
        let at = Position {
            line: u32::from(asked >> 4),
            character: u32::from(*removed),
        };
        let _ = editor::diagnostics(&text, keywords);
        let _ = editor::hover(&text, at);
        let _ = editor::definition(&text, at);
        let _ = editor::completions(&text, keywords, at);
        let _ = editor::symbols(&text);
        let _ = editor::end(&text);
        if let Some(formatted) = editor::format(&text) {
            let _ = editor::format(&formatted);
        }
    }
});
