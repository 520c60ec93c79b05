//! Python bindings of spielwerk: types and errors are converted here, rules live in
//! `spielwerk-core`.
//!
//! Everything that comes from Python is checked before it reaches the engine: JSON-like
//! objects are converted with a bound on their nesting depth, integers out of range are a
//! `ValueError`, and every engine error becomes an exception of the `SpielwerkError`
//! family (`spielwerk.errors`) carrying its code, ruling and reasons.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use numpy::PyArray1;
use pyo3::exceptions::{PyKeyboardInterrupt, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Value};
use spielwerk_core::dynamic::DynBot;
use spielwerk_core::schotten_totten as st;
use spielwerk_core::{Action, DynGame, DynState, Error, IllegalAction, bots, compact, snapshot};

/// The value of `current_player()` once the game is over.
const TERMINAL: i64 = -4;

/// How deeply JSON-like input may nest. Moves and options are flat, views a few levels
/// deep; anything deeper is refused before it can exhaust the stack.
const MAX_DEPTH: usize = 64;

/// What `__reduce__` returns: a callable and its arguments.
type Reduce<'py, Args> = (Bound<'py, PyAny>, Args);
/// What a state pickles to: its game, its snapshot and the seed of its deal, if any.
type StateReduce<'py> = Reduce<'py, (Py<Game>, Bound<'py, PyBytes>, Option<u64>)>;

thread_local! {
    /// The scratch list of legal actions, so that read-only calls need no `&mut self`.
    static ACTIONS: RefCell<Vec<Action>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with this thread's scratch list of actions.
fn with_actions<R>(f: impl FnOnce(&mut Vec<Action>) -> R) -> R {
    ACTIONS.with(|buf| f(&mut buf.borrow_mut()))
}

// --- Errors ---------------------------------------------------------------------------

/// An exception class of `spielwerk.errors` built with its keyword fields.
fn spielwerk_error<'py>(
    py: Python<'py>,
    class: &str,
    message: &str,
    code: &str,
    rejection: Option<&IllegalAction>,
) -> PyResult<Bound<'py, PyAny>> {
    let class = py.import("spielwerk.errors")?.getattr(class)?;
    let kwargs = PyDict::new(py);
    kwargs.set_item("code", code)?;
    if let Some(r) = rejection {
        kwargs.set_item("rule", r.rule)?;
        kwargs.set_item("params", to_py(py, &Value::Object(r.params.clone()))?)?;
        kwargs.set_item("reason", &r.reason)?;
        kwargs.set_item("reason_de", &r.reason_de)?;
    }
    class.call((message,), Some(&kwargs))
}

/// A rejection as an `IllegalActionError` instance (returned by `check_move`, raised by
/// `apply_action`). Its `str()` is `"{rule}: {reason}"`.
fn rejection<'py>(py: Python<'py>, e: &IllegalAction) -> PyResult<Bound<'py, PyAny>> {
    spielwerk_error(py, "IllegalActionError", &e.to_string(), e.code, Some(e))
}

fn raise(py: Python<'_>, err: Error) -> PyErr {
    let class = match &err {
        Error::UnknownGame { .. } => "UnknownGameError",
        Error::InvalidOption { .. } => "InvalidOptionError",
        Error::InvalidState(_) | Error::InvalidView(_) => "InvalidStateError",
        Error::InvalidMove(_) | Error::InvalidCard { .. } => "InvalidMoveError",
        Error::Illegal(e) => return raise_illegal(py, e),
        Error::Interrupted => return PyKeyboardInterrupt::new_err("simulation interrupted"),
        Error::InvalidArgument(_) | Error::UnknownBot { .. } | Error::InvalidBotParams(_) => "SpielwerkError",
    };
    match spielwerk_error(py, class, &cut(&err.to_string()), err.code(), None) {
        Ok(exc) => PyErr::from_value(exc),
        Err(e) => e,
    }
}

/// A message cut to a length a log line or an HTTP body can carry: only a message that
/// repeats caller input can be this long.
fn cut(message: &str) -> String {
    const LONGEST: usize = 600;
    match message.char_indices().nth(LONGEST) {
        None => message.to_string(),
        Some((at, _)) => format!("{}… (cut)", &message[..at]),
    }
}

fn raise_illegal(py: Python<'_>, e: &IllegalAction) -> PyErr {
    match rejection(py, e) {
        Ok(exc) => PyErr::from_value(exc),
        Err(err) => err,
    }
}

