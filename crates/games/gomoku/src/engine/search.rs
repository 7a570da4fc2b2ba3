//! Principal-variation alpha-beta: the per-node threat scan, static evaluation and the
//! transposition table (the moves a node searches, and their order, are in `ordering.rs`).

use super::eval::hidden_row;
use super::hidden::{HIDDEN, add_row, remove_row};
use super::*;

impl Engine {
    /// Whether the search must stop: the node budget is spent, or (checked every
    /// [`TIME_CHECK_INTERVAL`] nodes, counting the solvers' nodes too) the time is up or a stop
    /// was asked for. Once true it stays true for this search.
    pub(crate) fn out_of_budget(&mut self, clock: &Clock) -> bool {
        if self.aborted {
            return true;
        }
        if clock.iterations_exhausted(self.nodes) {
            self.aborted = true;
        } else if self.nodes >= self.next_time_check {
            self.next_time_check = self.nodes + TIME_CHECK_INTERVAL;
            self.aborted = clock.time_is_up() || clock.stopped() || self.pool_spent(clock);
        }
        self.aborted
    }

    /// The static value for the side to move: the tables' worth of each candidate point to
    /// either side, of the threats either could make (see `eval.rs`), and the move.
    pub(super) fn evaluate(&mut self, candidates: PointSet, me: u8) -> i32 {
        let (m, t) = (me as usize - 1, 2 - me as usize);
        let (mine, theirs) = (&self.tables.mine[..], &self.tables.theirs[..]);
        let mut score = self.tables.tempo;
        let mut risky = false;
        let mut threats = ThreatSummary::default();
        let mut sums = self.tables.hidden.as_deref().map_or([0; HIDDEN], |layer| layer.bias);
        // The loop is written twice so that the tables alone pay nothing for the layer.
        if let Some(layer) = self.tables.hidden.as_deref() {
            candidates.for_each(|p| {
                let index = self.lines[p].shape_index;
                score += i32::from(mine[index[m] as usize]) - i32::from(theirs[index[t] as usize]);
                add_row(&mut sums, hidden_row(layer, index[m], false));
                add_row(&mut sums, hidden_row(layer, index[t], true));
                let point = self.lines[p].threats;
                risky |= point[0].risky();
                threats.add(point[m], point[t]);
            });
        } else {
            candidates.for_each(|p| {
                let index = self.lines[p].shape_index;
                score += i32::from(mine[index[m] as usize]) - i32::from(theirs[index[t] as usize]);
                let point = self.lines[p].threats;
                risky |= point[0].risky();
                threats.add(point[m], point[t]);
            });
        }
        let renju_risky = risky && self.rule == Rule::Renju;
        // Black's threats on points that may be forbidden do not count (see `threat_mask`).
        let mask = if renju_risky { self.threat_mask(candidates, m, t) } else { threats.mask() };
        score += self.tables.threats[mask];
        if renju_risky {
            // A forbidden point is worth nothing to black.
            for p in candidates {
                if self.lines[p as usize].threats[0].risky() && self.threat(p, BLACK).forbidden {
                    let black = self.lines[p as usize].shape_index[0];
                    score -= i32::from(if me == BLACK {
                        self.tables.mine[black as usize]
                    } else {
                        -self.tables.theirs[black as usize]
                    });
                    if let Some(layer) = self.tables.hidden.as_deref() {
                        remove_row(&mut sums, hidden_row(layer, black, me != BLACK));
                    }
                }
            }
        }
        if let Some(layer) = self.tables.hidden.as_deref() {
            if mask != 0 {
                add_row(&mut sums, &layer.rows[2 * COMBOS + mask]);
            }
            score += layer.output(&sums);
        }
        score
    }

    pub(super) fn tt_probe(&self) -> Option<TtEntry> {
        self.tt.probe(self.hash)
    }

    pub(super) fn tt_store(&mut self, depth: i32, score: i32, bound: u8, best: Point, ply: i32) {
        // Win scores are stored relative to this node, so they stay right wherever it recurs.
        let score = if score > WIN_THRESHOLD {
            score + ply
        } else if score < -WIN_THRESHOLD {
            score - ply
        } else {
            score
        };
        self.tt.store(self.hash, TtEntry { score, depth: depth as i16, bound, best });
    }

