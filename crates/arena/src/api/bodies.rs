//! The API's bodies (docs/ARENA.md, "The API"): each request and answer of `/api/v1/…` as a
//! serde type, which the server answers with and the `robots arena` client sends and reads,
//! so that the protocol is written once. The JSON on the wire is what the server has always
//! given: an answer that was an ad-hoc JSON object (a map with its keys in order) declares
//! its fields in that order, the keys' alphabetical order (the tests below hold the bytes).

use crate::db::ids::{ChallengeId, EventId, MatchId, ProgramId};
pub use crate::store::Status;
use serde::{Deserialize, Serialize};

/// `POST /api/v1/accounts` and `POST /api/v1/tokens`: a name and password.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    pub name: String,
    pub password: String,
}

/// `POST /api/v1/accounts`'s answer: the account's name and its first API token.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct NewAccount {
    pub name: String,
    pub token: String,
}

/// `POST /api/v1/tokens`'s answer: a new API token.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Token {
    pub token: String,
}

/// `GET /healthz`: `ok`, and the programs waiting for placement or being placed.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Health {
    pub queued: i64,
    pub status: String,
}

/// `POST /api/v1/hills`: a hill's settings (as `robots serve hill create` takes them).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewHill {
    pub name: String,
    pub size: usize,
    pub seeds: [u32; 2],
    pub board: String,
    pub scenario: u8,
    pub robots: u8,
    pub rounds: u32,
    #[serde(default)]
    pub keywords: Option<String>,
}

/// A hill and its settings.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct HillView {
    pub name: String,
    pub size: usize,
    pub seeds: [u32; 2],
    pub board: String,
    pub scenario: u8,
    pub robots: u8,
    pub rounds: u32,
    pub keywords: String,
    pub programs: i64,
}

/// Another program of the hill, as a standings row sees it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Versus {
    pub id: ProgramId,
    pub name: String,
    /// What the row's program scored against it (wins and half the draws), if they met.
    pub share: Option<f64>,
}

/// A program's line in its hill's standings.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StandingRow {
    pub rank: usize,
    pub id: ProgramId,
    pub name: String,
    pub author: String,
    pub played: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub points: u32,
    pub win_rate: f64,
    pub rating: f64,
    pub interval: f64,
    pub head_to_head: Vec<Versus>,
    /// Which version of its name this is (1 for the first submission; 0 from a server older
    /// than versions).
    #[serde(default)]
    pub version: u32,
}

/// A diagnostic of `check`, as `robots check --format json` prints it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    pub column: usize,
    pub end: Place,
    pub file: String,
    pub id: Option<String>,
    pub line: usize,
    pub message: String,
    pub severity: String,
}

impl Diagnostic {
    /// `d` as `robots check --format json` prints it: that text, its one spelling, read back
    /// (`None` never happens: the two types have the same fields).
    pub fn of(d: &robots_games::text::diagnostic::Diagnostic) -> Option<Diagnostic> {
        serde_json::from_str(&d.json()).ok()
    }
}

/// Where a diagnostic's text ends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Place {
    pub column: usize,
    pub line: usize,
}

/// `POST /api/v1/check`: a program's text, and the hill whose keywords it uses.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckRequest {
    pub source: String,
    #[serde(default)]
    pub hill: Option<String>,
}

/// `POST /api/v1/check`'s answer: whether the program loads; its errors, or its warnings.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Checked {
    pub diagnostics: Vec<Diagnostic>,
    pub ok: bool,
}

/// `POST /api/v1/hills/{hill}/programs`: a program to queue.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Submission {
    pub name: String,
    pub source: String,
}

/// `POST /api/v1/hills/{hill}/programs`'s answer: the program queued, with its warnings.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Submitted {
    pub hill: String,
    pub id: ProgramId,
    pub name: String,
    pub status: Status,
    pub warnings: Vec<Diagnostic>,
}

/// `GET /api/v1/programs/{id}/matches`'s query.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Page {
    #[serde(default)]
    pub limit: Option<u32>,
    #[serde(default)]
    pub offset: Option<u32>,
}

