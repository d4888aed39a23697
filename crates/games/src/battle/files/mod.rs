//! Reading: board files ([`board_file`]), match files ([`match_file`]), self-contained
//! [`replay`]s, the boards, programs and matches [`shipped`] in the binary, and a match from
//! `--team` flags ([`teams`]). Files reach
//! the library as text or through a reading callback: nothing here opens a file.

pub mod board_file;
pub mod match_file;
pub mod replay;
pub mod shipped;
pub mod teams;
