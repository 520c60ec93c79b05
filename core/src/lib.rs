//! spielwerk-core: exact, fast rules engines for card games.
//!
//! Every game implements [`Game`] and [`GameState`] (see [`game`]): its rules and nothing
//! else; what its bots know of it is [`bots::Heuristic`]. The registry ([`load_game`],
//! [`list_games`]) hands games out behind the object-safe [`DynGame`] / [`DynState`]
//! layer ([`dynamic`], above the rules and the bots) that the Python bindings wrap. This crate knows
//! nothing of Python or HTTP.
//!
//! Rulings (S1…, C1…, T1…, D1…) refer to `RULINGS.md` of the project.

#![forbid(unsafe_code)]

pub mod bits;
pub mod bots;
pub mod caravan;
pub mod compact;
pub mod dog;
pub mod dynamic;
pub mod error;
pub mod game;
pub mod history;
mod json_out;
pub mod lang;
pub mod meta;
pub mod names;
pub mod registry;
pub mod rng;
pub mod schotten_totten;
pub mod simulate;
pub mod snapshot;
pub mod stored;
pub mod tensor;
mod text_serde;
pub mod the_game;
pub mod vector;

pub use dynamic::{DynGame, DynState};
pub use error::{Error, IllegalAction};
pub use game::{Action, Game, GameState};
pub use history::History;
pub use lang::Lang;
pub use meta::{OptionSpec, OptionType, Utility};
pub use names::Names;
pub use registry::{list_games, load_game};
pub use simulate::{Summary, simulate};
pub use tensor::ObservationTensor;
