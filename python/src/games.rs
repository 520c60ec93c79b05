//! `spielwerk.Game`'s Python methods (its data is [`crate::ruleset`]) and the registry by
//! name.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use serde_json::{Map, Value};
use spielwerk_core::Error;
use spielwerk_core::stored::Deal;

use crate::convert::{Reduce, Seed, Text, kwargs_json, to_json, to_py};
use crate::errors::{err, raise};
use crate::ruleset::Game;
use crate::states::State;

#[pymethods]
impl Game {
    /// The registry name of the game.
    #[getter]
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    /// Every option with its value, defaults included.
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &Value::Object(self.inner.options()))
    }

    /// Every option the game takes: name, type, default, allowed values, description, and
    /// both in German (`name_de`, `description_de`; Caravan's variants by the seed's names).
    fn option_specs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let specs = serde_json::to_value(self.inner.option_specs()).expect("option specs serialize");
        to_py(py, &specs)
    }

    fn num_players(&self) -> usize {
        self.inner.num_players()
    }

    fn num_distinct_actions(&self) -> usize {
        self.inner.num_distinct_actions()
    }

    /// How returns relate: `"zero_sum"`, `"team_zero_sum"` or `"cooperative"`.
    fn utility(&self) -> &'static str {
        self.inner.utility().name()
    }

    /// An upper bound on the number of actions of any game under these options.
    fn max_game_length(&self) -> u64 {
        self.inner.max_game_length()
    }

    /// Whether results count for a ranking: false once any house-rule variant is on.
    fn ranked(&self) -> bool {
        self.inner.ranked()
    }

    /// Whether a match may end at a playing time, the game scored as it stands (Dog: D13).
    fn has_playing_time(&self) -> bool {
        self.inner.has_playing_time()
    }

    /// Whether the players may talk at the table (The Game: T7, without numbers).
    fn has_table_talk(&self) -> bool {
        self.inner.has_table_talk()
    }

    /// The shape of `State.observation_tensor()`: it depends on the options only.
    fn observation_tensor_shape(&self) -> Vec<usize> {
        self.tensor_layout().shape.clone()
    }

    /// The same as `observation_tensor_shape()`: in every game the information-state
    /// tensor is the observation tensor (a view already is an information state).
    fn information_state_tensor_shape(&self) -> Vec<usize> {
        self.tensor_layout().shape.clone()
    }

    /// The observation tensor's slices, in order, covering it whole:
    /// `[{"name": str, "offset": int, "shape": list[int], "meaning": str}]`.
    fn describe_tensor<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for slice in &self.tensor_layout().slices {
            let d = PyDict::new(py);
            d.set_item("name", slice.name)?;
            d.set_item("offset", slice.offset)?;
            d.set_item("shape", slice.shape.clone())?;
            d.set_item("meaning", slice.meaning)?;
            list.append(d)?;
        }
        Ok(list)
    }

    /// The JSON Schema of `State.view(p)` and `State.public_view()`.
    fn view_schema<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.view_schema())
    }

    /// The JSON Schema of the game's moves.
    fn move_schema<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.move_schema())
    }

    /// The seeded initial state: the same seed gives the same game on every machine.
    #[pyo3(signature = (seed = Seed(0)), text_signature = "(self, seed=0)")]
    fn new_initial_state(slf: &Bound<'_, Self>, seed: Seed) -> State {
        let state = slf.get().inner.new_initial_state(seed.0);
        State::new(slf.py(), &slf.clone().unbind(), state, Deal::Seed(seed.0))
    }

    /// Reads a state written by `State.serialize()` or `State.serialize_compact()` (a
    /// `str`), or by `State.serialize_snapshot()` (`bytes`); an inconsistent one raises
    /// `InvalidStateError`. Bytes that are no snapshot are read as UTF-8 JSON.
    fn deserialize_state(slf: &Bound<'_, Self>, data: &Bound<'_, PyAny>) -> PyResult<State> {
        State::read(slf, data, None)
    }

    /// A full state whose view for the view's seat equals `view`, with every card that
    /// seat cannot see dealt at random from `seed`.
    #[pyo3(signature = (view, seed = Seed(0)), text_signature = "(self, view, seed=0)")]
    fn state_from_view(slf: &Bound<'_, Self>, view: &Bound<'_, PyAny>, seed: Seed) -> PyResult<State> {
        let py = slf.py();
        let view = to_json(view, "a view")?;
        let state = slf.get().inner.state_from_view(&view, seed.0).map_err(err(py))?;
        Ok(State::new(py, &slf.clone().unbind(), state, Deal::Unknown))
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduce<'py, (String, String)>> {
        let restore = py.import("spielwerk._spielwerk")?.getattr("_restore_game")?;
        let options = serde_json::to_string(&self.inner.options()).expect("options serialize");
        Ok((restore, (self.inner.name().to_string(), options)))
    }

    pub fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Game>().is_ok_and(|o| {
            o.get().inner.name() == self.inner.name() && o.get().inner.options() == self.inner.options()
        })
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.inner.name().hash(&mut h);
        serde_json::to_string(&self.inner.options())
            .unwrap_or_default()
            .hash(&mut h);
        h.finish()
    }

    pub fn __repr__(&self) -> String {
        let options: Vec<String> = self
            .inner
            .options()
            .iter()
            .map(|(k, v)| match v {
                Value::Bool(true) => format!("{k}=True"),
                Value::Bool(false) => format!("{k}=False"),
                other => format!("{k}={other}"),
            })
            .collect();
        let sep = if options.is_empty() { "" } else { ", " };
        format!("load_game('{}'{sep}{})", self.inner.name(), options.join(", "))
    }
}

/// The names of the games available, sorted.
#[pyfunction]
pub fn list_games() -> Vec<&'static str> {
    spielwerk_core::list_games()
}

/// Loads a game by name with its options as keywords.
#[pyfunction]
#[pyo3(signature = (name, **options))]
pub fn load_game(py: Python<'_>, name: Text, options: Option<&Bound<'_, PyDict>>) -> PyResult<Py<Game>> {
    let options = kwargs_json(options, "options")?;
    Game::create(py, spielwerk_core::load_game(name.0, &options).map_err(err(py))?)
}

#[pyfunction]
pub fn _restore_game(py: Python<'_>, name: Text, options: Text) -> PyResult<Py<Game>> {
    let options: Map<String, Value> = serde_json::from_str(options.0).map_err(|e| {
        let what = spielwerk_core::error::serde_message(&e);
        raise(
            py,
            &Error::InvalidState(what.map(|text, lang| match lang {
                spielwerk_core::Lang::De => format!("gepickelte Optionen: {text}"),
                spielwerk_core::Lang::En => format!("pickled options: {text}"),
            })),
        )
    })?;
    Game::create(py, spielwerk_core::load_game(name.0, &options).map_err(err(py))?)
}

/// A `game` argument: a `spielwerk.Game`, or a game's name (with its default options).
pub fn game_arg(py: Python<'_>, game: &Bound<'_, PyAny>) -> PyResult<Py<Game>> {
    if let Ok(g) = game.cast::<Game>() {
        return Ok(g.clone().unbind());
    }
    if !game.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "game must be a game name (str) or a spielwerk.Game",
        ));
    }
    let name: Text = game.extract()?;
    Game::create(
        py,
        spielwerk_core::load_game(name.0, &Map::new()).map_err(err(py))?,
    )
}
