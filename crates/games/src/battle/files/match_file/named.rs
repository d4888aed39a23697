//! The files a match file names (boards and programs): read through the reader, relative to
//! the match file and only where the [`Confine`] policy allows; a file outside the match
//! file's folder (once links are followed) is never quoted in an error.

use crate::battle::board::Board;
use crate::battle::files::shipped;
use crate::text::confine::{Confine, Fetched};
use crate::text::diagnostic::Diagnostic;
use std::path::{Path, PathBuf};

/// Reads files named by a match file (boards, programs). The path has passed the
/// [`Confine`] policy given to the reader of the match; the reader should still bound what
/// it reads (the binary stops past [`crate::text::MAX_INPUT_BYTES`]; larger texts are
/// refused here).
pub type Reader<'a> = dyn Fn(&Path) -> std::io::Result<Vec<u8>> + 'a;

/// A [`Reader`] that also says whether a file lies outside the match file's folder once
/// links are followed ([`Fetched`]): the binary's, so that errors about such a file show
/// nothing of its content.
pub type Fetcher<'a> = dyn Fn(&Path) -> std::io::Result<Fetched> + 'a;

/// Where the files a match names come from: the match file's folder, the reader, the policy.
pub(super) struct Named<'a> {
    pub(super) base: PathBuf,
    pub(super) read: &'a Fetcher<'a>,
    pub(super) confine: Confine,
}

/// The text of a file named by the match file (relative to it), and the name its
/// diagnostics use. `kind` and `shipped` make the error say what could be named instead.
/// The path is checked against the policy before anything is read.
fn read_referenced(
    kind: &str,
    name: &str,
    shipped: &[&str],
    ctx: &Named,
) -> Result<Referenced, String> {
    ctx.confine.check(name).map_err(|e| e.to_string())?;
    let path: PathBuf = ctx.base.join(name);
    let shown = path.display().to_string();
    let fetched = (ctx.read)(&path).map_err(|e| {
        format!(
            "cannot read {kind} `{shown}`: {e} (shipped {kind}s: {})",
            shipped.join(", ")
        )
    })?;
    let outside = fetched.outside;
    let text = crate::text::diagnostic::text_from_bytes(&shown, fetched.bytes)
        .map_err(|d| private(d, outside).to_string())?;
    Ok(Referenced {
        text,
        shown,
        outside,
    })
}

/// A file the match names, read.
pub(super) struct Referenced {
    pub(super) text: String,
    /// The name its diagnostics use.
    pub(super) shown: String,
    /// Outside the match file's folder: its diagnostics show nothing of it.
    pub(super) outside: bool,
}

/// `d` as shown for a file inside the folder, or without its content for one outside.
pub(super) fn private(d: Diagnostic, outside: bool) -> Diagnostic {
    if outside { d.without_content() } else { d }
}

/// A shipped board by name (`classic`), or a board file relative to the match file.
pub(super) fn load_board(name: &str, ctx: &Named) -> Result<Board, String> {
    if let Some(text) = shipped::board(name) {
        return crate::battle::files::board_file::parse_board(&format!("boards/{name}.yaml"), text)
            .map_err(|d| d.to_string());
    }
    let file = read_referenced("board", name, &shipped::BOARDS.map(|(n, _)| n), ctx)?;
    crate::battle::files::board_file::parse_board(&file.shown, &file.text)
        .map_err(|d| format!("in the board file:\n{}", private(d, file.outside)))
}

/// A program's text and the name its diagnostics use (and whether it is outside the folder).
pub(super) fn program_source(name: &str, ctx: &Named) -> Result<Referenced, String> {
    if let Some(text) = shipped::program(name) {
        return Ok(Referenced {
            text: text.to_string(),
            shown: format!("programs/{name}.robot"),
            outside: false,
        });
    }
    let shipped = shipped::PROGRAMS.map(|(n, _)| n);
    match read_referenced("program", name, &shipped, ctx) {
        // `rookie` for `rookie.robot`, as at the command line.
        Err(e) if Path::new(name).extension().is_none() => {
            read_referenced("program", &format!("{name}.robot"), &shipped, ctx).map_err(|_| e)
        }
        read => read,
    }
}
