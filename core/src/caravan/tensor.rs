//! The observation tensor of Caravan, written from a seat's [`View`], or from the state as
//! the seat sees it without building the view (one encoder for both; see
//! [`crate::tensor`] for the conventions and the table of slices).
//!
//! The information state equals the observation: the view holds everything the seat
//! knows (its hand, the table, both discard piles, the sizes of hands and decks, what
//! *Neu mischen* and *Frische Hand* showed), and none of its own past decisions is
//! hidden from the table.
//!
//! The number cards on the table are written per owner and card, not per caravan
//! position: each player's number card (suit, value, and with *Doppeldeck* which of the
//! two copies, counted in table order) has one entry saying in which of the owner's
//! caravans it lies, at which position, and what lies on it. A player's number cards only
//! go onto their own caravans (C5), so this is exact and needs 40 (80) entries per
//! player instead of 40 (80) positions per caravan.
//!
//! Left out of the view, on purpose, because nothing in the rules depends on it:
//! - the order of the face cards on a number card, except which queen is topmost (C4:
//!   its suit counts); kings and queens count by number (C3, C7), a joker acts only
//!   when it is played;
//! - the order of the discard piles (a pile is only ever shuffled, C10) and of the shown
//!   starting hands; of those, the tensor keeps per card the most copies any one of them
//!   showed (so much of that card the deck is known to hold) and how many were shown;
//! - which joker is which (`JK1`…`JK4` act alike): jokers are counted per owner;
//! - `game`, `ranked` (follows from the options), each caravan's number and owner
//!   (follow from its place).

use super::cards::{Card, Kind, NUM_FACES};
use super::rules::{CaravanGame, HAND_SIZE, NUM_CARAVANS, NUM_NUMBER_CARDS, SELL_MAX, SELL_MIN};
use super::state::{EndReason, Outcome, State};
use super::table::{Direction, Owned};
use super::view::{Suit, View};
use crate::tensor::{Layout, Seat, SeatOf, TensorSlice, Writer};

/// Cards counted by kind: the 52 and one for every joker.
const KINDS: usize = NUM_FACES - 3;
/// One entry of a number card: caravan (3), position, queens and kings by suit and
/// owner (8 + 8), jokers by owner (2), the topmost queen's suit (4).
const ENTRY: usize = 3 + 1 + 8 + 8 + 2 + 4;
/// A caravan's value is written up to twice the selling range.
const VALUE_BOUND: f64 = 52.0;

/// Copies of every card in a player's deck (C1, C10 *Doppeldeck*).
fn copies(game: &CaravanGame) -> usize {
    if game.double_deck { 2 } else { 1 }
}

/// The bound every count of cards is divided by: the copies of a joker in one deck.
fn count_bound(game: &CaravanGame) -> f64 {
    2.0 * copies(game) as f64
}

fn entries(game: &CaravanGame) -> usize {
    NUM_NUMBER_CARDS * copies(game)
}

fn len(game: &CaravanGame) -> usize {
    14 + 9 * NUM_CARAVANS + 6 + 7 * KINDS + 2 + 2 * entries(game) * ENTRY + 5
}

/// The number of elements, without allocating (a step writes it for every env).
pub fn observation_tensor_len(game: &CaravanGame) -> usize {
    len(game)
}

/// `[len]`: 2,532 elements, 4,612 with *Doppeldeck*.
pub fn observation_tensor_shape(game: &CaravanGame) -> Vec<usize> {
    vec![len(game)]
}

