//! A game at the table without a terminal: each question printed, the players' answers read
//! as lines (blank lines and `#` comments skipped), each echoed as `> answer`, then what it
//! did; the match's events as it plays. A signal's step is echoed as `*` (R-A23).

use super::{result_text, save};
use crate::cli::io::output::Failure;
use robots_games::battle::live::hot_seat::{Answered, HotSeat, Phase, is_skip, parse_signal};
use robots_games::text::escape;

/// Plays the game, answers from `lines`; the end of the input is `quit`.
pub fn run(
    mut table: HotSeat,
    lines: impl Iterator<Item = std::io::Result<String>>,
) -> Result<(), Failure> {
    let mut lines = lines.filter(|l| {
        l.as_ref().map_or(true, |l| {
            !l.trim().is_empty() && !l.trim_start().starts_with('#')
        })
    });
    let mut next = || -> Result<Option<String>, Failure> {
        match lines.next() {
            None => Ok(None),
            Some(Ok(line)) => Ok(Some(line.trim().to_string())),
            Some(Err(e)) => Err(Failure::Bad(format!("cannot read the answers: {e}"))),
        }
    };
    out!("{}", header(&table));
    let mut told_result = false;
    let mut shown = 0;
    loop {
        // The robots placed since the last question: by the file, the generator, or by hand.
        let placed = table.placing().placed();
        if placed.len() != shown {
            out!("{}", placed_since(&table, shown.min(placed.len())));
            shown = placed.len();
        }
        let phase = table.phase();
        if phase == Phase::Play {
            if let Some(events) = table.step() {
                let text: String = events.iter().map(|e| e.log_line()).collect();
                out!("{}", escape_lines(&text));
            }
            continue;
        }
        if phase == Phase::Over && told_result {
            out!("save the game? `match FILE`, `replay FILE`, or `done`\n");
        } else {
            out!("{}\n", question(&table, &phase));
        }
        told_result |= phase == Phase::Over;
        let Some(answer) = next()? else {
            out!("(the answers ended: the game is left)\n");
            return Ok(());
        };
        if matches!(answer.as_str(), "quit" | "q") {
            out!("> quit\nthe game is left\n");
            return Ok(());
        }
        let said = match phase {
            Phase::Signal { .. } => echo_signal(&answer),
            _ => escape(&answer).into_owned(),
        };
        out!("> {said}\n");
        let reply = answer_to(&mut table, &answer);
        match reply {
            Ok(Reply::Text(text)) => out!("{text}"),
            Ok(Reply::Done) => return Ok(()),
            Err(e) => out!("refused: {e}\n"),
        }
    }
}

enum Reply {
    Text(String),
    Done,
}

fn header(table: &HotSeat) -> String {
    let setup = table.setup();
    let players: Vec<String> = table
        .players()
        .iter()
        .map(|(c, at)| format!("{c} ({})", if *at { "at the table" } else { "the file" }))
        .collect();
    format!(
        "{} on {}, scenario {}, seed {}: {}\n",
        escape(&setup.name),
        escape(&setup.board.name),
        setup.scenario.number(),
        setup.seed,
        players.join(", ")
    )
}

/// The question of `phase`, on one line.
fn question(table: &HotSeat, phase: &Phase) -> String {
    match phase {
        Phase::Place { robot, free, .. } => {
            let board = &table.setup().board;
            let points: Vec<String> = free
                .iter()
                .map(|&c| {
                    let (col, row) = board.offset(c);
                    format!("[{col}, {row}]")
                })
                .collect();
            format!(
                "{robot} to place: `COL ROW FACING` on a free start point (R-A12): {}",
                points.join(" ")
            )
        }
        Phase::Confirm => {
            "every robot is placed: `start` to play, `undo` to take back the last placement".into()
        }
        Phase::Signal { team, robots, left } => {
            let names: Vec<String> = robots.iter().map(ToString::to_string).collect();
            format!(
                "end of {team}'s turn: a signal? `ROBOT STEP` to one of {} ({left} left), or `skip`",
                names.join(", ")
            )
        }
        Phase::Over => {
            let m = table.session().map(|s| s.current());
            format!(
                "{}save the game? `match FILE`, `replay FILE`, or `done`",
                m.map(result_text).unwrap_or_default()
            )
        }
        Phase::Play => String::new(),
    }
}

/// The robots placed from the `from`th on: by the file or the generator, or by hand.
fn placed_since(table: &HotSeat, from: usize) -> String {
    let board = &table.setup().board;
    let mut out = String::new();
    let placed = table.placing().placed();
    for &(slot, cell, facing) in &placed[from..] {
        let team = &table.setup().teams[slot.team];
        let (col, row) = board.offset(cell);
        let by = if table.at_table(slot.team) {
            "placed"
        } else {
            "drawn"
        };
        out.push_str(&format!(
            "  {}.{}: [{col}, {row}] facing {} {} ({by})\n",
            team.colour,
            slot.robot + 1,
            facing.number(),
            facing.arrow()
        ));
    }
    out
}

/// A signal answer as the transcript shows it: the robot, never the step (R-A23).
fn echo_signal(answer: &str) -> String {
    if is_skip(answer) {
        return answer.to_string();
    }
    match parse_signal(answer) {
        Ok((robot, _)) => format!("signal {robot} *"),
        Err(_) => "(an answer, hidden)".into(),
    }
}

fn answer_to(table: &mut HotSeat, answer: &str) -> Result<Reply, String> {
    Ok(Reply::Text(
        match table.answer(answer).map_err(|e| e.to_string())? {
            Answered::Placed => String::new(),
            Answered::Undone => "the last placement by hand is taken back\n".into(),
            Answered::Started(first) => format!("the match starts; {first} plays first (drawn)\n"),
            Answered::Signalled(robot) => {
                format!("signal sent to {robot}; its step stays secret until it acts (R-A23)\n")
            }
            Answered::Skipped => "no signal\n".into(),
            Answered::Save { replay, path } => {
                save(table, std::path::Path::new(&path), replay)? + "\n"
            }
            Answered::Done => return Ok(Reply::Done),
        },
    ))
}

/// Names come from files: shown escaped, line breaks kept.
fn escape_lines(text: &str) -> String {
    robots_games::text::escape_keeping(text, &['\n']).into_owned()
}
