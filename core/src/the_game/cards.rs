//! The cards 2-99 (T1) and sets of them.

use serde::{Deserialize, Serialize};

use crate::bits::ones;

pub(super) const LOWEST: u8 = 2;
pub(super) const HIGHEST: u8 = 99;
pub(super) const NUM_CARDS: usize = (HIGHEST - LOWEST + 1) as usize;

/// A set of cards 2–99 as a bit mask; iterates ascending; serialized as a sorted list
/// of numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hand(u128);

/// Bit `c` for every card `c` in 2–99.
const ALL_CARDS: u128 = ((1u128 << (HIGHEST + 1)) - 1) & !((1u128 << LOWEST) - 1);

impl Hand {
    /// All 98 cards.
    pub(super) const ALL: Hand = Hand(ALL_CARDS);

    pub fn contains(self, card: u8) -> bool {
        card < 128 && self.0 & (1 << card) != 0
    }
    pub(super) fn insert(&mut self, card: u8) {
        self.0 |= 1 << card;
    }
    pub(super) fn remove(&mut self, card: u8) {
        self.0 &= !(1 << card);
    }
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn iter(self) -> impl Iterator<Item = u8> {
        ones(self.0).map(|card| card as u8)
    }
    pub(super) fn union(self, other: Hand) -> Hand {
        Hand(self.0 | other.0)
    }
    pub(super) fn without(self, other: Hand) -> Hand {
        Hand(self.0 & !other.0)
    }
    /// The set as a bit mask: bit `c` for card `c`.
    pub(super) fn bits(self) -> u128 {
        self.0
    }
}

impl FromIterator<u8> for Hand {
    fn from_iter<I: IntoIterator<Item = u8>>(iter: I) -> Self {
        let mut hand = Hand::default();
        iter.into_iter().for_each(|c| hand.insert(c));
        hand
    }
}

impl Serialize for Hand {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            s.collect_seq(self.iter())
        } else {
            // Binary snapshots: the mask itself.
            s.serialize_u128(self.0)
        }
    }
}

impl<'de> Deserialize<'de> for Hand {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Hand, D::Error> {
        if !d.is_human_readable() {
            let mask = u128::deserialize(d)?;
            return if mask & !ALL_CARDS == 0 {
                Ok(Hand(mask))
            } else {
                Err(serde::de::Error::invalid_value(
                    serde::de::Unexpected::Other("a mask with bits outside 2-99"),
                    &"a set of the cards 2-99",
                ))
            };
        }
        let cards = Vec::<u8>::deserialize(d)?;
        let mut hand = Hand::default();
        for c in cards {
            if !(LOWEST..=HIGHEST).contains(&c) {
                return Err(crate::error::custom(crate::msg!(
                    "card {c}: cards are 2-99",
                    "Karte {c}: die Karten sind 2-99"
                )));
            }
            if hand.contains(c) {
                return Err(crate::error::custom(crate::msg!(
                    "card {c} appears twice in a set of cards",
                    "Karte {c} kommt in einer Menge von Karten zweimal vor"
                )));
            }
            hand.insert(c);
        }
        Ok(hand)
    }
}

impl schemars::JsonSchema for Hand {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "TheGameCards".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "array",
            "description": "A set of cards, ascending; cards are the numbers 2-99, each at most once.",
            "items": {"type": "integer", "minimum": 2, "maximum": 99},
            "uniqueItems": true,
        })
    }
}
