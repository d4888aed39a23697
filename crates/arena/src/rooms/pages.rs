//! The rooms' pages: your rooms and a form for a new one, a room (its modules build the
//! page: `web/rooms/room.js` and the modules it imports), and the match file of a game that
//! is over.

use super::live::Command;
use super::room::{Game, Player};
use super::store::{self, Settings};
use crate::App;
use crate::api::{self, ApiError};
use crate::auth::Caller;
use crate::db::ids::AccountId;
use crate::forms::checked;
use crate::pages::{EDITOR_SCRIPT, api_error, error_page, has_editor, layout, respond};
use axum::Extension;
use axum::extract::rejection::FormRejection;
use axum::extract::{Form, Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use maud::html;
use serde::Deserialize;
use std::sync::Arc;

/// Rooms an account may create in a day.
pub const MAX_ROOMS_A_DAY: i64 = 50;

fn account(caller: &Caller) -> Result<AccountId, ApiError> {
    caller
        .account
        .as_ref()
        .map(|a| Player::of(a).account)
        .ok_or_else(ApiError::internal)
}

pub async fn list(State(app): State<Arc<App>>, Extension(caller): Extension<Caller>) -> Response {
    let found = async {
        let (db, id) = (Arc::clone(&app.db), account(&caller)?);
        api::blocking(move || Ok(db.read(|c| store::rooms_of(c, id))?)).await
    };
    let rooms = match found.await {
        Ok(r) => r,
        Err(e) => return api_error(e, &caller),
    };
    let body = html! {
        h1 { "Rooms" }
        p { "A room is a game of robots played live by two players on their own devices: programs and signals stay secret (docs/ROOMS.md). Share its link." }
        ul #rooms { @for r in &rooms { li { a href={ "/rooms/" (r.code) } { "room " (r.code[..8.min(r.code.len())]) } " by " (r.host) ": " (r.state) } } }
        h2 { "A new room" }
        form #new-room method="post" action="/rooms" {
            input type="hidden" name="csrf" value=(caller.csrf);
            label { "game " select name="game" { option value="battle" { "robots (the battle game)" } option value="ricochet" { "Ricochet Robots" } option value="micro" { "Micro Robots" } } }
            label { "Ricochet board " select name="rico_board" { option value="original" { "original" } option value="ricochets" { "Ricochets (robot bases)" } } }
            label { input name="hints" type="checkbox" value="on"; " Ricochet: the players may ask for hints" }
            label { "Micro face " select name="micro_face" { @for (face, _) in robots_games::micro::shipped::MICRO_FACES { option value=(face) { (face) } } } }
            label { "Micro rules " select name="micro_variant" { option value="standard" { "standard" } option value="waypoint" { "waypoint" } option value="no-token" { "no token" } } }
            label { "board " select name="board" { option value="duel" { "duel" } option value="classic" { "classic" } option value="melee" { "melee (up to 4 players)" } } }
            label { "players " input name="players" type="number" min="2" max="4" value="2"; }
            label { "scenario " input name="scenario" type="number" min="1" max="3" value="1"; }
            label { "robots a side " input name="robots" type="number" min="1" max="4" value="1"; }
            label { "rounds " input name="rounds" type="number" min="1" max="10000" value="100"; }
            label { "pace (robot turns a second) " input name="pace" type="number" min="0.1" max="500" step="0.1" value="4"; }
            label { "timeout (seconds a player may be away) " input name="timeout" type="number" min="5" max="3600" value="60"; }
            label { input name="spectators" type="checkbox" value="on" checked; " spectators may watch" }
            button type="submit" { "Create the room" }
        }
    };
    respond(StatusCode::OK, layout("Rooms", &caller, body))
}

