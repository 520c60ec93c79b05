//! The uniformly random player.

use rand::RngExt;

use crate::error::Result;
use crate::game::{Action, GameState};
use crate::rng;

use super::Bot;

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

    /// The bot's choice in `state`, or `None` if the game is over. Each call draws the
    /// next number of the bot's stream (unlike [`Bot::choose`], which starts from a seed).
    pub fn step<S: GameState>(&mut self, state: &S) -> Option<Action> {
        self.step_with(|buf| state.legal_actions_into(buf))
    }

    /// As [`RandomBot::step`] for a state held some other way (behind `dyn`:
    /// `dynamic`'s `step_dyn`): `legal_into` writes its legal actions, ascending, to the
    /// buffer it is given.
    pub fn step_with(&mut self, legal_into: impl FnOnce(&mut Vec<Action>)) -> Option<Action> {
        legal_into(&mut self.buf);
        pick(&mut self.rng, &self.buf)
    }
}

fn pick(rng: &mut rng::Rng, actions: &[Action]) -> Option<Action> {
    if actions.is_empty() {
        None
    } else {
        Some(actions[rng.random_range(0..actions.len())])
    }
}

impl<S: GameState> Bot<S> for RandomBot {
    fn choose(&self, state: &S, seat: usize, seed: u64) -> Result<Option<Action>> {
        let mut actions = Vec::new();
        state.legal_actions_for(seat, &mut actions);
        Ok(pick(&mut rng::seeded(seed, rng::STREAM_POLICY), &actions))
    }
}
