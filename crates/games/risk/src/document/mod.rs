//! The source document's AI, faithfully (SEEDS.md §1, docs/risk-minimax.md): alpha-beta over a
//! prediction tree of deterministic attacks ([`prediction`]), every player drafting by the
//! NBSR rule ([`draft`]), leaves scored by the four weighted features of [`crate::eval`]. The
//! tree is a game of its own searched by the generic alpha-beta of `ply_search`, paranoid for
//! more than two players; [`agent`] plays its plan in the real game.

pub mod agent;
pub mod draft;
pub mod prediction;

use ply_core::{AgentFactory, Error, ParamInfo, Params, Player};
use ply_search::value::DepthUnit;
use ply_search::{AlphaBeta, AlphaBetaConfig, Evaluator, MoveOrderer};

pub use agent::MinimaxAgent;
pub use prediction::{Move, Prediction, battle};

use crate::eval::{features_of_set, weigh};

/// The tuned weights (docs/risk-minimax.md, "Tuning").
pub const DEFAULT_WEIGHTS: &str = "4.062,2.791,6.399,4.898";
/// Turns searched: the mover's own and the next player's reply.
pub const DEFAULT_DEPTH: u32 = 2;
/// The document's most attacks per player per turn.
pub const DEFAULT_ATTACKS: u8 = 3;
/// 2^16 entries: the tree of a few turns fits, and one table per agent stays small.
const TT_BITS: u32 = 16;

/// The document's leaf value for `player`: its weighted features, from [0, 1] to [-1, 1].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DocumentEval {
    pub weights: [f64; 4],
}

impl DocumentEval {
    pub fn value(&self, state: &Prediction, player: Player) -> f64 {
        let features = features_of_set(state.map(), state.territories_of(player as u8), state.army_counts());
        2.0 * weigh(&features, &self.weights) - 1.0
    }
}

impl Evaluator<Prediction> for DocumentEval {
    fn evaluate(&self, state: &Prediction, player: Player) -> f64 {
        self.value(state, player)
    }
}

/// Attacks that take a territory first, the larger the army destroyed the earlier; then ending
/// the turn; failing attacks last. The same for every side: in paranoid search the opponents'
/// best replies are their strongest attacks too.
#[derive(Clone, Copy, Debug, Default)]
pub struct AttackOrder;

impl MoveOrderer<Prediction> for AttackOrder {
    fn order(&self, state: &Prediction, actions: &mut [Move]) {
        actions.sort_by_key(|&m| match m {
            Move::Attack { from, to } => {
                let d = state.armies(to as usize);
                let (_, _, _, conquers) = battle(state.armies(from as usize), d);
                if conquers { -(1000 + i32::from(d)) } else { 1 }
            }
            Move::EndTurn => 0,
        });
    }
}

/// The agent's settings, from its spec.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MinimaxConfig {
    pub weights: [f64; 4],
    /// Turns searched, the mover's own included.
    pub depth: u32,
    /// Most attacks per player per turn, in the tree and in the real game.
    pub attacks: u8,
    /// How the agent places its own draft in the real game (the tree always assumes NBSR).
    pub draft: DraftRule,
}

/// The agent's own draft in the real game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DraftRule {
    /// The document's: by border threat, spread over the most threatened half.
    #[default]
    Nbsr,
    /// Beyond the document: `greedy`'s — the whole draft on the front with the best target.
    /// It shows what the document's draft costs (docs/risk.md, "Measured").
    Front,
}

impl MinimaxConfig {
    pub fn from_params(params: &Params) -> Result<Self, Error> {
        let list = params.get_list("weights")?;
        let weights: [f64; 4] = list.as_slice().try_into().map_err(|_| {
            Error::spec(format!(
                "minimax weights are territories,armies,defence,compactness: 4 numbers, got {}",
                list.len()
            ))
        })?;
        if weights.iter().any(|w| !w.is_finite() || *w < 0.0) {
            return Err(Error::spec(format!(
                "minimax weights must be finite and not negative, got {weights:?}"
            )));
        }
        Ok(MinimaxConfig {
            weights,
            depth: params.get_in("depth", 1..=12)?,
            attacks: params.get_in("attacks", 1..=10)?,
            draft: match params.get_choice("draft", &["nbsr", "front"])? {
                "front" => DraftRule::Front,
                _ => DraftRule::Nbsr,
            },
        })
    }

    /// The generic alpha-beta, set up for the prediction tree: depth in whole turns, so that
    /// leaves are judged only between turns, never with a turn half made.
    pub fn search(&self) -> AlphaBeta<Prediction, DocumentEval, AttackOrder> {
        let config = AlphaBetaConfig {
            max_depth: self.depth,
            depth_unit: DepthUnit::Turns,
            tt_bits: TT_BITS,
            ..AlphaBetaConfig::default()
        };
        AlphaBeta::new(config, DocumentEval { weights: self.weights }, AttackOrder)
    }
}

pub fn params() -> Vec<ParamInfo> {
    vec![
        ParamInfo::new(
            "weights",
            DEFAULT_WEIGHTS,
            "leaf weights: territories,armies,defence,compactness (the document's four features)",
        ),
        ParamInfo::new("depth", DEFAULT_DEPTH, "turns searched, the mover's own included"),
        ParamInfo::new("attacks", DEFAULT_ATTACKS, "most attacks per player per turn"),
        ParamInfo::new(
            "draft",
            "nbsr",
            "own draft: nbsr (the document's) or front (greedy's, beyond the document)",
        ),
    ]
}

/// `minimax`: the document's agent.
pub fn factory() -> AgentFactory<crate::Risk> {
    AgentFactory::new(
        "minimax",
        "the document's AI: paranoid alpha-beta over deterministic attacks (0-3 a turn, from one army more than the defender), drafts by border threat (NBSR), leaves by four weighted features",
        params(),
        |params: &Params, _seed| Ok(Box::new(MinimaxAgent::new(MinimaxConfig::from_params(params)?))),
    )
}