#[derive(Deserialize)]
pub struct NewRoom {
    pub csrf: String,
    pub board: String,
    pub scenario: u8,
    pub robots: u8,
    pub rounds: u32,
    pub pace: f64,
    pub timeout: u32,
    #[serde(default)]
    pub spectators: Option<String>,
    #[serde(default)]
    pub players: Option<u8>,
    /// `battle` (the default) or `ricochet`.
    #[serde(default)]
    pub game: Option<String>,
    /// Ricochet's board: `original` or `ricochets`.
    #[serde(default)]
    pub rico_board: Option<String>,
    /// Ricochet: hints allowed.
    #[serde(default)]
    pub hints: Option<String>,
    /// Micro Robots' face (a shipped one) and rules.
    #[serde(default)]
    pub micro_face: Option<String>,
    #[serde(default)]
    pub micro_variant: Option<String>,
}

/// The seats of a room: the first `players` camp colours of its board; Ricochet's seats are
/// numbered.
pub fn seat_colours(s: &Settings) -> Vec<&'static str> {
    if s.game != Game::Battle {
        return ["1", "2", "3", "4"][..usize::from(s.players).min(4)].to_vec();
    }
    let board = robots_games::battle::files::shipped::board(&s.board)
        .and_then(|t| robots_games::battle::files::board_file::parse_board(&s.board, t).ok());
    board
        .map(|b| b.camp_colours())
        .unwrap_or_default()
        .into_iter()
        .take(usize::from(s.players))
        .map(robots_games::battle::terrain::TeamColour::name)
        .collect()
}

/// What is wrong with a room's settings, if anything.
fn problem(s: &Settings) -> Option<String> {
    if s.game == Game::Ricochet {
        let board = ["original", "ricochets"].contains(&s.board.as_str());
        return (!board || !(1..=4).contains(&s.players))
            .then(|| "a Ricochet room: board original or ricochets, 1 to 4 players".into());
    }
    if s.game == Game::Micro {
        let face = robots_games::micro::shipped::micro_face(&s.board).is_some();
        let variant = ["standard", "waypoint", "no-token"].contains(&s.variant.as_str());
        return (!face || !variant || !(1..=4).contains(&s.players)).then(|| {
            format!(
                "a Micro Robots room: a face of {}, rules standard, waypoint or no-token, 1 to 4 players",
                robots_games::micro::shipped::names()
            )
        });
    }
    let board = robots_games::battle::files::shipped::board(&s.board)
        .and_then(|t| robots_games::battle::files::board_file::parse_board(&s.board, t).ok());
    let Some(board) = board else {
        return Some("the board is a shipped one: duel, classic or melee".into());
    };
    if !(1..=3).contains(&s.scenario) || !(1..=10_000).contains(&s.rounds) {
        return Some("scenario 1 to 3, rounds 1 to 10,000".into());
    }
    if !(0.1..=super::actor::MAX_PACE).contains(&s.pace) || !(5..=3600).contains(&s.timeout) {
        return Some("pace 0.1 to 500 turns a second, timeout 5 to 3,600 s".into());
    }
    if !(1..=4).contains(&s.robots) {
        return Some("1 to 4 robots a side".into());
    }
    let camps = board.camp_colours();
    if !(2..=camps.len()).contains(&usize::from(s.players)) {
        return Some(format!(
            "2 to {} players on this board (one a camp)",
            camps.len()
        ));
    }
    let colours = &camps[..usize::from(s.players)];
    crate::admin::enough_start_points(&board, usize::from(s.robots), colours)
        .err()
        .map(|e| e.to_string())
}

