//! Game-agnostic agents: they search any [`ply_core::Game`] and learn about a particular game
//! only through the hooks in [`heuristics`].

pub mod alphabeta;
pub mod determinized;
pub mod evolution;
pub mod factories;
pub mod genetic;
pub mod heuristics;
pub mod ismcts;
pub mod mcts;
pub mod minimax;
pub mod random;
pub mod tt;
pub mod value;

pub use alphabeta::{AlphaBeta, AlphaBetaConfig};
pub use determinized::Determinized;
pub use evolution::{Evolution, EvolutionConfig};
pub use heuristics::{Evaluator, GeneratedOrder, MoveOrderer, NeutralEval, RolloutPolicy, UniformRollout};
pub use ismcts::{Ismcts, IsmctsConfig};
pub use mcts::{ChanceDescent, FinalChoice, Mcts, MctsConfig, Widening};
pub use random::RandomAgent;
