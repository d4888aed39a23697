//! The full Ricochet game through `ricochetGame`, driven as the page drives it (the page's
//! clock, a request a step), against the games crate's own [`Game`] played by a front end
//! that answers the same: the same log and the same record, to the byte.

use crate::call;
use robots_games::ricochet::files::game_id::GameId;
use robots_games::ricochet::play::bidding::{Heard, Humans, Timer};
use robots_games::ricochet::play::game::{self, Game, SEARCH_LIMIT};
use robots_games::ricochet::play::record::Quit;
use robots_games::ricochet::position::{Move, Position};
use robots_games::ricochet::report;
use robots_games::ricochet::rules::Rules;
use robots_games::ricochet::solve::solve;
use robots_games::table;
use serde_json::{Value, json};

/// What the human says in round `round` of a position whose fewest moves are `fewest`: the
/// bids and passes with their seconds, and the moves to show (the optimal solution's).
/// Some rounds a bid lowered, some a bid the computers may beat, some a pass, one a bid
/// below the fewest (its demonstration fails).
fn answers(round: u32, fewest: Option<u32>) -> Vec<(f64, Option<u32>)> {
    let Some(f) = fewest else {
        return vec![(0.5, None)];
    };
    match round {
        4 => vec![(1.0, Some(f.saturating_sub(1).max(1)))],
        _ if round % 3 == 1 => vec![(1.5, Some(f + 2)), (4.0, Some(f))],
        _ if round % 3 == 2 => vec![(2.0, Some(f + 1))],
        _ => vec![(0.5, None)],
    }
}

fn fewest(p: &Position) -> Option<(u32, Vec<Move>)> {
    solve(p, SEARCH_LIMIT).ok().map(|s| (s.moves, s.solution))
}

/// The games crate's front end answering [`answers`] on its script's clock.
struct Scripted {
    round: u32,
    heard: std::collections::VecDeque<Heard>,
    shown: Vec<Move>,
}

impl Humans for Scripted {
    fn look(&mut self, round: u32, p: &Position) {
        self.round = round;
        let best = fewest(p);
        self.shown = best.clone().map(|b| b.1).unwrap_or_default();
        self.heard = answers(round, best.map(|b| b.0))
            .into_iter()
            .map(|(at, bid)| match bid {
                Some(moves) => Heard::Bid {
                    at,
                    player: 0,
                    moves,
                },
                None => Heard::Pass { at, player: 0 },
            })
            .collect();
    }
    fn wait(&mut self, timer: &Timer) -> Heard {
        match self.heard.front() {
            Some(Heard::Bid { at, .. } | Heard::Pass { at, .. }) if *at <= timer.until => {
                self.heard.pop_front().unwrap()
            }
            _ => Heard::Nothing,
        }
    }
    fn late(&mut self, _: f64) -> Vec<(f64, usize, u32)> {
        Vec::new()
    }
    fn demonstrate(&mut self, _: usize, _: &str, _: u32) -> Result<Vec<Move>, Quit> {
        Ok(self.shown.clone())
    }
}

/// The games crate's game: its log (with `robots ricochet play`'s first line) and record.
fn reference(seed: u64, players: usize, strength: u8) -> (Vec<String>, Vec<String>) {
    let table = table::roster(&["you".to_string()], players, strength).unwrap();
    let board = game::original_board(seed);
    let json_players = table::report::players(&table);
    let game = Game::new(&board, table, seed, Rules::default()).unwrap();
    let mut record = vec![report::setup(&game, seed, json_players)];
    let mut log = vec![format!(
        "Ricochet Robots on {} ({players} players, seed {seed})",
        board.name
    )];
    let mut folded = report::Record::default();
    let mut humans = Scripted {
        round: 0,
        heard: Default::default(),
        shown: Vec::new(),
    };
    game.play(&mut humans, &mut |note| {
        log.push(note.to_string());
        record.extend(folded.note(&note));
    });
    (log, record)
}

fn game(request: &Value) -> Value {
    let a: Value = serde_json::from_str(&call("ricochetGame", &request.to_string())).unwrap();
    a.get("ok").cloned().unwrap_or_else(|| panic!("{a}"))
}

