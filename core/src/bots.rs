//! Bots that choose actions for any game.

use rand::RngExt;

use crate::game::{Action, DynState, GameState};
use crate::rng;

/// Picks uniformly among the legal actions, from its own seeded ChaCha8 stream.
#[derive(Clone, Debug)]
pub struct RandomBot {
    rng: rng::Rng,
    buf: Vec<Action>,
}

impl RandomBot {
    pub fn new(seed: u64) -> Self {
        Self {
            rng: rng::seeded(seed, rng::STREAM_POLICY),
            buf: Vec::new(),
        }
    }

    /// The bot's choice in `state`, or `None` if the game is over.
    pub fn step<S: GameState>(&mut self, state: &S) -> Option<Action> {
        state.legal_actions_into(&mut self.buf);
        self.pick()
    }

    /// As [`RandomBot::step`], for a state behind the object-safe layer.
    pub fn step_dyn(&mut self, state: &dyn DynState) -> Option<Action> {
        state.legal_actions_into(&mut self.buf);
        self.pick()
    }

    fn pick(&mut self) -> Option<Action> {
        if self.buf.is_empty() {
            None
        } else {
            Some(self.buf[self.rng.random_range(0..self.buf.len())])
        }
    }
}
