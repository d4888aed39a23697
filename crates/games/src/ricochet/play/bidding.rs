//! The bidding of a round (RULES B.1, "Bidding"), pure: the sand timer and the bids as data.
//! Every bid is `(seconds after the target was shown, player, moves)`; [`Bidding`] decides
//! each one by the rules (a first bid turns the one-minute timer, anyone bids until it runs
//! out, lower, equal or higher, never raising their own), and [`run`] plays a round's
//! bidding: the computers' bids at their times, the humans' as a front end hears them
//! ([`Humans`]), each accepted or refused with its reason in the log. The game never reads a
//! clock: a front end measures real seconds, or reads them from a script.

use super::record::{Note, Quit, Refusal};
use crate::ricochet::position::{Move, Position};
use crate::table::{Kind, NoHumans, Player};

/// The sand timer, turned by the first bid.
pub const TIMER: f64 = 60.0;
/// With no bid after this long, the timer is turned anyway (the rules' 4–5 minutes); if it
/// runs out with no bid, the token goes back.
pub const NO_BID: f64 = 300.0;

/// The sand timer and the bids of one round. Events come in time order; an event given an
/// earlier time than the last one heard happens at the last one's time.
#[derive(Clone, Debug)]
pub struct Bidding {
    now: f64,
    /// When the first bid turned the timer.
    first: Option<f64>,
    /// The timer turned at [`NO_BID`] with no bid.
    turned: bool,
    /// Each player's bid standing and when it was made.
    standing: Vec<Option<(u32, f64)>>,
    passed: Vec<bool>,
}

/// What a bid did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Accepted {
    /// The player's first bid of the round.
    Bid,
    /// A lower bid replacing the player's own.
    Lowered,
}

impl Bidding {
    /// The bidding of a round at a table of `players`, the target just shown.
    pub fn new(players: usize) -> Self {
        Bidding {
            now: 0.0,
            first: None,
            turned: false,
            standing: vec![None; players],
            passed: vec![false; players],
        }
    }

    /// Seconds since the target was shown: the time of the last event.
    pub fn now(&self) -> f64 {
        self.now
    }

    /// When the sand timer runs out, once it runs: a minute after the first bid, or after it
    /// was turned with no bid at [`NO_BID`]. A bid made as it runs out is in time.
    pub fn runs_out(&self) -> Option<f64> {
        match (self.first, self.turned) {
            (Some(first), false) => Some(first + TIMER),
            (_, true) => Some(NO_BID + TIMER),
            (None, false) => None,
        }
    }

    /// The next time something happens with no bid: the timer runs out, or is turned.
    pub fn next_deadline(&self) -> f64 {
        self.runs_out().unwrap_or(NO_BID)
    }

    /// Whether the timer has run out: the bidding is over.
    pub fn is_over(&self) -> bool {
        self.runs_out().is_some_and(|end| self.now >= end)
    }

    /// Whether the timer was turned at [`NO_BID`] with no bid.
    pub fn turned(&self) -> bool {
        self.turned
    }

    /// Time passes to `to` (never back) with nothing heard; at [`NO_BID`] with no bid, the
    /// timer is turned.
    pub fn wait_until(&mut self, to: f64) {
        self.now = self.now.max(to);
        if self.first.is_none() && self.now >= NO_BID {
            self.turned = true;
        }
    }

    /// `player` bids `moves` at `at` seconds: accepted, or refused with the rule's reason (the
    /// standing bid stays).
    pub fn bid(&mut self, at: f64, player: usize, moves: u32) -> Result<Accepted, Refusal> {
        let at = at.max(self.now);
        if let Some(ran_out) = self.runs_out().filter(|&end| at > end) {
            return Err(Refusal::Late { ran_out });
        }
        self.wait_until(at);
        if self.passed[player] {
            return Err(Refusal::Passed);
        }
        if moves == 0 {
            return Err(Refusal::Zero);
        }
        let accepted = match self.standing[player] {
            Some((standing, _)) if moves > standing => return Err(Refusal::Raises { standing }),
            Some((standing, _)) if moves == standing => return Err(Refusal::Repeats { standing }),
            Some(_) => Accepted::Lowered,
            None => Accepted::Bid,
        };
        if self.first.is_none() && !self.turned {
            self.first = Some(at);
        }
        self.standing[player] = Some((moves, at));
        Ok(accepted)
    }

    /// `player` stops bidding this round at `at` (their bid, if any, stands).
    pub fn pass(&mut self, at: f64, player: usize) {
        self.wait_until(at);
        self.passed[player] = true;
    }

    /// Whether `player` passed this round.
    pub fn has_passed(&self, player: usize) -> bool {
        self.passed[player]
    }

