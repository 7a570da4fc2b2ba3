//! Fuzzing agent specs against every agent of every game (docs/architecture.md, Fuzzing): random
//! known and unknown keys with random values, written as text and parsed as users' specs are.
//! Building gives an agent or an error, never a panic, and an agent that was built answers with a
//! legal move when asked with its stop flag already raised (the [`ply_core::Agent`] contract).
//!
//! Some parameters size memory or threads by their value (a table of 2^tt entries, `threads`,
//! `nodes`) and `net` reads a file: those are only built with small values and the built-in
//! network; any value is still parsed. `PROPTEST_CASES=20000 cargo test -p ply-cli --test
//! fuzz_specs` runs longer.

use std::time::Duration;

use ply_arena::{DynGame, DynState};
use ply_core::fuzz::strategy::{config, text};
use ply_core::rng::rng_from_seed;
use ply_core::{AgentSpec, Budget, Limits, StopFlag, Turn};
use proptest::prelude::*;
use rand::RngExt;

mod common;
use common::cheap_to_build;

/// Values worth trying, `|` apart: type edges, the games' words, a path (never built).
const WORDS: &str = "0|1|-1|2|3|5|8|10|16|17|28|100|101|257|100000|1e9|18446744073709551616|0.5|1.5|-0.5|\
                     NaN|inf||true|false|yes|end|visits|mean|sample|balanced|rank|expected|race|net|\
                     shipped|wins|guided|safe|random|ucb|1,2|1.2,0.3|1,2,3|/dev/null|no-such-file";

/// A value: the parameter's default (`None`; valid, so that the other parameters of a spec get
/// their turn), one of [`WORDS`], or made-up text.
fn value() -> impl Strategy<Value = Option<String>> {
    let words: Vec<&str> = WORDS.split('|').map(str::trim).collect();
    prop_oneof![
        3 => Just(None),
        3 => prop::sample::select(words).prop_map(|w| Some(w.to_string())),
        1 => text("0123456789.,-e").prop_map(Some),
    ]
}

/// The games, each with its agents' names and declared parameters with their defaults.
type Catalogue = Vec<(Box<dyn DynGame>, Vec<(&'static str, Vec<(&'static str, String)>)>)>;

fn catalogue() -> Catalogue {
    ply_games::all()
        .into_iter()
        .map(|game| {
            let agents = game
                .agents()
                .into_iter()
                .map(|a| (a.name, a.params.into_iter().map(|p| (p.name, p.default)).collect()))
                .collect();
            (game, agents)
        })
        .collect()
}

/// Whether the spec's own budget, which overrides the one it is handed, is small.
fn cheap_to_run(spec: &AgentSpec) -> bool {
    spec.params.iter().all(|(key, value)| match key.as_str() {
        "time" => value.parse::<u64>().is_ok_and(|ms| ms <= 20),
        "iters" => value.parse::<u64>().is_ok_and(|n| n <= 1000),
        _ => true,
    })
}

/// A position `plies` random actions into a game with the default options.
fn random_position(game: &dyn DynGame, seed: u64, plies: usize) -> Box<dyn DynState> {
    let mut state = game.new_state("").expect("the default options");
    let mut rng = rng_from_seed(seed);
    for _ in 0..plies {
        let choices: Vec<String> = match state.turn() {
            Turn::Over => break,
            Turn::Chance => state.chance_outcomes().into_iter().map(|o| o.0).collect(),
            Turn::Player(_) => state.legal_actions(),
        };
        let pick = &choices[rng.random_range(0..choices.len())];
        state.play(pick).expect("a listed action");
    }
    state
}

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn random_specs_build_or_are_refused(
        game_index in any::<usize>(),
        agent_index in any::<usize>(),
        picks in prop::collection::vec((any::<usize>(), value()), 0..5),
        unknown in prop::option::weighted(0.1, "[a-z_]{1,8}"),
        renamed in prop::option::weighted(0.05, "[a-z]{1,10}"),
        seed in any::<u64>(),
        plies in 0usize..40,
    ) {
        let catalogue = catalogue();
        let (game, agents) = &catalogue[game_index % catalogue.len()];
        let (name, keys) = &agents[agent_index % agents.len()];
        let mut spec = AgentSpec { name: renamed.unwrap_or_else(|| name.to_string()), params: Vec::new() };
        for (k, value) in picks {
            let (key, default) = &keys[k % keys.len()];
            // A key given twice is refused before any value is read: once each says more.
            if spec.params.iter().any(|(given, _)| given == key) || (value.is_none() && default.is_empty()) {
                continue;
            }
            spec.params.push((key.to_string(), value.unwrap_or_else(|| default.clone())));
        }
        if let Some(key) = unknown {
            spec.params.push((key, "1".into()));
        }
        // The spec as a user writes it; what does not read back as the same spec is a parser
        // question, fuzzed in crates/core.
        let Ok(spec) = AgentSpec::parse(&spec.to_string()) else { return Ok(()) };
        if !cheap_to_build(&spec) {
            return Ok(());
        }
        let Ok(mut agent) = game.new_agent(&spec, seed) else { return Ok(()) };
        let state = random_position(game.as_ref(), seed, plies);
        // Stopped before it starts, then with a small budget of its own (unless its spec sets a
        // larger one: that is only built).
        let stopped = StopFlag::new();
        stopped.stop();
        let mut asks = vec![Limits { budget: Budget::iterations(1000), stop: stopped }];
        if cheap_to_run(&spec) {
            let budget = Budget { time: Some(Duration::from_millis(20)), iterations: Some(100) };
            asks.push(Limits { budget, stop: StopFlag::new() });
        }
        for limits in asks {
            let answer = agent.choose(state.as_ref(), &limits, &mut |_| {});
            match (state.turn(), answer) {
                (Turn::Player(_), Ok(decision)) => prop_assert!(
                    state.legal_actions().contains(&decision.action),
                    "{spec} chose {} in {}", decision.action, state.to_text()
                ),
                (Turn::Player(_), Err(e)) => prop_assert!(false, "{spec} failed in {}: {e}", state.to_text()),
                (_, answer) => prop_assert!(answer.is_err(), "{spec} answered where no player is to move"),
            }
        }
    }
}
