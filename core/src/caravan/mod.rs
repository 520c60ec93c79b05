//! Caravan (`seeds/caravan.de.txt`, RULINGS C1–C10), with its twelve variants.
//!
//! # Action space
//! Caravans are numbered absolutely: 0–2 are player 0's, 3–5 player 1's. `P` is the
//! number of positions a caravan can have: 40 number cards (80 with two decks).
//! | ids | action |
//! |---|---|
//! | `number * 6 + caravan` (0–239), `number = suit * 10 + value - 1` | play a number card A–10 onto a caravan |
//! | `240 + (face * 6 + caravan) * P + position`, `face = suit * 3 + rank - 11` for J Q K (0–11), `11 + n` for `JKn` | play a face card onto the caravan's `position`-th number card |
//! | then 56 ids: `card index` (suit·13 + rank − 1, jokers 52–55) | discard a card |
//! | then 6 ids: `caravan` | disband a caravan |
//!
//! Suits are C D H S. Everything a player sees of a caravan (value, direction, suit) is
//! derived from its cards; only *Fester Kurs* remembers a direction. Ids, JSON moves and
//! views number caravans 0–5 and a caravan's number cards from 0; texts for people
//! (`action_to_string`, `render`, the reasons of illegal moves) show them 1-based, as the
//! board does.
//!
//! # Files
//! | file | part of the rules |
//! |---|---|
//! | `cards.rs` | the cards and their notation |
//! | `rules.rs` | the options (the twelve variants, C10), the deal (C1), `impl Game` |
//! | `table.rs` | a caravan's cards and what follows from them: value, direction, suit (C3, C4, C7) |
//! | `state.rs` | the position, applying moves: drawing, effects of face cards, the outcome (C7–C9) |
//! | `codec.rs` | action ids and the JSON [`Move`] |
//! | `checks.rs` | why a move is illegal, with codes and reasons in English and German (C2, C5, C6, C8) |
//! | `legal.rs` | legal-move generation (the hot path) |
//! | `json.rs` | reading and validating states |
//! | `view.rs` | the [`View`] (an information state; for people with the pairs' sale facts, C9) and `state_from_view` |
//! | `text.rs` | texts for people: actions, the board, the result |

pub mod cards;
mod checks;
mod codec;
mod heuristic;
mod json;
mod legal;
mod rules;
mod state;
mod table;
pub mod tensor;
mod text;
mod view;

pub use cards::{Card, Kind};
pub use codec::Move;
pub use rules::{CaravanGame, NUM_CARAVANS, VARIANTS};
pub use state::{EndReason, Outcome, State};
pub use table::{Caravan, Direction, Owned, Slot};
pub use view::{CaravanView, GameName, PairFacts, PairView, SaleRange, SlotView, Suit, View};

#[cfg(test)]
mod tests;
