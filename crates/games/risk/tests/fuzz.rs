//! Fuzzing Risk's notation (docs/architecture.md, Fuzzing): made-up and edited positions and
//! actions, in text and JSON, must be refused or read back exactly, and only legal actions may
//! be played; game options (a map file among them) are refused or give a sound start.
//! `PROPTEST_CASES=100000 cargo test -p ply-risk --test fuzz` runs longer.

use ply_core::GameDef;
use ply_core::fuzz::{
    self,
    strategy::{config, draws},
};
use ply_risk::Risk;
use proptest::prelude::*;

const ALPHABET: &str = "risk=:;,>-0123456789 abcdefghlnoprtuwyz?";

fn start() -> Risk {
    Risk::new_from_text_options("players=3").expect("the default game")
}

proptest! {
    #![proptest_config(config(400))]

    #[test]
    fn positions_in_text(draw in draws(ALPHABET, 60)) {
        fuzz::fuzz_states(&start(), &draw).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn positions_in_json(draw in draws(ALPHABET, 60)) {
        fuzz::fuzz_json_states(&start(), &draw).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn actions(draw in draws(ALPHABET, 60)) {
        fuzz::fuzz_actions(&start(), &draw).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn options(draw in draws(ALPHABET, 0)) {
        fuzz::fuzz_options::<Risk>(&draw).map_err(TestCaseError::fail)?;
    }
}
