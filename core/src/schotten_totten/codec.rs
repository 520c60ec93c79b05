//! Action ids and the JSON move: the action space of `mod.rs`, both ways.
//!
//! In Schotten Totten every field of the JSON [`Move`] is already an id (a card and a stone 0-8),
//! so the move is also the action taken apart: [`Decoded`] names it as in the other games.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::cards::{Card, NUM_CARDS};
use super::rules::NUM_STONES;
use crate::error::{Error, Result};
use crate::game::Action;

const CLAIM_BASE: Action = NUM_CARDS as Action * NUM_STONES as Action;
pub const PASS: Action = CLAIM_BASE + NUM_STONES as Action;
pub const END_TURN: Action = PASS + 1;
pub const NUM_ACTIONS: usize = END_TURN as usize + 1;

/// The action that plays `card` at `stone`.
pub const fn play_action(card: Card, stone: usize) -> Action {
    card.index() as Action * NUM_STONES as Action + stone as Action
}

/// The action that claims `stone`.
pub const fn claim_action(stone: usize) -> Action {
    CLAIM_BASE + stone as Action
}

/// A move as JSON (README "Turns and actions"): `{"type": "play", "card": "B5", "stone": 3}`,
/// `{"type": "claim", "stone": 3}`, `{"type": "pass"}` or `{"type": "end_turn"}`.
/// Stones are 0-8 here and in every API, 1-9 on screen (S1).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[schemars(rename = "SchottenTottenMove")]
pub enum Move {
    /// S3a: play a card from the hand onto the mover's side of an unowned stone.
    Play {
        /// A card in the mover's hand.
        card: Card,
        /// The stone, 0-8 (shown as 1-9).
        #[schemars(range(max = 8))]
        stone: u8,
    },
    /// S3b: claim a stone whose win is proven (S5), after playing a card or passing.
    Claim {
        /// The stone, 0-8 (shown as 1-9).
        #[schemars(range(max = 8))]
        stone: u8,
    },
    /// S3a: sit the turn out; allowed only when no card can be played.
    // `Pass {}` and `EndTurn {}` rather than unit variants: serde's internally tagged
    // unit variants ignore unknown fields, struct variants refuse them.
    Pass {},
    /// S3b: end the turn without (further) claims; the draw follows (S3c).
    EndTurn {},
}

impl Move {
    /// The move of an action id; `None` outside the action space.
    pub fn decode(action: Action) -> Option<Move> {
        Some(match action {
            a if a < CLAIM_BASE => Move::Play {
                card: Card::from_index((a / NUM_STONES as Action) as u8),
                stone: (a % NUM_STONES as Action) as u8,
            },
            a if a < PASS => Move::Claim {
                stone: (a - CLAIM_BASE) as u8,
            },
            PASS => Move::Pass {},
            END_TURN => Move::EndTurn {},
            _ => return None,
        })
    }

    /// The action id; a stone outside 0-8 is refused with what is allowed.
    pub fn encode(self) -> Result<Action> {
        let stone_ok = |stone: u8| {
            if (stone as usize) < NUM_STONES {
                Ok(stone as usize)
            } else {
                Err(Error::InvalidMove(crate::msg!(
                    "stone {stone} does not exist: stones are numbered 0-8 (S1; shown as 1-9)",
                    "Stein {stone} gibt es nicht: die Steine sind 0-8 nummeriert (S1; gezeigt als 1-9)"
                )))
            }
        };
        Ok(match self {
            Move::Play { card, stone } => play_action(card, stone_ok(stone)?),
            Move::Claim { stone } => claim_action(stone_ok(stone)?),
            Move::Pass {} => PASS,
            Move::EndTurn {} => END_TURN,
        })
    }
}

/// The action taken apart (the name every game's `codec.rs` uses): here the JSON move itself.
pub(super) type Decoded = Move;
