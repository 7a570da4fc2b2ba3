//! Alpha-beta search for any [`Game`]: minimax for two players, paranoid for more (the root
//! player against a coalition of all others), and *-minimax (Star1) through chance events, with
//! iterative deepening, a transposition table and killer/history move ordering.
//!
//! Values are seen from the root player throughout (see [`crate::value`]): the root player's
//! nodes maximise, everyone else's minimise. That one rule covers two-player games, paranoid
//! search and turns of several actions by the same player alike.

use std::hash::{Hash, Hasher};

use ply_core::rng::derive_seed;
use ply_core::{Agent, Clock, Decision, Game, Limits, Player, SearchInfo, Turn};

use crate::heuristics::{Evaluator, MoveOrderer};
use crate::tt::{Bound, TranspositionTable};
use crate::value::{
    DISCOUNT, DepthUnit, EvalScale, WIN, heuristic_value, proven_plies, reported_value, seat_scores,
    terminal_value,
};

#[derive(Clone, Debug, PartialEq)]
pub struct AlphaBetaConfig {
    /// Deepest iteration, in player decisions or whole turns (`depth_unit`); chance events
    /// are free.
    pub max_depth: u32,
    pub depth_unit: DepthUnit,
    /// The transposition table has `2^tt_bits` entries; 0 turns it off.
    pub tt_bits: u32,
    pub killers: bool,
    pub history: bool,
    /// What the evaluator's values mean next to results.
    pub eval_scale: EvalScale,
}

impl Default for AlphaBetaConfig {
    fn default() -> Self {
        AlphaBetaConfig {
            max_depth: 64,
            depth_unit: DepthUnit::Actions,
            tt_bits: 18,
            killers: true,
            history: true,
            eval_scale: EvalScale::Rank,
        }
    }
}

const HISTORY_SIZE: usize = 4096;
/// Reading the clock costs a system call; do it every this many nodes.
const TIME_CHECK_INTERVAL: u64 = 1024;

pub struct AlphaBeta<G: Game, E, O> {
    config: AlphaBetaConfig,
    eval: E,
    orderer: O,
    tt: Option<TranspositionTable<G::Action>>,
    killers: Vec<[Option<G::Action>; 2]>,
    history: Vec<u32>,
    move_buffers: Vec<Vec<G::Action>>,
    outcome_buffers: Vec<Vec<(G::Action, f64)>>,
    nodes: u64,
    aborted: bool,
    root: Player,
    /// Mixed into hash keys: values are relative to the root player, so entries made for one
    /// root player must not be read when searching for another.
    root_salt: u64,
}

/// The outcome of one iteration at the root.
struct RootResult<A> {
    best: A,
    value: f64,
}

impl<G: Game, E: Evaluator<G>, O: MoveOrderer<G>> AlphaBeta<G, E, O> {
    pub fn new(config: AlphaBetaConfig, eval: E, orderer: O) -> Self {
        let tt = (config.tt_bits > 0).then(|| TranspositionTable::new(config.tt_bits));
        AlphaBeta {
            config,
            eval,
            orderer,
            tt,
            killers: Vec::new(),
            history: vec![0; HISTORY_SIZE],
            move_buffers: Vec::new(),
            outcome_buffers: Vec::new(),
            nodes: 0,
            aborted: false,
            root: 0,
            root_salt: 0,
        }
    }

