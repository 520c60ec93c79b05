//! The rules with their options: the twelve variants (C10), the deal, and `impl Game`.

use rand::RngExt;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::cards::{Card, NUM_FACES};
use super::codec::Move;
use super::state::State;
use super::table::Slot;
use super::view::View;
use crate::error::{Error, Result};
use crate::game::{Action, Game, parse_state, reject_unknown_options};
use crate::meta::{OptionSpec, Utility};
use crate::rng;

/// Three caravans per player; caravan `3 * player + i` is player's `i`-th (C1).
pub const NUM_CARAVANS: usize = 6;
pub(super) const HAND_SIZE: usize = 8;
pub(super) const SHORT_DECK: usize = 30;
/// Face cards that can be played onto a number card: J, Q, K of each suit and 4 jokers.
pub(super) const NUM_FACE_CARDS: usize = 16;
/// Number card faces: A–10 of each suit.
pub(super) const NUM_NUMBER_CARDS: usize = 40;
pub(super) const SELL_MIN: u32 = 21;
pub(super) const SELL_MAX: u32 = 26;
/// ChaCha streams (see [`rng::STREAM_GAME`]): player p's deck is shuffled on
/// `DECK_STREAM + p`, the reshuffles of *Neu mischen* (C10) on `RESHUFFLE_STREAM + 2·p + k`.
pub(super) const DECK_STREAM: u64 = rng::STREAM_GAME;
pub(super) const RESHUFFLE_STREAM: u64 = rng::STREAM_GAME + 16;

/// The twelve variants (C10), all off by default. The seed's German names in brackets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaravanGame {
    /// *Damen überall*: a queen may go onto any number card; it acts only while its card is last.
    pub queens_anywhere: bool,
    /// *Könige addieren*: a king adds its card's value once more instead of doubling it.
    pub kings_add: bool,
    /// *Gründungsfarbe*: a caravan's suit is the suit of its first number card.
    pub founding_suit: bool,
    /// *Unbegrenzte Bildkarten*: no cap of three face cards per number card.
    pub unlimited_face_cards: bool,
    /// *Schnellverkauf*: selling two pairs at once wins at once.
    pub quick_sale: bool,
    /// *Neu mischen*: an empty deck is refilled from the discard pile, twice per player.
    pub reshuffle: bool,
    /// *Kurzes Deck*: each deck is 30 random cards of a full deck.
    pub short_deck: bool,
    /// *Doppeldeck*: each deck is two full decks.
    pub double_deck: bool,
    /// *Schild der Dame*: a joker on an ace spares cards carrying a queen.
    pub queens_shield: bool,
    /// *Fester Kurs*: a removal that leaves two equal values at the end keeps the direction.
    pub fixed_course: bool,
    /// *Frische Hand*: a starting hand with fewer than 3 number cards is shown and dealt again.
    pub fresh_hand: bool,
    /// *Geschützter Joker*: a joker never removes cards from its own caravan.
    pub protected_joker: bool,
}

/// Option names in order, with the seed's German names.
pub const VARIANTS: [(&str, &str); 12] = [
    ("queens_anywhere", "Damen überall"),
    ("kings_add", "Könige addieren"),
    ("founding_suit", "Gründungsfarbe"),
    ("unlimited_face_cards", "Unbegrenzte Bildkarten"),
    ("quick_sale", "Schnellverkauf"),
    ("reshuffle", "Neu mischen"),
    ("short_deck", "Kurzes Deck"),
    ("double_deck", "Doppeldeck"),
    ("queens_shield", "Schild der Dame"),
    ("fixed_course", "Fester Kurs"),
    ("fresh_hand", "Frische Hand"),
    ("protected_joker", "Geschützter Joker"),
];

/// What each variant of [`VARIANTS`] does, in the same order (the option specs).
const VARIANT_DESCRIPTIONS: [&str; 12] = [
    "a queen may go onto any number card; it turns the caravan and sets its suit only while its card is last",
    "a king adds its card's value once more instead of doubling it: a 5 with two kings counts 15",
    "a caravan's suit is the suit of its first number card, not its last; queens still change it",
    "a number card may carry any number of face cards, not only three",
    "whoever first sells two pairs at once wins at once, without waiting for the third pair",
    "an empty deck is refilled by shuffling the player's discard pile, at most twice per player",
    "each player's deck is 30 random cards of a full deck",
    "each player's deck is two full decks shuffled together (108 cards, jokers JK1-JK4)",
    "a joker on an ace spares every card that carries a queen",
    "when a jack or joker leaves two equal values at the end of a caravan, it keeps its direction",
    "a starting hand with fewer than three number cards is shown, shuffled back and dealt again",
    "a joker never removes cards from the caravan it is played on",
];