/// A program: its text only to whom may read it (`views::program_view`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ProgramView {
    pub id: ProgramId,
    pub name: String,
    pub author: String,
    pub hill: String,
    pub status: Status,
    pub published: bool,
    pub submitted: i64,
    pub games_done: i64,
    pub games_total: i64,
    pub rank: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Which version of its name this is (1 for the first submission; 0 from a server older
    /// than versions).
    #[serde(default)]
    pub version: u32,
}

/// A side of a match: its program.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Side {
    pub id: ProgramId,
    pub name: String,
}

/// How a match ended for the program whose list it is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

impl Outcome {
    pub fn word(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Draw => "draw",
            Outcome::Loss => "loss",
        }
    }
}

/// A match.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MatchView {
    pub id: MatchId,
    pub hill: String,
    pub green: Side,
    pub violet: Side,
    pub seed_index: u32,
    /// A string of digits: 64 bits do not fit a JavaScript number.
    #[serde(with = "seed_text")]
    pub seed: u64,
    pub winner: String,
    pub rounds: u32,
    pub reason: String,
    /// From the side of the program whose list this is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Outcome>,
}

mod seed_text {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(seed: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(seed)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// A refusal: its code, its words, and for a program with errors `check`'s diagnostics.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Refusal {
    pub detail: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diagnostics: Option<Vec<Diagnostic>>,
    pub error: String,
}

/// A version of a program's name on its hill (`GET /api/v1/programs/{id}/versions`): its
/// text only to its author (`…/versions/{n}`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct VersionView {
    pub version: u32,
    pub id: ProgramId,
    pub status: Status,
    pub submitted: i64,
    /// The best rank it reached on the hill, if it was ever placed.
    pub best_rank: Option<i64>,
    pub wins: i64,
    pub draws: i64,
    pub losses: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// A line of a diff: `context`, `removed` or `added`, with its line number in the older
/// text (`old`) and in the newer (`new`), from 1.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiffLine {
    pub kind: String,
    pub old: Option<usize>,
    pub new: Option<usize>,
    pub text: String,
}

/// `GET /api/v1/programs/{id}/diff?from=N&to=M`: two versions' texts compared, as a unified
/// diff (3 lines of context) and its hunks line by line.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DiffView {
    pub from: u32,
    pub to: u32,
    pub unified: String,
    pub hunks: Vec<Vec<DiffLine>>,
}

/// `GET /api/v1/programs/{id}/diff`'s query: the two versions (by default the one before
/// the program's and the program's).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiffQuery {
    #[serde(default)]
    pub from: Option<u32>,
    #[serde(default)]
    pub to: Option<u32>,
}

/// `POST /api/v1/challenges`: the challenger's side — one's `program`, or an unsaved text
/// (`hill`, `name`, `source`) — the opponent — a program of the hill (`opponent`) or a
/// shipped one (`shipped`) — and the seeds, 1 to 20, each played both ways.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewChallenge {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program: Option<ProgramId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hill: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opponent: Option<ProgramId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shipped: Option<String>,
    pub seeds: u32,
}

/// A challenge's opponent: a program of the hill (its id and author) or a shipped one.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Opposed {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<ProgramId>,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    pub shipped: bool,
}

/// A challenge's match, from the challenger's side: `n` numbers it in its challenge (its
/// replay's address), `colour` is the challenger's.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ChallengeMatch {
    pub n: u32,
    pub seed_index: u32,
    pub colour: String,
    /// A string of digits, as a hill's match's.
    pub seed: String,
    pub winner: String,
    pub rounds: u32,
    pub reason: String,
    pub result: Outcome,
}

/// A challenge: `role` is the caller's (`challenger`, or `opponent` for the opponent's
/// author); the tally is the challenger's; `matches` for the challenger only.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ChallengeView {
    pub id: ChallengeId,
    pub hill: String,
    pub challenger: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program: Option<ProgramId>,
    pub name: String,
    pub opponent: Opposed,
    pub seeds: u32,
    pub state: String,
    pub created: i64,
    pub role: String,
    pub played: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matches: Option<Vec<ChallengeMatch>>,
}

/// `POST /api/v1/hills/{hill}/events`: when (RFC 3339 in UTC, `2030-01-31T18:00:00Z`, or
/// `now`), the hill's top N at that time (absent: every program placed), and the seeds, each
/// pairing played both ways over seed indices 1 to `seeds`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewEvent {
    pub at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top: Option<u32>,
    pub seeds: u32,
}

