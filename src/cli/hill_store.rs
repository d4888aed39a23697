//! The hill's folder on disk (docs/TOURNAMENTS.md, "The hill"): files checked to be plain
//! files of the folder, and every file written whole to a temporary file in the folder, then
//! renamed.

use super::output::Failure;
use robots::text::escape;
use std::io::Write;
use std::path::Path;

pub fn shown(path: &Path) -> String {
    escape(&path.display().to_string()).into_owned()
}

/// Whether `path` is there, as a plain file: a link or a folder in its place is refused, so
/// nothing read or written leaves the hill's folder.
pub fn plain_file(path: &Path) -> Result<bool, Failure> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_file() => Ok(true),
        Ok(_) => Err(Failure::Bad(format!(
            "{}: error: not a plain file (a link or a folder): a hill's files are its own",
            shown(path)
        ))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(Failure::Bad(format!(
            "{}: error: cannot read it: {e}",
            shown(path)
        ))),
    }
}

/// Whether anything is at `path` (a link counts).
pub fn there(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok()
}

/// Writes `bytes` to `name` in `dir` (`programs/NAME.robot` too): a temporary file in DIR,
/// then renamed, so a reader sees the old file or the new one, whole.
pub fn write_atomic(dir: &Path, name: &Path, bytes: &[u8]) -> Result<(), Failure> {
    let target = dir.join(name);
    let leaf = name
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let temporary = dir.join(format!(".{leaf}.tmp"));
    let fail = |e: std::io::Error| {
        Failure::Bad(format!("{}: error: cannot write it: {e}", shown(&target)))
    };
    match std::fs::remove_file(&temporary) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(fail(e)),
        _ => {}
    }
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temporary)
        .map_err(fail)?;
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .map_err(fail)?;
    drop(file);
    std::fs::rename(&temporary, &target).map_err(fail)
}
