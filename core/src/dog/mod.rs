//! Dog (`seeds/dog.de.txt`, RULINGS D1–D13): four players in two teams.
//!
//! # Board
//! Ring fields 0–63; player p's start field is 16·p (D2) and the goal lane's field 0 is
//! one step past it. Marble `4·p + k` (k 0–3) is player p's; colours red, blue, green,
//! yellow for seats 0–3. Partners are 0+2 and 1+3.
//!
//! # Action space (1,810 ids)
//! | ids | action |
//! |---|---|
//! | 0–13 | exchange: give card kind `k` (A, 2–10, J, Q, K, JK) to the partner (D4) |
//! | 14–16 | start a marble with an ace, a king, or a joker (D6) |
//! | `17 + ((joker·13 + kind)·16 + marble)·2 + goal` | move `marble` by move kind `kind` (A 1, A 11, K 13, Q 12, 10, 9, 8, 6, 5, 3, 2, 4, −4), `goal` = into/inside the goal lane |
//! | `849 + ((joker·16 + marble)·7 + steps − 1)·2 + goal` | one part of a seven: `marble` forward `steps` |
//! | `1297 + (joker·16 + marble)·16 + with` | jack: swap `marble` with `with` |
//! | 1809 | sit out: no legal move, the hand is discarded (D5) |
//!
//! A seven is played in parts, one action each, all from the same card; a part is
//! offered only if the rest of the seven can still be used (D8). A joker names the card
//! it stands for through the `joker` bit of the move it makes. A start moves the
//! lowest-numbered marble of the colour in the kennel (kennel marbles are alike).
//!
//! # Exchange (D4)
//! The partners exchange at the same time: during the exchange every seat that has not
//! picked may move (`seats_to_move`, `legal_actions_for`, `apply_action_for`), in any
//! order; `current_player` is the first of them from the round's first player, so
//! seat-agnostic callers pick in seat order as before.
//!
//! # Views and hidden cards
//! A [`View`] is an information state: the board, the own hand, every hand's size, the
//! cards played face up since the pile was last shuffled (and who played which this
//! round), the own face-down discards, the seven's parts so far and the exchange as the
//! seat knows it. Sat-out hands are discarded face down (the seed shows only played
//! cards, "sichtbar"), so they are unseen. `state_from_view` deals the unseen cards at
//! random, keeping the card given to the partner in the partner's hand while it is
//! surely there.
//!
//! # Files
//! `board.rs` geometry and reach masks, `codec.rs` action ids and the [`Move`] enum,
//! `checks.rs` the move check with reasons (the reference), `legal.rs` the fast move
//! generation, `rules.rs` options, rounds and `impl Game`, `json.rs` reading and
//! validating states, `view.rs` the view and `state_from_view`, `facts.rs` the targets
//! of the seat's cards that the board highlights.

mod board;
pub mod cards;
mod checks;
mod codec;
mod facts;
mod heuristic;
mod json;
mod legal;
mod rules;
pub mod tensor;
mod text;
mod view;

pub use board::{COLORS, Marble, Place};
pub use cards::{Card, Hand};
pub use codec::{Move, NUM_ACTIONS, SIT_OUT};
pub use facts::{CardTargets, Target};
pub use rules::{Dog, EndReason, Outcome, Phase, Seven, SevenPart, State};
pub use view::{Color, ExchangeView, MarbleView, SevenView, View};

#[cfg(test)]
mod tests;

#[cfg(test)]
mod contract_tests;
