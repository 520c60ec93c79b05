//! The state of Caravan: decks, hands, the six caravans, turns, effects and selling.

use rand::seq::SliceRandom;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::cards::{Card, Kind};
use super::codec::{Decoded, Move};
use super::rules::{CaravanGame, NUM_CARAVANS, RESHUFFLE_STREAM, SELL_MAX, SELL_MIN, sorted};
use super::table::{Caravan, Direction, Owned, Slot};
use super::view::View;
use crate::error::{IllegalAction, Result};
use crate::game::{Action, GameState, Lang, winner_returns};
use crate::rng;

/// Why a game ended (C9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "CaravanEndReason")]
pub enum EndReason {
    /// All three pairs were decided (C9).
    Sold,
    /// *Schnellverkauf*: two pairs sold at once.
    QuickSale,
    /// A player had no cards left in hand and deck (C9).
    OutOfCards,
}

/// How a game ended (C9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "CaravanOutcome")]
pub struct Outcome {
    /// The winner, 0 or 1; null for a draw (both players out of cards at once).
    pub winner: Option<u8>,
    /// Why the game ended.
    pub reason: EndReason,
}

/// C9: who sells a pair whose caravans are worth `a` (player 0's) and `b` (player 1's).
pub(super) fn seller(a: u32, b: u32) -> Option<u8> {
    let sellable = |v: u32| (SELL_MIN..=SELL_MAX).contains(&v);
    match (sellable(a), sellable(b)) {
        (true, false) => Some(0),
        (true, true) if a != b => Some(u8::from(a <= b)),
        (false, true) => Some(1),
        _ => None,
    }
}

/// A slot leaving the table (C7, C8): its number card, then its face cards in the order
/// they came, each onto its owner's discard pile (C1).
fn discard(discards: &mut [Vec<Card>; 2], slot: &Slot) {
    discards[slot.number.owner as usize].push(slot.number.card);
    for face in &slot.faces {
        discards[face.owner as usize].push(face.card);
    }
}

/// A position of Caravan.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    pub(super) rules: CaravanGame,
    /// Seeds the reshuffles of *Neu mischen*; hidden like the decks' order.
    pub(super) reshuffle_seed: u64,
    /// Per player; the next card drawn is the last.
    pub(super) decks: [Vec<Card>; 2],
    /// Per player, sorted.
    pub(super) hands: [Vec<Card>; 2],
    pub(super) discards: [Vec<Card>; 2],
    pub(super) caravans: [Caravan; NUM_CARAVANS],
    /// C2: whether the player's opening is over (it never restarts).
    pub(super) opening_done: [bool; 2],
    pub(super) reshuffles: [u8; 2],
    /// *Neu mischen*: the cards of each player's latest reshuffle, public since the
    /// discard pile lies face up. The deck holds only such cards afterwards.
    #[serde(default)]
    pub(super) reshuffled: [Vec<Card>; 2],
    /// *Frische Hand*: the starting hands that were shown and dealt again.
    pub(super) shown_hands: [Vec<Vec<Card>>; 2],
    pub(super) first_player: u8,
    pub(super) current: u8,
    pub(super) outcome: Option<Outcome>,
    pub(super) history: crate::history::History,
}

impl State {
    pub fn caravans(&self) -> &[Caravan; NUM_CARAVANS] {
        &self.caravans
    }
    pub fn hand_cards(&self, player: usize) -> &[Card] {
        &self.hands[player]
    }
    pub fn deck(&self, player: usize) -> &[Card] {
        &self.decks[player]
    }
    pub fn discard_pile(&self, player: usize) -> &[Card] {
        &self.discards[player]
    }
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
    pub fn in_opening(&self, player: usize) -> bool {
        !self.opening_done[player]
    }
    pub fn first_player(&self) -> usize {
        self.first_player as usize
    }
    pub fn value(&self, caravan: usize) -> u32 {
        self.caravans[caravan].value(&self.rules)
    }
    pub fn direction(&self, caravan: usize) -> Option<Direction> {
        self.caravans[caravan].direction(&self.rules)
    }
    pub fn suit(&self, caravan: usize) -> Option<u8> {
        self.caravans[caravan].suit(&self.rules)
    }

    /// C9: who sells pair `i` (caravan `i` against caravan `3 + i`) as the table stands.
    pub fn sells(&self, pair: usize) -> Option<u8> {
        seller(self.value(pair), self.value(3 + pair))
    }

    pub(super) fn has_number_card(&self, player: usize) -> bool {
        self.hands[player].iter().any(|c| c.is_number())
    }

    pub(super) fn take_from_hand(&mut self, player: usize, card: Card) {
        let i = self.hands[player]
            .iter()
            .position(|&c| c == card)
            .expect("checked");
        self.hands[player].remove(i);
    }

