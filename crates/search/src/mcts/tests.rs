//! Unit tests that need the tree's internals.

use super::*;
use crate::heuristics::{NeutralEval, UniformRollout};
use ply_core::{Error, Returns};

/// A loaded die with faces 1-3 at 1/2, 1/4, 1/4, after which one player picks 0 or 1 and the
/// game ends: player 0 wins if pick + face is even.
#[derive(Clone, Debug, PartialEq)]
struct LoadedDie {
    face: u8,
    pick: Option<u8>,
}

impl Game for LoadedDie {
    type Action = u8;
    fn num_players(&self) -> usize {
        2
    }
    fn turn(&self) -> Turn {
        match (self.face, self.pick) {
            (0, _) => Turn::Chance,
            (_, None) => Turn::Player(0),
            _ => Turn::Over,
        }
    }
    fn legal_actions(&self, out: &mut Vec<u8>) {
        out.clear();
        out.extend([0, 1]);
    }
    fn chance_outcomes(&self, out: &mut Vec<(u8, f64)>) {
        out.clear();
        out.extend([(1, 0.5), (2, 0.25), (3, 0.25)]);
    }
    fn apply(&mut self, action: u8) {
        if self.face == 0 { self.face = action } else { self.pick = Some(action) }
    }
    fn returns(&self) -> Returns {
        Returns::win(2, ((self.face + self.pick.unwrap_or(0)) % 2) as usize)
    }
    fn action_to_text(&self, action: u8) -> String {
        action.to_string()
    }
    fn parse_action(&self, text: &str) -> Result<u8, Error> {
        text.parse().map_err(|_| Error::notation("not a number"))
    }
    fn to_text(&self) -> String {
        format!("{:?}", self)
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

fn root_outcome_visits(chance: ChanceDescent, iterations: u64) -> Vec<u32> {
    let config = MctsConfig { chance, ..MctsConfig::default() };
    let mut worker = Worker {
        config: &config,
        eval: &NeutralEval,
        rollout: &UniformRollout,
        tree: Tree::new(&LoadedDie { face: 0, pick: None }),
        rng: rng_from_seed(3),
        actions: Vec::new(),
        outcomes: Vec::new(),
        path: Vec::new(),
        score_sums: vec![0.0; 1],
    };
    worker.run(&Limits::new(ply_core::Budget::iterations(iterations)).start(), Some(iterations));
    worker.tree.children(0).map(|c| worker.tree.nodes[c].visits).collect()
}

#[test]
fn balanced_chance_descent_visits_outcomes_exactly_by_probability() {
    assert_eq!(root_outcome_visits(ChanceDescent::Balanced, 400), vec![200, 100, 100]);
    let sampled = root_outcome_visits(ChanceDescent::Sample, 400);
    assert_eq!(sampled.iter().sum::<u32>(), 400);
    assert_ne!(sampled, vec![200, 100, 100], "sampling is noisy (for this seed)");
}

/// Two players take turns of `TURN` binary choices each; the choices so far are the state, so
/// every line is its own position. Player 0 wins if the bits set are even at the end.
#[derive(Clone, Debug, PartialEq)]
struct LongTurns {
    bits: u64,
    moves: u32,
}

const TURN: u32 = 6;

impl Game for LongTurns {
    type Action = u8;
    fn num_players(&self) -> usize {
        2
    }
    fn turn(&self) -> Turn {
        if self.moves >= 6 * TURN { Turn::Over } else { Turn::Player((self.moves / TURN) as usize % 2) }
    }
    fn continues_turn(&self) -> bool {
        !self.moves.is_multiple_of(TURN) && self.turn() != Turn::Over
    }
    fn legal_actions(&self, out: &mut Vec<u8>) {
        out.clear();
        if self.turn() != Turn::Over {
            out.extend([0, 1]);
        }
    }
    fn chance_outcomes(&self, out: &mut Vec<(u8, f64)>) {
        out.clear();
    }
    fn apply(&mut self, action: u8) {
        self.bits |= u64::from(action) << self.moves;
        self.moves += 1;
    }
    fn returns(&self) -> Returns {
        Returns::win(2, (self.bits.count_ones() % 2) as usize)
    }
    fn action_to_text(&self, action: u8) -> String {
        action.to_string()
    }
    fn parse_action(&self, text: &str) -> Result<u8, Error> {
        text.parse().map_err(|_| Error::notation("not a number"))
    }
    fn to_text(&self) -> String {
        format!("{}:{}", self.moves, self.bits)
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

/// The next decision after a whole turn and the opponent's whole turn lies 2 * TURN = 12 actions
/// below the old root: the reused tree must start there, with the visits it had.
#[test]
fn a_reused_tree_reaches_past_a_whole_turn_and_the_reply() {
    let start = LongTurns { bits: 0, moves: 0 };
    let mut agent = Mcts::new(MctsConfig::default(), NeutralEval, UniformRollout, 5);
    agent.choose(&start, &Limits::new(ply_core::Budget::iterations(60_000)), &mut |_| {});
    let tree = agent.trees[0].take().expect("the tree is kept");
    // Follow the most visited line 12 actions down.
    let (mut index, mut state) = (0, start.clone());
    for _ in 0..2 * TURN {
        index = tree.children(index).max_by_key(|&c| tree.nodes[c].visits).expect("explored");
        state.apply(tree.nodes[index].action.unwrap());
    }
    let visits = tree.nodes[index].visits;
    assert!(visits > 10, "the line was explored: {visits} visits");
    let reused = tree.reuse_for(&state);
    assert_eq!(reused.nodes[0].visits, visits, "the subtree is kept, visits and all");
    assert!(reused.nodes.len() > 1 && reused.root_state == state);
}

/// Pondering while the opponent is to move grows the kept tree there, and the next decision
/// starts from the subtree of the move the opponent made; a decision's own random stream is
/// not shifted by pondering.
#[test]
fn pondering_grows_the_tree_the_next_decision_reuses() {
    let start = LongTurns { bits: 0, moves: 0 };
    let mut state = start.clone();
    for _ in 0..TURN {
        let actions = state.actions();
        state.apply(actions[0]);
    }
    assert_eq!(state.current_player(), Some(1), "the opponent is to move");
    let mut agent = Mcts::new(MctsConfig::default(), NeutralEval, UniformRollout, 5);
    assert!(Agent::<LongTurns>::ponders(&agent));
    agent.ponder(&state, &Limits::new(ply_core::Budget::iterations(20_000)));
    let tree = agent.trees[0].as_ref().expect("the pondered tree is kept");
    assert!(tree.root_state == state && tree.nodes[0].visits >= 20_000, "{}", tree.nodes[0].visits);
    // The opponent's most explored reply: the decision after it starts with those visits.
    let reply = tree.children(0).max_by_key(|&c| tree.nodes[c].visits).expect("explored");
    let visits = tree.nodes[reply].visits;
    let mut after = state.clone();
    after.apply(tree.nodes[reply].action.unwrap());
    let reused = agent.trees[0].take().unwrap().reuse_for(&after);
    assert_eq!(reused.nodes[0].visits, visits);
    // Without reuse there is nothing to ponder with.
    let plain =
        Mcts::new(MctsConfig { reuse: false, ..MctsConfig::default() }, NeutralEval, UniformRollout, 5);
    assert!(!Agent::<LongTurns>::ponders(&plain));
}
