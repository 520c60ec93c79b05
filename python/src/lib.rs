//! Python bindings of spielwerk: types and errors are converted here, rules live in
//! `spielwerk-core`.

use numpy::PyArray1;
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use serde_json::{Map, Value};
use spielwerk_core::schotten_totten as st;
use spielwerk_core::{Action, DynGame, DynState, Error, bots};

create_exception!(
    spielwerk,
    IllegalActionError,
    PyValueError,
    "A well-formed action that the rules forbid here; the message names the ruling."
);

/// The value of `current_player()` once the game is over.
const TERMINAL: i64 = -4;

/// What `__reduce__` returns: a callable and its arguments.
type Reduce<'py, Args> = (Bound<'py, PyAny>, Args);

fn to_py_err(err: Error) -> PyErr {
    match err {
        Error::Illegal(e) => IllegalActionError::new_err(e.to_string()),
        other => PyValueError::new_err(other.to_string()),
    }
}

/// Seeds are Python ints in `0..2**64`; anything else gets a `ValueError` naming it.
struct Seed(u64);

impl<'a, 'py> FromPyObject<'a, 'py> for Seed {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Seed> {
        obj.extract::<u64>().map(Seed).map_err(|_| {
            let shown = obj.repr().map(|r| r.to_string()).unwrap_or_else(|_| "?".into());
            PyValueError::new_err(format!("seed {shown}: seeds are integers from 0 to 2**64 - 1"))
        })
    }
}

