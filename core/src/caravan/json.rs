//! Reading states: every inconsistent position is refused.

use super::cards::{Card, NUM_FACES};
use super::rules::*;
use super::state::*;
use super::table::*;
use crate::error::{Error, Result};

impl State {
    pub(super) fn validate(&self) -> Result<()> {
        let bad = |m: String| Err(Error::InvalidState(m));
        for p in 0..2 {
            let mut counts = [0i32; NUM_FACES];
            let mut total = 0;
            let held = self.decks[p]
                .iter()
                .chain(&self.hands[p])
                .chain(&self.discards[p]);
            let on_table = self
                .caravans
                .iter()
                .flat_map(|c| c.cards())
                .filter(|o| o.owner as usize == p)
                .map(|o| &o.card);
            for card in held.chain(on_table) {
                counts[card.index()] += 1;
                total += 1;
            }
            let mut base = [0i32; NUM_FACES];
            self.rules.base_deck().iter().for_each(|c| base[c.index()] += 1);
            if let Some(i) = (0..NUM_FACES).find(|&i| counts[i] > base[i]) {
                return bad(format!(
                    "player {p} has {} of {} but the deck holds {}",
                    counts[i],
                    Card::from_index(i as u8),
                    base[i]
                ));
            }
            let expected = if self.rules.short_deck {
                SHORT_DECK
            } else {
                self.rules.base_deck().len()
            };
            if total != expected {
                return bad(format!(
                    "player {p}'s cards number {total}, the deck has {expected}"
                ));
            }
            if !self.hands[p].windows(2).all(|w| w[0] <= w[1]) {
                return bad(format!("player {p}'s hand must be sorted"));
            }
        }
        for (i, c) in self.caravans.iter().enumerate() {
            for (j, slot) in c.slots.iter().enumerate() {
                if !slot.number.card.is_number() || slot.faces.iter().any(|f| f.card.is_number()) {
                    return bad(format!(
                        "caravan {i} position {j}: a number card carries face cards only"
                    ));
                }
                if slot.number.owner as usize != owner_of(i) {
                    return bad(format!(
                        "caravan {i} position {j}: number cards come from the caravan's owner"
                    ));
                }
            }
        }
        if self.current > 1 || self.first_player > 1 {
            return bad("players are 0 and 1".into());
        }
        if self
            .history
            .iter()
            .any(|&a| a as usize >= self.rules.num_actions())
        {
            return bad("history holds an action outside the action space".into());
        }
        Ok(())
    }
}
