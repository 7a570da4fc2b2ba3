//! Plain expectiminimax: no pruning, no tables, no ordering. Slow and obviously right, it is the
//! reference that the optimised searches are tested against.

use ply_core::{Game, Player, Turn};

use crate::heuristics::Evaluator;
use crate::value::{DISCOUNT, DepthUnit, EvalScale, heuristic_value, terminal_value};

/// The value of `state` for `root` searched `depth` player decisions deep: the root player
/// maximises, every other player minimises (paranoid; plain minimax for two players), chance
/// nodes take the expectation. Same value scale as [`crate::alphabeta`].
pub fn expectiminimax<G: Game, E: Evaluator<G> + ?Sized>(
    state: &G,
    depth: u32,
    root: Player,
    eval: &E,
    scale: EvalScale,
) -> f64 {
    expectiminimax_in(state, depth, DepthUnit::Actions, root, eval, scale)
}

/// [`expectiminimax`] with the depth counted in `unit`.
pub fn expectiminimax_in<G: Game, E: Evaluator<G> + ?Sized>(
    state: &G,
    depth: u32,
    unit: DepthUnit,
    root: Player,
    eval: &E,
    scale: EvalScale,
) -> f64 {
    match state.turn() {
        Turn::Over => terminal_value(state, root),
        _ if unit.is_leaf(state, depth) => heuristic_value(eval, state, root, scale),
        Turn::Chance => state
            .outcomes()
            .into_iter()
            .map(|(outcome, p)| {
                let mut child = state.clone();
                child.apply(outcome);
                p * expectiminimax_in(&child, depth, unit, root, eval, scale)
            })
            .sum(),
        Turn::Player(mover) => {
            let below = unit.child_depth(state, depth);
            let values = state.actions().into_iter().map(|action| {
                let mut child = state.clone();
                child.apply(action);
                DISCOUNT * expectiminimax_in(&child, below, unit, root, eval, scale)
            });
            if mover == root {
                values.fold(f64::NEG_INFINITY, f64::max)
            } else {
                values.fold(f64::INFINITY, f64::min)
            }
        }
    }
}
