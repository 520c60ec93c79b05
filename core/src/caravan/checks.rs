//! Why a move is illegal: the checks of C2, C5, C6, C8 and C9, each with a stable code,
//! the values it names, and the reason in English and German. Texts number caravans
//! 1–6 and a caravan's number cards from 1, as the board shows them (`text.rs`); the
//! params keep the 0-based numbers of the API.

use super::cards::{Card, Kind};
use super::codec::Decoded;
use super::state::State;
use super::table::{Direction, owner_of};
use crate::error::IllegalAction;

/// English and German names of a suit (C4); a caravan without a suit has none.
fn suit_names(suit: Option<u8>) -> (&'static str, &'static str) {
    match suit {
        Some(0) => ("clubs", "Kreuz"),
        Some(1) => ("diamonds", "Karo"),
        Some(2) => ("hearts", "Herz"),
        Some(3) => ("spades", "Pik"),
        _ => ("no suit", "keine Farbe"),
    }
}

/// A caravan as texts show it: 1–6.
pub(super) fn shown(caravan: usize) -> usize {
    caravan + 1
}

fn not_in_hand(card: Card, me: usize) -> IllegalAction {
    IllegalAction::card_not_in_hand("C8", card.name(), &card.name_de(), me).with("player", me)
}

impl State {
    pub(super) fn check(&self, mv: Decoded) -> Result<(), IllegalAction> {
        if self.outcome.is_some() {
            return Err(IllegalAction::new(
                "C9",
                "game_over",
                "the game is over",
                "die Partie ist vorbei",
            ));
        }
        let me = self.current as usize;
        let opening = self.in_opening(me);
        match mv {
            Decoded::Play {
                card,
                caravan,
                position,
            } => {
                if !self.hands[me].contains(&card) {
                    return Err(not_in_hand(card, me));
                }
                let target = &self.caravans[caravan];
                let n = shown(caravan);
                if let Kind::Number(value) = card.kind() {
                    if owner_of(caravan) != me {
                        let owner = owner_of(caravan);
                        return Err(IllegalAction::new(
                            "C5",
                            "not_own_caravan",
                            format!(
                                "number cards go onto the player's own caravans only: caravan {n} is player {owner_n}'s",
                                owner_n = crate::names::shown(owner),
                            ),
                            format!(
                                "Zahlenkarten kommen nur auf eigene Routen: Route {n} gehört Spieler {owner_n}",
                                owner_n = crate::names::shown(owner),
                            ),
                        )
                        .with("caravan", caravan)
                        .with("owner", owner));
                    }
                    if opening && !target.slots.is_empty() {
                        return Err(IllegalAction::new(
                            "C2",
                            "opening_caravan_not_empty",
                            format!(
                                "in the opening a number card goes onto an empty caravan of one's own; caravan {n} is not empty"
                            ),
                            format!(
                                "In der Eröffnung kommt eine Zahlenkarte auf eine leere eigene Route; Route {n} ist nicht leer"
                            ),
                        )
                        .with("caravan", caravan));
                    }
                    let Some(last) = target.slots.last() else {
                        return Ok(());
                    };
                    let last_card = last.number.card;
                    if last_card.value() == value {
                        return Err(IllegalAction::new(
                            "C5",
                            "same_value",
                            format!("{card} cannot follow {last_card}: never the same value twice in a row"),
                            format!(
                                "{card_de} kann nicht auf {last_de} folgen: nie zweimal hintereinander derselbe Wert",
                                card_de = card.name_de(),
                                last_de = last_card.name_de(),
                            ),
                        )
                        .with("card", card.to_string())
                        .with("last", last_card.to_string())
                        .with("caravan", caravan));
                    }
                    if let (Some(direction), suit) = target.direction_and_suit(&self.rules) {
                        let follows = match direction {
                            Direction::Ascending => value > last_card.value(),
                            Direction::Descending => value < last_card.value(),
                        };
                        if !follows && card.suit() != suit {
                            let (dir, dir_de, name) = match direction {
                                Direction::Ascending => ("an ascending", "einer steigenden", "ascending"),
                                Direction::Descending => ("a descending", "einer fallenden", "descending"),
                            };
                            let (suit_en, suit_de) = suit_names(suit);
                            return Err(IllegalAction::new(
                                "C5",
                                "wrong_direction",
                                format!(
                                    "{card} cannot follow {last_card} on {dir} caravan unless it is {suit_en}"
                                ),
                                format!(
                                    "{card_de} kann auf {dir_de} Route nicht auf {last_de} folgen, außer in der Farbe {suit_de}",
                                    card_de = card.name_de(),
                                    last_de = last_card.name_de(),
                                ),
                            )
                            .with("card", card.to_string())
                            .with("last", last_card.to_string())
                            .with("caravan", caravan)
                            .with("direction", name)
                            .with("suit", suit_en));
                        }
                    }
                    Ok(())
                } else {
                    if opening {
                        return Err(IllegalAction::new(
                            "C2",
                            "opening_face_card",
                            "the opening allows number cards only",
                            "In der Eröffnung sind nur Zahlenkarten erlaubt",
                        )
                        .with("card", card.to_string()));
                    }
                    let held = target.slots.len();
                    let Some(slot) = target.slots.get(position) else {
                        let at = position + 1;
                        return Err(IllegalAction::new(
                            "C6",
                            "no_such_number_card",
                            format!("caravan {n} has no number card at position {at} (it holds {held})"),
                            format!("Route {n} hat keine {at}. Zahlenkarte (sie hat {held})"),
                        )
                        .with("caravan", caravan)
                        .with("position", position)
                        .with("number_cards", held));
                    };
                    if !self.rules.unlimited_face_cards && slot.faces.len() >= 3 {
                        let on = slot.number.card;
                        return Err(IllegalAction::new(
                            "C6",
                            "face_cards_full",
                            format!(
                                "a number card may carry at most 3 face cards: {on} on caravan {n} is full"
                            ),
                            format!(
                                "Eine Zahlenkarte trägt höchstens 3 Bildkarten: {on} auf Route {n} ist voll"
                            ),
                        )
                        .with("caravan", caravan)
                        .with("position", position));
                    }
                    if card.kind() == Kind::Queen && !self.rules.queens_anywhere && position + 1 != held {
                        return Err(IllegalAction::new(
                            "C6",
                            "queen_not_on_last",
                            "a queen goes onto the last number card of a caravan",
                            "Eine Dame wird auf die letzte Zahlenkarte einer Route gespielt",
                        )
                        .with("caravan", caravan)
                        .with("position", position));
                    }
                    Ok(())
                }
            }
            Decoded::Discard(card) => {
                if !self.hands[me].contains(&card) {
                    return Err(not_in_hand(card, me));
                }
                if opening && self.has_number_card(me) {
                    return Err(IllegalAction::new(
                        "C2",
                        "opening_discard",
                        "in the opening only a player holding no number card may discard (and draw)",
                        "In der Eröffnung darf nur abwerfen (und ziehen), wer keine Zahlenkarte hat",
                    )
                    .with("card", card.to_string()));
                }
                Ok(())
            }
            Decoded::Disband(caravan) => {
                let n = shown(caravan);
                if opening {
                    return Err(IllegalAction::new(
                        "C2",
                        "opening_disband",
                        "no disbanding in the opening",
                        "In der Eröffnung wird keine Route aufgelöst",
                    )
                    .with("caravan", caravan));
                }
                if owner_of(caravan) != me {
                    let owner = owner_of(caravan);
                    return Err(IllegalAction::new(
                        "C8",
                        "disband_not_own",
                        format!(
                            "only one's own caravans can be disbanded: caravan {n} is player {owner_n}'s",
                            owner_n = crate::names::shown(owner)
                        ),
                        format!(
                            "Auflösen kann man nur eigene Routen: Route {n} gehört Spieler {owner_n}",
                            owner_n = crate::names::shown(owner)
                        ),
                    )
                    .with("caravan", caravan)
                    .with("owner", owner));
                }
                if self.caravans[caravan].slots.is_empty() {
                    return Err(IllegalAction::new(
                        "C8",
                        "caravan_empty",
                        format!("caravan {n} is empty: nothing to disband"),
                        format!("Route {n} ist leer: nichts aufzulösen"),
                    )
                    .with("caravan", caravan));
                }
                Ok(())
            }
        }
    }
}
