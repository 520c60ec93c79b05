//! The `heuristic` bot of Caravan (issue 11): a one-move look-ahead with the judgement of
//! a good human player.
//!
//! Every legal move is played out on a sketch of the table ([`Shape`]: each caravan's
//! value, last card, direction and suit, derived with the engine's own rules) and the
//! result is scored:
//! - a pair sold (C9) is worth far more than any progress, and a sale high in the 21–26
//!   window is safer from being outbid; a move that ends the game is a win or a loss;
//! - an unsold caravan is worth its progress towards 21 and how many values may still
//!   follow it (C3, C5: a caravan that can only go one way towards a wall is hopeless);
//!   an overloaded one (over 26) is worse than an empty one, so it is disbanded unless a
//!   jack brings it back;
//! - the opponent's caravans count the same with the sign turned, so jacks, kings and
//!   jokers go where they break the opponent's best caravan (C7);
//! - the cards kept in hand count too: jacks and jokers are kept for the opponent's sold
//!   caravans, a number card is worth most if it can finish a caravan, and a card that
//!   fits nowhere is the one to discard.
//!
//! It reads only what `seat` sees: its own hand, the table, its deck's size and the
//! rules; ties are broken with `rng`.

use std::cell::RefCell;

use rand::RngExt;

use super::State;
use super::cards::{Card, Kind};
use super::codec::Decoded;
use super::rules::{CaravanGame, NUM_CARAVANS, SELL_MAX, SELL_MIN};
use super::state::seller;
use super::table::{Caravan, Direction, Slot};
use crate::bots::Heuristic;
use crate::game::{Action, GameState};
use crate::rng::Rng;

/// Scores, in tenths of a point of progress.
mod weight {
    /// A move that wins (or, negated, loses) the game.
    pub const WIN: i32 = 1_000_000;
    /// A pair sold (C9).
    pub const SOLD: i32 = 500;
    /// Per point a sold caravan lies above 21: fewer cards can outbid it.
    pub const SAFETY: i32 = 10;
    /// Per point of an unsold caravan's value up to 26.
    pub const PROGRESS: i32 = 12;
    /// Per value (A–10) that may still follow an unsold caravan without overloading it.
    pub const OPEN: i32 = 4;
    /// An overloaded caravan (over 26): worse than an empty one.
    pub const OVERLOADED: i32 = -100;
    /// Cards kept in hand.
    pub const JACK: i32 = 120;
    pub const JOKER: i32 = 100;
    pub const KING: i32 = 60;
    pub const QUEEN: i32 = 15;
    /// A number card that can finish a caravan (bring it into the window, selling).
    pub const FINISHER: i32 = 60;
    /// A number card that fits a caravan without overloading it.
    pub const FITS: i32 = 30;
    /// A number card that fits nowhere now.
    pub const IDLE: i32 = 10;
    /// The card drawn after a play or discard (C8), unseen: about an average card.
    pub const DRAW: i32 = 35;
}

/// What the heuristic needs of a caravan, derived from its cards as `table.rs` does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Shape {
    value: u32,
    /// The printed value of the last number card; 0 for an empty caravan.
    last: u8,
    direction: Option<Direction>,
    suit: Option<u8>,
}

impl Shape {
    /// The caravan without the slots `removed` (C3, C4, C7): what a jack or joker leaves.
    fn of(caravan: &Caravan, rules: &CaravanGame, removed: impl Fn(usize, &Slot) -> bool) -> Shape {
        let mut value = 0;
        let (mut first, mut before, mut last): (Option<&Slot>, Option<&Slot>, Option<&Slot>) =
            (None, None, None);
        for (i, slot) in caravan.slots.iter().enumerate() {
            if removed(i, slot) {
                continue;
            }
            value += slot.value(rules);
            first = first.or(Some(slot));
            before = last;
            last = Some(slot);
        }
        let Some(last) = last else {
            return Shape::default();
        };
        let last_value = last.number.card.value();
        let direction = before.map(|before| {
            let base = match last_value.cmp(&before.number.card.value()) {
                std::cmp::Ordering::Greater => Direction::Ascending,
                // C3 (*Fester Kurs*: the direction the caravan has now, before the removal).
                std::cmp::Ordering::Equal if rules.fixed_course => {
                    caravan.base_direction(rules).unwrap_or(Direction::Descending)
                }
                // C3: two equal values at the end count as descending.
                std::cmp::Ordering::Less | std::cmp::Ordering::Equal => Direction::Descending,
            };
            if last.queens().count() % 2 == 1 {
                base.reversed()
            } else {
                base
            }
        });
        // C4: the topmost queen on the last card, else the last (or first) card's suit.
        let suit = match last.queens().last() {
            Some(queen) => queen.card.suit(),
            None if rules.founding_suit => first.and_then(|s| s.number.card.suit()),
            None => last.number.card.suit(),
        };
        Shape {
            value,
            last: last_value,
            direction,
            suit,
        }
    }

