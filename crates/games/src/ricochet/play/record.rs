//! What a game of Ricochet Robots says as it is played: one [`Note`] per event, in order.
//! Its words (`Display`) are the game's log; [`crate::ricochet::report`] folds the notes into
//! a JSON record of the game (docs/FORMATS.md, "Game records"). No serialisation here.

use crate::ricochet::board::Colour;
use crate::ricochet::position::Move;
use crate::table::End;
use std::fmt;

/// Why a bidder's demonstration does not win the token; the robots go back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unshown {
    /// A computer whose bid is below the `fewest` moves (`None`: no way `within` the
    /// search's limit).
    Fewest { fewest: Option<u32>, within: u32 },
    /// The moves shown are not a solution (the checker's words).
    Invalid(String),
    /// A solution, but longer than the bid.
    Longer(u32),
}

/// Why a bid is refused (RULES B.1, "Bidding"); the player's bid before it, if any, stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// A player cannot raise their own bid (B.1); `standing` is theirs.
    Raises { standing: u32 },
    /// The player's own bid again: it changes nothing (among equal bids the earlier keeps
    /// its place, B.1's tournament variant).
    Repeats { standing: u32 },
    /// After the sand timer ran out `at` that many seconds (B.1: bids until it runs out).
    Late { ran_out: f64 },
    /// The player passed this round.
    Passed,
    /// No move brings no robot onto its target.
    Zero,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Raises { standing } => write!(
                f,
                "a player cannot raise their own bid, {standing} stands (RULES B.1)"
            ),
            Refusal::Repeats { standing } => write!(f, "{standing} is already this player's bid"),
            Refusal::Late { ran_out } => write!(
                f,
                "too late, the sand timer ran out at {} s (RULES B.1: bids until it runs out)",
                seconds(*ran_out)
            ),
            Refusal::Passed => write!(f, "this player passed this round"),
            Refusal::Zero => write!(f, "a bid is at least 1 move"),
        }
    }
}

/// Why a game ends before its end: a human's `quit`, or the end of the humans' input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Quit {
    /// A human player typed `quit`.
    Asked(String),
    /// The humans' input ended (Ctrl-D at a terminal, the end of a script).
    InputEnded,
}

impl fmt::Display for Quit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Quit::Asked(player) => write!(f, "{player} quit"),
            Quit::InputEnded => write!(f, "the input ended"),
        }
    }
}

/// Seconds as the notes of humans' moments say them: whole when whole, else to a tenth.
pub fn seconds(s: f64) -> String {
    if (s - s.round()).abs() < 0.05 {
        format!("{s:.0}")
    } else {
        format!("{s:.1}")
    }
}

/// One event of a game, in the order it happens.
#[derive(Clone, Debug, PartialEq)]
pub enum Note {
    /// A round begins: the token drawn, its target `at` `[x, y]`; `colour: None` is the
    /// vortex, which any robot may reach.
    Target {
        round: u32,
        colour: Option<Colour>,
        symbol: String,
        at: (u16, u16),
        /// The fewest moves (`None`: none within the search's limit). Not in the words.
        fewest: Option<u32>,
    },
    /// A round whose token has no target on the board: set aside.
    NoTarget { round: u32 },
    /// A bid (`lowered`: a lower bid replacing the player's own) `seconds` after the
    /// target was shown.
    Bid {
        seconds: f64,
        player: String,
        moves: u32,
        lowered: bool,
    },
    /// A bid refused, `seconds` after the target was shown, and why.
    Refused {
        seconds: f64,
        player: String,
        moves: u32,
        why: Refusal,
    },
    /// A human stops bidding for this round, `seconds` after the target was shown.
    Passes { seconds: f64, player: String },
    /// Nobody bid in time: the token goes back into the pile.
    NoBid,
    /// The game ends here, in the middle of its round: the round's token goes back.
    Quits(Quit),
    /// A bidder fails to show a solution within its bid.
    Fails {
        player: String,
        bid: u32,
        why: Unshown,
    },
    /// A bidder shows a solution within its bid and wins the token (`tokens`: now held).
    Wins {
        player: String,
        moves: Vec<Move>,
        tokens: u32,
    },
    /// Every bidder failed: the token goes back into the pile.
    NobodySucceeds,
    /// Ricochets (B.2): the played target moves `to` a free cell (`None`: there is none,
    /// it stays `from`).
    TargetMoves {
        colour: Option<Colour>,
        from: (u16, u16),
        to: Option<(u16, u16)>,
    },
    /// The end of the game (the log's last two lines).
    End(End),
}

