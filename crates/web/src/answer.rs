//! What a method answers: its value, or a typed failure that the page shows in words.

use robots_games::text::diagnostic::Diagnostic;
use serde::Serialize;

/// Which kind of failure (`EngineError.kind` in `web/play/engine.js`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ErrorKind {
    /// The request is not what the method takes.
    Request,
    /// Over one of the command line's limits.
    Limit,
    /// A program, board or match text is wrong: the diagnostic says where.
    File,
    /// The match cannot be played as set up.
    Setup,
    /// No such debugger session.
    Session,
    /// A puzzle with no answer within the limits asked (moves, states, draws).
    Unsolved,
}

/// A method's failure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub kind: ErrorKind,
    pub message: String,
    /// Boxed: a failure stays small beside the answers.
    pub diagnostic: Option<Box<Diagnostic>>,
}

impl Failure {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Failure {
        Failure {
            kind,
            message: message.into(),
            diagnostic: None,
        }
    }
}

impl From<Diagnostic> for Failure {
    fn from(d: Diagnostic) -> Failure {
        Failure {
            kind: ErrorKind::File,
            message: d.to_string(),
            diagnostic: Some(Box::new(d)),
        }
    }
}

impl From<serde_json::Error> for Failure {
    fn from(e: serde_json::Error) -> Failure {
        Failure::new(ErrorKind::Request, format!("the request: {e}"))
    }
}

/// The answer's text: `{"ok": value}` or `{"error": {kind, message, diagnostic?}}`, the
/// diagnostic as `robots check --format json` writes it.
pub fn envelope(result: Result<String, Failure>) -> String {
    match result {
        Ok(value) => format!("{{\"ok\":{value}}}"),
        Err(f) => {
            let kind = serde_json::to_string(&f.kind).unwrap_or_default();
            let message = serde_json::to_string(&f.message).unwrap_or_default();
            let diagnostic = f
                .diagnostic
                .map(|d| format!(",\"diagnostic\":{}", d.json()))
                .unwrap_or_default();
            format!("{{\"error\":{{\"kind\":{kind},\"message\":{message}{diagnostic}}}}}")
        }
    }
}

/// A value as JSON text (our own types always serialise).
pub fn json(value: &impl Serialize) -> Result<String, Failure> {
    serde_json::to_string(value)
        .map_err(|e| Failure::new(ErrorKind::Request, format!("cannot write the answer: {e}")))
}
