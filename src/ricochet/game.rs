//! A game of Ricochet Robots (RULES B.1), or of Ricochets (B.2) on a board with robot bases:
//! targets drawn, bids while a simulated sand timer runs, demonstrations checked by the rules,
//! ties, tokens, the end. Pure and seeded: humans answer through [`Humans`], the log goes to
//! a sink.

use super::board::{Board, Cell, Colour};
use super::position::{Goal, Move, Position, Rules};
use super::solve::{check, solve};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// The sand timer, started by the first bid.
pub const TIMER: f64 = 60.0;
/// With no bid after this long, the round is abandoned (the rules' 4–5 minutes).
pub const NO_BID: f64 = 300.0;
/// The longest solution anybody looks for.
pub const SEARCH_LIMIT: u32 = 20;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Strength 1 to 4: how deep the player sees (6, 9, 12, 20 moves), how fast, how often
    /// it bids wrong.
    Computer {
        strength: u8,
    },
    Human,
}

#[derive(Clone, Debug)]
pub struct Player {
    pub name: String,
    pub kind: Kind,
    pub tokens: u32,
}

pub trait Humans {
    /// Bids: `(seconds after the target was shown, moves)`, in order; empty to pass.
    fn bid(&mut self, name: &str, position: &Position, drawing: &str) -> Vec<(f64, u32)>;
    /// The demonstration of a bid.
    fn demonstrate(&mut self, name: &str, bid: u32) -> Vec<Move>;
}

pub struct NoHumans;

impl Humans for NoHumans {
    fn bid(&mut self, _: &str, _: &Position, _: &str) -> Vec<(f64, u32)> {
        Vec::new()
    }
    fn demonstrate(&mut self, _: &str, _: u32) -> Vec<Move> {
        Vec::new()
    }
}

#[derive(Clone, Debug)]
pub struct Outcome {
    pub rounds: u32,
    pub players: Vec<Player>,
    pub winners: Vec<String>,
    pub reason: String,
}

