//! `ply.match`, `ply.tournament` and `ply.ffa`: the CLI's runs, returning what its `--json`
//! prints, as dicts.

use std::fs::File;
use std::io::BufWriter;

use ply_arena::RunOptions;
use ply_arena::record::write_jsonl;
use ply_core::AgentSpec;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use serde::Serialize;

use crate::args;
use crate::errors::{IntoPy, spec_error, type_error};
use crate::game::Game;
use crate::run::interruptible;

/// The run options every call takes, as the CLI's run flags.
struct Run<'a, 'py> {
    games: Option<&'a Bound<'py, PyAny>>,
    seed: Option<&'a Bound<'py, PyAny>>,
    time_ms: Option<&'a Bound<'py, PyAny>>,
    iters: Option<&'a Bound<'py, PyAny>>,
    threads: Option<&'a Bound<'py, PyAny>>,
    openings: Option<&'a Bound<'py, PyAny>>,
    options: Option<&'a Bound<'py, PyAny>>,
    out: Option<&'a Bound<'py, PyAny>>,
}

impl Run<'_, '_> {
    fn resolve(&self, game: &Bound<'_, PyAny>) -> PyResult<(Game, RunOptions)> {
        let given = match self.options {
            Some(o) if !o.is_none() => Some(args::options(Some(o), None)?),
            _ => None,
        };
        let game = Game::from_arg(game, given)?;
        let options = RunOptions::new(
            &game.options,
            args::count(self.games, "games")?.unwrap_or(100),
            args::count(self.seed, "seed")?.unwrap_or(1),
            args::count(self.time_ms, "time_ms")?,
            args::count(self.iters, "iters")?,
            args::count(self.threads, "threads")?.map(|t| t as usize),
            args::count(self.openings, "openings")?.map(|o| o as usize),
        )
        .py_err()?;
        Ok((game, options))
    }

    fn out(&self) -> PyResult<Option<String>> {
        match self.out {
            Some(o) if !o.is_none() => Ok(Some(o.str()?.to_string())),
            _ => Ok(None),
        }
    }
}

fn specs(agents: &Bound<'_, PyAny>) -> PyResult<Vec<AgentSpec>> {
    let items: Vec<Bound<'_, PyAny>> = if let Ok(list) = agents.cast::<PyList>() {
        list.iter().collect()
    } else if let Ok(tuple) = agents.cast::<PyTuple>() {
        tuple.iter().collect()
    } else {
        return Err(type_error("agents must be a list of agent specs (str)"));
    };
    items.iter().map(|a| AgentSpec::parse(&args::text(a, "an agent spec")?).py_err()).collect()
}

/// Runs `work` off the GIL and interruptibly, writes the records if asked, and returns the
/// report's JSON as Python objects.
fn finish<'py, R: Serialize + Send + 'static>(
    py: Python<'py>,
    options: &RunOptions,
    out: Option<String>,
    work: impl FnOnce(RunOptions) -> Result<R, ply_core::Error> + Send + 'static,
    records: impl FnOnce(&R) -> &[ply_arena::GameRecord],
) -> PyResult<Bound<'py, PyAny>> {
    let stop = options.stop.clone();
    let run = options.clone();
    let report = interruptible(py, &stop, move || work(run))?.py_err()?;
    if let Some(path) = out {
        let file = File::create(&path).map_err(|e| spec_error(format!("cannot create {path}: {e}")))?;
        write_jsonl(&mut BufWriter::new(file), records(&report))
            .map_err(|e| spec_error(format!("cannot write {path}: {e}")))?;
    }
    let json = serde_json::to_value(&report).map_err(|e| spec_error(e.to_string()))?;
    args::to_python(py, &json)
}

/// A match between two agents (`ply match`): the dict `ply match --json` prints.
#[pyfunction(name = "match")]
#[pyo3(signature = (game, first, second, *, games=None, seed=None, time_ms=None, iters=None, threads=None, openings=None, options=None, out=None))]
#[allow(clippy::too_many_arguments)]
pub fn run_match<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    first: &Bound<'py, PyAny>,
    second: &Bound<'py, PyAny>,
    games: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    time_ms: Option<&Bound<'py, PyAny>>,
    iters: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    openings: Option<&Bound<'py, PyAny>>,
    options: Option<&Bound<'py, PyAny>>,
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let run = Run { games, seed, time_ms, iters, threads, openings, options, out };
    let (game, options) = run.resolve(game)?;
    let a = AgentSpec::parse(&args::text(first, "first")?).py_err()?;
    let b = AgentSpec::parse(&args::text(second, "second")?).py_err()?;
    let inner = game.inner.clone();
    finish(py, &options, run.out()?, move |o| inner.run_match([&a, &b], &o), |r| &r.records)
}

/// A round robin (`ply tournament`): the dict `ply tournament --json` prints.
#[pyfunction]
#[pyo3(signature = (game, agents, *, games=None, seed=None, time_ms=None, iters=None, threads=None, openings=None, options=None, out=None))]
#[allow(clippy::too_many_arguments)]
pub fn tournament<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    agents: &Bound<'py, PyAny>,
    games: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    time_ms: Option<&Bound<'py, PyAny>>,
    iters: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    openings: Option<&Bound<'py, PyAny>>,
    options: Option<&Bound<'py, PyAny>>,
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let run = Run { games, seed, time_ms, iters, threads, openings, options, out };
    let (game, options) = run.resolve(game)?;
    let specs = specs(agents)?;
    let inner = game.inner.clone();
    finish(py, &options, run.out()?, move |o| inner.run_tournament(&specs, &o), |r| &r.records)
}

/// A free-for-all (`ply ffa`): every agent at one table, seats rotated; the dict
/// `ply ffa --json` prints.
#[pyfunction]
#[pyo3(signature = (game, agents, *, all_orders=None, games=None, seed=None, time_ms=None, iters=None, threads=None, openings=None, options=None, out=None))]
#[allow(clippy::too_many_arguments)]
pub fn ffa<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    agents: &Bound<'py, PyAny>,
    all_orders: Option<&Bound<'py, PyAny>>,
    games: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    time_ms: Option<&Bound<'py, PyAny>>,
    iters: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    openings: Option<&Bound<'py, PyAny>>,
    options: Option<&Bound<'py, PyAny>>,
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let run = Run { games, seed, time_ms, iters, threads, openings, options, out };
    let (game, options) = run.resolve(game)?;
    let specs = specs(agents)?;
    let all_orders = match all_orders {
        Some(flag) if !flag.is_none() => {
            flag.cast::<pyo3::types::PyBool>().map_err(|_| type_error("all_orders must be a bool"))?.is_true()
        }
        _ => false,
    };
    let inner = game.inner.clone();
    finish(py, &options, run.out()?, move |o| inner.run_ffa(&specs, all_orders, &o), |r| &r.records)
}
