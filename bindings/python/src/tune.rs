//! The genetic tuner (`ply tune`) a generation at a time, for python/ply/distributed.py: a
//! `Tuner` on the driver lists each generation's games and folds their results in, in order
//! (the arena's `Tuner`, which `ply tune` itself runs on), and `tune_games` plays a share of
//! those games wherever Ray puts it. The run is the one `ply tune` makes with the same seed.

use std::path::PathBuf;

use ply_arena::RunOptions;
use ply_arena::tune::{Checkpoint, GenerationReport, GeneticConfig, TuneGame, generation_line, result_json};
use ply_core::AgentSpec;
use pyo3::prelude::*;
use pyo3::types::{PyFloat, PyString};

use crate::args;
use crate::errors::{IntoPy, spec_error, type_error};
use crate::game::Game;
use crate::run::interruptible;

/// A game of a generation as Python sees it: `(a, b, seed)`.
type Job = (Vec<f64>, Vec<f64>, u64);

/// The game (with `options` if given) and the budget of every tuning game; tuning games open
/// without random moves, as in `ply tune`.
fn game_and_run(
    game: &Bound<'_, PyAny>,
    seed: u64,
    time_ms: Option<&Bound<'_, PyAny>>,
    iters: Option<&Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Game, RunOptions)> {
    let given = match options {
        Some(o) if !o.is_none() => Some(args::options(Some(o), None)?),
        _ => None,
    };
    let game = Game::from_arg(game, given)?;
    let run = RunOptions::new(
        &game.options,
        1,
        seed,
        args::count(time_ms, "time_ms")?,
        args::count(iters, "iters")?,
        Some(1),
        None,
    )
    .py_err()?;
    Ok((game, run))
}

fn report_json(r: &GenerationReport) -> serde_json::Value {
    serde_json::json!({"generation": r.generation, "best": r.best, "best_fitness": r.best_fitness,
        "mean_fitness": r.mean_fitness, "games": r.games})
}

/// A tuning run (`ply tune GAME AGENT --weights N ...`), played a generation at a time:
/// `next_games()` lists a generation's games as `(a, b, seed)`, `finish(results)` takes each
/// game's result in that order (`a`'s score, or the error message of a failed game) and saves
/// the checkpoint if there is one.
#[pyclass(module = "ply")]
pub struct Tuner {
    inner: ply_arena::tune::Tuner,
    spec: AgentSpec,
    param: String,
    generations: usize,
}

#[pymethods]
impl Tuner {
    #[new]
    #[pyo3(signature = (game, agent, weights, *, param="weights", population=100, min_weight=0.0, max_weight=10.0, tournaments=10, tournament_size=10, selected=3, children=12, mutants=3, generations=4, seed=1, time_ms=None, iters=None, options=None, checkpoint=None, resume=false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        game: &Bound<'_, PyAny>,
        agent: &Bound<'_, PyAny>,
        weights: usize,
        param: &str,
        population: usize,
        min_weight: f64,
        max_weight: f64,
        tournaments: usize,
        tournament_size: usize,
        selected: usize,
        children: usize,
        mutants: usize,
        generations: usize,
        seed: u64,
        time_ms: Option<&Bound<'_, PyAny>>,
        iters: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyAny>>,
        checkpoint: Option<&Bound<'_, PyAny>>,
        resume: bool,
    ) -> PyResult<Tuner> {
        let (game, run) = game_and_run(game, seed, time_ms, iters, options)?;
        let spec = AgentSpec::parse(&args::text(agent, "agent")?).py_err()?;
        let config = GeneticConfig {
            population,
            weights,
            min_weight,
            max_weight,
            tournaments,
            tournament_size,
            selected_per_tournament: selected,
            children,
            mutants,
            generations,
            seed,
        };
        let checkpoint = match checkpoint {
            Some(path) if !path.is_none() => {
                Some(Checkpoint { path: PathBuf::from(path.str()?.to_string()), resume })
            }
            _ if resume => return Err(spec_error("resume goes on from a checkpoint: give one")),
            _ => None,
        };
        let inner = game.inner.tuner(&spec, param, &config, &run, checkpoint.as_ref()).py_err()?;
        Ok(Tuner { inner, spec, param: param.to_string(), generations })
    }

    /// The run's number of generations.
    #[getter]
    fn generations(&self) -> usize {
        self.generations
    }

    /// Games still to play in the run.
    fn games_left(&self) -> u64 {
        self.inner.games_left()
    }

    /// Every generation done so far (those of the checkpoint, when resuming), as in
    /// `ply tune --json`'s `generations`.
    fn reports<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        self.inner.reports().iter().map(|r| args::to_python(py, &report_json(r))).collect()
    }

    /// The lines `ply tune` prints for the generations done so far.
    fn lines(&self) -> Vec<String> {
        self.inner.reports().iter().map(generation_line).collect()
    }

    /// The next generation's games as `(a, b, seed)` (the same again until `finish`), or `None`
    /// once the run is done.
    fn next_games(&mut self) -> Option<Vec<Job>> {
        self.inner
            .next_games()
            .map(|games| games.iter().map(|g| (g.a.clone(), g.b.clone(), g.seed)).collect())
    }

    /// Ends the generation with its games' results in `next_games` order: a float (`a`'s score)
    /// or a str (why the game failed; the first such in order raises `ply.SpecError`). Returns
    /// the generation's report.
    fn finish<'py>(
        &mut self,
        py: Python<'py>,
        results: Vec<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let results = results
            .iter()
            .map(|r| {
                if let Ok(message) = r.cast::<PyString>() {
                    Ok(Err(message.to_string()))
                } else if let Ok(score) = r.cast::<PyFloat>() {
                    Ok(Ok(score.value()))
                } else {
                    Err(type_error("a tuning game's result is a float or an error message (str)"))
                }
            })
            .collect::<PyResult<Vec<_>>>()?;
        let report = self.inner.finish(results).py_err()?;
        args::to_python(py, &report_json(&report))
    }

    /// The run's result: the dict `ply tune --json` prints.
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        args::to_python(py, &result_json(&self.spec, &self.param, &self.inner.result()))
    }
}

/// Plays tuning games `(a, b, seed)` of `agent` with the weights in `param`, one after the
/// other; each result is `a`'s score, or the message of why the game failed.
#[pyfunction]
#[pyo3(signature = (game, agent, param, games, *, time_ms=None, iters=None, options=None))]
#[allow(clippy::too_many_arguments)]
pub fn tune_games<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    agent: &Bound<'py, PyAny>,
    param: String,
    games: Vec<Job>,
    time_ms: Option<&Bound<'py, PyAny>>,
    iters: Option<&Bound<'py, PyAny>>,
    options: Option<&Bound<'py, PyAny>>,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    // The run's seed plays no part in a game: each comes with its own.
    let (game, run) = game_and_run(game, 1, time_ms, iters, options)?;
    let spec = AgentSpec::parse(&args::text(agent, "agent")?).py_err()?;
    let inner = game.inner.clone();
    let stop = run.stop.clone();
    let results = interruptible(py, &stop, move || {
        games
            .into_iter()
            .map(|(a, b, seed)| inner.play_tune_game(&spec, &param, &run, &TuneGame { a, b, seed }))
            .collect::<Vec<_>>()
    })?;
    results
        .into_iter()
        .map(|r| match r {
            Ok(score) => Ok(PyFloat::new(py, score).into_any()),
            Err(message) => Ok(PyString::new(py, &message).into_any()),
        })
        .collect()
}
