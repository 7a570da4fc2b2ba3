//! Information-Set Monte-Carlo Tree Search, single observer (SO-ISMCTS; Cowling, Powley &
//! Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 2012).
//!
//! The searching player does not know the hidden part of the state. Each iteration draws a
//! determinization — a state it cannot tell from the real one ([`Game::resample_hidden`]) — and
//! descends one tree shared by all of them, whose nodes stand for the searching player's
//! information sets: a node is reached by a sequence of actions, whatever the determinization.
//! Only the children legal in this determinization compete, and UCB weighs each by how often it
//! was available rather than by its parent's visits (the subset-armed bandit). Opponents choose by
//! the same statistics, which mix every determinization, so nobody in the tree plays as if it
//! could see the searcher's cards. Chance outcomes are drawn in the determinization. Results are
//! every player's returns, each node judged by the player who chose its action, so any number of
//! players works as in [`crate::mcts`].

use ply_core::rng::{Rng, derive_seed, rng_from_seed};
use ply_core::{Agent, Decision, Game, Limits, SearchInfo, Turn};
use rand::RngExt;

use crate::heuristics::RolloutPolicy;
use crate::mcts::Widening;

/// Who chose a node's action when no player did.
const CHANCE: u8 = u8::MAX;
/// Without a budget, this many iterations.
const DEFAULT_ITERATIONS: u64 = 10_000;
const TIME_CHECK_INTERVAL: u64 = 16;

#[derive(Clone, Debug, PartialEq)]
pub struct IsmctsConfig {
    /// UCB exploration constant.
    pub exploration: f64,
    /// Progressive widening as in [`crate::mcts`], counted over the children legal in the
    /// iteration's determinization: a new one is tried only while they are fewer than the node's
    /// visits allow (or none is legal). `None` tries every untried action before choosing among
    /// tried ones.
    pub widening: Option<Widening>,
}

impl Default for IsmctsConfig {
    fn default() -> Self {
        IsmctsConfig { exploration: 0.7, widening: None }
    }
}

struct Node<A> {
    action: Option<A>,
    mover: u8,
    visits: u32,
    /// Times this node's action was legal when its parent was visited.
    available: u32,
    /// Sum of the mover's results.
    total: f64,
    children: Vec<usize>,
}

impl<A> Node<A> {
    fn new(action: Option<A>, mover: u8) -> Self {
        Node { action, mover, visits: 0, available: 0, total: 0.0, children: Vec::new() }
    }
}

pub struct Ismcts<G: Game, R> {
    config: IsmctsConfig,
    rollout: R,
    seed: u64,
    decisions: u64,
    _game: std::marker::PhantomData<fn() -> G>,
}

impl<G: Game, R: RolloutPolicy<G>> Ismcts<G, R> {
    pub fn new(config: IsmctsConfig, rollout: R, seed: u64) -> Self {
        Ismcts { config, rollout, seed, decisions: 0, _game: std::marker::PhantomData }
    }
}

struct Search<'a, G: Game, R> {
    config: &'a IsmctsConfig,
    rollout: &'a R,
    viewer: usize,
    nodes: Vec<Node<G::Action>>,
    rng: Rng,
    actions: Vec<G::Action>,
    outcomes: Vec<(G::Action, f64)>,
    path: Vec<usize>,
}