    /// C5: whether a number card may follow (the card in hand, after the opening).
    fn takes(self, card: Card) -> bool {
        let value = card.value();
        if self.last == 0 {
            return true;
        }
        if value == self.last {
            return false;
        }
        match self.direction {
            None => true,
            Some(direction) => self.follows(direction, value) || card.suit() == self.suit,
        }
    }

    fn follows(self, direction: Direction, value: u8) -> bool {
        match direction {
            Direction::Ascending => value > self.last,
            Direction::Descending => value < self.last,
        }
    }

    /// How many values (A–10) may still follow without overloading the caravan (any suit).
    fn openness(self) -> i32 {
        (1..=10u8)
            .filter(|&v| {
                v != self.last
                    && self.value + u32::from(v) <= SELL_MAX
                    && self.direction.is_none_or(|d| self.follows(d, v))
            })
            .count() as i32
    }

    /// The worth of a caravan that does not sell (yet): its progress towards the window.
    fn progress(self) -> i32 {
        match self.value {
            0 => 0,
            v if v > SELL_MAX => weight::OVERLOADED,
            v if v >= SELL_MIN => v as i32 * weight::PROGRESS,
            v => v as i32 * weight::PROGRESS + self.openness() * weight::OPEN,
        }
    }
}

/// A move's consequences as the heuristic sees them from one seat.
struct Judge<'a> {
    state: &'a State,
    rules: &'a CaravanGame,
    me: usize,
    opening: bool,
    /// Whether a play or discard draws a card (C8, *Neu mischen*).
    draws: bool,
    shapes: [Shape; NUM_CARAVANS],
}