fn colour_word(colour: Option<Colour>) -> String {
    colour.map_or("multicolour".to_string(), |c| c.to_string())
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::text::count;
        match self {
            Note::Target {
                round,
                colour,
                symbol,
                at: (x, y),
                ..
            } => {
                let who = colour.map_or("any robot".to_string(), |c| format!("the {c} robot"));
                let colour = colour_word(*colour);
                write!(
                    f,
                    "round {round}: {colour} {symbol} at [{x}, {y}] for {who}"
                )
            }
            Note::NoTarget { round } => write!(
                f,
                "round {round}: the board has no target for this token; it is set aside"
            ),
            Note::Bid {
                seconds,
                player,
                moves,
                lowered,
            } => {
                let verb = if *lowered { "lowers to" } else { "bids" };
                write!(f, "  after {seconds:.0} s, {player} {verb} {moves}")
            }
            Note::Refused {
                seconds: at,
                player,
                moves,
                why,
            } => write!(
                f,
                "  after {} s, {player} bids {moves}: refused, {why}",
                seconds(*at)
            ),
            Note::Passes {
                seconds: at,
                player,
            } => {
                write!(f, "  after {} s, {player} passes", seconds(*at))
            }
            Note::NoBid => write!(f, "  no bid: the token goes back into the pile"),
            Note::Quits(quit) => write!(f, "  {quit}: the game ends here"),
            Note::Fails { player, bid, why } => fails(f, player, *bid, why),
            Note::Wins {
                player,
                moves,
                tokens,
            } => {
                let text: Vec<String> = moves.iter().map(ToString::to_string).collect();
                write!(
                    f,
                    "  {player} shows {}: {}; wins the token ({tokens} now)",
                    count(moves.len(), "move"),
                    text.join(", ")
                )
            }
            Note::NobodySucceeds => {
                write!(f, "  nobody succeeds: the token goes back into the pile")
            }
            Note::TargetMoves { colour, from, to } => target_moves(f, *colour, *from, *to),
            Note::End(end) => end.fmt(f),
        }
    }
}

/// The words of a demonstration that does not win the token.
fn fails(f: &mut fmt::Formatter<'_>, player: &str, bid: u32, why: &Unshown) -> fmt::Result {
    use crate::text::count;
    match why {
        Unshown::Fewest { fewest, within } => {
            let fewest = fewest.map_or(format!("no way within {within}"), |n| {
                format!("the fewest is {n}")
            });
            let bid = count(bid, "move");
            write!(
                f,
                "  {player} cannot show {bid} ({fewest}); the robots go back"
            )
        }
        Unshown::Invalid(why) => write!(
            f,
            "  {player} cannot show {} ({why}); the robots go back",
            count(bid, "move")
        ),
        Unshown::Longer(n) => write!(
            f,
            "  {player} needs {}, more than the {bid} bid; the robots go back",
            count(*n, "move")
        ),
    }
}

/// The words of a target that moves off a robot's base (or cannot).
fn target_moves(
    f: &mut fmt::Formatter<'_>,
    colour: Option<Colour>,
    from: (u16, u16),
    to: Option<(u16, u16)>,
) -> fmt::Result {
    let colour = colour_word(colour);
    match to {
        Some((x, y)) => write!(f, "  the {colour} target moves to [{x}, {y}]"),
        None => write!(
            f,
            "  no free cell: the {colour} target stays at [{}, {}]",
            from.0, from.1
        ),
    }
}