/// Maps an engine error to its exception (for `map_err`, where `py` is at hand).
fn err(py: Python<'_>) -> impl Fn(Error) -> PyErr + '_ {
    move |e| raise(py, e)
}

fn invalid_argument(py: Python<'_>, message: String) -> PyErr {
    raise(py, Error::InvalidArgument(message))
}

// --- Arguments ------------------------------------------------------------------------

/// Shows a Python object in an error message, cut short.
fn shown(obj: &Bound<'_, PyAny>) -> String {
    let repr = obj.repr().map(|r| r.to_string()).unwrap_or_else(|_| "?".into());
    spielwerk_core::error::shorten(&repr)
}

/// An integer argument: a Python int or anything with `__index__` (numpy integers).
/// Out of `i64` range is a `ValueError`, not an `OverflowError`; a non-integer a
/// `TypeError`.
struct Int(i64);

impl<'a, 'py> FromPyObject<'a, 'py> for Int {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Int> {
        if let Ok(i) = obj.extract::<i64>() {
            return Ok(Int(i));
        }
        let obj = obj.to_owned();
        if obj.is_instance_of::<PyInt>() || obj.hasattr("__index__").unwrap_or(false) {
            Err(PyValueError::new_err(format!(
                "{} is out of range: expected an integer from -2**63 to 2**63 - 1",
                shown(&obj)
            )))
        } else {
            Err(PyTypeError::new_err(format!(
                "expected an integer, got {} of type {}",
                shown(&obj),
                obj.get_type().name().map(|n| n.to_string()).unwrap_or_default()
            )))
        }
    }
}

/// Seeds are integers in `0..2**64` (numpy integers too); anything else gets a
/// `ValueError` naming it.
struct Seed(u64);

impl<'a, 'py> FromPyObject<'a, 'py> for Seed {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Seed> {
        obj.extract::<u64>().map(Seed).map_err(|_| {
            PyValueError::new_err(format!(
                "seed {}: seeds are integers from 0 to 2**64 - 1",
                shown(&obj.to_owned())
            ))
        })
    }
}

/// Converts a JSON-like Python object (dict with str keys, list, tuple, str, int, float,
/// bool, None; numpy integers as ints) into JSON, refusing anything else and any nesting
/// deeper than [`MAX_DEPTH`].
fn to_json(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Value> {
    fn convert(obj: &Bound<'_, PyAny>, depth: usize, what: &str) -> PyResult<Value> {
        let refuse = |why: String| {
            let message = format!("{what} must be JSON-like: {why}");
            // The error of the family that fits what was being read.
            let error = match what {
                "a move" => Error::InvalidMove(message),
                "a view" => Error::InvalidView(message),
                "options" => Error::InvalidOption {
                    game: "this game",
                    message,
                },
                _ => Error::InvalidArgument(message),
            };
            raise(obj.py(), error)
        };
        if depth > MAX_DEPTH {
            return Err(refuse(format!("it nests deeper than {MAX_DEPTH} levels")));
        }
        // The common JSON types first, by exact type checks; the `__index__` probe for
        // numpy integers last (a failed attribute lookup costs a raised exception).
        if obj.is_none() {
            Ok(Value::Null)
        } else if let Ok(b) = obj.cast::<PyBool>() {
            Ok(Value::Bool(b.is_true()))
        } else if let Ok(s) = obj.cast::<PyString>() {
            Ok(Value::String(s.to_str()?.to_owned()))
        } else if let Ok(d) = obj.cast::<PyDict>() {
            let mut map = Map::new();
            for (k, v) in d.iter() {
                let key = k
                    .cast::<PyString>()
                    .map_err(|_| refuse(format!("the key {} is not a string", shown(&k))))?;
                map.insert(key.to_str()?.to_owned(), convert(&v, depth + 1, what)?);
            }
            Ok(Value::Object(map))
        } else if let Ok(l) = obj.cast::<PyList>() {
            l.iter().map(|v| convert(&v, depth + 1, what)).collect()
        } else if let Ok(f) = obj.cast::<PyFloat>() {
            serde_json::Number::from_f64(f.value())
                .map(Value::Number)
                .ok_or_else(|| refuse(format!("{} is not a finite number", shown(obj))))
        } else if let Ok(t) = obj.cast::<PyTuple>() {
            t.iter().map(|v| convert(&v, depth + 1, what)).collect()
        } else if obj.is_instance_of::<PyInt>() || obj.hasattr("__index__")? {
            if let Ok(i) = obj.extract::<i64>() {
                Ok(Value::from(i))
            } else if let Ok(u) = obj.extract::<u64>() {
                Ok(Value::from(u))
            } else {
                Err(refuse(format!(
                    "the integer {} is out of range (-2**63 to 2**64 - 1)",
                    shown(obj)
                )))
            }
        } else {
            Err(refuse(format!(
                "{} of type {} is not a dict, list, str, int, float, bool or None",
                shown(obj),
                obj.get_type().name().map(|n| n.to_string()).unwrap_or_default()
            )))
        }
    }
    convert(obj, 0, what)
}

fn to_py<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    pythonize::pythonize(py, value).map_err(|e| PyValueError::new_err(e.to_string()))
}

// --- Game -----------------------------------------------------------------------------

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

    fn check_player(&self, py: Python<'_>, player: Int) -> PyResult<usize> {
        let n = self.inner.num_players();
        usize::try_from(player.0).ok().filter(|&p| p < n).ok_or_else(|| {
            invalid_argument(
                py,
                format!("player {} does not exist: players are 0-{}", player.0, n - 1),
            )
        })
    }
}

impl Game {
    /// `deserialize_state` and unpickling: a snapshot (`bytes`), else JSON or a compact
    /// record. `seed` is the deal's seed a pickled snapshot claims (checked when it is
    /// first used, [`Deal::Claimed`]); a compact record names its own and is replayed.
    fn read_state(slf: &Bound<'_, Self>, data: &Bound<'_, PyAny>, seed: Option<u64>) -> PyResult<State> {
        let py = slf.py();
        let game = slf.get().inner.as_ref();
        let text = if let Ok(bytes) = data.cast::<PyBytes>() {
            let bytes = bytes.as_bytes();
            if snapshot::is_snapshot(bytes) {
                let state = game.deserialize_snapshot(bytes).map_err(err(py))?;
                let deal = seed.map_or(Deal::Unknown, Deal::Claimed);
                return Ok(wrap_state(py, &slf.clone().unbind(), state, deal));
            }
            std::str::from_utf8(bytes).map_err(|_| {
                raise(
                    py,
                    Error::InvalidState("bytes that are neither a snapshot nor UTF-8 JSON".into()),
                )
            })?
        } else if let Ok(text) = data.cast::<PyString>() {
            text.to_str()?
        } else {
            return Err(PyTypeError::new_err(format!(
                "a serialized state is a str (JSON) or bytes (a snapshot), not {}",
                data.get_type().name()?
            )));
        };
        let (deal, state) = if compact::is_compact(text) {
            let (seed, state) = compact::read(game, text).map_err(err(py))?;
            (Deal::Seed(seed), state)
        } else {
            (Deal::Unknown, game.deserialize_state(text).map_err(err(py))?)
        };
        Ok(wrap_state(py, &slf.clone().unbind(), state, deal))
    }
}

