//! Progressive widening, checked on the tree itself: how many children each node has, that the
//! untried actions are exactly the rest, that they survive tree reuse, and that priors are
//! judged only for the children made.

use std::sync::atomic::{AtomicUsize, Ordering};

use super::*;
use crate::heuristics::{NeutralEval, UniformRollout};
use ply_core::{Budget, Error, Player, Returns};

pub(crate) const WIDE: u8 = 40;
const PICKS: u32 = 8;

/// Two players take turns picking one of `WIDE` numbers, `PICKS` picks in all; player 0 wins if
/// the sum is even. The line so far is the state, so no two lines meet.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Wide {
    line: u64,
    picks: u32,
    sum: u32,
}

pub(crate) const START: Wide = Wide { line: 0, picks: 0, sum: 0 };

impl Game for Wide {
    type Action = u8;
    fn num_players(&self) -> usize {
        2
    }
    fn turn(&self) -> Turn {
        if self.picks >= PICKS { Turn::Over } else { Turn::Player(self.picks as usize % 2) }
    }
    fn legal_actions(&self, out: &mut Vec<u8>) {
        out.clear();
        if self.picks < PICKS {
            out.extend(0..WIDE);
        }
    }
    fn chance_outcomes(&self, out: &mut Vec<(u8, f64)>) {
        out.clear();
    }
    fn apply(&mut self, action: u8) {
        self.line = self.line * u64::from(WIDE) + u64::from(action);
        self.picks += 1;
        self.sum += u32::from(action);
    }
    fn returns(&self) -> Returns {
        Returns::win(2, (self.sum % 2) as usize)
    }
    fn action_to_text(&self, action: u8) -> String {
        action.to_string()
    }
    fn parse_action(&self, text: &str) -> Result<u8, Error> {
        text.parse().map_err(|_| Error::notation("not a number"))
    }
    fn to_text(&self) -> String {
        format!("{}:{}", self.picks, self.line)
    }
    fn parse_state(&self, _text: &str) -> Result<Self, Error> {
        Err(Error::notation("not supported"))
    }
    fn to_json(&self) -> serde_json::Value {
        serde_json::Value::Null
    }
    fn state_from_json(&self, _json: &serde_json::Value) -> Result<Self, Error> {
        Err(Error::notation("not supported"))
    }
}

pub(crate) const SQRT: Widening = Widening { base: 1.0, exponent: 0.5 };

fn worker<'a, E: Evaluator<Wide>>(
    config: &'a MctsConfig,
    eval: &'a E,
    tree: Tree<Wide>,
) -> Worker<'a, Wide, E, UniformRollout> {
    Worker {
        config,
        eval,
        rollout: &UniformRollout,
        tree,
        rng: rng_from_seed(11),
        actions: Vec::new(),
        outcomes: Vec::new(),
        path: Vec::new(),
        score_sums: vec![0.0; 2],
    }
}

fn run<E: Evaluator<Wide>>(worker: &mut Worker<'_, Wide, E, UniformRollout>, iterations: u64) {
    worker.run(&Limits::new(Budget::iterations(iterations)).start(), Some(iterations));
}

/// Checks every expanded node below the root: its children and its untried actions are its
/// legal actions, each once, and it has as many children as its playouts allow. Returns how many
/// nodes were expanded.
fn check_every_node(tree: &Tree<Wide>, widening: Option<Widening>) -> usize {
    let mut stack = vec![(0, tree.root_state.clone())];
    let mut expanded = 0;
    while let Some((index, state)) = stack.pop() {
        let node = &tree.nodes[index];
        if !node.expanded() || state.is_over() {
            continue;
        }
        expanded += 1;
        let children: Vec<u8> = tree.children(index).map(|c| tree.nodes[c].action.unwrap()).collect();
        let mut all: Vec<u8> = children.iter().chain(tree.untried(index)).copied().collect();
        all.sort();
        assert_eq!(
            all,
            state.actions(),
            "node {index}: children {children:?}, untried {:?}",
            tree.untried(index)
        );
        let allowed = widening.map_or(u32::MAX, |w| w.max_children(node.playouts()));
        assert_eq!(
            children.len(),
            allowed.min(u32::from(WIDE)) as usize,
            "node {index}, {} playouts",
            node.playouts()
        );
        for child in tree.children(index) {
            let mut after = state.clone();
            after.apply(tree.nodes[child].action.unwrap());
            stack.push((child, after));
        }
    }
    expanded
}

#[test]
fn a_widening_node_gets_children_as_its_playouts_allow() {
    let config = MctsConfig { widening: Some(SQRT), ..MctsConfig::default() };
    let mut worker = worker(&config, &NeutralEval, Tree::new(&START));
    for playouts in 1..=900u32 {
        run(&mut worker, 1);
        let children = worker.tree.children(0).count() as u32;
        // floor(sqrt(n)), at least 1, at most every action.
        let expected = ((playouts as f64).sqrt().floor() as u32).clamp(1, u32::from(WIDE));
        assert_eq!(children, expected, "after {playouts} playouts");
    }
    assert_eq!(worker.tree.children(0).count(), 30, "40 actions, 30 children after 900 playouts");
    assert!(check_every_node(&worker.tree, Some(SQRT)) > 100, "the tree grew below the root too");
}

