//! Hints: what an AI would play for the human to move, without playing it
//! (`POST /api/games/{id}/hint`, docs/web-api.md). The search runs on a copy of the position on
//! the blocking pool, so the game goes on meanwhile. It stops when its time is up (an
//! `iters=`-only spec included), when the position changes (a move, an undo, the end), and
//! when the client that asked goes away; a hint cut short answers what it found so far.

use std::time::Duration;

use ply_arena::{DynAgent, DynState};
use ply_core::{Budget, Limits, StopFlag, Turn};
use serde_json::{Value, json};

use crate::app::App;
use crate::live::{GameHandle, Live, Running, lock, stop_after};
use crate::model::{ApiError, ApiResult, DEFAULT_TIME_MS, info_json};

/// A hint is asked for while someone waits for it.
pub const MAX_HINT_MS: u64 = 10_000;

/// Hint agents' seeds live here in the game seed's index space (chance events and the sides'
/// agents elsewhere), one per ply.
pub const HINT_SEED_BASE: u64 = 1 << 41;

/// The worlds re-dealt for a hint's seat, one per ply, in games with hidden information.
const HINT_VIEW_SEED_BASE: u64 = 1 << 44;

struct HintSearch {
    player: usize,
    spec: String,
    ply: usize,
    agent: Box<dyn DynAgent>,
    state: Box<dyn DynState>,
}

/// The agent asked for, else the first AI side's, else the game's first agent — for the human
/// to move, whose token the request must carry.
fn prepare(app: &App, live: &Live, token: Option<&str>, asked: Option<&str>) -> ApiResult<HintSearch> {
    live.require_playing()?;
    let player = match live.state.turn() {
        Turn::Player(p) if !live.settings.sides[p].is_ai() => p,
        _ => return Err(ApiError::conflict("a hint is for a human to move, and no human is to move")),
    };
    live.authorize_seat(token, player)?;
    let spec = match asked {
        Some(spec) => spec.to_string(),
        None => live
            .settings
            .sides
            .iter()
            .find_map(|side| side.agent.clone())
            .unwrap_or_else(|| live.def().agents()[0].name.to_string()),
    };
    let index = app.game_index(&live.settings.game)?;
    let spec = app.check_spec(index, &spec)?;
    let ply = live.actions.len();
    let seed = live.seed_at(HINT_SEED_BASE + ply as u64);
    let agent = live.def().new_agent(&spec, seed)?;
    // A hint knows only what the human's seat may see.
    Ok(HintSearch {
        player,
        spec: spec.to_string(),
        ply,
        agent,
        state: live.seat_view(player, HINT_VIEW_SEED_BASE),
    })
}

/// A hint in flight. Dropped when the hint ends — or when the request's future is dropped
/// because its client went away — it stops the search and lets the game forget the hint.
struct HintGuard<'a> {
    handle: &'a GameHandle,
    id: u64,
    stop: StopFlag,
}

impl Drop for HintGuard<'_> {
    fn drop(&mut self) {
        self.stop.stop();
        lock(self.handle).end_hint(self.id);
    }
}

/// Searches game `handle`'s position for its human to move with `agent` (a spec) for `time_ms`
/// (unless the spec sets its own budget), and answers the move and the search's report.
pub async fn hint(
    app: &App,
    handle: &GameHandle,
    token: Option<&str>,
    agent: Option<&str>,
    time_ms: Option<u64>,
) -> ApiResult<Value> {
    let time_ms = time_ms.unwrap_or(DEFAULT_TIME_MS);
    if !(1..=MAX_HINT_MS).contains(&time_ms) {
        return Err(ApiError::bad_request(format!("time_ms must be 1 to {MAX_HINT_MS}, got {time_ms}")));
    }
    let stop = StopFlag::new();
    let (search, id) = {
        let mut live = lock(handle);
        let search = prepare(app, &live, token, agent)?;
        (search, live.start_hint(stop.clone()))
    };
    let _guard = HintGuard { handle, id, stop: stop.clone() };
    let HintSearch { player, spec, ply, mut agent, state } = search;
    let budget = agent.budget().or(Budget::millis(time_ms));
    if budget.time.is_some_and(|t| t.as_millis() > MAX_HINT_MS as u128) {
        return Err(ApiError::bad_request(format!(
            "a hint thinks at most {MAX_HINT_MS} ms; '{spec}' asks for more"
        )));
    }
    if budget.time.is_none() {
        stop_after(stop.clone(), Duration::from_millis(time_ms));
    }
    let running = Running::new(&app.searches);
    let limits = Limits { budget, stop };
    let result = tokio::task::spawn_blocking(move || {
        let _running = running;
        let decision = agent.choose(&*state, &limits, &mut |_| {});
        decision.map(|d| (info_json(&d.info, &*state), d.action))
    })
    .await;
    let (info, action) = result
        .map_err(|e| ApiError::internal(format!("the hint's search panicked: {e}")))?
        .map_err(|e| ApiError::internal(format!("the hint's search failed: {e}")))?;
    Ok(json!({
        "ply": ply,
        "player": player,
        "agent": spec,
        "action": action,
        "info": info,
    }))
}
