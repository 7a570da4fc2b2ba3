//! Connect Four on the standard 7×6 board, as bitboards.
//!
//! Each column takes 7 bits (6 cells plus one always-empty guard bit that stops shifts from
//! wrapping into the next column), bit `col * 7 + row` with row 0 at the bottom. `mine` holds the
//! stones of the player to move and `mask` all stones, so `mine + mask` identifies a position
//! uniquely, and a move is a carry: `mask + bottom(col)` sets the lowest empty cell of `col`.

use ply_core::{Game, Returns, Turn};

pub const WIDTH: usize = 7;
pub const HEIGHT: usize = 6;
const STRIDE: usize = HEIGHT + 1;

/// Centre columns first: they take part in the most lines, so searching them first cuts more.
pub const CENTRE_FIRST: [u8; WIDTH] = [3, 2, 4, 1, 5, 0, 6];

/// A move: the column (0 = leftmost) to drop a stone into.
pub type Column = u8;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Status {
    Playing,
    /// The player who moved last completed four in a row.
    Won,
    Drawn,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Connect4 {
    mine: u64,
    mask: u64,
    plies: u8,
    status: Status,
}

impl Default for Connect4 {
    fn default() -> Self {
        Self::new()
    }
}

pub(crate) const fn bottom(col: usize) -> u64 {
    1 << (col * STRIDE)
}

pub(crate) const fn top_cell(col: usize) -> u64 {
    1 << (col * STRIDE + HEIGHT - 1)
}

pub(crate) const fn column_cells(col: usize) -> u64 {
    ((1 << HEIGHT) - 1) << (col * STRIDE)
}

pub(crate) const fn cell(col: usize, row: usize) -> u64 {
    1 << (col * STRIDE + row)
}

pub(crate) const BOARD_CELLS: u64 = {
    let mut cells = 0;
    let mut col = 0;
    while col < WIDTH {
        cells |= column_cells(col);
        col += 1;
    }
    cells
};

/// Whether `stones` contain four in a row in any direction.
pub(crate) fn has_four(stones: u64) -> bool {
    // Directions as bit shifts: vertical 1, horizontal STRIDE, the diagonals STRIDE ± 1.
    for shift in [1, STRIDE, STRIDE - 1, STRIDE + 1] {
        let pairs = stones & (stones >> shift);
        if pairs & (pairs >> (2 * shift)) != 0 {
            return true;
        }
    }
    false
}

/// Empty-or-not cells that would complete four in a row for `stones`.
pub(crate) fn winning_cells(stones: u64) -> u64 {
    let s = stones;
    // Vertical: three on top of each other, the cell above them.
    let mut cells = (s << 1) & (s << 2) & (s << 3);
    for shift in [STRIDE, STRIDE - 1, STRIDE + 1] {
        let pairs_right = (s << shift) & (s << (2 * shift));
        cells |= pairs_right & (s << (3 * shift)); // xxx_
        cells |= pairs_right & (s >> shift); // xx_x
        let pairs_left = (s >> shift) & (s >> (2 * shift));
        cells |= pairs_left & (s >> (3 * shift)); // _xxx
        cells |= pairs_left & (s << shift); // x_xx
    }
    cells & BOARD_CELLS
}

impl Connect4 {
    pub fn new() -> Self {
        Connect4 { mine: 0, mask: 0, plies: 0, status: Status::Playing }
    }

    pub fn plies(&self) -> usize {
        self.plies as usize
    }

    /// The player to move, or who would be to move if the game were over.
    pub fn side_to_move(&self) -> usize {
        (self.plies % 2) as usize
    }

    pub fn can_play(&self, col: usize) -> bool {
        col < WIDTH && self.mask & top_cell(col) == 0
    }

    /// The owner (0 or 1) of a cell, if any.
    pub fn stone_at(&self, col: usize, row: usize) -> Option<usize> {
        let bit = cell(col, row);
        if self.mask & bit == 0 {
            None
        } else if self.mine & bit != 0 {
            Some(self.side_to_move())
        } else {
            Some(1 - self.side_to_move())
        }
    }

    /// The stones of `player`.
    pub(crate) fn stones_of(&self, player: usize) -> u64 {
        if player == self.side_to_move() { self.mine } else { self.mine ^ self.mask }
    }

    pub(crate) fn occupied(&self) -> u64 {
        self.mask
    }

    /// The winner, if someone has four in a row.
    pub fn winner(&self) -> Option<usize> {
        match self.status {
            Status::Won => Some(1 - self.side_to_move()),
            _ => None,
        }
    }

    /// A unique number for the position (stones and player to move).
    pub fn key(&self) -> u64 {
        self.mine + self.mask
    }

    /// Builds a position from per-cell owners, checking that it could arise in play: stones rest
    /// on each other, the first player has as many stones as the second or one more, and at most
    /// the player who moved last has four in a row.
    pub(crate) fn from_cells(owner: impl Fn(usize, usize) -> Option<usize>) -> Result<Self, String> {
        let mut stones = [0u64; 2];
        for col in 0..WIDTH {
            let mut gap = false;
            for row in 0..HEIGHT {
                match owner(col, row) {
                    None => gap = true,
                    Some(_) if gap => {
                        return Err(format!("column {} has a stone floating above an empty cell", col + 1));
                    }
                    Some(p) => stones[p] |= cell(col, row),
                }
            }
        }
        let counts = [stones[0].count_ones(), stones[1].count_ones()];
        if counts[0] != counts[1] && counts[0] != counts[1] + 1 {
            return Err(format!(
                "the first player must have as many stones as the second or one more (has {}, second {})",
                counts[0], counts[1]
            ));
        }
        let plies = (counts[0] + counts[1]) as u8;
        let to_move = (plies % 2) as usize;
        let last_mover = 1 - to_move;
        if has_four(stones[to_move]) {
            return Err("the player to move already has four in a row".to_string());
        }
        let mask = stones[0] | stones[1];
        let status = if has_four(stones[last_mover]) {
            Status::Won
        } else if mask == BOARD_CELLS {
            Status::Drawn
        } else {
            Status::Playing
        };
        Ok(Connect4 { mine: stones[to_move], mask, plies, status })
    }
}

impl Game for Connect4 {
    type Action = Column;

    fn num_players(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        match self.status {
            Status::Playing => Turn::Player(self.side_to_move()),
            _ => Turn::Over,
        }
    }

    fn legal_actions(&self, out: &mut Vec<Column>) {
        out.clear();
        if self.status == Status::Playing {
            out.extend(CENTRE_FIRST.iter().copied().filter(|&c| self.can_play(c as usize)));
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(Column, f64)>) {
        out.clear();
    }

    fn apply(&mut self, col: Column) {
        debug_assert!(self.status == Status::Playing && self.can_play(col as usize));
        let mover_after = self.mine ^ self.mask; // the opponent's stones become "mine" after the move
        self.mask |= self.mask + bottom(col as usize);
        let mover = mover_after ^ self.mask;
        self.mine = mover_after;
        self.plies += 1;
        self.status = if has_four(mover) {
            Status::Won
        } else if self.mask == BOARD_CELLS {
            Status::Drawn
        } else {
            Status::Playing
        };
    }

    fn returns(&self) -> Returns {
        match self.winner() {
            Some(p) => Returns::win(2, p),
            None => Returns::draw(2),
        }
    }

    const CAN_UNDO: bool = true;

    fn undo(&mut self, col: Column) {
        let column = self.mask & column_cells(col as usize);
        debug_assert!(column != 0, "undo of a move into an empty column");
        let top = 1u64 << (63 - column.leading_zeros());
        self.mask ^= top;
        self.mine ^= self.mask;
        self.plies -= 1;
        self.status = Status::Playing;
    }

    fn hash_key(&self) -> Option<u64> {
        Some(ply_core::rng::derive_seed(self.key(), 0))
    }

    fn action_to_text(&self, col: Column) -> String {
        crate::notation::column_to_text(col)
    }

    fn parse_action(&self, text: &str) -> Result<Column, ply_core::Error> {
        crate::notation::parse_column(text)
    }

    fn to_text(&self) -> String {
        crate::notation::board_to_text(self)
    }

    fn parse_state(&self, text: &str) -> Result<Self, ply_core::Error> {
        crate::notation::parse_board(text)
    }

    fn to_json(&self) -> serde_json::Value {
        crate::notation::board_to_json(self)
    }

    fn state_from_json(&self, json: &serde_json::Value) -> Result<Self, ply_core::Error> {
        crate::notation::board_from_json(json)
    }
}
