//! What a game looks like from a seat or the stands: the view the API and the sockets send, and
//! the position an agent of a seat may be handed, in games of hidden information too.

use super::*;

impl Live {
    /// The game as a spectator sees it.
    pub fn view(&self) -> Value {
        self.view_for(None)
    }

    /// Whether seats see different things now: hidden information, while the game is played
    /// (a finished game shows everything, for replays).
    pub fn is_secret(&self) -> bool {
        self.status == Status::Playing && self.state.hidden_information()
    }

    /// The game as `viewer` (a seat, or `None` for a spectator) may see it: in a game with
    /// hidden information, while it is played, the position and the record as that seat sees
    /// them, legal moves only for the seat to move, and no AI's search report (it would tell
    /// what the AI holds).
    pub fn view_for(&self, viewer: Option<usize>) -> Value {
        let secret = self.is_secret();
        let turn = match self.state.turn() {
            _ if self.status != Status::Playing => json!({"kind": "over"}),
            Turn::Player(p) => json!({
                "kind": "player",
                "player": p,
                "human": !self.settings.sides[p].is_ai(),
                // The player acted already in this turn, which goes on.
                "continues": self.state.continues_turn(),
            }),
            Turn::Chance => json!({"kind": "chance"}),
            Turn::Over => json!({"kind": "over"}),
        };
        let to_move = match self.state.turn() {
            Turn::Player(p) => Some(p),
            _ => None,
        };
        let legal = if self.status == Status::Playing && (!secret || viewer.is_some() && viewer == to_move) {
            self.state.legal_actions()
        } else {
            Vec::new()
        };
        let position = if secret {
            json!({"text": self.state.observation_text(viewer), "json": self.state.observation_json(viewer)})
        } else {
            json!({"text": self.state.to_text(), "json": self.state.to_json()})
        };
        let actions: Vec<ActionRecord> = if secret {
            let slot = viewer.map_or(0, |p| p + 1);
            self.actions
                .iter()
                .zip(&self.observed)
                .map(|(record, seen)| ActionRecord {
                    action: seen[slot].clone(),
                    info: None,
                    ..record.clone()
                })
                .collect()
        } else {
            self.actions.clone()
        };
        json!({
            "id": self.id,
            "version": self.version,
            "game": self.settings.game,
            "options": self.settings.options,
            "seed": self.public_seed(),
            "sides": self.settings.sides,
            "delay_ms": self.settings.delay_ms,
            "paused": self.paused,
            "status": self.status,
            "result": self.result,
            "num_players": self.state.num_players(),
            "turn": turn,
            "position": position,
            "legal": legal,
            "actions": actions,
            "viewer": viewer,
            "hidden_information": self.state.hidden_information(),
            "thinking": self.thinking.as_ref().map(|t| json!({
                "player": t.player,
                "started": t.started,
                "budget_ms": t.budget_ms,
                "info": if secret { &Value::Null } else { t.info.as_ref().unwrap_or(&Value::Null) },
            })),
            "can_undo": self.undo_point().is_ok(),
            // Whether seats need their tokens (games stored before tokens existed do not).
            "protected": self.tokens.is_some(),
            "series": self.series.map(|s| s.0),
            "created": self.created,
            "updated": self.updated,
        })
    }

    /// The position as `seat` may know it: re-dealt where it cannot see (a different world for
    /// each ply, from the seed index `base + ply`), or the position itself in a game of perfect
    /// information.
    pub fn seat_view(&self, seat: usize, base: u64) -> Box<dyn DynState> {
        if !self.state.hidden_information() {
            return self.state.clone_box();
        }
        let mut rng = rng_from_seed(self.seed_at(base + self.actions.len() as u64));
        self.state.resample_hidden(seat, &mut rng)
    }

    /// The seed decides every roll to come, so clients see it only once the game is over.
    pub(super) fn public_seed(&self) -> Option<String> {
        (self.status != Status::Playing).then(|| self.settings.seed.to_string())
    }
}

/// How an action, about to be played in `state`, looks to each viewer: the spectator, then every
/// seat.
pub(super) fn observe(state: &dyn DynState, action: &str) -> Vec<String> {
    let viewers = std::iter::once(None).chain((0..state.num_players()).map(Some));
    viewers.map(|v| state.action_observation(action, v).unwrap_or_else(|_| action.to_string())).collect()
}
