//! Questions at the terminal, for the human players of the token games.

/// Asks a question at the terminal; `None` when the input has ended.
pub fn ask(prompt: &str) -> Option<String> {
    use std::io::BufRead;
    out!("{prompt}");
    let mut line = String::new();
    match std::io::stdin().lock().read_line(&mut line) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(line.trim().to_string()),
    }
}

/// Asks for a number of moves, timing the answer: `(moves, seconds)`, or `None` when the
/// player passes (an empty line) or the input has ended.
pub fn ask_moves(prompt: &str) -> Option<(u32, f64)> {
    let started = std::time::Instant::now();
    loop {
        let answer = ask(prompt)?;
        if answer.is_empty() {
            return None;
        }
        match answer.parse() {
            Ok(n) => return Some((n, started.elapsed().as_secs_f64())),
            Err(_) => outln!("a number of moves, please"),
        }
    }
}
