//! `spielwerk.State`: one position of a game, shared safely between Python threads.

use std::sync::{Mutex, MutexGuard};

use numpy::{PyArray1, PyArrayDyn, PyArrayMethods, PyReadwriteArrayDyn, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use spielwerk_core::stored::{self, Deal, Stored};
use spielwerk_core::{Action, DynState, Error, GameState, Names};

use crate::convert::{
    DEFAULT_LANG, Int, LangArg, Reduce, Seed, Text, lock, move_json, text, to_py, with_actions,
};
use crate::errors::{err, invalid_argument, raise_illegal, rejection};
use crate::ruleset::Game;

/// The value of `current_player()` once the game is over.
pub const TERMINAL: i64 = -4;

/// What a state pickles to: its game, its snapshot and the seed of its deal, if any.
type StateReduce<'py> = Reduce<'py, (Py<Game>, Bound<'py, PyBytes>, Option<u64>)>;

/// A position of a game. Mutable: `apply_action` changes it in place; every other
/// method only reads it. Threads may share one: each call has the state to itself for
/// as long as it runs (a bot's search included), and the others wait for it.
#[pyclass(frozen, module = "spielwerk")]
pub struct State {
    game: Py<Game>,
    held: Mutex<Held>,
}

/// What a state's lock guards: the position and where its deal came from.
pub struct Held {
    pub state: Box<dyn DynState>,
    /// Where the state was dealt from, for its compact form.
    deal: Deal,
}

impl State {
    pub fn new(py: Python<'_>, game: &Py<Game>, state: Box<dyn DynState>, deal: Deal) -> State {
        State {
            game: game.clone_ref(py),
            held: Mutex::new(Held { state, deal }),
        }
    }

    /// The position, to this call alone until the guard is dropped.
    pub fn lock(&self, py: Python<'_>) -> MutexGuard<'_, Held> {
        lock(py, &self.held)
    }

    fn action(&self, py: Python<'_>, action: Int) -> PyResult<Action> {
        stored::action(action.0, self.game.get().inner.num_distinct_actions())
            .map_err(|e| raise_illegal(py, &e))
    }

    /// The seat `seat`, refused unless it is one of the game's.
    pub fn seat(&self, py: Python<'_>, seat: Option<Int>) -> PyResult<Option<usize>> {
        seat.map(|s| self.game.get().check_player(py, s)).transpose()
    }

    /// The legal actions of `seat` (the current player if `None`) in `buf`.
    fn legal_into(state: &dyn DynState, seat: Option<usize>, buf: &mut Vec<Action>) {
        match seat {
            Some(s) => state.legal_actions_for(s, buf),
            None => state.legal_actions_into(buf),
        }
    }

    /// The seats' display names for a text: at most one name and one bot per seat.
    fn names(
        &self,
        py: Python<'_>,
        names: Option<Vec<Option<String>>>,
        bots: Option<Vec<Option<String>>>,
    ) -> PyResult<Names> {
        let names = Names::new(names.unwrap_or_default()).with_bots(bots.unwrap_or_default());
        let n = self.game.get().inner.num_players();
        if names.len() > n {
            let given = names.len();
            return Err(invalid_argument(
                py,
                spielwerk_core::msg!(
                    "names or bots for {given} seats, but the game has {n}: give at most one per seat",
                    "Namen oder Bots für {given} Plätze, das Spiel hat aber {n}: gib höchstens einen je Platz an"
                ),
            ));
        }
        Ok(names)
    }

    /// The seat a tensor is of: `seat`, or the player to move if `None` (refused once the
    /// game is over: then a seat must be named).
    fn tensor_seat(&self, py: Python<'_>, seat: Option<Int>) -> PyResult<usize> {
        if let Some(seat) = self.seat(py, seat)? {
            return Ok(seat);
        }
        self.lock(py).state.current_player().ok_or_else(|| {
            let last = self.game.get().inner.num_players() - 1;
            invalid_argument(
                py,
                spielwerk_core::msg!(
                    "the game is over, so no player is to move: name the seat (0 to {last}) or use public_observation_tensor()",
                    "das Spiel ist vorbei, also ist niemand am Zug: nenne den Platz (0 bis {last}) oder nimm public_observation_tensor()"
                ),
            )
        })
    }

    /// Writes the observation tensor of `seat` (`None`: the public view) into `out`,
    /// whose length the caller has checked: a capability of the rules trait, reached
    /// through the registered game's own type.
    fn write_tensor(&self, py: Python<'_>, seat: Option<usize>, out: &mut [f32]) -> PyResult<()> {
        let held = self.lock(py);
        let written =
            spielwerk_core::with_state!(held.state.as_ref(), s => s.observation_tensor_into(seat, out));
        drop(held);
        written.map_err(err(py))
    }

    /// A new float32 array holding the tensor of `seat` (`None`: the public view).
    fn new_tensor<'py>(&self, py: Python<'py>, seat: Option<usize>) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let mut out = vec![0.0; self.game.get().tensor_layout().len];
        self.write_tensor(py, seat, &mut out)?;
        Ok(PyArray1::from_vec(py, out))
    }

    /// Writes the tensor of `seat` into a caller's array, refusing any that is not a
    /// writeable, C-contiguous float32 array of the tensor's shape.
    fn tensor_into(&self, py: Python<'_>, seat: Option<usize>, out: &Bound<'_, PyAny>) -> PyResult<()> {
        let layout = self.game.get().tensor_layout();
        let mut array = tensor_buffer(py, out, &layout.shape)?;
        let slice = array.as_slice_mut().map_err(|_| {
            invalid_argument(
                py,
                spielwerk_core::msg!(
                    "the buffer must be C-contiguous",
                    "der Puffer muss C-zusammenhängend sein"
                ),
            )
        })?;
        self.write_tensor(py, seat, slice)
    }

    fn wrap(&self, py: Python<'_>, state: Box<dyn DynState>, deal: Deal) -> State {
        State::new(py, &self.game, state, deal)
    }

    /// A state of `game` read from any of the three serialized forms (the engine tells
    /// them apart), for `Game.deserialize_state` and unpickling. `seed` is the deal's
    /// seed a pickled snapshot claims.
    pub fn read(game: &Bound<'_, Game>, data: &Bound<'_, PyAny>, seed: Option<u64>) -> PyResult<State> {
        let py = game.py();
        let stored = if let Ok(bytes) = data.cast::<PyBytes>() {
            Stored::Bytes(bytes.as_bytes())
        } else if let Ok(s) = data.cast::<PyString>() {
            Stored::Text(text(s.as_borrowed(), Error::InvalidState)?)
        } else {
            return Err(PyTypeError::new_err(format!(
                "a serialized state is a str (JSON) or bytes (a snapshot), not {}",
                data.get_type().name()?
            )));
        };
        let (state, deal) = stored::read(game.get().inner.as_ref(), stored, seed).map_err(err(py))?;
        Ok(State::new(py, &game.clone().unbind(), state, deal))
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
    fn current_player(&self, py: Python<'_>) -> i64 {
        self.lock(py)
            .state
            .current_player()
            .map_or(TERMINAL, |p| p as i64)
    }

    /// Every seat that may move now (several during Dog's exchange); empty once over.
    fn seats_to_move(&self, py: Python<'_>) -> Vec<usize> {
        self.lock(py).state.seats_to_move()
    }

    /// The legal actions of `seat` (default: the current player), sorted ascending.
    #[pyo3(signature = (seat = None))]
    fn legal_actions<'py>(&self, py: Python<'py>, seat: Option<Int>) -> PyResult<Bound<'py, PyList>> {
        let seat = self.seat(py, seat)?;
        let ints = self.game.get().action_ints.bind(py);
        let held = self.lock(py);
        with_actions(|buf| {
            Self::legal_into(held.state.as_ref(), seat, buf);
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
        let held = self.lock(py);
        with_actions(|buf| {
            Self::legal_into(held.state.as_ref(), seat, buf);
            for &a in buf.iter() {
                mask[a as usize] = true;
            }
        });
        drop(held);
        Ok(PyArray1::from_vec(py, mask))
    }

    /// Every legal move in one call: `[{"action": int, "move": dict, "text": str}]`, the
    /// texts in `lang` ("de" or "en", default "en").
    #[pyo3(signature = (seat = None, lang = None))]
    fn legal_moves<'py>(
        &self,
        py: Python<'py>,
        seat: Option<Int>,
        lang: Option<LangArg>,
    ) -> PyResult<Bound<'py, PyList>> {
        let seat = self.seat(py, seat)?;
        let held = self.lock(py);
        let state = held.state.as_ref();
        let actions = with_actions(|buf| {
            Self::legal_into(state, seat, buf);
            buf.clone()
        });
        let list = PyList::empty(py);
        for a in actions {
            let d = PyDict::new(py);
            d.set_item("action", a)?;
            d.set_item("move", to_py(py, &state.action_to_move(a))?)?;
            d.set_item(
                "text",
                spielwerk_core::with_state!(state, s => s.action_text(a, lang.unwrap_or(DEFAULT_LANG).0)),
            )?;
            list.append(d)?;
        }
        Ok(list)
    }

    /// The observation tensor of `seat` (default: the player to move; once the game is
    /// over a seat must be named) as a new float32 array of `game.observation_tensor_shape()`:
    /// exactly what `view(seat)` holds, laid out as `game.describe_tensor()` says.
    #[pyo3(signature = (seat = None))]
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        seat: Option<Int>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let seat = self.tensor_seat(py, seat)?;
        self.new_tensor(py, Some(seat))
    }

    /// Writes `observation_tensor(seat)` into `out` without allocating: `out` must be a
    /// writeable, C-contiguous numpy float32 array of `game.observation_tensor_shape()`;
    /// any other is refused with a `SpielwerkError` and left as it was.
    fn observation_tensor_into(
        &self,
        py: Python<'_>,
        seat: Option<Int>,
        out: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let seat = self.tensor_seat(py, seat)?;
        self.tensor_into(py, Some(seat), out)
    }

    /// The tensor of the public view (what a spectator sees: written as seen from seat 0,
    /// with `seat` all zero and no hand).
    fn public_observation_tensor<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f32>>> {
        self.new_tensor(py, None)
    }

    /// `public_observation_tensor()` into `out`, as `observation_tensor_into` does.
    fn public_observation_tensor_into(&self, py: Python<'_>, out: &Bound<'_, PyAny>) -> PyResult<()> {
        self.tensor_into(py, None, out)
    }

    /// Equal to `observation_tensor(seat)` in all four games: every view already is an
    /// information state (Dog's exchange pick is in it), so there is no second tensor.
    #[pyo3(signature = (seat = None))]
    fn information_state_tensor<'py>(
        &self,
        py: Python<'py>,
        seat: Option<Int>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        self.observation_tensor(py, seat)
    }

    /// Equal to `observation_tensor_into(seat, out)` (see `information_state_tensor`).
    fn information_state_tensor_into(
        &self,
        py: Python<'_>,
        seat: Option<Int>,
        out: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        self.observation_tensor_into(py, seat, out)
    }

    /// Applies a legal action of `seat` (default: the current player); an illegal one
    /// raises `IllegalActionError` and changes nothing.
    #[pyo3(signature = (action, seat = None))]
    fn apply_action(&self, py: Python<'_>, action: Int, seat: Option<Int>) -> PyResult<()> {
        let action = self.action(py, action)?;
        let seat = self.seat(py, seat)?;
        let mut held = self.lock(py);
        let result = match seat {
            Some(s) => held.state.apply_action_for(s, action),
            None => held.state.apply_action(action),
        };
        drop(held);
        result.map_err(|e| raise_illegal(py, &e))
    }

    /// `None` if the move is legal for `seat` (default: the current player), else the
    /// rejection: an `IllegalActionError` (not raised) with `rule`, `code`, `params`,
    /// `reason` and `reason_de`. The move is a JSON-like object or its JSON text as
    /// `bytes`; a malformed one raises `InvalidMoveError`. Changes nothing.
    #[pyo3(signature = (r#move, seat = None))]
    fn check_move<'py>(
        &self,
        py: Python<'py>,
        r#move: &Bound<'py, PyAny>,
        seat: Option<Int>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let seat = self.seat(py, seat)?;
        let mv = move_json(r#move)?;
        let checked = self.lock(py).state.check_move(&mv, seat);
        match checked.map_err(err(py))? {
            None => Ok(None),
            Some(e) => Ok(Some(rejection(py, &e)?)),
        }
    }

    /// The action's text for people in `lang` ("de" or "en"; default "en", as before
    /// texts had a language).
    #[pyo3(signature = (action, lang = None))]
    fn action_to_string(&self, py: Python<'_>, action: Int, lang: Option<LangArg>) -> PyResult<String> {
        let action = self.action(py, action)?;
        let held = self.lock(py);
        Ok(
            spielwerk_core::with_state!(held.state.as_ref(), s => s.action_text(action, lang.unwrap_or(DEFAULT_LANG).0)),
        )
    }

    fn action_to_json<'py>(&self, py: Python<'py>, action: Int) -> PyResult<Bound<'py, PyAny>> {
        let action = self.action(py, action)?;
        let mv = self.lock(py).state.action_to_move(action);
        to_py(py, &mv)
    }

    /// The action of a move: a JSON-like object, or its JSON text as `bytes` (parsed here,
    /// once: what a server received). A malformed move raises `InvalidMoveError`.
    fn action_from_json(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<Action> {
        let mv = move_json(r#move)?;
        let action = self.lock(py).state.action_from_move(&mv);
        action.map_err(err(py))
    }

    fn is_terminal(&self, py: Python<'_>) -> bool {
        self.lock(py).state.is_terminal()
    }

    /// Per-player returns (R1); zeros while the game runs.
    fn returns(&self, py: Python<'_>) -> Vec<f64> {
        self.lock(py).state.returns()
    }

    /// Per-player rewards of the last action; summed over the game they are `returns()`.
    fn rewards(&self, py: Python<'_>) -> Vec<f64> {
        self.lock(py).state.rewards()
    }

    /// The result in one line for people in `lang` ("de" or "en", default "en"), or
    /// `None` while the game runs. `names`: a display name per seat, `bots`: the bot (a
    /// level's name) per seat, for the seats the line names: a name first, else the bot
    /// ("Bot stark"), else the seat counted from 1 ("player 2").
    #[pyo3(signature = (lang = None, names = None, bots = None))]
    fn result_text(
        &self,
        py: Python<'_>,
        lang: Option<LangArg>,
        names: Option<Vec<Option<String>>>,
        bots: Option<Vec<Option<String>>>,
    ) -> PyResult<Option<String>> {
        let names = self.names(py, names, bots)?;
        let held = self.lock(py);
        let lang = lang.unwrap_or(DEFAULT_LANG).0;
        Ok(spielwerk_core::with_state!(held.state.as_ref(), s => s.result_text_named(lang, &names)))
    }

    /// The board as a terminal shows it, in `lang` ("de" or "en", default "en"): with no
    /// seat the whole position (every hand; what `str(state)` gives in English), with a
    /// seat only what that seat may see (its own hand, the other hands' sizes).
    #[pyo3(signature = (seat = None, lang = None))]
    fn render(&self, py: Python<'_>, seat: Option<Int>, lang: Option<LangArg>) -> PyResult<String> {
        let seat = self.seat(py, seat)?;
        let held = self.lock(py);
        Ok(
            spielwerk_core::with_state!(held.state.as_ref(), s => s.render_for(seat, lang.unwrap_or(DEFAULT_LANG).0)),
        )
    }

    fn history(&self, py: Python<'_>) -> Vec<Action> {
        self.lock(py).state.history().to_vec()
    }

    /// The history as `player` saw it: `None` for an action hidden from them.
    fn history_for(&self, py: Python<'_>, player: Int) -> PyResult<Vec<Option<Action>>> {
        let player = self.game.get().check_player(py, player)?;
        Ok(self.lock(py).state.history_for(player))
    }

    /// Exactly what `player` may see, JSON-ready.
    fn view<'py>(&self, py: Python<'py>, player: Int) -> PyResult<Bound<'py, PyAny>> {
        let player = self.game.get().check_player(py, player)?;
        // Through a JSON value: pythonize would turn fixed-size arrays into tuples.
        let view = self.lock(py).state.view(player);
        to_py(py, &view)
    }

    /// What every seat may see (for spectators), JSON-ready.
    fn public_view<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let view = self.lock(py).state.public_view();
        to_py(py, &view)
    }

    /// The view of `player` (the public view if `None`) as compact JSON bytes.
    fn view_json<'py>(&self, py: Python<'py>, player: Option<Int>) -> PyResult<Bound<'py, PyBytes>> {
        let seat = self.seat(py, player)?;
        let json = self.lock(py).state.view_json(seat);
        Ok(PyBytes::new(py, &json))
    }

    /// Bytes equal exactly when `view(player)` is equal (hashable: a dict key for search).
    fn information_state_key<'py>(&self, py: Python<'py>, player: Int) -> PyResult<Bound<'py, PyBytes>> {
        let player = self.game.get().check_player(py, player)?;
        let key = self.lock(py).state.information_state_key(player);
        Ok(PyBytes::new(py, &key))
    }

    /// The cards in `player`'s hand (for analyses and tests: this is hidden information).
    fn hand(&self, py: Python<'_>, player: Int) -> PyResult<Vec<String>> {
        let player = self.game.get().check_player(py, player)?;
        Ok(self.lock(py).state.hand(player))
    }

    /// How the match ends if a match rule stops it now (C11; Dog's playing time, D13):
    /// `kind` is one of aborted, left, `no_move`, `playing_time`, resigned, time, withdrawn,
    /// `seat` the seat it concerns (none for `playing_time` and withdrawn: an open seat
    /// nobody took, so the match never began). A dict with `returns` (R1), `points`
    /// (D13's, or None) and `text`; the state does not change.
    /// The text is in `lang` ("de" or "en", default "en"), naming the seats by `names`
    /// and `bots` (as `result_text`); `rule` is the ruling that ended the match (e.g. "C11") or None,
    /// for a link to its text: the text itself carries no rule id.
    #[pyo3(signature = (kind, seat=None, lang = None, names = None, bots = None))]
    fn match_ending<'py>(
        &self,
        py: Python<'py>,
        kind: Text,
        seat: Option<Int>,
        lang: Option<LangArg>,
        names: Option<Vec<Option<String>>>,
        bots: Option<Vec<Option<String>>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let seat = self.seat(py, seat)?;
        let end = spielwerk_core::game::MatchEnd::parse(kind.0, seat).map_err(err(py))?;
        let names = self.names(py, names, bots)?;
        let lang = lang.unwrap_or(DEFAULT_LANG).0;
        let held = self.lock(py);
        // A capability of the rules trait, reached through the registered game's own type.
        let ending =
            spielwerk_core::with_state!(held.state.as_ref(), s => s.match_ending_named(end, lang, &names));
        drop(held);
        let out = PyDict::new(py);
        out.set_item("returns", ending.returns)?;
        out.set_item("points", ending.points.map(|p| p.to_vec()))?;
        out.set_item("rule", ending.rule)?;
        out.set_item("text", ending.text)?;
        Ok(out)
    }

    /// Exactly `game.state_from_view(view(player), seed)`: the same position with the
    /// cards hidden from `player` dealt anew; it depends on nothing `player` cannot see.
    fn resample(&self, py: Python<'_>, player: Int, seed: Seed) -> PyResult<State> {
        let player = self.game.get().check_player(py, player)?;
        let state = self.lock(py).state.resample(player, seed.0);
        Ok(self.wrap(py, state.map_err(err(py))?, Deal::Unknown))
    }

    fn clone(&self, py: Python<'_>) -> State {
        let held = self.lock(py);
        let (state, deal) = (held.state.clone_box(), held.deal);
        drop(held);
        self.wrap(py, state, deal)
    }

    fn __copy__(&self, py: Python<'_>) -> State {
        self.clone(py)
    }

    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> State {
        self.clone(py)
    }

    /// The whole state as JSON (hidden information included).
    fn serialize(&self, py: Python<'_>) -> String {
        self.lock(py).state.to_json()
    }

    /// The compact form: seed, options and actions as JSON, replayed by
    /// `Game.deserialize_state`. Only for states dealt from a seed (`new_initial_state`
    /// and what follows from it by `apply_action`); others raise `SpielwerkError`. An
    /// unpickled state's seed is checked by replaying it the first time (a seed that does
    /// not deal the state raises `InvalidStateError`).
    fn serialize_compact(&self, py: Python<'_>) -> PyResult<String> {
        let game = self.game.get().inner.as_ref();
        let mut held = self.lock(py);
        let Held { state, deal } = &mut *held;
        let record = deal.compact_form(game, state.as_ref());
        drop(held);
        record.map_err(err(py))
    }

    /// The whole state as a binary snapshot (`bytes`, a few hundred): read back by
    /// `Game.deserialize_state` without replaying anything, checked like JSON.
    fn serialize_snapshot<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let snapshot = self.lock(py).state.to_snapshot();
        PyBytes::new(py, &snapshot)
    }

    /// Pickles as a snapshot (checked whole on unpickling, like JSON), with the seed of
    /// the deal if there is one, so that `serialize_compact()` still works afterwards.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<StateReduce<'py>> {
        let restore = py.import("spielwerk._spielwerk")?.getattr("_restore_state")?;
        let held = self.lock(py);
        let (snapshot, seed) = (held.state.to_snapshot(), held.deal.seed());
        drop(held);
        Ok((
            restore,
            (self.game.clone_ref(py), PyBytes::new(py, &snapshot), seed),
        ))
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> bool {
        // Snapshots are equal exactly when the states are (every field, in one layout).
        // One lock at a time: `s == s` must not wait for itself.
        other.cast::<State>().is_ok_and(|o| {
            let o = o.get();
            o.game.get().__eq__(self.game.bind(py).as_any()) && {
                let mine = self.lock(py).state.to_snapshot();
                let theirs = o.lock(py).state.to_snapshot();
                mine == theirs
            }
        })
    }

    fn __str__(&self, py: Python<'_>) -> String {
        self.lock(py).state.render()
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let game = self.game.get().inner.name();
        let actions = self.lock(py).state.history().len();
        format!("<spielwerk.State {game} after {actions} actions>")
    }
}

