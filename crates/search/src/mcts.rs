//! Monte-Carlo tree search (UCT) for any [`Game`]: explicit chance nodes whose outcomes are
//! sampled by probability, a score for every player (each node is judged by the player who chose
//! the action leading to it, so two-player, multi-player and multi-action turns need nothing
//! special), rollouts by a game-supplied policy with an optional evaluation cut-off, tree reuse
//! between moves, progressive widening for decisions with many actions ([`Widening`]), and root
//! parallelism over threads.

use std::sync::Arc;

use ply_core::rng::{Rng, derive_seed, rng_from_seed};
use ply_core::{Agent, Budget, Clock, Decision, Game, Limits, Returns, SearchInfo, Turn};
use rand::RngExt;

use crate::heuristics::{Evaluator, RolloutPolicy};

mod tree;
use tree::{CHANCE, NONE, Node, Tree};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FinalChoice {
    /// The most visited root move: robust, the usual choice.
    MostVisits,
    /// The root move with the best mean result.
    BestMean,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// The UCB constant c in `mean + c * sqrt(ln N / n)`, on results scored from 0 to 1.
    pub exploration: f64,
    /// A leaf gets children once it has been visited this often.
    pub expand_threshold: u32,
    /// Cut a playout after this many actions and score it by the evaluator; `None` plays to the end.
    pub rollout_limit: Option<u32>,
    pub final_choice: FinalChoice,
    /// Independent trees searched in parallel and merged at the root.
    pub threads: usize,
    /// Keep the part of the tree that is still relevant for the next move.
    pub reuse: bool,
    /// Stop growing a tree beyond this many nodes (playouts continue).
    pub max_nodes: usize,
    /// How the tree descends through a chance node.
    pub chance: ChanceDescent,
    /// Virtual visits a new move starts with, each scored by the evaluator's opinion of the
    /// position after it (prior knowledge: promising moves are tried first and poor ones need
    /// real playouts to recover); 0 leaves new moves untried.
    pub prior_visits: u32,
    /// Weight of the evaluator's score of the leaf in a playout's result (the rest is the
    /// playout's own), as AlphaGo mixed its value network with rollouts; 0 plays out only.
    pub leaf_mix: f64,
    /// Give a player's node its children a few at a time as its playouts grow, for decisions
    /// with hundreds of actions; `None` gives every node all its children at once.
    pub widening: Option<Widening>,
}

/// Progressive widening (Coulom 2007; progressive unpruning in Chaslot et al. 2008), in the
/// power-law form `max(1, floor(base * n^exponent))`: the most children a node may have on its
/// n-th playout (this one counted). Its other legal actions wait untried, in the random order
/// drawn when it was expanded, and the next becomes a child when the count allows; only then is
/// it judged by the evaluator for a prior. Virtual visits do not count, or a large prior would
/// open every action at once. Chance nodes always get all their outcomes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Widening {
    pub base: f64,
    pub exponent: f64,
}

impl Widening {
    pub fn max_children(&self, playouts: u32) -> u32 {
        // `as` saturates: a huge allowance is simply every action.
        (self.base * f64::from(playouts).powf(self.exponent)).floor().max(1.0) as u32
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChanceDescent {
    /// Draw an outcome by its probability.
    Sample,
    /// Take the outcome furthest behind its share of the visits (visits / probability lowest):
    /// every outcome is visited in proportion to its probability without sampling noise, as
    /// the EinStein patent's per-node dice cycling does.
    Balanced,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            exploration: 1.0,
            expand_threshold: 1,
            rollout_limit: None,
            final_choice: FinalChoice::MostVisits,
            threads: 1,
            reuse: true,
            max_nodes: 1 << 20,
            chance: ChanceDescent::Sample,
            prior_visits: 0,
            leaf_mix: 0.0,
            widening: None,
        }
    }
}

/// Searches without a time budget and without an iteration budget stop after this many playouts.
const DEFAULT_ITERATIONS: u64 = 10_000;
const TIME_CHECK_INTERVAL: u64 = 16;
/// Mixed into the seed of pondering searches: their random streams are not any decision's.
const PONDER_SALT: u64 = 0x504F_4E44_4552;

/// The memory one tree node takes, for [`ply_core::Resource::PerThreadItems`]: the node, and as
/// much again for the node vector's growth by doubling. Under widening the untried actions count
/// against the node limit at their share of a node ([`Tree::size`]).
pub const fn node_bytes<A>() -> u64 {
    2 * std::mem::size_of::<Node<A>>() as u64
}

pub struct Mcts<G: Game, E, R> {
    config: MctsConfig,
    eval: Arc<E>,
    rollout: Arc<R>,
    seed: u64,
    decisions: u64,
    trees: Vec<Option<Tree<G>>>,
}

