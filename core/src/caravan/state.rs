//! The state of Caravan: decks, hands, the six caravans, turns, effects and selling.

use std::fmt::Write as _;

use rand::RngExt;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::cards::{Card, JACK, Kind, NUM_FACES, SUIT_NAMES};
use crate::error::{Error, IllegalAction, Result};
use crate::game::{Action, Game, GameState, parse_state, reject_unknown_options, winner_returns};
use crate::meta::{OptionSpec, Utility};
use crate::rng;

/// Three caravans per player; caravan `3 * player + i` is player's `i`-th (C1).
pub const NUM_CARAVANS: usize = 6;
const HAND_SIZE: usize = 8;
const SHORT_DECK: usize = 30;
/// Face cards that can be played onto a number card: J, Q, K of each suit and 4 jokers.
const NUM_FACE_CARDS: usize = 16;
/// Number card faces: A–10 of each suit.
const NUM_NUMBER_CARDS: usize = 40;
const SELL_MIN: u32 = 21;
const SELL_MAX: u32 = 26;
/// ChaCha streams (see [`rng::STREAM_GAME`]): player p's deck is shuffled on
/// `DECK_STREAM + p`, the reshuffles of *Neu mischen* (C10) on `RESHUFFLE_STREAM + 2·p + k`.
const DECK_STREAM: u64 = rng::STREAM_GAME;
const RESHUFFLE_STREAM: u64 = rng::STREAM_GAME + 16;

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

impl CaravanGame {
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
    fn base_deck(&self) -> Vec<Card> {
        let copies = if self.double_deck { 2 } else { 1 };
        (0..copies).flat_map(Card::full_deck).collect()
    }

    /// The most number cards one caravan can ever hold: all of its owner's.
    fn positions(&self) -> usize {
        if self.double_deck {
            2 * NUM_NUMBER_CARDS
        } else {
            NUM_NUMBER_CARDS
        }
    }

    fn face_base(&self) -> Action {
        (NUM_NUMBER_CARDS * NUM_CARAVANS) as Action
    }
    fn discard_base(&self) -> Action {
        self.face_base() + (NUM_FACE_CARDS * NUM_CARAVANS * self.positions()) as Action
    }
    fn disband_base(&self) -> Action {
        self.discard_base() + NUM_FACES as Action
    }
    fn num_actions(&self) -> usize {
        self.disband_base() as usize + NUM_CARAVANS
    }

    fn encode(&self, mv: Move) -> Action {
        match mv {
            Move::Play {
                card,
                caravan,
                position,
            } => match card.kind() {
                Kind::Number(v) => {
                    let number = card.suit().unwrap() as usize * 10 + v as usize - 1;
                    (number * NUM_CARAVANS + caravan) as Action
                }
                _ => {
                    let face = match card.suit() {
                        Some(suit) => suit as usize * 3 + (card.rank().unwrap() - JACK) as usize,
                        None => 12 + card.index() - 52,
                    };
                    self.face_base()
                        + ((face * NUM_CARAVANS + caravan) * self.positions() + position) as Action
                }
            },
            Move::Discard(card) => self.discard_base() + card.index() as Action,
            Move::Disband(caravan) => self.disband_base() + caravan as Action,
        }
    }

    fn decode(&self, action: Action) -> Option<Move> {
        let a = action as usize;
        let positions = self.positions();
        if action < self.face_base() {
            let (number, caravan) = (a / NUM_CARAVANS, a % NUM_CARAVANS);
            let card = Card::new((number / 10) as u8, (number % 10) as u8 + 1);
            Some(Move::Play {
                card,
                caravan,
                position: 0,
            })
        } else if action < self.discard_base() {
            let a = a - self.face_base() as usize;
            let (face, rest) = (a / (NUM_CARAVANS * positions), a % (NUM_CARAVANS * positions));
            let card = if face < 12 {
                Card::new((face / 3) as u8, JACK + (face % 3) as u8)
            } else {
                Card::joker((face - 11) as u8)
            };
            Some(Move::Play {
                card,
                caravan: rest / positions,
                position: rest % positions,
            })
        } else if action < self.disband_base() {
            Some(Move::Discard(Card::from_index(
                (action - self.discard_base()) as u8,
            )))
        } else if (a) < self.num_actions() {
            Some(Move::Disband(a - self.disband_base() as usize))
        } else {
            None
        }
    }
}