impl<'a> Judge<'a> {
    fn new(state: &'a State, me: usize) -> Judge<'a> {
        let rules = &state.rules;
        let opening = state.in_opening(me);
        let draws = !opening
            && (!state.decks[me].is_empty()
                || (rules.reshuffle && state.reshuffles[me] < 2 && !state.discards[me].is_empty()));
        Judge {
            state,
            rules,
            me,
            opening,
            draws,
            shapes: std::array::from_fn(|c| Shape::of(&state.caravans[c], rules, |_, _| false)),
        }
    }

    /// The score of a legal move: the table after it, the hand kept and the card drawn.
    fn score(&self, mv: Decoded) -> i32 {
        let mut shapes = self.shapes;
        let (used, draws) = match mv {
            Decoded::Play {
                card,
                caravan,
                position,
            } => {
                self.play(&mut shapes, card, caravan, position);
                (Some(card), self.draws)
            }
            // C2: in the opening a discard (without a number card) draws too.
            Decoded::Discard(card) => (Some(card), self.draws || self.opening),
            Decoded::Disband(caravan) => {
                shapes[caravan] = Shape::default();
                (None, false)
            }
        };
        let Some(table) = self.table(&shapes) else {
            return self.won(&shapes);
        };
        table + self.hand(&shapes, used) + if draws { weight::DRAW } else { 0 }
    }

    /// The table after playing `card` onto the `position`-th number card of `caravan` (C5–C7).
    fn play(&self, shapes: &mut [Shape; NUM_CARAVANS], card: Card, caravan: usize, position: usize) {
        let rules = self.rules;
        let target = &self.state.caravans[caravan];
        let shape = &mut shapes[caravan];
        match card.kind() {
            Kind::Number(value) => {
                // C3: the new card and the one before it set the base direction.
                let base = if value > shape.last {
                    Direction::Ascending
                } else {
                    Direction::Descending
                };
                shape.direction = (shape.last != 0).then_some(base);
                shape.suit = match target.slots.first() {
                    Some(first) if rules.founding_suit => first.number.card.suit(),
                    _ => card.suit(),
                };
                shape.value += u32::from(value);
                shape.last = value;
            }
            Kind::King => {
                let slot = &target.slots[position];
                let value = u32::from(slot.number.card.value());
                shape.value += if rules.kings_add {
                    value
                } else {
                    value << slot.kings()
                };
            }
            Kind::Queen => {
                // C3, C4: a queen acts only on the last number card.
                if position + 1 == target.slots.len() {
                    shape.direction = shape.direction.map(Direction::reversed);
                    shape.suit = card.suit();
                }
            }
            Kind::Jack => *shape = Shape::of(target, rules, |i, _| i == position),
            Kind::Joker => {
                let number = target.slots[position].number.card;
                for (c, shape) in shapes.iter_mut().enumerate() {
                    let caravan_c = &self.state.caravans[c];
                    let removes = |i, s: &Slot| rules.joker_removes(number, (caravan, position), (c, i), s);
                    if caravan_c.slots.iter().enumerate().any(|(i, s)| removes(i, s)) {
                        *shape = Shape::of(caravan_c, rules, removes);
                    }
                }
            }
        }
    }

    /// Who sells each pair (C9), from the heuristic's seat: `Some(true)` it does.
    fn sales(&self, shapes: &[Shape; NUM_CARAVANS]) -> [Option<bool>; 3] {
        std::array::from_fn(|i| {
            seller(shapes[i].value, shapes[3 + i].value).map(|p| usize::from(p) == self.me)
        })
    }

    /// The table's worth, `None` if the game is over (C9, *Schnellverkauf*).
    fn table(&self, shapes: &[Shape; NUM_CARAVANS]) -> Option<i32> {
        let sales = self.sales(shapes);
        let mine = sales.iter().filter(|&&s| s == Some(true)).count();
        let theirs = sales.iter().filter(|&&s| s == Some(false)).count();
        if mine + theirs == 3 || (self.rules.quick_sale && (mine >= 2 || theirs >= 2)) {
            return None;
        }
        let own = 3 * self.me;
        let other = 3 - own;
        Some(
            (0..3)
                .map(|i| {
                    let (mine, theirs) = (&shapes[own + i], &shapes[other + i]);
                    match sales[i] {
                        Some(true) => weight::SOLD + (mine.value - SELL_MIN) as i32 * weight::SAFETY,
                        Some(false) => -weight::SOLD - (theirs.value - SELL_MIN) as i32 * weight::SAFETY,
                        None => mine.progress() - theirs.progress(),
                    }
                })
                .sum(),
        )
    }

    /// A finished game: a win or a loss (C9).
    fn won(&self, shapes: &[Shape; NUM_CARAVANS]) -> i32 {
        let mine = self.sales(shapes).iter().filter(|&&s| s == Some(true)).count();
        if mine >= 2 { weight::WIN } else { -weight::WIN }
    }

    /// The worth of the cards kept in hand (all but `used`), on the table `shapes`.
    fn hand(&self, shapes: &[Shape; NUM_CARAVANS], used: Option<Card>) -> i32 {
        let sales = self.sales(shapes);
        let own = 3 * self.me;
        let mut skipped = false;
        let mut total = 0;
        for &card in &self.state.hands[self.me] {
            if !skipped && Some(card) == used {
                skipped = true;
                continue;
            }
            total += match card.kind() {
                Kind::Jack => weight::JACK,
                Kind::Joker => weight::JOKER,
                Kind::King => weight::KING,
                Kind::Queen => weight::QUEEN,
                Kind::Number(value) => (0..3)
                    .filter(|&i| sales[i] != Some(true) && shapes[own + i].takes(card))
                    .map(|i| {
                        let after = shapes[own + i].value + u32::from(value);
                        let theirs = shapes[3 - own + i].value;
                        if seller(after, theirs) == Some(0) {
                            weight::FINISHER
                        } else if after < SELL_MIN {
                            weight::FITS
                        } else {
                            weight::IDLE
                        }
                    })
                    .max()
                    .unwrap_or(weight::IDLE),
            };
        }
        total
    }
}

thread_local! {
    /// The legal actions, kept between calls: the heuristic is the rollout policy of
    /// `ismcts` and should not allocate per move.
    static LEGAL: RefCell<Vec<Action>> = const { RefCell::new(Vec::new()) };
}

/// The heuristic player's action for `seat`, `None` if it may not move now: the best
/// scored legal move, ties broken uniformly with `rng`.
pub(crate) fn choose(state: &State, seat: usize, rng: &mut Rng) -> Option<Action> {
    LEGAL.with_borrow_mut(|legal| {
        state.legal_actions_for(seat, legal);
        let judge = Judge::new(state, seat);
        let mut best = None;
        let mut ties = 0u32;
        for &action in legal.iter() {
            let score = judge.score(state.rules.decode(action).expect("a legal action decodes"));
            match best {
                Some((top, _)) if score < top => {}
                Some((top, _)) if score == top => {
                    ties += 1;
                    if rng.random_range(0..ties) == 0 {
                        best = Some((score, action));
                    }
                }
                _ => {
                    best = Some((score, action));
                    ties = 1;
                }
            }
        }
        best.map(|(_, action)| action)
    })
}

impl Heuristic for State {
    fn heuristic_action(&self, seat: usize, rng: &mut Rng) -> Option<Action> {
        choose(self, seat, rng)
    }
}
