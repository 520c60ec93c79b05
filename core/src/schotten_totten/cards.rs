//! Cards and card sets (S1): six colours R O Y G B P, values 1–9, written `B5`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::bits::ones;
use crate::error::{Error, Message};
use crate::text_serde::serde_as_text;

pub const COLORS: [char; 6] = ['R', 'O', 'Y', 'G', 'B', 'P'];
pub const NUM_COLORS: u8 = 6;
pub const NUM_VALUES: u8 = 9;
pub const NUM_CARDS: u8 = NUM_COLORS * NUM_VALUES;

const CARD_SYNTAX: &str =
    "a card is a capital colour letter R, O, Y, G, B or P followed by a value 1-9, e.g. 'B5'";
/// [`CARD_SYNTAX`] in German (the letters are the notation's).
const CARD_SYNTAX_DE: &str = "eine Karte ist ein großer Farbbuchstabe R, O, Y, G, B oder P \
     und danach ein Wert 1-9, z. B. 'B5'";

/// One of the 54 cards, stored as `color * 9 + (value - 1)`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    /// `color` in 0..6 (index into [`COLORS`]), `value` in 1..=9.
    pub const fn new(color: u8, value: u8) -> Card {
        assert!(color < NUM_COLORS && value >= 1 && value <= NUM_VALUES);
        Card(color * NUM_VALUES + value - 1)
    }
    pub const fn from_index(index: u8) -> Card {
        assert!(index < NUM_CARDS);
        Card(index)
    }
    pub const fn index(self) -> u8 {
        self.0
    }
    pub const fn color(self) -> u8 {
        self.0 / NUM_VALUES
    }
    pub const fn value(self) -> u8 {
        self.0 % NUM_VALUES + 1
    }
    pub const fn bit(self) -> u64 {
        1 << self.0
    }
    /// All 54 cards in index order.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..NUM_CARDS).map(Card)
    }
}

/// Every card's notation in index order: views and moves write many cards, and a table
/// lookup is much cheaper than formatting a letter and a number.
const NAMES: [&str; NUM_CARDS as usize] = [
    "R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "O1", "O2", "O3", "O4", "O5", "O6", "O7", "O8",
    "O9", "Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8", "Y9", "G1", "G2", "G3", "G4", "G5", "G6", "G7",
    "G8", "G9", "B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9", "P1", "P2", "P3", "P4", "P5", "P6",
    "P7", "P8", "P9",
];

/// The colours in German as the glossary spells them, in the order of [`COLORS`].
pub const COLOR_NAMES_DE: [&str; NUM_COLORS as usize] = ["Rot", "Orange", "Gelb", "Grün", "Blau", "Lila"];

impl Card {
    /// The card as a German player says it, e.g. "Blau 5" (the seed's "Blau 5-6-7"); the
    /// notation (`"B5"`) stays the JSON's and the English texts'.
    pub fn name_de(self) -> String {
        format!("{} {}", COLOR_NAMES_DE[self.color() as usize], self.value())
    }

    /// The card's notation, e.g. `"B5"`.
    pub const fn name(self) -> &'static str {
        NAMES[self.0 as usize]
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
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
        let invalid = |allowed: Message| Error::InvalidCard {
            card: s.to_string(),
            allowed,
        };
        let mut chars = s.chars();
        let (Some(c), Some(v), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(invalid(Message::new(CARD_SYNTAX, CARD_SYNTAX_DE)));
        };
        let color = COLORS.iter().position(|&x| x == c).ok_or_else(|| {
            invalid(crate::msg!(
                "colours are R, O, Y, G, B, P ({CARD_SYNTAX})",
                "die Farben sind R, O, Y, G, B, P ({CARD_SYNTAX_DE})"
            ))
        })?;
        let value = v.to_digit(10).filter(|v| (1..=9).contains(v)).ok_or_else(|| {
            invalid(crate::msg!(
                "values are 1-9 ({CARD_SYNTAX})",
                "die Werte sind 1-9 ({CARD_SYNTAX_DE})"
            ))
        })?;
        Ok(Card::new(color as u8, value as u8))
    }
}

