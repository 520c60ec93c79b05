//! Legal-move generation: the moves [`State::check`] allows, derived once per caravan.

use super::cards::Kind;
use super::codec::Decoded;
use super::state::State;
use super::table::Direction;
use crate::game::Action;

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
        let own = 3 * me..3 * me + 3;
        // What a number card must satisfy on each own caravan (C2, C5).
        type Target = (usize, Option<(u8, Option<Direction>, Option<u8>)>);
        let mut targets: [Target; 3] = [(0, None); 3];
        let mut n_targets = 0;
        for c in own
            .clone()
            .filter(|&c| !opening || self.caravans[c].slots.is_empty())
        {
            let caravan = &self.caravans[c];
            let last = caravan.slots.last().map(|s| s.number.card.value());
            targets[n_targets] = (
                c,
                last.map(|v| (v, caravan.direction(rules), caravan.suit(rules))),
            );
            n_targets += 1;
        }
        let targets = &targets[..n_targets];
        let can_discard = !opening || !self.has_number_card(me);
        // The hand is sorted; a second copy (Doppeldeck) gives the same actions. Number
        // plays, face plays, discards and disbands are made in turn, so that the ids come
        // out in order.
        let hand = &self.hands[me];
        let distinct = || {
            hand.iter()
                .enumerate()
                .filter(|&(i, c)| i == 0 || hand[i - 1] != *c)
                .map(|(_, &c)| c)
        };
        for card in distinct() {
            let Kind::Number(value) = card.kind() else {
                continue;
            };
            for &(caravan, last) in targets {
                let allowed = match last {
                    None => true,
                    Some((last, _, _)) if last == value => false,
                    Some((_, None, _)) => true,
                    Some((last, Some(direction), suit)) => {
                        let follows = match direction {
                            Direction::Ascending => value > last,
                            Direction::Descending => value < last,
                        };
                        follows || card.suit() == suit
                    }
                };
                if allowed {
                    out.push(rules.encode(Decoded::Play {
                        card,
                        caravan,
                        position: 0,
                    }));
                }
            }
        }
        if !opening {
            for card in distinct().filter(|c| !c.is_number()) {
                let queen = card.kind() == Kind::Queen;
                for (caravan, c) in self.caravans.iter().enumerate() {
                    let n = c.slots.len();
                    for (position, slot) in c.slots.iter().enumerate() {
                        let full = !rules.unlimited_face_cards && slot.faces.len() >= 3;
                        let misplaced_queen = queen && !rules.queens_anywhere && position + 1 != n;
                        if !full && !misplaced_queen {
                            out.push(rules.encode(Decoded::Play {
                                card,
                                caravan,
                                position,
                            }));
                        }
                    }
                }
            }
        }
        if can_discard {
            out.extend(distinct().map(|card| rules.encode(Decoded::Discard(card))));
        }
        if !opening {
            for caravan in own {
                if !self.caravans[caravan].slots.is_empty() {
                    out.push(rules.encode(Decoded::Disband(caravan)));
                }
            }
        }
        debug_assert!(out.is_sorted(), "legal actions come out in id order");
    }
}
