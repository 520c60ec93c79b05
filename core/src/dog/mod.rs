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

mod board;
pub mod cards;
mod checks;
mod codec;
mod json;
mod legal;
mod rules;
mod view;

pub use board::{COLORS, Marble, Place};
pub use cards::{Card, Hand};
pub use codec::{Move, NUM_ACTIONS, SIT_OUT};
pub use rules::{Dog, EndReason, Outcome, Phase, Seven, SevenPart, State};
pub use view::{Color, ExchangeView, MarbleView, SevenView, View};

#[cfg(test)]
mod tests;

#[cfg(test)]
mod contract_tests;
