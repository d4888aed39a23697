//! A room's WebSocket (docs/ROOMS.md, "The protocol"): the player's messages go to the
//! room's thread in order; the views it publishes come back, each connection sent only its
//! own player's (or a spectator's). Messages are bounded in size and in rate: every frame
//! counts (text, binary, ping, pong), and a binary frame closes the connection at once (the
//! protocol is JSON text).

use super::Handle;
use super::actor::{Command, Message};
use crate::App;
use crate::auth::Caller;
use crate::store::Account;
use axum::Extension;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{self, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;
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
    let member =
        published.seated.contains(&Some(account.id.get())) || handle.room.host == account.id.get();
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
    let _ = handle.commands.send(Command::Join(account.id.get()));
    let first = handle.published.borrow().clone();
    let seat = first
        .seated
        .iter()
        .position(|s| *s == Some(account.id.get()))
        .and_then(|i| first.colours.get(i));
    let settings = &handle.room.settings;
    let hello = json!({
        "type": "hello",
        "you": {"name": account.name, "seat": seat, "host": handle.room.host == account.id.get()},
        "room": {"code": handle.room.code, "game": settings.game, "host": handle.room.host_name,
            "board": settings.board, "players": settings.players, "scenario": settings.scenario,
            "robots": settings.robots, "rounds": settings.rounds, "pace": settings.pace,
            "timeout": settings.timeout, "spectators": settings.spectators,
            "variant": settings.variant, "hints": settings.hints},
        "board": *handle.board,
    });
    let first = handle
        .published
        .borrow_and_update()
        .view_for(account.id.get());
    if socket.send(text(&hello.to_string())).await.is_ok()
        && socket.send(text(&first)).await.is_ok()
    {
        serve(&mut socket, &mut handle, &account).await;
    }
    let _ = handle.commands.send(Command::Leave(account.id.get()));
}

async fn serve(socket: &mut WebSocket, handle: &mut Handle, account: &Account) {
    let (mut second, mut count) = (Instant::now(), 0u32);
    loop {
        tokio::select! {
            changed = handle.published.changed() => {
                if changed.is_err() {
                    break;
                }
                let view = handle.published.borrow_and_update().view_for(account.id.get());
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
                let answer = act(handle, account, body.as_str()).await;
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
async fn act(handle: &Handle, account: &Account, body: &str) -> Option<String> {
    let message: Message = match serde_json::from_str(body) {
        Ok(m) => m,
        Err(_) => return Some(json!({"type": "error", "message": "that message is not one a room takes (docs/ROOMS.md)"}).to_string()),
    };
    let (reply, answer) = tokio::sync::oneshot::channel();
    let command = Command::Act {
        account: account.id.get(),
        name: account.name.clone(),
        message,
        reply,
    };
    if handle.commands.send(command).is_err() {
        return Some(json!({"type": "error", "message": "the room is closed"}).to_string());
    }
    match answer.await {
        Ok(Ok(Some(value))) => Some(value.to_string()),
        Ok(Ok(None)) => None,
        Ok(Err(message)) => Some(json!({"type": "error", "message": message}).to_string()),
        Err(_) => Some(json!({"type": "error", "message": "the room is closed"}).to_string()),
    }
}
