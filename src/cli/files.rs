//! Reading the files named on the command line.

use robots::text::diagnostic::text_from_bytes;
use std::path::Path;

pub fn read_bytes(path: &Path) -> std::io::Result<Vec<u8>> {
    std::fs::read(path)
}

pub fn read_text(path: &Path) -> Result<String, String> {
    let shown = path.display().to_string();
    let bytes =
        std::fs::read(path).map_err(|e| format!("{shown}: error: cannot read the file: {e}"))?;
    text_from_bytes(&shown, bytes).map_err(|d| d.to_string())
}
