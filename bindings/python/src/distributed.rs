//! The pieces of a run split over machines (python/ply/distributed.py, on Ray): a batch of a
//! pairing's (or a free-for-all's) games played here, returned as game records (JSON lines), and
//! the run's report put together from every batch's records in index order — the arena's own
//! assembly, so the result is the one `ply match`/`tournament`/`ffa` gives for the same seed.
//! The tuner's pieces are in `tune.rs`.

use std::time::Duration;

use ply_arena::RunOptions;
use ply_arena::ffa::ffa_report;
use ply_arena::record::{parse, write_jsonl};
use ply_arena::runner::{match_report, tournament_report};
use ply_core::AgentSpec;
use pyo3::prelude::*;

use crate::args;
use crate::errors::{IntoPy, spec_error};
use crate::game::Game;
use crate::run::interruptible;

fn spec(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<AgentSpec> {
    AgentSpec::parse(&args::text(obj, name)?).py_err()
}

fn specs(agents: &[String]) -> PyResult<Vec<AgentSpec>> {
    agents.iter().map(|a| AgentSpec::parse(a).py_err()).collect()
}

/// The game with `options` if given (else its own), and the run's options as the CLI's flags.
#[allow(clippy::too_many_arguments)]
fn run_options(
    game: &Bound<'_, PyAny>,
    games: u64,
    seed: Option<&Bound<'_, PyAny>>,
    time_ms: Option<&Bound<'_, PyAny>>,
    iters: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
    openings: Option<&Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Game, RunOptions)> {
    let given = match options {
        Some(o) if !o.is_none() => Some(args::options(Some(o), None)?),
        _ => None,
    };
    let game = Game::from_arg(game, given)?;
    let run = RunOptions::new(
        &game.options,
        games,
        args::count(seed, "seed")?.unwrap_or(1),
        args::count(time_ms, "time_ms")?,
        args::count(iters, "iters")?,
        Some(args::count(threads, "threads")?.unwrap_or(1) as usize),
        args::count(openings, "openings")?.map(|o| o as usize),
    )
    .py_err()?;
    Ok((game, run))
}

fn to_jsonl(records: &[ply_arena::GameRecord]) -> PyResult<String> {
    let mut out = Vec::new();
    write_jsonl(&mut out, records).map_err(|e| spec_error(e.to_string()))?;
    String::from_utf8(out).map_err(|e| spec_error(e.to_string()))
}

fn records(text: &str) -> PyResult<Vec<ply_arena::GameRecord>> {
    parse(text).map_err(|e| spec_error(format!("game records: {e}")))
}

/// Games `start..end` of pairing `pairing` (a match is pairing 0), between `first` and `second`,
/// with the run's seed and budget, on `threads` threads; the records as JSON lines. An empty
/// range only checks the game, options and agents.
#[pyfunction]
#[pyo3(signature = (game, first, second, pairing, start, end, *, seed=None, time_ms=None, iters=None, threads=None, openings=None, options=None))]
#[allow(clippy::too_many_arguments)]
pub fn play_batch(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    first: &Bound<'_, PyAny>,
    second: &Bound<'_, PyAny>,
    pairing: u64,
    start: u64,
    end: u64,
    seed: Option<&Bound<'_, PyAny>>,
    time_ms: Option<&Bound<'_, PyAny>>,
    iters: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
    openings: Option<&Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let (game, run) = run_options(game, end.max(1), seed, time_ms, iters, threads, openings, options)?;
    let (a, b) = (spec(first, "first")?, spec(second, "second")?);
    let inner = game.inner.clone();
    let stop = run.stop.clone();
    let played =
        interruptible(py, &stop, move || inner.play_batch([&a, &b], pairing, start..end, &run))?.py_err()?;
    to_jsonl(&played)
}

/// A match's report (what `ply match --json` prints) from all its games' records, in order.
#[pyfunction]
pub fn assemble_match<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    first: &Bound<'py, PyAny>,
    second: &Bound<'py, PyAny>,
    records_jsonl: &str,
    elapsed_s: f64,
) -> PyResult<Bound<'py, PyAny>> {
    let game = Game::from_arg(game, None)?;
    let (a, b) = (spec(first, "first")?, spec(second, "second")?);
    let report = match_report(
        game.inner.name(),
        [&a, &b],
        records(records_jsonl)?,
        Duration::from_secs_f64(elapsed_s),
    );
    args::to_python(py, &serde_json::to_value(&report).map_err(|e| spec_error(e.to_string()))?)
}

