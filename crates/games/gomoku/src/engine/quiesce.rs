//! Quiescence at the tree's leaves: continuous fours searched by alpha-beta, each answered by
//! its block, the side to move free to stop on its static value.

use super::*;

impl Engine {
    /// A leaf: the side to move may keep its static value or play a four, which the opponent
    /// must block (a forced node, searched without using depth), and so on for at most
    /// `quiesce` fours of one line. After the first, only fours near the side's previous stone
    /// are tried: the fours of a winning sequence build on each other.
    pub(super) fn quiesce(
        &mut self,
        candidates: PointSet,
        mut alpha: i32,
        beta: i32,
        depth: i32,
        ply: i32,
        clock: &Clock,
    ) -> i32 {
        let me = self.to_move();
        let stand = self.evaluate(candidates, me);
        if stand >= beta || depth <= -(self.config.quiesce as i32) * ONE_PLY {
            return stand;
        }
        let m = me as usize - 1;
        let fours = self.fours[m] & candidates;
        if fours.is_empty() {
            return stand;
        }
        let previous = if depth < 0 && self.stack.len() >= 2 {
            Some(self.stack[self.stack.len() - 2] as usize)
        } else {
            None
        };
        let mut moves = self.take_move_list(ply);
        moves.clear();
        for point in fours {
            let p = point as usize;
            let threat = self.lines[p].threats[m];
            if !threat.has_four() || previous.is_some_and(|q| !near(p, q)) {
                continue;
            }
            if me == BLACK && self.rule == Rule::Renju && threat.risky() && self.threat(point, me).forbidden {
                continue;
            }
            moves.push(pack_move(threat.score().max(0) as u64, point));
        }
        moves.sort_unstable_by(|a, b| b.cmp(a));
        let mut best = stand;
        alpha = alpha.max(stand);
        for &packed in &moves {
            let p = move_point(packed);
            self.place(p);
            let score = -self.search(depth - ONE_PLY, -beta, -alpha, ply + 1, false, clock);
            self.unplace();
            if self.aborted {
                break;
            }
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        self.move_lists[ply as usize] = moves;
        if self.aborted { 0 } else { best }
    }
}

/// Whether `p` lies within two points of `q` or on one of its lines within four: where the
/// next four of a sequence of fours is looked for.
fn near(p: usize, q: usize) -> bool {
    use crate::board::STRIDE;
    let (dx, dy) = ((p % STRIDE).abs_diff(q % STRIDE), (p / STRIDE).abs_diff(q / STRIDE));
    let along = dx == 0 || dy == 0 || dx == dy;
    dx.max(dy) <= 2 || (along && dx.max(dy) <= 4)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{PAD, STRIDE};

    #[test]
    fn the_next_four_is_looked_for_near_the_last_stone_or_along_its_lines() {
        let at = |x: usize, y: usize| (y + PAD) * STRIDE + x + PAD;
        let last = at(7, 7);
        assert!(
            near(at(9, 9), last) && near(at(5, 8), last) && near(at(7, 3), last) && near(at(11, 11), last)
        );
        assert!(!near(at(10, 8), last) && !near(at(7, 2), last) && !near(at(12, 12), last));
    }
}