fn wrap_state(py: Python<'_>, game: &Py<Game>, inner: Box<dyn DynState>, deal: Deal) -> State {
    State {
        inner,
        game: game.clone_ref(py),
        deal,
    }
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

    /// Every option the game takes: name, type, default, allowed values, description and,
    /// for Caravan's variants, the seed's German name.
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

    /// How returns relate: "zero_sum", "team_zero_sum" or "cooperative".
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
        wrap_state(slf.py(), &slf.clone().unbind(), state, Deal::Seed(seed.0))
    }

    /// Reads a state written by `State.serialize()` or `State.serialize_compact()` (a
    /// `str`), or by `State.serialize_snapshot()` (`bytes`); an inconsistent one raises
    /// `InvalidStateError`. Bytes that are no snapshot are read as UTF-8 JSON.
    fn deserialize_state(slf: &Bound<'_, Self>, data: &Bound<'_, PyAny>) -> PyResult<State> {
        Self::read_state(slf, data, None)
    }

    /// A full state whose view for the view's seat equals `view`, with every card that
    /// seat cannot see dealt at random from `seed`.
    #[pyo3(signature = (view, seed = Seed(0)), text_signature = "(self, view, seed=0)")]
    fn state_from_view(slf: &Bound<'_, Self>, view: &Bound<'_, PyAny>, seed: Seed) -> PyResult<State> {
        let py = slf.py();
        let view = to_json(view, "a view")?;
        let state = slf.get().inner.state_from_view(&view, seed.0).map_err(err(py))?;
        Ok(wrap_state(py, &slf.clone().unbind(), state, Deal::Unknown))
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

// --- State ----------------------------------------------------------------------------

/// A position of a game. Mutable: `apply_action` changes it in place; every other
/// method only reads it.
#[pyclass(module = "spielwerk")]
struct State {
    inner: Box<dyn DynState>,
    game: Py<Game>,
    /// Where the state was dealt from, for its compact form.
    deal: Deal,
}

/// Where a state's deal comes from: a seed makes seed and history a description of the
/// whole state (its compact form).
#[derive(Clone, Copy, Debug)]
enum Deal {
    /// Read from JSON or a snapshot, or built from a view: no compact form.
    Unknown,
    /// Dealt from this seed by `new_initial_state` or replayed from a compact record.
    Seed(u64),
    /// The seed a pickle names. A pickle may come from anyone and is not replayed on
    /// loading (the snapshot makes that unnecessary), so the seed is checked by replaying
    /// on the first `serialize_compact()`: a forged one would write a record of another game.
    Claimed(u64),
}

impl Deal {
    fn seed(self) -> Option<u64> {
        match self {
            Deal::Unknown => None,
            Deal::Seed(seed) | Deal::Claimed(seed) => Some(seed),
        }
    }
}

impl State {
    fn action(&self, py: Python<'_>, action: Int) -> PyResult<Action> {
        let n = self.game.get().inner.num_distinct_actions();
        Action::try_from(action.0)
            .ok()
            .filter(|&a| (a as usize) < n)
            .ok_or_else(|| raise_illegal(py, &IllegalAction::no_such_action(action.0, n)))
    }

    fn seat(&self, py: Python<'_>, seat: Option<Int>) -> PyResult<Option<usize>> {
        seat.map(|s| self.game.get().check_player(py, s)).transpose()
    }

    /// The view of `seat` (`None`: the public view) as Python objects. (Through a JSON
    /// value: pythonize would turn fixed-size arrays into tuples, and views are JSON.)
    fn view_py<'py>(&self, py: Python<'py>, seat: Option<usize>) -> PyResult<Bound<'py, PyAny>> {
        match seat {
            Some(p) => to_py(py, &self.inner.view(p)),
            None => to_py(py, &self.inner.public_view()),
        }
    }

    /// The legal actions of `seat` (the current player if `None`) in `buf`.
    fn legal_into(&self, seat: Option<usize>, buf: &mut Vec<Action>) {
        match seat {
            Some(s) => self.inner.legal_actions_for(s, buf),
            None => self.inner.legal_actions_into(buf),
        }
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

    /// Every seat that may move now (several during Dog's exchange); empty once over.
    fn seats_to_move(&self) -> Vec<usize> {
        self.inner.seats_to_move()
    }

    /// The legal actions of `seat` (default: the current player), sorted ascending.
    #[pyo3(signature = (seat = None))]
    fn legal_actions<'py>(&self, py: Python<'py>, seat: Option<Int>) -> PyResult<Bound<'py, PyList>> {
        let seat = self.seat(py, seat)?;
        let ints = self.game.get().action_ints.bind(py);
        with_actions(|buf| {
            self.legal_into(seat, buf);
            PyList::new(
                py,
                buf.iter()
                    .map(|&a| ints.get_borrowed_item(a as usize).expect("in range")),
            )
        })
    }

    /// A numpy bool array of length `num_distinct_actions()`, true at legal actions.
    #[pyo3(signature = (seat = None))]
    fn legal_actions_mask<'py>(
        &self,
        py: Python<'py>,
        seat: Option<Int>,
    ) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let seat = self.seat(py, seat)?;
        let mut mask = vec![false; self.game.get().inner.num_distinct_actions()];
        with_actions(|buf| {
            self.legal_into(seat, buf);
            for &a in buf.iter() {
                mask[a as usize] = true;
            }
        });
        Ok(PyArray1::from_vec(py, mask))
    }

    /// Every legal move in one call: `[{"action": int, "move": dict, "text": str}]`.
    #[pyo3(signature = (seat = None))]
    fn legal_moves<'py>(&self, py: Python<'py>, seat: Option<Int>) -> PyResult<Bound<'py, PyList>> {
        let seat = self.seat(py, seat)?;
        let actions = with_actions(|buf| {
            self.legal_into(seat, buf);
            buf.clone()
        });
        let list = PyList::empty(py);
        for a in actions {
            let d = PyDict::new(py);
            d.set_item("action", a)?;
            d.set_item("move", to_py(py, &self.inner.action_to_move(a))?)?;
            d.set_item("text", self.inner.action_to_string(a))?;
            list.append(d)?;
        }
        Ok(list)
    }

    /// Applies a legal action of `seat` (default: the current player); an illegal one
    /// raises `IllegalActionError` and changes nothing.
    #[pyo3(signature = (action, seat = None))]
    fn apply_action(&mut self, py: Python<'_>, action: Int, seat: Option<Int>) -> PyResult<()> {
        let action = self.action(py, action)?;
        let result = match self.seat(py, seat)? {
            Some(s) => self.inner.apply_action_for(s, action),
            None => self.inner.apply_action(action),
        };
        result.map_err(|e| raise_illegal(py, &e))
    }

    /// `None` if the move is legal for `seat` (default: the current player), else the
    /// rejection: an `IllegalActionError` (not raised) with `rule`, `code`, `params`,
    /// `reason` and `reason_de`. A malformed move raises `InvalidMoveError`. Changes nothing.
    #[pyo3(signature = (r#move, seat = None))]
    fn check_move<'py>(
        &self,
        py: Python<'py>,
        r#move: &Bound<'py, PyAny>,
        seat: Option<Int>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let seat = self.seat(py, seat)?;
        let mv = to_json(r#move, "a move")?;
        match self.inner.check_move(&mv, seat).map_err(err(py))? {
            None => Ok(None),
            Some(e) => Ok(Some(rejection(py, &e)?)),
        }
    }

    fn action_to_string(&self, py: Python<'_>, action: Int) -> PyResult<String> {
        Ok(self.inner.action_to_string(self.action(py, action)?))
    }

    fn action_to_json<'py>(&self, py: Python<'py>, action: Int) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.action_to_move(self.action(py, action)?))
    }

    fn action_from_json(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<Action> {
        let mv = to_json(r#move, "a move")?;
        self.inner.action_from_move(&mv).map_err(err(py))
    }

    fn is_terminal(&self) -> bool {
        self.inner.is_terminal()
    }

    /// Per-player returns (R1); zeros while the game runs.
    fn returns(&self) -> Vec<f64> {
        self.inner.returns()
    }

    /// Per-player rewards of the last action; summed over the game they are `returns()`.
    fn rewards(&self) -> Vec<f64> {
        self.inner.rewards()
    }

    /// The result in one line for people, or `None` while the game runs.
    fn result_text(&self) -> Option<String> {
        self.inner.result_text()
    }

    fn history(&self) -> Vec<Action> {
        self.inner.history().to_vec()
    }

    /// The history as `player` saw it: `None` for an action hidden from them.
    fn history_for(&self, py: Python<'_>, player: Int) -> PyResult<Vec<Option<Action>>> {
        Ok(self.inner.history_for(self.game.get().check_player(py, player)?))
    }

    /// Exactly what `player` may see, JSON-ready.
    fn view<'py>(&self, py: Python<'py>, player: Int) -> PyResult<Bound<'py, PyAny>> {
        let player = self.game.get().check_player(py, player)?;
        self.view_py(py, Some(player))
    }

    /// What every seat may see (for spectators), JSON-ready.
    fn public_view<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.view_py(py, None)
    }

    /// The view of `player` (the public view if `None`) as compact JSON bytes.
    fn view_json<'py>(&self, py: Python<'py>, player: Option<Int>) -> PyResult<Bound<'py, PyBytes>> {
        let seat = self.seat(py, player)?;
        Ok(PyBytes::new(py, &self.inner.view_json(seat)))
    }

    /// Bytes equal exactly when `view(player)` is equal (hashable: a dict key for search).
    fn information_state_key<'py>(&self, py: Python<'py>, player: Int) -> PyResult<Bound<'py, PyBytes>> {
        let player = self.game.get().check_player(py, player)?;
        Ok(PyBytes::new(py, &self.inner.information_state_key(player)))
    }

    /// The cards in `player`'s hand (for analyses and tests: this is hidden information).
    fn hand(&self, py: Python<'_>, player: Int) -> PyResult<Vec<String>> {
        Ok(self.inner.hand(self.game.get().check_player(py, player)?))
    }

    /// How the match ends if a match rule stops it now (C11; Dog's playing time, D13):
    /// `kind` is one of aborted, left, no_move, playing_time, resigned, time, `seat` the
    /// seat it concerns (none for playing_time). A dict with `returns` (R1), `points`
    /// (D13's, or None) and `text`; the state does not change.
    #[pyo3(signature = (kind, seat=None))]
    fn match_ending<'py>(
        &self,
        py: Python<'py>,
        kind: &str,
        seat: Option<Int>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let seat = seat.map(|s| self.game.get().check_player(py, s)).transpose()?;
        let end = spielwerk_core::game::MatchEnd::parse(kind, seat).map_err(err(py))?;
        let ending = self.inner.match_ending(end);
        let out = PyDict::new(py);
        out.set_item("returns", ending.returns)?;
        out.set_item("points", ending.points.map(|p| p.to_vec()))?;
        out.set_item("text", ending.text)?;
        Ok(out)
    }

    /// Exactly `game.state_from_view(view(player), seed)`: the same position with the
    /// cards hidden from `player` dealt anew; it depends on nothing `player` cannot see.
    fn resample(&self, py: Python<'_>, player: Int, seed: Seed) -> PyResult<State> {
        let player = self.game.get().check_player(py, player)?;
        let state = self.inner.resample(player, seed.0).map_err(err(py))?;
        Ok(wrap_state(py, &self.game, state, Deal::Unknown))
    }

    fn clone(&self, py: Python<'_>) -> State {
        wrap_state(py, &self.game, self.inner.clone_box(), self.deal)
    }

    fn __copy__(&self, py: Python<'_>) -> State {
        self.clone(py)
    }

    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> State {
        self.clone(py)
    }

    /// The whole state as JSON (hidden information included).
    fn serialize(&self) -> String {
        self.inner.to_json()
    }

    /// The compact form: seed, options and actions as JSON, replayed by
    /// `Game.deserialize_state`. Only for states dealt from a seed (`new_initial_state`
    /// and what follows from it by `apply_action`); others raise `SpielwerkError`. An
    /// unpickled state's seed is checked by replaying it the first time (a seed that does
    /// not deal the state raises `InvalidStateError`).
    fn serialize_compact(&mut self, py: Python<'_>) -> PyResult<String> {
        let game = self.game.get().inner.as_ref();
        match self.deal {
            Deal::Seed(seed) => Ok(compact::write(game, seed, self.inner.as_ref())),
            Deal::Claimed(seed) => {
                let record = compact::write(game, seed, self.inner.as_ref());
                let replayed = compact::read(game, &record)
                    .ok()
                    .map(|(_, state)| state.to_snapshot());
                if replayed != Some(self.inner.to_snapshot()) {
                    return Err(raise(
                        py,
                        Error::InvalidState(format!(
                            "the pickle's deal seed {seed} does not deal this state (its actions \
                             replayed from that seed do not lead to it), so it has no compact form; \
                             use serialize() or serialize_snapshot()"
                        )),
                    ));
                }
                self.deal = Deal::Seed(seed);
                Ok(record)
            }
            Deal::Unknown => Err(invalid_argument(
                py,
                "this state was not dealt from a seed (it was read from JSON or built from a view), \
                 so it has no compact form; use serialize()"
                    .into(),
            )),
        }
    }

    /// The whole state as a binary snapshot (`bytes`, a few hundred): read back by
    /// `Game.deserialize_state` without replaying anything, checked like JSON.
    fn serialize_snapshot<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.inner.to_snapshot())
    }

    /// Pickles as a snapshot (checked whole on unpickling, like JSON), with the seed of
    /// the deal if there is one, so that `serialize_compact()` still works afterwards.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<StateReduce<'py>> {
        let restore = py.import("spielwerk._spielwerk")?.getattr("_restore_state")?;
        Ok((
            restore,
            (
                self.game.clone_ref(py),
                self.serialize_snapshot(py),
                self.deal.seed(),
            ),
        ))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        // Snapshots are equal exactly when the states are (every field, in one layout).
        other.cast::<State>().is_ok_and(|o| {
            let o = o.borrow();
            o.game.get().__eq__(self.game.bind(other.py()).as_any())
                && o.inner.to_snapshot() == self.inner.to_snapshot()
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

// --- Bots and simulation --------------------------------------------------------------

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
    fn step(&mut self, py: Python<'_>, state: &State) -> PyResult<Action> {
        self.inner
            .step_dyn(state.inner.as_ref())
            .ok_or_else(|| invalid_argument(py, "the game is over: there is no action to choose".into()))
    }
}

/// What a batch of random games came to, counted as the game's utility says.
#[pyclass(frozen, module = "spielwerk", get_all)]
struct SimulationSummary {
    utility: &'static str,
    games: u64,
    wins: Vec<u64>,
    draws: u64,
    mean_length: f64,
    mean_returns: Vec<f64>,
    team_wins: Vec<u64>,
    perfect_games: u64,
    cards_left: Vec<u64>,
    mean_cards_left: f64,
}

#[pymethods]
impl SimulationSummary {
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("utility", self.utility)?;
        d.set_item("games", self.games)?;
        d.set_item("wins", self.wins.clone())?;
        d.set_item("draws", self.draws)?;
        d.set_item("mean_length", self.mean_length)?;
        d.set_item("mean_returns", self.mean_returns.clone())?;
        d.set_item("team_wins", self.team_wins.clone())?;
        d.set_item("perfect_games", self.perfect_games)?;
        d.set_item("cards_left", self.cards_left.clone())?;
        d.set_item("mean_cards_left", self.mean_cards_left)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        let head = format!(
            "SimulationSummary(utility='{}', games={}, mean_length={:.2}",
            self.utility, self.games, self.mean_length
        );
        let tail = match self.utility {
            "cooperative" => format!(
                "perfect_games={}, mean_cards_left={:.2}, mean_returns={:?}",
                self.perfect_games, self.mean_cards_left, self.mean_returns
            ),
            "team_zero_sum" => format!(
                "team_wins={:?}, draws={}, wins={:?}, mean_returns={:?}",
                self.team_wins, self.draws, self.wins, self.mean_returns
            ),
            _ => format!(
                "wins={:?}, draws={}, mean_returns={:?}",
                self.wins, self.draws, self.mean_returns
            ),
        };
        format!("{head}, {tail})")
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
    Game::create(py, spielwerk_core::load_game(name, &options).map_err(err(py))?)
}

#[pyfunction]
fn _restore_game(py: Python<'_>, name: &str, options: &str) -> PyResult<Py<Game>> {
    let options: Map<String, Value> = serde_json::from_str(options)
        .map_err(|e| raise(py, Error::InvalidState(format!("pickled options: {e}"))))?;
    Game::create(py, spielwerk_core::load_game(name, &options).map_err(err(py))?)
}

/// Unpickles a state: a snapshot with the seed of its deal (`None` if it was not dealt
/// from a seed), or, from older pickles, JSON or a compact record.
#[pyfunction]
#[pyo3(signature = (game, data, seed = None))]
fn _restore_state(game: &Bound<'_, Game>, data: &Bound<'_, PyAny>, seed: Option<u64>) -> PyResult<State> {
    Game::read_state(game, data, seed)
}

/// A `threads` argument: 1 to 1024, or `None` for all cores.
fn threads_arg(py: Python<'_>, threads: Option<Int>) -> PyResult<Option<usize>> {
    threads
        .map(|t| {
            usize::try_from(t.0)
                .ok()
                .filter(|&t| (1..=1024).contains(&t))
                .ok_or_else(|| {
                    invalid_argument(
                        py,
                        format!("threads {} must be from 1 to 1024 (or None for all cores)", t.0),
                    )
                })
        })
        .transpose()
}

/// A `game` argument: a `spielwerk.Game`, or a game's name (with its default options).
fn game_arg(py: Python<'_>, game: &Bound<'_, PyAny>) -> PyResult<Py<Game>> {
    if let Ok(g) = game.cast::<Game>() {
        return Ok(g.clone().unbind());
    }
    let name: String = game
        .extract()
        .map_err(|_| PyTypeError::new_err("game must be a game name (str) or a spielwerk.Game"))?;
    Game::create(
        py,
        spielwerk_core::load_game(&name, &Map::new()).map_err(err(py))?,
    )
}

/// A count of games: 0 or more.
fn count_arg(py: Python<'_>, n: Int, what: &str) -> PyResult<u64> {
    u64::try_from(n.0).map_err(|_| invalid_argument(py, format!("{what} {} must be 0 or more", n.0)))
}

/// Plays `n_games` uniformly random games in Rust on `threads` threads (all cores if
/// None), without the GIL. The result depends on `seed` only, never on `threads`.
/// Ctrl-C stops it (`KeyboardInterrupt`).
#[pyfunction]
#[pyo3(
    signature = (game, n_games, seed = Seed(0), threads = None),
    text_signature = "(game, n_games, seed=0, threads=None)"
)]
fn simulate(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    n_games: Int,
    seed: Seed,
    threads: Option<Int>,
) -> PyResult<SimulationSummary> {
    let n_games = count_arg(py, n_games, "n_games")?;
    let threads = threads_arg(py, threads)?;
    let game = game_arg(py, game)?;
    let game = &game.get().inner;
    let s = run_interruptibly(py, |stop| game.simulate(n_games, seed.0, threads, stop))?.map_err(err(py))?;
    Ok(SimulationSummary {
        utility: s.utility.name(),
        perfect_games: s.perfect_games(),
        games: s.games,
        wins: s.wins,
        draws: s.draws,
        mean_length: s.mean_length,
        mean_returns: s.mean_returns,
        team_wins: s.team_wins,
        cards_left: s.cards_left,
        mean_cards_left: s.mean_cards_left,
    })
}

