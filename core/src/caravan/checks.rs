//! Why a move is illegal: the checks of C2, C5, C6 and C8 with their reasons.

use super::cards::{Kind, SUIT_NAMES};
use super::codec::*;
use super::state::*;
use super::table::*;
use crate::error::{IllegalAction, Result};

fn suit_name(suit: Option<u8>) -> &'static str {
    suit.map_or("none", |s| SUIT_NAMES[s as usize])
}

impl State {
    pub(super) fn check(&self, mv: Move) -> Result<(), IllegalAction> {
        if self.outcome.is_some() {
            return Err(IllegalAction::untyped("C9", "the game is over"));
        }
        let me = self.current as usize;
        let opening = self.in_opening(me);
        match mv {
            Move::Play {
                card,
                caravan,
                position,
            } => {
                if !self.hands[me].contains(&card) {
                    return Err(IllegalAction::untyped(
                        "C8",
                        format!("{card} is not in player {me}'s hand"),
                    ));
                }
                let target = &self.caravans[caravan];
                if let Kind::Number(value) = card.kind() {
                    if owner_of(caravan) != me {
                        return Err(IllegalAction::untyped(
                            "C5",
                            format!(
                                "number cards go onto the player's own caravans only: caravan {caravan} is player {}'s",
                                owner_of(caravan)
                            ),
                        ));
                    }
                    if opening && !target.slots.is_empty() {
                        return Err(IllegalAction::untyped(
                            "C2",
                            format!(
                                "in the opening a number card goes onto an empty caravan of one's own; caravan {caravan} is not empty"
                            ),
                        ));
                    }
                    let Some(last) = target.slots.last() else {
                        return Ok(());
                    };
                    let last_card = last.number.card;
                    if last_card.value() == value {
                        return Err(IllegalAction::untyped(
                            "C5",
                            format!("{card} cannot follow {last_card}: never the same value twice in a row"),
                        ));
                    }
                    if let Some(direction) = target.direction(&self.rules) {
                        let follows = match direction {
                            Direction::Ascending => value > last_card.value(),
                            Direction::Descending => value < last_card.value(),
                        };
                        let suit = target.suit(&self.rules);
                        if !follows && card.suit() != suit {
                            let dir = if direction == Direction::Ascending {
                                "an ascending"
                            } else {
                                "a descending"
                            };
                            return Err(IllegalAction::untyped(
                                "C5",
                                format!(
                                    "{card} cannot follow {last_card} on {dir} caravan unless it is {}",
                                    suit_name(suit)
                                ),
                            ));
                        }
                    }
                    Ok(())
                } else {
                    if opening {
                        return Err(IllegalAction::untyped(
                            "C2",
                            "the opening allows number cards only",
                        ));
                    }
                    let Some(slot) = target.slots.get(position) else {
                        return Err(IllegalAction::untyped(
                            "C6",
                            format!(
                                "caravan {caravan} has no number card at position {position} (it holds {})",
                                target.slots.len()
                            ),
                        ));
                    };
                    if !self.rules.unlimited_face_cards && slot.faces.len() >= 3 {
                        return Err(IllegalAction::untyped(
                            "C6",
                            "a number card may carry at most 3 face cards",
                        ));
                    }
                    if card.kind() == Kind::Queen
                        && !self.rules.queens_anywhere
                        && position + 1 != target.slots.len()
                    {
                        return Err(IllegalAction::untyped(
                            "C6",
                            "a queen goes onto the last number card of a caravan",
                        ));
                    }
                    Ok(())
                }
            }
            Move::Discard(card) => {
                if !self.hands[me].contains(&card) {
                    return Err(IllegalAction::untyped(
                        "C8",
                        format!("{card} is not in player {me}'s hand"),
                    ));
                }
                if opening && self.has_number_card(me) {
                    return Err(IllegalAction::untyped(
                        "C2",
                        "in the opening only a player holding no number card may discard (and draw)",
                    ));
                }
                Ok(())
            }
            Move::Disband(caravan) => {
                if opening {
                    return Err(IllegalAction::untyped("C2", "no disbanding in the opening"));
                }
                if owner_of(caravan) != me {
                    return Err(IllegalAction::untyped(
                        "C8",
                        format!(
                            "only one's own caravans can be disbanded: caravan {caravan} is player {}'s",
                            owner_of(caravan)
                        ),
                    ));
                }
                if self.caravans[caravan].slots.is_empty() {
                    return Err(IllegalAction::untyped(
                        "C8",
                        format!("caravan {caravan} is empty: nothing to disband"),
                    ));
                }
                Ok(())
            }
        }
    }
}
