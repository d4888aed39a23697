//! Everything the binary writes: standard output through one writer that stops quietly when
//! the reader goes away, and the exit codes.

use std::process::ExitCode;
use std::sync::OnceLock;

/// The colour policy of this run, set once from `--color` and `NO_COLOR`.
static COLOUR: OnceLock<bool> = OnceLock::new();

/// Decides once whether drawings on standard output are in colour: `--color always` or
/// `never` says so; `auto` means on a terminal, unless `NO_COLOR` is set (no-color.org).
pub fn set_colour(choice: crate::cli::args::flags::ColourChoice, no_color: bool, terminal: bool) {
    let _ = CHOICE.set((choice, no_color));
    let _ = COLOUR.set(colour_for(terminal));
}

/// `--color` and whether `NO_COLOR` is set, for [`colour_for`].
static CHOICE: OnceLock<(crate::cli::args::flags::ColourChoice, bool)> = OnceLock::new();

/// Whether drawings written to a stream (a terminal or not) are in colour, under the same
/// policy: standard error, when the questions to human players go there.
pub fn colour_for(terminal: bool) -> bool {
    use crate::cli::args::flags::ColourChoice;
    match CHOICE.get() {
        Some((ColourChoice::Always, _)) => true,
        Some((ColourChoice::Auto, no_color)) => terminal && !no_color,
        Some((ColourChoice::Never, _)) | None => false,
    }
}

/// Whether to draw in colour (never, before [`set_colour`]).
pub fn colour() -> bool {
    COLOUR.get().copied().unwrap_or(false)
}

/// Writes to standard output. When the reader has gone (`robots run --log | head`), there is
/// nobody left to tell anything: stop quietly instead of panicking like `println!` does.
pub fn emit(text: std::fmt::Arguments) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(text).and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("cannot write the output: {e}");
        std::process::exit(2);
    }
}

/// Writes bytes (a PNG, a GIF) to standard output, as [`emit`] writes text.
pub fn emit_bytes(bytes: &[u8]) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(bytes).and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("cannot write the output: {e}");
        std::process::exit(2);
    }
}

macro_rules! out {
    ($($arg:tt)*) => { $crate::cli::io::output::emit(format_args!($($arg)*)) };
}

macro_rules! outln {
    () => { $crate::cli::io::output::emit(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::cli::io::output::emit(format_args!("{}\n", format_args!($($arg)*))) };
}

/// How a command failed: bad input (exit 2) or no answer to give (exit 1).
pub enum Failure {
    Bad(String),
    NoAnswer(String),
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure::Bad(message)
    }
}

/// Errors from the library are bad input, told whole (a diagnostic with its caret).
macro_rules! bad_input {
    ($($error:ty),*) => {$(
        impl From<$error> for Failure {
            fn from(e: $error) -> Self {
                Failure::Bad(e.to_string())
            }
        }
    )*};
}

bad_input!(
    robots_games::text::diagnostic::Diagnostic,
    robots_games::battle::engine::SetupError,
    robots_games::battle::live::debug::LoadError,
    robots_arena::ServeError,
    robots_arena::admin::AdminError,
    robots_arena::db::DbError,
    crate::cli::io::files::NotWritable
);

pub fn finish(result: Result<(), Failure>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Bad(message)) => {
            eprintln!("{message}");
            ExitCode::from(2)
        }
        Err(Failure::NoAnswer(message)) => {
            // An empty message: the answer ("no") is already on standard output.
            if !message.is_empty() {
                eprintln!("{message}");
            }
            ExitCode::from(1)
        }
    }
}
