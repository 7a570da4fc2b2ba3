use ply_core::rng::{Rng, rng_from_seed};
use ply_core::{Agent, Decision, Game, Limits, SearchInfo};
use rand::RngExt;

/// Plays a uniformly random legal move.
pub struct RandomAgent {
    rng: Rng,
}

impl RandomAgent {
    pub fn new(seed: u64) -> Self {
        RandomAgent { rng: rng_from_seed(seed) }
    }
}

impl<G: Game> Agent<G> for RandomAgent {
    fn choose(
        &mut self,
        state: &G,
        _limits: &Limits,
        _report: &mut dyn FnMut(&SearchInfo<G::Action>),
    ) -> Decision<G::Action> {
        let actions = state.actions();
        assert!(!actions.is_empty(), "asked to move in a position without legal moves");
        Decision::new(actions[self.rng.random_range(0..actions.len())])
    }
}
