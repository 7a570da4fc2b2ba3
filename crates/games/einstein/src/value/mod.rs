//! A learnt evaluation: a value network ([`net`]) over features of the position ([`features`]),
//! trained by self-play (`einstein-train`, crates/tools/einstein). It predicts the chance that
//! the side about to roll wins; a position whose die is already rolled is worth its best move.

pub mod features;
pub mod net;

use std::sync::{Arc, OnceLock};

use ply_core::{Error, Game, Player};
use ply_search::Evaluator;

use crate::rules::{Action, Einstein, Phase};
use features::Features;
use net::ValueNet;

/// The network Ply ships, trained by `einstein-train` (docs/einstein.md gives the command).
static SHIPPED_BYTES: &[u8] = include_bytes!("../../data/value.net");

/// The shipped network, read once.
pub fn shipped() -> Arc<ValueNet> {
    static NET: OnceLock<Arc<ValueNet>> = OnceLock::new();
    NET.get_or_init(|| {
        Arc::new(ValueNet::from_bytes(SHIPPED_BYTES).expect("the shipped network is well-formed"))
    })
    .clone()
}

/// Larger than any network this build can read (256 hidden units): a bigger file is refused
/// before it is read, so that a path like /dev/zero cannot fill the memory.
const MAX_FILE: u64 = 16 << 20;

/// A network from a file.
pub fn load(path: &str) -> Result<ValueNet, Error> {
    let bytes = ply_core::resource::read_file_capped(path, "network", MAX_FILE)?;
    ValueNet::from_bytes(&bytes).map_err(|e| e.context(format!("network '{path}'")))
}

/// Of `moves` (legal in `state`, its die rolled), the first that wins at once, else the first
/// after which the network gives the opponent the least chance; with that chance (0 for a win).
pub fn best_move(net: &ValueNet, state: &Einstein, moves: &[Action]) -> (Action, f32) {
    let mut features = Features::default();
    let mut best = (moves[0], f32::INFINITY);
    for &action in moves {
        if state.is_winning_move(action) {
            return (action, 0.0);
        }
        let mut after = state.clone();
        after.apply(action);
        features.fill(&after);
        let opponent = net.value(&features);
        if opponent < best.1 {
            best = (action, opponent);
        }
    }
    best
}

/// The value network as a search evaluator.
#[derive(Clone, Debug)]
pub struct NetEval {
    net: Arc<ValueNet>,
}

impl NetEval {
    pub fn new(net: Arc<ValueNet>) -> Self {
        NetEval { net }
    }

    /// The chance that the side to act wins: to roll, by the network; to move, by its best move.
    pub fn side_to_act_wins(&self, state: &Einstein) -> f64 {
        match state.phase() {
            Phase::Roll => self.net.value(&Features::of(state)) as f64,
            Phase::Move(_) => 1.0 - best_move(&self.net, state, &state.actions()).1 as f64,
            Phase::Over => state.returns().get(state.side() as usize),
            Phase::Setup => 0.5,
        }
    }
}

impl Evaluator<Einstein> for NetEval {
    fn evaluate(&self, state: &Einstein, player: Player) -> f64 {
        let p = self.side_to_act_wins(state);
        let p = if state.side() as usize == player { p } else { 1.0 - p };
        2.0 * p - 1.0
    }
}
