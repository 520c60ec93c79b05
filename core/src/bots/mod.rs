//! Bots: players that choose actions for any game, by name.
//!
//! A bot decides for one seat from what that seat may see. [`Bot`] is the generic face
//! (any [`GameState`], monomorphised, for search and benchmarks); its object-safe face,
//! made by name for one game, that Python holds and that an evaluation seats at a table,
//! is `dynamic::DynBot`, a layer above this one. What a bot asks of a game beyond its
//! rules (its heuristic, a position value, dominant actions) is [`Heuristic`], which each
//! game implements in its own `heuristic.rs`. A decision is a pure function of
//! the seat's information state and a seed: the same seed gives the same move, and two
//! states that look the same to the seat get the same move ([`seed_for_view`]).
//!
//! - `random`: uniformly among the legal actions ([`RandomBot`]).
//! - `heuristic`: each game's rules-based player ([`HeuristicBot`]).
//! - `ismcts`: single-observer information-set Monte Carlo tree search ([`Ismcts`]).
//! - `pimc`: determinized search over the heuristic ([`Pimc`]).

use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::game::{Action, GameState};
use crate::rng;

pub mod evaluate;
mod heuristic;
pub mod ismcts;
pub mod levels;
pub mod pimc;
mod random;
#[cfg(test)]
mod tests;

pub use evaluate::{Evaluation, Standing};
pub use heuristic::{Heuristic, HeuristicBot, heuristic_playout};
pub use ismcts::{Ismcts, IsmctsParams, Rollout};
pub use pimc::{Pimc, PimcParams};
pub use random::RandomBot;

/// Never stop.
pub fn never() -> bool {
    false
}

/// A player for the states `S` of one game.
pub trait Bot<S: GameState>: Send + Sync {
    /// The action of `seat` in `state`, decided from `seed` and from nothing `seat` cannot
    /// see; `None` if `seat` may not move now. Where several seats may move (Dog's
    /// exchange), any of [`GameState::seats_to_move`] can be asked.
    fn choose(&self, state: &S, seat: usize, seed: u64) -> Result<Option<Action>>;

    /// As [`Bot::choose`], giving up with [`Error::Interrupted`] once `stop` returns true
    /// (a long search asks it as it goes; Ctrl-C in Python).
    fn choose_until(
        &self,
        state: &S,
        seat: usize,
        seed: u64,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<Option<Action>> {
        if stop() {
            return Err(Error::Interrupted);
        }
        self.choose(state, seat, seed)
    }

    /// Whether a decision is a search whose work grows with its parameters (`ismcts`),
    /// rather than a rule-based answer in microseconds: a server runs searches off its
    /// event loop and lets a search bot move once per request.
    fn searches(&self) -> bool {
        false
    }
}

/// Refuses parameter names a bot does not take, naming the ones it does.
pub fn reject_unknown_params(bot: &str, params: &Map<String, Value>, known: &[&str]) -> Result<()> {
    match params.keys().find(|k| !known.contains(&k.as_str())) {
        None => Ok(()),
        Some(name) => {
            let (name, known) = (crate::error::shorten(name), known.join(", "));
            Err(Error::InvalidBotParams(if known.is_empty() {
                crate::msg!(
                    "{bot} has no parameter '{name}' (it takes none)",
                    "{bot} hat keine Einstellung '{name}' (er hat keine)"
                )
            } else {
                crate::msg!(
                    "{bot} has no parameter '{name}' (allowed: {known})",
                    "{bot} hat keine Einstellung '{name}' (erlaubt: {known})"
                )
            }))
        }
    }
}

/// The seed of a decision by a bot seeded with `seed` in the information state `key`
/// (`information_state_key` of the deciding seat): equal views, equal seeds. FNV-1a
/// over the key, spread by SplitMix64: the same on every machine and Rust version.
pub fn seed_for_view(seed: u64, key: &[u8]) -> u64 {
    let hash = key.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    rng::mix(seed ^ rng::mix(hash))
}

/// What a bot tells about its parameters.
pub trait Params {
    fn params(&self) -> Map<String, Value>;
}

impl Params for HeuristicBot {
    fn params(&self) -> Map<String, Value> {
        Map::new()
    }
}

impl Params for RandomBot {
    fn params(&self) -> Map<String, Value> {
        Map::new()
    }
}
