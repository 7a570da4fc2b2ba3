//! Where agents meet: single games, matches, round-robin tournaments, free-for-alls and SPRT runs played in
//! parallel and reproducibly, scores with Elo intervals, game records as JSON lines, benchmarks,
//! and the by-name layer ([`erased`]) through which the CLI and the web server reach games.

pub mod bench;
pub mod erased;
pub mod ffa;
pub mod play;
pub mod record;
pub mod runner;
pub mod stats;
pub mod tune;

pub use erased::{AgentInfo, DynAgent, DynGame, DynState, entry};
pub use ffa::{FfaReport, FfaStanding};
pub use play::{GameSetup, play_game, replay};
pub use record::GameRecord;
pub use runner::{MatchReport, PairResult, RunOptions, SprtReport, TournamentReport};
pub use stats::{EloEstimate, Score, Sprt, SprtVerdict};
