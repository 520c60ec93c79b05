//! The observation tensor of Schotten Totten, written from a seat's [`View`] (see
//! [`crate::tensor`] for the conventions and the table of slices).
//!
//! The information state equals the observation: the view holds everything the seat
//! knows (its hand, the table, the sizes of the other hand and of the pile), and none of
//! its own past decisions is hidden from the table.
//!
//! Left out of the view, on purpose:
//! - the order in which the cards of a side were played: a formation is a set of three
//!   cards (S4) and the tie-break is `completed_first`, which is written; nothing else
//!   depends on the order;
//! - `game`: always the same.

use super::cards::{Card, CardSet, NUM_CARDS};
use super::rules::{NUM_STONES, SchottenTotten};
use super::state::{Award, EndReason, Phase};
use super::view::View;
use crate::tensor::{Layout, TensorSlice, Writer};

const CARDS: usize = NUM_CARDS as usize;
/// The largest hand: 6 cards (S2); a play and the draw keep it there.
const MAX_HAND: f64 = 6.0;
/// The draw pile after the deal (S2).
const MAX_PILE: f64 = 42.0;

/// 2 + 2 + 3 + 54 + 2 + 1 + 9·2·54 + 9·2 + 9·4 + 9·2 + 1 + 1 + 2 + 3.
const LEN: usize = 1115;

/// The number of elements, without allocating (a step writes it for every env).
pub fn observation_tensor_len(game: &SchottenTotten) -> usize {
    let _ = game;
    LEN
}

/// `[1115]`: the same under every option.
pub fn observation_tensor_shape(game: &SchottenTotten) -> Vec<usize> {
    let _ = game;
    vec![LEN]
}

/// The slices of the tensor, in order.
pub fn describe_observation(game: &SchottenTotten) -> Vec<TensorSlice> {
    let _ = game;
    Layout::new()
        .add("seat", &[2], "the view's seat, one-hot; all zero for a spectator")
        .add(
            "to_move",
            &[2],
            "the seat to move (me, other); zero once the game is over",
        )
        .add("phase", &[3], "play, claim, over")
        .add(
            "hand",
            &[CARDS],
            "own hand by card index colour * 9 + value - 1 (colours R O Y G B P)",
        )
        .add("hand_sizes", &[2], "cards in hand (me, other) / 6")
        .add("pile_size", &[1], "cards in the draw pile / 42")
        .add(
            "stone_cards",
            &[NUM_STONES, 2, CARDS],
            "per stone 0-8, per side (me, other): the cards lying there, by card index",
        )
        .add(
            "stone_owner",
            &[NUM_STONES, 2],
            "per stone: owned by me, owned by the other",
        )
        .add(
            "stone_award",
            &[NUM_STONES, 4],
            "per stone: how it was won: claim, settlement_proof, settlement_complete, settlement_count",
        )
        .add(
            "completed_first",
            &[NUM_STONES, 2],
            "per stone: whose side was complete first, me or the other (S4's tie-break)",
        )
        .add("turn_passed", &[1], "the player to move passed this turn (S3a)")
        .add(
            "passes_in_row",
            &[1],
            "turns in a row that ended after a pass / 2 (S9)",
        )
        .add(
            "winner",
            &[2],
            "once over: I won, the other won (both zero: a draw, or running)",
        )
        .add(
            "end_reason",
            &[3],
            "once over: five_stones, three_adjacent, settlement (S7, S9)",
        )
        .into_slices()
}

/// Writes the tensor of `view` into `out` (every element; nothing allocated).
///
/// # Panics
/// If `out.len()` is not the shape's product.
pub fn write_observation(game: &SchottenTotten, view: &View, out: &mut [f32]) {
    let _ = game;
    let me = view.player.unwrap_or(0);
    // Seat `p` relative to the view's seat: 0 for me, 1 for the other.
    let rel = |p: u8| usize::from(p != me);
    let mut w = Writer::new(out, LEN);
    w.one_hot(2, view.player.map(usize::from));
    w.one_hot(2, view.current_player.map(rel));
    w.one_hot(
        3,
        Some(match view.phase {
            Phase::Play => 0,
            Phase::Claim => 1,
            Phase::Over => 2,
        }),
    );
    cards(w.take(CARDS), view.hand.into_iter().flat_map(CardSet::iter));
    for k in 0..2 {
        w.scaled(f64::from(view.hand_sizes[(usize::from(me) + k) % 2]), MAX_HAND);
    }
    w.scaled(f64::from(view.pile_size), MAX_PILE);
    for stone in &view.stones {
        for k in 0..2 {
            let side = &stone.cards[(usize::from(me) + k) % 2];
            cards(w.take(CARDS), side.cards().iter().copied());
        }
    }
    for stone in &view.stones {
        w.one_hot(2, stone.owner.map(rel));
    }
    for stone in &view.stones {
        w.one_hot(
            4,
            stone.award.map(|a| match a {
                Award::Claim => 0,
                Award::SettlementProof => 1,
                Award::SettlementComplete => 2,
                Award::SettlementCount => 3,
            }),
        );
    }
    for stone in &view.stones {
        w.one_hot(2, stone.completed_first.map(rel));
    }
    w.flag(view.turn_passed);
    w.scaled(f64::from(view.passes_in_row), 2.0);
    w.one_hot(2, view.outcome.and_then(|o| o.winner).map(rel));
    w.one_hot(
        3,
        view.outcome.map(|o| match o.reason {
            EndReason::FiveStones => 0,
            EndReason::ThreeAdjacent => 1,
            EndReason::Settlement => 2,
        }),
    );
    w.finish();
}

/// Sets the element of every card in `cards` (by card index).
fn cards(slice: &mut [f32], cards: impl Iterator<Item = Card>) {
    for card in cards {
        slice[usize::from(card.index())] = 1.0;
    }
}
