//! The one interface every AI implements.

use std::time::Duration;

use crate::budget::Limits;
use crate::game::Game;

/// What an agent reports about its thinking. Fields an agent has nothing to say about keep their
/// defaults.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo<A> {
    /// Completed search depth (alpha-beta) or depth of the principal variation (MCTS).
    pub depth: u32,
    /// Iterations done: nodes for alpha-beta, simulations for MCTS.
    pub iterations: u64,
    /// The position's value for the player to move, from -1 (lost) to +1 (won); a heuristic
    /// estimate unless `proven` is set. Not a probability: alpha-beta's values are margins.
    pub value: Option<f64>,
    /// Every seat's expected score (each in [0, 1], summing to 1: for a decisive game, its
    /// chance to win), when the agent's search estimates it; empty otherwise.
    pub scores: Vec<f64>,
    /// A forced result: plies to a win (positive) or to a loss (negative).
    pub proven: Option<i32>,
    /// The expected line of play, starting with the chosen action.
    pub pv: Vec<A>,
    pub elapsed: Duration,
}

impl<A> Default for SearchInfo<A> {
    fn default() -> Self {
        SearchInfo {
            depth: 0,
            iterations: 0,
            value: None,
            scores: Vec::new(),
            proven: None,
            pv: Vec::new(),
            elapsed: Duration::ZERO,
        }
    }
}

impl<A> SearchInfo<A> {
    pub fn map_actions<B>(&self, f: impl FnMut(&A) -> B) -> SearchInfo<B> {
        SearchInfo {
            depth: self.depth,
            iterations: self.iterations,
            value: self.value,
            scores: self.scores.clone(),
            proven: self.proven,
            pv: self.pv.iter().map(f).collect(),
            elapsed: self.elapsed,
        }
    }
}

/// An agent's choice and what it knew when it made it.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision<A> {
    pub action: A,
    pub info: SearchInfo<A>,
}

impl<A: Clone> Decision<A> {
    /// A decision with no search behind it: the line is just the action.
    pub fn new(action: A) -> Self {
        Decision { info: SearchInfo { pv: vec![action.clone()], ..SearchInfo::default() }, action }
    }
}

/// A computer player. Created for one game from a spec and a seed; may keep state between its
/// moves (a search tree to reuse, say). Asked only when a player (never chance) is to move.
pub trait Agent<G: Game>: Send {
    /// Chooses an action for the player to move in `state` within `limits`. May call `report`
    /// with progress (each completed depth, say) while it thinks. Must return a legal action
    /// even if stopped at once.
    fn choose(
        &mut self,
        state: &G,
        limits: &Limits,
        report: &mut dyn FnMut(&SearchInfo<G::Action>),
    ) -> Decision<G::Action>;

    /// Thinks about `state`, where another player is to move, within `limits` (usually until
    /// their stop flag is set: when that player has moved), keeping what it learns for its own
    /// next decision. `ply serve` calls it while a human thinks, so the AI answers sooner and
    /// better. Matches never call it: their games replay bit for bit. The default does nothing.
    fn ponder(&mut self, _state: &G, _limits: &Limits) {}

    /// Whether [`Agent::ponder`] does anything, so that no core is held for an agent that
    /// would not use it.
    fn ponders(&self) -> bool {
        false
    }
}