/// Runs `work` on another thread without the GIL while this thread watches for signals:
/// Ctrl-C (or any signal handler raising) sets the stop flag `work` polls, waits for it
/// to wind down and raises the handler's exception.
fn run_interruptibly<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&(dyn Fn() -> bool + Sync)) -> T + Send,
) -> PyResult<T> {
    let stop = AtomicBool::new(false);
    let stopped = || stop.load(Ordering::Relaxed);
    // Set by the worker before it wakes the caller: `is_finished` turns true only once
    // the thread has wound down, a moment after the wake-up, and a caller that missed it
    // would sleep another 50 ms (a batch of quick moves took 50 ms instead of 0.3 ms).
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let caller = std::thread::current();
        let done = &done;
        let worker = scope.spawn(move || {
            let out = work(&stopped);
            done.store(true, Ordering::Release);
            caller.unpark();
            out
        });
        loop {
            py.detach(|| std::thread::park_timeout(Duration::from_millis(50)));
            if done.load(Ordering::Acquire) || worker.is_finished() {
                return Ok(worker.join().expect("the simulation does not panic"));
            }
            if let Err(e) = py.check_signals() {
                stop.store(true, Ordering::Relaxed);
                let _ = py.detach(|| worker.join());
                return Err(e);
            }
        }
    })
}