/// The page's driver: each round's answers given on its clock, a request at each bid, at
/// each time the game waits until, and with each demonstration. The last answer and the
/// number of requests.
fn through_the_page(seed: u64, players: usize, strength: u8) -> (Value, usize) {
    let mut rounds: Vec<Value> = Vec::new();
    let mut planned: Vec<(f64, Option<u32>)> = Vec::new();
    let mut shown: Vec<Value> = Vec::new();
    let mut now = 0.0;
    let mut requests = 0;
    loop {
        let a = game(&json!({
            "seed": seed, "players": players, "strength": strength,
            "rounds": rounds, "now": now,
        }));
        requests += 1;
        assert!(requests < 5_000, "the game never ends");
        let round = usize::try_from(a["round"].as_u64().unwrap()).unwrap();
        if round > rounds.len() {
            // A new round: its target shown now, on the page's clock.
            assert_eq!(round, rounds.len() + 1);
            let id = a["id"]
                .as_str()
                .expect("an original board's position has an id");
            let p = id
                .parse::<GameId>()
                .unwrap()
                .position(Rules::default())
                .unwrap();
            let best = fewest(&p);
            shown = best
                .clone()
                .map(|b| b.1)
                .unwrap_or_default()
                .iter()
                .map(|m| json!({"robot": m.robot.name(), "dir": m.dir.letter().to_string()}))
                .collect();
            planned = answers(u32::try_from(round).unwrap(), best.map(|b| b.0));
            planned.reverse();
            rounds.push(json!({"heard": []}));
            now = 0.0;
        }
        match a["state"].as_str().unwrap() {
            "over" => return (a, requests),
            "demonstrate" => rounds[round - 1]["shown"] = json!(shown),
            "bidding" => {
                let until = a["timer"]["until"].as_f64().unwrap();
                match planned.last() {
                    Some(&(at, bid)) if at <= until => {
                        planned.pop();
                        now = at;
                        let heard = match bid {
                            Some(moves) => json!({"at": at, "bid": moves}),
                            None => json!({"at": at, "pass": true}),
                        };
                        rounds[round - 1]["heard"]
                            .as_array_mut()
                            .unwrap()
                            .push(heard);
                    }
                    _ => now = until,
                }
            }
            state => panic!("state {state}"),
        }
    }
}

/// An answer's array of strings.
fn strings(v: &Value) -> Vec<&str> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect()
}

