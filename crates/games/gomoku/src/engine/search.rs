//! Principal-variation alpha-beta: the per-node threat scan, static evaluation, move ordering
//! and the transposition table.

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
            self.aborted = clock.time_is_up() || clock.stopped();
        }
        self.aborted
    }

    /// The static value for the side to move, from the threats of the candidate points.
    pub(super) fn evaluate(scan: &[Scanned]) -> i32 {
        let score: i32 = scan.iter().map(|s| s.mine.score - s.theirs.score).sum();
        score / 4 + 20
    }

    /// Both sides' threats at every candidate point: computed once per node and used for the
    /// immediate checks, the evaluation, the restriction and the ordering.
    pub(super) fn scan(&mut self) -> Vec<Scanned> {
        let me = self.to_move();
        let them = other(me);
        self.candidates()
            .into_iter()
            .map(|p| Scanned { point: p, mine: self.threat(p, me), theirs: self.threat(p, them) })
            .collect()
    }

    pub(super) fn tt_probe(&self) -> Option<TtEntry> {
        let e = self.tt[(self.hash as usize) & (self.tt.len() - 1)];
        (e.key == self.hash).then_some(e)
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
        let slot = (self.hash as usize) & (self.tt.len() - 1);
        if self.tt[slot].key != self.hash || depth as i8 >= self.tt[slot].depth {
            self.tt[slot] = TtEntry { key: self.hash, score, depth: depth as i8, bound, best };
        }
    }

    /// Orders moves: table move, killers, then static score plus history. Forbidden points are
    /// left out.
    pub(super) fn ordered_moves(
        &self,
        scan: &[Scanned],
        ply: usize,
        tt_move: Point,
        restrict: Option<&[Point]>,
    ) -> Vec<Point> {
        let mut scored: Vec<(i64, Point)> = scan
            .iter()
            .filter(|s| !s.mine.forbidden && restrict.is_none_or(|r| r.contains(&s.point)))
            .map(|s| {
                let p = s.point;
                let mut key =
                    (s.mine.score * 2 + s.theirs.score) as i64 * 1000 + self.history[p as usize] as i64;
                if p == tt_move {
                    key += 1 << 40;
                } else if ply < self.killers.len() && self.killers[ply].contains(&p) {
                    key += 1 << 30;
                }
                (key, p)
            })
            .collect();
        scored.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
        scored.into_iter().map(|(_, p)| p).collect()
    }

    /// Negamax alpha-beta with principal-variation search; scores for the side to move.
    pub(super) fn search(&mut self, depth: i32, mut alpha: i32, beta: i32, ply: i32, clock: &Clock) -> i32 {
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
        let scan = self.scan();
        let mut my_win_soon = false;
        let mut my_fours_exist = false;
        let mut their_fives = Vec::new();
        let mut their_fours_exist = false;
        for s in &scan {
            if s.mine.five {
                return WIN - ply - 1;
            }
            my_win_soon |= s.mine.winning;
            my_fours_exist |= s.mine.fours > 0;
            if s.theirs.five {
                their_fives.push(s.point);
            }
            their_fours_exist |= s.theirs.fours > 0;
        }
        if their_fives.len() >= 2 {
            return -(WIN - ply - 2);
        }
        let forced = their_fives.len() == 1;
        if !forced && my_win_soon && !their_fours_exist {
            return WIN - ply - 3;
        }
        if depth <= 0 && !forced {
            if my_fours_exist
                && crate::vcf::vcf(self, me, self.config.vcf_depth.min(12) as i32, clock).is_some()
            {
                return WIN - ply - 10;
            }
            return Self::evaluate(&scan);
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
        let restricted = restriction(&scan);
        let mut moves = self.ordered_moves(&scan, ply as usize, tt_move, restricted.as_deref());
        if restricted.is_none() {
            moves.truncate(self.config.width);
        }
        if moves.is_empty() {
            return -(WIN - ply - 2);
        }
        let next_depth = if forced { depth } else { depth - 1 };
        let alpha_start = alpha;
        let mut best = -WIN - 1;
        let mut best_move = moves[0];
        for (i, &p) in moves.iter().enumerate() {
            self.place(p);
            // Late moves of a free choice are searched a ply shallower first; one that turns out
            // better than the best so far is searched again at full depth.
            let reduction = i32::from(self.config.reductions && restricted.is_none() && depth >= 3 && i >= 3);
            let score = if i == 0 {
                -self.search(next_depth, -beta, -alpha, ply + 1, clock)
            } else {
                let mut s = -self.search(next_depth - reduction, -alpha - 1, -alpha, ply + 1, clock);
                if reduction > 0 && s > alpha {
                    s = -self.search(next_depth, -alpha - 1, -alpha, ply + 1, clock);
                }
                if s > alpha && s < beta {
                    -self.search(next_depth, -beta, -alpha, ply + 1, clock)
                } else {
                    s
                }
            };
            self.unplace();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = p;
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                let k = &mut self.killers[(ply as usize).min(255)];
                if k[0] != p {
                    k[1] = k[0];
                    k[0] = p;
                }
                self.history[p as usize] += (depth * depth).max(1) as u32;
                break;
            }
        }
        let bound = if best <= alpha_start {
            UPPER
        } else if best >= beta {
            LOWER
        } else {
            EXACT
        };
        self.tt_store(depth, best, bound, best_move, ply);
        best
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

/// The moves worth searching when the opponent threatens: blocking its five; or, facing a
/// winning threat in the making (an open three, say), only stones on its strong points and fours
/// of our own. `None`: every candidate.
pub(super) fn restriction(scan: &[Scanned]) -> Option<Vec<Point>> {
    let their_fives: Vec<Point> = scan.iter().filter(|s| s.theirs.five).map(|s| s.point).collect();
    if !their_fives.is_empty() {
        return Some(their_fives);
    }
    scan.iter().any(|s| s.theirs.winning).then(|| {
        scan.iter()
            .filter(|s| s.theirs.winning || s.theirs.fours > 0 || s.mine.fours > 0)
            .map(|s| s.point)
            .collect()
    })
}
