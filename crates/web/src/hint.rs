//! Hints: what an AI would play for the human to move, without playing it
//! (`POST /api/games/{id}/hint`, docs/web-api.md). The search runs on a copy of the position on
//! the blocking pool, so the game goes on meanwhile; a hint that arrives after the game moved on
//! says which ply it was for.

use ply_arena::{DynAgent, DynState};
use ply_core::{AgentSpec, Budget, Limits, StopFlag, Turn};
use serde_json::{Value, json};

use crate::live::{GameHandle, Live, lock};
use crate::model::{ApiError, ApiResult, DEFAULT_TIME_MS, info_json};

/// A hint is asked for while someone waits for it.
pub const MAX_HINT_MS: u64 = 10_000;

/// Hint agents' seeds live here in the game seed's index space (chance events and the sides'
/// agents elsewhere), one per ply.
pub const HINT_SEED_BASE: u64 = 1 << 41;

struct HintSearch {
    player: usize,
    spec: String,
    ply: usize,
    agent: Box<dyn DynAgent>,
    state: Box<dyn DynState>,
}

/// The agent asked for, else the first AI side's, else the game's first agent — for the human
/// to move.
fn prepare(live: &Live, asked: Option<&str>) -> ApiResult<HintSearch> {
    live.require_playing()?;
    let player = match live.state.turn() {
        Turn::Player(p) if !live.settings.sides[p].is_ai() => p,
        _ => return Err(ApiError::conflict("a hint is for a human to move, and no human is to move")),
    };
    let spec = match asked {
        Some(spec) => spec.to_string(),
        None => live
            .settings
            .sides
            .iter()
            .find_map(|side| side.agent.clone())
            .unwrap_or_else(|| live.def().agents()[0].name.to_string()),
    };
    let ply = live.actions.len();
    let seed = live.seed_at(HINT_SEED_BASE + ply as u64);
    let agent = live.def().new_agent(&AgentSpec::parse(&spec)?, seed)?;
    Ok(HintSearch { player, spec, ply, agent, state: live.state.clone_box() })
}

/// Searches the position of game `handle` for its human to move with `agent` (a spec) for
/// `time_ms` (unless the spec sets its own budget), and answers the move and the search's report.
pub async fn hint(handle: &GameHandle, agent: Option<&str>, time_ms: Option<u64>) -> ApiResult<Value> {
    let time_ms = time_ms.unwrap_or(DEFAULT_TIME_MS);
    if !(1..=MAX_HINT_MS).contains(&time_ms) {
        return Err(ApiError::bad_request(format!("time_ms must be 1 to {MAX_HINT_MS}, got {time_ms}")));
    }
    let HintSearch { player, spec, ply, mut agent, state } = prepare(&lock(handle), agent)?;
    let budget = agent.budget().or(Budget::millis(time_ms));
    if budget.time.is_some_and(|t| t.as_millis() > MAX_HINT_MS as u128) {
        return Err(ApiError::bad_request(format!(
            "a hint thinks at most {MAX_HINT_MS} ms; '{spec}' asks for more"
        )));
    }
    let limits = Limits { budget, stop: StopFlag::new() };
    let decision = tokio::task::spawn_blocking(move || agent.choose(&*state, &limits, &mut |_| {}))
        .await
        .map_err(|e| ApiError::internal(format!("the hint's search panicked: {e}")))?
        .map_err(|e| ApiError::internal(format!("the hint's search failed: {e}")))?;
    Ok(json!({
        "ply": ply,
        "player": player,
        "agent": spec,
        "action": decision.action,
        "info": info_json(&decision.info),
    }))
}
