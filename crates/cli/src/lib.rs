//! The `ply` command's library side: the engine protocol and the reports' text. The games come
//! from the registry, `ply_games::all()` (docs/adding-a-game.md).

pub mod engine;
pub mod report;
