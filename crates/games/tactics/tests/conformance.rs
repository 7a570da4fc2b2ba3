//! The tactics game through the model's conformance harness, on every option set that changes
//! the rules: board sizes, handicaps, given teams and a given map, the seed drawn or fixed.

use ply_core::testing::{Conformance, Summary};
use ply_core::{Game, GameDef, Turn};
use ply_tactics::Tactics;

fn game(options: &str) -> Tactics {
    Tactics::new_from_text_options(options).unwrap_or_else(|e| panic!("{options}: {e}"))
}

/// Random games, with the game's own invariants checked at every position: units stand on
/// distinct earth cells, and the side to move still has a unit to act with.
fn check(options: &str, games: usize, seed: u64) -> Summary {
    let start = game(options);
    Conformance::new(games, seed).max_actions(20_000).perft_depth(1).run_with(&start, |state| {
        let mut seen = ply_tactics::Cells::EMPTY;
        for side in 0..2 {
            for unit in state.team(side).iter().filter(|u| u.alive()) {
                if !state.map().is_earth(unit.cell) || seen.contains(unit.cell) {
                    return Err(format!("a unit on {}", ply_tactics::cell_name(unit.cell)));
                }
                seen.insert(unit.cell);
            }
        }
        if seen != *state.occupied() {
            return Err("the occupied cells are not the units' cells".into());
        }
        if let Turn::Player(_) = state.turn()
            && state.to_act().next().is_none()
        {
            return Err("the side to move has no unit left to act".into());
        }
        Ok(())
    })
}

#[test]
fn default_options_deal_then_play_whole_turns() {
    let summary = check("max_turns=30", 6, 1);
    assert_eq!(summary.games, 6);
    assert_eq!(summary.chance_events, 6, "one deal per game: {summary:?}");
    assert!(summary.continued_decisions > summary.decisions / 2, "{summary:?}");
}

#[test]
fn board_sizes() {
    for (size, seed) in [(8, 2), (12, 3), (16, 4)] {
        check(&format!("size={size},max_turns=25"), 3, seed);
    }
}

#[test]
fn handicaps_and_teams() {
    for options in [
        "handicap=1,max_turns=25",
        "handicap=-1,max_turns=25",
        "team=FFFFFF,map_seed=7,max_turns=25",
        "team=WWWAAA,handicap=1,map_seed=8,max_turns=25",
        "team=W,size=8,max_turns=40",
        "map_seed=123,max_turns=5",
    ] {
        check(options, 3, 5);
    }
}

#[test]
fn a_given_map() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/maps/river.txt");
    check(&format!("map={path},max_turns=30"), 3, 9);
    check(&format!("map={path},team=FAWFAW,max_turns=30"), 3, 10);
}

#[test]
fn the_seed_fixed_starts_with_player_0() {
    let start = game("map_seed=42");
    assert_eq!(start.turn(), Turn::Player(0));
    assert_eq!(start.actions().len(), start.actions().len());
    assert_eq!(game("").turn(), Turn::Chance);
}
