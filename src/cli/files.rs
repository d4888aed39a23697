//! Reading the files named on the command line, and the files they name: every read is
//! bounded (at most [`MAX_INPUT_BYTES`], and never more than one byte past it).

use robots::text::MAX_INPUT_BYTES;
use robots::text::diagnostic::{Diagnostic, text_from_bytes, too_large};
use std::io::Read;
use std::path::Path;

/// The error of a file over the limit.
#[derive(Debug)]
struct TooLarge;

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the file is larger than {} MiB, the most robots reads",
            MAX_INPUT_BYTES >> 20
        )
    }
}

impl std::error::Error for TooLarge {}

/// A file's bytes, at most [`MAX_INPUT_BYTES`]: a larger file (or an endless one such as
/// `/dev/zero`) is an error as soon as one byte more has been read.
pub fn read_bytes(path: &Path) -> std::io::Result<Vec<u8>> {
    let file = std::fs::File::open(path)?;
    let limit = u64::try_from(MAX_INPUT_BYTES).unwrap_or(u64::MAX);
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() > MAX_INPUT_BYTES {
        return Err(std::io::Error::other(TooLarge));
    }
    Ok(bytes)
}

/// A text file's content, or a diagnostic saying why it cannot be had.
pub fn read_input(path: &Path) -> Result<String, Diagnostic> {
    let shown = path.display().to_string();
    let bytes = read_bytes(path).map_err(|e| {
        if e.get_ref().is_some_and(|inner| inner.is::<TooLarge>()) {
            too_large(&shown)
        } else {
            Diagnostic::whole_file(&shown, format!("cannot read the file: {e}"))
        }
    })?;
    text_from_bytes(&shown, bytes)
}

/// [`read_input`] with the diagnostic as text.
pub fn read_text(path: &Path) -> Result<String, String> {
    read_input(path).map_err(|d| d.to_string())
}