pub async fn create(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    form: Result<Form<NewRoom>, FormRejection>,
) -> Response {
    let f = match checked(form, |f| &f.csrf, &caller) {
        Ok(f) => f,
        Err(page) => return *page,
    };
    let Ok(game) = f.game.as_deref().unwrap_or("battle").parse::<Game>() else {
        return error_page(
            StatusCode::BAD_REQUEST,
            "a room plays battle, ricochet or micro",
            &caller,
        );
    };
    let board = match (game, f.rico_board) {
        (Game::Ricochet, Some(b)) => b,
        (Game::Ricochet, None) => "original".into(),
        (Game::Micro, _) => f
            .micro_face
            .unwrap_or_else(|| robots_games::micro::shipped::DEFAULT_FACE.into()),
        _ => f.board,
    };
    let settings = Settings {
        game,
        board,
        scenario: f.scenario,
        robots: f.robots,
        rounds: f.rounds,
        pace: f.pace,
        timeout: f.timeout,
        spectators: f.spectators.is_some(),
        players: f.players.unwrap_or(2),
        variant: f.micro_variant.unwrap_or_else(|| "standard".into()),
        hints: f.hints.is_some(),
    };
    if let Some(p) = problem(&settings) {
        return error_page(StatusCode::BAD_REQUEST, &p, &caller);
    }
    let made = async {
        let (db, host) = (Arc::clone(&app.db), account(&caller)?);
        api::blocking(move || {
            let code = new_code()?;
            let mut seed = [0u8; 8];
            getrandom::fill(&mut seed).map_err(|_| ApiError::internal())?;
            let seed = u64::from_le_bytes(seed);
            let colours = seat_colours(&settings);
            let now = crate::db::now();
            if db.read(|c| store::created_since(c, host, now - 24 * 3600))? >= MAX_ROOMS_A_DAY {
                return Err(ApiError::new(
                    StatusCode::TOO_MANY_REQUESTS,
                    "too_many_requests",
                    format!("an account creates at most {MAX_ROOMS_A_DAY} rooms a day"),
                ));
            }
            db.write(|c| store::insert(c, (&code, host), &settings, &colours, (seed, now)))?;
            Ok(code)
        })
        .await
    };
    match made.await {
        Ok(code) => Redirect::to(&format!("/rooms/{code}")).into_response(),
        Err(e) => api_error(e, &caller),
    }
}

pub async fn room(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    Path(code): Path<String>,
) -> Response {
    let Some(account) = caller.account.clone() else {
        return error_page(StatusCode::UNAUTHORIZED, "sign in first", &caller);
    };
    if let Err((status, detail)) = super::ws::room_for(&app, code.clone(), &account).await {
        return error_page(status, detail, &caller);
    }
    let body = html! {
        section #room data-code=(code) data-you=(account.name) {}
        // Classic scripts (RobotsPalette, RobotsModel), then the page's modules (pages::ROOM_MODULES).
        script src="/static/palette.js" {}
        script src="/static/model.js" {}
        script type="module" src="/static/room.js" {}
        // The battle room's program box gets /play's editor where the folder has it.
        @if has_editor(&app) { script type="module" src=(EDITOR_SCRIPT) {} }
    };
    let mut page = layout("Room", &caller, body).into_string();
    page = page.replace("<link rel=\"stylesheet\" href=\"/static/arena.css\">", "<link rel=\"stylesheet\" href=\"/static/arena.css\"><link rel=\"stylesheet\" href=\"/static/room.css\">");
    respond(StatusCode::OK, maud::PreEscaped(page))
}

pub async fn match_file(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    Path(code): Path<String>,
) -> Response {
    let Some(account) = caller.account.clone() else {
        return error_page(StatusCode::UNAUTHORIZED, "sign in first", &caller);
    };
    let handle = match super::ws::room_for(&app, code.clone(), &account).await {
        Ok(h) => h,
        Err((status, detail)) => return error_page(status, detail, &caller),
    };
    let (reply, answer) = tokio::sync::oneshot::channel();
    if handle.commands.send(Command::MatchFile(reply)).is_err() {
        return error_page(
            StatusCode::SERVICE_UNAVAILABLE,
            "the room is closed",
            &caller,
        );
    }
    match answer.await {
        Ok(Some(text)) => (
            [
                (header::CONTENT_TYPE, "text/yaml; charset=utf-8".to_string()),
                (
                    header::CONTENT_DISPOSITION,
                    format!(
                        "attachment; filename=\"room-{}.yaml\"",
                        &code[..8.min(code.len())]
                    ),
                ),
            ],
            text,
        )
            .into_response(),
        _ => error_page(
            StatusCode::CONFLICT,
            "the match file is given once the game is over",
            &caller,
        ),
    }
}

/// A new room's code: 32 hex digits from the system's random source.
pub fn new_code() -> Result<String, crate::auth::CryptoError> {
    Ok(crate::auth::new_secret()?[..32].to_string())
}
