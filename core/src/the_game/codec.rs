//! Action ids and the JSON move ([`Move`], defined with the view): the action space of
//! `mod.rs`, both ways, through [`Decoded`], the action taken apart.

use super::cards::{HIGHEST, LOWEST, NUM_CARDS};
use super::rules::NUM_PILES;
use super::view::Move;
use crate::error::{Error, Result};
use crate::game::Action;

pub const END_TURN: Action = (NUM_CARDS * NUM_PILES) as Action;
pub const NUM_ACTIONS: usize = END_TURN as usize + 1;

/// The action that plays `card` on `pile`.
pub const fn play_action(card: u8, pile: usize) -> Action {
    (card - LOWEST) as Action * NUM_PILES as Action + pile as Action
}

/// An action taken apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Decoded {
    /// Play `card` (2-99) on `pile` (0-3).
    Play {
        card: u8,
        pile: usize,
    },
    EndTurn,
}

impl Decoded {
    /// The decoded action; `None` for an id outside the action space.
    pub(super) fn decode(action: Action) -> Option<Decoded> {
        match action.cmp(&END_TURN) {
            std::cmp::Ordering::Less => Some(Decoded::Play {
                card: LOWEST + (action / NUM_PILES as Action) as u8,
                pile: (action % NUM_PILES as Action) as usize,
            }),
            std::cmp::Ordering::Equal => Some(Decoded::EndTurn),
            std::cmp::Ordering::Greater => None,
        }
    }

    /// The JSON move of a decoded action: the one way back, so that ids and moves agree.
    pub(super) fn to_move(self) -> Move {
        match self {
            Decoded::Play { card, pile } => Move::Play {
                card: card.into(),
                pile: pile as i64,
            },
            Decoded::EndTurn => Move::EndTurn {},
        }
    }
}

pub(super) fn encode_move(mv: &Move) -> Result<Action> {
    match *mv {
        Move::EndTurn {} => Ok(END_TURN),
        Move::Play { card, pile } => {
            if !(i64::from(LOWEST)..=i64::from(HIGHEST)).contains(&card) {
                return Err(Error::InvalidMove(format!(
                    "card {card} does not exist: cards are 2-99 (T1)"
                )));
            }
            if !(0..NUM_PILES as i64).contains(&pile) {
                return Err(Error::InvalidMove(format!(
                    "pile {pile} does not exist: piles are 0-3 (0 and 1 ascend from 1, 2 and 3 \
                     descend from 100)"
                )));
            }
            Ok(play_action(card as u8, pile as usize))
        }
    }
}
