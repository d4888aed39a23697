//! The hill's folder as `robots hill` reads and writes it (docs/TOURNAMENTS.md, "The hill"):
//! one writer at a time, by an advisory lock on the folder itself (readers share it); every
//! file written whole to a temporary file of its writer in the folder, then renamed; the
//! temporary files of writers killed before their rename removed by the next writer.

use super::output::Failure;
use robots::text::escape;
use std::fs::{File, TryLockError};
use std::io::{ErrorKind, Write};
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
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(false),
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

/// How a command holds the hill's folder.
#[derive(Clone, Copy)]
pub enum Hold {
    /// `robots hill DIR`: with other readers, never while a writer writes.
    Read,
    /// `init` and `add`: alone, from the first file read to the last written, so that an add
    /// started beside another plays against the other's result instead of overwriting it.
    Write,
}

/// Locks the hill's folder `dir` for `hold`, waiting (and saying so on standard error) while
/// another command holds it. The lock is advisory (only `robots hill` asks for it) and lasts
/// as long as the handle returned: the system releases it when the process ends, however it
/// ends, so a killed writer leaves no lock behind.
pub fn lock(dir: &Path, hold: Hold) -> Result<File, Failure> {
    let fail = |e: std::io::Error| {
        Failure::Bad(format!(
            "{}: error: cannot lock the folder: {e}",
            shown(dir)
        ))
    };
    let folder = File::open(dir).map_err(fail)?;
    let tried = match hold {
        Hold::Read => folder.try_lock_shared(),
        Hold::Write => folder.try_lock(),
    };
    match tried {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => {
            let waited = match hold {
                Hold::Read => {
                    eprintln!("waiting for an add on the hill {} to end…", shown(dir));
                    folder.lock_shared()
                }
                Hold::Write => {
                    eprintln!("waiting for another add on the hill {}…", shown(dir));
                    folder.lock()
                }
            };
            waited.map_err(fail)?;
        }
        Err(TryLockError::Error(e)) => return Err(fail(e)),
    }
    Ok(folder)
}

/// Whether `name` is one of the names [`write_atomic`] gives its temporary files.
fn temporary_name(name: &str) -> bool {
    name.starts_with('.') && name.ends_with(".tmp")
}

/// Removes the temporary files of writers killed before their rename: the plain files of
/// `dir` named `.*.tmp`. Only a writer holding the lock calls it, so none of them is another
/// writer's work in progress.
pub fn sweep(dir: &Path) -> Result<(), Failure> {
    let fail = |e: std::io::Error| {
        Failure::Bad(format!(
            "{}: error: cannot list the folder: {e}",
            shown(dir)
        ))
    };
    for item in std::fs::read_dir(dir).map_err(fail)? {
        let item = item.map_err(fail)?;
        let stale = item.file_name().to_str().is_some_and(temporary_name)
            && item.file_type().map_err(fail)?.is_file();
        if stale {
            let path = item.path();
            match std::fs::remove_file(&path) {
                Err(e) if e.kind() != ErrorKind::NotFound => {
                    return Err(Failure::Bad(format!(
                        "{}: error: cannot remove this temporary file, left by an earlier add or init: {e}",
                        shown(&path)
                    )));
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// Writes `bytes` to `name` in `dir` (`programs/NAME.robot` too): a temporary file in DIR
/// named after the file and this process, so that no two writers share one, then renamed,
/// so a reader sees the old file or the new one, whole. A failed write removes its
/// temporary file.
pub fn write_atomic(dir: &Path, name: &Path, bytes: &[u8]) -> Result<(), Failure> {
    replace(dir, name, bytes).map_err(|e| {
        Failure::Bad(format!(
            "{}: error: cannot write it: {e}",
            shown(&dir.join(name))
        ))
    })
}

/// The work of [`write_atomic`].
fn replace(dir: &Path, name: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let leaf = name
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let temporary = dir.join(format!(".{leaf}.{}.tmp", std::process::id()));
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temporary)?;
    let written = file.write_all(bytes).and_then(|()| file.sync_all());
    drop(file);
    let renamed = written.and_then(|()| std::fs::rename(&temporary, dir.join(name)));
    if renamed.is_err() {
        std::fs::remove_file(&temporary).ok();
    }
    renamed
}