/// A tournament's report (what `ply tournament --json` prints) from every pairing's records,
/// pairings in `tournament_pairings` order.
#[pyfunction]
pub fn assemble_tournament<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    agents: Vec<String>,
    per_pairing: Vec<String>,
    elapsed_s: f64,
) -> PyResult<Bound<'py, PyAny>> {
    let game = Game::from_arg(game, None)?;
    let specs = specs(&agents)?;
    let per_pairing = per_pairing.iter().map(|text| records(text)).collect::<PyResult<Vec<_>>>()?;
    let report =
        tournament_report(game.inner.name(), &specs, per_pairing, Duration::from_secs_f64(elapsed_s));
    args::to_python(py, &serde_json::to_value(&report).map_err(|e| spec_error(e.to_string()))?)
}

/// The pairings of a round robin between `agents` agents, in the order their games are seeded.
#[pyfunction]
pub fn tournament_pairings(agents: usize) -> Vec<(usize, usize)> {
    ply_arena::runner::tournament_pairings(agents)
}

/// The number of games of a free-for-all (whole rounds), after checking the game, options,
/// agents and budget with the CLI's messages.
#[pyfunction]
#[pyo3(signature = (game, agents, *, all_orders=false, games=None, seed=None, time_ms=None, iters=None, openings=None, options=None))]
#[allow(clippy::too_many_arguments)]
pub fn ffa_games(
    game: &Bound<'_, PyAny>,
    agents: Vec<String>,
    all_orders: bool,
    games: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
    time_ms: Option<&Bound<'_, PyAny>>,
    iters: Option<&Bound<'_, PyAny>>,
    openings: Option<&Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyAny>>,
) -> PyResult<u64> {
    let games = args::count(games, "games")?.unwrap_or(100);
    let (game, run) = run_options(game, games, seed, time_ms, iters, None, openings, options)?;
    Ok(game.inner.ffa_plan(&specs(&agents)?, all_orders, &run).py_err()?.games)
}

/// Games `start..end` of a free-for-all, on `threads` threads; the records as JSON lines.
#[pyfunction]
#[pyo3(signature = (game, agents, start, end, *, all_orders=false, seed=None, time_ms=None, iters=None, threads=None, openings=None, options=None))]
#[allow(clippy::too_many_arguments)]
pub fn play_ffa_batch(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    agents: Vec<String>,
    start: u64,
    end: u64,
    all_orders: bool,
    seed: Option<&Bound<'_, PyAny>>,
    time_ms: Option<&Bound<'_, PyAny>>,
    iters: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
    openings: Option<&Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let (game, run) = run_options(game, end.max(1), seed, time_ms, iters, threads, openings, options)?;
    let specs = specs(&agents)?;
    let inner = game.inner.clone();
    let stop = run.stop.clone();
    let played =
        interruptible(py, &stop, move || inner.play_ffa_batch(&specs, all_orders, start..end, &run))?
            .py_err()?;
    to_jsonl(&played)
}

/// A free-for-all's report (what `ply ffa --json` prints) from all its games' records, in order.
#[pyfunction]
pub fn assemble_ffa<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    agents: Vec<String>,
    all_orders: bool,
    records_jsonl: &str,
    elapsed_s: f64,
) -> PyResult<Bound<'py, PyAny>> {
    let game = Game::from_arg(game, None)?;
    let records = records(records_jsonl)?;
    let players = agents.len();
    let per_round = ply_arena::ffa::round_orders(players, all_orders).len();
    if players < 2 || records.is_empty() || records.len() % per_round != 0 {
        return Err(spec_error(format!(
            "a free-for-all of {players} agents is whole rounds of {per_round} games; {} records came",
            records.len()
        )));
    }
    let report = ffa_report(
        game.inner.name(),
        &specs(&agents)?,
        all_orders,
        records,
        Duration::from_secs_f64(elapsed_s),
    );
    args::to_python(py, &serde_json::to_value(&report).map_err(|e| spec_error(e.to_string()))?)
}
