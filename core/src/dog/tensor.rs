//! The observation tensor of Dog, written from a seat's [`View`], or from the state as
//! the seat sees it without building the view (one encoder for both; see [`crate::tensor`]
//! for the conventions and the table of slices).
//!
//! The information state equals the observation: the view already holds the seat's own
//! past decisions that are not on the table, its face-down pick for the exchange
//! (`exchange.given`, D4) and the cards it discarded face down on sitting out
//! (`own_face_down`, D5), and the tensor writes both.
//!
//! Seats, marbles and the board are turned to the seat: marble slot `4·k + i` is marble
//! `i` of the seat `k` places after mine (k = 2 is my partner), and ring field `f` is
//! written at `(f - 16·seat) mod 64`, so that field 0 is my own start field (D2).
//!
//! Left out of the view, on purpose: `game` (always "dog"), and each marble's `player`
//! and `color`, which follow from its id.

use super::board::{NUM_MARBLES, Place, RING};
use super::cards::{Card, Hand, NUM_KINDS};
use super::json::hand_size;
use super::rules::{Dog, EndReason, Outcome, Phase, SevenPart, State};
use super::view::{View, small};
use crate::tensor::{Layout, Seat, SeatOf, TensorSlice, Writer};

/// A marble's place: kennel, 64 ring fields, 4 goal fields.
const PLACES: usize = 1 + RING + 4;
/// A seven's parts while it is being played: each uses a step, one step is left (D8).
const MAX_PARTS: usize = 6;
/// One part of a seven: the marble, its steps, whether it went into the goal lane.
const PART: usize = NUM_MARBLES + 2;
/// The largest hand (D4).
const MAX_HAND: f64 = 6.0;
/// The copies of a card in the deck (D3; jokers six).
const COPIES: f64 = 8.0;
/// The deck (D3).
const DECK: f64 = 110.0;
/// The most D13 points a team can have: 8 + 8.
const MAX_POINTS: f64 = 16.0;

/// 21 + 16·69 + 16 + 14 + 4 + 2 + 2·14 + 4·14 + 4 + 2·14 + 3 + 6·18 + 4 + 1 + 6.
const LEN: usize = 1399;

/// The number of elements, without allocating (a step writes it for every env).
pub fn observation_tensor_len(game: &Dog) -> usize {
    let _ = game;
    LEN
}

/// `[1399]`: the same under every option.
pub fn observation_tensor_shape(game: &Dog) -> Vec<usize> {
    let _ = game;
    vec![LEN]
}

/// The bound `round` and `turns` are divided by: the turn limit, 10,000 without one.
fn turn_bound(game: Dog) -> f64 {
    if game.max_turns == 0 {
        10_000.0
    } else {
        f64::from(game.max_turns)
    }
}