    /// Each player's bid standing, in seat order.
    pub fn standing(&self) -> Vec<Option<u32>> {
        self.standing.iter().map(|s| s.map(|(m, _)| m)).collect()
    }

    /// The bids in the order they are shown: the lowest first; equal bids: fewer `tokens`
    /// first, then the earlier bid (B.1 and its tournament variant). `(moves, player)`.
    pub fn queue(&self, tokens: &[u32]) -> Vec<(u32, usize)> {
        let mut queue: Vec<(u32, u32, f64, usize)> = self
            .standing
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.map(|(m, at)| (m, tokens[i], at, i)))
            .collect();
        queue.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.total_cmp(&b.2)));
        queue.into_iter().map(|(m, _, _, i)| (m, i)).collect()
    }
}

/// What the humans are told when asked to wait: the clock, the timer, the bids.
#[derive(Clone, Debug)]
pub struct Timer {
    /// Seconds since the target was shown (the last event's time).
    pub now: f64,
    /// Wait at most until then: the next computer bid, the timer running out or being
    /// turned.
    pub until: f64,
    /// When the sand timer runs out, once it runs.
    pub runs_out: Option<f64>,
    /// Whether the timer was turned with no bid (after [`NO_BID`] seconds).
    pub turned: bool,
    /// Each player's bid standing, in seat order.
    pub standing: Vec<Option<u32>>,
    /// The human players still bidding (seats).
    pub waiting: Vec<usize>,
}

/// What a front end heard from the humans while waiting.
#[derive(Clone, Debug, PartialEq)]
pub enum Heard {
    /// A bid by the human in seat `player`, `at` seconds after the target was shown.
    Bid { at: f64, player: usize, moves: u32 },
    /// The human in seat `player` stops bidding this round.
    Pass { at: f64, player: usize },
    /// Nothing until the time asked.
    Nothing,
    /// The game ends now, with the scores so far.
    Quit(Quit),
}

/// The human players, behind a front end that owns the clock (real or scripted).
pub trait Humans {
    /// A round's target is shown: the position the humans look for a solution in.
    fn look(&mut self, round: u32, position: &Position);
    /// Waits for a bid, a pass or a quit from the humans in `timer.waiting`, at most until
    /// `timer.until` seconds; [`Heard::Nothing`] when that time came first.
    fn wait(&mut self, timer: &Timer) -> Heard;
    /// After the timer ran out at `ran_out`: the bids the humans made too late, each
    /// `(seconds, player, moves)`, to be refused with the reason.
    fn late(&mut self, ran_out: f64) -> Vec<(f64, usize, u32)>;
    /// The demonstration of the bid `bid` of the human in seat `player`, named `name`.
    fn demonstrate(&mut self, player: usize, name: &str, bid: u32) -> Result<Vec<Move>, Quit>;
}

impl Humans for NoHumans {
    fn look(&mut self, _: u32, _: &Position) {}
    fn wait(&mut self, _: &Timer) -> Heard {
        Heard::Nothing
    }
    fn late(&mut self, _: f64) -> Vec<(f64, usize, u32)> {
        Vec::new()
    }
    fn demonstrate(&mut self, _: usize, _: &str, _: u32) -> Result<Vec<Move>, Quit> {
        Ok(Vec::new())
    }
}

/// One bid offered to the bidding, its note logged: accepted, lowered or refused.
fn offer(
    bidding: &mut Bidding,
    (at, player, moves): (f64, usize, u32),
    players: &[Player],
    log: &mut dyn FnMut(Note),
) {
    let name = players[player].name.clone();
    let seconds = at.max(bidding.now());
    match bidding.bid(at, player, moves) {
        Ok(accepted) => log(Note::Bid {
            seconds,
            player: name,
            moves,
            lowered: accepted == Accepted::Lowered,
        }),
        Err(why) => log(Note::Refused {
            seconds,
            player: name,
            moves,
            why,
        }),
    }
}