/// The slices of the tensor, in order.
pub fn describe_observation(game: &CaravanGame) -> Vec<TensorSlice> {
    Layout::new()
        .add("seat", &[2], "the view's seat, one-hot; all zero for a spectator")
        .add("to_move", &[2], "the seat to move (me, other); zero once over")
        .add("first_player", &[2], "who began, drawn by lot (C1): me, other")
        .add("in_opening", &[2], "me, other: still in the opening (C2)")
        .add("hand_sizes", &[2], "cards in hand (me, other) / 8")
        .add("deck_sizes", &[2], "cards in the deck (me, other) / 54 (108 with Doppeldeck)")
        .add("reshuffles_used", &[2], "Neu mischen (C10): reshuffles so far (me, other) / 2")
        .add(
            "caravan_value",
            &[NUM_CARAVANS],
            "per caravan (my three, then the other's three, each in its order): its value (C7) / 52, at most 1",
        )
        .add("caravan_selling", &[NUM_CARAVANS], "per caravan: its value lies in 21-26 (C9)")
        .add(
            "caravan_length",
            &[NUM_CARAVANS],
            "per caravan: its number cards / 40 (80 with Doppeldeck)",
        )
        .add("caravan_direction", &[NUM_CARAVANS, 2], "per caravan: ascending, descending (C3)")
        .add("caravan_suit", &[NUM_CARAVANS, 4], "per caravan: its suit C, D, H, S (C4)")
        .add("sold_by", &[3, 2], "per pair (my caravan i against the other's caravan i): sold by me, by the other (C9)")
        .add(
            "hand",
            &[KINDS],
            "own hand: copies per card suit * 13 + rank - 1 (suits C D H S, ace 1), jokers at 52; / 2 (4 with Doppeldeck)",
        )
        .add("discards", &[2, KINDS], "discard piles (me, other): copies per card, as hand")
        .add(
            "reshuffled",
            &[2, KINDS],
            "Neu mischen: the cards of the latest reshuffle (me, other), as hand",
        )
        .add(
            "shown",
            &[2, KINDS],
            "Frische Hand: per card the most copies one shown starting hand held (me, other), as hand",
        )
        .add("shown_hands", &[2], "Frische Hand: starting hands shown (me, other), n / (n + 1)")
        .add(
            "number_cards",
            &[2, entries(game), ENTRY],
            "per owner (me, other), per number card suit * 10 + value - 1 (with Doppeldeck times 2 plus the copy, \
             in table order): the owner's caravan it lies in (3, one-hot; all zero: not on the table), its position / 40 \
             (80), the queens and kings on it by suit * 2 + owner (8 + 8, / 2 or 4), the jokers on it by owner (2, / 2 or 4), \
             the topmost queen's suit (4)",
        )
        .add("winner", &[2], "once over: I won, the other won (both zero: a draw, or running)")
        .add("end_reason", &[3], "once over: sold, quick_sale, out_of_cards (C9)")
        .into_slices()
}

/// What the tensor is written from, read in place: a seat's [`View`], or the [`State`]
/// as the seat sees it ([`SeatOf`]), so that a call from a state builds no view (whose
/// caravans, hands, piles and shown hands are vectors, cloned). Both give exactly what
/// `build_view` puts in the view, and the one encoder below reads them, so the two
/// tensors are equal element for element (`core/tests/tensor.rs` compares them over
/// thousands of random states).
trait Seen: Seat {
    fn first_player(&self) -> u8;
    fn in_opening(&self) -> [bool; 2];
    fn hand_sizes(&self) -> [usize; 2];
    fn deck_sizes(&self) -> [usize; 2];
    fn reshuffles_used(&self) -> [u8; 2];
    /// Caravan `c`'s value (C7), direction (C3) and suit (C4) as 0-3 (C, D, H, S).
    fn caravan(&self, c: usize) -> (u32, Option<Direction>, Option<usize>);
    /// Caravan `c`'s number cards in order, each with the face cards on it.
    fn slots(&self, c: usize) -> impl Iterator<Item = (Card, &[Owned])>;
    fn sold_by(&self, pair: usize) -> Option<u8>;
    fn hand(&self) -> Option<&[Card]>;
    fn discard_pile(&self, p: usize) -> &[Card];
    fn reshuffled(&self, p: usize) -> &[Card];
    fn shown_hands(&self, p: usize) -> &[Vec<Card>];
    fn outcome(&self) -> Option<Outcome>;
}

impl Seen for View {
    fn first_player(&self) -> u8 {
        self.first_player
    }
    fn in_opening(&self) -> [bool; 2] {
        self.in_opening
    }
    fn hand_sizes(&self) -> [usize; 2] {
        self.hand_sizes
    }
    fn deck_sizes(&self) -> [usize; 2] {
        self.deck_sizes
    }
    fn reshuffles_used(&self) -> [u8; 2] {
        self.reshuffles_used
    }
    fn caravan(&self, c: usize) -> (u32, Option<Direction>, Option<usize>) {
        let c = &self.caravans[c];
        (c.value, c.direction, c.suit.map(suit_index))
    }
    fn slots(&self, c: usize) -> impl Iterator<Item = (Card, &[Owned])> {
        self.caravans[c].cards.iter().map(|s| (s.card, &s.faces[..]))
    }
    fn sold_by(&self, pair: usize) -> Option<u8> {
        self.pairs[pair].sold_by
    }
    fn hand(&self) -> Option<&[Card]> {
        self.hand.as_deref()
    }
    fn discard_pile(&self, p: usize) -> &[Card] {
        &self.discard_piles[p]
    }
    fn reshuffled(&self, p: usize) -> &[Card] {
        &self.reshuffled[p]
    }
    fn shown_hands(&self, p: usize) -> &[Vec<Card>] {
        &self.shown_hands[p]
    }
    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
}

