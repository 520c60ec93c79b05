//! `spielwerk.VectorEnv`: many games stepped in Rust (`spielwerk_core::vector`), filling
//! numpy buffers allocated once.

use std::sync::Mutex;

use numpy::{PyArray1, PyArray2, PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use spielwerk_core::stored::Deal;
use spielwerk_core::vector::{AnyVectorEnv, Buffers, Opponents, mask_bits_len};

use crate::convert::{Int, Seed, Text, count_arg, lock, threads_arg};
use crate::errors::{err, invalid_argument};
use crate::games::game_arg;
use crate::ruleset::Game;
use crate::states::State;

/// `n_envs` games of one rule set stepped together in Rust, without the GIL, over the
/// cores. `reset()` and `step(actions)` fill the same preallocated arrays each time
/// (copy what you keep): observations `[n, len]` float32, `infos["action_mask"]`
/// `[n, num_distinct_actions]` uint8 (unless `action_mask=False`); with
/// `action_mask_bits=True` `infos["action_mask_bits"]`, the masks packed 8 actions a byte
/// (`np.packbits(mask, axis=1, bitorder="little")`, each row padded with zeros to whole
/// 64-bit words); rewards `[n, players]`
/// float32 (`[n]`, seat 0's, with opponents), terminations and truncations `[n]` bool,
/// `infos["seat"]` `[n]` int64; with `legal_actions=True` also `infos["legal_actions"]`
/// `[n, num_distinct_actions]` int64 (row `i`: its legal actions ascending, then -1) and
/// `infos["legal_counts"]` `[n]` int64. See the README, section "VectorEnv", for
/// opponents, autoreset and seeds.
#[pyclass(frozen, module = "spielwerk")]
pub struct VectorEnv {
    game: Py<Game>,
    inner: Mutex<AnyVectorEnv>,
    observations: Py<PyArray2<f32>>,
    masks: Option<Py<PyArray2<u8>>>,
    mask_bits: Option<Py<PyArray2<u8>>>,
    legal_actions: Option<Py<PyArray2<i64>>>,
    legal_counts: Option<Py<PyArray1<i64>>>,
    rewards: Py<PyArrayDyn<f32>>,
    terminations: Py<PyArray1<bool>>,
    truncations: Py<PyArray1<bool>>,
    seats: Py<PyArray1<i64>>,
}

/// A numpy buffer of the env borrowed for writing, or the package's error if Python
/// code holds it borrowed (numpy's borrow flags: e.g. another thread's call into it).
fn borrow<'py, T: numpy::Element, D: numpy::ndarray::Dimension>(
    py: Python<'py>,
    array: &Bound<'py, numpy::PyArray<T, D>>,
    name: &str,
) -> PyResult<numpy::PyReadwriteArray<'py, T, D>> {
    array.try_readwrite().map_err(|e| {
        invalid_argument(
            py,
            spielwerk_core::msg!(
                "the vector env's {name} array is borrowed elsewhere ({e}); no env moved",
                "das Array {name} der Vektorumgebung ist anderswo ausgeliehen ({e}); keine Umgebung hat gezogen"
            ),
        )
    })
}