// --- Bots by name -------------------------------------------------------------------

/// A bot made for one game by `spielwerk.bots.make(name, game, seed, **params)`. Its
/// decisions depend on its seed and the deciding seat's information state only.
#[pyclass(frozen, module = "spielwerk.bots")]
struct Bot {
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
    /// finished game, is a `SpielwerkError`. Runs without the GIL.
    #[pyo3(signature = (state, seat = None))]
    fn step(&self, py: Python<'_>, state: &State, seat: Option<Int>) -> PyResult<Action> {
        let seat = state.seat(py, seat)?;
        let bot = self.inner.as_ref();
        let inner = state.inner.as_ref();
        py.detach(|| bot.step(inner, seat))
            .map_err(err(py))?
            .ok_or_else(|| invalid_argument(py, "the game is over: there is no action to choose".into()))
    }

    /// `[bot.step(s) for s in states]`, decided in parallel on all cores without the GIL;
    /// the same result whatever the threads did. Ctrl-C stops it (`KeyboardInterrupt`).
    fn step_many(&self, py: Python<'_>, states: &Bound<'_, PyAny>) -> PyResult<Vec<Action>> {
        let mut held: Vec<PyRef<'_, State>> = Vec::new();
        for (i, item) in states.try_iter()?.enumerate() {
            let item = item?;
            held.push(item.extract::<PyRef<'_, State>>().map_err(|_| {
                PyTypeError::new_err(format!("states[{i}] is not a spielwerk.State: {}", shown(&item)))
            })?);
        }
        let inner: Vec<&dyn DynState> = held.iter().map(|s| s.inner.as_ref()).collect();
        let bot = self.inner.as_ref();
        let chosen = run_interruptibly(py, |stop| spielwerk_core::dynamic::step_many(bot, &inner, stop))?
            .map_err(err(py))?;
        chosen
            .into_iter()
            .enumerate()
            .map(|(i, a)| a.ok_or_else(|| invalid_argument(py, format!("states[{i}]: the game is over"))))
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
        format!(
            "spielwerk.bots.make('{}', {}, seed={}{sep}{})",
            self.inner.name(),
            self.game.get().__repr__(),
            self.inner.seed(),
            params.join(", ")
        )
    }
}