fn to_json(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Value> {
    pythonize::depythonize(obj).map_err(|e| {
        PyValueError::new_err(format!(
            "{what} must be JSON-like (dict, list, str, int, ...): {e}"
        ))
    })
}

fn to_py<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    pythonize::pythonize(py, value).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A rule set with its options: `spielwerk.load_game(name, **options)`.
#[pyclass(frozen, module = "spielwerk")]
struct Game {
    inner: Box<dyn DynGame>,
    /// The Python ints `0..num_distinct_actions()`, shared by every `legal_actions()` list.
    action_ints: Py<PyTuple>,
}

impl Game {
    fn create(py: Python<'_>, inner: Box<dyn DynGame>) -> PyResult<Py<Game>> {
        let action_ints = PyTuple::new(py, 0..inner.num_distinct_actions() as u32)?.unbind();
        Py::new(py, Game { inner, action_ints })
    }

    fn check_player(&self, player: i64) -> PyResult<usize> {
        let n = self.inner.num_players();
        usize::try_from(player).ok().filter(|&p| p < n).ok_or_else(|| {
            PyValueError::new_err(format!("player {player} does not exist: players are 0-{}", n - 1))
        })
    }
}

fn wrap_state(py: Python<'_>, game: &Py<Game>, inner: Box<dyn DynState>) -> PyResult<State> {
    Ok(State {
        inner,
        game: game.clone_ref(py),
        buf: Vec::new(),
    })
}

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

    fn num_players(&self) -> usize {
        self.inner.num_players()
    }

    fn num_distinct_actions(&self) -> usize {
        self.inner.num_distinct_actions()
    }

    /// Whether results count for a ranking: false once any house-rule variant is on.
    fn ranked(&self) -> bool {
        self.inner.ranked()
    }

    /// The seeded initial state: the same seed gives the same game on every machine.
    #[pyo3(signature = (seed = Seed(0)), text_signature = "(self, seed=0)")]
    fn new_initial_state(slf: &Bound<'_, Self>, seed: Seed) -> PyResult<State> {
        let state = slf.get().inner.new_initial_state(seed.0);
        wrap_state(slf.py(), &slf.clone().unbind(), state)
    }

    /// Reads a state written by `State.serialize()`.
    fn deserialize_state(slf: &Bound<'_, Self>, data: &str) -> PyResult<State> {
        let state = slf.get().inner.deserialize_state(data).map_err(to_py_err)?;
        wrap_state(slf.py(), &slf.clone().unbind(), state)
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduce<'py, (String, String)>> {
        let restore = py.import("spielwerk._spielwerk")?.getattr("_restore_game")?;
        let options = serde_json::to_string(&self.inner.options()).expect("options serialize");
        Ok((restore, (self.inner.name().to_string(), options)))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
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

    fn __repr__(&self) -> String {
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

/// A position of a game. Mutable: `apply_action` changes it in place.
#[pyclass(module = "spielwerk")]
struct State {
    inner: Box<dyn DynState>,
    game: Py<Game>,
    buf: Vec<Action>,
}

impl State {
    fn action(&self, action: i64) -> PyResult<Action> {
        let n = self.game.get().inner.num_distinct_actions();
        Action::try_from(action)
            .ok()
            .filter(|&a| (a as usize) < n)
            .ok_or_else(|| {
                IllegalActionError::new_err(format!("action {action} is outside the action space 0..{n}"))
            })
    }
}

#[pymethods]
impl State {
    /// The game this state belongs to.
    #[getter]
    fn game(&self, py: Python<'_>) -> Py<Game> {
        self.game.clone_ref(py)
    }

    /// The seat to move, or `spielwerk.TERMINAL` (-4) once the game is over.
    fn current_player(&self) -> i64 {
        self.inner.current_player().map_or(TERMINAL, |p| p as i64)
    }

    /// The legal actions, sorted ascending.
    fn legal_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.inner.legal_actions_into(&mut self.buf);
        let ints = self.game.get().action_ints.bind(py);
        PyList::new(
            py,
            self.buf
                .iter()
                .map(|&a| ints.get_borrowed_item(a as usize).expect("in range")),
        )
    }

    /// A numpy bool array of length `num_distinct_actions()`, true at legal actions.
    fn legal_actions_mask<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.inner.legal_actions_into(&mut self.buf);
        let mut mask = vec![false; self.game.get().inner.num_distinct_actions()];
        for &a in &self.buf {
            mask[a as usize] = true;
        }
        PyArray1::from_vec(py, mask)
    }

    /// Applies a legal action; an illegal one raises `IllegalActionError` and changes nothing.
    fn apply_action(&mut self, action: i64) -> PyResult<()> {
        let action = self.action(action)?;
        self.inner
            .apply_action(action)
            .map_err(|e| IllegalActionError::new_err(e.to_string()))
    }

    /// `None` if the move is legal, else the reason (naming the ruling). Changes nothing.
    #[pyo3(name = "check_move")]
    fn check_move(&self, r#move: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let mv = to_json(r#move, "a move")?;
        Ok(self
            .inner
            .check_move(&mv, None)
            .map_err(to_py_err)?
            .map(|e| e.to_string()))
    }

    fn action_to_string(&self, action: i64) -> PyResult<String> {
        Ok(self.inner.action_to_string(self.action(action)?))
    }

    fn action_to_json<'py>(&self, py: Python<'py>, action: i64) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.action_to_move(self.action(action)?))
    }

    fn action_from_json(&self, r#move: &Bound<'_, PyAny>) -> PyResult<Action> {
        let mv = to_json(r#move, "a move")?;
        self.inner.action_from_move(&mv).map_err(to_py_err)
    }

    fn is_terminal(&self) -> bool {
        self.inner.is_terminal()
    }

    /// Per-player returns (R1); zeros while the game runs.
    fn returns(&self) -> Vec<f64> {
        self.inner.returns()
    }

    fn history(&self) -> Vec<Action> {
        self.inner.history().to_vec()
    }

    /// The history as `player` saw it: `None` for an action hidden from them.
    fn history_for(&self, player: i64) -> PyResult<Vec<Option<Action>>> {
        Ok(self.inner.history_for(self.game.get().check_player(player)?))
    }

    /// Exactly what `player` may see, JSON-ready.
    fn view<'py>(&self, py: Python<'py>, player: i64) -> PyResult<Bound<'py, PyAny>> {
        let player = self.game.get().check_player(player)?;
        to_py(py, &self.inner.view(player))
    }

    /// The cards in `player`'s hand (for analyses and tests: this is hidden information).
    fn hand(&self, player: i64) -> PyResult<Vec<String>> {
        Ok(self.inner.hand(self.game.get().check_player(player)?))
    }

    /// A full state with the same `view(player)`, the cards hidden from `player` dealt anew.
    fn resample(&self, py: Python<'_>, player: i64, seed: Seed) -> PyResult<State> {
        let player = self.game.get().check_player(player)?;
        wrap_state(
            py,
            &self.game,
            self.inner.resample(player, seed.0).map_err(to_py_err)?,
        )
    }

    fn clone(&self, py: Python<'_>) -> PyResult<State> {
        wrap_state(py, &self.game, self.inner.clone_box())
    }

    fn __copy__(&self, py: Python<'_>) -> PyResult<State> {
        self.clone(py)
    }

    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> PyResult<State> {
        self.clone(py)
    }

    /// The whole state as JSON (hidden information included).
    fn serialize(&self) -> String {
        self.inner.to_json()
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduce<'py, (Py<Game>, String)>> {
        let restore = py.import("spielwerk._spielwerk")?.getattr("_restore_state")?;
        Ok((restore, (self.game.clone_ref(py), self.inner.to_json())))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<State>().is_ok_and(|o| {
            let o = o.borrow();
            o.game.get().__eq__(self.game.bind(other.py()).as_any())
                && o.inner.to_json() == self.inner.to_json()
        })
    }

    fn __str__(&self) -> String {
        self.inner.render()
    }

    fn __repr__(&self) -> String {
        let game = self.game.get().inner.name();
        format!(
            "<spielwerk.State {game} after {} actions>",
            self.inner.history().len()
        )
    }
}

