//! The observation tensor of The Game, written from a seat's [`View`], or from the state as
//! the seat sees it without building the view (one encoder for both; see
//! [`crate::tensor`] for the conventions and the table of slices).
//!
//! The information state equals the observation: the view holds everything the seat
//! knows (its hand, the piles, every card played, the sizes of the other hands and of the
//! draw pile), and none of its own past decisions is hidden from the table. Table talk
//! (T7) is not part of the view and so not of the tensor.
//!
//! Left out of the view, on purpose: `game`, and `players` and `pro`, which are the
//! game's options (the same in every state of one game; the tensor's length depends on
//! `players`), and each pile's direction, which follows from its place (T1).

use super::cards::Hand;
use super::rules::{NUM_PILES, TheGame};
use super::state::State;
use super::view::View;
use crate::tensor::{Layout, Seat, SeatOf, TensorSlice, Writer};

/// The cards 2–99 (T1).
const CARDS: usize = 98;
/// The largest hand: 8 cards solo (T2).
const MAX_HAND: f64 = 8.0;

fn players(game: TheGame) -> usize {
    usize::from(game.players)
}

/// Four slices per seat and 608 elements besides.
fn len(game: TheGame) -> usize {
    4 * players(game) + NUM_PILES * 100 + NUM_PILES + 2 * CARDS + 8
}

/// The number of elements, without allocating (a step writes it for every env).
pub fn observation_tensor_len(game: &TheGame) -> usize {
    len(*game)
}

/// `[4 · players + 608]`.
pub fn observation_tensor_shape(game: &TheGame) -> Vec<usize> {
    vec![len(*game)]
}

/// The slices of the tensor, in order.
pub fn describe_observation(game: &TheGame) -> Vec<TensorSlice> {
    let n = players(*game);
    Layout::new()
        .add("seat", &[n], "the view's seat, one-hot; all zero for a spectator")
        .add("to_move", &[n], "the seat to move, relative to mine (me first); zero once over")
        .add(
            "pile_tops",
            &[NUM_PILES, 100],
            "per pile (ascending 1, ascending 2, descending 1, descending 2): its top card 1-100, one-hot at top - 1",
        )
        .add("pile_counts", &[NUM_PILES], "cards played on each pile / 98")
        .add("played_cards", &[CARDS], "cards 2-99 played so far on any pile, at card - 2")
        .add("hand", &[CARDS], "own hand, cards 2-99 at card - 2")
        .add("hand_sizes", &[n], "cards in each hand, relative to mine (me first), / 8")
        .add("draw_pile_size", &[1], "cards in the draw pile / 98")
        .add("played_this_turn", &[1], "cards the player to move played this turn / 8")
        .add("minimum", &[3], "the turn's minimum (T3): 1, 2, 3 one-hot")
        .add("over", &[1], "the game is over")
        .add("won", &[1], "every card was played: the players won (T6)")
        .add("score", &[1], "once over: cards left in hands and draw pile / 98 (T6)")
        .add(
            "stuck_player",
            &[n],
            "in a lost game the seat to move that could not play (T6), relative to mine",
        )
        .into_slices()
}

/// What the tensor is written from, read in place: a seat's [`View`], or the [`State`]
/// as the seat sees it ([`SeatOf`]), so that a call from a state builds no view (whose
/// hand sizes are a vector). Both give exactly what `view_of` puts in the view, and the
/// one encoder below reads them, so the two tensors are equal element for element
/// (`core/tests/tensor.rs` compares them over thousands of random states).
trait Seen: Seat {
    /// Pile `p`'s top card and the number of cards played on it.
    fn pile(&self, p: usize) -> (u8, u8);
    fn played_cards(&self) -> Hand;
    fn draw_pile_size(&self) -> u8;
    fn hand(&self) -> Option<Hand>;
    /// Seat `p`'s number of cards in hand.
    fn hand_size(&self, p: usize) -> u8;
    fn played_this_turn(&self) -> u8;
    fn minimum(&self) -> u8;
    /// Once over: won, score, the stuck player.
    fn outcome(&self) -> Option<(bool, u32, Option<u8>)>;
}

