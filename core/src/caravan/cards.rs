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
/// [`CARD_SYNTAX`] in German (the letters are the notation's: C Kreuz, D Karo, H Herz, S Pik).
const CARD_SYNTAX_DE: &str = "eine Karte ist ein Rang A, 2-10, J, Q oder K und danach eine Farbe \
     C (Kreuz), D (Karo), H (Herz) oder S (Pik) (z. B. '10H', 'QS'), oder ein Joker JK1-JK4";

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
    /// The card of a bit in a set of cards by index (`legal.rs`).
    pub(super) const fn from_bit(bit: u32) -> Card {
        debug_assert!((bit as usize) < NUM_FACES);
        Card(bit as u8)
    }
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    pub const fn is_joker(self) -> bool {
        self.0 >= 52
    }
    /// 1 (ace) to 13 (king); `None` for a joker.
    pub const fn rank(self) -> Option<u8> {
        match FACTS[self.0 as usize].rank {
            0 => None,
            rank => Some(rank),
        }
    }
    /// Index into [`SUITS`]; `None` for a joker, which never counts as any suit (C4).
    pub const fn suit(self) -> Option<u8> {
        match FACTS[self.0 as usize].suit {
            NO_SUIT => None,
            suit => Some(suit),
        }
    }
    pub const fn kind(self) -> Kind {
        FACTS[self.0 as usize].kind
    }
    pub const fn is_number(self) -> bool {
        self.value() != 0
    }
    /// The card's index in the action space (`mod.rs`): among the 40 number cards
    /// (`suit * 10 + value - 1`), else among the 16 face cards (`suit * 3 + rank - 11`
    /// for J Q K, `11 + n` for `JKn`).
    pub(super) const fn play_index(self) -> usize {
        FACTS[self.0 as usize].play_index as usize
    }
    /// The printed value of a number card (C3: kings do not count).
    pub const fn value(self) -> u8 {
        FACTS[self.0 as usize].value
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

/// The suits in German (the seed's Kreuz, Karo, Herz, Pik), in the order of [`SUITS`].
pub const SUIT_NAMES_DE: [&str; 4] = ["Kreuz", "Karo", "Herz", "Pik"];

impl Card {
    /// The card as a German player says it: "Kreuz 8", "Pik Ass", "Herz Dame", "Joker 1"
    /// (the seed's words); the notation (`"8C"`) stays the JSON's and the English texts'.
    pub fn name_de(self) -> String {
        let Some(suit) = self.suit() else {
            return format!("Joker {}", self.0 - 51);
        };
        let suit = SUIT_NAMES_DE[suit as usize];
        match self.rank() {
            Some(1) => format!("{suit} Ass"),
            Some(JACK) => format!("{suit} Bube"),
            Some(QUEEN) => format!("{suit} Dame"),
            Some(KING) => format!("{suit} König"),
            Some(rank) => format!("{suit} {rank}"),
            None => self.name().to_string(),
        }
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

/// What the playouts ask of a card again and again, looked up instead of derived with a
/// division each time (legal actions, move checks and caravan values read it per card).
#[derive(Clone, Copy)]
struct Facts {
    kind: Kind,
    /// 1–13, 0 for a joker.
    rank: u8,
    /// 0–3, [`NO_SUIT`] for a joker.
    suit: u8,
    /// The printed value of a number card, 0 for face cards and jokers.
    value: u8,
    /// Its index among the number cards (`suit * 10 + value - 1`, 0–39) or among the face
    /// cards (`suit * 3 + rank - 11` for J Q K, 0–11; `11 + n` for `JKn`): the action space.
    play_index: u8,
}

const NO_SUIT: u8 = u8::MAX;

/// 256 entries, so that indexing by the card's byte needs no bounds check; only the
/// first [`NUM_FACES`] are cards.
const FACTS: [Facts; 256] = {
    let mut facts = [Facts {
        kind: Kind::Joker,
        rank: 0,
        suit: NO_SUIT,
        value: 0,
        play_index: 0,
    }; 256];
    let mut i = 52;
    while i < NUM_FACES {
        facts[i].play_index = (12 + i - 52) as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 52 {
        let (rank, suit) = ((i % 13) as u8 + 1, (i / 13) as u8);
        let (kind, value) = match rank {
            JACK => (Kind::Jack, 0),
            QUEEN => (Kind::Queen, 0),
            KING => (Kind::King, 0),
            v => (Kind::Number(v), v),
        };
        let play_index = if value > 0 {
            suit * 10 + value - 1
        } else {
            suit * 3 + rank - JACK
        };
        facts[i] = Facts {
            kind,
            rank,
            suit,
            value,
            play_index,
        };
        i += 1;
    }
    facts
};

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
            allowed: crate::error::Message::new(CARD_SYNTAX, CARD_SYNTAX_DE),
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
    fn looked_up_facts_agree_with_the_index() {
        for i in 0..NUM_FACES as u8 {
            let card = Card::from_index(i);
            if i >= 52 {
                assert!(card.is_joker() && card.kind() == Kind::Joker);
                assert_eq!((card.rank(), card.suit(), card.value()), (None, None, 0));
                assert_eq!(card.play_index(), usize::from(i) - 52 + 12);
                continue;
            }
            let (suit, rank) = (i / 13, i % 13 + 1);
            assert_eq!(card, Card::new(suit, rank));
            assert_eq!((card.rank(), card.suit()), (Some(rank), Some(suit)));
            let number = rank <= 10;
            assert_eq!(card.is_number(), number);
            assert_eq!(card.value(), if number { rank } else { 0 });
            let kind = match rank {
                JACK => Kind::Jack,
                QUEEN => Kind::Queen,
                KING => Kind::King,
                v => Kind::Number(v),
            };
            assert_eq!(card.kind(), kind);
            let play_index = if number {
                suit * 10 + rank - 1
            } else {
                suit * 3 + rank - JACK
            };
            assert_eq!(card.play_index(), usize::from(play_index));
        }
    }

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