/// The tokens that end a game of B.1 for a number of players (`None`: until all are won).
pub fn tokens_to_win(players: usize) -> Option<u32> {
    match players {
        2 => Some(8),
        3 => Some(6),
        4 => Some(5),
        _ => None,
    }
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
/// or a target's.
fn free_cell(board: &Board, robots: &[(Colour, Cell)], rng: &mut ChaCha8Rng) -> Cell {
    loop {
        let c = rng.random_range(0..board.len() as u32) as Cell;
        let free = !board.blocked[usize::from(c)]
            && board.diagonals[usize::from(c)].is_none()
            && !robots.iter().any(|(_, p)| *p == c)
            && !board.targets.iter().any(|t| t.cell == c);
        if free {
            return c;
        }
    }
}

struct Bid {
    at: f64,
    player: usize,
    moves: u32,
}

/// Plays a whole game on `board`. With bases on the board it is Ricochets (B.2): robots start
/// on their bases, 8 treasures (2 per colour) are drawn, a one-move solution does not count,
/// and each played target moves elsewhere.
pub fn play(
    board: &Board,
    mut players: Vec<Player>,
    seed: u64,
    rules: Rules,
    humans: &mut dyn Humans,
    log: &mut dyn FnMut(String),
) -> Outcome {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut board = board.clone();
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
            None => free_cell(&board, &robots, &mut rng),
        };
        robots.push((colour, cell));
    }
    // The pile: every target token (B.1), or 8 treasures, two per colour (B.2).
    let mut pile: Vec<Option<Colour>> = if ricochets {
        colours.iter().flat_map(|&c| [Some(c), Some(c)]).collect()
    } else {
        board.targets.iter().map(|t| t.colour).collect()
    };
    let mut pile_symbols: Vec<usize> = (0..pile.len()).collect();
    let mut order: Vec<usize> = (0..pile.len()).collect();
    order.shuffle(&mut rng);
    pile = order.iter().map(|&i| pile[i]).collect();
    pile_symbols = order.iter().map(|&i| pile_symbols[i]).collect();
    let goal_tokens = if ricochets {
        None
    } else {
        tokens_to_win(players.len())
    };
    let mut round = 0;
    let reason = loop {
        if let Some(t) = goal_tokens
            && let Some(p) = players.iter().find(|p| p.tokens >= t)
        {
            break format!("{} has {t} tokens", p.name);
        }
        if pile.is_empty() {
            break if ricochets {
                "the treasures have run out".to_string()
            } else {
                "every token has been won".to_string()
            };
        }
        if round >= 200 {
            break "200 rounds played".to_string();
        }
        round += 1;
        let token = pile.remove(0);
        let token_index = pile_symbols.remove(0);
        let target = if ricochets {
            board.targets.iter().find(|t| t.colour == token).cloned()
        } else {
            board.targets.get(token_index).cloned()
        };
        let Some(target) = target else {
            log(format!(
                "round {round}: the board has no target for this token; it is set aside"
            ));
            continue;
        };
        let who = target
            .colour
            .map_or("any robot".to_string(), |c| format!("the {c} robot"));
        log(format!(
            "round {round}: {} {} at [{}, {}] for {who}",
            target
                .colour
                .map_or("multicolour".to_string(), |c| c.to_string()),
            target.symbol,
            board.xy(target.cell).0,
            board.xy(target.cell).1
        ));
        let position = Position {
            board: Arc::new(board.clone()),
            robots: robots.clone(),
            goal: Goal {
                cell: target.cell,
                robot: target.colour,
            },
            rules,
        };
        let best = solve(&position, SEARCH_LIMIT).ok();
        let drawing =
            super::board::render_with_goal(&position.board, &position.robots, Some(target.cell));
        // Everybody looks at once; bids come in as they are found.
        let mut bids: Vec<Bid> = Vec::new();
        for (i, player) in players.iter().enumerate() {
            let found = match player.kind {
                Kind::Computer { strength } => {
                    computer_bids(&mut rng, strength, best.as_ref().map(|s| s.moves))
                }
                Kind::Human => humans.bid(&player.name, &position, &drawing),
            };
            bids.extend(found.into_iter().map(|(at, moves)| Bid {
                at,
                player: i,
                moves,
            }));
        }
        bids.sort_by(|a, b| a.at.total_cmp(&b.at).then(a.player.cmp(&b.player)));
        let Some(first) = bids.first().map(|b| b.at).filter(|&t| t <= NO_BID) else {
            log("  no bid: the token goes back into the pile".to_string());
            let at = rng.random_range(0..=pile.len() as u32) as usize;
            pile.insert(at, token);
            pile_symbols.insert(at, token_index);
            continue;
        };
        // The timer runs from the first bid; a player may lower a bid, never raise it.
        let mut standing: Vec<Option<(u32, f64)>> = vec![None; players.len()];
        for b in bids.iter().filter(|b| b.at <= first + TIMER) {
            let current = standing[b.player];
            if current.is_none_or(|(m, _)| b.moves < m) {
                if current.is_none() {
                    log(format!(
                        "  after {:.0} s, {} bids {}",
                        b.at, players[b.player].name, b.moves
                    ));
                } else {
                    log(format!(
                        "  after {:.0} s, {} lowers to {}",
                        b.at, players[b.player].name, b.moves
                    ));
                }
                standing[b.player] = Some((b.moves, b.at));
            }
        }
        // The lowest bid shows first; equal bids: fewer tokens first, then the earlier bid.
        let mut queue: Vec<(u32, u32, f64, usize)> = standing
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.map(|(m, at)| (m, players[i].tokens, at, i)))
            .collect();
        queue.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.total_cmp(&b.2)));
        let mut won = false;
        for (moves, _, _, i) in queue {
            let shown = match players[i].kind {
                Kind::Human => humans.demonstrate(&players[i].name, moves),
                Kind::Computer { .. } => match &best {
                    Some(s) if s.moves <= moves => s.solution.clone(),
                    _ => {
                        let fewest = best.as_ref().map_or("no way within 20".to_string(), |s| {
                            format!("the fewest is {}", s.moves)
                        });
                        log(format!(
                            "  {} cannot show {moves} moves ({fewest}); the robots go back",
                            players[i].name
                        ));
                        continue;
                    }
                },
            };
            match check(&position, &shown) {
                Ok(n) if n <= moves => {
                    let text: Vec<String> = shown.iter().map(ToString::to_string).collect();
                    players[i].tokens += 1;
                    log(format!(
                        "  {} shows {n} moves: {}; wins the token ({} now)",
                        players[i].name,
                        text.join(", "),
                        players[i].tokens
                    ));
                    // The robots stay where the demonstration left them.
                    let mut after = position.clone();
                    for m in &shown {
                        after.play(*m).expect("checked");
                    }
                    robots = after.robots;
                    won = true;
                    break;
                }
                Ok(n) => log(format!(
                    "  {} needs {n} moves, more than the {moves} bid; the robots go back",
                    players[i].name
                )),
                Err(why) => log(format!(
                    "  {} cannot show {moves} moves ({why}); the robots go back",
                    players[i].name
                )),
            }
        }
        if !won {
            log("  nobody succeeds: the token goes back into the pile".to_string());
            let at = rng.random_range(0..=pile.len() as u32) as usize;
            pile.insert(at, token);
            pile_symbols.insert(at, token_index);
        } else if ricochets {
            // B.2: the played target moves elsewhere.
            let index = board
                .targets
                .iter()
                .position(|t| t.cell == target.cell)
                .expect("the target is on the board");
            let free = free_cell(&board, &robots, &mut rng);
            board.targets[index].cell = free;
            let (x, y) = board.xy(free);
            log(format!(
                "  the {} target moves to [{x}, {y}]",
                target
                    .colour
                    .map_or("multicolour".into(), |c| c.to_string())
            ));
        }
    };
    let table: Vec<(&str, u32)> = players
        .iter()
        .map(|p| (p.name.as_str(), p.tokens))
        .collect();
    let winners = crate::table::finish(&table, &format!("{round} rounds"), &reason, log);
    Outcome {
        rounds: round,
        players,
        winners,
        reason,
    }
}
