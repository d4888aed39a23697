//! Reading the files named on the command line.

use robots::text::diagnostic::{Diagnostic, text_from_bytes};
use std::path::Path;

pub fn read_bytes(path: &Path) -> std::io::Result<Vec<u8>> {
    std::fs::read(path)
}

/// A text file's content, or a diagnostic saying why it cannot be had.
pub fn read_input(path: &Path) -> Result<String, Diagnostic> {
    let shown = path.display().to_string();
    let bytes = std::fs::read(path)
        .map_err(|e| Diagnostic::whole_file(&shown, format!("cannot read the file: {e}")))?;
    text_from_bytes(&shown, bytes)
}

/// [`read_input`] with the diagnostic as text.
pub fn read_text(path: &Path) -> Result<String, String> {
    read_input(path).map_err(|d| d.to_string())
}
