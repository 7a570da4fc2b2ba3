//! `ply tune`: the genetic tuner (`ply_search::genetic`) on any agent that takes a weight
//! vector as a parameter. Each tuner game is one arena game between two copies of the agent that
//! differ only in that parameter; who moves first alternates with the game's seed.
//!
//! A run may keep a checkpoint file, written after every generation (docs/formats.md, "Tuning
//! checkpoints"): the run it belongs to, the genes with their fitness, the offspring waiting for
//! the next generation and every generation's report. Resumed from it, a run plays the games it
//! has not played yet and ends as it would have without stopping, bit for bit.

use std::path::{Path, PathBuf};

use ply_core::{AgentSpec, Error, GameDef};
use ply_search::genetic::{Gene, Generation, TuneState};
// Re-exported: what a caller of the tuner hands it and gets back (the Python package's Ray
// runs), without a dependency on ply-search of its own.
pub use ply_search::genetic::{GenerationReport, GeneticConfig, TuneGame, TuneResult};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::play::{GameSetup, play_game};
use crate::runner::{RunOptions, progress_bar};

/// Where a run keeps its checkpoint, and whether it goes on from the one there.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    pub path: PathBuf,
    pub resume: bool,
}

const FORMAT: &str = "ply-tune-checkpoint/1";

/// What makes two runs the same run: a checkpoint is only resumed by its own.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct RunIdentity {
    game: String,
    agent: String,
    param: String,
    options: String,
    time_ms: Option<u64>,
    iterations: Option<u64>,
}

/// [`GeneticConfig`] as saved; `generations` may grow when a finished run is resumed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct SavedConfig {
    population: usize,
    weights: usize,
    min_weight: f64,
    max_weight: f64,
    tournaments: usize,
    tournament_size: usize,
    selected_per_tournament: usize,
    children: usize,
    mutants: usize,
    generations: usize,
    seed: u64,
}

