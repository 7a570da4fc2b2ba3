//! Fuzzing the notation (docs/architecture.md, Fuzzing): made-up and edited positions and
//! actions, in text and JSON, must be refused or read back exactly, and only legal actions may
//! be played; game options (a map file among them) are refused or give a sound start.
//! `PROPTEST_CASES=100000 cargo test -p ply-tactics --test fuzz` runs longer.

use ply_core::GameDef;
use ply_core::fuzz::{
    self,
    strategy::{config, draws},
};
use ply_tactics::Tactics;
use proptest::prelude::*;

const ALPHABET: &str = "tacisz=rounplyemdw01234789;:./#~*xFAWabcdhjkp>- ";

fn start(draw: &fuzz::Draw) -> Tactics {
    // The deal first (a chance event) in some games, a fixed small board in others.
    let options = if draw.seed.is_multiple_of(2) { "" } else { "size=8,max_turns=6" };
    Tactics::new_from_text_options(options).expect("the options")
}

proptest! {
    #![proptest_config(config(400))]

    #[test]
    fn positions_in_text(draw in draws(ALPHABET, 60)) {
        fuzz::fuzz_states(&start(&draw), &draw).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn positions_in_json(draw in draws(ALPHABET, 60)) {
        fuzz::fuzz_json_states(&start(&draw), &draw).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn actions(draw in draws(ALPHABET, 60)) {
        fuzz::fuzz_actions(&start(&draw), &draw).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn options(draw in draws(ALPHABET, 0)) {
        fuzz::fuzz_options::<Tactics>(&draw).map_err(TestCaseError::fail)?;
    }
}