/// What one thread found at the root.
struct RootStats<A> {
    children: Vec<(A, u32, f64)>,
    pv: Vec<A>,
    iterations: u64,
    /// Every seat's summed result over this decision's iterations.
    score_sums: Vec<f64>,
}

impl<G, E, R> Mcts<G, E, R>
where
    G: Game + PartialEq,
    E: Evaluator<G>,
    R: RolloutPolicy<G>,
{
    pub fn new(config: MctsConfig, eval: E, rollout: R, seed: u64) -> Self {
        let threads = config.threads.max(1);
        Mcts {
            config,
            eval: Arc::new(eval),
            rollout: Arc::new(rollout),
            seed,
            decisions: 0,
            trees: (0..threads).map(|_| None).collect(),
        }
    }
}

/// The search one thread runs on its own tree.
struct Worker<'a, G: Game, E, R> {
    config: &'a MctsConfig,
    eval: &'a E,
    rollout: &'a R,
    tree: Tree<G>,
    rng: Rng,
    actions: Vec<G::Action>,
    outcomes: Vec<(G::Action, f64)>,
    path: Vec<usize>,
    /// Every seat's summed result over this decision's iterations: the root's expected scores.
    score_sums: Vec<f64>,
}

impl<G: Game, E: Evaluator<G>, R: RolloutPolicy<G>> Worker<'_, G, E, R> {
    fn run(&mut self, clock: &Clock, iterations: Option<u64>) -> u64 {
        clock.repeat(iterations, DEFAULT_ITERATIONS, TIME_CHECK_INTERVAL, || self.iterate())
    }

    fn iterate(&mut self) {
        let mut state = self.tree.root_state.clone();
        self.path.clear();
        self.path.push(0);
        let mut node = 0;
        loop {
            if state.is_over() {
                break;
            }
            if !self.tree.nodes[node].expanded() {
                let ready = node == 0 || self.tree.nodes[node].playouts() >= self.config.expand_threshold;
                // The root is expanded whatever the limit: the move is chosen among its children.
                if !ready || (node != 0 && self.tree.size() >= self.config.max_nodes) {
                    break;
                }
                self.expand(node, &state);
            } else if self.tree.nodes[node].widening() {
                self.widen(node, &state);
            }
            node = self.select(node);
            state.apply(self.tree.nodes[node].action.expect("children carry actions"));
            self.path.push(node);
            if self.tree.nodes[node].playouts() == 0 {
                break;
            }
        }
        let returns = if state.is_over() {
            state.returns()
        } else if self.config.leaf_mix > 0.0 {
            let judged = self.eval.expected_scores(&state);
            let mut played = self.playout(state);
            let mix = self.config.leaf_mix;
            for p in 0..played.players() {
                played.set(p, (1.0 - mix) * played.get(p) + mix * judged.get(p));
            }
            played
        } else {
            self.playout(state)
        };
        for (sum, score) in self.score_sums.iter_mut().zip(returns.as_slice()) {
            *sum += score;
        }
        for &index in &self.path {
            let node = &mut self.tree.nodes[index];
            node.visits += 1;
            if node.mover != CHANCE {
                node.total += returns.get(node.mover as usize);
            }
        }
    }

    /// How many children `index` may have on this visit.
    fn allowed_children(&self, index: usize) -> u32 {
        match self.config.widening {
            Some(w) => w.max_children(self.tree.nodes[index].playouts() + 1),
            None => u32::MAX,
        }
    }

    fn expand(&mut self, index: usize, state: &G) {
        let first = self.tree.nodes.len();
        match state.turn() {
            Turn::Player(p) => {
                state.legal_actions(&mut self.actions);
                // Shuffled once, so that untried moves are taken in random order but the tree
                // stays deterministic for a seed.
                for i in (1..self.actions.len()).rev() {
                    self.actions.swap(i, self.rng.random_range(0..=i));
                }
                let actions = std::mem::take(&mut self.actions);
                let now = actions.len().min(self.allowed_children(index) as usize);
                let (eval, prior) = (self.eval, self.config.prior_visits);
                self.tree.nodes.extend(actions[..now].iter().map(|&a| new_child(eval, prior, state, a, p)));
                self.tree.adopt(index, first);
                self.tree.defer(index, &actions[now..]);
                self.actions = actions;
            }
            Turn::Chance => {
                state.chance_outcomes(&mut self.outcomes);
                self.tree.nodes.extend(self.outcomes.iter().map(|&(a, p)| Node::new(Some(a), CHANCE, p)));
                self.tree.adopt(index, first);
            }
            Turn::Over => self.tree.adopt(index, first),
        }
    }

    /// Admits untried actions of `index` as children while its visits allow more.
    fn widen(&mut self, index: usize, state: &G) {
        let Turn::Player(p) = state.turn() else { unreachable!("only a player's node has untried actions") };
        let allowed = self.allowed_children(index);
        while let Some((action, children)) = self.tree.waiting(index) {
            if children >= allowed || self.tree.size() >= self.config.max_nodes {
                break;
            }
            let child = new_child(self.eval, self.config.prior_visits, state, action, p);
            self.tree.admit(index, child);
        }
    }

    fn select(&mut self, index: usize) -> usize {
        let node = &self.tree.nodes[index];
        let first = self.tree.first_child(index) as usize;
        let children = self.tree.children(index);
        if self.tree.nodes[first].mover == CHANCE {
            if self.config.chance == ChanceDescent::Balanced {
                let behind = |c: usize| {
                    let n = &self.tree.nodes[c];
                    (n.visits as f64 + 1.0) / n.probability
                };
                return children.min_by(|&a, &b| behind(a).total_cmp(&behind(b))).expect("outcomes");
            }
            let mut x: f64 = self.rng.random();
            let mut last = first;
            for child in children {
                x -= self.tree.nodes[child].probability;
                if x < 0.0 {
                    return child;
                }
                last = child;
            }
            return last;
        }
        let log_parent = (node.visits.max(1) as f64).ln();
        let c = self.config.exploration;
        let mut best = first;
        let mut best_score = f64::NEG_INFINITY;
        for child in children {
            let n = &self.tree.nodes[child];
            if n.visits == 0 {
                return child;
            }
            let score = n.mean() + c * (log_parent / n.visits as f64).sqrt();
            if score > best_score {
                best_score = score;
                best = child;
            }
        }
        best
    }

    fn playout(&mut self, mut state: G) -> Returns {
        let limit = self.config.rollout_limit.unwrap_or(u32::MAX);
        let mut played = 0;
        loop {
            match state.turn() {
                Turn::Over => return state.returns(),
                _ if played >= limit => return self.eval.expected_scores(&state),
                Turn::Chance => {
                    let outcome = state.sample_chance(&mut self.rng);
                    state.apply(outcome);
                }
                Turn::Player(_) => {
                    let action = self.rollout.pick(&state, &mut self.rng, &mut self.actions);
                    state.apply(action);
                }
            }
            played += 1;
        }
    }

    fn root_stats(&self, iterations: u64) -> RootStats<G::Action> {
        let nodes = &self.tree.nodes;
        let children = self
            .tree
            .children(0)
            .map(|c| (nodes[c].action.unwrap(), nodes[c].visits, nodes[c].total))
            .collect();
        let mut pv = Vec::new();
        let mut index = 0;
        while self.tree.first_child(index) != NONE {
            let best = self.tree.children(index).max_by_key(|&c| nodes[c].visits).unwrap();
            if nodes[best].mover == CHANCE || nodes[best].playouts() == 0 {
                break;
            }
            pv.push(nodes[best].action.unwrap());
            index = best;
        }
        RootStats { children, pv, iterations, score_sums: self.score_sums.clone() }
    }
}

