//! Text cut to a pane's width: word wrapping, the indent of continuation lines.

/// `text` cut into lines of at most `width` characters at spaces (a longer word is cut);
/// lines after the first start with `indent` more spaces than the text's own indentation.
pub fn wrap(text: &str, width: usize, indent: usize) -> Vec<String> {
    let width = width.max(1);
    let own = text.len() - text.trim_start_matches(' ').len();
    let pad = " ".repeat((own + indent).min(width / 2));
    let mut lines = Vec::new();
    let mut line = " ".repeat(own.min(width / 2));
    let mut fresh = true;
    for word in text.trim_start_matches(' ').split(' ') {
        let mut word: Vec<char> = word.chars().collect();
        loop {
            let used = line.chars().count();
            let gap = usize::from(!fresh);
            if used + gap + word.len() <= width {
                if !fresh {
                    line.push(' ');
                }
                line.extend(word.iter());
                fresh = false;
                break;
            }
            if fresh {
                // A word longer than the line: cut it.
                let take = width.saturating_sub(used).max(1);
                line.extend(word.iter().take(take));
                word.drain(..take.min(word.len()));
            }
            lines.push(std::mem::replace(&mut line, pad.clone()));
            fresh = true;
            if word.is_empty() {
                break;
            }
        }
    }
    if !fresh || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// The indent for a line's continuation lines: under its second column when it has one
/// (words after a run of three spaces, as in the command list) and that is left of the
/// middle, else 2.
pub fn hanging(line: &str, width: usize) -> usize {
    let own = line.len() - line.trim_start_matches(' ').len();
    line[own..]
        .find("   ")
        .map(|gap| {
            let rest = line[own + gap..].trim_start_matches(' ');
            line[..line.len() - rest.len()].chars().count()
        })
        .filter(|&column| column <= width / 2)
        .map_or(2, |column| column.saturating_sub(own))
}

pub fn to_u16(n: usize) -> u16 {
    u16::try_from(n).unwrap_or(u16::MAX)
}
