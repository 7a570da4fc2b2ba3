//! `ply.Game` and `ply.State`: a game by name with its options, and positions of it.

use std::sync::Arc;

use ply_arena::{DynGame, DynState};
use ply_core::Turn;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::args;
use crate::errors::{IntoPy, type_error};

/// A game by name, with its options (`ply.game("pig", players=3)`).
#[pyclass(frozen, module = "ply")]
pub struct Game {
    pub inner: Arc<dyn DynGame>,
    /// `key=value,...`, as the CLI's `-o`.
    pub options: String,
    pub players: usize,
}

impl Game {
    pub fn open(name: &str, options: String) -> PyResult<Game> {
        let inner: Arc<dyn DynGame> = Arc::from(ply_games::find(name).py_err()?);
        let players = inner.new_state(&options).py_err()?.num_players();
        Ok(Game { inner, options, players })
    }

    pub fn start(&self) -> PyResult<State> {
        Ok(State { inner: self.inner.new_state(&self.options).py_err()? })
    }

    /// A `Game`, or a game name with the given options.
    pub fn from_arg(obj: &Bound<'_, PyAny>, options: Option<String>) -> PyResult<Game> {
        if let Ok(game) = obj.cast::<Game>() {
            let game = game.get();
            let options = options.filter(|o| !o.is_empty()).unwrap_or_else(|| game.options.clone());
            return Game::open(game.inner.name(), options);
        }
        let name = args::text(obj, "game")
            .map_err(|_| type_error("game must be a ply.Game or a game name (str)"))?;
        Game::open(&name, options.unwrap_or_default())
    }
}

#[pymethods]
impl Game {
    #[getter]
    fn name(&self) -> &'static str {
        self.inner.name()
    }
    #[getter]
    fn about(&self) -> &'static str {
        self.inner.about()
    }
    /// The game's options as `key=value,...` (empty: the defaults).
    #[getter]
    fn options(&self) -> &str {
        &self.options
    }
    #[getter]
    fn num_players(&self) -> usize {
        self.players
    }
    /// Whether players see different things (cards in hand): observe through `observation(seat)`.
    #[getter]
    fn hidden_information(&self) -> PyResult<bool> {
        Ok(self.start()?.inner.hidden_information())
    }
    /// The start position.
    fn new_state(&self) -> PyResult<State> {
        self.start()
    }
    /// A position in the game's text notation.
    fn state_from_text(&self, text: &Bound<'_, PyAny>) -> PyResult<State> {
        let mut state = self.start()?;
        state.inner.set_text(&args::text(text, "text")?).py_err()?;
        Ok(state)
    }
    /// A position in the game's JSON form (a dict, or a JSON string).
    fn state_from_json(&self, json: &Bound<'_, PyAny>) -> PyResult<State> {
        let value = match args::text(json, "json") {
            Ok(text) => serde_json::from_str(&text)
                .map_err(|e| crate::errors::to_py(ply_core::Error::notation(format!("not JSON: {e}"))))?,
            Err(_) => args::json_value(json, "json")?,
        };
        let mut state = self.start()?;
        state.inner.set_json(&value).py_err()?;
        Ok(state)
    }
    /// The agents this game offers: name, about, and parameters with defaults.
    fn agents<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for agent in self.inner.agents() {
            let info = PyDict::new(py);
            info.set_item("name", agent.name)?;
            info.set_item("about", agent.about)?;
            info.set_item("params", params(py, &agent.params)?)?;
            list.append(info)?;
        }
        Ok(list)
    }
    /// The options this game takes: name, default and help.
    fn option_info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        params(py, &self.inner.options())
    }
    fn __repr__(&self) -> String {
        format!("ply.game({:?}, {:?})", self.inner.name(), self.options)
    }
}

pub fn params<'py>(py: Python<'py>, params: &[ply_core::ParamInfo]) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for p in params {
        let info = PyDict::new(py);
        info.set_item("name", p.name)?;
        info.set_item("default", &p.default)?;
        info.set_item("help", p.help)?;
        list.append(info)?;
    }
    Ok(list)
}