    /// The score of a node decided without a move: a five of ours to make, two of the
    /// opponent's to block, a winning threat of ours the opponent has no four against (or one
    /// its fours cannot stop: `fourwin`, `probe`), or a double three of ours against no four
    /// (`threewin`).
    #[inline]
    pub(super) fn decided_score(&mut self, candidates: PointSet, ply: i32) -> Option<i32> {
        let me = self.to_move();
        let them = other(me);
        let (m, t) = (me as usize - 1, them as usize - 1);
        if !(self.fives[m] & candidates).is_empty() {
            return Some(WIN - ply - 1);
        }
        let their_fives = (self.fives[t] & candidates).len();
        if their_fives >= 2 {
            return Some(-(WIN - ply - 2));
        }
        if their_fives > 0 {
            return None;
        }
        let ours = self.winning[m] & candidates;
        // Renju's black is left out of the rules that need a later open four: it may be forbidden.
        let never_forbidden = self.rule != Rule::Renju || me == WHITE;
        if self.any_threat(ours, me, |t| t.winning) {
            if !self.has_four_to_make(candidates, them)
                || (self.config.double_four_wins && self.has_double_four(ours, me))
            {
                return Some(WIN - ply - 3);
            }
            let probed =
                self.config.four_three_probe && never_forbidden && self.has_unanswerable_four_three(ours, me);
            // Otherwise the opponent has fours, against which a double three decides nothing.
            return probed.then_some(WIN - ply - 5);
        }
        let double_three = self.config.double_three_wins
            && never_forbidden
            && self.has_double_three(candidates, me)
            && !self.has_four_to_make(candidates, them);
        double_three.then_some(WIN - ply - 5)
    }

