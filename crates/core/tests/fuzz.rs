//! Fuzzing agent specs and parameter lists (docs/architecture.md, Fuzzing): any text is parsed or
//! refused with an error, never a panic; a parsed spec prints as text that parses back to it;
//! typed reads of any value give the value or an error. Building agents from random specs is
//! fuzzed where the games are (crates/cli/tests/fuzz_specs.rs).
//! `PROPTEST_CASES=100000 cargo test -p ply-core --test fuzz` runs longer.

use ply_core::{AgentSpec, ParamInfo, Params};
use proptest::prelude::*;

/// Text from the pieces specs are made of, with the odd stranger.
fn spec_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => prop::sample::select(vec![
            "mcts", "alphabeta", "random", ":", ",", "=", "c", "tt", "threads", "1", "0", "-1", "1.5",
            "1e9", "NaN", "inf", "true", " ", "_", "-", "::", "==", ",,",
        ])
        .prop_map(String::from),
        1 => any::<char>().prop_map(String::from),
    ];
    prop_oneof![any::<String>(), prop::collection::vec(piece, 0..16).prop_map(|p| p.concat())]
}

fn declared() -> Vec<ParamInfo> {
    vec![
        ParamInfo::new("n", 10, "a count"),
        ParamInfo::new("x", 1.5, "a real"),
        ParamInfo::new("on", true, "a switch"),
        ParamInfo::new("kind", "a", "a word"),
        ParamInfo::new("w", "1,2", "a list"),
    ]
}

/// 3000 cases, unless `PROPTEST_CASES` asks for another number (this crate cannot use
/// `ply_core::fuzz::strategy::config`, which needs its own `fuzz` feature).
fn config() -> ProptestConfig {
    if std::env::var_os("PROPTEST_CASES").is_some() {
        ProptestConfig::default()
    } else {
        ProptestConfig::with_cases(3000)
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn specs_parse_or_are_refused_and_print_back(text in spec_text()) {
        if let Ok(spec) = AgentSpec::parse(&text) {
            let printed = spec.to_string();
            prop_assert_eq!(AgentSpec::parse(&printed).ok(), Some(spec), "printed as '{}'", printed);
        }
    }

    #[test]
    fn typed_reads_of_any_value_give_the_value_or_an_error(text in spec_text()) {
        let Ok(params) = Params::parse("fuzz", declared(), &text) else { return Ok(()) };
        let _ = params.get_in("n", 1..=u64::MAX);
        let _ = params.get_in("n", 0u32..=30);
        let _ = params.get_in("x", 0.0..=100.0);
        let _ = params.get::<usize>("x");
        let _ = params.get_bool("on");
        let _ = params.get_choice("kind", &["a", "b"]);
        for key in ["n", "x", "on", "kind", "w"] {
            let _ = params.get_list(key);
            let _ = params.get_in(key, -1.0..=1.0);
        }
    }

    #[test]
    fn reals_read_in_a_range_lie_in_it(value in spec_text()) {
        let Ok(params) = Params::new("fuzz", declared(), [("x".to_string(), value)]) else { return Ok(()) };
        if let Ok(x) = params.get_in("x", 0.0..=1.0) {
            prop_assert!((0.0..=1.0).contains(&x), "{}", x);
        }
    }
}