#[test]
fn a_game_through_the_page_is_the_games_crates_game_to_the_byte() {
    for (seed, players, strength) in [(7, 3, 2), (12, 2, 4)] {
        let (last, requests) = through_the_page(seed, players, strength);
        let (log, record) = reference(seed, players, strength);
        assert_eq!(strings(&last["log"]), log, "seed {seed}");
        assert_eq!(strings(&last["record"]), record, "seed {seed}");
        // The game was played: bids lowered, a failed demonstration, tokens won by the human.
        let text = log.join("\n");
        assert!(text.contains(", you lowers to "), "{text}");
        assert!(text.contains("  you shows "), "{text}");
        assert!(!last["winners"].as_array().unwrap().is_empty());
        let tokens: u64 = last["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["tokens"].as_u64().unwrap())
            .sum();
        let won = log
            .iter()
            .filter(|l| l.contains("; wins the token ("))
            .count();
        assert_eq!(usize::try_from(tokens).unwrap(), won);
        assert!(
            requests > log.len() / 2,
            "a request at each step: {requests}"
        );
    }
}

#[test]
fn the_player_quits_and_a_hostile_game_is_refused_before_it_is_played() {
    let a = game(
        &json!({"seed": 3, "players": 2, "strength": 1, "rounds": [{"heard": []}], "now": 1.5, "quit": true}),
    );
    assert_eq!(a["state"], "over");
    let log = a["log"].as_array().unwrap();
    assert_eq!(log[log.len() - 2], "  you quit: the game ends here");
    let a = game(&json!({"seed": 3, "players": 2, "strength": 1}));
    assert_eq!(
        (a["state"].as_str(), a["round"].as_u64()),
        (Some("bidding"), Some(1))
    );
    assert_eq!(a["timer"]["now"], 0.0);
    let many: Vec<Value> = (0..=crate::table::ricochet::MAX_HEARD)
        .map(|i| json!({"at": i as f64, "bid": 5}))
        .collect();
    let base = json!({"seed": 3, "players": 2, "strength": 1});
    let with = |key: &str, value: Value| with(&base, key, value);
    refused_all(
        "ricochetGame",
        [
            with("players", json!(5)),
            with("players", json!(1)),
            with("strength", json!(0)),
            with("name", json!("a\u{1b}[2J")),
            with("name", json!("Ada")),
            with("now", json!(-1.0)),
            with("now", json!(2e6)),
            with("rounds", json!([{"heard": many}])),
            with("rounds", json!([{"heard": [{"at": 1.0}]}])),
            with(
                "rounds",
                json!([{"heard": [{"at": 1.0, "bid": 3, "pass": true}]}]),
            ),
            with("rounds", json!(vec![json!({}); 201])),
            with(
                "rounds",
                json!([{"shown": vec![json!({"robot": "red", "dir": "N"}); 1001]}]),
            ),
        ],
    );
}

/// `base` with `key` set to `value`.
fn with(base: &Value, key: &str, value: Value) -> Value {
    let mut r = base.clone();
    r[key] = value;
    r
}

/// Each request refused by `method` as over a limit or not a request, its message escaped.
fn refused_all<const N: usize>(method: &str, bad: [Value; N]) {
    for bad in bad {
        let a: Value = serde_json::from_str(&call(method, &bad.to_string())).unwrap();
        let kind = a["error"]["kind"].as_str();
        assert!(matches!(kind, Some("limit" | "request")), "{bad}: {a}");
        assert!(!a["error"]["message"].as_str().unwrap().contains('\u{1b}'));
    }
}

/// A Micro mission's shortest way through `microSolve`: its moves and the cells after the start.
fn micro_way(
    face: &str,
    seed: u64,
    from: &str,
    via: Option<&str>,
    to: &str,
) -> Option<(u32, Vec<String>)> {
    let a: Value = serde_json::from_str(&call(
        "microSolve",
        &json!({"on": {"face": face, "seed": seed}, "from": from, "to": to, "via": via})
            .to_string(),
    ))
    .unwrap();
    let ok = a.get("ok")?;
    let path = strings(&ok["path"])
        .iter()
        .skip(1)
        .map(|c| c.to_string())
        .collect();
    Some((u32::try_from(ok["moves"].as_u64()?).ok()?, path))
}

/// What the human answers in Micro mission `mission`: an announcement of the fewest moves at
/// 3 s in odd missions (one too many in the third: its demonstration fails), a pass else.
fn micro_answer(mission: usize, way: &Option<(u32, Vec<String>)>) -> Option<(f64, u32)> {
    let (moves, _) = way.as_ref()?;
    match mission {
        3 => Some((3.0, moves + 1)),
        _ if mission % 2 == 1 => Some((3.0, *moves)),
        _ => None,
    }
}

/// The games crate's front end for the same answers.
struct MicroScripted {
    face: &'static str,
    seed: u64,
    mission: usize,
    way: Option<(u32, Vec<String>)>,
}

impl robots_games::micro::game::Humans for MicroScripted {
    fn announce(
        &mut self,
        _: &str,
        _: &robots_games::micro::Board,
        start: robots_games::micro::Cell,
        via: Option<robots_games::micro::Cell>,
        target: robots_games::micro::Cell,
    ) -> Result<Option<(u32, f64)>, robots_games::micro::game::Quit> {
        self.mission += 1;
        let via = via.map(|c| c.to_string());
        self.way = micro_way(
            self.face,
            self.seed,
            &start.to_string(),
            via.as_deref(),
            &target.to_string(),
        );
        Ok(micro_answer(self.mission, &self.way).map(|(at, m)| (m, at)))
    }
    fn demonstrate(
        &mut self,
        _: &str,
        _: robots_games::micro::Cell,
        _: u32,
    ) -> Result<Vec<robots_games::micro::Cell>, robots_games::micro::game::Quit> {
        let cells = self.way.clone().map(|w| w.1).unwrap_or_default();
        Ok(cells
            .iter()
            .filter_map(|c| robots_games::micro::Cell::parse(c))
            .collect())
    }
}

/// The games crate's Micro game for [`micro_answer`]'s answers: its log and record.
fn micro_reference(
    face: &'static str,
    seed: u64,
    variant: &str,
    strength: u8,
) -> (Vec<String>, Vec<String>) {
    use robots_games::micro::{game::Game as MicroGame, report as micro_report, shipped};
    let text = shipped::micro_face(face).unwrap();
    let f = robots_games::micro::file::parse_face("face.yaml", text).unwrap();
    let table = table::roster(&["you".to_string()], 2, strength).unwrap();
    let json_players = table::report::players(&table);
    let v = match variant {
        "waypoint" => robots_games::micro::game::Variant::Waypoint,
        _ => robots_games::micro::game::Variant::Standard,
    };
    let game = MicroGame::on_face(&f, table, v, seed);
    let mut record = vec![micro_report::setup(&game, seed, json_players)];
    let mut log = vec![format!("Micro Robots on {}", game.board().name())];
    let mut folded = micro_report::Record::default();
    let mut humans = MicroScripted {
        face,
        seed,
        mission: 0,
        way: None,
    };
    game.play(&mut humans, &mut |n| {
        log.push(n.to_string());
        record.extend(folded.note(&n));
    });
    (log, record)
}

/// The page's driver of a Micro race: the same answers, each announcement made on the page's
/// clock before the first computer's; the last answer.
fn micro_through_the_page(face: &str, seed: u64, variant: &str, strength: u8) -> Value {
    let mut missions: Vec<Value> = Vec::new();
    let mut way = None;
    let mut now = 0.0;
    for _ in 0..5_000 {
        let a: Value = serde_json::from_str(&call(
            "microRace",
            &json!({"face": face, "seed": seed, "variant": variant, "players": 2, "strength": strength, "missions": missions, "now": now}).to_string(),
        ))
        .unwrap();
        let a = a.get("ok").cloned().unwrap_or_else(|| panic!("{a}"));
        let mission = usize::try_from(a["mission"].as_u64().unwrap()).unwrap();
        if mission > missions.len() {
            missions.push(json!({}));
            now = 0.0;
            way = micro_way(
                face,
                seed,
                a["from"].as_str().unwrap(),
                a["via"].as_str(),
                a["to"].as_str().unwrap(),
            );
        }
        match a["state"].as_str().unwrap() {
            "over" => return a,
            "demonstrate" => {
                missions[mission - 1]["shown"] =
                    json!(way.clone().map(|w| w.1).unwrap_or_default());
            }
            "announce" => {
                let until = a["until"].as_f64().unwrap();
                match micro_answer(mission, &way) {
                    Some((at, moves)) if at < until && now < at => {
                        now = at;
                        missions[mission - 1]["at"] = json!(at);
                        missions[mission - 1]["moves"] = json!(moves);
                    }
                    _ => now = until,
                }
            }
            state => panic!("state {state}"),
        }
    }
    panic!("the race never ends")
}

#[test]
fn a_micro_race_through_the_page_is_the_games_crates_game_to_the_byte() {
    for (face, seed, variant, strength) in [
        ("silver", 12, "waypoint", 1),
        ("public-silver", 5, "standard", 3),
    ] {
        let (log, record) = micro_reference(face, seed, variant, strength);
        let last = micro_through_the_page(face, seed, variant, strength);
        assert_eq!(strings(&last["log"]), log, "{face} {seed}");
        assert_eq!(strings(&last["record"]), record, "{face} {seed}");
        let text = log.join("\n");
        assert!(
            text.contains("you announces") && text.contains("  you shows "),
            "{text}"
        );
        assert!(text.contains("  you fails ("), "{text}");
        assert!(!last["winners"].as_array().unwrap().is_empty());
    }
}

#[test]
fn a_hostile_micro_race_is_refused_before_it_is_played() {
    let base = json!({"face": "silver", "seed": 1, "players": 2, "strength": 1});
    let a: Value = serde_json::from_str(&call("microRace", &base.to_string())).unwrap();
    assert_eq!(a["ok"]["state"], "announce", "{a}");
    assert_eq!(a["ok"]["mission"], 1);
    let with = |key: &str, value: Value| with(&base, key, value);
    refused_all(
        "microRace",
        [
            with("players", json!(5)),
            with("strength", json!(4)),
            with("face", json!("gold\u{1b}")),
            with("variant", json!("fast")),
            with("now", json!(-1.0)),
            with("missions", json!([{"at": 1.0}])),
            with("missions", json!([{"at": 1.0, "moves": 3, "pass": true}])),
            with("missions", json!([{"at": 2e6, "moves": 3}])),
            with("missions", json!(vec![json!({"pass": true}); 501])),
            with("missions", json!([{"shown": vec!["B1"; 1001]}])),
        ],
    );
}
