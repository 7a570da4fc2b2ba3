//! Monte-Carlo tree search (UCT) for any [`Game`]: explicit chance nodes whose outcomes are
//! sampled by probability, a score for every player (each node is judged by the player who chose
//! the action leading to it, so two-player, multi-player and multi-action turns need nothing
//! special), rollouts by a game-supplied policy with an optional evaluation cut-off, tree reuse
//! between moves, and root parallelism over threads.

use std::sync::Arc;

use ply_core::rng::{Rng, derive_seed, rng_from_seed};
use ply_core::{Agent, Clock, Decision, Game, Limits, Returns, SearchInfo, Turn};
use rand::RngExt;

use crate::heuristics::{Evaluator, RolloutPolicy};

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
        }
    }
}

const CHANCE: u8 = u8::MAX;
/// Searches without a time budget and without an iteration budget stop after this many playouts.
const DEFAULT_ITERATIONS: u64 = 10_000;
const TIME_CHECK_INTERVAL: u64 = 16;
/// How many explored nodes below the previous root are looked through for the new position.
const REUSE_SEARCH_NODES: usize = 4096;

#[derive(Clone, Debug)]
struct Node<A> {
    action: Option<A>,
    /// The player who chose `action`, or [`CHANCE`].
    mover: u8,
    expanded: bool,
    first_child: u32,
    child_count: u32,
    /// Playouts through this node plus its virtual (prior) visits.
    visits: u32,
    /// Virtual visits from the evaluator, included in `visits` and `total`.
    prior: u32,
    /// Sum of the mover's scores over the playouts through this node.
    total: f64,
    /// For chance outcomes: their probability.
    probability: f64,
}

/// The memory one tree node takes, for [`ply_core::Resource::PerThreadItems`]: the node, and as
/// much again for the node vector's growth by doubling.
pub const fn node_bytes<A>() -> u64 {
    2 * std::mem::size_of::<Node<A>>() as u64
}

impl<A> Node<A> {
    fn new(action: Option<A>, mover: u8, probability: f64) -> Self {
        Node {
            action,
            mover,
            expanded: false,
            first_child: 0,
            child_count: 0,
            visits: 0,
            prior: 0,
            total: 0.0,
            probability,
        }
    }

    fn children(&self) -> std::ops::Range<usize> {
        self.first_child as usize..(self.first_child + self.child_count) as usize
    }

    fn playouts(&self) -> u32 {
        self.visits - self.prior
    }

    fn mean(&self) -> f64 {
        if self.visits == 0 { 0.0 } else { self.total / self.visits as f64 }
    }
}

/// One search tree and the position at its root.
struct Tree<G: Game> {
    nodes: Vec<Node<G::Action>>,
    root_state: G,
}

impl<G: Game + PartialEq> Tree<G> {
    fn new(state: &G) -> Self {
        Tree { nodes: vec![Node::new(None, CHANCE, 1.0)], root_state: state.clone() }
    }

    /// The subtree whose root is `state`, if `state` follows from the old root along explored
    /// nodes; otherwise a fresh tree. The line actually played is most likely one the search
    /// explored much, so nodes are looked at most-visited first, as deep as they go (a whole
    /// turn of many actions and the opponents' replies), up to [`REUSE_SEARCH_NODES`].
    fn reuse_for(self, state: &G) -> Self {
        if &self.root_state == state {
            return self;
        }
        let mut states = vec![self.root_state.clone()];
        let mut frontier = std::collections::BinaryHeap::from([(self.nodes[0].visits, 0usize, 0usize)]);
        let mut looked = 0;
        while let Some((_, index, slot)) = frontier.pop() {
            for child in self.nodes[index].children() {
                let mut child_state = states[slot].clone();
                child_state.apply(self.nodes[child].action.expect("children carry actions"));
                if &child_state == state {
                    return self.extract(child, child_state);
                }
                if self.nodes[child].expanded {
                    states.push(child_state);
                    frontier.push((self.nodes[child].visits, child, states.len() - 1));
                }
            }
            looked += 1;
            if looked >= REUSE_SEARCH_NODES {
                break;
            }
        }
        Tree::new(state)
    }

