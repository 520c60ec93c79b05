//! Bots: `spielwerk.RandomBot` (a seeded stream of uniform choices) and the bots made by
//! name (`spielwerk.bots.make`).

use std::sync::Mutex;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::{Map, Value};
use spielwerk_core::dynamic::DynBot;
use spielwerk_core::{Action, DynState, bots};

use crate::convert::{Int, Seed, Text, kwargs_json, lock, run_interruptibly, shown, to_json, to_py};
use crate::errors::{err, invalid_argument};
use crate::games::game_arg;
use crate::ruleset::Game;
use crate::states::State;

/// The refusal of a bot asked to move in a game that is over.
fn game_over(py: Python<'_>) -> PyErr {
    invalid_argument(
        py,
        spielwerk_core::msg!(
            "the game is over: there is no action to choose",
            "das Spiel ist vorbei: es gibt keine Aktion zu wählen"
        ),
    )
}

/// Chooses uniformly among the legal actions, from its own seeded stream: the core's
/// [`bots::RandomBot`], shared safely between threads (one draw at a time).
#[pyclass(frozen, module = "spielwerk")]
pub struct RandomBot {
    inner: Mutex<bots::RandomBot>,
}

#[pymethods]
impl RandomBot {
    #[new]
    #[pyo3(signature = (seed = Seed(0)), text_signature = "(seed=0)")]
    fn new(seed: Seed) -> Self {
        RandomBot {
            inner: Mutex::new(bots::RandomBot::new(seed.0)),
        }
    }

    /// The bot's action in `state`; `SpielwerkError` if the game is over.
    fn step(&self, py: Python<'_>, state: &State) -> PyResult<Action> {
        let mut bot = lock(py, &self.inner);
        let held = state.lock(py);
        bot.step_dyn(held.state.as_ref()).ok_or_else(|| game_over(py))
    }
}

/// A bot made for one game by `spielwerk.bots.make(name, game, seed, **params)`. Its
/// decisions depend on its seed and the deciding seat's information state only.
#[pyclass(frozen, module = "spielwerk.bots")]
pub struct Bot {
    inner: Box<dyn DynBot>,
    game: Py<Game>,
}

#[pymethods]
impl Bot {
    /// The bot's name: `"ismcts"`, `"random"`.
    #[getter]
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    /// The level it was made as (`"strong"`), or `None` for a bot made by its own name.
    #[getter]
    fn level(&self) -> Option<&'static str> {
        self.inner.level()
    }

    /// The game the bot was made for.
    #[getter]
    fn game(&self, py: Python<'_>) -> Py<Game> {
        self.game.clone_ref(py)
    }

    #[getter]
    fn seed(&self) -> u64 {
        self.inner.seed()
    }

    /// Every parameter with its value, defaults included.
    #[getter]
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &Value::Object(self.inner.params()))
    }

    /// Whether a decision is a search whose work grows with its parameters (`ismcts`)
    /// rather than a rule-based answer in microseconds (`random`, `heuristic`): a server
    /// runs searches off its event loop.
    #[getter]
    fn searches(&self) -> bool {
        self.inner.searches()
    }

    /// The action of `seat` (default: the player to move) in `state`, from what that seat
    /// may see. Several seats may move only in Dog's exchange; a seat not to move, or a
    /// finished game, is a `SpielwerkError`. Runs without the GIL (the state is this
    /// call's until it returns).
    #[pyo3(signature = (state, seat = None))]
    fn step(&self, py: Python<'_>, state: &State, seat: Option<Int>) -> PyResult<Action> {
        let seat = state.seat(py, seat)?;
        let bot = self.inner.as_ref();
        let held = state.lock(py);
        let inner: &dyn DynState = held.state.as_ref();
        let chosen = py.detach(|| bot.step(inner, seat));
        drop(held);
        chosen.map_err(err(py))?.ok_or_else(|| game_over(py))
    }

    /// `[bot.step(s) for s in states]`, decided in parallel on all cores without the GIL;
    /// the same result whatever the threads did. Ctrl-C stops it (`KeyboardInterrupt`).
    fn step_many(&self, py: Python<'_>, states: &Bound<'_, PyAny>) -> PyResult<Vec<Action>> {
        // Each position as it is now, copied (a copy shares its history): the list may
        // name one state twice, and other threads need not wait for the whole batch.
        let mut held: Vec<Box<dyn DynState>> = Vec::new();
        for (i, item) in states.try_iter()?.enumerate() {
            let item = item?;
            let state = item.cast::<State>().map_err(|_| {
                PyTypeError::new_err(format!("states[{i}] is not a spielwerk.State: {}", shown(&item)))
            })?;
            held.push(state.get().lock(py).state.clone_box());
        }
        let inner: Vec<&dyn DynState> = held.iter().map(AsRef::as_ref).collect();
        let bot = self.inner.as_ref();
        let chosen = run_interruptibly(py, |stop| spielwerk_core::dynamic::step_many(bot, &inner, stop))?
            .map_err(err(py))?;
        chosen
            .into_iter()
            .enumerate()
            .map(|(i, a)| {
                a.ok_or_else(|| {
                    invalid_argument(
                        py,
                        spielwerk_core::msg!(
                            "states[{i}]: the game is over",
                            "states[{i}]: das Spiel ist vorbei"
                        ),
                    )
                })
            })
            .collect()
    }

    fn __repr__(&self) -> String {
        let params: Vec<String> = self
            .inner
            .params()
            .iter()
            .map(|(k, v)| match v {
                Value::Null => format!("{k}=None"),
                Value::String(text) => format!("{k}='{text}'"),
                other => format!("{k}={other}"),
            })
            .collect();
        let sep = if params.is_empty() { "" } else { ", " };
        if let Some(level) = self.inner.level() {
            return format!(
                "spielwerk.bots.make('{level}', {}, seed={})",
                self.game.get().__repr__(),
                self.inner.seed()
            );
        }
        format!(
            "spielwerk.bots.make('{}', {}, seed={}{sep}{})",
            self.inner.name(),
            self.game.get().__repr__(),
            self.inner.seed(),
            params.join(", ")
        )
    }
}

