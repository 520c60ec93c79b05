//! The observation tensor of The Game, written from a seat's [`View`] (see
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
use super::view::View;
use crate::tensor::{Layout, TensorSlice, Writer};

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

/// Writes the tensor of `view` into `out` (every element; nothing allocated).
///
/// # Panics
/// If `out.len()` is not the shape's product.
pub fn write_observation(game: &TheGame, view: &View, out: &mut [f32]) {
    let n = players(*game);
    let me = view.player.map_or(0, usize::from);
    let rel = |p: u8| (usize::from(p) + n - me) % n;
    let mut w = Writer::new(out, len(*game));
    w.one_hot(n, view.player.map(usize::from));
    w.one_hot(n, view.current_player.map(rel));
    for pile in &view.piles {
        w.one_hot(100, Some(usize::from(pile.top) - 1));
    }
    for pile in &view.piles {
        w.scaled(f64::from(pile.cards_played), CARDS as f64);
    }
    cards(w.take(CARDS), view.played_cards.iter());
    cards(w.take(CARDS), view.hand.into_iter().flat_map(Hand::iter));
    let sizes = w.take(n);
    for (p, &size) in view.hand_sizes.iter().enumerate().take(n) {
        sizes[(p + n - me) % n] = (f64::from(size) / MAX_HAND) as f32;
    }
    w.scaled(f64::from(view.draw_pile_size), CARDS as f64);
    w.scaled(f64::from(view.played_this_turn), MAX_HAND);
    w.one_hot(3, usize::from(view.minimum).checked_sub(1));
    w.flag(view.outcome.is_some());
    w.flag(view.outcome.is_some_and(|o| o.won));
    w.scaled(view.outcome.map_or(0.0, |o| f64::from(o.score)), CARDS as f64);
    w.one_hot(n, view.outcome.and_then(|o| o.stuck_player).map(rel));
    w.finish();
}

/// Sets the element `card - 2` of every card 2–99 in `cards`.
fn cards(slice: &mut [f32], cards: impl Iterator<Item = u8>) {
    for card in cards {
        slice[usize::from(card) - 2] = 1.0;
    }
}
