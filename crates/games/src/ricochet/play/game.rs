//! A game of Ricochet Robots (RULES B.1), or of Ricochets (B.2) on a board with robot bases:
//! targets drawn, bids while the sand timer runs ([`bidding`]), demonstrations checked by the
//! rules, ties, tokens, the end. Pure and seeded: humans answer through [`Humans`], whose
//! front end owns the clock; the log goes to a sink. The players, their seats and the end of
//! a game are the table's ([`crate::table`]).

use super::bidding::{self, Bidding};
use super::record::{Note, Quit, Unshown};
use crate::ricochet::board::{Board, Cell, Colour, Target};
use crate::ricochet::files::quarters::{from_quadrants, original_arrangements};
use crate::ricochet::position::{Goal, Position};
use crate::ricochet::rules::Rules;
use crate::ricochet::solve::{Solution, check, solve};
use crate::table;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

pub use super::bidding::{Heard, Humans, NO_BID, TIMER, Timer};
pub use crate::table::{Kind, NoHumans, Player};

/// The longest solution anybody looks for.
pub const SEARCH_LIMIT: u32 = 20;
/// A game stops after this many rounds even if tokens are left.
pub const MAX_ROUNDS: u32 = 200;

#[derive(Clone, Debug)]
pub struct Outcome {
    pub rounds: u32,
    pub players: Vec<Player>,
    pub winners: Vec<String>,
    pub reason: String,
    /// The ruling that ended the game, when one did (R-B3).
    pub ruling: Option<&'static str>,
}

/// R-B3: a game also ends when a whole pass of the pile goes by with no token won.
pub const PASS_WITHOUT_A_WIN: &str = "R-B3";

/// The tokens that end a game of B.1 for a number of players (`None`: until all are won).
pub fn tokens_to_win(players: usize) -> Option<u32> {
    match players {
        2 => Some(8),
        3 => Some(6),
        4 => Some(5),
        _ => None,
    }
}

/// The board of a game when none is given: one arrangement of the original quarter boards,
/// drawn from the board stream of `seed` ([`table::board_rng`]), so the seed gives the board
/// and the game's draws do not depend on it.
pub fn original_board(seed: u64) -> Board {
    let all = original_arrangements();
    let quarters = &all[table::board_rng(seed).random_range(0..all.len())];
    from_quadrants(quarters).expect("the original quarter boards fit together")
}

/// A computer player's bids for a position whose optimum is `optimal` (or unknown to it).
fn computer_bids(rng: &mut ChaCha8Rng, strength: u8, optimal: Option<u32>) -> Vec<(f64, u32)> {
    let sees = match strength {
        1 => 6,
        2 => 9,
        3 => 12,
        _ => SEARCH_LIMIT,
    };
    let Some(best) = optimal.filter(|&m| m <= sees) else {
        return Vec::new();
    };
    let pace = match strength {
        1 => 9.0,
        2 => 6.0,
        3 => 4.0,
        _ => 2.5,
    };
    let wrong = match strength {
        1 => 0.2,
        2 => 0.1,
        3 => 0.05,
        _ => 0.02,
    };
    let seconds = pace * f64::from(best) * rng.random_range(0.5..2.0);
    let mut bids = Vec::new();
    // Sometimes a longer way is found first, and the optimum later.
    if best > 2 && rng.random_bool(0.4) {
        let first = best + rng.random_range(1..3u32);
        bids.push((seconds * rng.random_range(0.3..0.7), first));
    }
    let final_bid = if rng.random_bool(wrong) {
        best.saturating_sub(1).max(1)
    } else {
        best
    };
    bids.push((seconds, final_bid));
    bids
}

/// A random cell a robot or a target may take: not the centre, not a diagonal, not a robot's
/// or a target's; `None` when there is none.
fn free_cell(board: &Board, robots: &[(Colour, Cell)], rng: &mut ChaCha8Rng) -> Option<Cell> {
    board.draw_free_cell(rng, |c| {
        !board.blocked[usize::from(c)]
            && board.diagonals[usize::from(c)].is_none()
            && !robots.iter().any(|(_, p)| *p == c)
            && !board.targets.iter().any(|t| t.cell == c)
    })
}

