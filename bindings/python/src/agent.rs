//! `ply.Agent`: an agent built from a spec string, as on the command line.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use ply_arena::DynAgent;
use ply_core::rng::{Rng, derive_seed, rng_from_seed};
use ply_core::{AgentSpec, Budget, Error, Limits, SearchInfo, StopFlag, Turn};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::args;
use crate::errors::{IntoPy, to_py};
use crate::game::{Game, State};
use crate::run::interruptible;

/// The budget when neither the spec nor the call sets one, as in `ply engine`'s `go`.
const DEFAULT_BUDGET: Budget = Budget { time: Some(Duration::from_millis(1000)), iterations: None };

/// An agent (`ply.agent("connect4", "mcts:iters=1000", seed=1)`).
#[pyclass(frozen, module = "ply")]
pub struct Agent {
    agent: Arc<Mutex<Box<dyn DynAgent>>>,
    game: &'static str,
    spec: String,
    /// Re-deals what the seat to move cannot see, in games with hidden information.
    view_rng: Mutex<Rng>,
}

impl Agent {
    pub fn build(game: &Game, spec: &str, seed: u64) -> PyResult<Agent> {
        let spec = AgentSpec::parse(spec).py_err()?;
        let agent = game.inner.new_agent(&spec, seed).py_err()?;
        Ok(Agent {
            agent: Arc::new(Mutex::new(agent)),
            game: game.inner.name(),
            spec: spec.to_string(),
            view_rng: Mutex::new(rng_from_seed(derive_seed(seed, 1))),
        })
    }
}

fn report<'py>(py: Python<'py>, info: &SearchInfo<String>) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("depth", info.depth)?;
    dict.set_item("iterations", info.iterations)?;
    dict.set_item("value", info.value)?;
    dict.set_item("scores", info.scores.clone())?;
    dict.set_item("proven", info.proven)?;
    dict.set_item("pv", info.pv.clone())?;
    dict.set_item("elapsed_ms", info.elapsed.as_secs_f64() * 1000.0)?;
    Ok(dict)
}

#[pymethods]
impl Agent {
    /// The agent's spec, normalised (`mcts:iters=1000`).
    #[getter]
    fn spec(&self) -> &str {
        &self.spec
    }
    #[getter]
    fn game(&self) -> &'static str {
        self.game
    }
    /// Chooses a move for the player to move in `state` without playing it; returns the move
    /// (text) and the search report (depth, iterations, value, scores, proven, pv, elapsed_ms).
    /// The spec's own `time=`/`iters=` win over `time_ms`/`iters`; with neither, 1000 ms. In a
    /// game with hidden information the agent is handed the position re-dealt for its seat,
    /// never the real one. Runs without the GIL; Ctrl-C stops it and raises KeyboardInterrupt.
    #[pyo3(signature = (state, time_ms=None, iters=None))]
    fn choose<'py>(
        &self,
        py: Python<'py>,
        state: &Bound<'_, PyAny>,
        time_ms: Option<&Bound<'_, PyAny>>,
        iters: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(String, Bound<'py, PyDict>)> {
        let state = state
            .cast::<State>()
            .map_err(|_| crate::errors::type_error("state must be a ply.State"))?
            .borrow();
        let mut budget = Budget::default();
        if let Some(ms) = args::count(time_ms, "time_ms")? {
            if ms == 0 {
                return Err(crate::errors::spec_error("time_ms must be at least 1"));
            }
            budget.time = Some(Duration::from_millis(ms));
        }
        if let Some(n) = args::count(iters, "iters")? {
            if n == 0 {
                return Err(crate::errors::spec_error("iters must be at least 1"));
            }
            budget.iterations = Some(n);
        }
        let seen = match state.inner.turn() {
            Turn::Player(p) if state.inner.hidden_information() => {
                let mut rng = self.view_rng.lock().unwrap_or_else(|e| e.into_inner());
                state.inner.resample_hidden(p, &mut rng)
            }
            Turn::Player(_) => state.inner.clone_box(),
            Turn::Chance => {
                return Err(to_py(Error::illegal("a chance event is pending: play its outcome first")));
            }
            Turn::Over => return Err(to_py(Error::illegal("the game is over"))),
        };
        drop(state);
        let stop = StopFlag::new();
        let agent = self.agent.clone();
        let limits_stop = stop.clone();
        let decision = interruptible(py, &stop, move || {
            let mut agent = agent.lock().unwrap_or_else(|e| e.into_inner());
            let limits = Limits { budget: agent.budget().or(budget).or(DEFAULT_BUDGET), stop: limits_stop };
            agent.choose(seen.as_ref(), &limits, &mut |_| {})
        })?
        .py_err()?;
        Ok((decision.action, report(py, &decision.info)?))
    }
    fn __repr__(&self) -> String {
        format!("<ply.Agent {} {}>", self.game, self.spec)
    }
}