impl VectorEnv {
    /// Runs `f` on the core env with every buffer, without the GIL. The env's lock is
    /// taken first, then the arrays are borrowed: a borrow that fails is an error, never
    /// a panic, and leaves the env as it was.
    fn fill(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut AnyVectorEnv, Buffers<'_>) -> spielwerk_core::error::Result<()> + Send,
    ) -> PyResult<()> {
        let mut inner = lock(py, &self.inner);
        let observations = self.observations.bind(py);
        let masks = self.masks.as_ref().map(|m| m.bind(py));
        let mask_bits = self.mask_bits.as_ref().map(|m| m.bind(py));
        let legal_actions = self.legal_actions.as_ref().map(|m| m.bind(py));
        let legal_counts = self.legal_counts.as_ref().map(|m| m.bind(py));
        let (rewards, terminations) = (self.rewards.bind(py), self.terminations.bind(py));
        let (truncations, seats) = (self.truncations.bind(py), self.seats.bind(py));
        let mut obs = borrow(py, observations, "observations")?;
        let mut masks = masks.map(|m| borrow(py, m, "action_mask")).transpose()?;
        let mut mask_bits = mask_bits.map(|m| borrow(py, m, "action_mask_bits")).transpose()?;
        let mut lists = legal_actions
            .map(|m| borrow(py, m, "legal_actions"))
            .transpose()?;
        let mut counts = legal_counts.map(|m| borrow(py, m, "legal_counts")).transpose()?;
        let mut rewards = borrow(py, rewards, "rewards")?;
        let mut terms = borrow(py, terminations, "terminations")?;
        let mut truncs = borrow(py, truncations, "truncations")?;
        let mut seats = borrow(py, seats, "seat")?;
        let buffers = Buffers {
            observations: obs.as_slice_mut().expect("own array"),
            masks: masks.as_mut().map(|m| m.as_slice_mut().expect("own array")),
            mask_bits: mask_bits.as_mut().map(|m| m.as_slice_mut().expect("own array")),
            legal_actions: lists.as_mut().map(|m| m.as_slice_mut().expect("own array")),
            legal_counts: counts.as_mut().map(|m| m.as_slice_mut().expect("own array")),
            rewards: rewards.as_slice_mut().expect("own array"),
            terminations: terms.as_slice_mut().expect("own array"),
            truncations: truncs.as_slice_mut().expect("own array"),
            seats: seats.as_slice_mut().expect("own array"),
        };
        let env = &mut *inner;
        py.detach(move || f(env, buffers)).map_err(err(py))
    }

    fn infos<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let infos = PyDict::new(py);
        if let Some(masks) = &self.masks {
            infos.set_item("action_mask", masks.bind(py))?;
        }
        if let Some(bits) = &self.mask_bits {
            infos.set_item("action_mask_bits", bits.bind(py))?;
        }
        if let (Some(lists), Some(counts)) = (&self.legal_actions, &self.legal_counts) {
            infos.set_item("legal_actions", lists.bind(py))?;
            infos.set_item("legal_counts", counts.bind(py))?;
        }
        infos.set_item("seat", self.seats.bind(py))?;
        Ok(infos)
    }
}

