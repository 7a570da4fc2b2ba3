//! What a game tells generic search: how good a position is, which moves to try first, how to
//! play out a simulation. Each has a neutral default, so any game can be searched as it is.

use ply_core::rng::Rng;
use ply_core::{Game, Player};
use rand::RngExt;

/// A heuristic value of a position for `player`: from -1 (surely lost) to +1 (surely won), 0 even.
/// Search clamps values to that range, so that a heuristic never outweighs a real win.
pub trait Evaluator<G: Game>: Send + Sync {
    fn evaluate(&self, state: &G, player: Player) -> f64;
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
}

/// Uniformly random playouts.
#[derive(Clone, Copy, Debug, Default)]
pub struct UniformRollout;

impl<G: Game> RolloutPolicy<G> for UniformRollout {
    fn choose(&self, _state: &G, actions: &[G::Action], rng: &mut Rng) -> G::Action {
        actions[rng.random_range(0..actions.len())]
    }
}
