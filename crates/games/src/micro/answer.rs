//! What a human player types during a game of Micro Robots, read: an announcement (a number
//! of moves, nothing to pass) and a demonstration (the cells the robot stops on). Both forms
//! of a demonstration are accepted: the stops alone (`P6 W6 R6`) or the whole path from the
//! start as `micro solve` prints it (`R1 → P6 → W6 → R6`). `quit` leaves the game at either
//! question. No input or output here: the front end asks and says.

use super::board::Cell;

/// A line typed at a question, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer<T> {
    /// What was asked for.
    Given(T),
    /// `quit` (or `exit`, `q`): the player leaves, and the game ends.
    Quit,
}

/// A line that answers nothing: the player is asked again, told why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    #[error("a number of moves, such as 3 (Enter to pass, `quit` to leave)")]
    NotANumber,
    #[error("no cells: type the cells the robot stops on, such as P6 W6 R6")]
    NoCells,
    #[error("`{0}` is not a cell: a colour letter (B Y G R P W) and a number 1-6, such as P6")]
    NotACell(String),
}

fn is_quit(line: &str) -> bool {
    ["quit", "exit", "q"]
        .iter()
        .any(|word| line.trim().eq_ignore_ascii_case(word))
}

/// An announcement: `Given(Some(moves))`, `Given(None)` for an empty line (a pass), or `Quit`.
pub fn announcement(line: &str) -> Result<Answer<Option<u32>>, AnswerError> {
    let line = line.trim();
    if is_quit(line) {
        return Ok(Answer::Quit);
    }
    if line.is_empty() {
        return Ok(Answer::Given(None));
    }
    line.parse()
        .map(|n| Answer::Given(Some(n)))
        .map_err(|_| AnswerError::NotANumber)
}

/// A demonstration from `start`: the cells the robot stops on, in order, separated by spaces,
/// commas or arrows (`→`, `->`). A first cell that is the start itself is the path's start,
/// as `micro solve` prints paths, and is dropped: the robot cannot stop where it stands, so no
/// demonstration that could succeed is changed by it.
pub fn demonstration(line: &str, start: Cell) -> Result<Answer<Vec<Cell>>, AnswerError> {
    if is_quit(line) {
        return Ok(Answer::Quit);
    }
    let words = line
        .split(|c: char| c.is_whitespace() || c == ',' || c == '→')
        .flat_map(|w| w.split("->"))
        .filter(|w| !w.is_empty());
    let mut stops = Vec::new();
    for word in words {
        stops.push(Cell::parse(word).ok_or_else(|| AnswerError::NotACell(word.to_string()))?);
    }
    if stops.first() == Some(&start) {
        stops.remove(0);
    }
    if stops.is_empty() {
        return Err(AnswerError::NoCells);
    }
    Ok(Answer::Given(stops))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(text: &str) -> Vec<Cell> {
        text.split_whitespace()
            .map(|t| Cell::parse(t).expect("a cell"))
            .collect()
    }

    #[test]
    fn a_demonstration_is_the_stops_or_the_path_from_the_start() {
        let start = Cell::parse("B1").expect("a cell");
        let stops = Answer::Given(cells("B5 W5 W2"));
        for line in [
            "B5 W5 W2",
            "b5 w5 w2",
            "B1 B5 W5 W2",
            "B1 → B5 → W5 → W2",
            "B1->B5->W5->W2",
            " B5, W5, W2 ",
        ] {
            assert_eq!(demonstration(line, start), Ok(stops.clone()), "{line}");
        }
        // Only the first cell is the start: the robot may come back to it later.
        assert_eq!(
            demonstration("B1 B5 B1", start),
            Ok(Answer::Given(cells("B5 B1")))
        );
        assert_eq!(demonstration("B1", start), Err(AnswerError::NoCells));
        assert_eq!(demonstration("", start), Err(AnswerError::NoCells));
        assert_eq!(
            demonstration("B5 X9", start),
            Err(AnswerError::NotACell("X9".into()))
        );
        assert_eq!(demonstration("quit", start), Ok(Answer::Quit));
        assert_eq!(demonstration(" QUIT ", start), Ok(Answer::Quit));
    }

    #[test]
    fn an_announcement_is_a_number_a_pass_or_quit() {
        assert_eq!(announcement(" 3 "), Ok(Answer::Given(Some(3))));
        assert_eq!(announcement(""), Ok(Answer::Given(None)));
        assert_eq!(announcement("q"), Ok(Answer::Quit));
        assert_eq!(announcement("three"), Err(AnswerError::NotANumber));
        assert_eq!(announcement("-1"), Err(AnswerError::NotANumber));
    }
}
