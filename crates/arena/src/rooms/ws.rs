//! A room's WebSocket (docs/ROOMS.md, "The protocol"): the player's messages go to the
//! room's thread in order; the views it publishes come back, each connection sent only its
//! own player's (or a spectator's). Messages are bounded in size and in rate: every frame
//! counts (text, binary, ping, pong), and a binary frame closes the connection at once (the
//! protocol is JSON text).

use super::live::{Asked, Command, Handle};
use super::protocol::{self, Hello, Message, RoomShown, You};
use super::room::Player;
use crate::App;
use crate::auth::Caller;
use crate::store::Account;
use axum::Extension;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{self, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The largest message a client may send (a program is at most 64 KiB).
pub const MAX_MESSAGE: usize = 160 * 1024;
/// Connections a room takes at once (its players, its host, spectators).
pub const MAX_CONNECTIONS: usize = 64;
/// Frames a connection may send in a second before it is closed (every kind counts).
const MAX_RATE: u32 = 40;
/// How long a closing frame may wait to be sent to a client that does not read.
const CLOSE_WAIT: Duration = Duration::from_secs(1);

/// Whether a WebSocket's `Origin`, when sent, names this host.
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else {
        return true;
    };
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    origin.split_once("://").is_some_and(|(_, h)| h == host)
}

/// The room of `code` for `caller`: refused when the game is under way, they are neither
/// seated nor its host, and the room takes no spectators.
pub async fn room_for(
    app: &Arc<App>,
    code: String,
    account: &Account,
) -> Result<Handle, (StatusCode, &'static str)> {
    let rooms = Arc::clone(&app.rooms);
    let handle = tokio::task::spawn_blocking(move || rooms.get(&code))
        .await
        .map_err(|_| (StatusCode::INTERNAL_SERVER_ERROR, "the server failed"))?
        .map_err(|_| (StatusCode::INTERNAL_SERVER_ERROR, "the server failed"))?
        .ok_or((StatusCode::NOT_FOUND, "no such room"))?;
    let published = handle.published.borrow().clone();
    let id = Player::of(account).account;
    let member = published.seated.contains(&Some(id)) || handle.room.host == id;
    if published.connections >= MAX_CONNECTIONS {
        return Err((StatusCode::SERVICE_UNAVAILABLE, "this room is full"));
    }
    if published.playing && !member && !handle.room.settings.spectators {
        return Err((
            StatusCode::FORBIDDEN,
            "this room's game is under way and takes no spectators",
        ));
    }
    Ok(handle)
}

pub async fn socket(
    State(app): State<Arc<App>>,
    Extension(caller): Extension<Caller>,
    Path(code): Path<String>,
    headers: HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let Some(account) = caller.account.clone() else {
        return (StatusCode::UNAUTHORIZED, "sign in first").into_response();
    };
    if !same_origin(&headers) {
        return (
            StatusCode::FORBIDDEN,
            "this room is opened from its own site only",
        )
            .into_response();
    }
    let handle = match room_for(&app, code, &account).await {
        Ok(h) => h,
        Err(refused) => return refused.into_response(),
    };
    match upgrade {
        Ok(upgrade) => upgrade
            .max_message_size(MAX_MESSAGE)
            .max_frame_size(MAX_MESSAGE)
            .on_upgrade(move |socket| connection(socket, handle, account)),
        Err(e) => e.into_response(),
    }
}

fn text(value: &str) -> ws::Message {
    ws::Message::Text(value.into())
}

async fn connection(mut socket: WebSocket, mut handle: Handle, account: Account) {
    let player = Player::of(&account);
    let _ = handle.commands.send(Command::Join(player.account));
    let hello = hello(&handle, &player);
    let first = handle
        .published
        .borrow_and_update()
        .view_for(player.account);
    if socket.send(text(&hello)).await.is_ok() && socket.send(text(&first)).await.is_ok() {
        serve(&mut socket, &mut handle, &player).await;
    }
    let _ = handle.commands.send(Command::Leave(player.account));
}

/// The first message: who the player is in the room, its settings and its board.
fn hello(handle: &Handle, player: &Player) -> String {
    let first = handle.published.borrow().clone();
    let seat = first
        .seated
        .iter()
        .position(|s| *s == Some(player.account))
        .and_then(|i| first.colours.get(i));
    let room = &handle.room;
    protocol::text(&Hello {
        you: You {
            name: &player.name,
            seat: seat.map(String::as_str),
            host: room.host == player.account,
        },
        room: RoomShown {
            code: &room.code,
            host: &room.host_name,
            settings: &room.settings,
        },
        board: &handle.board,
    })
}

async fn serve(socket: &mut WebSocket, handle: &mut Handle, player: &Player) {
    let (mut second, mut count) = (Instant::now(), 0u32);
    loop {
        tokio::select! {
            changed = handle.published.changed() => {
                if changed.is_err() {
                    break;
                }
                let view = handle.published.borrow_and_update().view_for(player.account);
                if socket.send(text(&view)).await.is_err() {
                    break;
                }
            }
            received = socket.recv() => {
                let Some(Ok(message)) = received else { break };
                if second.elapsed() > Duration::from_secs(1) {
                    (second, count) = (Instant::now(), 0);
                }
                count += 1;
                if count > MAX_RATE {
                    close(socket, close_code::POLICY, "more than 40 messages a second").await;
                    break;
                }
                let body = match message {
                    ws::Message::Text(body) => body,
                    ws::Message::Binary(_) => {
                        close(socket, close_code::UNSUPPORTED, "messages are JSON text").await;
                        break;
                    }
                    ws::Message::Close(_) => break,
                    ws::Message::Ping(_) | ws::Message::Pong(_) => continue,
                };
                let answer = act(handle, player, body.as_str()).await;
                if let Some(answer) = answer && socket.send(text(&answer)).await.is_err() {
                    break;
                }
            }
        }
    }
}

/// Closes a connection the server will no longer read, with a code and its reason (sent if
/// the client takes it within `CLOSE_WAIT`; the connection is dropped after, either way).
async fn close(socket: &mut WebSocket, code: u16, reason: &'static str) {
    let frame = ws::CloseFrame {
        code,
        reason: reason.into(),
    };
    let _ = tokio::time::timeout(CLOSE_WAIT, socket.send(ws::Message::Close(Some(frame)))).await;
}

/// A client's message handed to the room's thread: its answer, if any.
async fn act(handle: &Handle, player: &Player, body: &str) -> Option<String> {
    let error = |message: &str| Some(protocol::text(&protocol::Error { message }));
    let Ok(message) = serde_json::from_str::<Message>(body) else {
        return error("that message is not one a room takes (docs/ROOMS.md)");
    };
    let (reply, answer) = tokio::sync::oneshot::channel();
    let command = Command::Act(Asked {
        account: player.account,
        name: player.name.clone(),
        message,
        reply,
    });
    if handle.commands.send(command).is_err() {
        return error("the room is closed");
    }
    match answer.await {
        Ok(Ok(Some(answer))) => Some(protocol::text(&answer)),
        Ok(Ok(None)) => None,
        Ok(Err(message)) => error(&message),
        Err(_) => error("the room is closed"),
    }
}
