//! Reading a state: every field is checked before the state is used.

use std::collections::HashSet;

use super::board::*;
use super::cards::{Card, NUM_KINDS};
use super::codec::*;
use super::rules::*;
use crate::error::{Error, Result};

impl State {
    pub(super) fn validate(&self) -> Result<()> {
        let bad = |m: String| Err(Error::InvalidState(m));
        let mut seen = HashSet::new();
        for (m, marble) in self.board.marbles.iter().enumerate() {
            match marble.place {
                Place::Ring(f) if f as usize >= RING => {
                    return bad(format!("marble {m}: ring fields are 0-63"));
                }
                Place::Goal(s) if s >= GOAL_LEN => return bad(format!("marble {m}: goal fields are 0-3")),
                Place::Kennel if marble.protected => {
                    return bad(format!(
                        "marble {m}: only a marble on its start field is protected"
                    ));
                }
                Place::Goal(_) if marble.protected => {
                    return bad(format!(
                        "marble {m}: only a marble on its start field is protected"
                    ));
                }
                Place::Ring(f) if marble.protected && f as usize != start_field(color_of(m)) => {
                    return bad(format!(
                        "marble {m}: only a marble on its own start field can be protected"
                    ));
                }
                _ => {}
            }
            if let Some(cell) = Board::cell(m, marble.place)
                && !seen.insert(cell)
            {
                return bad(format!("marble {m} shares its field with another marble"));
            }
        }
        let mut counts = [0usize; NUM_KINDS];
        let cards = self
            .d
            .pile
            .iter()
            .chain(&self.d.discards)
            .copied()
            .chain(self.exchange_cards());
        for card in cards.chain(self.d.hands.iter().flat_map(|h| h.cards())) {
            counts[card.index()] += 1;
        }
        if let Some(i) = (0..NUM_KINDS).find(|&i| counts[i] != Card::from_index(i).copies() as usize) {
            return bad(format!(
                "there are {} cards {} in pile, discards, hands and the exchange; the deck has {}",
                counts[i],
                Card::from_index(i),
                Card::from_index(i).copies()
            ));
        }
        if self.d.current > 3 {
            return bad("seats are 0-3".into());
        }
        if let Some(seven) = self.d.seven {
            if seven.remaining == 0 || seven.remaining >= 7 {
                return bad("a seven in progress has 1-6 steps left".into());
            }
            let me = self.d.current as usize;
            if !self.seven_can_finish(&self.board, me, seven.remaining, seven.joker, &mut HashSet::new()) {
                return bad(format!(
                    "the seven in progress cannot use its {} steps left (D8)",
                    seven.remaining
                ));
            }
        }
        if self.d.history.iter().any(|&a| a as usize >= NUM_ACTIONS) {
            return bad(format!("history holds an action outside 0..{NUM_ACTIONS}"));
        }
        Ok(())
    }
}
