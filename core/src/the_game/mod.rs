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
//!
//! # Files
//! | file | part of the rules |
//! |---|---|
//! | `cards.rs` | the cards 2-99 and sets of them ([`Hand`]) |
//! | `rules.rs` | the options (T2, T3), the piles (T1, T4), the deal, `impl Game` |
//! | `state.rs` | the position, applying moves: plays, drawing, the end (T3, T5, T6) |
//! | `codec.rs` | action ids, `Decoded` (the action taken apart) and the JSON [`Move`] (defined in `view.rs`) |
//! | `checks.rs` | why a move is illegal, with codes and reasons in English and German |
//! | `legal.rs` | legal-move generation (the hot path) |
//! | `json.rs` | reading and validating states |
//! | `view.rs` | the [`View`] (an information state; for people with what each pile takes, T4), the JSON [`Move`] and `state_from_view` |
//! | `text.rs` | texts for people: the piles, actions, the board, the result |
//! | `talk.rs` | the table talk check (T7) |
//! | `heuristic.rs` | the `heuristic` bot |
//! | `tensor.rs` | the observation tensor |

mod cards;
mod checks;
mod codec;
mod heuristic;
mod json;
mod legal;
mod rules;
mod state;
pub mod talk;
pub mod tensor;
mod text;
mod view;

pub use cards::Hand;
pub use codec::{END_TURN, NUM_ACTIONS, play_action};
pub use rules::{NUM_PILES, TheGame};
pub use state::{Outcome, State};
pub use talk::{check_talk, mentions_number, number_named};
pub use text::pile_name;
pub use view::{Direction, GameName, Move, PileView, View, ViewOutcome};

#[cfg(test)]
mod tests;