/// Why a game cannot start on a board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error(
        "no free cell for the {0} robot on board `{1}`: every cell is the centre, a diagonal, a target or a robot's"
    )]
    NoFreeCell(Colour, String),
}

/// A token of the pile: its colour, and which of the board's targets it is (B.1).
type Token = (Option<Colour>, usize);

/// A game in play: the board (whose targets move in Ricochets), the robots, the pile of
/// tokens, the tokens gone back since one was last won (R-B3), the generator and the table.
pub struct Game {
    board: Board,
    ricochets: bool,
    rules: Rules,
    rng: ChaCha8Rng,
    robots: Vec<(Colour, Cell)>,
    pile: Vec<Token>,
    back: Vec<Token>,
    players: Vec<Player>,
    solver: fn(&Position, u32) -> Option<Solution>,
}

impl Game {
    /// A game on `board`. With bases on the board it is Ricochets (B.2): robots start on
    /// their bases, 8 treasures (2 per colour) are drawn, a one-move solution does not count,
    /// and each played target moves elsewhere. `seed` drives every draw.
    /// No free cell for a robot without a base is a [`GameError`].
    pub fn new(
        board: &Board,
        players: Vec<Player>,
        seed: u64,
        rules: Rules,
    ) -> Result<Game, GameError> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let board = board.clone();
        let ricochets = !board.bases.is_empty();
        let mut rules = rules;
        if ricochets {
            rules.no_single_move = true;
        }
        let colours = [Colour::Red, Colour::Green, Colour::Blue, Colour::Yellow];
        // Robots: on their bases (B.2) or on random free cells (B.1).
        let mut robots: Vec<(Colour, Cell)> = Vec::new();
        for colour in colours {
            let cell = match board.bases.iter().find(|(c, _)| *c == colour) {
                Some((_, cell)) => *cell,
                None => free_cell(&board, &robots, &mut rng)
                    .ok_or_else(|| GameError::NoFreeCell(colour, board.name.clone()))?,
            };
            robots.push((colour, cell));
        }
        // The pile: every target token (B.1), or 8 treasures, two per colour (B.2).
        let colours: Vec<Option<Colour>> = if ricochets {
            colours.iter().flat_map(|&c| [Some(c), Some(c)]).collect()
        } else {
            board.targets.iter().map(|t| t.colour).collect()
        };
        let mut pile: Vec<Token> = colours.into_iter().zip(0..).collect();
        pile.shuffle(&mut rng);
        Ok(Game {
            board,
            ricochets,
            rules,
            rng,
            robots,
            pile,
            back: Vec::new(),
            players,
            solver: |position, limit| solve(position, limit).ok(),
        })
    }

    /// The same game, its rounds solved by `solver`: the solver or a memo of it (`crates/web`).
    #[must_use]
    pub fn with_solver(mut self, solver: fn(&Position, u32) -> Option<Solution>) -> Game {
        self.solver = solver;
        self
    }

    /// The board as the game starts (in Ricochets its targets move during play).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The robots where the game starts them.
    pub fn robots(&self) -> &[(Colour, Cell)] {
        &self.robots
    }

    /// The rules of play (Ricochets adds R-B2).
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Whether this is a game of Ricochets (B.2): the board has robot bases.
    pub fn is_ricochets(&self) -> bool {
        self.ricochets
    }

    /// Plays the game to its end. `log` receives the game's account, a [`Note`] an event.
    pub fn play(mut self, humans: &mut dyn Humans, log: &mut dyn FnMut(Note)) -> Outcome {
        let mut round = 0;
        let mut ruling = None;
        let reason = loop {
            if let Some((reason, by)) = self.over() {
                ruling = by;
                break reason;
            }
            if round >= MAX_ROUNDS {
                break format!("{MAX_ROUNDS} rounds played");
            }
            round += 1;
            if let Err(quit) = self.round(round, humans, log) {
                log(Note::Quits(quit.clone()));
                break quit.to_string();
            }
        };
        let mut end = table::finish(&self.players, round, "round", &reason);
        end.ruling = ruling;
        let winners = end.winners.clone();
        log(Note::End(end));
        Outcome {
            rounds: round,
            players: self.players,
            winners,
            reason,
            ruling,
        }
    }

    /// Whether the game is over before its next round: why, and the ruling that says so.
    /// B.1: a player has the tokens that win; B.1 and B.2: the pile is empty; R-B3: a whole
    /// pass of the pile went by with no token won.
    fn over(&self) -> Option<(String, Option<&'static str>)> {
        let goal_tokens = if self.ricochets {
            None
        } else {
            tokens_to_win(self.players.len())
        };
        if let Some(t) = goal_tokens
            && let Some(p) = self.players.iter().find(|p| p.tokens >= t)
        {
            return Some((format!("{} has {t} tokens", p.name), None));
        }
        if self.pile.is_empty() {
            return Some((
                if self.ricochets {
                    "the treasures have run out".to_string()
                } else {
                    "every token has been won".to_string()
                },
                None,
            ));
        }
        if self.pile.iter().all(|t| self.back.contains(t)) {
            let (pile, token) = if self.ricochets {
                ("treasures", "treasure")
            } else {
                ("pile", "token")
            };
            return Some((
                format!(
                    "a whole pass of the {pile} went by with no {token} won ({PASS_WITHOUT_A_WIN})"
                ),
                Some(PASS_WITHOUT_A_WIN),
            ));
        }
        None
    }

    /// A token goes back into the pile, at a random place (R-B3 counts it as gone back).
    fn put_back(&mut self, token: Token) {
        if !self.back.contains(&token) {
            self.back.push(token);
        }
        let len = u32::try_from(self.pile.len()).expect("a pile of a few tokens");
        let at = usize::try_from(self.rng.random_range(0..=len)).expect("a u32 fits a usize");
        self.pile.insert(at, token);
    }

    /// One round: a token drawn, bids, demonstrations; `Err` when a human ends the game.
    fn round(
        &mut self,
        round: u32,
        humans: &mut dyn Humans,
        log: &mut dyn FnMut(Note),
    ) -> Result<(), Quit> {
        let token = self.pile.remove(0);
        let target = if self.ricochets {
            self.board.targets.iter().find(|t| t.colour == token.0)
        } else {
            self.board.targets.get(token.1)
        };
        let Some(target) = target.cloned() else {
            log(Note::NoTarget { round });
            return Ok(());
        };
        let position = Position {
            board: Arc::new(self.board.clone()),
            robots: self.robots.clone(),
            goal: Goal {
                cell: target.cell,
                robot: target.colour,
            },
            rules: self.rules,
        };
        let best = (self.solver)(&position, SEARCH_LIMIT);
        log(Note::Target {
            round,
            colour: target.colour,
            symbol: target.symbol.clone(),
            at: self.board.xy(target.cell),
            fewest: best.as_ref().map(|s| s.moves),
        });
        let schedule = self.computer_bids(best.as_ref());
        // A quit ends the game here: the round's token is not played.
        let bidding = bidding::run(round, &self.players, &schedule, &position, humans, log)?;
        let queue = self.queue(&bidding);
        if queue.is_empty() {
            log(Note::NoBid);
            self.put_back(token);
            return Ok(());
        }
        if !self.demonstrations(&queue, &position, best.as_ref(), humans, log)? {
            log(Note::NobodySucceeds);
            self.put_back(token);
            return Ok(());
        }
        // R-B3: a pass of the pile starts again from a token won.
        self.back.clear();
        if self.ricochets {
            self.move_target(&target, log);
        }
        Ok(())
    }

    /// Everybody looks at once: each computer's bids, as it will find them (`(seconds,
    /// player, moves)`, in time order; equal times in seat order).
    fn computer_bids(&mut self, best: Option<&Solution>) -> Vec<(f64, usize, u32)> {
        let mut bids = Vec::new();
        for (i, player) in self.players.iter().enumerate() {
            if let Kind::Computer { strength } = player.kind {
                let found = computer_bids(&mut self.rng, strength, best.map(|s| s.moves));
                bids.extend(found.into_iter().map(|(at, moves)| (at, i, moves)));
            }
        }
        bids.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        bids
    }

    /// The standing bids in the order they are shown (`(moves, player)`).
    fn queue(&self, bidding: &Bidding) -> Vec<(u32, usize)> {
        let tokens: Vec<u32> = self.players.iter().map(|p| p.tokens).collect();
        bidding.queue(&tokens)
    }

    /// The bidders show their solutions in turn until one succeeds (it wins the token, and
    /// the robots stay where it left them). Whether anyone succeeded; `Err` when a human
    /// ends the game.
    fn demonstrations(
        &mut self,
        queue: &[(u32, usize)],
        position: &Position,
        best: Option<&Solution>,
        humans: &mut dyn Humans,
        log: &mut dyn FnMut(Note),
    ) -> Result<bool, Quit> {
        for &(moves, i) in queue {
            let name = &self.players[i].name;
            let shown = match self.players[i].kind {
                Kind::Human => humans.demonstrate(i, name, moves)?,
                Kind::Computer { .. } => match best {
                    Some(s) if s.moves <= moves => s.solution.clone(),
                    _ => {
                        log(Note::Fails {
                            player: name.clone(),
                            bid: moves,
                            why: Unshown::Fewest {
                                fewest: best.map(|s| s.moves),
                                within: SEARCH_LIMIT,
                            },
                        });
                        continue;
                    }
                },
            };
            match check(position, &shown) {
                Ok(n) if n <= moves => {
                    self.players[i].tokens += 1;
                    log(Note::Wins {
                        player: self.players[i].name.clone(),
                        moves: shown.clone(),
                        tokens: self.players[i].tokens,
                    });
                    let mut after = position.clone();
                    for m in &shown {
                        after.play(*m).expect("checked");
                    }
                    self.robots = after.robots;
                    return Ok(true);
                }
                Ok(n) => log(Note::Fails {
                    player: name.clone(),
                    bid: moves,
                    why: Unshown::Longer(n),
                }),
                Err(why) => log(Note::Fails {
                    player: name.clone(),
                    bid: moves,
                    why: Unshown::Invalid(why.to_string()),
                }),
            }
        }
        Ok(false)
    }

    /// B.2: the played target moves elsewhere.
    fn move_target(&mut self, target: &Target, log: &mut dyn FnMut(Note)) {
        let index = self
            .board
            .targets
            .iter()
            .position(|t| t.cell == target.cell)
            .expect("the target is on the board");
        let free = free_cell(&self.board, &self.robots, &mut self.rng);
        log(Note::TargetMoves {
            colour: target.colour,
            from: self.board.xy(target.cell),
            to: free.map(|c| self.board.xy(c)),
        });
        if let Some(free) = free {
            self.board.targets[index].cell = free;
        }
    }
}

