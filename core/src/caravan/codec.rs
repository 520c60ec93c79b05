//! Action ids and JSON moves: the action space of `mod.rs`, both ways.
//!
//! JSON moves are the [`Move`] enum, parsed and described (JSON Schema) by serde; an
//! action id is decoded into [`Decoded`], the move taken apart, which the checks, the
//! legal-move generation and the texts use. Caravans and positions are 0-based here,
//! as in every API; texts for people show them 1-based (see `text.rs`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::cards::{Card, JACK};
use super::rules::{CaravanGame, NUM_CARAVANS};
use crate::error::{Error, Result};
use crate::game::Action;

/// A move taken apart. `caravan` is absolute (0–5); `position` counts number cards.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Decoded {
    Play {
        card: Card,
        caravan: usize,
        position: usize,
    },
    Discard(Card),
    Disband(usize),
}

impl CaravanGame {
    pub(super) fn encode(&self, mv: Decoded) -> Action {
        match mv {
            Decoded::Play {
                card,
                caravan,
                position,
            } => {
                if card.is_number() {
                    (card.play_index() * NUM_CARAVANS + caravan) as Action
                } else {
                    Self::FACE_BASE
                        + ((card.play_index() * NUM_CARAVANS + caravan) * self.positions() + position)
                            as Action
                }
            }
            Decoded::Discard(card) => self.discard_base() + card.index() as Action,
            Decoded::Disband(caravan) => self.disband_base() + caravan as Action,
        }
    }

    pub(super) fn decode(&self, action: Action) -> Option<Decoded> {
        let a = action as usize;
        let positions = self.positions();
        if action < Self::FACE_BASE {
            let (number, caravan) = (a / NUM_CARAVANS, a % NUM_CARAVANS);
            let card = Card::new((number / 10) as u8, (number % 10) as u8 + 1);
            Some(Decoded::Play {
                card,
                caravan,
                position: 0,
            })
        } else if action < self.discard_base() {
            let a = a - Self::FACE_BASE as usize;
            let (face, rest) = (a / (NUM_CARAVANS * positions), a % (NUM_CARAVANS * positions));
            let card = if face < 12 {
                Card::new((face / 3) as u8, JACK + (face % 3) as u8)
            } else {
                Card::joker((face - 11) as u8)
            };
            Some(Decoded::Play {
                card,
                caravan: rest / positions,
                position: rest % positions,
            })
        } else if action < self.disband_base() {
            Some(Decoded::Discard(Card::from_index(
                (action - self.discard_base()) as u8,
            )))
        } else if (a) < self.num_actions() {
            Some(Decoded::Disband(a - self.disband_base() as usize))
        } else {
            None
        }
    }
}

/// A move as JSON. Caravans are numbered 0–5: 0–2 are player 0's, 3–5 player 1's, and
/// caravan `i` faces caravan `3 + i` (pair `i`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[schemars(rename = "CaravanMove")]
pub enum Move {
    /// Play a card from the hand. A number card (A–10) goes onto the end of one of the
    /// player's own caravans and takes no `position` (C5); a face card (J, Q, K, joker)
    /// goes onto the `position`-th number card of any caravan (C6).
    Play {
        /// The card, e.g. `"7H"`, `"QS"`, `"JK1"`.
        card: Card,
        /// The caravan, 0–5.
        caravan: i64,
        /// Face cards only: which number card of the caravan, counted from 0.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        position: Option<i64>,
    },
    /// Discard a card from the hand onto the own discard pile (C8; in the opening only
    /// without a number card in hand, C2).
    Discard {
        /// The card, e.g. `"7H"`.
        card: Card,
    },
    /// Disband one of the player's own caravans: all its cards go to their owners'
    /// discard piles (C8).
    Disband {
        /// The caravan, 0–5.
        caravan: i64,
    },
}

/// A caravan or position number of a JSON move, checked against `0..below`.
fn index(field: &str, value: i64, below: usize, allowed: &str) -> Result<usize> {
    usize::try_from(value)
        .ok()
        .filter(|&n| n < below)
        .ok_or_else(|| Error::InvalidMove(format!("{field} {value} does not exist: {allowed}")))
}

const CARAVANS: &str = "caravans are 0-5 (0-2 player 0's, 3-5 player 1's)";

impl CaravanGame {
    /// The action id of a JSON move; numbers out of range are [`Error::InvalidMove`].
    pub(super) fn encode_move(&self, mv: &Move) -> Result<Action> {
        let decoded = match *mv {
            Move::Play {
                card,
                caravan,
                position,
            } => {
                let caravan = index("caravan", caravan, NUM_CARAVANS, CARAVANS)?;
                let position = match (card.is_number(), position) {
                    (true, None) => 0,
                    (true, Some(_)) => {
                        return Err(Error::InvalidMove(format!(
                            "{card} is a number card: it goes onto the end of the caravan and takes no 'position'"
                        )));
                    }
                    (false, None) => {
                        return Err(Error::InvalidMove(format!(
                            "{card} is a face card: the move needs a 'position', the caravan's number card it goes onto (0 = the first)"
                        )));
                    }
                    (false, Some(p)) => {
                        let most = self.positions();
                        index(
                            "position",
                            p,
                            most,
                            &format!("positions are 0-{} (a caravan's number cards, from 0)", most - 1),
                        )?
                    }
                };
                Decoded::Play {
                    card,
                    caravan,
                    position,
                }
            }
            Move::Discard { card } => Decoded::Discard(card),
            Move::Disband { caravan } => Decoded::Disband(index("caravan", caravan, NUM_CARAVANS, CARAVANS)?),
        };
        Ok(self.encode(decoded))
    }
}

impl Decoded {
    /// The JSON move of a decoded action: the one way back, so that ids and moves agree.
    pub(super) fn to_move(self) -> Move {
        match self {
            Decoded::Play {
                card,
                caravan,
                position,
            } => Move::Play {
                card,
                caravan: caravan as i64,
                position: (!card.is_number()).then_some(position as i64),
            },
            Decoded::Discard(card) => Move::Discard { card },
            Decoded::Disband(caravan) => Move::Disband {
                caravan: caravan as i64,
            },
        }
    }
}
