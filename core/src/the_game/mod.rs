//! The Game (`seeds/the_game.de.txt`, RULINGS T1–T7): 1–5 players, cooperative.
//!
//! # Action space (393 ids)
//! | ids | action |
//! |---|---|
//! | `(card - 2) * 4 + pile` (0–391) | play `card` (2–99) on `pile`: 0 and 1 ascend from 1, 2 and 3 descend from 100 |
//! | 392 | end the turn (only once the minimum is played, T3) |
//!
//! A turn is a sequence of single plays; it ends by the end-turn action, or by itself
//! when the player's hand is empty. The draw follows the turn's end.

mod state;
pub mod talk;

pub use state::{END_TURN, Hand, NUM_ACTIONS, NUM_PILES, Outcome, State, TheGame, play_action};
pub use talk::mentions_number;

#[cfg(test)]
mod tests;
