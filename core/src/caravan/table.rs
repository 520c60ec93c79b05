//! The table: caravans of number cards with their face cards, and what follows from them
//! (value, direction, suit: C3, C4, C7).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::cards::{Card, Kind};
use super::rules::CaravanGame;

/// A card on the table, with the player whose deck it came from (C1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "CaravanOwnedCard")]
pub struct Owned {
    /// The card, e.g. `"KS"`.
    pub card: Card,
    /// The player whose deck the card came from (C1), 0 or 1: it goes back to their
    /// discard pile when it leaves the table.
    pub owner: u8,
}

/// A number card with the face cards played onto it, in the order they came.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Slot {
    pub number: Owned,
    pub faces: Vec<Owned>,
}

impl Slot {
    pub(super) fn kings(&self) -> u32 {
        self.faces.iter().filter(|f| f.card.kind() == Kind::King).count() as u32
    }
    pub(super) fn queens(&self) -> impl Iterator<Item = &Owned> {
        self.faces.iter().filter(|f| f.card.kind() == Kind::Queen)
    }
    /// C7: the printed value doubled per king (*Könige addieren*: plus the value per king).
    pub(super) fn value(&self, rules: &CaravanGame) -> u32 {
        let v = u32::from(self.number.card.value());
        if rules.kings_add {
            v * (1 + self.kings())
        } else {
            v << self.kings()
        }
    }
}

/// Which way a caravan runs (C3): shown with the queens on its last card applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "CaravanDirection")]
pub enum Direction {
    Ascending,
    Descending,
}

impl Direction {
    pub(super) fn reversed(self) -> Direction {
        match self {
            Direction::Ascending => Direction::Descending,
            Direction::Descending => Direction::Ascending,
        }
    }
}

/// One caravan: its number cards in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Caravan {
    pub slots: Vec<Slot>,
    /// *Fester Kurs* (C3): the base direction kept when a removal left two equal values
    /// at the end. The one state the variant remembers.
    #[serde(default)]
    pub kept: Option<Direction>,
}

impl Serialize for Caravan {
    /// JSON leaves `kept` out while it is empty (it is rare, and only under *Fester
    /// Kurs*); binary snapshots have no optional fields, so they always write it.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct as _;
        let with_kept = self.kept.is_some() || !s.is_human_readable();
        let mut out = s.serialize_struct("Caravan", 1 + usize::from(with_kept))?;
        out.serialize_field("slots", &self.slots)?;
        if with_kept {
            out.serialize_field("kept", &self.kept)?;
        } else {
            out.skip_field("kept")?;
        }
        out.end()
    }
}

impl Caravan {
    /// C3: the base direction from the last two printed values.
    pub(super) fn base_direction(&self, rules: &CaravanGame) -> Option<Direction> {
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
            std::cmp::Ordering::Equal if rules.fixed_course => self.kept.unwrap_or(Direction::Descending),
            // C3: two equal values at the end count as descending.
            std::cmp::Ordering::Less | std::cmp::Ordering::Equal => Direction::Descending,
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

    /// [`Caravan::direction`] and [`Caravan::suit`] at once, with one look at the queens
    /// on the last number card: what the legal moves and the move check ask of a caravan.
    #[inline]
    pub(super) fn direction_and_suit(&self, rules: &CaravanGame) -> (Option<Direction>, Option<u8>) {
        let Some(last) = self.slots.last() else {
            return (None, None);
        };
        let mut queens = 0;
        let mut top_queen = None;
        for face in &last.faces {
            if face.card.kind() == Kind::Queen {
                queens += 1;
                top_queen = Some(face.card);
            }
        }
        let direction = self
            .base_direction(rules)
            .map(|d| if queens % 2 == 1 { d.reversed() } else { d });
        let suit = match top_queen {
            Some(queen) => queen.suit(),
            None if rules.founding_suit => self.slots[0].number.card.suit(),
            None => last.number.card.suit(),
        };
        (direction, suit)
    }

    /// The sum of the number cards, each doubled per king (*Könige addieren*: plus its value per king).
    pub fn value(&self, rules: &CaravanGame) -> u32 {
        self.slots.iter().map(|s| s.value(rules)).sum()
    }

    pub(super) fn cards(&self) -> impl Iterator<Item = &Owned> {
        self.slots
            .iter()
            .flat_map(|s| std::iter::once(&s.number).chain(&s.faces))
    }
}

pub(super) fn owner_of(caravan: usize) -> usize {
    caravan / 3
}