impl Game for CaravanGame {
    // SCAFFOLD(issue 9): replaced by the typed view and move enum.
    type View = Value;
    type Move = Value;
    type State = State;
    const NAME: &'static str = "caravan";

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

    // SCAFFOLD(issue 9)
    fn max_game_length(&self) -> u64 {
        u64::MAX
    }

    // SCAFFOLD(issue 9)
    fn option_specs(&self) -> Vec<OptionSpec> {
        Vec::new()
    }

    // SCAFFOLD(issue 9)
    fn state_from_view(&self, _view: &Value, _seed: u64) -> Result<State> {
        Err(Error::InvalidView("not yet".into()))
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
            discards: Default::default(),
            caravans: Default::default(),
            opening_done: [false; 2],
            reshuffles: [0; 2],
            reshuffled: Default::default(),
            shown_hands: shown,
            first_player,
            current: first_player,
            outcome: None,
            history: Vec::new(),
        }
    }

    fn state_from_json(&self, json: &str) -> Result<State> {
        let state: State = parse_state(json, "Caravan", self, |s: &State| &s.rules)?;
        state.validate()?;
        Ok(state)
    }
}

fn sorted(mut cards: Vec<Card>) -> Vec<Card> {
    cards.sort_unstable();
    cards
}

/// A move taken apart. `caravan` is absolute (0–5); `position` counts number cards.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Move {
    Play {
        card: Card,
        caravan: usize,
        position: usize,
    },
    Discard(Card),
    Disband(usize),
}

/// A card on the table, with the player whose deck it came from (C1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Owned {
    pub card: Card,
    pub owner: u8,
}

/// A number card with the face cards played onto it, in the order they came.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slot {
    pub number: Owned,
    pub faces: Vec<Owned>,
}

impl Slot {
    fn kings(&self) -> u32 {
        self.faces.iter().filter(|f| f.card.kind() == Kind::King).count() as u32
    }
    fn queens(&self) -> impl Iterator<Item = &Owned> {
        self.faces.iter().filter(|f| f.card.kind() == Kind::Queen)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    Ascending,
    Descending,
}

impl Direction {
    fn reversed(self) -> Direction {
        match self {
            Direction::Ascending => Direction::Descending,
            Direction::Descending => Direction::Ascending,
        }
    }
}

/// One caravan: its number cards in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Caravan {
    pub slots: Vec<Slot>,
    /// *Fester Kurs* (C3): the base direction kept when a removal left two equal values
    /// at the end. The one state the variant remembers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kept: Option<Direction>,
}

impl Caravan {
    /// C3: the base direction from the last two printed values.
    fn base_direction(&self, rules: &CaravanGame) -> Option<Direction> {
        let n = self.slots.len();
        if n < 2 {
            return None;
        }
        let (before, last) = (
            self.slots[n - 2].number.card.value(),
            self.slots[n - 1].number.card.value(),
        );
        Some(match last.cmp(&before) {
            std::cmp::Ordering::Greater => Direction::Ascending,
            std::cmp::Ordering::Less => Direction::Descending,
            std::cmp::Ordering::Equal if rules.fixed_course => self.kept.unwrap_or(Direction::Descending),
            std::cmp::Ordering::Equal => Direction::Descending,
        })
    }

    /// C3: the base direction reversed once per queen on the last number card.
    pub fn direction(&self, rules: &CaravanGame) -> Option<Direction> {
        let base = self.base_direction(rules)?;
        let queens = self.slots.last().map_or(0, |s| s.queens().count());
        Some(if queens % 2 == 1 { base.reversed() } else { base })
    }