/// A program of an event: the version that stood on the hill at its start, its seat (its
/// number in the event's matches) and its rank on the hill then.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct EventProgram {
    pub seat: u32,
    pub id: ProgramId,
    pub name: String,
    pub author: String,
    pub version: u32,
    pub rank: u32,
}

/// An event's match: `n`, its number in the event's schedule, is its address
/// (`/events/{id}/matches/{n}`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct EventMatch {
    pub n: u32,
    pub green: ProgramId,
    pub violet: ProgramId,
    pub seed_index: u32,
    /// A string of digits, as a hill's match's.
    pub seed: String,
    pub winner: String,
    pub rounds: u32,
    pub reason: String,
}

/// An event: `state` is `scheduled`, `running` or `done`; the programs and the table once it
/// started (the table from its own matches only, final once done); `matches` in the answer
/// of one event, not in lists.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct EventView {
    pub id: EventId,
    pub hill: String,
    pub at: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top: Option<u32>,
    pub seeds: u32,
    pub state: String,
    pub created: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished: Option<i64>,
    /// Matches stored, and all the event plays (0 before it starts).
    pub played: u64,
    pub total: u64,
    pub programs: Vec<EventProgram>,
    pub table: Vec<StandingRow>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matches: Option<Vec<EventMatch>>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn diagnostic() -> Diagnostic {
        Diagnostic {
            column: 3,
            end: Place { column: 5, line: 1 },
            file: "program.robot".into(),
            id: None,
            line: 1,
            message: "no".into(),
            severity: "error".into(),
        }
    }

    /// The bytes of each body that was a `json!` map are the map's: its keys in order.
    #[test]
    fn the_bodies_that_were_maps_keep_their_bytes() {
        let same = |typed: String, map: serde_json::Value| assert_eq!(typed, map.to_string());
        let d = diagnostic();
        let as_map: serde_json::Value = serde_json::from_str(
            r#"{"file":"program.robot","line":1,"column":3,"end":{"line":1,"column":5},"severity":"error","id":null,"message":"no"}"#,
        )
        .unwrap();
        same(serde_json::to_string(&d).unwrap(), as_map.clone());
        let refusal = Refusal {
            detail: "the program has errors".into(),
            diagnostics: Some(vec![d.clone()]),
            error: "invalid_program".into(),
        };
        same(
            serde_json::to_string(&refusal).unwrap(),
            json!({"error": "invalid_program", "detail": "the program has errors", "diagnostics": [as_map.clone()]}),
        );
        let plain = Refusal {
            diagnostics: None,
            ..refusal
        };
        same(
            serde_json::to_string(&plain).unwrap(),
            json!({"error": "invalid_program", "detail": "the program has errors"}),
        );
        let submitted = Submitted {
            hill: "h".into(),
            id: ProgramId(7),
            name: "p".into(),
            status: Status::Queued,
            warnings: vec![d.clone()],
        };
        same(
            serde_json::to_string(&submitted).unwrap(),
            json!({"id": 7, "name": "p", "hill": "h", "status": Status::Queued, "warnings": [as_map.clone()]}),
        );
        let checked = Checked {
            diagnostics: vec![d],
            ok: false,
        };
        same(
            serde_json::to_string(&checked).unwrap(),
            json!({"ok": false, "diagnostics": [as_map]}),
        );
        let health = Health {
            queued: 2,
            status: "ok".into(),
        };
        same(
            serde_json::to_string(&health).unwrap(),
            json!({"status": "ok", "queued": 2}),
        );
        let account = NewAccount {
            name: "a".into(),
            token: "t".into(),
        };
        same(
            serde_json::to_string(&account).unwrap(),
            json!({"name": "a", "token": "t"}),
        );
    }

    #[test]
    fn a_match_reads_back_with_its_seed_as_digits() {
        let text = r#"{"id":1,"hill":"h","green":{"id":2,"name":"g"},"violet":{"id":3,"name":"v"},"seed_index":1,"seed":"18446744073709551615","winner":"draw","rounds":9,"reason":"rounds","result":"draw"}"#;
        let m: MatchView = serde_json::from_str(text).unwrap();
        assert_eq!((m.seed, m.result), (u64::MAX, Some(Outcome::Draw)));
        assert_eq!(serde_json::to_string(&m).unwrap(), text);
    }
}
