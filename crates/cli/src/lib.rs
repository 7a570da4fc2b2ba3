//! The `ply` command's library side: the registry of games and the engine protocol.

pub mod engine;
pub mod report;

use ply_arena::{DynGame, entry};
use ply_core::Error;

/// Every game Ply offers. Adding a game is one line here (docs/adding-a-game.md).
pub fn games() -> Vec<Box<dyn DynGame>> {
    vec![
        entry::<ply_connect4::Connect4>(),
        entry::<ply_pig::Pig>(),
        entry::<ply_einstein::Einstein>(),
        entry::<ply_gomoku::Gomoku>(),
        entry::<ply_kuhn::Kuhn>(),
    ]
}

pub fn find_game(name: &str) -> Result<Box<dyn DynGame>, Error> {
    let all = games();
    let names: Vec<&str> = all.iter().map(|g| g.name()).collect();
    let wanted = name.trim().to_ascii_lowercase();
    let known = names.join(", ");
    all.into_iter()
        .find(|g| g.name() == wanted)
        .ok_or_else(|| Error::spec(format!("unknown game '{name}'; Ply has: {known}")))
}