/// The slices of the tensor, in order.
pub fn describe_observation(game: &Dog) -> Vec<TensorSlice> {
    let _ = game;
    let k = NUM_KINDS;
    Layout::new()
        .add("seat", &[4], "the view's seat, one-hot; all zero for a spectator")
        .add(
            "to_move",
            &[4],
            "the seat to move, relative (me, next, partner, last); zero once over",
        )
        .add("phase", &[3], "exchange, play, over")
        .add(
            "round",
            &[1],
            "the round, counted from 1, / max_turns (/ 10,000 without a turn limit)",
        )
        .add("hand_size", &[5], "cards dealt this round (D4): 6, 5, 4, 3, 2 one-hot")
        .add("first_player", &[4], "the round's first player, relative")
        .add(
            "marble_place",
            &[NUM_MARBLES, PLACES],
            "per marble slot 4·k + i (marble i of the seat k after mine): kennel, ring field 0-63 \
             counted from my start field, goal field 0-3, one-hot",
        )
        .add(
            "marble_protected",
            &[NUM_MARBLES],
            "per marble slot: it stands protected on its start field (D6)",
        )
        .add("hand", &[k], "own hand: copies of A, 2-10, J, Q, K, JK / 6")
        .add("hand_sizes", &[4], "cards in each hand, relative / 6")
        .add("pile_size", &[1], "cards in the pile / 110")
        .add("discard_size", &[1], "cards in the discards / 110")
        .add(
            "face_up",
            &[k],
            "cards played face up since the pile was last shuffled, per card / 8",
        )
        .add(
            "own_face_down",
            &[k],
            "cards I discarded face down on sitting out since the last shuffle (D5), per card / 8",
        )
        .add("played", &[4, k], "cards each seat played this round, relative, per card / 6")
        .add("picked", &[4], "per seat (relative): it has picked its card for the exchange (D4)")
        .add("given", &[k], "the card I picked for my partner this round, one-hot")
        .add("received", &[k], "the card my partner gave me this round, one-hot")
        .add("seven_active", &[1], "a seven is being played in parts (D8)")
        .add("seven_remaining", &[1], "its steps still to use / 7")
        .add("seven_joker", &[1], "the seven is a joker (D11)")
        .add(
            "seven_parts",
            &[MAX_PARTS, PART],
            "its parts so far, oldest first: the marble slot one-hot (16), steps / 7, into or along the goal lane",
        )
        .add("sat_out", &[4], "per seat (relative): it sat out this round (D5)")
        .add("turns", &[1], "turns so far / max_turns (/ 10,000 without a turn limit)")
        .add("winner", &[2], "once over: my team won, the other team won (both zero: the clock)")
        .add("points", &[2], "once over: D13 points of my team, the other team / 16")
        .add("end_reason", &[2], "once over: all_home, turn_limit")
        .into_slices()
}

/// What the tensor is written from, read in place: a seat's [`View`], or the [`State`]
/// as the seat sees it ([`SeatOf`]), so that a call from a state builds no view (whose
/// marbles and seven's parts are vectors). Both give exactly what `view_struct` puts in
/// the view, and the one encoder below reads them, so the two tensors are equal element
/// for element (`core/tests/tensor.rs` compares them over thousands of random states).
trait Seen: Seat {
    fn phase(&self) -> Phase;
    fn round(&self) -> u32;
    fn hand_size(&self) -> u8;
    fn first_player(&self) -> u8;
    /// Each marble: its id, place and whether it is protected.
    fn marbles(&self) -> impl Iterator<Item = (u8, Place, bool)>;
    fn hand(&self) -> Option<&Hand>;
    fn hand_sizes(&self) -> [u8; 4];
    fn pile_size(&self) -> u8;
    fn discard_size(&self) -> u8;
    fn face_up(&self) -> &Hand;
    fn own_face_down(&self) -> Option<&Hand>;
    fn played(&self) -> &[Hand; 4];
    fn picked(&self) -> [bool; 4];
    fn given(&self) -> Option<Card>;
    fn received(&self) -> Option<Card>;
    /// The seven being played in parts: steps remaining, joker, the parts so far.
    fn seven(&self) -> Option<(u8, bool, &[SevenPart])>;
    fn sat_out(&self) -> [bool; 4];
    fn turns(&self) -> u32;
    fn outcome(&self) -> Option<Outcome>;
}

impl Seen for View {
    fn phase(&self) -> Phase {
        self.phase
    }
    fn round(&self) -> u32 {
        self.round
    }
    fn hand_size(&self) -> u8 {
        self.hand_size
    }
    fn first_player(&self) -> u8 {
        self.first_player
    }
    fn marbles(&self) -> impl Iterator<Item = (u8, Place, bool)> {
        self.marbles.iter().map(|m| (m.marble, m.place, m.protected))
    }
    fn hand(&self) -> Option<&Hand> {
        self.hand.as_ref()
    }
    fn hand_sizes(&self) -> [u8; 4] {
        self.hand_sizes
    }
    fn pile_size(&self) -> u8 {
        self.pile_size
    }
    fn discard_size(&self) -> u8 {
        self.discard_size
    }
    fn face_up(&self) -> &Hand {
        &self.face_up
    }
    fn own_face_down(&self) -> Option<&Hand> {
        self.own_face_down.as_ref()
    }
    fn played(&self) -> &[Hand; 4] {
        &self.played
    }
    fn picked(&self) -> [bool; 4] {
        self.exchange.picked
    }
    fn given(&self) -> Option<Card> {
        self.exchange.given
    }
    fn received(&self) -> Option<Card> {
        self.exchange.received
    }
    fn seven(&self) -> Option<(u8, bool, &[SevenPart])> {
        self.seven.as_ref().map(|s| (s.remaining, s.joker, &s.parts[..]))
    }
    fn sat_out(&self) -> [bool; 4] {
        self.sat_out
    }
    fn turns(&self) -> u32 {
        self.turns
    }
    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
}