#[pymethods]
impl VectorEnv {
    /// `n_envs` games of `game` (a `Game` or a name); `opponents` "random" or "heuristic"
    /// plays every seat but 0 inside the step; `threads` None uses every core;
    /// `action_mask`, `action_mask_bits` and `legal_actions` choose which forms of the
    /// legal actions are written (a form not asked for costs nothing).
    #[new]
    #[pyo3(
        signature = (game, n_envs, seed = Seed(0), opponents = None, threads = None, *, action_mask = true, action_mask_bits = false, legal_actions = false),
        text_signature = "(game, n_envs, seed=0, opponents=None, threads=None, *, action_mask=True, action_mask_bits=False, legal_actions=False)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        n_envs: Int,
        seed: Seed,
        opponents: Option<Text>,
        threads: Option<Int>,
        action_mask: bool,
        action_mask_bits: bool,
        legal_actions: bool,
    ) -> PyResult<VectorEnv> {
        let game = game_arg(py, game)?;
        let n = usize::try_from(count_arg(py, n_envs, "n_envs")?).map_err(|_| {
            invalid_argument(
                py,
                spielwerk_core::msg!("n_envs is too large", "n_envs ist zu groß"),
            )
        })?;
        let opponents = opponents
            .map(|o| Opponents::parse(o.0))
            .transpose()
            .map_err(err(py))?;
        let threads = threads_arg(py, threads)?;
        let inner =
            AnyVectorEnv::new(game.get().inner.as_ref(), n, seed.0, opponents, threads).map_err(err(py))?;
        let layout = game.get().tensor_layout();
        let actions = game.get().inner.num_distinct_actions();
        let width = inner.reward_width();
        let rewards = if opponents.is_some() {
            PyArrayDyn::zeros(py, vec![n], false)
        } else {
            PyArrayDyn::zeros(py, vec![n, width], false)
        };
        let env = VectorEnv {
            observations: PyArray2::zeros(py, [n, layout.len], false).unbind(),
            masks: action_mask.then(|| PyArray2::zeros(py, [n, actions], false).unbind()),
            mask_bits: action_mask_bits
                .then(|| PyArray2::zeros(py, [n, mask_bits_len(actions)], false).unbind()),
            legal_actions: legal_actions.then(|| PyArray2::zeros(py, [n, actions], false).unbind()),
            legal_counts: legal_actions.then(|| PyArray1::zeros(py, n, false).unbind()),
            rewards: rewards.unbind(),
            terminations: PyArray1::from_vec(py, vec![false; n]).unbind(),
            truncations: PyArray1::from_vec(py, vec![false; n]).unbind(),
            seats: PyArray1::zeros(py, n, false).unbind(),
            inner: Mutex::new(inner),
            game,
        };
        env.fill(py, |e, b| e.reset(None, b))?;
        Ok(env)
    }

    /// Every env back to episode 0 (of `seed` if given): `(observations, infos)`.
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(
        &self,
        py: Python<'py>,
        seed: Option<Seed>,
    ) -> PyResult<(Py<PyArray2<f32>>, Bound<'py, PyDict>)> {
        let seed = seed.map(|s| s.0);
        self.fill(py, move |e, b| e.reset(seed, b))?;
        Ok((self.observations.clone_ref(py), self.infos(py)?))
    }

    /// Applies `actions[i]` (for env `i`'s seat to move) in every env:
    /// `(observations, rewards, terminations, truncations, infos)`. Unless every action
    /// is legal the step is refused with a `SpielwerkError` naming the env, and no env moves.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<(
        Py<PyArray2<f32>>,
        Py<PyArrayDyn<f32>>,
        Py<PyArray1<bool>>,
        Py<PyArray1<bool>>,
        Bound<'py, PyDict>,
    )> {
        let actions: Vec<i64> = match actions.cast::<PyArray1<i64>>() {
            Ok(a) if a.is_c_contiguous() => match a.try_readonly() {
                Ok(a) => a.as_slice().expect("contiguous").to_vec(),
                Err(e) => {
                    return Err(invalid_argument(
                        py,
                        spielwerk_core::msg!(
                            "the actions array is borrowed for writing elsewhere ({e}); no env moved",
                            "das Array actions ist anderswo zum Schreiben ausgeliehen ({e}); keine Umgebung hat gezogen"
                        ),
                    ));
                }
            },
            _ => actions.extract().map_err(|_| {
                invalid_argument(
                    py,
                    spielwerk_core::msg!(
                        "actions must be a 1-D array or sequence of integers, one per env",
                        "actions ist ein eindimensionales Array oder eine Folge ganzer Zahlen, eine je Umgebung"
                    ),
                )
            })?,
        };
        self.fill(py, move |e, b| e.step(&actions, b))?;
        Ok((
            self.observations.clone_ref(py),
            self.rewards.clone_ref(py),
            self.terminations.clone_ref(py),
            self.truncations.clone_ref(py),
            self.infos(py)?,
        ))
    }

    /// A copy of env `index`'s position (a `State` dealt from its episode's seed).
    fn state(&self, py: Python<'_>, index: Int) -> PyResult<State> {
        let snapshot = usize::try_from(index.0)
            .ok()
            .and_then(|i| lock(py, &self.inner).snapshot(i));
        let Some((bytes, seed)) = snapshot else {
            let n = lock(py, &self.inner).num_envs();
            let (env, last) = (index.0, n - 1);
            return Err(invalid_argument(
                py,
                spielwerk_core::msg!(
                    "env {env}: the envs are 0 to {last}",
                    "Umgebung {env}: die Umgebungen sind 0 bis {last}"
                ),
            ));
        };
        let state = self
            .game
            .get()
            .inner
            .deserialize_snapshot(&bytes)
            .map_err(err(py))?;
        Ok(State::new(py, &self.game, state, Deal::Seed(seed)))
    }

    /// The seed episode `episode` of env `index` is dealt from, under the base `seed`.
    #[staticmethod]
    fn episode_seed(seed: Seed, index: Seed, episode: Seed) -> u64 {
        spielwerk_core::vector::episode_seed(seed.0, index.0, episode.0)
    }

    #[getter]
    fn num_envs(&self, py: Python<'_>) -> usize {
        lock(py, &self.inner).num_envs()
    }

    #[getter]
    fn game(&self, py: Python<'_>) -> Py<Game> {
        self.game.clone_ref(py)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "<spielwerk.VectorEnv {} × {}>",
            lock(py, &self.inner).num_envs(),
            self.game.get().inner.name()
        )
    }
}
