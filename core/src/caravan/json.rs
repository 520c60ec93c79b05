//! Reading states: every inconsistent position is refused with what is wrong and what is
//! allowed, so that a state that is read plays to its end without panicking. What can be
//! derived (the outcome, C9) is derived and compared, never trusted.

use super::cards::{Card, Kind, NUM_FACES};
use super::rules::HAND_SIZE;
use super::state::{Outcome, State};
use super::table::{Owned, owner_of};
use crate::error::{Error, Result};
use crate::game::GameState;

/// The caravans each player builds (C2).
const NUM_OWN_CARAVANS: usize = 3;

/// The most starting hands *Frische Hand* shows before it keeps one (the deal's bound).
const MAX_SHOWN_HANDS: usize = 100;

impl State {
    pub(super) fn validate(&self) -> Result<()> {
        let bad = |m: String| Err(Error::InvalidState(m));
        let rules = &self.rules;
        if self.current > 1 || self.first_player > 1 {
            return bad(format!(
                "current {} and first_player {}: players are 0 and 1",
                self.current, self.first_player
            ));
        }
        // The table first: everything below counts cards by their owners.
        for (i, c) in self.caravans.iter().enumerate() {
            for (j, slot) in c.slots.iter().enumerate() {
                let Owned { card, owner } = slot.number;
                if !card.is_number() {
                    return bad(format!(
                        "caravan {i}, number card {j}: {card} is no number card (A-10)"
                    ));
                }
                if usize::from(owner) != owner_of(i) {
                    return bad(format!(
                        "caravan {i}, number card {j}: {card} belongs to player {owner}, but number cards come from the caravan's owner, player {} (C5)",
                        owner_of(i)
                    ));
                }
                for f in &slot.faces {
                    if f.owner > 1 {
                        return bad(format!(
                            "caravan {i}, number card {j}: {} belongs to player {}: players are 0 and 1",
                            f.card, f.owner
                        ));
                    }
                    match f.card.kind() {
                        Kind::Number(_) => {
                            return bad(format!(
                                "caravan {i}, number card {j}: {} lies on a number card, which carries face cards only (Q, K, jokers)",
                                f.card
                            ));
                        }
                        Kind::Jack => {
                            return bad(format!(
                                "caravan {i}, number card {j}: a jack ({}) never stays on the table: it leaves with its card (C7)",
                                f.card
                            ));
                        }
                        _ => {}
                    }
                }
                if !rules.unlimited_face_cards && slot.faces.len() > 3 {
                    return bad(format!(
                        "caravan {i}, number card {j} carries {} face cards: at most 3 (C6)",
                        slot.faces.len()
                    ));
                }
            }
            if c.kept.is_some() && !rules.fixed_course {
                return bad(format!(
                    "caravan {i} keeps a direction, which only fixed_course does (C3)"
                ));
            }
        }
        let mut base = [0usize; NUM_FACES];
        rules.base_deck().iter().for_each(|c| base[c.index()] += 1);
        let too_many = |p: usize, what: &str, counts: &[usize; NUM_FACES], most: &[usize; NUM_FACES]| {
            (0..NUM_FACES).find(|&i| counts[i] > most[i]).map(|i| {
                Error::InvalidState(format!(
                    "player {p}'s {what} hold {} of {}, but there are {}",
                    counts[i],
                    Card::from_index(i as u8),
                    most[i]
                ))
            })
        };
        for p in 0..2 {
            let mut cards = [0usize; NUM_FACES];
            let on_table = self
                .caravans
                .iter()
                .flat_map(super::table::Caravan::cards)
                .filter(|o| usize::from(o.owner) == p)
                .map(|o| &o.card);
            for card in self.decks[p]
                .iter()
                .chain(&self.hands[p])
                .chain(&self.discards[p])
                .chain(on_table)
            {
                cards[card.index()] += 1;
            }
            if let Some(e) = too_many(p, "cards", &cards, &base) {
                return Err(e);
            }
            let total: usize = cards.iter().sum();
            if total != rules.deck_size() {
                return bad(format!(
                    "player {p}'s cards number {total} (deck, hand, discard pile and table), a deck has {}",
                    rules.deck_size()
                ));
            }
            if !self.hands[p].is_sorted() {
                return bad(format!("player {p}'s hand must be sorted"));
            }
            if self.hands[p].len() > HAND_SIZE {
                return bad(format!(
                    "player {p}'s hand holds {} cards: at most {HAND_SIZE}",
                    self.hands[p].len()
                ));
            }
            // *Neu mischen* (C10).
            let used = self.reshuffles[p];
            if used > 2 || (used > 0 && !rules.reshuffle) {
                let allowed = if rules.reshuffle {
                    "0-2"
                } else {
                    "0 without reshuffle"
                };
                return bad(format!(
                    "player {p} has reshuffled {used} times: allowed are {allowed}"
                ));
            }
            let pile = &self.reshuffled[p];
            if pile.is_empty() != (used == 0) {
                return bad(format!(
                    "player {p}'s reshuffled pile is shown exactly when they have reshuffled ({used} times)"
                ));
            }
            if !pile.is_sorted() {
                return bad(format!("player {p}'s reshuffled pile must be sorted"));
            }
            let mut in_pile = [0usize; NUM_FACES];
            for c in pile {
                in_pile[c.index()] += 1;
            }
            if let Some(e) = too_many(p, "reshuffled pile", &in_pile, &cards) {
                return Err(e);
            }
            if used > 0 {
                let mut in_deck = [0usize; NUM_FACES];
                self.decks[p].iter().for_each(|c| in_deck[c.index()] += 1);
                if let Some(i) = (0..NUM_FACES).find(|&i| in_deck[i] > in_pile[i]) {
                    return bad(format!(
                        "player {p}'s deck holds {}, which is not in their reshuffled pile: since a reshuffle the deck holds only its cards (C10)",
                        Card::from_index(i as u8)
                    ));
                }
            }
            // *Frische Hand* (C10).
            let shown = &self.shown_hands[p];
            if !shown.is_empty() && !rules.fresh_hand {
                return bad(format!(
                    "player {p} has shown starting hands, which only fresh_hand does"
                ));
            }
            if shown.len() > MAX_SHOWN_HANDS {
                return bad(format!(
                    "player {p} has shown {} starting hands: at most {MAX_SHOWN_HANDS}",
                    shown.len()
                ));
            }
            for hand in shown {
                let numbers = hand.iter().filter(|c| c.is_number()).count();
                if hand.len() != HAND_SIZE || numbers >= 3 || !hand.is_sorted() {
                    return bad(format!(
                        "player {p}'s shown starting hands are {HAND_SIZE} sorted cards with fewer than 3 number cards each (C10)"
                    ));
                }
                let mut in_hand = [0usize; NUM_FACES];
                for c in hand {
                    in_hand[c.index()] += 1;
                }
                if let Some(e) = too_many(p, "shown starting hand", &in_hand, &cards) {
                    return Err(e);
                }
            }
            // C2: the opening places one number card onto each empty caravan of one's own,
            // and ends when all three first hold a card.
            if self.in_opening(p)
                && let Some(i) = (3 * p..3 * p + 3).find(|&i| self.caravans[i].slots.len() > 1)
            {
                return bad(format!(
                    "player {p} is in the opening, yet caravan {i} holds {} number cards: the opening places one card onto each empty caravan (C2)",
                    self.caravans[i].slots.len()
                ));
            }
            if self.in_opening(p)
                && self.caravans[3 * p..3 * p + 3]
                    .iter()
                    .all(|c| !c.slots.is_empty())
            {
                return bad(format!(
                    "player {p} is in the opening, yet all three of their caravans hold a card: the opening ends when they first do (C2)"
                ));
            }
            // C2, C8: the deal gives 8 cards; every caravan of one's own that holds a card got
            // its first in the opening, placed without drawing (a jack may have emptied one
            // since, which takes another placement), and every later play or discard draws at
            // most one card back, disbanding none. So in the opening a hand holds at most 8
            // minus the own caravans holding a card, after it at most 5.
            let placed = (3 * p..3 * p + NUM_OWN_CARAVANS)
                .filter(|&i| !self.caravans[i].slots.is_empty())
                .count();
            let most = HAND_SIZE
                - if self.in_opening(p) {
                    placed
                } else {
                    NUM_OWN_CARAVANS
                };
            if self.hands[p].len() > most {
                let when = if self.in_opening(p) {
                    format!("in the opening with {placed} of their caravans holding a card")
                } else {
                    "after the opening".to_string()
                };
                return bad(format!(
                    "player {p}'s hand holds {} cards {when}: each caravan's first card was placed \
                     from the {HAND_SIZE} dealt without drawing and every later move draws at most \
                     one back, so at most {most} (C2, C8)",
                    self.hands[p].len()
                ));
            }
        }
        // C9: the outcome follows from the position.
        let derived = self.derived_outcome();
        if self.outcome != derived {
            let show = |o: Option<Outcome>| match o {
                None => "running".to_string(),
                Some(o) => format!(
                    "{} ({})",
                    o.winner.map_or("a draw".into(), |w| format!("player {w} wins")),
                    serde_json::to_value(o.reason)
                        .map(|v| v.to_string())
                        .unwrap_or_default()
                ),
            };
            return bad(format!(
                "the outcome says {}, but the position gives {} (C9)",
                show(self.outcome),
                show(derived)
            ));
        }
        if self.outcome.is_none() {
            let me = self.current as usize;
            if self.needs_refill(me) {
                return bad(format!(
                    "player {me} is to move with an empty hand and cards in the deck: they would have drawn one"
                ));
            }
            if self.legal_actions().is_empty() {
                return bad(format!(
                    "player {me} is to move but has no legal action, yet the game is not over"
                ));
            }
        }
        if let Some(a) = self.history.iter().find(|&a| a as usize >= rules.num_actions()) {
            return bad(format!(
                "the history holds action {a}: actions are 0-{}",
                rules.num_actions() - 1
            ));
        }
        Ok(())
    }
}
