//! The game model every Ply game implements and every Ply agent searches.
//!
//! A game is a state machine: [`Game::turn`] says whether a player, chance or nobody (the end)
//! acts next; [`Game::legal_actions`] and [`Game::chance_outcomes`] list what can happen;
//! [`Game::apply`] makes it happen. Multi-action turns are simply the same player acting again,
//! dice and card draws are chance actions with listed probabilities, and a finished game gives
//! [`Returns`] for every player. Everything random flows from seeds through [`rng::Rng`].

pub mod agent;
pub mod budget;
pub mod error;
#[cfg(any(test, feature = "testing"))]
pub mod fuzz;
pub mod game;
pub mod params;
pub mod perft;
pub mod resource;
pub mod rng;
pub mod spec;
#[cfg(any(test, feature = "testing"))]
pub mod testing;

pub use agent::{Agent, Decision, SearchInfo};
pub use budget::{Budget, Clock, Limits, StopFlag, TurnBudget};
pub use error::Error;
pub use game::{Game, MAX_PLAYERS, Player, Returns, Turn};
pub use game::{random_playout, sample_outcome, sample_outcome_from};
pub use params::{ParamInfo, Params};
pub use perft::perft;
pub use resource::{Caps, Resource};
pub use rng::Rng;
pub use spec::{AgentFactory, AgentSpec, BenchCase, BuiltAgent, GameDef};
