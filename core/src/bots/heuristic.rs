//! The rules-based player of each game ([`GameState::heuristic_action`]).

use crate::error::Result;
use crate::game::{Action, GameState};
use crate::rng;

use super::Bot;

/// Plays each game's heuristic: what a good human would do by rule of thumb, from the
/// seat's view alone, ties broken by the decision's seed.
#[derive(Clone, Copy, Debug, Default)]
pub struct HeuristicBot;

impl<S: GameState> Bot<S> for HeuristicBot {
    fn choose(&self, state: &S, seat: usize, seed: u64) -> Result<Option<Action>> {
        Ok(state.heuristic_action(seat, &mut rng::seeded(seed, rng::STREAM_POLICY)))
    }
}

/// Plays `state` to the end with every seat following its heuristic; returns the
/// number of actions. Ties are drawn from `rng`.
pub fn heuristic_playout<S: GameState>(state: &mut S, rng: &mut rng::Rng) -> u64 {
    state.heuristic_playout(rng)
}
