//! Fuzzing Pig's notation and options (docs/architecture.md, Fuzzing): made-up and edited
//! positions and actions, in text and JSON, must be refused or read back exactly, and only legal
//! actions may be played. `PROPTEST_CASES=100000 cargo test -p ply-pig --test fuzz` runs longer.

use ply_core::GameDef;
use ply_core::fuzz::{
    self,
    strategy::{config, draws},
};
use ply_pig::Pig;
use proptest::prelude::*;

const ALPHABET: &str = "0123456789,;-+ rolhdecidrolholdplayerstargetmax_turns=";

/// Pig with some of its options: 2-6 players, a target of 1-100, a turn limit.
fn pig() -> impl Strategy<Value = Pig> {
    (2usize..=6, 1u8..=100, 1u16..=400).prop_map(|(players, target, turns)| {
        Pig::new_from_text_options(&format!("players={players},target={target},max_turns={turns}")).unwrap()
    })
}

proptest! {
    #![proptest_config(config(3000))]

    #[test]
    fn positions_in_text(game in pig(), draw in draws(ALPHABET, 200)) {
        fuzz::fuzz_states(&game, &draw).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn positions_in_json(game in pig(), draw in draws(ALPHABET, 200)) {
        fuzz::fuzz_json_states(&game, &draw).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn actions(game in pig(), draw in draws(ALPHABET, 200)) {
        fuzz::fuzz_actions(&game, &draw).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn options(draw in draws(ALPHABET, 0)) {
        fuzz::fuzz_options::<Pig>(&draw).map_err(TestCaseError::fail)?;
    }
}