    /// C4: the topmost queen on the last number card, else the last (or, *Gründungsfarbe*,
    /// the first) number card's suit. `None` for an empty caravan.
    pub fn suit(&self, rules: &CaravanGame) -> Option<u8> {
        let last = self.slots.last()?;
        if let Some(queen) = last.queens().last() {
            return queen.card.suit();
        }
        let defining = if rules.founding_suit { &self.slots[0] } else { last };
        defining.number.card.suit()
    }

    /// The sum of the number cards, each doubled per king (*Könige addieren*: plus its value per king).
    pub fn value(&self, rules: &CaravanGame) -> u32 {
        self.slots
            .iter()
            .map(|s| {
                let v = u32::from(s.number.card.value());
                if rules.kings_add {
                    v * (1 + s.kings())
                } else {
                    v << s.kings()
                }
            })
            .sum()
    }

    fn cards(&self) -> impl Iterator<Item = &Owned> {
        self.slots
            .iter()
            .flat_map(|s| std::iter::once(&s.number).chain(&s.faces))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// All three pairs were decided (C9).
    Sold,
    /// *Schnellverkauf*: two pairs sold at once.
    QuickSale,
    /// A player had no cards left in hand and deck (C9).
    OutOfCards,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub winner: Option<u8>,
    pub reason: EndReason,
}

/// A position of Caravan.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    rules: CaravanGame,
    /// Seeds the reshuffles of *Neu mischen*; hidden like the decks' order.
    reshuffle_seed: u64,
    /// Per player; the next card drawn is the last.
    decks: [Vec<Card>; 2],
    /// Per player, sorted.
    hands: [Vec<Card>; 2],
    discards: [Vec<Card>; 2],
    caravans: [Caravan; NUM_CARAVANS],
    /// C2: whether the player's opening is over (it never restarts).
    opening_done: [bool; 2],
    reshuffles: [u8; 2],
    /// *Neu mischen*: the cards of each player's latest reshuffle, public since the
    /// discard pile lies face up. The deck holds only such cards afterwards.
    #[serde(default)]
    reshuffled: [Vec<Card>; 2],
    /// *Frische Hand*: the starting hands that were shown and dealt again.
    shown_hands: [Vec<Vec<Card>>; 2],
    first_player: u8,
    current: u8,
    outcome: Option<Outcome>,
    history: Vec<Action>,
}

fn owner_of(caravan: usize) -> usize {
    caravan / 3
}

