//! The race evaluation with a capture quiescence: the race ([`crate::race`]) ignores that cubes
//! are taken, so a position where a cube stands in front of an enemy cube is judged as if nothing
//! could happen to it. At a leaf this evaluator lets the side to move choose between the race
//! value (standing pat: some quiet move is assumed to keep the race) and each capture or win it
//! can make, and after a capture lets the other side answer in the same way for each die value,
//! down to a fixed number of captures.

use ply_core::{Game, Player};
use ply_search::Evaluator;

use crate::race::race_win_probability;
use crate::rules::{Action, Einstein, GOAL, Phase};

/// Race evaluation refined by a capture-only search of `depth` captures.
#[derive(Clone, Copy, Debug)]
pub struct QuiescentRaceEval {
    pub depth: u32,
}

impl Default for QuiescentRaceEval {
    fn default() -> Self {
        QuiescentRaceEval { depth: 2 }
    }
}

/// Whether a move takes an enemy cube or reaches the goal.
fn is_forcing(state: &Einstein, action: Action) -> bool {
    let Some((_, to)) = state.move_squares(action) else { return false };
    let s = state.side() as usize;
    to == GOAL[s] as usize || matches!(state.cube_at(to), Some((owner, _)) if owner as usize != s)
}

/// The winning chance of the side to move (or of the side about to roll).
fn quiesce(state: &Einstein, depth: u32, moves: &mut Vec<Vec<Action>>) -> f64 {
    let mover = state.side() as usize;
    if depth == 0 {
        return race_win_probability(state, mover);
    }
    match state.phase() {
        Phase::Over => state.returns().get(mover),
        Phase::Setup => 0.5,
        Phase::Roll => {
            let mut total = 0.0;
            for die in 1..=6 {
                let mut rolled = state.clone();
                rolled.apply(Action::Roll(die));
                total += quiesce(&rolled, depth, moves);
            }
            total / 6.0
        }
        Phase::Move(_) => {
            let stand_pat = race_win_probability(state, mover);
            let mut list = moves.pop().unwrap_or_default();
            state.legal_actions(&mut list);
            let mut best = stand_pat;
            for &action in &list {
                if !is_forcing(state, action) {
                    continue;
                }
                let mut after = state.clone();
                after.apply(action);
                let value = match after.phase() {
                    Phase::Over => after.returns().get(mover),
                    _ => 1.0 - quiesce(&after, depth - 1, moves),
                };
                best = best.max(value);
            }
            moves.push(list);
            best
        }
    }
}

impl Evaluator<Einstein> for QuiescentRaceEval {
    fn evaluate(&self, state: &Einstein, player: Player) -> f64 {
        let mut moves = Vec::new();
        let p = quiesce(state, self.depth, &mut moves);
        let p = if state.side() as usize == player { p } else { 1.0 - p };
        2.0 * p - 1.0
    }
}