/// A new child for player `p`'s `action` from `state`, with `prior` virtual visits scored by
/// the evaluator if any.
fn new_child<G: Game, E: Evaluator<G>>(
    eval: &E,
    prior: u32,
    state: &G,
    action: G::Action,
    p: usize,
) -> Node<G::Action> {
    let mut child = Node::new(Some(action), p as u8, 1.0);
    if prior > 0 {
        let mut after = state.clone();
        after.apply(action);
        let returns = if after.is_over() { after.returns() } else { eval.expected_scores(&after) };
        child.prior = prior;
        child.visits = prior;
        child.total = prior as f64 * returns.get(p);
    }
    child
}

impl<G, E, R> Mcts<G, E, R>
where
    G: Game + PartialEq,
    E: Evaluator<G>,
    R: RolloutPolicy<G>,
{
    /// Grows every thread's tree from `state` (the kept subtree when reusing) within `clock`,
    /// and returns the trees with their root statistics.
    fn grow(
        &mut self,
        state: &G,
        clock: &Clock,
        budget: &Budget,
        decision_seed: u64,
    ) -> Vec<(Tree<G>, RootStats<G::Action>)> {
        let threads = self.trees.len();
        let shares: Vec<Option<u64>> = (0..threads as u64)
            .map(|t| budget.iterations.map(|n| n / threads as u64 + u64::from(t < n % threads as u64)))
            .collect();
        let trees: Vec<Tree<G>> = self
            .trees
            .iter_mut()
            .map(|slot| match slot.take() {
                Some(tree) if self.config.reuse => tree.reuse_for(state),
                _ => Tree::new(state),
            })
            .collect();
        let (config, eval, rollout) = (&self.config, &*self.eval, &*self.rollout);
        std::thread::scope(|scope| {
            let handles: Vec<_> = trees
                .into_iter()
                .enumerate()
                .map(|(t, tree)| {
                    let clock = clock.clone();
                    let share = shares[t];
                    let work = move || {
                        let mut worker = Worker {
                            config,
                            eval,
                            rollout,
                            tree,
                            rng: rng_from_seed(derive_seed(decision_seed, t as u64)),
                            actions: Vec::new(),
                            outcomes: Vec::new(),
                            path: Vec::new(),
                            score_sums: vec![0.0; state.num_players()],
                        };
                        let done = worker.run(&clock, share);
                        let stats = worker.root_stats(done);
                        (worker.tree, stats)
                    };
                    if threads == 1 { Err(Box::new(work())) } else { Ok(scope.spawn(work)) }
                })
                .collect();
            handles
                .into_iter()
                .map(|h| match h {
                    Ok(handle) => handle.join().expect("an MCTS thread panicked"),
                    Err(result) => *result,
                })
                .collect()
        })
    }
}

