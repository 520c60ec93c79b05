//! The `heuristic` bot of dog: PLACEHOLDER (uniform among the legal actions) until the
//! rules-based player lands. Reads only what `seat` may see.

use rand::RngExt;

use super::State;
use crate::game::{Action, GameState};
use crate::rng::Rng;

/// The heuristic player's action for `seat`, `None` if it may not move now.
pub(crate) fn choose(state: &State, seat: usize, rng: &mut Rng) -> Option<Action> {
    let mut legal = Vec::new();
    state.legal_actions_for(seat, &mut legal);
    if legal.is_empty() {
        None
    } else {
        Some(legal[rng.random_range(0..legal.len())])
    }
}
