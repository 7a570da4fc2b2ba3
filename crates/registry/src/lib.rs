//! The registry of games: the one list the `ply` command, `ply serve` and their tests (and,
//! through `GET /api/catalog`, the web UI's end-to-end tests) take Ply's games from. Adding a
//! game is its crate, one line in [`all`] and its dependency line in this crate's Cargo.toml
//! (docs/adding-a-game.md).

use ply_arena::{DynGame, entry};
use ply_core::Error;

/// Every game Ply offers, in the order `ply games` and the web UI's lobby list them.
pub fn all() -> Vec<Box<dyn DynGame>> {
    vec![
        entry::<ply_connect4::Connect4>(),
        entry::<ply_pig::Pig>(),
        entry::<ply_einstein::Einstein>(),
        entry::<ply_gomoku::Gomoku>(),
        entry::<ply_kuhn::Kuhn>(),
        entry::<ply_risk::Risk>(),
        entry::<ply_tactics::Tactics>(),
    ]
}

/// The game called `name` (case and surrounding spaces ignored); an unknown name is an error
/// that lists the games there are.
pub fn find(name: &str) -> Result<Box<dyn DynGame>, Error> {
    let all = all();
    let known = all.iter().map(|g| g.name()).collect::<Vec<_>>().join(", ");
    let wanted = name.trim().to_ascii_lowercase();
    all.into_iter()
        .find(|g| g.name() == wanted)
        .ok_or_else(|| Error::spec(format!("unknown game '{name}'; Ply has: {known}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_lowercase_words() {
        let names: Vec<&str> = all().iter().map(|g| g.name()).collect();
        for (i, name) in names.iter().enumerate() {
            assert!(!name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()));
            assert!(!names[..i].contains(name), "{name} is registered twice");
        }
    }

    #[test]
    fn games_are_found_by_name_and_unknown_names_refused() {
        for game in all() {
            assert_eq!(find(&format!(" {} ", game.name().to_uppercase())).unwrap().name(), game.name());
        }
        let names: Vec<&str> = all().iter().map(|g| g.name()).collect();
        let err = find("chess").err().unwrap().to_string();
        assert!(err.ends_with(&format!("unknown game 'chess'; Ply has: {}", names.join(", "))), "{err}");
    }
}
