//! What a game tells generic search: how good a position is, which moves to try first, how to
//! play out a simulation. Each has a neutral default, so any game can be searched as it is.

use ply_core::rng::Rng;
use ply_core::{Game, Player, Returns};
use rand::RngExt;

/// A heuristic value of a position for `player`: from -1 (surely lost) to +1 (surely won), 0 even.
/// Search clamps values to that range, so that a heuristic never outweighs a real win.
pub trait Evaluator<G: Game>: Send + Sync {
    fn evaluate(&self, state: &G, player: Player) -> f64;

    /// Every player's expected score, each in [0, 1] and summing to 1 like the returns of a
    /// finished game, so that MCTS can mix it with playout results. By default each player's
    /// `(1 + value) / 2`, scaled to sum to 1: for two players with opposite values that is
    /// exactly `(1 + value) / 2`; for more, an even position gives each `1 / n` (not 1/2 each,
    /// which would sum to n/2). A game that can estimate shares better overrides this.
    fn expected_scores(&self, state: &G) -> Returns {
        let players = state.num_players();
        let mut scores = Returns::zeros(players);
        for p in 0..players {
            scores.set(p, (1.0 + self.evaluate(state, p).clamp(-1.0, 1.0)) / 2.0);
        }
        normalised(scores)
    }
}

/// Scales non-negative scores to sum to 1; all zeros become an even share.
pub fn normalised(mut scores: Returns) -> Returns {
    let players = scores.players();
    let sum: f64 = scores.as_slice().iter().sum();
    for p in 0..players {
        let share = if sum > 0.0 { scores.get(p) / sum } else { 1.0 / players as f64 };
        scores.set(p, share);
    }
    scores
}

impl<G: Game, F: Fn(&G, Player) -> f64 + Send + Sync> Evaluator<G> for F {
    fn evaluate(&self, state: &G, player: Player) -> f64 {
        self(state, player)
    }
}

/// Knows nothing: every unfinished position is even.
#[derive(Clone, Copy, Debug, Default)]
pub struct NeutralEval;

impl<G: Game> Evaluator<G> for NeutralEval {
    fn evaluate(&self, _state: &G, _player: Player) -> f64 {
        0.0
    }
}

/// Reorders the legal actions of a position, most promising first. Alpha-beta prunes more when
/// good moves come first.
pub trait MoveOrderer<G: Game>: Send + Sync {
    fn order(&self, state: &G, actions: &mut [G::Action]);
}

/// Keeps the order of `legal_actions`.
#[derive(Clone, Copy, Debug, Default)]
pub struct GeneratedOrder;

impl<G: Game> MoveOrderer<G> for GeneratedOrder {
    fn order(&self, _state: &G, _actions: &mut [G::Action]) {}
}

/// Picks the moves of a Monte-Carlo playout.
pub trait RolloutPolicy<G: Game>: Send + Sync {
    fn choose(&self, state: &G, actions: &[G::Action], rng: &mut Rng) -> G::Action;

    /// Picks a move for the player to move, listing the legal moves into `scratch` if needed.
    /// A uniform policy asks the game for a random move directly ([`Game::random_action`]: the
    /// same move with the same random numbers), which spares long move lists.
    fn pick(&self, state: &G, rng: &mut Rng, scratch: &mut Vec<G::Action>) -> G::Action {
        state.legal_actions(scratch);
        self.choose(state, scratch, rng)
    }
}

/// Uniformly random playouts.
#[derive(Clone, Copy, Debug, Default)]
pub struct UniformRollout;

impl<G: Game> RolloutPolicy<G> for UniformRollout {
    fn choose(&self, _state: &G, actions: &[G::Action], rng: &mut Rng) -> G::Action {
        actions[rng.random_range(0..actions.len())]
    }

    fn pick(&self, state: &G, rng: &mut Rng, scratch: &mut Vec<G::Action>) -> G::Action {
        state.random_action(rng, scratch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::{Error, Turn};

    /// Only its player count matters here.
    #[derive(Clone)]
    struct Table(usize);

    impl Game for Table {
        type Action = u8;
        fn num_players(&self) -> usize {
            self.0
        }
        fn turn(&self) -> Turn {
            Turn::Player(0)
        }
        fn legal_actions(&self, out: &mut Vec<u8>) {
            out.clear();
        }
        fn chance_outcomes(&self, out: &mut Vec<(u8, f64)>) {
            out.clear();
        }
        fn apply(&mut self, _action: u8) {}
        fn returns(&self) -> Returns {
            Returns::draw(self.0)
        }
        fn action_to_text(&self, action: u8) -> String {
            action.to_string()
        }
        fn parse_action(&self, _text: &str) -> Result<u8, Error> {
            Err(Error::notation("none"))
        }
        fn to_text(&self) -> String {
            String::new()
        }
        fn parse_state(&self, _text: &str) -> Result<Self, Error> {
            Ok(self.clone())
        }
        fn to_json(&self) -> serde_json::Value {
            serde_json::Value::Null
        }
        fn state_from_json(&self, _json: &serde_json::Value) -> Result<Self, Error> {
            Ok(self.clone())
        }
    }

    #[test]
    fn expected_scores_sum_to_one() {
        let leader = |_: &Table, p: Player| if p == 0 { 0.5 } else { -0.5 };
        assert_eq!(leader.expected_scores(&Table(2)).as_slice(), &[0.75, 0.25]);
        assert_eq!(NeutralEval.expected_scores(&Table(4)).as_slice(), &[0.25; 4]);
        let three = leader.expected_scores(&Table(3));
        assert!((three.as_slice().iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!((three.get(0) - 0.6).abs() < 1e-12, "0.75 against 0.25 + 0.25: {three:?}");
        let lost = |_: &Table, _: Player| -1.0;
        assert_eq!(lost.expected_scores(&Table(3)).as_slice(), &[1.0 / 3.0; 3], "all zeros: an even share");
    }
}