#[test]
fn without_widening_every_action_is_a_child_at_once() {
    let config = MctsConfig::default();
    let mut worker = worker(&config, &NeutralEval, Tree::new(&START));
    run(&mut worker, 300);
    assert!(check_every_node(&worker.tree, None) > 20);
}

#[test]
fn the_node_limit_counts_untried_actions() {
    let config = MctsConfig { widening: Some(SQRT), max_nodes: 500, ..MctsConfig::default() };
    let mut worker = worker(&config, &NeutralEval, Tree::new(&START));
    run(&mut worker, 5000);
    let tree = &worker.tree;
    assert!(tree.size() > tree.nodes.len(), "untried actions take room");
    assert!(tree.size() >= 500, "the limit was reached: {} counted", tree.size());
    // Each expansion may overshoot by the children it makes at once, here a single one.
    assert!(tree.size() <= 501, "{} nodes, {} counted", tree.nodes.len(), tree.size());
}

/// An evaluator that counts how many positions it was asked to judge.
struct Counting(AtomicUsize);

impl Evaluator<Wide> for Counting {
    fn evaluate(&self, _state: &Wide, _player: Player) -> f64 {
        0.0
    }
    fn expected_scores(&self, state: &Wide) -> Returns {
        self.0.fetch_add(1, Ordering::Relaxed);
        Returns::draw(state.num_players())
    }
}

#[test]
fn priors_are_judged_only_for_the_children_made() {
    for widening in [Some(SQRT), None] {
        let config = MctsConfig { widening, prior_visits: 5, ..MctsConfig::default() };
        let eval = Counting(AtomicUsize::new(0));
        let mut worker = worker(&config, &eval, Tree::new(&START));
        run(&mut worker, 400);
        let expanded = check_every_node(&worker.tree, widening);
        // Eight picks: the tree of 400 playouts never reaches an end, so every node but the root
        // is a child judged once.
        let calls = eval.0.load(Ordering::Relaxed);
        assert_eq!(calls, worker.tree.nodes.len() - 1, "{widening:?}");
        let every_action = expanded * usize::from(WIDE);
        match widening {
            Some(_) => assert!(calls * 4 < every_action, "{calls} judged, {every_action} without widening"),
            None => assert_eq!(calls, every_action),
        }
    }
}

/// After a search, the position two picks down the most visited line (a move and the reply) is
/// where the next decision starts: the reused subtree keeps that node's untried actions, in order,
/// and goes on widening from them as its playouts grow.
#[test]
fn a_reused_subtree_keeps_its_untried_actions_and_widens_on() {
    let config = MctsConfig { widening: Some(SQRT), ..MctsConfig::default() };
    let mut agent = Mcts::new(config.clone(), NeutralEval, UniformRollout, 5);
    agent.choose(&START, &Limits::new(Budget::iterations(20_000)), &mut |_| {});
    let tree = agent.trees[0].take().expect("the tree is kept");
    let (mut index, mut state) = (0, START);
    for _ in 0..2 {
        index = tree.children(index).max_by_key(|&c| tree.nodes[c].visits).expect("explored");
        state.apply(tree.nodes[index].action.unwrap());
    }
    let playouts = tree.nodes[index].playouts();
    let children: Vec<u8> = tree.children(index).map(|c| tree.nodes[c].action.unwrap()).collect();
    let untried = tree.untried(index).to_vec();
    assert!(playouts > 50 && !untried.is_empty(), "{playouts} playouts, {} untried", untried.len());

    let reused = tree.reuse_for(&state);
    assert_eq!(reused.root_state, state);
    assert_eq!(reused.nodes[0].playouts(), playouts);
    let kept: Vec<u8> = reused.children(0).map(|c| reused.nodes[c].action.unwrap()).collect();
    assert_eq!(kept, children);
    assert_eq!(reused.untried(0), &untried[..], "the same actions wait, in the same order");
    check_every_node(&reused, Some(SQRT));

    let mut worker = worker(&config, &NeutralEval, reused);
    run(&mut worker, 1000);
    let more = worker.tree.children(0).count();
    assert_eq!(more as u32, SQRT.max_children(playouts + 1000).min(u32::from(WIDE)));
    assert!(more > children.len(), "{more} children now, {} before", children.len());
    let admitted: Vec<u8> =
        worker.tree.children(0).skip(children.len()).map(|c| worker.tree.nodes[c].action.unwrap()).collect();
    assert_eq!(admitted, untried[..admitted.len()], "admitted in the order they waited");
    check_every_node(&worker.tree, Some(SQRT));
}