    /// Negamax alpha-beta with principal-variation search, `depth` in hundredths of a ply
    /// ([`ONE_PLY`]); scores for the side to move. `cut`:
    /// a null-window node expected to fail high, as the first move of an expected all-node and
    /// a late move's reduced search are (chess engines' cut-node).
    pub(super) fn search(
        &mut self,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: i32,
        cut: bool,
        clock: &Clock,
    ) -> i32 {
        self.nodes += 1;
        if self.out_of_budget(clock) {
            return 0;
        }
        if self.last_made_five() {
            return -(WIN - ply);
        }
        if self.stack.len() == self.size * self.size {
            return 0;
        }
        let me = self.to_move();
        let them = other(me);
        let t = them as usize - 1;
        let candidates = self.candidate_set();
        if let Some(score) = self.decided_score(candidates, ply) {
            return score;
        }
        let forced = !(self.fives[t] & candidates).is_empty();
        if depth <= 0 && !forced {
            let leaf_vcf = self.config.vcf_depth.min(self.config.leaf_vcf) as i32;
            if leaf_vcf > 0
                && self.has_four_to_make(candidates, me)
                && crate::vcf::vcf(self, me, leaf_vcf, clock).is_some()
            {
                return WIN - ply - THREAT_WIN_PLIES;
            }
            if self.config.quiesce > 0 {
                return self.quiesce(candidates, alpha, beta, depth, ply, clock);
            }
            return self.evaluate(candidates, me);
        }
        let entry = self.tt_probe();
        let mut tt_move = 0;
        if let Some(e) = entry {
            tt_move = e.best;
            if e.depth as i32 >= depth {
                let score = if e.score > WIN_THRESHOLD {
                    e.score - ply
                } else if e.score < -WIN_THRESHOLD {
                    e.score + ply
                } else {
                    e.score
                };
                match e.bound {
                    EXACT => return score,
                    LOWER if score >= beta => return score,
                    UPPER if score <= alpha => return score,
                    _ => {}
                }
            }
        }
        let restriction = self.restriction(candidates);
        // Pruning by the static value or the move count only where nothing is threatened and
        // the window is null: a principal-variation node is searched in full.
        let free_choice = restriction == Restriction::None;
        let prunable = beta - alpha == 1 && free_choice && !forced;
        let margin = self.config.reverse_futility;
        let futile = prunable && margin > 0 && depth <= 3 * ONE_PLY;
        let fail_high_margin = self.config.fail_high_margin;
        let judged = cut && fail_high_margin > 0 && free_choice && !forced;
        let value = (futile || judged).then(|| self.evaluate(candidates, me));
        if let Some(value) = value.filter(|_| futile) {
            if value - margin * depth / ONE_PLY >= beta {
                return value;
            }
            let razor = self.config.razor;
            if razor > 0
                && self.config.quiesce > 0
                && depth <= 2 * ONE_PLY
                && value + razor * depth / ONE_PLY < alpha
            {
                return self.quiesce(candidates, alpha, beta, 0, ply, clock);
            }
        }
        let mut moves = self.take_move_list(ply);
        self.order_moves(&mut moves, candidates, restriction, ply as usize, tt_move);
        let mut node = Node { alpha, beta, best: -WIN - 1, best_move: 0 };
        let extend =
            restriction == Restriction::Defend && self.extensions_on_line < self.config.threat_extensions;
        self.extensions_on_line += u32::from(extend);
        // A cut node whose static value is far above beta will most likely fail high whatever it
        // plays: its moves other than fours are searched a ply less (Rapfi's fail-high reduction).
        let likely_fail_high =
            judged && value.is_some_and(|v| v >= beta + fail_high_margin * depth / ONE_PLY);
        let extension = if forced || extend { ONE_PLY } else { 0 };
        let step = Step { depth, ply, extension, reduce: free_choice, cut, likely_fail_high };
        let mut first = if free_choice { moves.len().min(self.config.width) } else { moves.len() };
        if prunable && self.config.move_count_pruning && depth <= 4 * ONE_PLY {
            first = first.min(3 + (depth * depth / (ONE_PLY * ONE_PLY)) as usize);
        }
        let mut cut = self.search_moves(&mut moves, 0, first, step, &mut node, clock);
        // Only blocking a five leaves out no move that could hold. A loss found among fewer moves
        // than all (the best `width`, or the answers to a threat) is proven only once the rest
        // lose too, so they are searched as well.
        let complete = match restriction {
            Restriction::Only(_) => true,
            Restriction::Defend => false,
            Restriction::None => first == moves.len(),
        };
        if self.config.sound && !cut && !complete && !self.aborted && node.best < -WIN_THRESHOLD {
            let mut searched = PointSet::default();
            moves[..first].iter().for_each(|&m| searched.insert(move_point(m) as usize));
            moves.truncate(first);
            let mut rest = std::mem::take(&mut self.spare_moves);
            self.order_moves(&mut rest, candidates, Restriction::None, ply as usize, tt_move);
            moves.extend(rest.iter().filter(|&&m| !searched.contains(move_point(m) as usize)));
            self.spare_moves = rest;
            let end = moves.len();
            cut = self.search_moves(&mut moves, first, end, Step { reduce: false, ..step }, &mut node, clock);
        }
        self.extensions_on_line -= u32::from(extend);
        self.move_lists[ply as usize] = moves;
        if self.aborted {
            return 0;
        }
        if node.best == -WIN - 1 {
            // No move at all: black's only block is a forbidden point (renju).
            node.best = -(WIN - ply - 2);
        }
        let bound = if node.best <= alpha {
            UPPER
        } else if cut {
            LOWER
        } else {
            EXACT
        };
        self.tt_store(depth, node.best, bound, node.best_move, ply);
        node.best
    }

    /// The move list of `ply`, taken from the engine until the node gives it back: each ply keeps
    /// its list from node to node rather than allocating one.
    pub(super) fn take_move_list(&mut self, ply: i32) -> Vec<u64> {
        if self.move_lists.len() <= ply as usize {
            self.move_lists.resize_with(ply as usize + 1, Vec::new);
        }
        std::mem::take(&mut self.move_lists[ply as usize])
    }