serde_as_text!(
    Card,
    NUM_CARDS as usize,
    "SchottenTottenCard",
    "a Schotten Totten card: colour R O Y G B P and value 1-9, e.g. B5 (S1)",
    "^[ROYGBP][1-9]$"
);

/// A set of cards as a 54-bit mask; iterates in card order.
#[derive(Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct CardSet(pub u64);

impl CardSet {
    pub const EMPTY: CardSet = CardSet(0);
    pub const ALL: CardSet = CardSet((1 << NUM_CARDS) - 1);

    pub const fn contains(self, card: Card) -> bool {
        self.0 & card.bit() != 0
    }
    pub fn insert(&mut self, card: Card) {
        self.0 |= card.bit();
    }
    pub fn remove(&mut self, card: Card) {
        self.0 &= !card.bit();
    }
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    #[must_use]
    pub const fn union(self, other: CardSet) -> CardSet {
        CardSet(self.0 | other.0)
    }
    #[must_use]
    pub const fn minus(self, other: CardSet) -> CardSet {
        CardSet(self.0 & !other.0)
    }
    pub fn iter(self) -> impl Iterator<Item = Card> {
        ones(self.0).map(|index| Card(index as u8))
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardSet {
        let mut set = CardSet::EMPTY;
        for card in iter {
            set.insert(card);
        }
        set
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for CardSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            s.collect_seq(self.iter())
        } else {
            // Binary snapshots: the mask itself.
            s.serialize_u64(self.0)
        }
    }
}

impl<'de> Deserialize<'de> for CardSet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CardSet, D::Error> {
        if !d.is_human_readable() {
            let mask = u64::deserialize(d)?;
            return if mask & !CardSet::ALL.0 == 0 {
                Ok(CardSet(mask))
            } else {
                Err(serde::de::Error::invalid_value(
                    serde::de::Unexpected::Unsigned(mask),
                    &"a mask of the 54 cards",
                ))
            };
        }
        let cards = Vec::<Card>::deserialize(d)?;
        let set: CardSet = cards.iter().copied().collect();
        if set.len() as usize != cards.len() {
            return Err(crate::error::custom(crate::msg!(
                "a card appears twice",
                "eine Karte kommt zweimal vor"
            )));
        }
        Ok(set)
    }
}

impl schemars::JsonSchema for CardSet {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "SchottenTottenCardSet".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let card = generator.subschema_for::<Card>();
        schemars::json_schema!({
            "type": "array",
            "description": "distinct cards in card order (colours R O Y G B P, then values 1-9)",
            "items": card,
            "uniqueItems": true,
            "maxItems": NUM_CARDS,
        })
    }
}

/// Parses card strings, rejecting malformed and repeated cards.
pub fn parse_cards<S: AsRef<str>>(cards: &[S]) -> Result<Vec<Card>, Error> {
    let mut seen = CardSet::EMPTY;
    let mut out = Vec::with_capacity(cards.len());
    for s in cards {
        let card: Card = s.as_ref().parse()?;
        if seen.contains(card) {
            return Err(Error::InvalidCard {
                card: s.as_ref().to_string(),
                allowed: crate::msg!(
                    "each card exists once; it was given twice",
                    "jede Karte gibt es einmal; sie wurde zweimal angegeben"
                ),
            });
        }
        seen.insert(card);
        out.push(card);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips_for_every_card() {
        for card in Card::all() {
            let written = format!("{}{}", COLORS[card.color() as usize], card.value());
            assert_eq!(card.to_string(), written);
            assert_eq!(card.to_string().parse::<Card>().unwrap(), card);
        }
        assert_eq!(Card::new(4, 5).to_string(), "B5");
    }

    #[test]
    fn malformed_cards_say_what_is_allowed() {
        for bad in ["B0", "X5", "B", "B10", "", "5B", "b5"] {
            let err = bad.parse::<Card>().unwrap_err().to_string();
            assert!(err.contains(&format!("'{bad}'")), "{err}");
            assert!(err.contains("1-9") || err.contains("R, O"), "{err}");
        }
        let err = parse_cards(&["B5", "B5"]).unwrap_err().to_string();
        assert!(err.contains("twice"), "{err}");
    }
}
