//! Legal-move generation: the moves [`State::check`] allows, derived once per caravan.
//!
//! This is the inner loop of random playouts and of search, so it works on what each
//! caravan's end implies (last value, direction, suit) and on action ids computed once
//! per card, and writes the ids straight out in increasing order: number plays, face
//! plays, discards and disbands in turn, each ordered by card, caravan and position.

use super::cards::{Card, Kind};
use super::rules::{CaravanGame, NUM_CARAVANS};
use super::state::State;
use super::table::{Caravan, Direction};
use crate::game::Action;

/// A set of card faces as bits by card index (`suit * 13 + rank - 1`, jokers 52–55).
type Cards = u64;

/// Bits 0–9 of a suit's 13: its number cards A–10.
const SUIT_NUMBERS: Cards = (1 << 10) - 1;
/// One bit per suit at the same rank: times a suit's bits, the same ranks of every suit.
const EVERY_SUIT: Cards = 1 | 1 << 13 | 1 << 26 | 1 << 39;
/// Every number card of every suit.
const NUMBERS: Cards = SUIT_NUMBERS * EVERY_SUIT;

/// Action ids gathered on the stack and handed to the output in batches: cheaper than a
/// push onto the vector per id in this loop.
struct Ids<'a> {
    out: &'a mut Vec<Action>,
    batch: [Action; 32],
    len: usize,
}

impl Ids<'_> {
    #[inline]
    fn push(&mut self, id: Action) {
        if self.len == self.batch.len() {
            self.flush();
            self.len = 0;
        }
        self.batch[self.len] = id;
        self.len += 1;
    }

    #[inline(never)]
    fn flush(&mut self) {
        self.out.extend_from_slice(&self.batch[..self.len]);
    }
}

/// The cards of a set in increasing index.
fn each(set: Cards) -> impl Iterator<Item = Card> {
    struct Each(Cards);
    impl Iterator for Each {
        type Item = Card;
        #[inline]
        fn next(&mut self) -> Option<Card> {
            if self.0 == 0 {
                return None;
            }
            let i = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(Card::from_bit(i))
        }
    }
    Each(set)
}

/// The number cards of every suit whose value lies in `low..=high` (1–10).
const fn values(low: u8, high: u8) -> Cards {
    if low > high {
        return 0;
    }
    let ranks = ((1 << (high - low + 1)) - 1) << (low - 1);
    ranks * EVERY_SUIT
}

/// The number cards that may follow a caravan's end (C4, C5): any on an empty caravan;
/// after one card any other value; then further in the caravan's direction, or any value
/// in its suit, never the same value twice in a row.
fn followers(caravan: &Caravan, rules: &CaravanGame) -> Cards {
    let Some(last) = caravan.slots.last() else {
        return NUMBERS;
    };
    let last = last.number.card.value();
    let same = values(last, last);
    if caravan.slots.len() < 2 {
        return NUMBERS & !same;
    }
    let (Some(direction), suit) = caravan.direction_and_suit(rules) else {
        unreachable!("two number cards give a direction (C3)")
    };
    let onward = match direction {
        Direction::Ascending => values(last + 1, 10),
        Direction::Descending => values(1, last - 1),
    };
    let in_suit = suit.map_or(0, |suit| SUIT_NUMBERS << (13 * suit));
    (onward | in_suit) & !same
}

impl State {
    /// The same moves as [`State::check`] allows, derived once per caravan instead of per move.
    #[inline]
    pub(super) fn generate_legal(&self, out: &mut Vec<Action>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        let me = self.current as usize;
        let opening = self.in_opening(me);
        let rules = &self.rules;
        // The distinct cards in hand: a second copy (Doppeldeck) gives the same actions,
        // and ascending card indices give ascending ids in every kind of move below.
        let hand: Cards = self.hands[me].iter().fold(0, |m, c| m | 1 << c.index());
        let mut ids = Ids {
            out,
            batch: [0; 32],
            len: 0,
        };
        // Number plays (C2, C5): `number * 6 + caravan`, onto the own caravans (in the
        // opening only the empty ones), card by card.
        let mut targets = [(0usize, 0 as Cards); 3];
        let mut n_targets = 0;
        let mut playable = 0;
        for c in 3 * me..3 * me + 3 {
            let caravan = &self.caravans[c];
            if !opening || caravan.slots.is_empty() {
                let cards = hand & followers(caravan, rules);
                targets[n_targets] = (c, cards);
                n_targets += 1;
                playable |= cards;
            }
        }
        let targets = &targets[..n_targets];
        for card in each(playable) {
            let number = card.play_index();
            let bit = 1 << card.index();
            for &(caravan, cards) in targets {
                if cards & bit != 0 {
                    ids.push((number * NUM_CARAVANS + caravan) as Action);
                }
            }
        }

        // Face plays (C6): onto any number card on the table that carries fewer than three
        // face cards (any number, *Unbegrenzte Bildkarten*); a queen only onto the last of
        // its caravan (anywhere, *Damen überall*). None in the opening (C2).
        let faces = hand & !NUMBERS;
        if !opening && faces != 0 {
            let positions = rules.positions();
            let cap = if rules.unlimited_face_cards { usize::MAX } else { 3 };
            for card in each(faces) {
                let last_only = card.kind() == Kind::Queen && !rules.queens_anywhere;
                let base = CaravanGame::FACE_BASE as usize + card.play_index() * NUM_CARAVANS * positions;
                for (c, caravan) in self.caravans.iter().enumerate() {
                    let slots = &caravan.slots;
                    let first = if last_only {
                        slots.len().saturating_sub(1)
                    } else {
                        0
                    };
                    let at = base + c * positions;
                    for (position, slot) in slots.iter().enumerate().skip(first) {
                        if slot.faces.len() < cap {
                            ids.push((at + position) as Action);
                        }
                    }
                }
            }
        }

        // Discards (C8): any card, in the opening only without a number card in hand (C2).
        if !opening || hand & NUMBERS == 0 {
            let base = rules.discard_base();
            for card in each(hand) {
                ids.push(base + card.index() as Action);
            }
        }

        // Disbands (C8): an own caravan holding cards, not in the opening (C2).
        if !opening {
            let base = rules.disband_base();
            for c in 3 * me..3 * me + 3 {
                if !self.caravans[c].slots.is_empty() {
                    ids.push(base + c as Action);
                }
            }
        }
        ids.flush();
        debug_assert!(out.is_sorted(), "legal actions come out in id order");
    }
}
