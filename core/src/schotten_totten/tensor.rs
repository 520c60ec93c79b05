//! The observation tensor of Schotten Totten, written from a seat's [`View`], or from the state as
//! the seat sees it without building the view (one encoder for both; see
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

use super::cards::{CardSet, NUM_CARDS};
use super::rules::{NUM_STONES, SchottenTotten};
use super::state::{Award, EndReason, Outcome, Phase, Side, State};
use super::view::View;
use crate::tensor::{Layout, Seat, SeatOf, TensorSlice, Writer};

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

/// What the tensor is written from, read in place: a seat's [`View`], or the [`State`]
/// as the seat sees it ([`SeatOf`]), so that a call from a state (and every step of a
/// vector env) builds no view. Both give exactly the fields `view_of` copies, and the one
/// encoder below reads them, so the two tensors are equal element for element
/// (`core/tests/tensor.rs` compares them over thousands of random states).
trait Seen: Seat {
    fn phase(&self) -> Phase;
    fn hand(&self) -> Option<CardSet>;
    fn hand_sizes(&self) -> [u8; 2];
    fn pile_size(&self) -> u8;
    /// Stone `i`'s sides (player 0's, player 1's), owner, award and first complete side.
    fn stone(&self, i: usize) -> (&[Side; 2], Option<u8>, Option<Award>, Option<u8>);
    fn turn_passed(&self) -> bool;
    fn passes_in_row(&self) -> u8;
    fn outcome(&self) -> Option<Outcome>;
}

impl Seen for View {
    fn phase(&self) -> Phase {
        self.phase
    }
    fn hand(&self) -> Option<CardSet> {
        self.hand
    }
    fn hand_sizes(&self) -> [u8; 2] {
        self.hand_sizes
    }
    fn pile_size(&self) -> u8 {
        self.pile_size
    }
    fn stone(&self, i: usize) -> (&[Side; 2], Option<u8>, Option<Award>, Option<u8>) {
        let s = &self.stones[i];
        (&s.cards, s.owner, s.award, s.completed_first)
    }
    fn turn_passed(&self) -> bool {
        self.turn_passed
    }
    fn passes_in_row(&self) -> u8 {
        self.passes_in_row
    }
    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
}

impl Seen for SeatOf<'_, State> {
    fn phase(&self) -> Phase {
        self.state.phase
    }
    fn hand(&self) -> Option<CardSet> {
        self.seat.map(|p| self.state.hands[p])
    }
    fn hand_sizes(&self) -> [u8; 2] {
        self.state.hands.map(|h| h.len() as u8)
    }
    fn pile_size(&self) -> u8 {
        self.state.pile.len() as u8
    }
    fn stone(&self, i: usize) -> (&[Side; 2], Option<u8>, Option<Award>, Option<u8>) {
        let s = &self.state.stones[i];
        (&s.sides, s.owner, s.award, s.completed_first)
    }
    fn turn_passed(&self) -> bool {
        self.state.turn_passed
    }
    fn passes_in_row(&self) -> u8 {
        self.state.passes_in_row
    }
    fn outcome(&self) -> Option<Outcome> {
        self.state.outcome
    }
}

/// Writes the tensor of `view` into `out` (every element; nothing allocated).
///
/// # Panics
/// If `out.len()` is not the shape's product.
pub fn write_observation(game: &SchottenTotten, view: &View, out: &mut [f32]) {
    let _ = game;
    encode(view, out);
}

/// Writes the tensor of `seat`'s view of `state` (`None` or a seat other than 0 and 1:
/// the public view, as `view_of`) into `out`, equal to [`write_observation`] of
/// `state.view_of(seat)`, without building the view.
///
/// # Panics
/// If `out.len()` is not the shape's product.
pub fn write_observation_of(game: &SchottenTotten, state: &State, seat: Option<usize>, out: &mut [f32]) {
    let _ = game;
    let seat = seat.filter(|&p| p < 2);
    encode(&SeatOf { state, seat }, out);
}

/// The one encoder of both.
fn encode(seen: &impl Seen, out: &mut [f32]) {
    let player = seen.player();
    let me = player.unwrap_or(0);
    // Seat `p` relative to the view's seat: 0 for me, 1 for the other.
    let rel = |p: u8| usize::from(p != me);
    let mut w = Writer::new(out, LEN);
    w.one_hot(2, player.map(usize::from));
    w.one_hot(2, seen.current_player().map(rel));
    w.one_hot(
        3,
        Some(match seen.phase() {
            Phase::Play => 0,
            Phase::Claim => 1,
            Phase::Over => 2,
        }),
    );
    cards(w.take(CARDS), seen.hand().unwrap_or(CardSet::EMPTY));
    let sizes = seen.hand_sizes();
    for k in 0..2 {
        w.scaled(f64::from(sizes[(usize::from(me) + k) % 2]), MAX_HAND);
    }
    w.scaled(f64::from(seen.pile_size()), MAX_PILE);
    for i in 0..NUM_STONES {
        let (sides, ..) = seen.stone(i);
        for k in 0..2 {
            // All three slots, each 1 if it holds a card (an empty slot holds card 0
            // and leaves its element as it is): no branch on the side's length.
            let slice = w.take(CARDS);
            let (slots, len) = sides[(usize::from(me) + k) % 2].slots();
            for (j, card) in slots.into_iter().enumerate() {
                let x = &mut slice[usize::from(card.index())];
                *x = x.max(f32::from(u8::from(j < len)));
            }
        }
    }
    for i in 0..NUM_STONES {
        w.one_hot(2, seen.stone(i).1.map(rel));
    }
    for i in 0..NUM_STONES {
        w.one_hot(
            4,
            seen.stone(i).2.map(|a| match a {
                Award::Claim => 0,
                Award::SettlementProof => 1,
                Award::SettlementComplete => 2,
                Award::SettlementCount => 3,
            }),
        );
    }
    for i in 0..NUM_STONES {
        w.one_hot(2, seen.stone(i).3.map(rel));
    }
    w.flag(seen.turn_passed());
    w.scaled(f64::from(seen.passes_in_row()), 2.0);
    let outcome = seen.outcome();
    w.one_hot(2, outcome.and_then(|o| o.winner).map(rel));
    w.one_hot(
        3,
        outcome.map(|o| match o.reason {
            EndReason::FiveStones => 0,
            EndReason::ThreeAdjacent => 1,
            EndReason::Settlement => 2,
        }),
    );
    w.finish();
}

/// Sets the element of every card in `cards` (by card index).
fn cards(slice: &mut [f32], cards: CardSet) {
    for card in cards.iter() {
        slice[usize::from(card.index())] = 1.0;
    }
}
