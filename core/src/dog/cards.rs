//! Dog cards (D3): A, 2–10, J, Q, K and the joker, written `A`, `2` … `10`, `J`, `Q`, `K`, `JK`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::Error;
use crate::text_serde::serde_as_text;

/// Card kinds: 0 = A, 1–9 = 2–10, 10 = J, 11 = Q, 12 = K, 13 = joker.
pub const NUM_KINDS: usize = 14;
const NAMES: [&str; NUM_KINDS] = [
    "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK",
];

/// The cards as a German player says them, in the seed's words (As, König, Joker; Bube and
/// Dame as the other games say them), by kind.
const NAMES_DE: [&str; NUM_KINDS] = [
    "As", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Bube", "Dame", "König", "Joker",
];

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(pub(crate) u8);

impl Card {
    /// The card as a German player says it: "As", "7", "Bube", "König", "Joker"; the
    /// notation (`"A"`, `"J"`, `"JK"`) stays the JSON's and the English texts'.
    pub fn name_de(self) -> &'static str {
        NAMES_DE[self.index()]
    }
}

impl Card {
    pub const ACE: Card = Card(0);
    pub const FOUR: Card = Card(3);
    pub const SEVEN: Card = Card(6);
    pub const JACK: Card = Card(10);
    pub const QUEEN: Card = Card(11);
    pub const KING: Card = Card(12);
    pub const JOKER: Card = Card(13);

    pub const fn index(self) -> usize {
        self.0 as usize
    }
    pub fn from_index(i: usize) -> Card {
        assert!(i < NUM_KINDS);
        Card(i as u8)
    }
    /// 2–10 for the number cards.
    pub const fn number(self) -> Option<u8> {
        if self.0 >= 1 && self.0 <= 9 {
            Some(self.0 + 1)
        } else {
            None
        }
    }
    /// The notation: `A`, `2`–`10`, `J`, `Q`, `K`, `JK`.
    pub const fn name(self) -> &'static str {
        NAMES[self.0 as usize]
    }
    /// D3: eight of every card and six jokers.
    pub const fn copies(self) -> u8 {
        if self.0 == 13 { 6 } else { 8 }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(NAMES[self.index()])
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Card {
    type Err = Error;
    fn from_str(s: &str) -> Result<Card, Error> {
        NAMES
            .iter()
            .position(|&n| n == s)
            .map(|i| Card(i as u8))
            .ok_or_else(|| Error::InvalidCard {
                card: s.to_string(),
                allowed: crate::msg!(
                    "cards are A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K and JK (joker)",
                    "die Karten sind A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K und JK (Joker)"
                ),
            })
    }
}

impl schemars::JsonSchema for Hand {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "DogCards".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut schema = <Vec<Card>>::json_schema(generator);
        schema.insert(
            "description".into(),
            "Dog cards, sorted: A, 2-10, J, Q, K, JK".into(),
        );
        schema
    }
}

serde_as_text!(
    Card,
    NUM_KINDS,
    "DogCard",
    "a Dog card: A, 2-10, J, Q, K or JK (joker)",
    "^(A|[2-9]|10|J|Q|K|JK)$"
);

/// A hand as counts per kind; serialized as a sorted list of cards.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct Hand(pub [u8; NUM_KINDS]);

impl Hand {
    pub fn len(&self) -> usize {
        self.0.iter().map(|&n| n as usize).sum()
    }
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&n| n == 0)
    }
    pub fn has(&self, card: Card) -> bool {
        self.0[card.index()] > 0
    }
    pub fn add(&mut self, card: Card) {
        self.0[card.index()] += 1;
    }
    pub fn take(&mut self, card: Card) {
        self.0[card.index()] -= 1;
    }
    /// Adds every card of `other`.
    pub fn add_all(&mut self, other: &Hand) {
        for (n, &m) in self.0.iter_mut().zip(&other.0) {
            *n += m;
        }
    }
    /// Whether every card of `other` is in this hand too.
    pub fn contains(&self, other: &Hand) -> bool {
        self.0.iter().zip(&other.0).all(|(&n, &m)| n >= m)
    }
    /// Every card, with repeats, in kind order.
    pub fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        (0..NUM_KINDS).flat_map(|i| std::iter::repeat_n(Card(i as u8), self.0[i] as usize))
    }
    /// The kinds held, each once.
    pub fn kinds(&self) -> impl Iterator<Item = Card> + '_ {
        (0..NUM_KINDS).filter(|&i| self.0[i] > 0).map(|i| Card(i as u8))
    }
}

impl Serialize for Hand {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if !s.is_human_readable() {
            // Binary snapshots: the count of each kind.
            return self.0.serialize(s);
        }
        // The names as plain strings: faster than each card's `Display` (views are hot).
        s.collect_seq(self.cards().map(|c| NAMES[c.index()]))
    }
}

impl<'de> Deserialize<'de> for Hand {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Hand, D::Error> {
        // No set of cards holds more of a kind than the deck (D3): refused here, so that
        // the counts never overflow.
        if !d.is_human_readable() {
            let counts = <[u8; NUM_KINDS]>::deserialize(d)?;
            if let Some(i) = (0..NUM_KINDS).find(|&i| counts[i] > Card(i as u8).copies()) {
                return Err(serde::de::Error::invalid_value(
                    serde::de::Unexpected::Unsigned(u64::from(counts[i])),
                    &"a count of a kind no greater than the deck's (D3)",
                ));
            }
            return Ok(Hand(counts));
        }
        let mut hand = Hand::default();
        for card in Vec::<Card>::deserialize(d)? {
            if hand.0[card.index()] >= card.copies() {
                let copies = card.copies();
                return Err(crate::error::custom(crate::msg!(
                    "more than {copies} cards {card} in one set: the deck has {copies}",
                    "mehr als {copies} Karten {card} in einer Menge: das Spiel hat {copies}"
                )));
            }
            hand.add(card);
        }
        Ok(hand)
    }
}