/// The names of the bots that play `game`, sorted.
#[pyfunction]
pub fn bot_names(py: Python<'_>, game: &Bound<'_, PyAny>) -> PyResult<Vec<&'static str>> {
    Ok(game_arg(py, game)?.get().inner.bot_names())
}

/// The levels of `game`, weakest first: each a dict of its `name`, the `bot` and `params`
/// that make it, its `rating` and its `cpu_ms_per_move` as the shipped ladder measured
/// them (`None` where not measured; The Game's at the game's player count).
#[pyfunction]
pub fn bot_levels<'py>(py: Python<'py>, game: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let game = game_arg(py, game)?;
    let (name, players) = (game.get().inner.name(), game.get().inner.num_players());
    bots::levels::levels(name)
        .into_iter()
        .map(|level| {
            let (rating, cpu) = bots::levels::measured(name, players, level.name);
            let entry = serde_json::json!({
                "name": level.name,
                "bot": level.bot,
                "params": level.params,
                "rating": rating,
                "cpu_ms_per_move": cpu,
            });
            to_py(py, &entry)
        })
        .collect()
}

/// What the shipped ladder measured of the bot or level `entry` of `game` (its rating or
/// The Game's figures, and its cost per move), as `(rating, cpu_ms_per_move)`.
#[pyfunction]
pub fn bot_rating<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    entry: Text,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let game = game_arg(py, game)?;
    let (name, players) = (game.get().inner.name(), game.get().inner.num_players());
    let (rating, cpu) = bots::levels::measured(name, players, entry.0);
    Ok((to_py(py, &rating)?, to_py(py, &cpu)?))
}

/// Makes the bot `name` for `game` with `seed` and its parameters as keywords; unknown
/// names (`unknown_bot`) and parameters (`invalid_bot_params`) are `SpielwerkError`s
/// naming the allowed ones.
#[pyfunction]
#[pyo3(signature = (name, game, seed = Seed(0), **params), text_signature = "(name, game, seed=0, **params)")]
pub fn make_bot(
    py: Python<'_>,
    name: Text,
    game: &Bound<'_, PyAny>,
    seed: Seed,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<Bot> {
    let game = game_arg(py, game)?;
    let params = kwargs_json(params, "bot parameters")?;
    let inner = game
        .get()
        .inner
        .make_bot(name.0, &params, seed.0)
        .map_err(err(py))?;
    Ok(Bot { inner, game })
}

/// One bot for an evaluation: a made bot, a name, or a `(name, params)` pair.
fn bot_arg(py: Python<'_>, game: &Game, item: &Bound<'_, PyAny>, i: usize) -> PyResult<Box<dyn DynBot>> {
    if let Ok(bot) = item.cast::<Bot>() {
        return Ok(bot.get().inner.clone_box());
    }
    let refuse = || {
        PyTypeError::new_err(format!(
            "bots[{i}] must be a bot from spielwerk.bots.make, a bot name or a (name, params) pair, got {}",
            shown(item)
        ))
    };
    if item.is_instance_of::<pyo3::types::PyString>() {
        let name: Text = item.extract()?;
        return game.inner.make_bot(name.0, &Map::new(), 0).map_err(err(py));
    }
    let (name, params): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item.extract().map_err(|_| refuse())?;
    if !name.is_instance_of::<pyo3::types::PyString>() {
        return Err(refuse());
    }
    let params = match to_json(&params, "bot parameters")? {
        Value::Object(m) => m,
        Value::Null => Map::new(),
        _ => return Err(refuse()),
    };
    let name: Text = name.extract()?;
    game.inner.make_bot(name.0, &params, 0).map_err(err(py))
}

/// Made bots for an evaluation, from what Python gave.
pub fn bots_arg(py: Python<'_>, game: &Game, bots: &Bound<'_, PyAny>) -> PyResult<Vec<Box<dyn DynBot>>> {
    let mut made = Vec::new();
    for (i, item) in bots.try_iter()?.enumerate() {
        made.push(bot_arg(py, game, &item?, i)?);
    }
    Ok(made)
}
