//! A position given as a diagram: stones without the order they were played in. A board is its
//! moves (its text form lists them, and reading that back checks every move), so a diagram gets
//! an order of play that reaches it under the rules, or is refused when none does.

use super::{BLACK, Board, DIRECTIONS, EMPTY, Point, Rule, WHITE};
use crate::renju::is_forbidden;

/// Stones tried, all told, before the search for an order gives up. Diagrams from real games
/// need about one try a stone: only contrived ones send the search back.
const TRIES: usize = 20_000;

impl Board {
    /// Builds a board from stones, checking the counts (black has as many stones as white, or
    /// one more), that at most one side has won, and that one by the last move's colour; then
    /// finds an order of play: no five before the last stone (the game would have ended), and
    /// under renju no black stone on a point that was forbidden when it was played.
    pub(crate) fn from_stones(size: usize, rule: Rule, stones: &[(Point, u8)]) -> Result<Self, String> {
        let mut full = Board::new(size, rule);
        let mut by_color: [Vec<Point>; 2] = [Vec::new(), Vec::new()];
        for &(p, color) in stones {
            full.cells[p as usize] = color;
            by_color[color as usize - 1].push(p);
        }
        let (blacks, whites) = (by_color[0].len(), by_color[1].len());
        if blacks != whites && blacks != whites + 1 {
            return Err(format!(
                "black must have as many stones as white or one more (black {blacks}, white {whites})"
            ));
        }
        let last = if blacks > whites { BLACK } else { WHITE };
        let winner = match (full.has_five(BLACK), full.has_five(WHITE)) {
            (false, false) => None,
            (true, true) => return Err("both sides have five in a row".into()),
            (true, false) if last == BLACK => Some(BLACK),
            (false, true) if last == WHITE => Some(WHITE),
            _ => return Err("the side to move already has five in a row".into()),
        };
        let mut order = Vec::with_capacity(stones.len());
        let mut tries = 0;
        if !full.take_off(&mut by_color, last, winner, &mut order, &mut tries) {
            return Err(if tries >= TRIES {
                "found no order of play that reaches this diagram (gave up looking)".into()
            } else {
                "no order of play reaches this diagram: a five would come before the last stone, \
                 or black would have played a forbidden point"
                    .into()
            });
        }
        let mut board = Board::new(size, rule);
        for &p in order.iter().rev() {
            board.place(p);
        }
        Ok(board)
    }

    fn has_five(&self, color: u8) -> bool {
        self.points().any(|p| self.cells[p as usize] == color && self.makes_five(p, color))
    }

    /// Takes the stones off one by one, last played first, `color` next, depth first: a stone
    /// may be the one played last if the position without it is one the game could have been
    /// in, with `color` to move and a legal move there. Pushes the stones taken off onto
    /// `order`; the cells are as they were when it returns.
    fn take_off(
        &mut self,
        stones: &mut [Vec<Point>; 2],
        color: u8,
        winner: Option<u8>,
        order: &mut Vec<Point>,
        tries: &mut usize,
    ) -> bool {
        let side = color as usize - 1;
        if stones[side].is_empty() {
            return stones[1 - side].is_empty();
        }
        for i in 0..stones[side].len() {
            if *tries >= TRIES {
                return false;
            }
            *tries += 1;
            let p = stones[side][i];
            // A won game ends on the winning stone.
            if winner.is_some() && !self.makes_five(p, color) {
                continue;
            }
            self.cells[p as usize] = EMPTY;
            let no_five_before = if winner.is_some() {
                !self.has_five(color)
            } else {
                // The position with the stone had no five: only its own lines can have changed,
                // an overline broken into exactly five.
                DIRECTIONS.iter().all(|&d| {
                    !self.rule.wins(color, self.run(p, d, color))
                        && !self.rule.wins(color, self.run(p, -d, color))
                })
            };
            let allowed = !(self.rule == Rule::Renju && color == BLACK && is_forbidden(self, p));
            if no_five_before && allowed {
                let p = stones[side].swap_remove(i);
                order.push(p);
                if self.take_off(stones, BLACK + WHITE - color, None, order, tries) {
                    self.cells[p as usize] = color;
                    return true;
                }
                order.pop();
                stones[side].push(p);
                let end = stones[side].len() - 1;
                stones[side].swap(i, end);
            }
            self.cells[p as usize] = color;
        }
        false
    }
}