    /// C8 and *Neu mischen* (C10): draw one card, refilling an empty deck from the discard pile.
    pub(super) fn draw(&mut self, player: usize) {
        if self.decks[player].is_empty()
            && self.rules.reshuffle
            && self.reshuffles[player] < 2
            && !self.discards[player].is_empty()
        {
            let count = self.reshuffles[player];
            let mut shuffle = rng::seeded(
                self.reshuffle_seed,
                RESHUFFLE_STREAM + 2 * player as u64 + u64::from(count),
            );
            let mut deck = std::mem::take(&mut self.discards[player]);
            // The pile was face up: everyone knows what the new deck is made of.
            self.reshuffled[player] = sorted(deck.clone());
            deck.shuffle(&mut shuffle);
            self.decks[player] = deck;
            self.reshuffles[player] += 1;
        }
        if let Some(card) = self.decks[player].pop() {
            // Into the sorted hand from its end (hands are short).
            let hand = &mut self.hands[player];
            hand.push(card);
            let mut at = hand.len() - 1;
            while at > 0 && hand[at - 1] > card {
                hand[at] = hand[at - 1];
                at -= 1;
            }
            hand[at] = card;
        }
    }

    /// Removes the slots of `caravan` for which `remove` holds (C7), keeping *Fester Kurs*.
    /// In place: the removed cards go to their owners' discard piles in table order.
    pub(super) fn remove_slots(&mut self, caravan: usize, remove: impl Fn(usize, &Slot) -> bool) {
        let before = self.caravans[caravan].base_direction(&self.rules);
        let c = &mut self.caravans[caravan];
        let discards = &mut self.discards;
        let held = c.slots.len();
        let mut i = 0;
        c.slots.retain(|slot| {
            let gone = remove(i, slot);
            i += 1;
            if gone {
                discard(discards, slot);
            }
            !gone
        });
        if c.slots.len() == held {
            return;
        }
        let n = c.slots.len();
        if self.rules.fixed_course
            && n >= 2
            && c.slots[n - 1].number.card.value() == c.slots[n - 2].number.card.value()
        {
            // C3: a removal left two equal values at the end.
            c.kept = before;
        }
    }

    pub(super) fn play_face(&mut self, me: usize, card: Card, caravan: usize, position: usize) {
        let placed = Owned {
            card,
            owner: me as u8,
        };
        match card.kind() {
            Kind::Jack => {
                // C7: the jack removes its number card with everything on it, and itself.
                self.discards[me].push(card);
                self.remove_slots(caravan, |i, _| i == position);
            }
            Kind::Joker => {
                self.caravans[caravan].slots[position].faces.push(placed);
                let target = self.caravans[caravan].slots[position].number.card;
                let rules = self.rules;
                for c in 0..NUM_CARAVANS {
                    self.remove_slots(c, |i, s| {
                        rules.joker_removes(target, (caravan, position), (c, i), s)
                    });
                }
            }
            _ => self.caravans[caravan].slots[position].faces.push(placed),
        }
    }

    /// C9: the outcome the position implies: selling (and *Schnellverkauf*) first, then
    /// running out of cards. Derived after every move and when a state is read, never
    /// trusted from a stored copy.
    pub(super) fn derived_outcome(&self) -> Option<Outcome> {
        let mut sold = [0u8; 2];
        let mut all_decided = true;
        for pair in 0..3 {
            if let Some(p) = self.sells(pair) {
                sold[p as usize] += 1;
            } else {
                all_decided = false;
                // Without *Schnellverkauf* one open pair settles it: not sold out.
                if !self.rules.quick_sale {
                    break;
                }
            }
        }
        if self.rules.quick_sale
            && let Some(p) = (0..2).find(|&p| sold[p] >= 2)
        {
            return Some(Outcome {
                winner: Some(p as u8),
                reason: EndReason::QuickSale,
            });
        }
        if all_decided {
            return Some(Outcome {
                winner: Some(u8::from(sold[0] < 2)),
                reason: EndReason::Sold,
            });
        }
        let out = |p: usize| self.hands[p].is_empty() && self.decks[p].is_empty();
        let winner = match (out(0), out(1)) {
            (false, false) => return None,
            (true, false) => Some(1),
            (false, true) => Some(0),
            (true, true) => None,
        };
        Some(Outcome {
            winner,
            reason: EndReason::OutOfCards,
        })
    }

    /// Whether `player` is to move with an empty hand while their deck holds cards: then
    /// they draw one first (see [`State::refill`]).
    pub(super) fn needs_refill(&self, player: usize) -> bool {
        self.hands[player].is_empty() && !self.decks[player].is_empty()
    }