/// How one bot did in `spielwerk.evaluate`: counts, rates with their 95% intervals
/// (Wilson for shares, normal for means), and for The Game the cards left.
#[pyclass(frozen, module = "spielwerk", get_all)]
struct BotStanding {
    name: String,
    games: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    win_rate: f64,
    win_rate_ci: (f64, f64),
    mean_return: f64,
    mean_return_ci: (f64, f64),
    perfect_rate: Option<f64>,
    perfect_rate_ci: Option<(f64, f64)>,
    under_10_rate: Option<f64>,
    under_10_ci: Option<(f64, f64)>,
    mean_cards_left: Option<f64>,
    mean_cards_left_ci: Option<(f64, f64)>,
}

impl BotStanding {
    fn from_core(s: &bots::Standing, cooperative: bool) -> Self {
        let rate = |k: u64| {
            if s.games == 0 {
                0.0
            } else {
                k as f64 / s.games as f64
            }
        };
        BotStanding {
            name: s.name.clone(),
            games: s.games,
            wins: s.wins,
            draws: s.draws,
            losses: s.losses,
            win_rate: s.win_rate(),
            win_rate_ci: s.win_rate_interval(),
            mean_return: s.returns.mean(),
            mean_return_ci: s.returns.interval(),
            perfect_rate: cooperative.then_some(rate(s.perfect)),
            perfect_rate_ci: cooperative.then_some(bots::evaluate::wilson(s.perfect, s.games)),
            under_10_rate: cooperative.then_some(rate(s.under_10)),
            under_10_ci: cooperative.then_some(bots::evaluate::wilson(s.under_10, s.games)),
            mean_cards_left: cooperative.then_some(s.cards_left.mean()),
            mean_cards_left_ci: cooperative.then_some(s.cards_left.interval()),
        }
    }
}

