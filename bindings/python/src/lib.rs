//! The native side of the Python package `ply` (bindings/python/python/ply wraps it):
//! games by name, states, agents from spec strings, the arena's runs, and the arrays and action
//! indices the PettingZoo environments use.

mod agent;
mod arena;
mod args;
mod distributed;
mod env;
mod errors;
mod game;
mod run;
mod tune;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use agent::Agent;
use game::{Game, State};

/// Every game Ply offers: name, about, options (name, default, help), agents.
#[pyfunction]
fn games(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let list = PyList::empty(py);
    for g in ply_games::all() {
        let info = PyDict::new(py);
        info.set_item("name", g.name())?;
        info.set_item("about", g.about())?;
        info.set_item("options", game::params(py, &g.options())?)?;
        info.set_item("agents", g.agents().iter().map(|a| a.name).collect::<Vec<_>>())?;
        list.append(info)?;
    }
    Ok(list)
}

/// A game by name, with options as `"key=value,..."`, a dict, or keyword arguments.
#[pyfunction(name = "game")]
#[pyo3(signature = (name, options=None, **kwargs))]
fn make_game(
    name: &Bound<'_, PyAny>,
    options: Option<&Bound<'_, PyAny>>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Game> {
    Game::open(&args::text(name, "name")?, args::options(options, kwargs)?)
}

/// An agent from a spec as on the command line (`"mcts:iters=1000"`), for a game (a `Game` or
/// a name), with a seed.
#[pyfunction(name = "agent")]
#[pyo3(signature = (game, spec, seed=None))]
fn make_agent(
    game: &Bound<'_, PyAny>,
    spec: &Bound<'_, PyAny>,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<Agent> {
    let game = Game::from_arg(game, None)?;
    Agent::build(&game, &args::text(spec, "spec")?, args::count(seed, "seed")?.unwrap_or(1))
}

#[pymodule]
fn _ply(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_class::<State>()?;
    m.add_class::<Agent>()?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(make_game, m)?)?;
    m.add_function(wrap_pyfunction!(make_agent, m)?)?;
    m.add_function(wrap_pyfunction!(arena::run_match, m)?)?;
    m.add_function(wrap_pyfunction!(arena::tournament, m)?)?;
    m.add_function(wrap_pyfunction!(arena::ffa, m)?)?;
    m.add_function(wrap_pyfunction!(env::action_space, m)?)?;
    m.add_function(wrap_pyfunction!(env::action_mask, m)?)?;
    m.add_function(wrap_pyfunction!(env::play_index, m)?)?;
    m.add_function(wrap_pyfunction!(env::observation_array, m)?)?;
    m.add_function(wrap_pyfunction!(distributed::play_batch, m)?)?;
    m.add_function(wrap_pyfunction!(distributed::assemble_match, m)?)?;
    m.add_function(wrap_pyfunction!(distributed::assemble_tournament, m)?)?;
    m.add_function(wrap_pyfunction!(distributed::tournament_pairings, m)?)?;
    m.add_function(wrap_pyfunction!(distributed::ffa_games, m)?)?;
    m.add_function(wrap_pyfunction!(distributed::play_ffa_batch, m)?)?;
    m.add_function(wrap_pyfunction!(distributed::assemble_ffa, m)?)?;
    m.add_class::<tune::Tuner>()?;
    m.add_function(wrap_pyfunction!(tune::tune_games, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