impl<G, E, R> Agent<G> for Mcts<G, E, R>
where
    G: Game + PartialEq,
    E: Evaluator<G>,
    R: RolloutPolicy<G>,
{
    fn choose(
        &mut self,
        state: &G,
        limits: &Limits,
        report: &mut dyn FnMut(&SearchInfo<G::Action>),
    ) -> Decision<G::Action> {
        let clock = limits.start();
        assert!(state.current_player().is_some(), "MCTS asked to move when no player is to move");
        let legal = state.actions();
        assert!(!legal.is_empty(), "asked to move in a position without legal moves");
        if legal.len() == 1 {
            return Decision::new(legal[0]);
        }
        let decision_seed = derive_seed(self.seed, self.decisions);
        self.decisions += 1;
        let mut results = self.grow(state, &clock, &limits.budget, decision_seed);

        let mut merged: Vec<(G::Action, u32, f64)> = Vec::new();
        for (_, stats) in &results {
            for &(action, visits, total) in &stats.children {
                match merged.iter_mut().find(|m| m.0 == action) {
                    Some(m) => {
                        m.1 += visits;
                        m.2 += total;
                    }
                    None => merged.push((action, visits, total)),
                }
            }
        }
        let mean = |m: &(G::Action, u32, f64)| if m.1 == 0 { f64::NEG_INFINITY } else { m.2 / m.1 as f64 };
        let best = match self.config.final_choice {
            FinalChoice::MostVisits => {
                merged.iter().max_by(|a, b| a.1.cmp(&b.1).then(mean(a).total_cmp(&mean(b))))
            }
            FinalChoice::BestMean => {
                merged.iter().max_by(|a, b| mean(a).total_cmp(&mean(b)).then(a.1.cmp(&b.1)))
            }
        };
        let (action, visits, total) = *best.expect("the root has children");
        let iterations: u64 = results.iter().map(|(_, s)| s.iterations).sum();
        let mut pv = std::mem::take(&mut results[0].1.pv);
        if pv.first() != Some(&action) {
            pv = vec![action];
        }
        let mut scores = vec![0.0; state.num_players()];
        for (_, stats) in &results {
            for (sum, part) in scores.iter_mut().zip(&stats.score_sums) {
                *sum += part;
            }
        }
        let scores =
            if iterations > 0 { scores.iter().map(|s| s / iterations as f64).collect() } else { Vec::new() };
        let info = SearchInfo {
            depth: pv.len() as u32,
            iterations,
            value: (visits > 0).then(|| 2.0 * total / visits as f64 - 1.0),
            scores,
            proven: None,
            pv,
            elapsed: clock.elapsed(),
        };
        debug_assert!(legal.contains(&action));
        report(&info);
        for (slot, (tree, _)) in self.trees.iter_mut().zip(results) {
            *slot = Some(tree);
        }
        Decision { action, info }
    }

    /// Searches on from `state` while another player (a human, say) is to move; the tree is
    /// kept, so the next `choose` starts from the subtree of the move that was made. Its seeds
    /// are apart from the decisions', so pondering never shifts a decision's random stream.
    fn ponder(&mut self, state: &G, limits: &Limits) {
        if !self.config.reuse || state.current_player().is_none() {
            return;
        }
        let clock = limits.start();
        let seed = derive_seed(self.seed ^ PONDER_SALT, self.decisions);
        let results = self.grow(state, &clock, &limits.budget, seed);
        for (slot, (tree, _)) in self.trees.iter_mut().zip(results) {
            *slot = Some(tree);
        }
    }

    fn ponders(&self) -> bool {
        self.config.reuse
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
pub(crate) mod widening_tests;
