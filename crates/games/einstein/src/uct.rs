//! The patent's player (CN107684714A, SEEDS.md §3), step by step:
//!
//! 1. Selection: from the root, down to a leaf, at each position take the die value from the
//!    node's `dice` variable (die = dice + 1, then dice = (dice + 1) mod 6: outcomes are cycled,
//!    not sampled), then the cube by UCB among the cubes that die lets move, then the direction
//!    by UCB among that cube's moves. UCB_i = v_i + c * sqrt(2 ln(sum_j T_j) / T_i).
//! 2. Expansion: a node gets its children once it has been simulated `expand_after` times.
//!    Bad moves are not expanded: a move is bad when, after it, the opponent can win at once
//!    (reach its corner or take the last cube) whatever the die shows. If every move for a die
//!    is bad, they are all kept, since one of them must be played.
//! 3. Simulation: from the leaf, `best_of` random games (5 in the patent); the leaf counts as a
//!    win for a side that wins the majority of them.
//! 4. Back-propagation: visits and wins along the path, for each node from the point of view of
//!    the side that made the move leading to it.
//!
//! The move played is the root child with the largest UCB (the patent's rule: cube first, then
//! direction), or optionally the most visited one. At the root the die is already known.

use ply_core::rng::{Rng, derive_seed, rng_from_seed};
use ply_core::{Agent, Clock, Decision, Game, Limits, SearchInfo, random_playout};

use crate::rules::{Action, Einstein, Phase};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FinalRule {
    /// The patent: the child with the largest UCB value.
    Ucb,
    /// The usual robust rule: the most visited child.
    MostVisits,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PatentUctConfig {
    pub c: f64,
    pub expand_after: u32,
    pub best_of: u32,
    pub final_rule: FinalRule,
    /// Leave bad moves out of the tree (the patent does).
    pub prune_bad: bool,
}

impl Default for PatentUctConfig {
    fn default() -> Self {
        PatentUctConfig { c: 1.0, expand_after: 1, best_of: 5, final_rule: FinalRule::Ucb, prune_bad: true }
    }
}

/// A position in the tree: after the move `action` (or the root).
struct Node {
    action: Option<Action>,
    /// The side that moved into this node.
    mover: u8,
    visits: u32,
    wins: f64,
    /// The patent's cycling die variable.
    dice: u8,
    expanded: bool,
    /// Arms of die value `d` are `arms[arm_ranges[d - 1]]`.
    arm_ranges: [(u32, u32); 6],
}

/// A cube's statistics under one die value: the first level of the two-level choice.
struct Arm {
    visits: u32,
    wins: f64,
    children: (u32, u32),
}

const ITERATIONS_WITHOUT_BUDGET: u64 = 10_000;
const TIME_CHECK_INTERVAL: u64 = 16;

pub struct PatentUct {
    config: PatentUctConfig,
    seed: u64,
    decisions: u64,
}

impl PatentUct {
    pub fn new(config: PatentUctConfig, seed: u64) -> Self {
        PatentUct { config, seed, decisions: 0 }
    }
}

fn ucb(wins: f64, visits: u32, parent_visits: u32, c: f64) -> f64 {
    if visits == 0 {
        return f64::INFINITY;
    }
    wins / visits as f64 + c * (2.0 * (parent_visits.max(1) as f64).ln() / visits as f64).sqrt()
}

/// Whether the opponent of the side that just moved can win at once on every die value.
fn is_bad(after: &Einstein) -> bool {
    after.phase() == Phase::Roll && (1..=6).all(|die| after.can_win_with(after.side(), die))
}

struct Search<'a> {
    config: &'a PatentUctConfig,
    nodes: Vec<Node>,
    arms: Vec<Arm>,
    rng: Rng,
    moves: Vec<Action>,
}

impl<'a> Search<'a> {
    /// An empty tree whose root follows a move of `root_mover`.
    fn new(config: &'a PatentUctConfig, seed: u64, root_mover: u8) -> Self {
        let mut search = Search {
            config,
            nodes: Vec::new(),
            arms: Vec::new(),
            rng: rng_from_seed(seed),
            moves: Vec::new(),
        };
        search.new_node(None, root_mover);
        search
    }

    fn new_node(&mut self, action: Option<Action>, mover: u8) -> u32 {
        self.nodes.push(Node {
            action,
            mover,
            visits: 0,
            wins: 0.0,
            dice: 0,
            expanded: false,
            arm_ranges: [(0, 0); 6],
        });
        (self.nodes.len() - 1) as u32
    }