impl Seen for SeatOf<'_, State> {
    fn first_player(&self) -> u8 {
        self.state.first_player
    }
    fn in_opening(&self) -> [bool; 2] {
        [self.state.in_opening(0), self.state.in_opening(1)]
    }
    fn hand_sizes(&self) -> [usize; 2] {
        [self.state.hands[0].len(), self.state.hands[1].len()]
    }
    fn deck_sizes(&self) -> [usize; 2] {
        [self.state.decks[0].len(), self.state.decks[1].len()]
    }
    fn reshuffles_used(&self) -> [u8; 2] {
        self.state.reshuffles
    }
    fn caravan(&self, c: usize) -> (u32, Option<Direction>, Option<usize>) {
        let (rules, c) = (&self.state.rules, &self.state.caravans[c]);
        // `Suit::of` (`view.rs`) names suit `s & 3`, which `suit_index` numbers back.
        let suit = c.suit(rules).map(|s| usize::from(s & 3));
        (c.value(rules), c.direction(rules), suit)
    }
    fn slots(&self, c: usize) -> impl Iterator<Item = (Card, &[Owned])> {
        self.state.caravans[c]
            .slots
            .iter()
            .map(|s| (s.number.card, &s.faces[..]))
    }
    fn sold_by(&self, pair: usize) -> Option<u8> {
        self.state.sells(pair)
    }
    fn hand(&self) -> Option<&[Card]> {
        self.seat.and_then(|p| self.state.hands.get(p)).map(Vec::as_slice)
    }
    fn discard_pile(&self, p: usize) -> &[Card] {
        &self.state.discards[p]
    }
    fn reshuffled(&self, p: usize) -> &[Card] {
        &self.state.reshuffled[p]
    }
    fn shown_hands(&self, p: usize) -> &[Vec<Card>] {
        &self.state.shown_hands[p]
    }
    fn outcome(&self) -> Option<Outcome> {
        self.state.outcome
    }
}

/// Writes the tensor of `view` into `out` (every element; nothing allocated).
///
/// # Panics
/// If `out.len()` is not the shape's product.
pub fn write_observation(game: &CaravanGame, view: &View, out: &mut [f32]) {
    encode(game, view, out);
}

/// Writes the tensor of `seat`'s view of `state` (`None`: the public view) into `out`,
/// equal to [`write_observation`] of `state.view_of(seat)`, without building the view.
///
/// # Panics
/// If `out.len()` is not the shape's product.
pub fn write_observation_of(game: &CaravanGame, state: &State, seat: Option<usize>, out: &mut [f32]) {
    encode(game, &SeatOf { state, seat }, out);
}

