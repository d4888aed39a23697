//! Which files a file may name (`board:`, `program:`, a Micro Robots `face:`, a Ricochet
//! `board:`): a check on the path as written, before anything is read. The reading itself
//! stays with the caller (the library does no I/O).

use std::path::{Component, Path};

/// A file named by another, as the reader fetched it: its bytes, and whether it lies outside
/// the naming file's folder once links are followed (a path with `--allow-outside`, or a
/// link that leads out). Errors about such a file show nothing of its content.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fetched {
    pub bytes: Vec<u8>,
    pub outside: bool,
}

impl From<Vec<u8>> for Fetched {
    /// Bytes of a file inside the folder.
    fn from(bytes: Vec<u8>) -> Fetched {
        Fetched {
            bytes,
            outside: false,
        }
    }
}

/// Why a path named inside a file may not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Outside {
    #[error(
        "`{0}` is an absolute path: a file may only name files in its own folder or below (give --allow-outside to lift this)"
    )]
    Absolute(String),
    #[error(
        "`{0}` climbs out of the file's folder: a file may only name files in its own folder or below (give --allow-outside to lift this)"
    )]
    ClimbsOut(String),
}

/// The policy for paths named inside a file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Confine {
    /// Only relative paths that stay inside the referring file's folder tree (`a/../b` is
    /// fine, `../b` is not). The default: a file from a stranger cannot reach `/etc/passwd`.
    #[default]
    Inside,
    /// Any path (`--allow-outside`).
    Anywhere,
}

impl Confine {
    /// Whether `name`, written in a file, may be read; the error says why not.
    pub fn check(self, name: &str) -> Result<(), Outside> {
        if self == Confine::Anywhere {
            return Ok(());
        }
        let shown = || crate::text::escape(name).into_owned();
        let mut depth: usize = 0;
        for part in Path::new(name).components() {
            match part {
                Component::Prefix(_) | Component::RootDir => {
                    return Err(Outside::Absolute(shown()));
                }
                Component::ParentDir => match depth.checked_sub(1) {
                    Some(d) => depth = d,
                    None => return Err(Outside::ClimbsOut(shown())),
                },
                Component::Normal(_) => depth += 1,
                Component::CurDir => {}
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::Confine;

    #[test]
    fn inside_refuses_absolute_and_climbing_paths() {
        let inside = Confine::Inside;
        assert!(inside.check("boards/a.yaml").is_ok());
        assert!(inside.check("./a/../b.robot").is_ok());
        assert!(inside.check("/etc/passwd").is_err());
        assert!(inside.check("../boards/a.yaml").is_err());
        assert!(inside.check("a/../../b").is_err());
        assert!(Confine::Anywhere.check("/etc/passwd").is_ok());
    }
}