    /// Copies the subtree under `root` into a new tree, keeping every node's children together.
    fn extract(&self, root: usize, root_state: G) -> Self {
        let mut nodes = vec![self.nodes[root].clone()];
        nodes[0].action = None;
        let mut queue = std::collections::VecDeque::from([(root, 0usize)]);
        while let Some((old, new)) = queue.pop_front() {
            let range = self.nodes[old].children();
            nodes[new].first_child = nodes.len() as u32;
            for child in range {
                queue.push_back((child, nodes.len()));
                nodes.push(self.nodes[child].clone());
            }
        }
        Tree { nodes, root_state }
    }
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
            if !self.tree.nodes[node].expanded {
                let ready = node == 0 || self.tree.nodes[node].playouts() >= self.config.expand_threshold;
                // The root is expanded whatever the limit: the move is chosen among its children.
                if !ready || (node != 0 && self.tree.nodes.len() >= self.config.max_nodes) {
                    break;
                }
                self.expand(node, &state);
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
                let prior = self.config.prior_visits;
                self.tree.nodes.extend(actions.iter().map(|&a| {
                    let mut child = Node::new(Some(a), p as u8, 1.0);
                    if prior > 0 {
                        let mut after = state.clone();
                        after.apply(a);
                        let returns =
                            if after.is_over() { after.returns() } else { self.eval.expected_scores(&after) };
                        child.prior = prior;
                        child.visits = prior;
                        child.total = prior as f64 * returns.get(p);
                    }
                    child
                }));
                self.actions = actions;
            }
            Turn::Chance => {
                state.chance_outcomes(&mut self.outcomes);
                self.tree.nodes.extend(self.outcomes.iter().map(|&(a, p)| Node::new(Some(a), CHANCE, p)));
            }
            Turn::Over => {}
        }
        let count = (self.tree.nodes.len() - first) as u32;
        let node = &mut self.tree.nodes[index];
        node.expanded = true;
        node.first_child = first as u32;
        node.child_count = count;
    }

    fn select(&mut self, index: usize) -> usize {
        let node = &self.tree.nodes[index];
        let children = node.children();
        if self.tree.nodes[children.start].mover == CHANCE {
            if self.config.chance == ChanceDescent::Balanced {
                let behind = |c: usize| {
                    let n = &self.tree.nodes[c];
                    (n.visits as f64 + 1.0) / n.probability
                };
                return children.min_by(|&a, &b| behind(a).total_cmp(&behind(b))).expect("outcomes");
            }
            let mut x: f64 = self.rng.random();
            for child in children.clone() {
                x -= self.tree.nodes[child].probability;
                if x < 0.0 {
                    return child;
                }
            }
            return children.end - 1;
        }
        let log_parent = (node.visits.max(1) as f64).ln();
        let c = self.config.exploration;
        let mut best = children.start;
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
                    state.legal_actions(&mut self.actions);
                    let action = self.rollout.choose(&state, &self.actions, &mut self.rng);
                    state.apply(action);
                }
            }
            played += 1;
        }
    }

    fn root_stats(&self, iterations: u64) -> RootStats<G::Action> {
        let nodes = &self.tree.nodes;
        let children = nodes[0]
            .children()
            .map(|c| (nodes[c].action.unwrap(), nodes[c].visits, nodes[c].total))
            .collect();
        let mut pv = Vec::new();
        let mut index = 0;
        while nodes[index].expanded && nodes[index].child_count > 0 {
            let best = nodes[index].children().max_by_key(|&c| nodes[c].visits).unwrap();
            if nodes[best].mover == CHANCE || nodes[best].playouts() == 0 {
                break;
            }
            pv.push(nodes[best].action.unwrap());
            index = best;
        }
        RootStats { children, pv, iterations, score_sums: self.score_sums.clone() }
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
        let threads = self.trees.len();
        let shares: Vec<Option<u64>> = (0..threads as u64)
            .map(|t| limits.budget.iterations.map(|n| n / threads as u64 + u64::from(t < n % threads as u64)))
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
        let mut results: Vec<(Tree<G>, RootStats<G::Action>)> = std::thread::scope(|scope| {
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
                    if threads == 1 { Err(work()) } else { Ok(scope.spawn(work)) }
                })
                .collect();
            handles
                .into_iter()
                .map(|h| match h {
                    Ok(handle) => handle.join().expect("an MCTS thread panicked"),
                    Err(result) => result,
                })
                .collect()
        });

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
}

#[cfg(test)]
mod tests;
