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
    };
    worker.run(&Limits::new(ply_core::Budget::iterations(iterations)).start(), Some(iterations));
    worker.tree.nodes[0].children().map(|c| worker.tree.nodes[c].visits).collect()
}

#[test]
fn balanced_chance_descent_visits_outcomes_exactly_by_probability() {
    assert_eq!(root_outcome_visits(ChanceDescent::Balanced, 400), vec![200, 100, 100]);
    let sampled = root_outcome_visits(ChanceDescent::Sample, 400);
    assert_eq!(sampled.iter().sum::<u32>(), 400);
    assert_ne!(sampled, vec![200, 100, 100], "sampling is noisy (for this seed)");
}