impl Seen for SeatOf<'_, State> {
    fn phase(&self) -> Phase {
        self.state.d.phase
    }
    fn round(&self) -> u32 {
        self.state.d.round.saturating_add(1)
    }
    fn hand_size(&self) -> u8 {
        hand_size(self.state.d.round) as u8
    }
    fn first_player(&self) -> u8 {
        self.state.first_player() as u8
    }
    fn marbles(&self) -> impl Iterator<Item = (u8, Place, bool)> {
        (self.state.board.marbles.iter().enumerate()).map(|(m, mk)| (m as u8, mk.place, mk.protected))
    }
    fn hand(&self) -> Option<&Hand> {
        self.seat.map(|p| &self.state.d.hands[p])
    }
    fn hand_sizes(&self) -> [u8; 4] {
        self.state.d.hands.map(|h| small(h.len()))
    }
    fn pile_size(&self) -> u8 {
        small(self.state.d.pile.len())
    }
    fn discard_size(&self) -> u8 {
        small(self.state.d.discards.len())
    }
    fn face_up(&self) -> &Hand {
        &self.state.d.face_up
    }
    fn own_face_down(&self) -> Option<&Hand> {
        self.seat.map(|p| &self.state.d.face_down[p])
    }
    fn played(&self) -> &[Hand; 4] {
        &self.state.d.played
    }
    fn picked(&self) -> [bool; 4] {
        self.state.d.exchange.map(|e| e.is_some())
    }
    fn given(&self) -> Option<Card> {
        self.seat.and_then(|p| self.state.d.given[p])
    }
    fn received(&self) -> Option<Card> {
        self.seat.and_then(|p| self.state.d.received[p])
    }
    fn seven(&self) -> Option<(u8, bool, &[SevenPart])> {
        let d = &self.state.d;
        d.seven.map(|s| (s.remaining, s.joker, &d.seven_parts[..]))
    }
    fn sat_out(&self) -> [bool; 4] {
        self.state.d.sat_out
    }
    fn turns(&self) -> u32 {
        self.state.d.turns
    }
    fn outcome(&self) -> Option<Outcome> {
        self.state.d.outcome
    }
}

/// Writes the tensor of `view` into `out` (every element; nothing allocated).
///
/// # Panics
/// If `out.len()` is not the shape's product.
pub fn write_observation(game: &Dog, view: &View, out: &mut [f32]) {
    encode(*game, view, out);
}

/// Writes the tensor of `seat`'s view of `state` (`None` or a seat outside 0-3: the
/// public view, as `view_of`) into `out`, equal to [`write_observation`] of
/// `state.view_of(seat)`, without building the view.
///
/// # Panics
/// If `out.len()` is not the shape's product.
pub fn write_observation_of(game: &Dog, state: &State, seat: Option<usize>, out: &mut [f32]) {
    let seat = seat.filter(|&p| p < 4);
    encode(*game, &SeatOf { state, seat }, out);
}