impl Seen for View {
    fn pile(&self, p: usize) -> (u8, u8) {
        (self.piles[p].top, self.piles[p].cards_played)
    }
    fn played_cards(&self) -> Hand {
        self.played_cards
    }
    fn draw_pile_size(&self) -> u8 {
        self.draw_pile_size
    }
    fn hand(&self) -> Option<Hand> {
        self.hand
    }
    fn hand_size(&self, p: usize) -> u8 {
        self.hand_sizes[p]
    }
    fn played_this_turn(&self) -> u8 {
        self.played_this_turn
    }
    fn minimum(&self) -> u8 {
        self.minimum
    }
    fn outcome(&self) -> Option<(bool, u32, Option<u8>)> {
        self.outcome.map(|o| (o.won, o.score, o.stuck_player))
    }
}

impl Seen for SeatOf<'_, State> {
    fn pile(&self, p: usize) -> (u8, u8) {
        (self.state.tops[p], self.state.pile_sizes[p])
    }
    fn played_cards(&self) -> Hand {
        self.state.played_cards()
    }
    fn draw_pile_size(&self) -> u8 {
        self.state.draw_pile.len() as u8
    }
    fn hand(&self) -> Option<Hand> {
        self.seat.map(|p| self.state.hands[p])
    }
    fn hand_size(&self, p: usize) -> u8 {
        self.state.hands[p].len() as u8
    }
    fn played_this_turn(&self) -> u8 {
        self.state.played_this_turn
    }
    fn minimum(&self) -> u8 {
        self.state.minimum() as u8
    }
    fn outcome(&self) -> Option<(bool, u32, Option<u8>)> {
        let stuck = self.state.stuck_player().map(|p| p as u8);
        self.state.outcome.map(|o| (o.won, o.score, stuck))
    }
}

/// Writes the tensor of `view` into `out` (every element; nothing allocated).
///
/// # Panics
/// If `out.len()` is not the shape's product.
pub fn write_observation(game: &TheGame, view: &View, out: &mut [f32]) {
    encode(*game, view, out);
}

/// Writes the tensor of `seat`'s view of `state` (`None`: the public view) into `out`,
/// equal to [`write_observation`] of `state.view_of(seat)`, without building the view.
/// `seat` is a seat of the game or `None` (the caller checks it).
///
/// # Panics
/// If `out.len()` is not the shape's product.
pub fn write_observation_of(game: &TheGame, state: &State, seat: Option<usize>, out: &mut [f32]) {
    encode(*game, &SeatOf { state, seat }, out);
}

/// The one encoder of both.
fn encode(game: TheGame, seen: &impl Seen, out: &mut [f32]) {
    let n = players(game);
    let player = seen.player();
    let me = player.map_or(0, usize::from);
    let rel = |p: u8| (usize::from(p) + n - me) % n;
    let mut w = Writer::new(out, len(game));
    w.one_hot(n, player.map(usize::from));
    w.one_hot(n, seen.current_player().map(rel));
    for p in 0..NUM_PILES {
        w.one_hot(100, Some(usize::from(seen.pile(p).0) - 1));
    }
    for p in 0..NUM_PILES {
        w.scaled(f64::from(seen.pile(p).1), CARDS as f64);
    }
    cards(w.take(CARDS), seen.played_cards().iter());
    cards(w.take(CARDS), seen.hand().into_iter().flat_map(Hand::iter));
    let sizes = w.take(n);
    for p in 0..n {
        sizes[(p + n - me) % n] = (f64::from(seen.hand_size(p)) / MAX_HAND) as f32;
    }
    w.scaled(f64::from(seen.draw_pile_size()), CARDS as f64);
    w.scaled(f64::from(seen.played_this_turn()), MAX_HAND);
    w.one_hot(3, usize::from(seen.minimum()).checked_sub(1));
    let outcome = seen.outcome();
    w.flag(outcome.is_some());
    w.flag(outcome.is_some_and(|o| o.0));
    w.scaled(outcome.map_or(0.0, |o| f64::from(o.1)), CARDS as f64);
    w.one_hot(n, outcome.and_then(|o| o.2).map(rel));
    w.finish();
}

/// Sets the element `card - 2` of every card 2–99 in `cards`.
fn cards(slice: &mut [f32], cards: impl Iterator<Item = u8>) {
    for card in cards {
        slice[usize::from(card) - 2] = 1.0;
    }
}