    /// Searches `state` to a fixed depth with an open window and returns its value for `root`.
    /// Iterative deepening and the clock are bypassed; used by tests and analysis.
    pub fn value_at_depth(&mut self, state: &G, depth: u32, root: Player) -> f64 {
        self.prepare(root);
        let clock = Limits::default().start();
        let mut state = state.clone();
        self.search(&mut state, depth, 0, f64::NEG_INFINITY, f64::INFINITY, &clock)
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn prepare(&mut self, root: Player) {
        self.root = root;
        self.root_salt = derive_seed(0xA1FA_BE7A, root as u64);
        self.nodes = 0;
        self.aborted = false;
        if let Some(tt) = &mut self.tt {
            tt.new_search();
        }
        self.killers.iter_mut().for_each(|k| *k = [None, None]);
        // Old history still orders well but must not drown new evidence.
        self.history.iter_mut().for_each(|h| *h /= 8);
    }

    fn key(&self, state: &G) -> Option<u64> {
        self.tt.as_ref()?;
        state.hash_key().map(|k| k ^ self.root_salt)
    }

    fn out_of_budget(&mut self, clock: &Clock) -> bool {
        if self.aborted {
            return true;
        }
        if clock.iterations_exhausted(self.nodes)
            || (self.nodes.is_multiple_of(TIME_CHECK_INTERVAL) && (clock.time_is_up() || clock.stopped()))
        {
            self.aborted = true;
        }
        self.aborted
    }

    fn ensure_ply(&mut self, ply: usize) {
        while self.move_buffers.len() <= ply {
            self.move_buffers.push(Vec::new());
            self.outcome_buffers.push(Vec::new());
            self.killers.push([None, None]);
        }
    }

    /// Applies `action`, runs `f` on the child, and restores the state (by undo, or by having
    /// worked on a clone).
    fn with_child<R>(
        &mut self,
        state: &mut G,
        action: G::Action,
        f: impl FnOnce(&mut Self, &mut G) -> R,
    ) -> R {
        if G::CAN_UNDO {
            state.apply(action);
            let result = f(self, state);
            state.undo(action);
            result
        } else {
            let mut child = state.clone();
            child.apply(action);
            f(self, &mut child)
        }
    }

    fn search(&mut self, state: &mut G, depth: u32, ply: usize, alpha: f64, beta: f64, clock: &Clock) -> f64 {
        self.nodes += 1;
        if self.out_of_budget(clock) {
            return 0.0;
        }
        let mover = match state.turn() {
            Turn::Over => return terminal_value(state, self.root),
            _ if self.config.depth_unit.is_leaf(state, depth) => {
                return heuristic_value(&self.eval, state, self.root, self.config.eval_scale);
            }
            Turn::Chance => return self.chance_node(state, depth, ply, alpha, beta, clock),
            Turn::Player(p) => p,
        };
        self.ensure_ply(ply);

        let key = self.key(state);
        let mut tt_move = None;
        if let (Some(key), Some(tt)) = (key, &self.tt)
            && let Some(entry) = tt.probe(key)
        {
            if entry.depth >= depth {
                let v = entry.value;
                match entry.bound {
                    Bound::Exact => return v,
                    Bound::Lower if v >= beta => return v,
                    Bound::Upper if v <= alpha => return v,
                    _ => {}
                }
            }
            tt_move = entry.best;
        }

        let mut moves = std::mem::take(&mut self.move_buffers[ply]);
        state.legal_actions(&mut moves);
        self.order_moves(state, &mut moves, tt_move, ply);

        let maximising = mover == self.root;
        let below = self.config.depth_unit.child_depth(state, depth);
        let (mut alpha_now, mut beta_now) = (alpha, beta);
        let mut best_value = if maximising { f64::NEG_INFINITY } else { f64::INFINITY };
        let mut best_move = None;
        for &action in &moves {
            let value = DISCOUNT
                * self.with_child(state, action, |s, child| {
                    s.search(child, below, ply + 1, alpha_now / DISCOUNT, beta_now / DISCOUNT, clock)
                });
            if self.aborted {
                break;
            }
            let improves = if maximising { value > best_value } else { value < best_value };
            if improves {
                best_value = value;
                best_move = Some(action);
            }
            if maximising {
                alpha_now = alpha_now.max(best_value);
            } else {
                beta_now = beta_now.min(best_value);
            }
            if alpha_now >= beta_now {
                self.reward_cutoff(action, depth, ply);
                break;
            }
        }
        self.move_buffers[ply] = moves;
        if self.aborted {
            return 0.0;
        }

        if let (Some(key), Some(tt)) = (key, &mut self.tt) {
            let bound = if best_value <= alpha {
                Bound::Upper
            } else if best_value >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            tt.store(key, best_value, depth, bound, best_move);
        }
        best_value
    }

    /// Star1: the expectation over outcomes, cut off as soon as the outcomes searched so far,
    /// with the best and worst possible values for the rest, put the node outside the window.
    fn chance_node(
        &mut self,
        state: &mut G,
        depth: u32,
        ply: usize,
        alpha: f64,
        beta: f64,
        clock: &Clock,
    ) -> f64 {
        self.ensure_ply(ply);
        let (lowest, highest) = (-WIN, WIN);
        let mut outcomes = std::mem::take(&mut self.outcome_buffers[ply]);
        state.chance_outcomes(&mut outcomes);
        let mut known = 0.0; // sum of p * value over the outcomes searched
        let mut unsearched = 1.0; // probability of the outcomes not yet searched
        let mut result = None;
        for &(outcome, p) in &outcomes {
            let after = (unsearched - p).max(0.0);
            let child_alpha = (alpha - known - after * highest) / p;
            let child_beta = (beta - known - after * lowest) / p;
            // Even the best (worst) value of this outcome cannot lift (sink) the node into the
            // window: the bound is known without searching.
            if child_alpha >= highest {
                result = Some(known + (p + after) * highest);
                break;
            }
            if child_beta <= lowest {
                result = Some(known + (p + after) * lowest);
                break;
            }
            let value = self.with_child(state, outcome, |s, child| {
                s.search(child, depth, ply + 1, child_alpha.max(lowest), child_beta.min(highest), clock)
            });
            if self.aborted {
                break;
            }
            if value >= child_beta {
                result = Some(known + p * value + after * lowest);
                break;
            }
            if value <= child_alpha {
                result = Some(known + p * value + after * highest);
                break;
            }
            known += p * value;
            unsearched = after;
        }
        self.outcome_buffers[ply] = outcomes;
        if self.aborted { 0.0 } else { result.unwrap_or(known) }
    }

    fn order_moves(&self, state: &G, moves: &mut [G::Action], tt_move: Option<G::Action>, ply: usize) {
        self.orderer.order(state, moves);
        if self.config.history {
            // Stable: the game's own order breaks ties.
            moves.sort_by_key(|a| std::cmp::Reverse(self.history[history_index(a)]));
        }
        let mut front = 0;
        let killers = if self.config.killers { self.killers[ply] } else { [None, None] };
        for wanted in [tt_move, killers[0], killers[1]].into_iter().flatten() {
            if let Some(pos) = moves[front..].iter().position(|&m| m == wanted) {
                moves[front..=front + pos].rotate_right(1);
                front += 1;
            }
        }
    }

    fn reward_cutoff(&mut self, action: G::Action, depth: u32, ply: usize) {
        if self.config.killers {
            let k = &mut self.killers[ply];
            if k[0] != Some(action) {
                k[1] = k[0];
                k[0] = Some(action);
            }
        }
        if self.config.history {
            let h = &mut self.history[history_index(&action)];
            *h = h.saturating_add(depth * depth);
        }
    }

    fn search_root(
        &mut self,
        state: &mut G,
        moves: &mut [(G::Action, f64)],
        depth: u32,
        clock: &Clock,
    ) -> Option<RootResult<G::Action>> {
        self.ensure_ply(0);
        let mut alpha = f64::NEG_INFINITY;
        let mut best: Option<RootResult<G::Action>> = None;
        let below = self.config.depth_unit.child_depth(state, depth);
        for entry in moves.iter_mut() {
            let action = entry.0;
            let value = DISCOUNT
                * self.with_child(state, action, |s, child| {
                    s.search(child, below, 1, alpha / DISCOUNT, f64::INFINITY, clock)
                });
            if self.aborted {
                break;
            }
            entry.1 = value;
            if best.as_ref().is_none_or(|b| value > b.value) {
                best = Some(RootResult { best: action, value });
                alpha = value;
            }
        }
        if self.aborted {
            return None;
        }
        // Moves that failed low got an upper bound only; the best move comes first next time,
        // the others keep their relative order.
        let best_action = best.as_ref().map(|b| b.best);
        moves.sort_by_key(|m| Some(m.0) != best_action);
        if let (Some(result), Some(key), Some(tt)) = (&best, self.key(state), &mut self.tt) {
            tt.store(key, result.value, depth, Bound::Exact, Some(result.best));
        }
        best
    }

    /// Follows best moves stored in the table, as far as they go.
    fn principal_variation(&self, state: &G, first: G::Action, depth: u32) -> Vec<G::Action> {
        let mut pv = vec![first];
        let mut state = state.clone();
        state.apply(first);
        while pv.len() < depth as usize {
            if !matches!(state.turn(), Turn::Player(_)) {
                break;
            }
            let Some(next) = self.key(&state).and_then(|k| self.tt.as_ref()?.probe(k)).and_then(|e| e.best)
            else {
                break;
            };
            if !state.actions().contains(&next) {
                break;
            }
            state.apply(next);
            pv.push(next);
        }
        pv
    }
}

fn history_index<A: Hash>(action: &A) -> usize {
    let mut hasher = FoldHasher(0);
    action.hash(&mut hasher);
    (hasher.finish() as usize) % HISTORY_SIZE
}

/// A tiny multiplicative hasher: actions are a few bytes, and SipHash would cost more than the
/// lookup it serves.
struct FoldHasher(u64);

impl Hasher for FoldHasher {
    fn finish(&self) -> u64 {
        self.0.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ b as u64).wrapping_mul(0x0100_0000_01B3);
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(i as u64)
    }
    fn write_u16(&mut self, i: u16) {
        self.write_u64(i as u64)
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(i as u64)
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x0100_0000_01B3);
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64)
    }
}

