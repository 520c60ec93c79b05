//! The Game (`seeds/the_game.de.txt`, RULINGS T1–T7): 1–5 players, cooperative.
//!
//! # Action space (393 ids)
//! | ids | action |
//! |---|---|
//! | `(card - 2) * 4 + pile` (0–391) | play `card` (2–99) on `pile`: 0 and 1 ascend from 1, 2 and 3 descend from 100 |
//! | 392 | end the turn (only once the minimum is played, T3) |
//!
//! A turn is a sequence of single plays; it ends by the end-turn action, or by itself
//! when the player's hand is empty. The draw follows the turn's end. Texts for people
//! name the piles "ascending pile 1/2" and "descending pile 1/2" (ids 0/1 and 2/3).

mod heuristic;
mod state;
pub mod talk;
pub mod tensor;
mod text;
mod view;

pub use state::{END_TURN, Hand, NUM_ACTIONS, NUM_PILES, Outcome, State, TheGame, pile_name, play_action};
pub use talk::{check_talk, mentions_number};
pub use view::{Direction, GameName, Move, PileView, View, ViewOutcome};

#[cfg(test)]
mod tests;