/// Chooses uniformly among the legal actions, from its own seeded generator.
#[pyclass(module = "spielwerk")]
struct RandomBot {
    inner: bots::RandomBot,
}

#[pymethods]
impl RandomBot {
    #[new]
    #[pyo3(signature = (seed = Seed(0)), text_signature = "(seed=0)")]
    fn new(seed: Seed) -> Self {
        RandomBot {
            inner: bots::RandomBot::new(seed.0),
        }
    }

    /// The bot's action in `state`; `ValueError` if the game is over.
    fn step(&mut self, state: &State) -> PyResult<Action> {
        self.inner
            .step_dyn(state.inner.as_ref())
            .ok_or_else(|| PyValueError::new_err("the game is over: there is no action to choose"))
    }
}

/// What a batch of random games came to.
#[pyclass(frozen, module = "spielwerk", get_all)]
struct SimulationSummary {
    games: u64,
    wins: Vec<u64>,
    draws: u64,
    mean_length: f64,
    mean_returns: Vec<f64>,
}

#[pymethods]
impl SimulationSummary {
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("games", self.games)?;
        d.set_item("wins", self.wins.clone())?;
        d.set_item("draws", self.draws)?;
        d.set_item("mean_length", self.mean_length)?;
        d.set_item("mean_returns", self.mean_returns.clone())?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!(
            "SimulationSummary(games={}, wins={:?}, draws={}, mean_length={:.2}, mean_returns={:?})",
            self.games, self.wins, self.draws, self.mean_length, self.mean_returns
        )
    }
}

fn options_from_kwargs(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Map<String, Value>> {
    match kwargs {
        None => Ok(Map::new()),
        Some(k) => match to_json(k.as_any(), "options")? {
            Value::Object(m) => Ok(m),
            _ => unreachable!("a dict converts to a JSON object"),
        },
    }
}

/// The names of the games available, sorted.
#[pyfunction]
fn list_games() -> Vec<&'static str> {
    spielwerk_core::list_games()
}

/// Loads a game by name with its options as keywords.
#[pyfunction]
#[pyo3(signature = (name, **options))]
fn load_game(py: Python<'_>, name: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<Py<Game>> {
    let options = options_from_kwargs(options)?;
    Game::create(py, spielwerk_core::load_game(name, &options).map_err(to_py_err)?)
}

#[pyfunction]
fn _restore_game(py: Python<'_>, name: &str, options: &str) -> PyResult<Py<Game>> {
    let options: Map<String, Value> =
        serde_json::from_str(options).map_err(|e| PyValueError::new_err(format!("options: {e}")))?;
    Game::create(py, spielwerk_core::load_game(name, &options).map_err(to_py_err)?)
}

#[pyfunction]
fn _restore_state(game: &Bound<'_, Game>, data: &str) -> PyResult<State> {
    Game::deserialize_state(game, data)
}

