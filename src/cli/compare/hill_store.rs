//! The hill's folder as `robots hill` reads and writes it (docs/TOURNAMENTS.md, "The hill"):
//! one writer at a time, by an advisory lock on the folder itself (readers share it); every
//! file written whole to a temporary file of its writer in the folder, then renamed; the
//! temporary files of writers killed before their rename removed by the next writer; and what
//! a writer changed before its commit point put back when a later write fails.

use crate::cli::io::output::Failure;
use robots_games::text::escape;
use std::fs::{File, TryLockError};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

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
fn write_atomic(dir: &Path, name: &Path, bytes: &[u8]) -> Result<(), Failure> {
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

/// One change a writer made before its commit point.
enum Change {
    /// The file `name` of the hill's folder, with its text before (none: it was not there).
    File {
        name: PathBuf,
        before: Option<Arc<str>>,
    },
    /// A folder made where there was none.
    Folder(PathBuf),
}

/// What a writer changed in the hill's folder `dir` before its commit point, the write that
/// makes the change whole. When a change or the commit fails, everything changed before is put
/// back, so a failed writer leaves the folder as it was.
pub struct Undo<'a> {
    dir: &'a Path,
    changes: Vec<Change>,
}

impl<'a> Undo<'a> {
    pub fn new(dir: &'a Path) -> Undo<'a> {
        Undo {
            dir,
            changes: Vec::new(),
        }
    }

    /// Makes the folder `name` of the hill's folder unless it is there.
    pub fn make_folder(&mut self, name: &str) -> Result<(), Failure> {
        let path = self.dir.join(name);
        if there(&path) {
            return Ok(());
        }
        match std::fs::create_dir(&path) {
            Ok(()) => {
                self.changes.push(Change::Folder(path));
                Ok(())
            }
            Err(e) => Err(self.put_back(Failure::Bad(format!(
                "{}: error: cannot create the folder: {e}",
                shown(&path)
            )))),
        }
    }

    /// Writes the file `name` with [`write_atomic`]; `before` is its text now (none: it is not
    /// there), which a later failure writes again.
    pub fn write(
        &mut self,
        name: &Path,
        bytes: &[u8],
        before: Option<Arc<str>>,
    ) -> Result<(), Failure> {
        match write_atomic(self.dir, name, bytes) {
            Ok(()) => {
                self.changes.push(Change::File {
                    name: name.to_path_buf(),
                    before,
                });
                Ok(())
            }
            Err(failure) => Err(self.put_back(failure)),
        }
    }

    /// Writes the file of the commit point with [`write_atomic`]: done, the changes stay.
    pub fn commit(mut self, name: &Path, bytes: &[u8]) -> Result<(), Failure> {
        write_atomic(self.dir, name, bytes).map_err(|failure| self.put_back(failure))
    }

    /// Puts back, the last change first, what was changed before `failure`, and returns it;
    /// what cannot be put back is added to its message.
    fn put_back(&mut self, failure: Failure) -> Failure {
        let mut also = String::new();
        for change in self.changes.drain(..).rev() {
            let (path, done) = match change {
                Change::File {
                    name,
                    before: Some(text),
                } => (
                    self.dir.join(&name),
                    replace(self.dir, &name, text.as_bytes()),
                ),
                Change::File { name, before: None } => {
                    let path = self.dir.join(name);
                    let done = std::fs::remove_file(&path);
                    (path, done)
                }
                Change::Folder(path) => {
                    let done = std::fs::remove_dir(&path);
                    (path, done)
                }
            };
            if let Err(e) = done {
                also += &format!(
                    "\n{}: error: cannot put it back as it was: {e}",
                    shown(&path)
                );
            }
        }
        match failure {
            Failure::Bad(m) => Failure::Bad(m + &also),
            Failure::NoAnswer(m) => Failure::NoAnswer(m + &also),
        }
    }
}
