//! Positions for the tests, built from a map diagram and unit lists in the state notation.

#![allow(dead_code)]

use ply_core::{Game, GameDef};
use ply_tactics::{Tactics, TacticsAction};

pub fn game(options: &str) -> Tactics {
    Tactics::new_from_text_options(options).unwrap_or_else(|e| panic!("{options}: {e}"))
}

/// An open board of side `size`.
pub fn open(size: usize) -> Vec<String> {
    vec![".".repeat(size); size]
}

/// The position with map `rows` (top row first) and the units `side0` and `side1` in the state
/// notation (`Fa1:100 Wc3:40*`), `player` to move in round 1.
pub fn pos(rows: &[impl AsRef<str>], side0: &str, side1: &str, player: u8) -> Tactics {
    let text = text(rows, side0, side1, player);
    game("map_seed=1").parse_state(&text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

pub fn text(rows: &[impl AsRef<str>], side0: &str, side1: &str, player: u8) -> String {
    let rows: Vec<&str> = rows.iter().map(AsRef::as_ref).collect();
    format!(
        "tactics size={} round=1 player={player}; map {}; side0 {side0}; side1 {side1}",
        rows.len(),
        rows.join("/")
    )
}

pub fn action(state: &Tactics, text: &str) -> TacticsAction {
    state.parse_action(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Plays `text` (one action), panicking with the reason if it is refused.
pub fn play(state: &mut Tactics, text: &str) {
    let a = action(state, text);
    state.play(a).unwrap_or_else(|e| panic!("{text}: {e}"));
}

/// The reason `text` is refused; panics if it is legal.
pub fn refused(state: &Tactics, text: &str) -> String {
    let a = action(state, text);
    let mut copy = state.clone();
    match copy.play(a) {
        Ok(()) => panic!("{text} was accepted in {}", state.to_text()),
        Err(e) => {
            assert_eq!(&copy, state, "a refused action changed the state");
            e.to_string()
        }
    }
}

/// The legal actions as text.
pub fn legal(state: &Tactics) -> Vec<String> {
    state.actions().into_iter().map(|a| state.action_to_text(a)).collect()
}

/// Hit points of the units of `side`, in team order (0 for the dead).
pub fn hps(state: &Tactics, side: usize) -> Vec<u8> {
    state.team(side).iter().map(|u| u.hp).collect()
}