impl<G: Game, E: Evaluator<G>, O: MoveOrderer<G>> Agent<G> for AlphaBeta<G, E, O> {
    fn choose(
        &mut self,
        state: &G,
        limits: &Limits,
        report: &mut dyn FnMut(&SearchInfo<G::Action>),
    ) -> Decision<G::Action> {
        let clock = limits.start();
        let root = state.current_player().expect("alpha-beta asked to move when no player is to move");
        self.prepare(root);
        let mut root_moves: Vec<(G::Action, f64)> = {
            let mut moves = state.actions();
            assert!(!moves.is_empty(), "asked to move in a position without legal moves");
            let tt_move = self.key(state).and_then(|k| self.tt.as_ref()?.probe(k)).and_then(|e| e.best);
            self.ensure_ply(0);
            self.order_moves(state, &mut moves, tt_move, 0);
            moves.into_iter().map(|m| (m, f64::NEG_INFINITY)).collect()
        };
        let mut decision = Decision::new(root_moves[0].0);
        if root_moves.len() == 1 {
            return decision;
        }
        let mut work = state.clone();
        for depth in 1..=self.config.max_depth {
            let Some(result) = self.search_root(&mut work, &mut root_moves, depth, &clock) else {
                break;
            };
            decision.action = result.best;
            decision.info = SearchInfo {
                depth,
                iterations: self.nodes,
                value: Some(reported_value(result.value)),
                scores: seat_scores(result.value, self.config.eval_scale, self.root, state.num_players()),
                proven: proven_plies(result.value),
                pv: self.principal_variation(state, result.best, depth),
                elapsed: clock.elapsed(),
            };
            report(&decision.info);
            if decision.info.proven.is_some() {
                break;
            }
            // The next iteration costs several times this one: do not start what cannot finish.
            if clock.has_deadline() && clock.time_used_fraction() > 0.4 {
                break;
            }
        }
        decision.info.iterations = self.nodes;
        decision.info.elapsed = clock.elapsed();
        decision
    }
}
