//! Exact play of small endgames: the winning chance of a position by full expectimax to the end of
//! the game, every position remembered. The game cannot cycle (every move brings a cube closer to
//! its goal or takes one), so the recursion ends; with few cubes left the positions reachable are
//! few enough to visit all.

use std::collections::HashMap;

use ply_core::Game;

use crate::rules::{Action, Einstein, Phase};

/// Remembers solved positions (about to roll), keyed exactly by board and side.
#[derive(Default)]
pub struct Solver {
    memo: HashMap<u128, f32>,
}

/// A position's exact identity for memo tables: its board and the side to act (the die, the
/// score of a match and the options are left out; tables hold positions about to be rolled).
pub fn key(state: &Einstein) -> u128 {
    state.board.iter().fold(state.side as u128, |k, &p| k << 4 | p as u128)
}

impl Solver {
    pub fn new() -> Self {
        Solver::default()
    }

    /// Positions solved so far.
    pub fn positions(&self) -> usize {
        self.memo.len()
    }

    /// The chance that the side about to roll wins with best play by both sides.
    pub fn roll_value(&mut self, state: &Einstein) -> f64 {
        debug_assert_eq!(state.phase(), Phase::Roll);
        let k = key(state);
        if let Some(&v) = self.memo.get(&k) {
            return v as f64;
        }
        let mut total = 0.0;
        for die in 1..=6 {
            let mut rolled = state.clone();
            rolled.apply(Action::Roll(die));
            total += self.move_values(&rolled).into_iter().map(|(_, v)| v).fold(0.0, f64::max);
        }
        let v = total / 6.0;
        self.memo.insert(k, v as f32);
        v
    }

    /// Every move of a rolled position with the mover's winning chance after it.
    pub fn move_values(&mut self, state: &Einstein) -> Vec<(Action, f64)> {
        state
            .actions()
            .into_iter()
            .map(|action| {
                if state.is_winning_move(action) {
                    return (action, 1.0);
                }
                let mut after = state.clone();
                after.apply(action);
                (action, 1.0 - self.roll_value(&after))
            })
            .collect()
    }
}
