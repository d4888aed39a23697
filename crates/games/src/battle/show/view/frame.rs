//! The types of a frame of the document, and why a match cannot be shown.

use super::rows::EventRow;
use crate::battle::engine::SetupError;
use serde::Serialize;

/// Why a match cannot be shown.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ViewError {
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error(
        "the match lasts more than {max_turns} robot turns: too long for one page (a lower --rounds shows its start)"
    )]
    TooLong { max_turns: u64 },
    #[error(
        "the match's page would hold more than {} of data, the most a page holds (a lower --rounds shows its start)",
        crate::text::lines::size(*.max_bytes)
    )]
    TooBig { max_bytes: u64 },
    #[error("the match's page cannot be written: {0}")]
    Json(String),
}

impl ViewError {
    pub(super) fn json(e: serde_json::Error) -> ViewError {
        ViewError::Json(e.to_string())
    }
}

/// A robot's state: `[robot, col, row, facing, alive, shots, pointer, next, lost, signal]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RobotState(
    pub usize,
    pub usize,
    pub usize,
    pub u8,
    pub u8,
    pub u8,
    pub u8,
    pub usize,
    pub Vec<u8>,
    pub u8,
);

/// A robot's memories under the TI-57 rule: `[robot, x, t, [R0, …, R7], [returns], stopped]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MemoryState(
    pub usize,
    pub i32,
    pub i32,
    pub [i32; 8],
    pub Vec<u8>,
    pub u8,
);

/// The state after one robot turn (or the start), with the turn's events.
#[derive(Clone, Debug, Serialize)]
pub struct Frame {
    pub r: u32,
    pub n: Option<usize>,
    pub g: Vec<u8>,
    pub d: Vec<RobotState>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub m: Vec<MemoryState>,
    pub e: Vec<EventRow>,
    pub l: String,
    pub a: Vec<u8>,
}
