//! `ply tune`: the genetic tuner (`ply_search::genetic`) on any agent that takes a weight
//! vector as a parameter. Each tuner game is one arena game between two copies of the agent that
//! differ only in that parameter; who moves first alternates with the game's seed.

use ply_core::{AgentSpec, Error, GameDef};
use ply_search::genetic::{GenerationReport, GeneticConfig, TuneResult, tune};

use crate::play::{GameSetup, play_game};
use crate::runner::RunOptions;

fn with_weights(spec: &AgentSpec, param: &str, weights: &[f64]) -> AgentSpec {
    let mut spec = spec.clone();
    spec.params.retain(|(k, _)| k != param);
    let value: Vec<String> = weights.iter().map(|w| format!("{w}")).collect();
    spec.params.push((param.to_string(), value.join(",")));
    spec
}

/// The spec with the given weights, as `ply tune` prints it.
pub fn tuned_spec(spec: &AgentSpec, param: &str, weights: &[f64]) -> AgentSpec {
    let rounded: Vec<f64> = weights.iter().map(|w| (w * 1000.0).round() / 1000.0).collect();
    with_weights(spec, param, &rounded)
}

pub fn run_tune<G: GameDef>(
    spec: &AgentSpec,
    param: &str,
    config: &GeneticConfig,
    options: &RunOptions,
    progress: &mut (dyn FnMut(&GenerationReport) + Send),
) -> Result<TuneResult, Error> {
    // Fail now, with the agent's own message, if it has no such parameter or wants another
    // number of weights.
    let probe = vec![config.min_weight; config.weights];
    G::build_agent(&with_weights(spec, param, &probe), 0)?;
    let state = G::new_from_text_options(&options.options)?;
    if state.num_players() != 2 {
        return Err(Error::spec(format!(
            "tuning plays two-player games; this {} has {} players",
            G::NAME,
            state.num_players()
        )));
    }
    let play = |a: &[f64], b: &[f64], seed: u64| -> Result<f64, String> {
        let specs = [with_weights(spec, param, a), with_weights(spec, param, b)];
        let a_first = seed.is_multiple_of(2);
        let seats =
            if a_first { vec![(&specs[0], 0), (&specs[1], 1)] } else { vec![(&specs[1], 1), (&specs[0], 0)] };
        let setup = GameSetup {
            options: &options.options,
            index: 0,
            seed,
            seats,
            budget: options.budget,
            openings: None,
        };
        // Only the lowest weights were tried above: others may still be refused (an agent's
        // parameter range inside --min..--max), or an agent may fail in play.
        let record = play_game::<G>(&setup)
            .map_err(|e| format!("a tuning game failed ({} against {}): {e}", specs[0], specs[1]))?;
        Ok(record.returns[if a_first { 0 } else { 1 }])
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads.max(1))
        .build()
        .map_err(|e| Error::spec(format!("cannot start threads: {e}")))?;
    pool.install(|| tune(config, play, progress)).map_err(Error::spec)
}
