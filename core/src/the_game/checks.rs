//! Why a move is illegal (T3, T4, T6): each check with a stable code, the values it names,
//! and the reason in English and German.

use super::codec::{Decoded, END_TURN, NUM_ACTIONS};
use super::rules::ascending;
use super::state::State;
use super::text::{pile_name, pile_name_de};
use crate::error::IllegalAction;
use crate::game::Action;

impl State {
    pub(super) fn check(&self, action: Action) -> Result<(), IllegalAction> {
        if self.outcome.is_some() {
            return Err(IllegalAction::new(
                "T6",
                "game_over",
                "the game is over",
                "Das Spiel ist vorbei",
            ));
        }
        let me = self.current as usize;
        if action == END_TURN {
            let (minimum, played) = (self.minimum(), self.played_this_turn as usize);
            return match minimum.saturating_sub(played) {
                0 => Ok(()),
                missing => {
                    let (cards, karten) = if missing == 1 {
                        ("1 more card".to_string(), "1 Karte".to_string())
                    } else {
                        (format!("{missing} more cards"), format!("{missing} Karten"))
                    };
                    Err(IllegalAction::new(
                        "T3",
                        "minimum_not_played",
                        format!("you must play {cards} before ending the turn"),
                        format!("Du musst noch {karten} legen, bevor du den Zug beenden darfst"),
                    )
                    .with("missing", missing)
                    .with("minimum", minimum)
                    .with("played", played))
                }
            };
        }
        let Some(Decoded::Play { card, pile }) = Decoded::decode(action) else {
            return Err(IllegalAction::no_such_action(action, NUM_ACTIONS));
        };
        if !self.hands[me].contains(card) {
            return Err(IllegalAction::new(
                "T3",
                "card_not_in_hand",
                format!(
                    "{card} is not in player {me_n}'s hand",
                    me_n = crate::names::shown(me)
                ),
                format!(
                    "Die {card} ist keine Handkarte von Spieler {me_n}",
                    me_n = crate::names::shown(me)
                ),
            )
            .with("card", card)
            .with("player", me));
        }
        if !self.fits(card, pile) {
            let top = self.tops[pile];
            let (name, name_de) = (pile_name(pile), pile_name_de(pile));
            let (reason, reason_de) = if ascending(pile) {
                (
                    format!("{card} on {name} at {top} is neither higher nor exactly 10 lower"),
                    format!(
                        "Die {card} auf dem {name_de} mit der {top} oben ist weder höher noch genau 10 weniger"
                    ),
                )
            } else {
                (
                    format!("{card} on {name} at {top} is neither lower nor exactly 10 higher"),
                    format!(
                        "Die {card} auf dem {name_de} mit der {top} oben ist weder niedriger noch genau 10 mehr"
                    ),
                )
            };
            return Err(
                IllegalAction::new("T4", "pile_wrong_direction", reason, reason_de)
                    .with("card", card)
                    .with("pile", pile)
                    .with("top", top),
            );
        }
        Ok(())
    }
}
