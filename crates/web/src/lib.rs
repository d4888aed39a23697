//! The games crate in WebAssembly (`web/play/ENGINE.md`): each method takes a JSON request
//! and returns a JSON answer, `{"ok": value}` or `{"error": {kind, message, diagnostic?}}`.
//! A thin skin over `robots-games`: the same parser, lints, engine, viewer document and
//! debugger as the `robots` binary, so that the page and the command line agree byte for byte
//! (`web/test/agree.mjs`). Plain `extern "C"` exports over UTF-8 JSON rather than
//! wasm-bindgen: one module that a page, a worker and node load the same way with a few
//! lines of JavaScript (`web/play/engine.js`), and no generator to install and pin.

mod answer;
mod daily;
mod debug;
mod methods;
mod micro;
mod ricochet;
mod settings;
mod table;
mod wire;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_game;
#[cfg(test)]
mod tests_puzzles;

pub use answer::{ErrorKind, Failure};
pub use wire::{MAX_REQUEST_BYTES, robots_alloc, robots_free, robots_free_answer};

/// A method by its name, on a request's text: the answer's JSON text. The wire's exports and
/// the native tests both come through here.
pub fn call(method: &str, request: &str) -> String {
    let result = match method {
        "check" => methods::check(request),
        "shipped" => Ok(methods::shipped()),
        "play" => methods::play(request),
        "debugOpen" => debug::open(request),
        "debugRun" => debug::run(request),
        "debugClose" => debug::close(request),
        "duel" => methods::duel(request),
        "bench" => methods::bench(request),
        "benchPrepare" => methods::bench_prepare(),
        "ricochetPosition" => ricochet::position(request),
        "ricochetSolve" => ricochet::solve(request),
        "ricochetAll" => ricochet::all_optimal(request),
        "ricochetHint" => ricochet::hint(request),
        "ricochetReplay" => ricochet::replay(request),
        "ricochetSolveMany" => ricochet::solve_many(request),
        "ricochetDaily" => daily::daily(request),
        "ricochetGame" => table::ricochet::play(request),
        "microFaces" => micro::faces(),
        "microBoard" => micro::board(request),
        "microRoll" => micro::roll(request),
        "microSolve" => micro::solve(request),
        "microCheck" => micro::check(request),
        "microHint" => micro::hint(request),
        "microAnalyse" => micro::analyse(request),
        "microRace" => table::micro::race(request),
        _ => Err(Failure::new(
            ErrorKind::Request,
            format!("no method `{}`", robots_games::text::escape(method)),
        )),
    };
    answer::envelope(result)
}