    /// The move loop of [`Self::search`] over `moves[start..end]`, as [`Self::order_moves`]
    /// packs them, best first; whether a move cut off.
    fn search_moves(
        &mut self,
        moves: &mut [u64],
        start: usize,
        end: usize,
        step: Step,
        node: &mut Node,
        clock: &Clock,
    ) -> bool {
        let Step { depth, ply, extension, reduce, cut, likely_fail_high } = step;
        let m = self.to_move() as usize - 1;
        let pv = node.beta - node.alpha > 1;
        let next_depth = depth - ONE_PLY + extension;
        for i in start..end {
            // Most nodes that cut off do so within the first few moves: pick those one by one,
            // and sort the rest only when the search gets that far.
            if i < PICKED_MOVES {
                let mut best_at = i;
                for j in i + 1..moves.len() {
                    if moves[j] > moves[best_at] {
                        best_at = j;
                    }
                }
                moves.swap(i, best_at);
            } else if i == PICKED_MOVES.max(start) {
                moves[i..].sort_unstable_by(|a, b| b.cmp(a));
            }
            let p = move_point(moves[i]);
            let next_depth = if likely_fail_high && !self.lines[p as usize].threats[m].has_four() {
                next_depth - ONE_PLY
            } else {
                next_depth
            };
            self.place(p);
            self.tt.prefetch(self.hash);
            // Late moves of a free choice are searched shallower first; one that turns out better
            // than the best so far is searched again at full depth.
            let reduction = if reduce { self.late_move_reduction(depth, i, pv) } else { 0 };
            let (alpha, beta) = (node.alpha, node.beta);
            let score = if i == 0 {
                -self.search(next_depth, -beta, -alpha, ply + 1, !pv && !cut, clock)
            } else {
                let mut s = -self.search(
                    next_depth - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    reduction > 0 || !cut,
                    clock,
                );
                if reduction > 0 && s > alpha {
                    s = -self.search(next_depth, -alpha - 1, -alpha, ply + 1, !cut, clock);
                }
                if s > alpha && s < beta {
                    -self.search(next_depth, -beta, -alpha, ply + 1, false, clock)
                } else {
                    s
                }
            };
            self.unplace();
            if self.aborted {
                return false;
            }
            if score > node.best {
                node.best = score;
                node.best_move = p;
            }
            node.alpha = node.alpha.max(score);
            if node.alpha >= beta {
                let k = &mut self.killers[(ply as usize).min(255)];
                if k[0] != p {
                    k[1] = k[0];
                    k[0] = p;
                }
                let plies = depth / ONE_PLY;
                self.history[p as usize] += (plies * plies).max(1) as u32;
                return true;
            }
        }
        false
    }

    /// How much shallower (in hundredths of a ply, whole plies) the `index`th move (from 0) of
    /// a free choice is searched first.
    fn late_move_reduction(&self, depth: i32, index: usize, pv: bool) -> i32 {
        if !self.config.reductions || depth < 3 * ONE_PLY || index < 3 {
            return 0;
        }
        let divisor = self.config.reduction_divisor;
        if divisor == 0 {
            return ONE_PLY;
        }
        let plies = depth / ONE_PLY;
        let log_product = (plies as f32).ln() * ((index + 1) as f32).ln() * 100.0 / divisor as f32;
        ((0.5 + log_product) as i32 - i32::from(pv)).clamp(1, plies - 2) * ONE_PLY
    }

    pub(super) fn principal_variation(&mut self, first: Point, depth: u32) -> Vec<Point> {
        let mut pv = vec![first];
        self.place(first);
        while pv.len() < depth as usize {
            match self.tt_probe() {
                Some(e) if e.best != 0 && self.cells[e.best as usize] == EMPTY => {
                    pv.push(e.best);
                    self.place(e.best);
                }
                _ => break,
            }
        }
        for _ in 0..pv.len() {
            self.unplace();
        }
        pv
    }
}

/// A node's window and its best move so far, as its move loop updates them.
struct Node {
    alpha: i32,
    beta: i32,
    best: i32,
    best_move: Point,
}

/// How a node's moves are searched: its depth (in hundredths of a ply) and ply, the depth its
/// moves get back (answers to a five, and threat extensions), and whether late moves may be
/// reduced.
#[derive(Clone, Copy)]
struct Step {
    depth: i32,
    ply: i32,
    extension: i32,
    reduce: bool,
    /// An expected cut node (see [`Engine::search`]).
    cut: bool,
    /// Its static value beats beta by [`EngineConfig::fail_high_margin`] a ply.
    likely_fail_high: bool,
}

/// Moves taken best first one at a time before the rest are sorted.
const PICKED_MOVES: usize = 3;

#[cfg(test)]
#[path = "search_tests.rs"]
mod tests;
