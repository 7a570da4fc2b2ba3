//! Move-path counting, the classic test of a move generator: the number of distinct action
//! sequences of a given length from a position (sequences that end the game early count once).

use crate::game::{Game, Turn};

/// Counts the action sequences of length `depth` from `state`; chance outcomes are actions too.
/// A sequence that reaches the end of the game before `depth` counts as one leaf.
pub fn perft<G: Game>(state: &G, depth: u32) -> u64 {
    if depth == 0 || state.turn() == Turn::Over {
        return 1;
    }
    let actions: Vec<G::Action> = match state.turn() {
        Turn::Chance => state.outcomes().into_iter().map(|(a, _)| a).collect(),
        _ => state.actions(),
    };
    if depth == 1 {
        return actions.len() as u64;
    }
    actions
        .into_iter()
        .map(|action| {
            let mut child = state.clone();
            child.apply(action);
            perft(&child, depth - 1)
        })
        .sum()
}
