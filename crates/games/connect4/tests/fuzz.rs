//! Fuzzing Connect Four's notation (docs/architecture.md, Fuzzing): made-up and edited positions
//! and actions, in text and JSON, must be refused or read back exactly, and only legal actions
//! may be played. `PROPTEST_CASES=100000 cargo test -p ply-connect4 --test fuzz` runs longer.

use ply_connect4::Connect4;
use ply_core::fuzz::{
    self,
    strategy::{config, draws},
};
use proptest::prelude::*;

const ALPHABET: &str = "xo./1234567890abcdefgXO ";

proptest! {
    #![proptest_config(config(3000))]

    #[test]
    fn positions_in_text(draw in draws(ALPHABET, 50)) {
        fuzz::fuzz_states(&Connect4::new(), &draw).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn positions_in_json(draw in draws(ALPHABET, 50)) {
        fuzz::fuzz_json_states(&Connect4::new(), &draw).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn actions(draw in draws(ALPHABET, 50)) {
        fuzz::fuzz_actions(&Connect4::new(), &draw).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn options(draw in draws(ALPHABET, 0)) {
        fuzz::fuzz_options::<Connect4>(&draw).map_err(TestCaseError::fail)?;
    }
}
