//! Caravan cards: `AH`, `2C` … `10S`, `JD`, `QS`, `KC`, and the jokers `JK1`–`JK4`.
//!
//! Suits are C D H S (clubs, diamonds, hearts, spades). A deck holds the 52 cards and
//! the jokers `JK1`, `JK2`; with two decks (Doppeldeck) there are two of every card and
//! the jokers `JK1`–`JK4`, so every joker has a name of its own.

use std::fmt;
use std::str::FromStr;

use crate::error::Error;
use crate::text_serde::serde_as_text;

pub const SUITS: [char; 4] = ['C', 'D', 'H', 'S'];
pub const SUIT_NAMES: [&str; 4] = ["clubs", "diamonds", "hearts", "spades"];
/// Distinct card faces: 52 standard cards and four jokers.
pub const NUM_FACES: usize = 56;
pub const JACK: u8 = 11;
pub const QUEEN: u8 = 12;
pub const KING: u8 = 13;

const CARD_SYNTAX: &str = "a card is a rank A, 2-10, J, Q or K followed by a suit C, D, H or S \
     (e.g. '10H', 'QS'), or a joker JK1-JK4";

/// A card face: `suit * 13 + rank - 1` for the 52 cards, 52–55 for `JK1`–`JK4`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

/// What a card does (C3–C7).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// A–10 with its printed value (ace 1).
    Number(u8),
    Jack,
    Queen,
    King,
    Joker,
}

impl Card {
    pub const fn new(suit: u8, rank: u8) -> Card {
        assert!(suit < 4 && rank >= 1 && rank <= 13);
        Card(suit * 13 + rank - 1)
    }
    /// Joker `n` (1–4).
    pub const fn joker(n: u8) -> Card {
        assert!(n >= 1 && n <= 4);
        Card(51 + n)
    }
    pub const fn from_index(index: u8) -> Card {
        assert!((index as usize) < NUM_FACES);
        Card(index)
    }
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    pub const fn is_joker(self) -> bool {
        self.0 >= 52
    }
    /// 1 (ace) to 13 (king); `None` for a joker.
    pub const fn rank(self) -> Option<u8> {
        if self.is_joker() {
            None
        } else {
            Some(self.0 % 13 + 1)
        }
    }
    /// Index into [`SUITS`]; `None` for a joker, which never counts as any suit (C4).
    pub const fn suit(self) -> Option<u8> {
        if self.is_joker() { None } else { Some(self.0 / 13) }
    }
    pub const fn kind(self) -> Kind {
        match self.rank() {
            None => Kind::Joker,
            Some(JACK) => Kind::Jack,
            Some(QUEEN) => Kind::Queen,
            Some(KING) => Kind::King,
            Some(v) => Kind::Number(v),
        }
    }
    pub const fn is_number(self) -> bool {
        matches!(self.kind(), Kind::Number(_))
    }
    /// The printed value of a number card (C3: kings do not count).
    pub const fn value(self) -> u8 {
        match self.kind() {
            Kind::Number(v) => v,
            _ => 0,
        }
    }
    /// The notation, e.g. `"10H"`, `"JK1"`.
    pub const fn name(self) -> &'static str {
        NAMES[self.0 as usize]
    }
    /// The cards of one full deck: 52 and `JK1`, `JK2` (`copy` 1 gives `JK3`, `JK4`).
    pub fn full_deck(copy: u8) -> impl Iterator<Item = Card> {
        (0..52)
            .map(Card)
            .chain([Card::joker(2 * copy + 1), Card::joker(2 * copy + 2)])
    }
}

/// Every card's notation by index: `Display` (and so the JSON of views and states) writes
/// it without formatting anything.
const NAMES: [&str; NUM_FACES] = [
    "AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AD", "2D", "3D", "4D",
    "5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD", "KD", "AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H",
    "9H", "10H", "JH", "QH", "KH", "AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS",
    "KS", "JK1", "JK2", "JK3", "JK4",
];

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
        let invalid = || Error::InvalidCard {
            card: s.to_string(),
            allowed: CARD_SYNTAX.to_string(),
        };
        if let Some(n) = s.strip_prefix("JK") {
            return match n {
                "1" | "2" | "3" | "4" => Ok(Card::joker(n.parse().unwrap())),
                _ => Err(invalid()),
            };
        }
        let mut chars: Vec<char> = s.chars().collect();
        let suit = chars
            .pop()
            .and_then(|c| SUITS.iter().position(|&x| x == c))
            .ok_or_else(invalid)?;
        let rank: String = chars.into_iter().collect();
        let rank = match rank.as_str() {
            "A" => 1,
            "J" => JACK,
            "Q" => QUEEN,
            "K" => KING,
            n => n
                .parse::<u8>()
                .ok()
                .filter(|v| (2..=10).contains(v))
                .ok_or_else(invalid)?,
        };
        Ok(Card::new(suit as u8, rank))
    }
}

serde_as_text!(
    Card,
    NUM_FACES,
    "CaravanCard",
    "a Caravan card: rank A 2-10 J Q K and suit C D H S (e.g. 10H, QS), or a joker JK1-JK4",
    "^((A|[2-9]|10|J|Q|K)[CDHS]|JK[1-4])$"
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips() {
        for i in 0..NUM_FACES as u8 {
            let card = Card::from_index(i);
            assert_eq!(card.to_string().parse::<Card>().unwrap(), card);
        }
        assert_eq!("10H".parse::<Card>().unwrap().kind(), Kind::Number(10));
        assert_eq!("AS".parse::<Card>().unwrap().kind(), Kind::Number(1));
        assert_eq!("QS".parse::<Card>().unwrap().kind(), Kind::Queen);
        assert_eq!("JK2".parse::<Card>().unwrap().kind(), Kind::Joker);
        assert_eq!("JK2".parse::<Card>().unwrap().suit(), None);
        for bad in ["1H", "11H", "JK5", "JK", "H", "10", "qs", "KX", ""] {
            let err = bad.parse::<Card>().unwrap_err().to_string();
            assert!(err.contains("JK1-JK4"), "{err}");
        }
    }
}