/// [`VARIANT_DESCRIPTIONS`] in German, in the same order.
const VARIANT_DESCRIPTIONS_DE: [&str; 12] = [
    "eine Dame darf auf jede Zahlenkarte; sie kehrt die Route um und setzt ihre Farbe nur, solange ihre Karte die letzte ist",
    "ein König zählt den Wert seiner Karte noch einmal dazu, statt ihn zu verdoppeln: eine 5 mit zwei Königen zählt 15",
    "die Farbe einer Route ist die ihrer ersten Zahlenkarte, nicht ihrer letzten; Damen ändern sie weiterhin",
    "eine Zahlenkarte darf beliebig viele Bildkarten tragen, nicht nur drei",
    "wer zuerst zwei Paare auf einmal verkauft, gewinnt sofort, ohne auf das dritte Paar zu warten",
    "ein leeres Deck wird aus dem gemischten Ablagestapel des Spielers neu gefüllt, höchstens zweimal je Spieler",
    "jedes Deck besteht aus 30 zufälligen Karten eines vollen Decks",
    "jedes Deck besteht aus zwei vollen, zusammen gemischten Decks (108 Karten, Joker JK1-JK4)",
    "ein Joker auf einem Ass verschont jede Karte, die eine Dame trägt",
    "hinterlässt ein Bube oder Joker zwei gleiche Werte am Ende einer Route, behält sie ihre Richtung",
    "eine Starthand mit weniger als drei Zahlenkarten wird gezeigt, zurückgemischt und neu ausgeteilt",
    "ein Joker entfernt nie Karten aus der Route, auf die er gespielt wird",
];

impl CaravanGame {
    /// The number of cards each player has: 30 with *Kurzes Deck*, else the full deck.
    pub(super) fn deck_size(&self) -> usize {
        if self.short_deck {
            SHORT_DECK
        } else {
            54 * if self.double_deck { 2 } else { 1 }
        }
    }

    /// C10: only the standard rules are ranked.
    pub fn ranked(&self) -> bool {
        *self == CaravanGame::default()
    }

    fn flag_mut(&mut self, name: &str) -> &mut bool {
        match name {
            "queens_anywhere" => &mut self.queens_anywhere,
            "kings_add" => &mut self.kings_add,
            "founding_suit" => &mut self.founding_suit,
            "unlimited_face_cards" => &mut self.unlimited_face_cards,
            "quick_sale" => &mut self.quick_sale,
            "reshuffle" => &mut self.reshuffle,
            "short_deck" => &mut self.short_deck,
            "double_deck" => &mut self.double_deck,
            "queens_shield" => &mut self.queens_shield,
            "fixed_course" => &mut self.fixed_course,
            "fresh_hand" => &mut self.fresh_hand,
            "protected_joker" => &mut self.protected_joker,
            _ => unreachable!("checked against VARIANTS"),
        }
    }

    /// The cards one player's deck is made of, before any shortening.
    pub(super) fn base_deck(&self) -> Vec<Card> {
        let copies = if self.double_deck { 2 } else { 1 };
        (0..copies).flat_map(Card::full_deck).collect()
    }

    /// The most number cards one caravan can ever hold: all of its owner's.
    pub(super) fn positions(&self) -> usize {
        if self.double_deck {
            2 * NUM_NUMBER_CARDS
        } else {
            NUM_NUMBER_CARDS
        }
    }

    pub(super) fn face_base(&self) -> Action {
        (NUM_NUMBER_CARDS * NUM_CARAVANS) as Action
    }
    pub(super) fn discard_base(&self) -> Action {
        self.face_base() + (NUM_FACE_CARDS * NUM_CARAVANS * self.positions()) as Action
    }
    pub(super) fn disband_base(&self) -> Action {
        self.discard_base() + NUM_FACES as Action
    }
    pub(super) fn num_actions(&self) -> usize {
        self.disband_base() as usize + NUM_CARAVANS
    }
    /// C7: whether a joker played onto `target`, the number card at `(caravan, position)`,
    /// removes `slot`, the number card at `at`. On an ace: every other number card of that
    /// suit, aces included (*Schild der Dame*: not one carrying a queen); on 2–10: every
    /// other number card of that value. *Geschützter Joker*: nothing of its own caravan.
    pub(super) fn joker_removes(
        &self,
        target: Card,
        (caravan, position): (usize, usize),
        at: (usize, usize),
        slot: &Slot,
    ) -> bool {
        if at == (caravan, position) || (self.protected_joker && at.0 == caravan) {
            return false;
        }
        let card = slot.number.card;
        if target.value() == 1 {
            card.suit() == target.suit() && !(self.queens_shield && slot.queens().next().is_some())
        } else {
            card.value() == target.value()
        }
    }
}

