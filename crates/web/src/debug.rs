//! The debugger's sessions (`robots debug --script`, web/play/ENGINE.md): each a games-crate
//! `Session` on a match, answering command lines as the script mode prints them, with the
//! state the page draws. Sessions live in this instance's memory, at most [`MAX_SESSIONS`].

use crate::answer::{ErrorKind, Failure, json};
use crate::settings::MatchSettings;
use robots_games::battle::engine::RobotId;
use robots_games::battle::live::debug::{LoadError, Session};
use robots_games::battle::show::view::{Frame, snapshot};
use robots_games::text::MAX_INPUT_BYTES;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::BTreeMap;

/// The most sessions open at once: each holds a match with its past.
pub const MAX_SESSIONS: usize = 16;

#[derive(Default)]
struct Sessions {
    next: u32,
    open: BTreeMap<u32, Session>,
}

thread_local! {
    static SESSIONS: RefCell<Sessions> = RefCell::default();
}

/// Where a session stands, for the page.
#[derive(Serialize)]
struct State {
    turn: u64,
    round: u32,
    next: Option<usize>,
    over: bool,
    frame: Frame,
}

fn state(session: &Session) -> State {
    let timeline = session.timeline();
    let game = timeline.current();
    State {
        turn: timeline.turn(),
        round: game.clock().round,
        next: game.next_robot().map(RobotId::index),
        over: game.is_over(),
        frame: snapshot(game, timeline.events_of(timeline.turn())),
    }
}

/// Text from files as the script mode prints it: escaped, line breaks and tabs kept.
fn shown(text: &str) -> String {
    robots_games::text::escape_keeping(text, &['\n', '\t']).into_owned()
}

/// A session on the match of the settings: its handle, where the match stands and its state.
pub fn open(request: &str) -> Result<String, Failure> {
    let settings: MatchSettings = serde_json::from_str(request)?;
    let setup = settings.setup()?;
    SESSIONS.with_borrow_mut(|sessions| {
        if sessions.open.len() >= MAX_SESSIONS {
            return Err(Failure::new(
                ErrorKind::Limit,
                format!("{MAX_SESSIONS} debugger sessions are open: close one first"),
            ));
        }
        // `reload` opens the same match again.
        let session = Session::new(Box::new(move || Ok(setup.clone()))).map_err(|e| match e {
            LoadError::File(d) => Failure::from(d),
            LoadError::Setup(e) => Failure::new(ErrorKind::Setup, e.to_string()),
        })?;
        sessions.next = sessions.next.wrapping_add(1);
        let id = sessions.next;
        #[derive(Serialize)]
        struct Opened {
            session: u32,
            text: String,
            state: State,
        }
        let opened = Opened {
            session: id,
            text: shown(&session.position()),
            state: state(&session),
        };
        sessions.open.insert(id, session);
        json(&opened)
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RunRequest {
    session: u32,
    line: String,
}

fn missing(id: u32) -> Failure {
    Failure::new(ErrorKind::Session, format!("no debugger session {id}"))
}

/// One command line, answered as `robots debug --script` prints it.
pub fn run(request: &str) -> Result<String, Failure> {
    let r: RunRequest = serde_json::from_str(request)?;
    if r.line.len() > MAX_INPUT_BYTES {
        return Err(robots_games::text::diagnostic::too_large("the command").into());
    }
    SESSIONS.with_borrow_mut(|sessions| {
        let session = sessions
            .open
            .get_mut(&r.session)
            .ok_or(missing(r.session))?;
        let reply = session.script_line(&r.line).unwrap_or_default();
        #[derive(Serialize)]
        struct Answered {
            text: String,
            failed: bool,
            quit: bool,
            stopped: Option<String>,
            state: State,
        }
        json(&Answered {
            text: shown(&reply.text),
            failed: reply.failed,
            quit: reply.quit,
            stopped: reply.stopped,
            state: state(session),
        })
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CloseRequest {
    session: u32,
}

/// Closes a session.
pub fn close(request: &str) -> Result<String, Failure> {
    let r: CloseRequest = serde_json::from_str(request)?;
    SESSIONS.with_borrow_mut(|sessions| match sessions.open.remove(&r.session) {
        Some(_) => Ok("null".into()),
        None => Err(missing(r.session)),
    })
}