impl From<&GeneticConfig> for SavedConfig {
    fn from(c: &GeneticConfig) -> Self {
        SavedConfig {
            population: c.population,
            weights: c.weights,
            min_weight: c.min_weight,
            max_weight: c.max_weight,
            tournaments: c.tournaments,
            tournament_size: c.tournament_size,
            selected_per_tournament: c.selected_per_tournament,
            children: c.children,
            mutants: c.mutants,
            generations: c.generations,
            seed: c.seed,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct SavedReport {
    generation: usize,
    best: Vec<f64>,
    best_fitness: f64,
    mean_fitness: f64,
    games: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct SavedGene {
    weights: Vec<f64>,
    fitness: Option<f64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct SavedRun {
    format: String,
    run: RunIdentity,
    config: SavedConfig,
    generations_done: usize,
    /// Every generation's best gene and fitness, and the mean fitness: for people to read.
    reports: Vec<SavedReport>,
    population: Vec<SavedGene>,
    offspring: Vec<Vec<f64>>,
}

impl SavedRun {
    fn new(run: &RunIdentity, config: &GeneticConfig, state: &TuneState) -> Self {
        SavedRun {
            format: FORMAT.into(),
            run: run.clone(),
            config: config.into(),
            generations_done: state.generations_done,
            reports: state
                .reports
                .iter()
                .map(|r| SavedReport {
                    generation: r.generation,
                    best: r.best.clone(),
                    best_fitness: r.best_fitness,
                    mean_fitness: r.mean_fitness,
                    games: r.games,
                })
                .collect(),
            population: state
                .population
                .iter()
                .map(|g| SavedGene { weights: g.weights.clone(), fitness: g.fitness })
                .collect(),
            offspring: state.offspring.clone(),
        }
    }

    fn state(&self) -> TuneState {
        TuneState {
            generations_done: self.generations_done,
            population: self
                .population
                .iter()
                .map(|g| Gene { weights: g.weights.clone(), fitness: g.fitness })
                .collect(),
            offspring: self.offspring.clone(),
            reports: self
                .reports
                .iter()
                .map(|r| GenerationReport {
                    generation: r.generation,
                    best: r.best.clone(),
                    best_fitness: r.best_fitness,
                    mean_fitness: r.mean_fitness,
                    games: r.games,
                })
                .collect(),
        }
    }
}

fn write_checkpoint(path: &Path, saved: &SavedRun) -> Result<(), String> {
    let text = serde_json::to_string_pretty(saved).map_err(|e| e.to_string())?;
    // Written aside and renamed over: a run killed while writing leaves the last whole one.
    let mut partial = path.as_os_str().to_owned();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    std::fs::write(&partial, text + "\n")
        .and_then(|()| std::fs::rename(&partial, path))
        .map_err(|e| format!("cannot write the checkpoint {}: {e}", path.display()))
}

/// The state to start from: the checkpoint's when resuming (checked to be of this run), a new
/// run's otherwise (refusing to write over a checkpoint that is there).
fn starting_state(
    checkpoint: Option<&Checkpoint>,
    run: &RunIdentity,
    config: &GeneticConfig,
) -> Result<TuneState, Error> {
    let Some(checkpoint) = checkpoint else { return Ok(TuneState::start(config)) };
    let path = checkpoint.path.display();
    if !checkpoint.resume {
        if checkpoint.path.exists() {
            return Err(Error::spec(format!(
                "the checkpoint {path} exists: --resume goes on from it; to start anew, remove it"
            )));
        }
        return Ok(TuneState::start(config));
    }
    let text = std::fs::read_to_string(&checkpoint.path)
        .map_err(|e| Error::spec(format!("cannot read the checkpoint {path}: {e}")))?;
    let saved: SavedRun = serde_json::from_str(&text)
        .map_err(|e| Error::spec(format!("the checkpoint {path} is not one ply tune wrote: {e}")))?;
    if saved.format != FORMAT {
        return Err(Error::spec(format!(
            "the checkpoint {path} is in format '{}', not {FORMAT}",
            saved.format
        )));
    }
    if saved.run != *run {
        return Err(Error::spec(format!(
            "the checkpoint {path} is of another run: {:?}, this one is {:?}",
            saved.run, run
        )));
    }
    let wanted = SavedConfig { generations: saved.config.generations, ..config.into() };
    if saved.config != wanted {
        return Err(Error::spec(format!(
            "the checkpoint {path} was made with other tuner settings (only --generations may change): {:?}",
            saved.config
        )));
    }
    let state = saved.state();
    state.check(config).map_err(|e| Error::spec(format!("the checkpoint {path}: {e}")))?;
    Ok(state)
}

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

/// A tuning run taken a generation at a time, so that its games can be played anywhere:
/// [`Tuner::next_games`] lists a generation's games, each played by [`play_tune_game`] (here,
/// on a thread pool, by [`run_tune`]; on other machines by the Python package's Ray runs), and
/// [`Tuner::finish`] takes their results in that order, saving the checkpoint. Every way of
/// playing the games gives the same run.
pub struct Tuner {
    config: GeneticConfig,
    run: RunIdentity,
    checkpoint: Option<Checkpoint>,
    state: TuneState,
    pending: Option<Generation>,
}

impl Tuner {
    /// Checks the run (the agent takes `param` as `config.weights` weights, a two-player game)
    /// and starts it, or goes on from the checkpoint.
    pub fn new<G: GameDef>(
        spec: &AgentSpec,
        param: &str,
        config: &GeneticConfig,
        options: &RunOptions,
        checkpoint: Option<&Checkpoint>,
    ) -> Result<Tuner, Error> {
        config.validate().map_err(Error::spec)?;
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
        let run = RunIdentity {
            game: G::NAME.into(),
            agent: spec.to_string(),
            param: param.into(),
            options: options.options.clone(),
            time_ms: options.budget.time.map(|t| t.as_millis() as u64),
            iterations: options.budget.iterations,
        };
        let state = starting_state(checkpoint, &run, config)?;
        Ok(Tuner { config: config.clone(), run, checkpoint: checkpoint.cloned(), state, pending: None })
    }

    /// The generations done so far (those of the checkpoint, when resuming).
    pub fn reports(&self) -> &[GenerationReport] {
        &self.state.reports
    }

    /// Games still to play: the rest of the run.
    pub fn games_left(&self) -> u64 {
        let c = &self.config;
        let per_generation = c.tournaments * c.tournament_size * (c.tournament_size - 1) / 2;
        (c.generations.saturating_sub(self.state.generations_done) * per_generation) as u64
    }

    /// The next generation's games, in the order [`Tuner::finish`] takes their results (the
    /// same ones again until it is finished), or `None` when the run is done.
    pub fn next_games(&mut self) -> Option<&[TuneGame]> {
        if self.pending.is_none() {
            self.pending = self.state.next_generation(&self.config);
        }
        self.pending.as_ref().map(|g| &g.games[..])
    }

    /// Ends the generation [`Tuner::next_games`] listed with each game's result (`a`'s score, or
    /// why it failed) in that order, and saves the checkpoint if there is one.
    pub fn finish(&mut self, results: Vec<Result<f64, String>>) -> Result<GenerationReport, Error> {
        let generation = self.pending.as_ref().ok_or_else(|| Error::spec("no generation is being played"))?;
        let report = self.state.finish_generation(&self.config, generation, results).map_err(Error::spec)?;
        self.pending = None;
        if let Some(c) = &self.checkpoint {
            write_checkpoint(&c.path, &SavedRun::new(&self.run, &self.config, &self.state))
                .map_err(Error::spec)?;
        }
        Ok(report)
    }

    /// The best gene so far, with every generation's report.
    pub fn result(&self) -> TuneResult {
        self.state.result()
    }
}

/// One tuning game: `spec` with `game.a` as `param` against `spec` with `game.b`, who moves
/// first alternating with the seed; `a`'s score, or why the game failed.
pub fn play_tune_game<G: GameDef>(
    spec: &AgentSpec,
    param: &str,
    options: &RunOptions,
    game: &TuneGame,
) -> Result<f64, String> {
    let specs = [with_weights(spec, param, &game.a), with_weights(spec, param, &game.b)];
    let a_first = game.seed.is_multiple_of(2);
    let seats =
        if a_first { vec![(&specs[0], 0), (&specs[1], 1)] } else { vec![(&specs[1], 1), (&specs[0], 0)] };
    let setup = GameSetup {
        options: &options.options,
        index: 0,
        seed: game.seed,
        seats,
        budget: options.budget,
        openings: None,
        stop: options.stop.clone(),
    };
    // Only the lowest weights were tried by `Tuner::new`: others may still be refused (an
    // agent's parameter range inside --min..--max), or an agent may fail in play.
    let record = play_game::<G>(&setup)
        .map_err(|e| format!("a tuning game failed ({} against {}): {e}", specs[0], specs[1]))?;
    Ok(record.returns[if a_first { 0 } else { 1 }])
}

/// The line `ply tune` prints for a finished generation.
pub fn generation_line(r: &GenerationReport) -> String {
    let best: Vec<String> = r.best.iter().map(|w| format!("{w:.3}")).collect();
    format!(
        "generation {}: {} games, best fitness {:.3} [{}], mean {:.3}",
        r.generation,
        r.games,
        r.best_fitness,
        best.join(", "),
        r.mean_fitness
    )
}

/// What `ply tune --json` prints for a finished run.
pub fn result_json(spec: &AgentSpec, param: &str, result: &TuneResult) -> serde_json::Value {
    let best = tuned_spec(spec, param, &result.best);
    serde_json::json!({
        "best": result.best, "best_fitness": result.best_fitness, "spec": best.to_string(),
        "generations": result.generations.iter().map(|g| serde_json::json!({
            "generation": g.generation, "best": g.best, "best_fitness": g.best_fitness,
            "mean_fitness": g.mean_fitness, "games": g.games})).collect::<Vec<_>>(),
    })
}

/// Evolves the weight vector `param` of `spec`, a generation's games in parallel on
/// `options.threads` threads. With a checkpoint, every generation is saved to it, and `resume`
/// goes on from it; generations done before are reported again first, so that a resumed run
/// tells the whole story.
pub fn run_tune<G: GameDef>(
    spec: &AgentSpec,
    param: &str,
    config: &GeneticConfig,
    options: &RunOptions,
    checkpoint: Option<&Checkpoint>,
    progress: &mut (dyn FnMut(&GenerationReport) + Send),
) -> Result<TuneResult, Error> {
    let mut tuner = Tuner::new::<G>(spec, param, config, options, checkpoint)?;
    for report in tuner.reports() {
        progress(report);
    }
    let bar = progress_bar(tuner.games_left(), options.progress);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads.max(1))
        .build()
        .map_err(|e| Error::spec(format!("cannot start threads: {e}")))?;
    while let Some(games) = tuner.next_games() {
        let results = pool.install(|| {
            games
                .par_iter()
                .map(|game| {
                    let result = play_tune_game::<G>(spec, param, options, game);
                    bar.inc(1);
                    result
                })
                .collect()
        });
        let report = tuner.finish(results)?;
        bar.set_message(format!(
            "gen {}/{} best {:.3}",
            report.generation, config.generations, report.best_fitness
        ));
        bar.suspend(|| progress(&report));
    }
    bar.finish_and_clear();
    Ok(tuner.result())
}
