//! The plumbing every command shares: the one writer to standard output and the exit codes
//! ([`output`]), bounded reading of files and checked outputs ([`files`]), questions at the
//! terminal ([`prompt`]), and the counting allocator of the benchmarks ([`memory`]).

#[macro_use]
pub mod output;
pub mod files;
pub mod memory;
pub mod prompt;