    /// A player to move with an empty hand and cards in the deck draws one card first.
    /// The seed keeps five cards in hand after the opening and never leaves a player
    /// without a move, but jacks and jokers played against a player's opening (C2: no
    /// drawing there) can use up all eight starting cards; without this draw that player
    /// would have no legal action while the game runs. A decision of ours (README).
    fn refill(&mut self) {
        let next = self.current as usize;
        if self.outcome.is_none() && self.needs_refill(next) {
            self.draw(next);
        }
    }
}

impl GameState for State {
    type Game = CaravanGame;

    fn game(&self) -> &CaravanGame {
        &self.rules
    }

    fn encode_move(&self, mv: &Move) -> Result<Action> {
        self.rules.encode_move(mv)
    }

    fn current_player(&self) -> Option<usize> {
        self.outcome.is_none().then_some(self.current as usize)
    }

    /// The same moves as [`State::check`] allows, derived once per caravan instead of per move.
    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        self.generate_legal(out);
    }

    fn check_action(&self, action: Action) -> Result<(), IllegalAction> {
        match self.rules.decode(action) {
            Some(mv) => self.check(mv),
            None => Err(IllegalAction::no_such_action(action, self.rules.num_actions())),
        }
    }

    fn apply_action(&mut self, action: Action) -> Result<(), IllegalAction> {
        let mv = self
            .rules
            .decode(action)
            .ok_or_else(|| IllegalAction::no_such_action(action, self.rules.num_actions()))?;
        self.check(mv)?;
        let me = self.current as usize;
        let opening = self.in_opening(me);
        self.history.push(action);
        match mv {
            Decoded::Play {
                card,
                caravan,
                position,
            } => {
                self.take_from_hand(me, card);
                if card.is_number() {
                    self.caravans[caravan].slots.push(Slot {
                        number: Owned {
                            card,
                            owner: me as u8,
                        },
                        faces: vec![],
                    });
                    if opening {
                        // C2: no drawing in the opening, which ends once all three caravans hold a card.
                        if self.caravans[3 * me..3 * me + 3]
                            .iter()
                            .all(|c| !c.slots.is_empty())
                        {
                            self.opening_done[me] = true;
                        }
                    } else {
                        self.draw(me);
                    }
                } else {
                    self.play_face(me, card, caravan, position);
                    self.draw(me);
                }
            }
            Decoded::Discard(card) => {
                self.take_from_hand(me, card);
                self.discards[me].push(card);
                self.draw(me);
            }
            Decoded::Disband(caravan) => {
                // The caravan keeps its allocation for the cards to come.
                for slot in self.caravans[caravan].slots.drain(..) {
                    discard(&mut self.discards, &slot);
                }
            }
        }
        self.current = 1 - self.current;
        self.outcome = self.derived_outcome();
        self.refill();
        Ok(())
    }

    fn returns(&self) -> Vec<f64> {
        winner_returns(2, self.outcome.and_then(|o| o.winner).map(usize::from), |p| p)
    }

    fn result_text_named(&self, lang: Lang, names: &crate::names::Names) -> Option<String> {
        self.result_line(lang, names)
    }

    fn history(&self) -> &crate::history::History {
        &self.history
    }

    /// What `seat` sees (`None`: a spectator): see [`View`].
    fn view_of(&self, seat: Option<usize>) -> View {
        self.build_view(seat)
    }

    /// Written straight from the state, exactly as serde writes the view for people:
    /// like `view` and `public_view` it carries the pairs' sale facts (C9), which
    /// `view_of` (bots, tensors) leaves out.
    fn view_json(&self, seat: Option<usize>) -> Vec<u8> {
        self.write_view_json(seat, true)
    }

    /// The typed view's JSON (`view_of`), without the pairs' sale facts: they follow from
    /// the caravans' values, so the bytes are equal exactly when the view is, and the bots
    /// that seed each decision by this key neither pay for the facts nor change their moves.
    fn information_state_key(&self, player: usize) -> Vec<u8> {
        self.write_view_json(Some(player), false)
    }

    fn view(&self, player: usize) -> Value {
        serde_json::to_value(self.view_with_facts(Some(player))).expect("a view always serializes")
    }

    fn public_view(&self) -> Value {
        serde_json::to_value(self.view_with_facts(None)).expect("a view always serializes")
    }

    fn action_text(&self, action: Action, lang: Lang) -> String {
        self.action_line(action, lang)
    }

    fn action_to_move(&self, action: Action) -> Value {
        match self.rules.decode(action) {
            Some(mv) => serde_json::to_value(mv.to_move()).expect("a move always serializes"),
            None => json!({"type": "invalid", "action": action}),
        }
    }

    fn hand(&self, player: usize) -> Vec<String> {
        self.hands[player]
            .iter()
            .map(std::string::ToString::to_string)
            .collect()
    }

    fn render_for(&self, seat: Option<usize>, lang: Lang) -> String {
        self.render_text(seat, lang)
    }
}
