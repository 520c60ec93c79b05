//! What a seat sees, and dealing the unseen cards anew.

use rand::seq::SliceRandom;
use serde_json::{Value, json};

use super::cards::{Card, NUM_FACES, SUIT_NAMES};
use super::rules::*;
use super::state::*;
use super::table::*;
use crate::game::{Game, GameState};
use crate::rng;

impl State {
    /// Deals the cards hidden from `player` anew (see [`GameState::resample`]).
    pub(super) fn redeal_hidden(&self, player: usize, seed: u64) -> State {
        let mut state = self.clone();
        let mut shuffle = rng::seeded(seed, rng::STREAM_RESAMPLE);
        for q in 0..2 {
            let hand_hidden = q != player;
            let hand_size = self.hands[q].len();
            if !self.reshuffled[q].is_empty() {
                // Since a reshuffle the deck holds only cards of that (public) pile: it is
                // dealt anew from the hidden cards of that pile, the rest goes to the hand.
                let mut from_pile = [0usize; NUM_FACES];
                self.reshuffled[q].iter().for_each(|c| from_pile[c.index()] += 1);
                let mut pool = self.decks[q].clone();
                if hand_hidden {
                    pool.extend(&self.hands[q]);
                }
                let (mut candidates, mut hand): (Vec<Card>, Vec<Card>) = (vec![], vec![]);
                for card in pool {
                    if from_pile[card.index()] > 0 {
                        from_pile[card.index()] -= 1;
                        candidates.push(card);
                    } else {
                        hand.push(card);
                    }
                }
                candidates.shuffle(&mut shuffle);
                let deck = candidates.split_off(candidates.len() - self.decks[q].len());
                hand.extend(candidates);
                if hand_hidden {
                    state.hands[q] = sorted(hand);
                }
                state.decks[q] = deck;
                continue;
            }
            let hidden_count = self.decks[q].len() + if hand_hidden { hand_size } else { 0 };
            let mut hidden: Vec<Card> = if self.rules.short_deck {
                // Which 30 cards make the deck is hidden too: draw the unseen part anew from the
                // full deck less the cards `player` has seen, keeping the shown starting hands.
                let mut pool = [0i32; NUM_FACES];
                self.rules.base_deck().iter().for_each(|c| pool[c.index()] += 1);
                let seen = self
                    .caravans
                    .iter()
                    .flat_map(|c| c.cards())
                    .filter(|o| o.owner as usize == q)
                    .map(|o| o.card);
                let seen: Vec<Card> = seen
                    .chain(self.discards[q].iter().copied())
                    .chain(if hand_hidden {
                        vec![]
                    } else {
                        self.hands[q].clone()
                    })
                    .collect();
                let mut seen_counts = [0i32; NUM_FACES];
                seen.iter().for_each(|c| seen_counts[c.index()] += 1);
                let mut required = Vec::new();
                for i in 0..NUM_FACES {
                    let shown = self.shown_hands[q]
                        .iter()
                        .map(|h| h.iter().filter(|c| c.index() == i).count())
                        .max()
                        .unwrap_or(0) as i32;
                    for _ in 0..(shown - seen_counts[i]).max(0) {
                        required.push(Card::from_index(i as u8));
                    }
                    pool[i] -= seen_counts[i].max(shown);
                }
                let mut rest: Vec<Card> = (0..NUM_FACES)
                    .flat_map(|i| std::iter::repeat_n(Card::from_index(i as u8), pool[i].max(0) as usize))
                    .collect();
                rest.shuffle(&mut shuffle);
                rest.truncate(hidden_count.saturating_sub(required.len()));
                required.extend(rest);
                required
            } else {
                let mut h = self.decks[q].clone();
                if hand_hidden {
                    h.extend(&self.hands[q]);
                }
                h
            };
            hidden.shuffle(&mut shuffle);
            if hand_hidden {
                state.hands[q] = sorted(hidden.split_off(hidden.len() - hand_size));
            }
            state.decks[q] = hidden;
        }
        state.reshuffle_seed = seed;
        state
    }

    pub(super) fn caravan_json(&self, i: usize) -> Value {
        let c = &self.caravans[i];
        let slots: Vec<Value> = c
            .slots
            .iter()
            .map(|s| json!({"card": s.number.card, "owner": s.number.owner, "faces": s.faces}))
            .collect();
        json!({
            "caravan": i,
            "owner": owner_of(i),
            "value": c.value(&self.rules),
            "direction": c.direction(&self.rules),
            "suit": c.suit(&self.rules).map(|s| SUIT_NAMES[s as usize]),
            "cards": slots,
        })
    }

    /// Every caravan with its value, direction, suit and cards; both discard piles; hand
    /// and deck sizes; the player's own hand. Never the other hand or a deck's order.
    pub(super) fn view_value(&self, seat: Option<usize>) -> Value {
        let player = seat.unwrap_or(0);
        json!({
            "game": CaravanGame::NAME,
            "player": player,
            "current_player": self.current_player(),
            "first_player": self.first_player,
            "ranked": self.rules.ranked(),
            "caravans": (0..NUM_CARAVANS).map(|i| self.caravan_json(i)).collect::<Vec<_>>(),
            "pairs": (0..3).map(|p| json!({"sold_by": self.sells(p)})).collect::<Vec<_>>(),
            "hand": self.hands[player],
            "hand_sizes": [self.hands[0].len(), self.hands[1].len()],
            "deck_sizes": [self.decks[0].len(), self.decks[1].len()],
            "discard_piles": self.discards,
            "in_opening": [self.in_opening(0), self.in_opening(1)],
            "reshuffles_used": self.reshuffles,
            "shown_hands": self.shown_hands,
            "outcome": self.outcome,
        })
    }
}
