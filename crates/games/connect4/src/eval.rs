//! A heuristic for Connect Four: threats (empty cells that would complete four) and centre
//! control. Threats decide most games, so they weigh most.

use ply_core::Player;
use ply_search::Evaluator;

use crate::rules::{Connect4, HEIGHT, WIDTH, bottom, cell, column_cells, winning_cells};

#[derive(Clone, Copy, Debug, Default)]
pub struct Connect4Eval;

fn centre_stones(stones: u64) -> i32 {
    (stones & column_cells(WIDTH / 2)).count_ones() as i32
}

/// Cells where the next stone of a column would land.
fn playable_cells(occupied: u64) -> u64 {
    let bottom_row: u64 = (0..WIDTH).map(bottom).sum();
    let board: u64 = (0..WIDTH).map(column_cells).sum();
    (occupied + bottom_row) & board
}

impl Evaluator<Connect4> for Connect4Eval {
    fn evaluate(&self, state: &Connect4, player: Player) -> f64 {
        let occupied = state.occupied();
        let empty = !occupied & (0..WIDTH).flat_map(|c| (0..HEIGHT).map(move |r| cell(c, r))).sum::<u64>();
        let mine = state.stones_of(player);
        let theirs = state.stones_of(1 - player);
        let my_threats = winning_cells(mine) & empty;
        let their_threats = winning_cells(theirs) & empty;
        let playable = playable_cells(occupied);
        let to_move = state.side_to_move();
        // A threat the player to move can fill right now wins on the spot.
        let (mover_threats, other_threats) =
            if to_move == player { (my_threats, their_threats) } else { (their_threats, my_threats) };
        if mover_threats & playable != 0 {
            return if to_move == player { 0.95 } else { -0.95 };
        }
        // Two playable threats of the side not to move cannot both be blocked.
        if (other_threats & playable).count_ones() >= 2 {
            return if to_move == player { -0.9 } else { 0.9 };
        }
        let score = 0.12 * (my_threats.count_ones() as f64 - their_threats.count_ones() as f64)
            + 0.03 * (centre_stones(mine) - centre_stones(theirs)) as f64;
        score.tanh()
    }
}
