//! Gomoku tools for Ply: `gomoku-train`, which fits the engine's evaluation tables to
//! self-play (docs/gomoku.md, "The learned evaluation").

pub mod hidden;
pub mod leaves;
pub mod rank;
pub mod sgf;
pub mod teacher;
pub mod train;