fn suit_name(suit: Option<u8>) -> &'static str {
    suit.map_or("none", |s| SUIT_NAMES[s as usize])
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
        let (a, b) = (self.value(pair), self.value(3 + pair));
        let sellable = |v: u32| (SELL_MIN..=SELL_MAX).contains(&v);
        match (sellable(a), sellable(b)) {
            (true, false) => Some(0),
            (false, true) => Some(1),
            (true, true) if a != b => Some(if a > b { 0 } else { 1 }),
            _ => None,
        }
    }

    fn has_number_card(&self, player: usize) -> bool {
        self.hands[player].iter().any(|c| c.is_number())
    }

    fn check(&self, mv: Move) -> Result<(), IllegalAction> {
        if self.outcome.is_some() {
            return Err(IllegalAction::untyped("C9", "the game is over"));
        }
        let me = self.current as usize;
        let opening = self.in_opening(me);
        match mv {
            Move::Play {
                card,
                caravan,
                position,
            } => {
                if !self.hands[me].contains(&card) {
                    return Err(IllegalAction::untyped(
                        "C8",
                        format!("{card} is not in player {me}'s hand"),
                    ));
                }
                let target = &self.caravans[caravan];
                if let Kind::Number(value) = card.kind() {
                    if owner_of(caravan) != me {
                        return Err(IllegalAction::untyped(
                            "C5",
                            format!(
                                "number cards go onto the player's own caravans only: caravan {caravan} is player {}'s",
                                owner_of(caravan)
                            ),
                        ));
                    }
                    if opening && !target.slots.is_empty() {
                        return Err(IllegalAction::untyped(
                            "C2",
                            format!(
                                "in the opening a number card goes onto an empty caravan of one's own; caravan {caravan} is not empty"
                            ),
                        ));
                    }
                    let Some(last) = target.slots.last() else {
                        return Ok(());
                    };
                    let last_card = last.number.card;
                    if last_card.value() == value {
                        return Err(IllegalAction::untyped(
                            "C5",
                            format!("{card} cannot follow {last_card}: never the same value twice in a row"),
                        ));
                    }
                    if let Some(direction) = target.direction(&self.rules) {
                        let follows = match direction {
                            Direction::Ascending => value > last_card.value(),
                            Direction::Descending => value < last_card.value(),
                        };
                        let suit = target.suit(&self.rules);
                        if !follows && card.suit() != suit {
                            let dir = if direction == Direction::Ascending {
                                "an ascending"
                            } else {
                                "a descending"
                            };
                            return Err(IllegalAction::untyped(
                                "C5",
                                format!(
                                    "{card} cannot follow {last_card} on {dir} caravan unless it is {}",
                                    suit_name(suit)
                                ),
                            ));
                        }
                    }
                    Ok(())
                } else {
                    if opening {
                        return Err(IllegalAction::untyped(
                            "C2",
                            "the opening allows number cards only",
                        ));
                    }
                    let Some(slot) = target.slots.get(position) else {
                        return Err(IllegalAction::untyped(
                            "C6",
                            format!(
                                "caravan {caravan} has no number card at position {position} (it holds {})",
                                target.slots.len()
                            ),
                        ));
                    };
                    if !self.rules.unlimited_face_cards && slot.faces.len() >= 3 {
                        return Err(IllegalAction::untyped(
                            "C6",
                            "a number card may carry at most 3 face cards",
                        ));
                    }
                    if card.kind() == Kind::Queen
                        && !self.rules.queens_anywhere
                        && position + 1 != target.slots.len()
                    {
                        return Err(IllegalAction::untyped(
                            "C6",
                            "a queen goes onto the last number card of a caravan",
                        ));
                    }
                    Ok(())
                }
            }
            Move::Discard(card) => {
                if !self.hands[me].contains(&card) {
                    return Err(IllegalAction::untyped(
                        "C8",
                        format!("{card} is not in player {me}'s hand"),
                    ));
                }
                if opening && self.has_number_card(me) {
                    return Err(IllegalAction::untyped(
                        "C2",
                        "in the opening only a player holding no number card may discard (and draw)",
                    ));
                }
                Ok(())
            }
            Move::Disband(caravan) => {
                if opening {
                    return Err(IllegalAction::untyped("C2", "no disbanding in the opening"));
                }
                if owner_of(caravan) != me {
                    return Err(IllegalAction::untyped(
                        "C8",
                        format!(
                            "only one's own caravans can be disbanded: caravan {caravan} is player {}'s",
                            owner_of(caravan)
                        ),
                    ));
                }
                if self.caravans[caravan].slots.is_empty() {
                    return Err(IllegalAction::untyped(
                        "C8",
                        format!("caravan {caravan} is empty: nothing to disband"),
                    ));
                }
                Ok(())
            }
        }
    }

    fn take_from_hand(&mut self, player: usize, card: Card) {
        let i = self.hands[player]
            .iter()
            .position(|&c| c == card)
            .expect("checked");
        self.hands[player].remove(i);
    }

    /// C8 and *Neu mischen* (C10): draw one card, refilling an empty deck from the discard pile.
    fn draw(&mut self, player: usize) {
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
            let at = self.hands[player].partition_point(|&c| c < card);
            self.hands[player].insert(at, card);
        }
    }

    fn discard_owned(&mut self, cards: impl IntoIterator<Item = Owned>) {
        for o in cards {
            self.discards[o.owner as usize].push(o.card);
        }
    }

    /// Removes the slots of `caravan` for which `remove` holds (C7), keeping *Fester Kurs*.
    fn remove_slots(&mut self, caravan: usize, remove: impl Fn(usize, &Slot) -> bool) {
        let before = self.caravans[caravan].base_direction(&self.rules);
        let slots = std::mem::take(&mut self.caravans[caravan].slots);
        let mut kept = Vec::with_capacity(slots.len());
        let mut removed = Vec::new();
        for (i, slot) in slots.into_iter().enumerate() {
            if remove(i, &slot) {
                removed.push(slot)
            } else {
                kept.push(slot)
            }
        }
        if removed.is_empty() {
            self.caravans[caravan].slots = kept;
            return;
        }
        for slot in removed {
            self.discard_owned(std::iter::once(slot.number).chain(slot.faces));
        }
        let c = &mut self.caravans[caravan];
        c.slots = kept;
        let n = c.slots.len();
        if self.rules.fixed_course
            && n >= 2
            && c.slots[n - 1].number.card.value() == c.slots[n - 2].number.card.value()
        {
            // C3: a removal left two equal values at the end.
            c.kept = before;
        }
    }

    fn play_face(&mut self, me: usize, card: Card, caravan: usize, position: usize) {
        let placed = Owned {
            card,
            owner: me as u8,
        };
        match card.kind() {
            Kind::Jack => {
                // C7: the jack removes its number card with everything on it, and itself.
                self.discard_owned([placed]);
                self.remove_slots(caravan, |i, _| i == position);
            }
            Kind::Joker => {
                self.caravans[caravan].slots[position].faces.push(placed);
                let target = self.caravans[caravan].slots[position].number.card;
                let shield = self.rules.queens_shield;
                for c in 0..NUM_CARAVANS {
                    if self.rules.protected_joker && c == caravan {
                        continue;
                    }
                    let is_target = |i: usize| c == caravan && i == position;
                    if target.value() == 1 {
                        // C7: on an ace, every other number card of that suit, aces included.
                        self.remove_slots(c, |i, s| {
                            !is_target(i)
                                && s.number.card.suit() == target.suit()
                                && !(shield && s.queens().next().is_some())
                        });
                    } else {
                        // C7: on 2–10, every other number card of that value.
                        self.remove_slots(c, |i, s| !is_target(i) && s.number.card.value() == target.value());
                    }
                }
            }
            _ => self.caravans[caravan].slots[position].faces.push(placed),
        }
    }

    /// C9: after every move, selling (and *Schnellverkauf*), then running out of cards.
    fn settle_outcome(&mut self) {
        let sales: [Option<u8>; 3] = [self.sells(0), self.sells(1), self.sells(2)];
        let count = |p: u8| sales.iter().filter(|&&s| s == Some(p)).count();
        if self.rules.quick_sale
            && let Some(p) = (0..2).find(|&p| count(p) >= 2)
        {
            self.outcome = Some(Outcome {
                winner: Some(p),
                reason: EndReason::QuickSale,
            });
            return;
        }
        if sales.iter().all(Option::is_some) {
            let winner = if count(0) >= 2 { 0 } else { 1 };
            self.outcome = Some(Outcome {
                winner: Some(winner),
                reason: EndReason::Sold,
            });
            return;
        }
        let out: Vec<bool> = (0..2)
            .map(|p| self.hands[p].is_empty() && self.decks[p].is_empty())
            .collect();
        let winner = match (out[0], out[1]) {
            (false, false) => return,
            (true, false) => Some(1),
            (false, true) => Some(0),
            (true, true) => None,
        };
        self.outcome = Some(Outcome {
            winner,
            reason: EndReason::OutOfCards,
        });
    }

    fn validate(&self) -> Result<()> {
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

    fn move_json(&self, mv: Move) -> Value {
        match mv {
            Move::Play { card, caravan, .. } if card.is_number() => {
                json!({"type": "play", "card": card.to_string(), "caravan": caravan})
            }
            Move::Play {
                card,
                caravan,
                position,
            } => {
                json!({"type": "play", "card": card.to_string(), "caravan": caravan, "position": position})
            }
            Move::Discard(card) => json!({"type": "discard", "card": card.to_string()}),
            Move::Disband(caravan) => json!({"type": "disband", "caravan": caravan}),
        }
    }

    /// Deals the cards hidden from `player` anew (see [`GameState::resample`]).
    fn redeal_hidden(&self, player: usize, seed: u64) -> State {
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

    fn caravan_json(&self, i: usize) -> Value {
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
}

const MOVE_SYNTAX: &str = r#"moves are {"type": "play", "card": "7H", "caravan": 0-5} for number cards, {"type": "play", "card": "QS", "caravan": 0-5, "position": n} for face cards (position counts the caravan's number cards from 0), {"type": "discard", "card": "7H"} or {"type": "disband", "caravan": 0-5}; caravans 0-2 are player 0's, 3-5 player 1's"#;

fn move_error(what: impl std::fmt::Display) -> Error {
    Error::InvalidMove(format!("{what}; {MOVE_SYNTAX}"))
}

fn index_field(obj: &Map<String, Value>, field: &str, below: usize) -> Result<usize> {
    let v = obj
        .get(field)
        .ok_or_else(|| move_error(format!("missing field '{field}'")))?;
    v.as_u64()
        .filter(|&n| (n as usize) < below)
        .map(|n| n as usize)
        .ok_or_else(|| {
            move_error(format!(
                "{field} {v} does not exist: {field}s are 0-{}",
                below - 1
            ))
        })
}

impl GameState for State {
    type Game = CaravanGame;

    fn game(&self) -> &CaravanGame {
        &self.rules
    }

    // SCAFFOLD(issue 9)
    fn encode_move(&self, mv: &Value) -> Result<Action> {
        self.action_from_move(mv)
    }
    fn current_player(&self) -> Option<usize> {
        self.outcome.is_none().then_some(self.current as usize)
    }

    /// The same moves as [`State::check`] allows, derived once per caravan instead of per move.
    fn legal_actions_into(&self, out: &mut Vec<Action>) {
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
                    out.push(rules.encode(Move::Play {
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
                            out.push(rules.encode(Move::Play {
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
            out.extend(distinct().map(|card| rules.encode(Move::Discard(card))));
        }
        if !opening {
            for caravan in own {
                if !self.caravans[caravan].slots.is_empty() {
                    out.push(rules.encode(Move::Disband(caravan)));
                }
            }
        }
        debug_assert!(out.is_sorted(), "legal actions come out in id order");
    }

    fn check_action(&self, action: Action) -> Result<(), IllegalAction> {
        match self.rules.decode(action) {
            Some(mv) => self.check(mv),
            None => Err(IllegalAction::no_such_action(action, self.rules.num_actions())),
        }
    }

    fn apply_action(&mut self, action: Action) -> Result<(), IllegalAction> {
        self.check_action(action)?;
        let mv = self.rules.decode(action).expect("checked");
        let me = self.current as usize;
        let opening = self.in_opening(me);
        self.history.push(action);
        match mv {
            Move::Play {
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
            Move::Discard(card) => {
                self.take_from_hand(me, card);
                self.discards[me].push(card);
                self.draw(me);
            }
            Move::Disband(caravan) => {
                let slots = std::mem::take(&mut self.caravans[caravan].slots);
                for slot in slots {
                    self.discard_owned(std::iter::once(slot.number).chain(slot.faces));
                }
            }
        }
        self.current = 1 - self.current;
        self.settle_outcome();
        Ok(())
    }

    fn returns(&self) -> Vec<f64> {
        winner_returns(2, self.outcome.and_then(|o| o.winner).map(usize::from), |p| p)
    }

    fn history(&self) -> &[Action] {
        &self.history
    }

    /// Every caravan with its value, direction, suit and cards; both discard piles; hand
    /// and deck sizes; the player's own hand. Never the other hand or a deck's order.
    // SCAFFOLD(issue 9)
    fn view_of(&self, seat: Option<usize>) -> Value {
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

    fn action_to_string(&self, action: Action) -> String {
        match self.rules.decode(action) {
            Some(Move::Play { card, caravan, .. }) if card.is_number() => {
                format!("play {card} on caravan {caravan}")
            }
            Some(Move::Play {
                card,
                caravan,
                position,
            }) => {
                format!("play {card} on caravan {caravan}, number card {position}")
            }
            Some(Move::Discard(card)) => format!("discard {card}"),
            Some(Move::Disband(caravan)) => format!("disband caravan {caravan}"),
            None => format!("invalid action {action}"),
        }
    }

    fn action_to_move(&self, action: Action) -> Value {
        match self.rules.decode(action) {
            Some(mv) => self.move_json(mv),
            None => json!({"type": "invalid", "action": action}),
        }
    }

    fn action_from_move(&self, mv: &Value) -> Result<Action> {
        let obj = mv
            .as_object()
            .ok_or_else(|| move_error("a move is a JSON object"))?;
        let kind = obj
            .get("type")
            .and_then(Value::as_str)
            .ok_or_else(|| move_error("missing string field 'type'"))?;
        let card = || -> Result<Card> {
            obj.get("card")
                .and_then(Value::as_str)
                .ok_or_else(|| move_error("missing string field 'card'"))?
                .parse()
        };
        let expect = |allowed: &[&str]| match obj.keys().find(|k| !allowed.contains(&k.as_str())) {
            Some(k) => Err(move_error(format!("unexpected field '{k}'"))),
            None => Ok(()),
        };
        let mv = match kind {
            "play" => {
                let card = card()?;
                let caravan = index_field(obj, "caravan", NUM_CARAVANS)?;
                if card.is_number() {
                    expect(&["type", "card", "caravan"])?;
                    Move::Play {
                        card,
                        caravan,
                        position: 0,
                    }
                } else {
                    expect(&["type", "card", "caravan", "position"])?;
                    let position = index_field(obj, "position", self.rules.positions())?;
                    Move::Play {
                        card,
                        caravan,
                        position,
                    }
                }
            }
            "discard" => {
                expect(&["type", "card"])?;
                Move::Discard(card()?)
            }
            "disband" => {
                expect(&["type", "caravan"])?;
                Move::Disband(index_field(obj, "caravan", NUM_CARAVANS)?)
            }
            other => return Err(move_error(format!("unknown move type '{other}'"))),
        };
        Ok(self.rules.encode(mv))
    }

    /// The decks' order, the other hand, and (*Kurzes Deck*) which cards make each deck are
    /// hidden; they are dealt anew from `seed`, as are future reshuffles.
    fn resample(&self, player: usize, seed: u64) -> Result<State> {
        // SCAFFOLD(issue 9)
        fn old(this: &State, player: usize, seed: u64) -> State {
            this.redeal_hidden(player, seed)
        }
        Ok(old(self, player, seed))
    }

    fn hand(&self, player: usize) -> Vec<String> {
        self.hands[player].iter().map(|c| c.to_string()).collect()
    }

    fn render(&self) -> String {
        let mut out = String::new();
        for i in 0..NUM_CARAVANS {
            let c = &self.caravans[i];
            let cards: Vec<String> = c
                .slots
                .iter()
                .map(|s| {
                    let faces: String = s.faces.iter().map(|f| format!("+{}", f.card)).collect();
                    format!("{}{faces}", s.number.card)
                })
                .collect();
            let dir = match c.direction(&self.rules) {
                Some(Direction::Ascending) => "up",
                Some(Direction::Descending) => "down",
                None => "-",
            };
            let suit = c.suit(&self.rules).map_or("-", |s| SUIT_NAMES[s as usize]);
            let _ = writeln!(
                out,
                "caravan {i} (player {}): {:>2} {dir:<4} {suit:<8} {}",
                owner_of(i),
                c.value(&self.rules),
                cards.join(" ")
            );
        }
        for p in 0..2 {
            let _ = writeln!(
                out,
                "player {p}: hand {} | deck {} | discard {}{}",
                self.hand(p).join(" "),
                self.decks[p].len(),
                self.discards[p].len(),
                if self.in_opening(p) { " | opening" } else { "" }
            );
        }
        let sales: Vec<String> = (0..3)
            .map(|i| self.sells(i).map_or("-".to_string(), |p| format!("player {p}")))
            .collect();
        let _ = write!(out, "pairs sold by: {}", sales.join(", "));
        out
    }
}