#[pymethods]
impl BotStanding {
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("name", &self.name)?;
        d.set_item("games", self.games)?;
        d.set_item("wins", self.wins)?;
        d.set_item("draws", self.draws)?;
        d.set_item("losses", self.losses)?;
        d.set_item("win_rate", self.win_rate)?;
        d.set_item("win_rate_ci", self.win_rate_ci)?;
        d.set_item("mean_return", self.mean_return)?;
        d.set_item("mean_return_ci", self.mean_return_ci)?;
        d.set_item("perfect_rate", self.perfect_rate)?;
        d.set_item("perfect_rate_ci", self.perfect_rate_ci)?;
        d.set_item("under_10_rate", self.under_10_rate)?;
        d.set_item("under_10_ci", self.under_10_ci)?;
        d.set_item("mean_cards_left", self.mean_cards_left)?;
        d.set_item("mean_cards_left_ci", self.mean_cards_left_ci)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        let ci = |(lo, hi): (f64, f64)| format!("[{lo:.3}, {hi:.3}]");
        let head = format!(
            "BotStanding(name='{}', games={}, wins={}, draws={}, losses={}, win_rate={:.3} {}, mean_return={:.3} {}",
            self.name,
            self.games,
            self.wins,
            self.draws,
            self.losses,
            self.win_rate,
            ci(self.win_rate_ci),
            self.mean_return,
            ci(self.mean_return_ci)
        );
        match (
            self.perfect_rate,
            self.perfect_rate_ci,
            self.under_10_rate,
            self.under_10_ci,
            self.mean_cards_left,
            self.mean_cards_left_ci,
        ) {
            (Some(p), Some(pc), Some(u), Some(uc), Some(m), Some(mc)) => format!(
                "{head}, perfect_rate={p:.3} {}, under_10_rate={u:.3} {}, mean_cards_left={m:.2} {})",
                ci(pc),
                ci(uc),
                ci(mc)
            ),
            _ => format!("{head})"),
        }
    }
}

/// The names of the bots that play `game`, sorted.
#[pyfunction]
fn bot_names(py: Python<'_>, game: &Bound<'_, PyAny>) -> PyResult<Vec<&'static str>> {
    Ok(game_arg(py, game)?.get().inner.bot_names())
}

/// Makes the bot `name` for `game` with `seed` and its parameters as keywords; unknown
/// names (`unknown_bot`) and parameters (`invalid_bot_params`) are `SpielwerkError`s
/// naming the allowed ones.
#[pyfunction]
#[pyo3(signature = (name, game, seed = Seed(0), **params), text_signature = "(name, game, seed=0, **params)")]
fn make_bot(
    py: Python<'_>,
    name: &str,
    game: &Bound<'_, PyAny>,
    seed: Seed,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<Bot> {
    let game = game_arg(py, game)?;
    let params = match params {
        None => Map::new(),
        Some(k) => match to_json(k.as_any(), "bot parameters")? {
            Value::Object(m) => m,
            _ => unreachable!("a dict converts to a JSON object"),
        },
    };
    let inner = game
        .get()
        .inner
        .make_bot(name, &params, seed.0)
        .map_err(err(py))?;
    Ok(Bot { inner, game })
}

/// One bot for `evaluate`: a made bot, a name, or a `(name, params)` pair.
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
    let (name, params): (String, Map<String, Value>) = if let Ok(name) = item.extract::<String>() {
        (name, Map::new())
    } else {
        let (name, params): (String, Bound<'_, PyAny>) = item.extract().map_err(|_| refuse())?;
        match to_json(&params, "bot parameters")? {
            Value::Object(m) => (name, m),
            Value::Null => (name, Map::new()),
            _ => return Err(refuse()),
        }
    };
    game.inner.make_bot(&name, &params, 0).map_err(err(py))
}

/// Plays `n_games` seeded games between `bots` in Rust on `threads` threads (all cores if
/// None), without the GIL, with the seats rotated (two-player games: each deal twice,
/// swapped); one standing per bot. The result depends on `seed` only, never on
/// `threads`. Ctrl-C stops it (`KeyboardInterrupt`).
#[pyfunction]
#[pyo3(
    signature = (game, bots, n_games, seed = Seed(0), threads = None),
    text_signature = "(game, bots, n_games, seed=0, threads=None)"
)]
fn evaluate(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    bots: &Bound<'_, PyAny>,
    n_games: Int,
    seed: Seed,
    threads: Option<Int>,
) -> PyResult<Vec<BotStanding>> {
    let n_games = count_arg(py, n_games, "n_games")?;
    let threads = threads_arg(py, threads)?;
    let game = game_arg(py, game)?;
    let game = game.get();
    let made = bots_arg(py, game, bots)?;
    let seated: Vec<&dyn DynBot> = made.iter().map(AsRef::as_ref).collect();
    let inner = &game.inner;
    let e = run_interruptibly(py, |stop| inner.evaluate(&seated, n_games, seed.0, threads, stop))?
        .map_err(err(py))?;
    let cooperative = e.utility == spielwerk_core::Utility::Cooperative;
    Ok(e.standings
        .iter()
        .map(|s| BotStanding::from_core(s, cooperative))
        .collect())
}

/// Made bots for `evaluate`, from what Python gave.
fn bots_arg(py: Python<'_>, game: &Game, bots: &Bound<'_, PyAny>) -> PyResult<Vec<Box<dyn DynBot>>> {
    let mut made = Vec::new();
    for (i, item) in bots.try_iter()?.enumerate() {
        made.push(bot_arg(py, game, &item?, i)?);
    }
    Ok(made)
}

/// The tally of some of a run's games (`spielwerk.evaluate_games`): parts merge exactly
/// into the tally of the whole run, so a run can be spread over processes or machines.
/// Pickles (as JSON) to travel between them.
#[pyclass(frozen, module = "spielwerk")]
struct EvaluationPart {
    inner: bots::Evaluation,
}

#[pymethods]
impl EvaluationPart {
    /// How many games this part tallies.
    #[getter]
    fn games(&self) -> u64 {
        self.inner.games
    }

    /// One standing per bot, as `spielwerk.evaluate` gives them for the whole run.
    fn standings(&self) -> Vec<BotStanding> {
        let cooperative = self.inner.utility == spielwerk_core::Utility::Cooperative;
        self.inner
            .standings
            .iter()
            .map(|s| BotStanding::from_core(s, cooperative))
            .collect()
    }