/// The one encoder of both.
fn encode(game: Dog, view: &impl Seen, out: &mut [f32]) {
    let player = view.player();
    let me = player.map_or(0, usize::from);
    let rel = |p: usize| (p + 4 - me) % 4;
    let slot = |marble: usize| 4 * rel(marble / 4) + marble % 4;
    let bound = turn_bound(game);
    let mut w = Writer::new(out, LEN);
    w.one_hot(4, player.map(usize::from));
    w.one_hot(4, view.current_player().map(|p| rel(usize::from(p))));
    w.one_hot(
        3,
        Some(match view.phase() {
            Phase::Exchange => 0,
            Phase::Play => 1,
            Phase::Over => 2,
        }),
    );
    w.scaled(f64::from(view.round()), bound);
    w.one_hot(5, 6usize.checked_sub(usize::from(view.hand_size())));
    w.one_hot(4, Some(rel(usize::from(view.first_player()))));
    let places = w.take(NUM_MARBLES * PLACES);
    for (marble, place, _) in view.marbles() {
        let place = match place {
            Place::Kennel => 0,
            Place::Ring(f) => 1 + (usize::from(f) + RING - 16 * me) % RING,
            Place::Goal(g) => 1 + RING + usize::from(g),
        };
        places[slot(usize::from(marble)) * PLACES + place] = 1.0;
    }
    let protected = w.take(NUM_MARBLES);
    for (marble, _, on) in view.marbles() {
        protected[slot(usize::from(marble))] = f32::from(u8::from(on));
    }
    counts(w.take(NUM_KINDS), view.hand(), MAX_HAND);
    let sizes = w.take(4);
    for (p, size) in view.hand_sizes().into_iter().enumerate() {
        sizes[rel(p)] = (f64::from(size) / MAX_HAND) as f32;
    }
    w.scaled(f64::from(view.pile_size()), DECK);
    w.scaled(f64::from(view.discard_size()), DECK);
    counts(w.take(NUM_KINDS), Some(view.face_up()), COPIES);
    counts(w.take(NUM_KINDS), view.own_face_down(), COPIES);
    let played = w.take(4 * NUM_KINDS);
    for (p, hand) in view.played().iter().enumerate() {
        let at = rel(p) * NUM_KINDS;
        counts(&mut played[at..at + NUM_KINDS], Some(hand), MAX_HAND);
    }
    let picked = w.take(4);
    for (p, on) in view.picked().into_iter().enumerate() {
        picked[rel(p)] = f32::from(u8::from(on));
    }
    w.one_hot(NUM_KINDS, view.given().map(Card::index));
    w.one_hot(NUM_KINDS, view.received().map(Card::index));
    let seven = view.seven();
    w.flag(seven.is_some());
    w.scaled(seven.map_or(0.0, |s| f64::from(s.0)), 7.0);
    w.flag(seven.is_some_and(|s| s.1));
    let parts = w.take(MAX_PARTS * PART);
    for (i, part) in seven.into_iter().flat_map(|s| s.2).take(MAX_PARTS).enumerate() {
        let at = i * PART;
        parts[at + slot(usize::from(part.marble))] = 1.0;
        parts[at + NUM_MARBLES] = (f64::from(part.steps) / 7.0) as f32;
        parts[at + NUM_MARBLES + 1] = f32::from(u8::from(part.goal));
    }
    let sat_out = w.take(4);
    for (p, on) in view.sat_out().into_iter().enumerate() {
        sat_out[rel(p)] = f32::from(u8::from(on));
    }
    w.scaled(f64::from(view.turns()), bound);
    // Teams relative: 0 is mine (seats me and me + 2), 1 the other.
    let my_team = me % 2;
    let rel_team = |t: usize| (t + 2 - my_team) % 2;
    w.one_hot(
        2,
        view.outcome()
            .and_then(|o| o.winner)
            .map(|t| rel_team(usize::from(t))),
    );
    let points = w.take(2);
    if let Some(o) = view.outcome() {
        for (t, &p) in o.points.iter().enumerate() {
            points[rel_team(t)] = (f64::from(p) / MAX_POINTS) as f32;
        }
    }
    w.one_hot(
        2,
        view.outcome().map(|o| match o.reason {
            EndReason::AllHome => 0,
            EndReason::TurnLimit => 1,
        }),
    );
    w.finish();
}

/// Writes the copies of every card of `hand` divided by `bound` (nothing for `None`).
fn counts(slice: &mut [f32], hand: Option<&Hand>, bound: f64) {
    if let Some(hand) = hand {
        for (x, &n) in slice.iter_mut().zip(&hand.0) {
            *x = (f64::from(n) / bound) as f32;
        }
    }
}