/// Plays `n_games` uniformly random games in Rust on `threads` threads (all cores if
/// None), without the GIL. The result depends on `seed` only, never on `threads`.
#[pyfunction]
#[pyo3(
    signature = (game, n_games, seed = Seed(0), threads = None),
    text_signature = "(game, n_games, seed=0, threads=None)"
)]
fn simulate(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    n_games: u64,
    seed: Seed,
    threads: Option<usize>,
) -> PyResult<SimulationSummary> {
    let loaded;
    let game: &dyn DynGame = if let Ok(g) = game.cast::<Game>() {
        loaded = g.get().inner.clone_box();
        loaded.as_ref()
    } else {
        let name: String = game
            .extract()
            .map_err(|_| PyValueError::new_err("game must be a game name (str) or a spielwerk.Game"))?;
        loaded = spielwerk_core::load_game(&name, &Map::new()).map_err(to_py_err)?;
        loaded.as_ref()
    };
    let s = py
        .detach(|| game.simulate(n_games, seed.0, threads, &|| false))
        .map_err(to_py_err)?;
    Ok(SimulationSummary {
        games: s.games,
        wins: s.wins,
        draws: s.draws,
        mean_length: s.mean_length,
        mean_returns: s.mean_returns,
    })
}

/// The outcome of a Schotten Totten claim proof (S5) with the best reachable formation (S6).
#[pyclass(frozen, module = "spielwerk.schotten_totten", get_all)]
struct ClaimCheck {
    provable: bool,
    mine_formation: &'static str,
    mine_sum: u8,
    best_cards: Option<Vec<String>>,
    best_formation: Option<&'static str>,
    best_sum: Option<u8>,
}

#[pymethods]
impl ClaimCheck {
    fn __repr__(&self) -> String {
        fn py_repr<T: std::fmt::Debug>(value: &Option<T>) -> String {
            value
                .as_ref()
                .map_or("None".into(), |v| format!("{v:?}").replace('"', "'"))
        }
        format!(
            "ClaimCheck(provable={}, mine_formation='{}', mine_sum={}, best_cards={}, best_formation={}, best_sum={})",
            if self.provable { "True" } else { "False" },
            self.mine_formation,
            self.mine_sum,
            py_repr(&self.best_cards),
            py_repr(&self.best_formation),
            py_repr(&self.best_sum)
        )
    }
}

#[pyfunction]
fn st_formation(cards: Vec<String>) -> PyResult<(&'static str, u8)> {
    let f = st::formation_notation(&cards).map_err(to_py_err)?;
    Ok((f.kind.name(), f.sum))
}

#[pyfunction]
#[pyo3(signature = (mine, theirs, table, mine_completed_first = true))]
fn st_check_claim(
    mine: Vec<String>,
    theirs: Vec<String>,
    table: Vec<String>,
    mine_completed_first: bool,
) -> PyResult<ClaimCheck> {
    let c = st::check_claim_notation(&mine, &theirs, &table, mine_completed_first).map_err(to_py_err)?;
    Ok(ClaimCheck {
        provable: c.provable,
        mine_formation: c.mine.kind.name(),
        mine_sum: c.mine.sum,
        best_cards: c.best.map(|b| b.cards.iter().map(|c| c.to_string()).collect()),
        best_formation: c.best.map(|b| b.formation.kind.name()),
        best_sum: c.best.map(|b| b.formation.sum),
    })
}

/// T7: does `text` name a number in any form (digits, German or English number words)?
#[pyfunction]
fn tg_mentions_number(text: &str) -> bool {
    spielwerk_core::the_game::mentions_number(text)
}

#[pymodule(gil_used = false)]
fn _spielwerk(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("TERMINAL", TERMINAL)?;
    m.add("IllegalActionError", m.py().get_type::<IllegalActionError>())?;
    m.add_class::<Game>()?;
    m.add_class::<State>()?;
    m.add_class::<RandomBot>()?;
    m.add_class::<SimulationSummary>()?;
    m.add_class::<ClaimCheck>()?;
    m.add_function(wrap_pyfunction!(list_games, m)?)?;
    m.add_function(wrap_pyfunction!(load_game, m)?)?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(st_formation, m)?)?;
    m.add_function(wrap_pyfunction!(st_check_claim, m)?)?;
    m.add_function(wrap_pyfunction!(tg_mentions_number, m)?)?;
    m.add_function(wrap_pyfunction!(_restore_game, m)?)?;
    m.add_function(wrap_pyfunction!(_restore_state, m)?)?;
    Ok(())
}
