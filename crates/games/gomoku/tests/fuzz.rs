//! Fuzzing Gomoku's notation and options (docs/architecture.md, Fuzzing): made-up and edited
//! positions and points, in text and JSON, on every board size and rule, must be refused or read
//! back exactly, and only legal points may be played.
//! `PROPTEST_CASES=100000 cargo test -p ply-gomoku --test fuzz` runs longer.

use ply_core::GameDef;
use ply_core::fuzz::{
    self,
    strategy::{config, draws},
};
use ply_gomoku::Gomoku;
use proptest::prelude::*;

const ALPHABET: &str = "abcdefghijklmnopqrstuv0123456789,; xo.startsizerulefreestylerenju=";

/// Every board size under every rule.
fn gomoku() -> impl Strategy<Value = Gomoku> {
    (5usize..=22, prop::sample::select(vec!["freestyle", "standard", "renju"]))
        .prop_map(|(size, rule)| Gomoku::new_from_text_options(&format!("size={size},rule={rule}")).unwrap())
}

proptest! {
    #![proptest_config(config(1000))]

    #[test]
    fn positions_in_text(game in gomoku(), draw in draws(ALPHABET, 150)) {
        fuzz::fuzz_states(&game, &draw).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn positions_in_json(game in gomoku(), draw in draws(ALPHABET, 150)) {
        fuzz::fuzz_json_states(&game, &draw).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn actions(game in gomoku(), draw in draws(ALPHABET, 150)) {
        fuzz::fuzz_actions(&game, &draw).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn options(draw in draws(ALPHABET, 0)) {
        fuzz::fuzz_options::<Gomoku>(&draw).map_err(TestCaseError::fail)?;
    }
}