/// The one encoder of both.
fn encode(game: &CaravanGame, view: &impl Seen, out: &mut [f32]) {
    let player = view.player();
    let me = player.map_or(0, usize::from);
    let rel = |p: u8| (usize::from(p) + 2 - me) % 2;
    let bound = count_bound(game);
    let positions = entries(game) as f64;
    let mut w = Writer::new(out, len(game));
    w.one_hot(2, player.map(usize::from));
    w.one_hot(2, view.current_player().map(rel));
    w.one_hot(2, Some(rel(view.first_player())));
    let in_opening = view.in_opening();
    for k in 0..2 {
        w.flag(in_opening[(me + k) % 2]);
    }
    let hand_sizes = view.hand_sizes();
    for k in 0..2 {
        w.scaled(hand_sizes[(me + k) % 2] as f64, HAND_SIZE as f64);
    }
    let deck_sizes = view.deck_sizes();
    for k in 0..2 {
        w.scaled(deck_sizes[(me + k) % 2] as f64, 54.0 * copies(game) as f64);
    }
    let reshuffles_used = view.reshuffles_used();
    for k in 0..2 {
        w.scaled(f64::from(reshuffles_used[(me + k) % 2]), 2.0);
    }
    // Caravan `c` seen from me: my three first. Each caravan's value, direction and
    // suit once (a state works them out from the cards).
    let caravan = |k: usize| (k + 3 * me) % NUM_CARAVANS;
    let caravans: [_; NUM_CARAVANS] = std::array::from_fn(|c| view.caravan(caravan(c)));
    for &(value, ..) in &caravans {
        w.scaled(f64::from(value).min(VALUE_BOUND), VALUE_BOUND);
    }
    for &(value, ..) in &caravans {
        w.flag((SELL_MIN..=SELL_MAX).contains(&value));
    }
    for k in 0..NUM_CARAVANS {
        w.scaled(view.slots(caravan(k)).count() as f64, positions);
    }
    for &(_, direction, _) in &caravans {
        w.one_hot(
            2,
            direction.map(|d| match d {
                Direction::Ascending => 0,
                Direction::Descending => 1,
            }),
        );
    }
    for &(.., suit) in &caravans {
        w.one_hot(4, suit);
    }
    for pair in 0..3 {
        w.one_hot(2, view.sold_by(pair).map(rel));
    }
    counts(w.take(KINDS), view.hand().into_iter().flatten(), bound);
    for k in 0..2 {
        counts(w.take(KINDS), view.discard_pile((me + k) % 2), bound);
    }
    for k in 0..2 {
        counts(w.take(KINDS), view.reshuffled((me + k) % 2), bound);
    }
    for k in 0..2 {
        let shown = w.take(KINDS);
        // Per card the most copies of one hand; a hand is sorted, so copies are adjacent.
        for hand in view.shown_hands((me + k) % 2) {
            let mut i = 0;
            while i < hand.len() {
                let at = kind(hand[i]);
                let run = hand[i..].iter().take_while(|&&c| kind(c) == at).count();
                shown[at] = shown[at].max((run as f64 / bound) as f32);
                i += run;
            }
        }
    }
    for k in 0..2 {
        let n = view.shown_hands((me + k) % 2).len() as f64;
        w.scaled(n, n + 1.0);
    }
    let numbers = w.take(2 * entries(game) * ENTRY);
    let copies = copies(game);
    for c in 0..NUM_CARAVANS {
        let owner = c / 3;
        let owner_rel = (owner + 2 - me) % 2;
        for (position, (number, faces)) in view.slots(c).enumerate() {
            let card = number.play_index();
            // The first copy of this card not yet on the table.
            let base = (owner_rel * entries(game) + card * copies) * ENTRY;
            let Some(entry) = (0..copies)
                .map(|copy| base + copy * ENTRY)
                .find(|&e| numbers[e..e + 3].iter().all(|&x| x == 0.0))
            else {
                debug_assert!(false, "more copies of {number} on the table than a deck holds");
                continue;
            };
            let e = &mut numbers[entry..entry + ENTRY];
            e[c % 3] = 1.0;
            e[3] = (position as f64 / positions) as f32;
            let mut topmost_queen = None;
            for &Owned { card, owner } in faces {
                let by = rel(owner);
                let at = match card.kind() {
                    Kind::Queen => {
                        topmost_queen = card.suit();
                        4 + 2 * usize::from(card.suit().unwrap_or(0)) + by
                    }
                    Kind::King => 12 + 2 * usize::from(card.suit().unwrap_or(0)) + by,
                    Kind::Joker => 20 + by,
                    Kind::Number(_) | Kind::Jack => {
                        debug_assert!(false, "{card} lies on a number card");
                        continue;
                    }
                };
                e[at] += (1.0 / bound) as f32;
            }
            if let Some(suit) = topmost_queen {
                e[22 + usize::from(suit)] = 1.0;
            }
        }
    }
    let outcome = view.outcome();
    w.one_hot(2, outcome.and_then(|o| o.winner).map(rel));
    w.one_hot(
        3,
        outcome.map(|o| match o.reason {
            EndReason::Sold => 0,
            EndReason::QuickSale => 1,
            EndReason::OutOfCards => 2,
        }),
    );
    w.finish();
}

/// A card's place among the [`KINDS`]: its index, every joker at 52.
fn kind(card: Card) -> usize {
    card.index().min(KINDS - 1)
}

fn suit_index(suit: Suit) -> usize {
    match suit {
        Suit::Clubs => 0,
        Suit::Diamonds => 1,
        Suit::Hearts => 2,
        Suit::Spades => 3,
    }
}

/// Adds `1 / bound` per card at its kind.
fn counts<'a>(slice: &mut [f32], cards: impl IntoIterator<Item = &'a Card>, bound: f64) {
    let one = (1.0 / bound) as f32;
    for &card in cards {
        slice[kind(card)] += one;
    }
}
