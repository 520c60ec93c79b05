//! spielwerk-core: exact, fast rules engines for card games.
//!
//! Every game implements [`Game`] and [`GameState`] (see [`game`]); the registry
//! ([`load_game`], [`list_games`]) hands them out behind the object-safe
//! [`DynGame`] / [`DynState`] layer that the Python bindings wrap. This crate knows
//! nothing of Python or HTTP.
//!
//! Rulings (S1…, C1…, T1…, D1…) refer to `RULINGS.md` of the project.

#![forbid(unsafe_code)]

pub mod bits;
pub mod bots;
pub mod caravan;
pub mod compact;
pub mod dog;
pub mod error;
pub mod game;
pub mod history;
mod json_out;
pub mod meta;
pub mod registry;
pub mod rng;
pub mod schotten_totten;
pub mod simulate;
pub mod snapshot;
pub mod tensor;
mod text_serde;
pub mod the_game;

pub use error::{Error, IllegalAction};
pub use game::{Action, DynGame, DynState, Game, GameState};
pub use history::History;
pub use meta::{OptionSpec, OptionType, Utility};
pub use registry::{list_games, load_game};
pub use simulate::{Summary, simulate};
