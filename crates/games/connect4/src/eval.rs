//! A heuristic for Connect Four: threats (empty cells that would complete four) and centre
//! control. Threats decide most games, so they weigh most by default; the weights are a
//! parameter (`alphabeta:weights=1.2,0.3`) so that `ply tune` can evolve them.

use ply_core::{Error, Player};
use ply_search::Evaluator;

use crate::rules::{BOARD_CELLS, Connect4, WIDTH, bottom, column_cells, winning_cells};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Connect4Eval {
    /// Weight of each threat more than the opponent has.
    pub threat: f64,
    /// Weight of each stone more than the opponent in the centre column.
    pub centre: f64,
}

impl Default for Connect4Eval {
    fn default() -> Self {
        Connect4Eval { threat: 1.2, centre: 0.3 }
    }
}

impl Connect4Eval {
    pub const DEFAULT_WEIGHTS: &'static str = "1.2,0.3";

    pub fn from_weights(weights: &[f64]) -> Result<Self, Error> {
        match weights {
            [threat, centre] => Ok(Connect4Eval { threat: *threat, centre: *centre }),
            _ => Err(Error::spec(format!(
                "connect4 weights are threat,centre: 2 numbers, got {}",
                weights.len()
            ))),
        }
    }
}

const BOTTOM_ROW: u64 = {
    let mut row = 0;
    let mut col = 0;
    while col < WIDTH {
        row |= bottom(col);
        col += 1;
    }
    row
};

fn centre_stones(stones: u64) -> i32 {
    (stones & column_cells(WIDTH / 2)).count_ones() as i32
}

impl Evaluator<Connect4> for Connect4Eval {
    fn evaluate(&self, state: &Connect4, player: Player) -> f64 {
        let occupied = state.occupied();
        let empty = !occupied & BOARD_CELLS;
        let mine = state.stones_of(player);
        let theirs = state.stones_of(1 - player);
        let my_threats = winning_cells(mine) & empty;
        let their_threats = winning_cells(theirs) & empty;
        // Where the next stone of each column would land.
        let playable = (occupied + BOTTOM_ROW) & BOARD_CELLS;
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
        let score = self.threat * (my_threats.count_ones() as f64 - their_threats.count_ones() as f64)
            + self.centre * (centre_stones(mine) - centre_stones(theirs)) as f64;
        (0.1 * score).tanh()
    }
}
