//! Line-by-line reading of text from strangers (replays, tournament parts, a hill's results):
//! every line bounded, and the whole budgeted — bytes after decompression, lines, and the
//! bytes of blank lines — so that no file, pipe or compressed bomb makes a reader work or
//! hold more than its format can legitimately need (docs/FORMATS.md, "Limits and untrusted
//! files"). Reading from any [`BufRead`]: opening files stays with the binary.

use std::io::{BufRead, BufReader, Read};

/// What a whole input may hold. Blank lines do no work for the reader, so they get a budget
/// of their own, small: a file of line breaks is refused at once, not inflated to its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// What the lines' bytes may add up to (line breaks included), after decompression.
    pub bytes: u64,
    /// How many lines there may be, blank ones included.
    pub lines: u64,
    /// What blank lines (only spaces, tabs and line breaks) may add up to, in bytes.
    pub blank_bytes: u64,
}

impl Budget {
    /// Blank lines a file may hold in all: a few editors' trailing lines, never a bomb.
    pub const BLANK_BYTES: u64 = 64 << 10;
}

/// Why an input is refused, in words (the caller adds the file and line).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    #[error("cannot read line {line}: {message}")]
    Io { line: u64, message: String },
    #[error("the line is longer than {}, the most {noun} may be", size(*.limit as u64))]
    LineTooLong { noun: &'static str, limit: usize },
    #[error("the file holds more than {} (after decompression), the most {noun} may", size(*.limit))]
    TooManyBytes { noun: &'static str, limit: u64 },
    #[error("the file holds more than {limit} lines, the most {noun} may")]
    TooManyLines { noun: &'static str, limit: u64 },
    #[error("the file holds more than {} of blank lines, the most {noun} may", size(*.limit))]
    TooMuchBlank { noun: &'static str, limit: u64 },
    #[error("the line is not UTF-8 text")]
    NotUtf8,
}

/// `4 MiB`, `64 KiB`, `2 GiB`, `12 bytes`: a size in its largest whole unit.
pub fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 && b % (1 << 30) == 0 => format!("{} GiB", b >> 30),
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

/// The first bytes of a gzip stream.
pub const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// `reader`, decompressed when its first bytes say it is gzip, whatever its name.
pub fn decompressing<'a>(reader: impl Read + 'a) -> std::io::Result<Box<dyn BufRead + 'a>> {
    let mut buffered = BufReader::with_capacity(1 << 16, reader);
    let start = buffered.fill_buf()?;
    Ok(if start.starts_with(&GZIP_MAGIC) {
        Box::new(BufReader::with_capacity(
            1 << 16,
            flate2::read::GzDecoder::new(buffered),
        ))
    } else {
        Box::new(buffered)
    })
}

/// The lines of an input, each bounded, the whole within a [`Budget`].
pub struct Lines<R> {
    inner: R,
    budget: Budget,
    /// What the input is, for messages: `a replay`, `a tournament part`.
    noun: &'static str,
    number: u64,
    bytes: u64,
    blank_bytes: u64,
}

impl<R: BufRead> Lines<R> {
    pub fn new(inner: R, budget: Budget, noun: &'static str) -> Lines<R> {
        Lines {
            inner,
            budget,
            noun,
            number: 0,
            bytes: 0,
            blank_bytes: 0,
        }
    }

    /// The number of the last line read (blank ones counted).
    pub fn number(&self) -> u64 {
        self.number
    }

    /// The next line that is not blank, without its line break, if there is one; at most
    /// `limit` bytes, and never more than one byte past it read.
    pub fn next(&mut self, limit: usize) -> Result<Option<String>, LineError> {
        let mut bytes = Vec::new();
        loop {
            bytes.clear();
            let left = self.budget.bytes.saturating_sub(self.bytes);
            let bound = u64::try_from(limit).unwrap_or(u64::MAX).min(left) + 1;
            let read = (&mut self.inner)
                .take(bound)
                .read_until(b'\n', &mut bytes)
                .map_err(|e| LineError::Io {
                    line: self.number + 1,
                    message: e.to_string(),
                })?;
            if read == 0 {
                return Ok(None);
            }
            self.number += 1;
            self.bytes += read as u64;
            if self.bytes > self.budget.bytes {
                return Err(LineError::TooManyBytes {
                    noun: self.noun,
                    limit: self.budget.bytes,
                });
            }
            if self.number > self.budget.lines {
                return Err(LineError::TooManyLines {
                    noun: self.noun,
                    limit: self.budget.lines,
                });
            }
            if bytes.last() == Some(&b'\n') {
                bytes.pop();
            } else if bytes.len() > limit {
                return Err(LineError::LineTooLong {
                    noun: self.noun,
                    limit,
                });
            }
            if bytes.last() == Some(&b'\r') {
                bytes.pop();
            }
            if !bytes.iter().all(u8::is_ascii_whitespace) {
                break;
            }
            self.blank_bytes += read as u64;
            if self.blank_bytes > self.budget.blank_bytes {
                return Err(LineError::TooMuchBlank {
                    noun: self.noun,
                    limit: self.budget.blank_bytes,
                });
            }
        }
        String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| LineError::NotUtf8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: Budget = Budget {
        bytes: 100,
        lines: 5,
        blank_bytes: 4,
    };

    fn all(text: &[u8], budget: Budget) -> Result<Vec<String>, LineError> {
        let mut lines = Lines::new(text, budget, "a test");
        let mut out = Vec::new();
        while let Some(l) = lines.next(10)? {
            out.push(l);
        }
        Ok(out)
    }

    #[test]
    fn lines_within_the_budget_are_read() {
        assert_eq!(all(b"a\r\n\nb\n c", SMALL).unwrap(), ["a", "b", " c"]);
    }

    #[test]
    fn each_bound_is_named_when_passed() {
        let many = Budget { lines: 99, ..SMALL };
        assert_eq!(
            all(b"a\n\n\n\n\n\n", many),
            Err(LineError::TooMuchBlank {
                noun: "a test",
                limit: 4
            })
        );
        assert_eq!(
            all(b"a\nb\nc\nd\ne\nf\n", SMALL),
            Err(LineError::TooManyLines {
                noun: "a test",
                limit: 5
            })
        );
        assert_eq!(
            all(&b"123456789\n".repeat(11), many),
            Err(LineError::TooManyBytes {
                noun: "a test",
                limit: 100
            })
        );
        assert_eq!(
            all(b"12345678901\n", SMALL),
            Err(LineError::LineTooLong {
                noun: "a test",
                limit: 10
            })
        );
        assert_eq!(all(b"\xff\n", SMALL), Err(LineError::NotUtf8));
    }

    #[test]
    fn sizes_are_written_in_their_unit() {
        assert_eq!(size(64 << 10), "64 KiB");
        assert_eq!(size(4 << 30), "4 GiB");
        assert_eq!(size(1 << 20), "1 MiB");
        assert_eq!(size(1000), "1000 bytes");
    }

    #[test]
    fn gzip_is_told_by_its_first_bytes() {
        use std::io::Write;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(b"one\ntwo\n").unwrap();
        let bytes = gz.finish().unwrap();
        let reader = decompressing(bytes.as_slice()).unwrap();
        let mut lines = Lines::new(reader, SMALL, "a test");
        assert_eq!(lines.next(10).unwrap().as_deref(), Some("one"));
        assert_eq!(lines.next(10).unwrap().as_deref(), Some("two"));
        assert_eq!(lines.next(10).unwrap(), None);
    }
}