/// A round's bidding: the computers' bids of `schedule` (`(seconds, player, moves)`, in time
/// order) at their times, the humans' as the front end hears them, until the sand timer runs
/// out; then the humans' late bids, refused. The bidding as it ended, or the quit that ended
/// the game.
pub fn run(
    round: u32,
    players: &[Player],
    schedule: &[(f64, usize, u32)],
    position: &Position,
    humans: &mut dyn Humans,
    log: &mut dyn FnMut(Note),
) -> Result<Bidding, Quit> {
    let mut bidding = Bidding::new(players.len());
    let seats: Vec<usize> = (0..players.len())
        .filter(|&i| players[i].kind == Kind::Human)
        .collect();
    if !seats.is_empty() {
        humans.look(round, position);
    }
    let mut next = schedule.iter().peekable();
    while !bidding.is_over() {
        let deadline = bidding.next_deadline();
        let computer = next.peek().filter(|b| b.0 <= deadline).copied();
        let until = computer.map_or(deadline, |b| b.0.max(bidding.now()));
        let waiting: Vec<usize> = seats
            .iter()
            .copied()
            .filter(|&i| !bidding.has_passed(i))
            .collect();
        let heard = if waiting.is_empty() {
            Heard::Nothing
        } else {
            humans.wait(&Timer {
                now: bidding.now(),
                until,
                runs_out: bidding.runs_out(),
                turned: bidding.turned(),
                standing: bidding.standing(),
                waiting,
            })
        };
        match heard {
            Heard::Bid { at, player, moves } if seats.contains(&player) => {
                offer(&mut bidding, (at, player, moves), players, log);
            }
            Heard::Pass { at, player } if seats.contains(&player) => {
                bidding.pass(at, player);
                let seconds = bidding.now();
                log(Note::Passes {
                    seconds,
                    player: players[player].name.clone(),
                });
            }
            Heard::Quit(quit) => return Err(quit),
            Heard::Nothing | Heard::Bid { .. } | Heard::Pass { .. } => {
                bidding.wait_until(until);
                if let Some(&bid) = computer {
                    next.next();
                    offer(&mut bidding, bid, players, log);
                }
            }
        }
    }
    if !seats.is_empty() {
        let ran_out = bidding.next_deadline();
        for (at, player, moves) in humans.late(ran_out) {
            if seats.contains(&player) {
                offer(&mut bidding, (at, player, moves), players, log);
            }
        }
    }
    Ok(bidding)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_bid_turns_the_timer_and_a_bid_as_it_runs_out_is_in_time() {
        let mut b = Bidding::new(2);
        assert_eq!(b.runs_out(), None);
        assert_eq!(b.bid(5.0, 0, 7), Ok(Accepted::Bid));
        assert_eq!(b.runs_out(), Some(65.0));
        assert_eq!(b.bid(65.0, 1, 6), Ok(Accepted::Bid));
        assert_eq!(b.bid(65.5, 1, 5), Err(Refusal::Late { ran_out: 65.0 }));
        assert_eq!(b.queue(&[0, 0]), [(6, 1), (7, 0)]);
    }

    #[test]
    fn a_player_lowers_never_raises_their_own_bid() {
        let mut b = Bidding::new(2);
        assert_eq!(b.bid(1.0, 0, 7), Ok(Accepted::Bid));
        assert_eq!(b.bid(2.0, 0, 9), Err(Refusal::Raises { standing: 7 }));
        assert_eq!(b.bid(3.0, 0, 7), Err(Refusal::Repeats { standing: 7 }));
        assert_eq!(b.bid(4.0, 1, 9), Ok(Accepted::Bid), "higher than another's");
        assert_eq!(b.bid(5.0, 0, 4), Ok(Accepted::Lowered));
        assert_eq!(b.standing(), [Some(4), Some(9)]);
        assert_eq!(
            b.runs_out(),
            Some(61.0),
            "lowering does not turn the timer again"
        );
    }

    #[test]
    fn equal_bids_fewer_tokens_first_then_the_earlier() {
        let mut b = Bidding::new(3);
        for (at, player) in [(1.0, 2), (2.0, 0), (3.0, 1)] {
            b.bid(at, player, 5).unwrap();
        }
        assert_eq!(b.queue(&[1, 1, 1]), [(5, 2), (5, 0), (5, 1)]);
        assert_eq!(b.queue(&[1, 0, 1]), [(5, 1), (5, 2), (5, 0)]);
    }

    #[test]
    fn with_no_bid_the_timer_is_turned_and_time_never_goes_back() {
        let mut b = Bidding::new(2);
        b.wait_until(NO_BID);
        assert!(b.turned() && !b.is_over());
        assert_eq!(b.runs_out(), Some(NO_BID + TIMER));
        assert_eq!(
            b.bid(10.0, 0, 4),
            Ok(Accepted::Bid),
            "taken at the clock's time"
        );
        assert_eq!(
            b.runs_out(),
            Some(NO_BID + TIMER),
            "the turned timer runs on"
        );
        b.pass(320.0, 1);
        assert_eq!(b.bid(330.0, 1, 3), Err(Refusal::Passed));
        assert_eq!(b.bid(331.0, 0, 0), Err(Refusal::Zero));
        b.wait_until(NO_BID + TIMER);
        assert!(b.is_over());
    }
}
