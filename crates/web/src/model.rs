//! The values the server stores and sends: game settings, action records, results, and the
//! JSON error every refused request gets.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use ply_arena::DynState;
use ply_core::{Error, SearchInfo, Turn};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

// A game's sides and status are part of its record (docs/formats.md), hence defined with it.
pub use ply_arena::record::{Side, SideKind, Status};

pub const DEFAULT_TIME_MS: u64 = 1000;
pub const MAX_TIME_MS: u64 = 600_000;
pub const MAX_DELAY_MS: u64 = 10_000;

/// Everything needed to replay a game from its actions.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Settings {
    pub game: String,
    /// Game options as `key=value,...`.
    pub options: String,
    pub sides: Vec<Side>,
    /// Seeds the dice (each chance event draws from a generator derived from the seed and the
    /// ply, so a replay or a restart rolls the same) and the agents.
    pub seed: u64,
    /// Pause before each AI move, so people can follow the game.
    pub delay_ms: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    /// Every player's score, 0..1 (1 win, 0 loss, shares for draws).
    pub returns: Vec<f64>,
    /// The player with the best score, if only one has it.
    pub winner: Option<usize>,
    /// `end` (the rules ended the game) or `resign`.
    pub reason: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resigned: Option<usize>,
}

impl GameResult {
    pub fn from_returns(returns: Vec<f64>, reason: &str, resigned: Option<usize>) -> GameResult {
        let best = returns.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let leaders: Vec<usize> = (0..returns.len()).filter(|&p| returns[p] == best).collect();
        let winner = (leaders.len() == 1).then(|| leaders[0]);
        GameResult { returns, winner, reason: reason.to_string(), resigned }
    }
}

/// One action of a game's record.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ActionRecord {
    pub ply: usize,
    /// Canonical text form.
    pub action: String,
    /// The player who acted; absent for chance.
    pub player: Option<usize>,
    /// `human`, `ai` or `chance`.
    pub by: String,
    /// Milliseconds since the Unix epoch.
    pub ts: i64,
    /// What the AI thought when it chose this (see [`info_json`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub info: Option<Value>,
}

/// An agent's search report from position `state`, for the UI: `value` is for the player to
/// move, -1..1 (a margin, not a probability); `scores` every seat's expected score when the
/// search estimates it, and `win_probability` the mover's share of it; `pv_players` who moves
/// before each action of the best line (null for chance), so that pages need not guess.
pub fn info_json(info: &SearchInfo<String>, state: &dyn DynState) -> Value {
    let scores = (!info.scores.is_empty()).then_some(&info.scores);
    let mover = match state.turn() {
        Turn::Player(p) => p,
        _ => usize::MAX,
    };
    json!({
        "depth": info.depth,
        "iterations": info.iterations,
        "value": info.value,
        "scores": scores,
        "win_probability": scores.and_then(|s| s.get(mover)),
        "proven": info.proven,
        "pv": info.pv,
        "pv_players": state.movers(&info.pv),
        "elapsed_ms": info.elapsed.as_millis() as u64,
    })
}

pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// A refused request: the status and a message for people, sent as `{"error": "..."}`.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError { status, message: message.into() }
    }
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, message)
    }
    pub fn conflict(message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, message)
    }
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }
}

impl From<Error> for ApiError {
    fn from(e: Error) -> Self {
        match e {
            Error::Illegal(m) => Self::new(StatusCode::UNPROCESSABLE_ENTITY, m),
            Error::Notation(m) | Error::Spec(m) => Self::bad_request(m),
        }
    }
}

impl From<rusqlite::Error> for ApiError {
    fn from(e: rusqlite::Error) -> Self {
        Self::internal(format!("database: {e}"))
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(json!({ "error": self.message }))).into_response()
    }
}

pub type ApiResult<T> = Result<T, ApiError>;
