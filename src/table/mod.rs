//! The end of a token game, shared by Micro Robots and Ricochet Robots: the score and who won
//! (everyone with the most tokens, so several winners are possible).

/// Writes the final two log lines and returns the winners' names.
pub fn finish(
    players: &[(&str, u32)],
    played: &str,
    reason: &str,
    log: &mut dyn FnMut(String),
) -> Vec<String> {
    let best = players.iter().map(|p| p.1).max().unwrap_or(0);
    let winners: Vec<String> = players
        .iter()
        .filter(|p| p.1 == best)
        .map(|p| p.0.to_string())
        .collect();
    let score: Vec<String> = players
        .iter()
        .map(|(name, tokens)| format!("{name} {tokens}"))
        .collect();
    log(format!(
        "end after {played}: {reason}; tokens: {}",
        score.join(", ")
    ));
    log(format!(
        "winner{}: {}",
        if winners.len() > 1 { "s" } else { "" },
        winners.join(", ")
    ));
    winners
}
