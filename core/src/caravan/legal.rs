//! Legal-move generation: the moves [`State::check`] allows, derived once per caravan.
//!
//! This is the inner loop of random playouts and of search, so it works on what each
//! caravan's end implies (last value, direction, suit) and on action ids computed once
//! per card, and writes the ids straight out in increasing order: number plays, face
//! plays, discards and disbands in turn, each ordered by card, caravan and position.

use super::cards::{Card, JACK, Kind};
use super::rules::NUM_CARAVANS;
use super::state::State;
use super::table::{Caravan, Direction};
use crate::game::Action;

/// What a number card played onto a caravan must satisfy (C5).
#[derive(Clone, Copy)]
enum Course {
    /// An empty caravan takes any number card.
    Open,
    /// One number card: any other value.
    Started { last: u8 },
    /// A direction: further that way, or in the caravan's suit (C4), never the same value.
    Running { last: u8, direction: Direction, suit: Option<u8> },
}

impl Course {
    fn of(caravan: &Caravan, rules: &super::rules::CaravanGame) -> Course {
        let Some(last) = caravan.slots.last() else {
            return Course::Open;
        };
        let last_value = last.number.card.value();
        match caravan.direction(rules) {
            None => Course::Started { last: last_value },
            Some(direction) => Course::Running {
                last: last_value,
                direction,
                suit: caravan.suit(rules),
            },
        }
    }

    fn allows(self, card: Card, value: u8) -> bool {
        match self {
            Course::Open => true,
            Course::Started { last } => value != last,
            Course::Running {
                last,
                direction,
                suit,
            } => {
                value != last
                    && (match direction {
                        Direction::Ascending => value > last,
                        Direction::Descending => value < last,
                    } || card.suit() == suit)
            }
        }
    }
}

/// The face-card index of the action space (`mod.rs`): J Q K of each suit, then the jokers.
fn face_index(card: Card) -> usize {
    match (card.suit(), card.rank()) {
        (Some(suit), Some(rank)) => suit as usize * 3 + (rank - JACK) as usize,
        _ => 12 + card.index() - 52,
    }
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
        // The hand is sorted; a second copy (Doppeldeck) gives the same actions, so each
        // loop below skips a card equal to the one before it.
        let hand = &self.hands[me];
        let repeats = |i: usize| i > 0 && hand[i - 1] == hand[i];

        // Number plays (C2, C5): `number * 6 + caravan`, onto the own caravans (in the
        // opening only the empty ones).
        let mut courses = [(0usize, Course::Open); 3];
        let mut n_courses = 0;
        for c in 3 * me..3 * me + 3 {
            let caravan = &self.caravans[c];
            if !opening || caravan.slots.is_empty() {
                courses[n_courses] = (c, Course::of(caravan, rules));
                n_courses += 1;
            }
        }
        let courses = &courses[..n_courses];
        let mut has_number = false;
        let mut has_face = false;
        for (i, &card) in hand.iter().enumerate() {
            let Kind::Number(value) = card.kind() else {
                has_face = true;
                continue;
            };
            has_number = true;
            if repeats(i) {
                continue;
            }
            let number = card.suit().unwrap_or(0) as usize * 10 + value as usize - 1;
            for &(caravan, course) in courses {
                if course.allows(card, value) {
                    out.push((number * NUM_CARAVANS + caravan) as Action);
                }
            }
        }

        // Face plays (C6): onto any number card on the table that carries fewer than three
        // face cards (any number, *Unbegrenzte Bildkarten*); a queen only onto the last of
        // its caravan (anywhere, *Damen überall*). None in the opening (C2).
        if !opening && has_face {
            let positions = rules.positions();
            let cap = if rules.unlimited_face_cards { usize::MAX } else { 3 };
            for (i, &card) in hand.iter().enumerate() {
                if card.is_number() || repeats(i) {
                    continue;
                }
                let last_only = card.kind() == Kind::Queen && !rules.queens_anywhere;
                let base = rules.face_base() as usize + face_index(card) * NUM_CARAVANS * positions;
                for (c, caravan) in self.caravans.iter().enumerate() {
                    let slots = &caravan.slots;
                    let first = if last_only { slots.len().saturating_sub(1) } else { 0 };
                    let at = base + c * positions;
                    for (position, slot) in slots.iter().enumerate().skip(first) {
                        if slot.faces.len() < cap {
                            out.push((at + position) as Action);
                        }
                    }
                }
            }
        }

        // Discards (C8): any card, in the opening only without a number card in hand (C2).
        if !opening || !has_number {
            let base = rules.discard_base();
            for (i, &card) in hand.iter().enumerate() {
                if !repeats(i) {
                    out.push(base + card.index() as Action);
                }
            }
        }

        // Disbands (C8): an own caravan holding cards, not in the opening (C2).
        if !opening {
            let base = rules.disband_base();
            for c in 3 * me..3 * me + 3 {
                if !self.caravans[c].slots.is_empty() {
                    out.push(base + c as Action);
                }
            }
        }
        debug_assert!(out.is_sorted(), "legal actions come out in id order");
    }
}