    /// This part and `other` (other games of the same run) together; parts of different
    /// bots are a `SpielwerkError`.
    fn merge(&self, py: Python<'_>, other: &EvaluationPart) -> PyResult<EvaluationPart> {
        let mut inner = self.inner.clone();
        inner.merge(&other.inner).map_err(err(py))?;
        Ok(EvaluationPart { inner })
    }

    fn to_json(&self) -> String {
        serde_json::to_string(&self.inner).expect("an evaluation serializes")
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduce<'py, (String,)>> {
        let restore = py
            .import("spielwerk._spielwerk")?
            .getattr("_restore_evaluation_part")?;
        Ok((restore, (self.to_json(),)))
    }

    fn __repr__(&self) -> String {
        let names: Vec<&str> = self.inner.standings.iter().map(|s| s.name.as_str()).collect();
        format!("EvaluationPart(games={}, bots={names:?})", self.inner.games)
    }
}

#[pyfunction]
fn _restore_evaluation_part(py: Python<'_>, data: &str) -> PyResult<EvaluationPart> {
    let inner: bots::Evaluation = serde_json::from_str(data)
        .map_err(|e| raise(py, Error::InvalidState(format!("pickled evaluation: {e}"))))?;
    // Read from outside: derived figures are trusted only once they add up.
    inner.validate().map_err(err(py))?;
    Ok(EvaluationPart { inner })
}

/// Plays the games numbered `start` to `stop` (excluded) of the run
/// `evaluate(game, bots, n, seed)`, as that run plays them; merged, the parts of a run give
/// its standings exactly, however it was cut. Threads and Ctrl-C as in `evaluate`.
#[pyfunction]
#[pyo3(
    signature = (game, bots, start, stop, seed = Seed(0), threads = None),
    text_signature = "(game, bots, start, stop, seed=0, threads=None)"
)]
fn evaluate_games(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    bots: &Bound<'_, PyAny>,
    start: Int,
    stop: Int,
    seed: Seed,
    threads: Option<Int>,
) -> PyResult<EvaluationPart> {
    let (start, end) = (count_arg(py, start, "start")?, count_arg(py, stop, "stop")?);
    if start > end {
        return Err(invalid_argument(py, format!("start {start} is after stop {end}")));
    }
    let threads = threads_arg(py, threads)?;
    let game = game_arg(py, game)?;
    let game = game.get();
    let made = bots_arg(py, game, bots)?;
    let seated: Vec<&dyn DynBot> = made.iter().map(AsRef::as_ref).collect();
    let inner = &game.inner;
    let e = run_interruptibly(py, |stop| {
        inner.evaluate_games(&seated, start..end, seed.0, threads, stop)
    })?
    .map_err(err(py))?;
    Ok(EvaluationPart { inner: e })
}

// --- Schotten Totten and The Game helpers ---------------------------------------------

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

/// A list of card strings from Python, with a clear error for anything else.
fn card_list(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<String>> {
    match to_json(obj, what)? {
        Value::Array(items) => items
            .into_iter()
            .map(|v| match v {
                Value::String(s) => Ok(s),
                other => Err(PyValueError::new_err(format!(
                    "{what}: {} is not a card (cards are strings such as \"B5\")",
                    spielwerk_core::error::shorten(&other.to_string())
                ))),
            })
            .collect(),
        _ => Err(PyValueError::new_err(format!("{what} must be a list of cards"))),
    }
}

#[pyfunction]
fn st_formation(py: Python<'_>, cards: &Bound<'_, PyAny>) -> PyResult<(&'static str, u8)> {
    let cards = card_list(cards, "cards")?;
    let f = st::formation_notation(&cards).map_err(err(py))?;
    Ok((f.kind.name(), f.sum))
}

#[pyfunction]
#[pyo3(signature = (mine, theirs, table, mine_completed_first = true))]
fn st_check_claim(
    py: Python<'_>,
    mine: &Bound<'_, PyAny>,
    theirs: &Bound<'_, PyAny>,
    table: &Bound<'_, PyAny>,
    mine_completed_first: bool,
) -> PyResult<ClaimCheck> {
    let (mine, theirs, table) = (
        card_list(mine, "mine")?,
        card_list(theirs, "theirs")?,
        card_list(table, "table")?,
    );
    let c = st::check_claim_notation(&mine, &theirs, &table, mine_completed_first).map_err(err(py))?;
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

/// T7 as the referee says it: an `IllegalActionError` (rule, code, reason in English and
/// German) if `text` names a number, else `None`.
#[pyfunction]
fn tg_check_talk<'py>(py: Python<'py>, text: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
    spielwerk_core::the_game::check_talk(text)
        .map(|e| rejection(py, &e))
        .transpose()
}

#[pymodule(gil_used = false)]
fn _spielwerk(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("TERMINAL", TERMINAL)?;
    m.add_class::<Game>()?;
    m.add_class::<State>()?;
    m.add_class::<RandomBot>()?;
    m.add_class::<SimulationSummary>()?;
    m.add_class::<Bot>()?;
    m.add_class::<BotStanding>()?;
    m.add_class::<EvaluationPart>()?;
    m.add_class::<ClaimCheck>()?;
    m.add_function(wrap_pyfunction!(list_games, m)?)?;
    m.add_function(wrap_pyfunction!(load_game, m)?)?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate_games, m)?)?;
    m.add_function(wrap_pyfunction!(_restore_evaluation_part, m)?)?;
    m.add_function(wrap_pyfunction!(make_bot, m)?)?;
    m.add_function(wrap_pyfunction!(bot_names, m)?)?;
    m.add_function(wrap_pyfunction!(st_formation, m)?)?;
    m.add_function(wrap_pyfunction!(st_check_claim, m)?)?;
    m.add_function(wrap_pyfunction!(tg_mentions_number, m)?)?;
    m.add_function(wrap_pyfunction!(tg_check_talk, m)?)?;
    m.add_function(wrap_pyfunction!(_restore_game, m)?)?;
    m.add_function(wrap_pyfunction!(_restore_state, m)?)?;
    Ok(())
}