/// `out` as a float32 array of `shape` to write into, or a `SpielwerkError` saying what
/// it is instead and what is wanted.
pub fn tensor_buffer<'py>(
    py: Python<'py>,
    out: &Bound<'py, PyAny>,
    shape: &[usize],
) -> PyResult<PyReadwriteArrayDyn<'py, f32>> {
    // What the buffer must be, then what it is, in each language.
    let refuse = |got: spielwerk_core::error::Message| {
        invalid_argument(
            py,
            got.map(|got, lang| match lang {
                spielwerk_core::Lang::De => format!(
                    "der Puffer ist ein beschreibbares, C-zusammenhängendes numpy-float32-Array der Form {shape:?}, nicht {got}"
                ),
                spielwerk_core::Lang::En => format!(
                    "the buffer must be a writeable, C-contiguous numpy float32 array of shape {shape:?}, got {got}"
                ),
            }),
        )
    };
    let Ok(array) = out.cast::<PyArrayDyn<f32>>() else {
        let got = if let Ok(dtype) = out.getattr("dtype") {
            spielwerk_core::msg!("an array of dtype {dtype}", "ein Array vom dtype {dtype}")
        } else {
            let kind = out.get_type().name()?;
            spielwerk_core::msg!("a {kind}", "ein {kind}")
        };
        return Err(refuse(got));
    };
    if array.shape() != shape {
        let got = array.shape();
        return Err(refuse(spielwerk_core::msg!("shape {got:?}", "Form {got:?}")));
    }
    if !array.is_c_contiguous() {
        return Err(refuse(spielwerk_core::msg!(
            "a non-contiguous array",
            "ein nicht zusammenhängendes Array"
        )));
    }
    array.try_readwrite().map_err(|e| {
        invalid_argument(
            py,
            spielwerk_core::msg!(
                "the buffer must be a writeable, C-contiguous numpy float32 array of shape {shape:?}: {e}",
                "der Puffer ist ein beschreibbares, C-zusammenhängendes numpy-float32-Array der Form {shape:?}: {e}"
            ),
        )
    })
}

/// Unpickles a state: a snapshot with the seed of its deal (`None` if it was not dealt
/// from a seed), or, from older pickles, JSON or a compact record.
#[pyfunction]
#[pyo3(signature = (game, data, seed = None))]
pub fn _restore_state(game: &Bound<'_, Game>, data: &Bound<'_, PyAny>, seed: Option<u64>) -> PyResult<State> {
    State::read(game, data, seed)
}