/// Plays a whole game on `board` ([`Game::new`]). A game that cannot start (a [`GameError`])
/// ends at once, with no round played and the error as its reason; use [`Game::new`] to have
/// the error itself.
pub fn play(
    board: &Board,
    players: Vec<Player>,
    seed: u64,
    rules: Rules,
    humans: &mut dyn Humans,
    log: &mut dyn FnMut(Note),
) -> Outcome {
    match Game::new(board, players.clone(), seed, rules) {
        Ok(game) => game.play(humans, log),
        Err(e) => Outcome {
            rounds: 0,
            players,
            winners: Vec::new(),
            reason: e.to_string(),
            ruling: None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ricochet::position::Move;

    #[test]
    fn the_original_board_is_drawn_from_the_seed() {
        assert_eq!(original_board(3).name, original_board(3).name);
        let names: std::collections::HashSet<String> =
            (0..8).map(|seed| original_board(seed).name).collect();
        assert!(names.len() > 1, "seeds draw different quarter boards");
    }

    /// Two humans at the table, Ada and Blaise.
    fn two_humans() -> Vec<Player> {
        ["Ada", "Blaise"]
            .map(|name| Player {
                name: name.to_string(),
                kind: Kind::Human,
                tokens: 0,
            })
            .to_vec()
    }

    /// Plays `game`: its outcome and its notes.
    fn played(game: Game, humans: &mut dyn Humans) -> (Outcome, Vec<Note>) {
        let mut notes = Vec::new();
        let outcome = game.play(humans, &mut |n| notes.push(n));
        (outcome, notes)
    }

    /// The targets drawn in `notes` from round `from` on, each once.
    fn drawn(notes: &[Note], from: u32) -> std::collections::HashSet<(u16, u16)> {
        notes
            .iter()
            .filter_map(|n| match n {
                Note::Target { round, at, .. } if *round >= from => Some(*at),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn r_b3_a_whole_pass_of_the_pile_with_no_token_won_ends_the_game() {
        let game = Game::new(&original_board(7), two_humans(), 7, Rules::default())
            .expect("a game on the original board");
        // Nobody ever bids: every token goes back.
        let (outcome, notes) = played(game, &mut NoHumans);
        assert_eq!(outcome.ruling, Some(PASS_WITHOUT_A_WIN));
        assert!(outcome.reason.contains("(R-B3)"), "{}", outcome.reason);
        assert_eq!(
            drawn(&notes, 1).len(),
            17,
            "every token drawn before the end"
        );
        assert!(outcome.rounds >= 17 && outcome.rounds < MAX_ROUNDS);
        assert_eq!(outcome.winners, ["Ada", "Blaise"], "0 tokens each");
        let Some(Note::End(end)) = notes.last() else {
            panic!("the end is the last note")
        };
        assert_eq!(end.ruling, Some("R-B3"));
    }

    /// Ada wins one token, the first she can, then never bids again; Blaise never bids.
    #[derive(Default)]
    struct AdaWinsOne {
        solution: Option<Vec<Move>>,
        won: Option<u32>,
        round: u32,
    }

    impl Humans for AdaWinsOne {
        fn look(&mut self, round: u32, position: &Position) {
            self.round = round;
            self.solution = match self.won {
                Some(_) => None,
                None => solve(position, SEARCH_LIMIT).ok().map(|s| s.solution),
            };
        }
        fn wait(&mut self, timer: &Timer) -> Heard {
            match &self.solution {
                Some(moves) if timer.standing[0].is_none() => Heard::Bid {
                    at: timer.now,
                    player: 0,
                    moves: u32::try_from(moves.len()).expect("a few moves"),
                },
                _ => Heard::Nothing,
            }
        }
        fn late(&mut self, _: f64) -> Vec<(f64, usize, u32)> {
            Vec::new()
        }
        fn demonstrate(&mut self, _: usize, _: &str, _: u32) -> Result<Vec<Move>, Quit> {
            self.won = Some(self.round);
            Ok(self.solution.take().unwrap_or_default())
        }
    }

    #[test]
    fn r_b3_the_players_with_the_most_tokens_win_and_a_win_starts_the_pass_again() {
        let game = Game::new(&original_board(7), two_humans(), 7, Rules::default())
            .expect("a game on the original board");
        let mut humans = AdaWinsOne::default();
        let (outcome, notes) = played(game, &mut humans);
        let won = humans.won.expect("Ada wins a token");
        assert_eq!(outcome.ruling, Some(PASS_WITHOUT_A_WIN));
        assert_eq!(outcome.winners, ["Ada"]);
        assert_eq!(outcome.players[0].tokens, 1);
        // The pass that ends the game begins after the win: each of the 16 tokens left drawn.
        assert_eq!(drawn(&notes, won + 1).len(), 16);
    }

    #[test]
    fn r_b3_holds_for_the_treasures_of_ricochets() {
        let spec = crate::ricochet::generate::Spec::default();
        let board = crate::ricochet::generate::generate(&spec, 3)
            .expect("a random Ricochets board")
            .board;
        let game = Game::new(&board, two_humans(), 3, Rules::default()).expect("a game");
        let (outcome, _) = played(game, &mut NoHumans);
        assert_eq!(outcome.ruling, Some(PASS_WITHOUT_A_WIN));
        assert!(
            outcome.reason.contains("treasures") && outcome.reason.contains("(R-B3)"),
            "{}",
            outcome.reason
        );
    }
}