    /// Creates the arms and children of `index` for each die value in `dice`; `state` is the
    /// position at the node, before the roll (or with the die known, at the root).
    fn expand(&mut self, index: u32, state: &Einstein, dice: &[u8]) {
        let side = state.side();
        let mut pending: Vec<(u8, Vec<(Action, bool)>)> = Vec::new();
        for &die in dice {
            let mut roll_state = state.clone();
            if roll_state.phase() == Phase::Roll {
                roll_state.apply(Action::Roll(die));
            }
            self.moves.clear();
            roll_state.moves_for(side, die, &mut self.moves);
            let mut scored: Vec<(Action, bool)> = self
                .moves
                .iter()
                .map(|&m| {
                    let mut after = roll_state.clone();
                    after.apply(m);
                    (m, self.config.prune_bad && is_bad(&after))
                })
                .collect();
            if scored.iter().all(|&(_, bad)| bad) {
                scored.iter_mut().for_each(|s| s.1 = false);
            }
            pending.push((die, scored));
        }
        for (die, scored) in pending {
            let arm_start = self.arms.len() as u32;
            let mut cubes: Vec<u8> = Vec::new();
            for &(m, bad) in &scored {
                if let Action::Move { cube, .. } = m
                    && !bad
                    && !cubes.contains(&cube)
                {
                    cubes.push(cube);
                }
            }
            for cube in cubes {
                let child_start = self.nodes.len() as u32;
                for &(m, bad) in &scored {
                    if matches!(m, Action::Move { cube: c, .. } if c == cube) && !bad {
                        self.new_node(Some(m), side);
                    }
                }
                let child_end = self.nodes.len() as u32;
                self.arms.push(Arm { visits: 0, wins: 0.0, children: (child_start, child_end) });
            }
            self.nodes[index as usize].arm_ranges[die as usize - 1] = (arm_start, self.arms.len() as u32);
        }
        self.nodes[index as usize].expanded = true;
    }

    fn select_arm(&self, range: (u32, u32)) -> u32 {
        let total: u32 = (range.0..range.1).map(|a| self.arms[a as usize].visits).sum();
        (range.0..range.1)
            .max_by(|&a, &b| {
                let (x, y) = (&self.arms[a as usize], &self.arms[b as usize]);
                ucb(x.wins, x.visits, total, self.config.c)
                    .total_cmp(&ucb(y.wins, y.visits, total, self.config.c))
                    .then(b.cmp(&a))
            })
            .expect("arms are never empty")
    }

    fn select_child(&self, arm: u32) -> u32 {
        let a = &self.arms[arm as usize];
        (a.children.0..a.children.1)
            .max_by(|&x, &y| {
                let (p, q) = (&self.nodes[x as usize], &self.nodes[y as usize]);
                ucb(p.wins, p.visits, a.visits, self.config.c)
                    .total_cmp(&ucb(q.wins, q.visits, a.visits, self.config.c))
                    .then(y.cmp(&x))
            })
            .expect("arms have children")
    }

    /// The winner of the majority of `best_of` random games from `state`.
    fn simulate(&mut self, state: &Einstein) -> u8 {
        let mut wins = [0u32; 2];
        for _ in 0..self.config.best_of {
            let mut game = state.clone();
            random_playout(&mut game, &mut self.rng, usize::MAX);
            wins[game.returns().get(1) as usize] += 1;
        }
        if wins[0] > wins[1] { 0 } else { 1 }
    }

    fn iterate(&mut self, root: &Einstein, root_die: u8) {
        let mut state = root.clone();
        let mut node = 0u32;
        let mut path_nodes = vec![0u32];
        let mut path_arms = Vec::new();
        loop {
            if state.is_over() {
                break;
            }
            let n = &self.nodes[node as usize];
            if !n.expanded {
                if node != 0 && n.visits < self.config.expand_after {
                    break;
                }
                if node == 0 {
                    self.expand(0, &state, &[root_die]);
                } else {
                    self.expand(node, &state, &[1, 2, 3, 4, 5, 6]);
                }
            }
            let die = if node == 0 {
                root_die
            } else {
                let n = &mut self.nodes[node as usize];
                let die = n.dice + 1;
                n.dice = (n.dice + 1) % 6;
                state.apply(Action::Roll(die));
                die
            };
            let arm = self.select_arm(self.nodes[node as usize].arm_ranges[die as usize - 1]);
            let child = self.select_child(arm);
            state.apply(self.nodes[child as usize].action.expect("children carry moves"));
            path_arms.push(arm);
            path_nodes.push(child);
            node = child;
            if self.nodes[child as usize].visits == 0 {
                break;
            }
        }
        let winner = if state.is_over() { state.returns().get(1) as u8 } else { self.simulate(&state) };
        for &index in &path_nodes {
            let n = &mut self.nodes[index as usize];
            n.visits += 1;
            if n.mover == winner {
                n.wins += 1.0;
            }
        }
        for (&arm, &child) in path_arms.iter().zip(&path_nodes[1..]) {
            let mover = self.nodes[child as usize].mover;
            let a = &mut self.arms[arm as usize];
            a.visits += 1;
            if mover == winner {
                a.wins += 1.0;
            }
        }
    }

    fn run(&mut self, root: &Einstein, die: u8, clock: &Clock) -> u64 {
        let limit = match (clock.iteration_limit(), clock.has_deadline()) {
            (Some(n), _) => n,
            (None, true) => u64::MAX,
            (None, false) => ITERATIONS_WITHOUT_BUDGET,
        };
        let mut done = 0;
        while done < limit {
            if done > 0 && done % TIME_CHECK_INTERVAL == 0 && (clock.time_is_up() || clock.stopped()) {
                break;
            }
            self.iterate(root, die);
            done += 1;
        }
        done
    }