impl<G: Game, R: RolloutPolicy<G>> Search<'_, G, R> {
    fn child_with(&self, node: usize, action: G::Action) -> Option<usize> {
        self.nodes[node].children.iter().copied().find(|&c| self.nodes[c].action == Some(action))
    }

    fn add_child(&mut self, node: usize, action: G::Action, mover: u8) -> usize {
        self.nodes.push(Node::new(Some(action), mover));
        let child = self.nodes.len() - 1;
        self.nodes[node].children.push(child);
        child
    }

    fn iterate(&mut self, root: &G) {
        let mut state = root.resample_hidden(self.viewer, &mut self.rng);
        self.path.clear();
        self.path.push(0);
        let mut node = 0;
        loop {
            match state.turn() {
                Turn::Over => break,
                Turn::Chance => {
                    let outcome = state.sample_chance(&mut self.rng);
                    node = match self.child_with(node, outcome) {
                        Some(child) => child,
                        None => self.add_child(node, outcome, CHANCE),
                    };
                }
                Turn::Player(p) => {
                    state.legal_actions(&mut self.actions);
                    let untried: Vec<G::Action> = self
                        .actions
                        .iter()
                        .copied()
                        .filter(|&a| self.child_with(node, a).is_none())
                        .collect();
                    if !untried.is_empty() && self.may_widen(node) {
                        let action = untried[self.rng.random_range(0..untried.len())];
                        let child = self.add_child(node, action, p as u8);
                        self.mark_available(node);
                        state.apply(action);
                        self.path.push(child);
                        break;
                    }
                    self.mark_available(node);
                    node = self.select(node);
                }
            }
            state.apply(self.nodes[node].action.expect("children carry actions"));
            self.path.push(node);
        }
        let returns = self.playout(state);
        for &index in &self.path {
            let n = &mut self.nodes[index];
            n.visits += 1;
            if n.mover != CHANCE {
                n.total += returns.get(n.mover as usize);
            }
        }
    }

    /// Whether `node` may get another child on this visit: always without widening, else while its
    /// children legal here are fewer than widening allows, and when none of them is.
    fn may_widen(&self, node: usize) -> bool {
        let Some(widening) = self.config.widening else { return true };
        let legal_here = self.nodes[node]
            .children
            .iter()
            .filter(|&&c| self.nodes[c].action.is_some_and(|a| self.actions.contains(&a)))
            .count();
        legal_here == 0 || (legal_here as u32) < widening.max_children(self.nodes[node].visits + 1)
    }

    /// Every child whose action is legal in this determinization was available once more.
    fn mark_available(&mut self, node: usize) {
        for i in 0..self.nodes[node].children.len() {
            let child = self.nodes[node].children[i];
            if self.nodes[child].action.is_some_and(|a| self.actions.contains(&a)) {
                self.nodes[child].available += 1;
            }
        }
    }

    /// UCB over the children legal here, by availability.
    fn select(&self, node: usize) -> usize {
        let c = self.config.exploration;
        self.nodes[node]
            .children
            .iter()
            .copied()
            .filter(|&child| self.nodes[child].action.is_some_and(|a| self.actions.contains(&a)))
            .max_by(|&a, &b| self.ucb(a, c).total_cmp(&self.ucb(b, c)))
            .expect("a legal child exists: one is added when none is")
    }

    fn ucb(&self, child: usize, c: f64) -> f64 {
        let n = &self.nodes[child];
        if n.visits == 0 {
            return f64::INFINITY;
        }
        let visits = n.visits as f64;
        n.total / visits + c * ((n.available.max(1) as f64).ln() / visits).sqrt()
    }

    fn playout(&mut self, mut state: G) -> ply_core::Returns {
        loop {
            match state.turn() {
                Turn::Over => return state.returns(),
                Turn::Chance => {
                    state.chance_outcomes(&mut self.outcomes);
                    let outcome = ply_core::sample_outcome(&self.outcomes, &mut self.rng);
                    state.apply(outcome);
                }
                Turn::Player(_) => {
                    let action = self.rollout.pick(&state, &mut self.rng, &mut self.actions);
                    state.apply(action);
                }
            }
        }
    }
}

impl<G: Game, R: RolloutPolicy<G>> Agent<G> for Ismcts<G, R> {
    fn choose(
        &mut self,
        state: &G,
        limits: &Limits,
        report: &mut dyn FnMut(&SearchInfo<G::Action>),
    ) -> Decision<G::Action> {
        let clock = limits.start();
        let viewer = state.current_player().expect("ISMCTS asked to move when no player is to move");
        let legal = state.actions();
        assert!(!legal.is_empty(), "asked to move in a position without legal moves");
        if legal.len() == 1 {
            return Decision::new(legal[0]);
        }
        let seed = derive_seed(self.seed, self.decisions);
        self.decisions += 1;
        let mut search = Search {
            config: &self.config,
            rollout: &self.rollout,
            viewer,
            nodes: vec![Node::new(None, CHANCE)],
            rng: rng_from_seed(seed),
            actions: Vec::new(),
            outcomes: Vec::new(),
            path: Vec::new(),
        };
        let done = clock.repeat(limits.budget.iterations, DEFAULT_ITERATIONS, TIME_CHECK_INTERVAL, || {
            search.iterate(state);
        });
        // The move: the most visited of the root's children that are legal in the real state.
        let nodes = &search.nodes;
        let best = nodes[0]
            .children
            .iter()
            .copied()
            .filter(|&c| nodes[c].action.is_some_and(|a| legal.contains(&a)))
            .max_by_key(|&c| nodes[c].visits);
        let (action, value) = match best {
            Some(c) if nodes[c].visits > 0 => {
                (nodes[c].action.unwrap(), Some(2.0 * nodes[c].total / nodes[c].visits as f64 - 1.0))
            }
            _ => (legal[0], None),
        };
        let info = SearchInfo {
            depth: 1,
            iterations: done,
            value,
            pv: vec![action],
            elapsed: clock.elapsed(),
            ..SearchInfo::default()
        };
        report(&info);
        Decision { action, info }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristics::UniformRollout;
    use crate::mcts::widening_tests::{SQRT, START, WIDE};

    #[test]
    fn widening_caps_the_children_by_visits() {
        let config = IsmctsConfig { widening: Some(SQRT), ..IsmctsConfig::default() };
        let mut search = Search {
            config: &config,
            rollout: &UniformRollout,
            viewer: 0,
            nodes: vec![Node::new(None, CHANCE)],
            rng: rng_from_seed(2),
            actions: Vec::new(),
            outcomes: Vec::new(),
            path: Vec::new(),
        };
        for visits in 1..=900u32 {
            search.iterate(&START);
            let expected = ((visits as f64).sqrt().floor() as usize).clamp(1, usize::from(WIDE));
            assert_eq!(search.nodes[0].children.len(), expected, "after {visits} visits");
        }
    }
}
