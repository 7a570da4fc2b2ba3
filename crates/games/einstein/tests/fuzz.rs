//! Fuzzing EinStein's notation and options (docs/architecture.md, Fuzzing): made-up and edited
//! positions and actions, in text and JSON, must be refused or read back exactly, and only legal
//! actions may be played. `PROPTEST_CASES=100000 cargo test -p ply-einstein --test fuzz` runs
//! longer.

use ply_core::GameDef;
use ply_core::fuzz::{
    self,
    strategy::{config, draws},
};
use ply_einstein::Einstein;
use proptest::prelude::*;

const ALPHABET: &str = "rb123456./ -redbluesetuprollover0nwse:choosefirstmatch=,";

/// EinStein under each of its options: arrangements drawn or chosen, either starter, matches of
/// one to three games.
fn einstein() -> impl Strategy<Value = Einstein> {
    (prop::bool::ANY, prop::bool::ANY, 1u8..=3).prop_map(|(choose, blue, games)| {
        let setup = if choose { "choose" } else { "random" };
        let first = if blue { "blue" } else { "red" };
        Einstein::new_from_text_options(&format!("setup={setup},first={first},match={games}")).unwrap()
    })
}

proptest! {
    #![proptest_config(config(3000))]

    #[test]
    fn positions_in_text(game in einstein(), draw in draws(ALPHABET, 120)) {
        fuzz::fuzz_states(&game, &draw).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn positions_in_json(game in einstein(), draw in draws(ALPHABET, 120)) {
        fuzz::fuzz_json_states(&game, &draw).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn actions(game in einstein(), draw in draws(ALPHABET, 120)) {
        fuzz::fuzz_actions(&game, &draw).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn options(draw in draws(ALPHABET, 0)) {
        fuzz::fuzz_options::<Einstein>(&draw).map_err(TestCaseError::fail)?;
    }
}