impl Game for CaravanGame {
    type View = View;
    type Move = Move;
    type State = State;
    const NAME: &'static str = "caravan";
    const MOVE_SYNTAX: &'static str = r#"moves are {"type": "play", "card": "7H", "caravan": 0-5} for number cards, {"type": "play", "card": "QS", "caravan": 0-5, "position": n} for face cards (position counts the caravan's number cards from 0), {"type": "discard", "card": "7H"} or {"type": "disband", "caravan": 0-5}; caravans 0-2 are player 0's, 3-5 player 1's"#;

    fn from_options(options: &Map<String, Value>) -> Result<Self> {
        let names: Vec<&str> = VARIANTS.iter().map(|(n, _)| *n).collect();
        reject_unknown_options(Self::NAME, options, &names)?;
        let mut game = CaravanGame::default();
        for (name, value) in options {
            *game.flag_mut(name) = value.as_bool().ok_or_else(|| Error::InvalidOption {
                game: Self::NAME,
                message: format!("{name} must be true or false, got {value}"),
            })?;
        }
        Ok(game)
    }

    fn num_players(&self) -> usize {
        2
    }

    fn num_distinct_actions(&self) -> usize {
        self.num_actions()
    }

    fn utility(&self) -> Utility {
        Utility::ZeroSum
    }

    /// Every play or discard takes a card out of its player's hand; a card comes back to
    /// the hand only through a reshuffle (*Neu mischen*: at most twice per player), so
    /// each player makes at most `lives · N` plays and discards, `N` the cards of a deck
    /// (30, 54 or 108) and `lives` 3 with reshuffles, else 1. Every disband clears a
    /// caravan of the player's own, and each number card on it was played there by
    /// them, so disbands are at most as many as the player's number-card plays. Two
    /// players: `2 · 2 · lives · N` actions (216 with the standard rules).
    fn max_game_length(&self) -> u64 {
        let lives = if self.reshuffle { 3 } else { 1 };
        2 * 2 * lives * self.deck_size() as u64
    }

    /// The twelve variants of C10, each a flag off by default, with the seed's German name.
    fn option_specs(&self) -> Vec<OptionSpec> {
        VARIANTS
            .iter()
            .zip(VARIANT_DESCRIPTIONS.iter().zip(VARIANT_DESCRIPTIONS_DE))
            .map(|(&(name, name_de), (description, description_de))| {
                OptionSpec::flag(name, false, description)
                    .german(name_de)
                    .german_description(description_de)
            })
            .collect()
    }

    /// See [`State::from_view`]: the built state has an empty history.
    fn state_from_view(&self, view: &View, seed: u64) -> Result<State> {
        State::from_view(self, view, seed)
    }

    fn observation_tensor_shape(&self) -> Vec<usize> {
        super::tensor::observation_tensor_shape(self)
    }

    fn observation_tensor_len(&self) -> usize {
        super::tensor::observation_tensor_len(self)
    }

    fn describe_observation(&self) -> Vec<crate::tensor::TensorSlice> {
        super::tensor::describe_observation(self)
    }

    fn write_observation(&self, view: &View, out: &mut [f32]) {
        super::tensor::write_observation(self, view, out);
    }

    fn write_observation_of(&self, state: &State, seat: Option<usize>, out: &mut [f32]) {
        super::tensor::write_observation_of(self, state, seat, out);
    }

    fn ranked(&self) -> bool {
        CaravanGame::ranked(self)
    }

    /// C1: each deck is shuffled from its own stream of the seed, the first player is
    /// drawn by lot from the seed; eight cards each (C10 *Frische Hand*: dealt again
    /// while a hand has fewer than three number cards, the rejected hands shown).
    fn new_initial_state(&self, seed: u64) -> State {
        let mut lot = rng::seeded(seed, rng::STREAM_DEAL);
        let first_player = lot.random_range(0..2u8);
        let mut decks: [Vec<Card>; 2] = Default::default();
        let mut hands: [Vec<Card>; 2] = Default::default();
        let mut shown: [Vec<Vec<Card>>; 2] = Default::default();
        for p in 0..2 {
            let mut shuffle = rng::seeded(seed, DECK_STREAM + p as u64);
            let mut deck = self.base_deck();
            deck.shuffle(&mut shuffle);
            if self.short_deck {
                deck.truncate(SHORT_DECK);
            }
            loop {
                let hand: Vec<Card> = deck.split_off(deck.len() - HAND_SIZE);
                // A bound for decks without three number cards (impossible for the seed's decks).
                if !self.fresh_hand
                    || hand.iter().filter(|c| c.is_number()).count() >= 3
                    || shown[p].len() >= 100
                {
                    hands[p] = hand;
                    break;
                }
                shown[p].push(sorted(hand.clone()));
                deck.extend(hand);
                deck.shuffle(&mut shuffle);
            }
            hands[p].sort_unstable();
            decks[p] = deck;
        }
        State {
            rules: *self,
            reshuffle_seed: seed,
            decks,
            hands,
            // Room for every card at once, so that the piles never grow during a game.
            discards: std::array::from_fn(|_| Vec::with_capacity(self.deck_size())),
            caravans: Default::default(),
            opening_done: [false; 2],
            reshuffles: [0; 2],
            reshuffled: Default::default(),
            shown_hands: shown,
            first_player,
            current: first_player,
            outcome: None,
            history: crate::history::History::new(),
        }
    }

    fn state_from_json(&self, json: &str) -> Result<State> {
        let state: State = parse_state(json, "Caravan", self, |s: &State| &s.rules)?;
        self.check_state(&state)?;
        Ok(state)
    }

    fn check_state(&self, state: &State) -> Result<()> {
        state.validate()
    }
}

pub(super) fn sorted(mut cards: Vec<Card>) -> Vec<Card> {
    cards.sort_unstable();
    cards
}