/// A position: who is to move, the legal actions, notation, and what each seat sees.
#[pyclass(module = "ply")]
pub struct State {
    pub inner: Box<dyn DynState>,
}

#[pymethods]
impl State {
    /// The game's name.
    #[getter]
    fn game(&self) -> &'static str {
        self.inner.game()
    }
    #[getter]
    fn num_players(&self) -> usize {
        self.inner.num_players()
    }
    /// The seat to move, or `"chance"` (a die roll, a deal is pending), or `"over"`.
    #[getter]
    fn turn<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(match self.inner.turn() {
            Turn::Player(p) => p.into_pyobject(py)?.into_any(),
            Turn::Chance => "chance".into_pyobject(py)?.into_any(),
            Turn::Over => "over".into_pyobject(py)?.into_any(),
        })
    }
    /// The seat to move, or `None` at a chance event or once the game is over.
    #[getter]
    fn current_player(&self) -> Option<usize> {
        match self.inner.turn() {
            Turn::Player(p) => Some(p),
            _ => None,
        }
    }
    fn is_chance(&self) -> bool {
        self.inner.turn() == Turn::Chance
    }
    fn is_terminal(&self) -> bool {
        self.inner.turn() == Turn::Over
    }
    /// Whether players see different things: observe through `observation(seat)`.
    #[getter]
    fn hidden_information(&self) -> bool {
        self.inner.hidden_information()
    }
    /// The moves of the player to move, in text form (empty at a chance event or once over).
    fn legal_actions(&self) -> Vec<String> {
        self.inner.legal_actions()
    }
    /// The pending chance event's outcomes with their probabilities.
    fn chance_outcomes(&self) -> Vec<(String, f64)> {
        self.inner.chance_outcomes()
    }
    /// Plays an action (a move, or a chance outcome) in text form, or in JSON form as a dict;
    /// returns its canonical text. An illegal or malformed action raises and changes nothing.
    fn apply(&mut self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        match args::text(action, "action") {
            Ok(text) => self.inner.play(&text).py_err(),
            Err(_) if action.is_instance_of::<PyDict>() => {
                self.inner.play_json(&args::json_value(action, "action")?).py_err()
            }
            Err(_) => Err(type_error(format!(
                "action must be a str (text notation) or a dict (JSON), not {}",
                action.get_type().name()?
            ))),
        }
    }
    /// Every seat's score once the game is over (1 win, 0 loss, shares for draws), else `None`.
    fn returns(&self) -> Option<Vec<f64>> {
        self.inner.returns()
    }
    /// The position in the game's text notation (everything, hidden cards included).
    fn to_text(&self) -> String {
        self.inner.to_text()
    }
    /// The position in the game's JSON form, as a dict (everything, hidden cards included).
    fn to_json<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        args::to_python(py, &self.inner.to_json())
    }
    /// An action's JSON form, from its text form.
    fn action_json<'py>(&self, py: Python<'py>, action: &Bound<'_, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        args::to_python(py, &self.inner.action_json(&args::text(action, "action")?).py_err()?)
    }
    /// What `seat` sees (`None`: a spectator) as a dict: in games with hidden information,
    /// only that seat's own secrets.
    #[pyo3(signature = (seat=None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        seat: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let seat = args::seat(seat, self.inner.num_players())?;
        args::to_python(py, &self.inner.observation_json(seat))
    }
    /// What `seat` sees (`None`: a spectator), as text.
    #[pyo3(signature = (seat=None))]
    fn observation_text(&self, seat: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        let seat = args::seat(seat, self.inner.num_players())?;
        Ok(self.inner.observation_text(seat))
    }
    fn clone(&self) -> State {
        State { inner: self.inner.clone_box() }
    }
    fn __copy__(&self) -> State {
        self.clone()
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        self.clone()
    }
    fn __str__(&self) -> String {
        self.inner.to_text()
    }
    fn __repr__(&self) -> String {
        format!("<ply.State {} {:?}>", self.inner.game(), self.inner.to_text())
    }
}