    /// The move to play and its win rate.
    fn choose(&self, die: u8, rule: FinalRule) -> (Action, f64, u32) {
        let range = self.nodes[0].arm_ranges[die as usize - 1];
        let child = match rule {
            FinalRule::Ucb => self.select_child(self.select_arm(range)),
            FinalRule::MostVisits => (range.0..range.1)
                .flat_map(|a| {
                    let (s, e) = self.arms[a as usize].children;
                    s..e
                })
                .max_by_key(|&c| (self.nodes[c as usize].visits, std::cmp::Reverse(c)))
                .expect("the root has moves"),
        };
        let n = &self.nodes[child as usize];
        (
            n.action.expect("children carry moves"),
            if n.visits == 0 { 0.5 } else { n.wins / n.visits as f64 },
            n.visits,
        )
    }
}

impl Agent<Einstein> for PatentUct {
    fn choose(
        &mut self,
        state: &Einstein,
        limits: &Limits,
        report: &mut dyn FnMut(&SearchInfo<Action>),
    ) -> Decision<Action> {
        let clock = limits.start();
        let Phase::Move(die) = state.phase() else {
            panic!("the patent UCT plays moves; arrangements are chosen by the caller");
        };
        let legal = state.actions();
        if legal.len() == 1 {
            return Decision::new(legal[0]);
        }
        let seed = derive_seed(self.seed, self.decisions);
        self.decisions += 1;
        let mut search = Search::new(&self.config, seed, state.side() ^ 1);
        let iterations = search.run(state, die, &clock);
        let (action, win_rate, _) = search.choose(die, self.config.final_rule);
        let info = SearchInfo {
            depth: 1,
            iterations,
            value: Some(2.0 * win_rate - 1.0),
            scores: {
                let mut scores = vec![1.0 - win_rate; 2];
                scores[state.side() as usize] = win_rate;
                scores
            },
            proven: None,
            pv: vec![action],
            elapsed: clock.elapsed(),
        };
        report(&info);
        Decision { action, info }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Options;

    #[test]
    fn dice_are_cycled_not_sampled() {
        // A position in the middle of a game, red to move with a 3.
        let state = Einstein::new(Options::default())
            .parse_state("r1r2r3../r4r5.../r6...b6/...b5b4/..b3b2b1 red 3 0-0")
            .unwrap();
        let config = PatentUctConfig { expand_after: 1, ..PatentUctConfig::default() };
        let mut search = Search::new(&config, 1, 1);
        // Iterate until some child of the root has been expanded and visited often.
        for _ in 0..400 {
            search.iterate(&state, 3);
        }
        // Every expanded non-root node chose die values 1, 2, ..., 6, 1, ... in turn: after it
        // was passed through k times, its dice variable is k mod 6, and each die's arms were
        // visited exactly as often as that die came up.
        let mut checked = 0;
        for (i, node) in search.nodes.iter().enumerate().skip(1) {
            if !node.expanded || node.visits < 8 {
                continue;
            }
            let passes: u32 = node
                .arm_ranges
                .iter()
                .map(|&(s, e)| (s..e).map(|a| search.arms[a as usize].visits).sum::<u32>())
                .sum();
            assert_eq!(node.dice as u32, passes % 6, "node {i}");
            for (d, &(s, e)) in node.arm_ranges.iter().enumerate() {
                let die_visits: u32 = (s..e).map(|a| search.arms[a as usize].visits).sum();
                let expected = passes / 6 + u32::from((d as u32) < passes % 6);
                assert_eq!(die_visits, expected, "node {i} die {}", d + 1);
            }
            checked += 1;
        }
        assert!(checked > 5, "only {checked} nodes were visited often enough");
    }
}

#[cfg(test)]
mod pruning_tests {
    use super::*;
    use crate::rules::Options;

    fn root_moves(text: &str, die: u8, prune: bool) -> Vec<String> {
        let state = Einstein::new(Options::default()).parse_state(text).unwrap();
        let config = PatentUctConfig { prune_bad: prune, ..PatentUctConfig::default() };
        let mut search = Search::new(&config, 1, state.side() ^ 1);
        search.expand(0, &state, &[die]);
        let (s, e) = search.nodes[0].arm_ranges[die as usize - 1];
        (s..e)
            .flat_map(|a| {
                let (cs, ce) = search.arms[a as usize].children;
                cs..ce
            })
            .map(|c| state.action_to_text(search.nodes[c as usize].action.unwrap()))
            .collect()
    }

    #[test]
    fn moves_that_let_the_opponent_win_on_every_die_are_not_expanded() {
        // Blue's last cube stands next to its goal: it wins on any die unless red takes it.
        let position = ".r1.../.b1.../...../...r2./..... red 1 0-0";
        assert_eq!(root_moves(position, 1, true), vec!["1s"]);
        assert_eq!(root_moves(position, 1, false).len(), 3);
        // When every move is bad, all are kept: one must be played.
        let hopeless = "...../.b1.../..r2../...../..... red 2 0-0";
        assert_eq!(root_moves(hopeless, 2, true).len(), 3);
    }
}
