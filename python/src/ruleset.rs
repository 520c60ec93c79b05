//! The data of `spielwerk.Game` (a rule set with its options), which every state, bot
//! and vector env holds. Its Python methods are in [`crate::games`], which deals and
//! reads states ([`crate::states`]); a state holds its game from here, so the imports
//! run one way: `games` → `states` → `ruleset`.

use std::sync::OnceLock;

use pyo3::prelude::*;
use pyo3::types::PyTuple;
use spielwerk_core::stored;
use spielwerk_core::tensor::TensorSlice;
use spielwerk_core::{DynGame, GameState as _, ObservationTensor as _};

use crate::convert::Int;
use crate::errors::err;

/// A rule set with its options: `spielwerk.load_game(name, **options)`.
#[pyclass(frozen, module = "spielwerk")]
pub struct Game {
    pub inner: Box<dyn DynGame>,
    /// The Python ints `0..num_distinct_actions()`, shared by every `legal_actions()` list.
    pub action_ints: Py<PyTuple>,
    /// The observation tensor's shape and slices, read once from the typed game.
    tensor_layout: OnceLock<TensorLayout>,
}

/// The observation tensor's shape and its slices by name.
pub struct TensorLayout {
    pub shape: Vec<usize>,
    pub len: usize,
    pub slices: Vec<TensorSlice>,
}

impl Game {
    pub fn create(py: Python<'_>, inner: Box<dyn DynGame>) -> PyResult<Py<Game>> {
        let action_ints = PyTuple::new(py, 0..inner.num_distinct_actions() as u32)?.unbind();
        Py::new(
            py,
            Game {
                inner,
                action_ints,
                tensor_layout: OnceLock::new(),
            },
        )
    }

    /// The observation tensor's shape and slices: capabilities of the game's tensor
    /// (`ObservationTensor::observation_tensor_shape`, `describe_observation`). The typed game is
    /// reached through a state of it (`with_state!`, `s.game()`): they depend on the
    /// options only, so they are read once.
    pub fn tensor_layout(&self) -> &TensorLayout {
        self.tensor_layout.get_or_init(|| {
            let state = self.inner.new_initial_state(0);
            let (shape, slices) = spielwerk_core::with_state!(state.as_ref(), s => {
                let game = s.game();
                (game.observation_tensor_shape(), game.describe_observation())
            });
            TensorLayout {
                len: shape.iter().product(),
                shape,
                slices,
            }
        })
    }

    /// The seat `player`, refused unless it is one of this game's.
    pub fn check_player(&self, py: Python<'_>, player: Int) -> PyResult<usize> {
        stored::seat(player.0, self.inner.num_players()).map_err(err(py))
    }
}
