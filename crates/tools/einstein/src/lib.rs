//! EinStein's tools, beside the game crate so that it depends on the game model and search only:
//! training the value network by self-play ([`train`], `einstein-train`), judging recorded games
//! ([`analysis`], `einstein-analyse`), and measuring agents against exact endgames
//! (`einstein-endgames`).

pub mod analysis;
pub mod train;
