//! Observation tensors: a seat's view as a flat `f32` vector for learning agents.
//!
//! What a seat may see is a rule question, so the tensors are decided here, in the core,
//! and each game writes its tensor from its typed [`crate::Game::View`], never from the
//! full state: a tensor holds exactly what `view_of(seat)` holds, so it cannot leak a
//! hidden card by construction. Each game has a module `<game>::tensor` with
//!
//! - `observation_tensor_shape(game) -> Vec<usize>`: depends on the options only;
//! - `write_observation(game, view, out)`: writes every element of `out` (zeroing it
//!   first), allocates nothing; `out.len()` must be the shape's product;
//! - `describe_observation(game) -> Vec<TensorSlice>`: the slices by name, contiguous,
//!   covering the whole tensor, each with what it means.
//!
//! Every view already is an information state (everything the seat knows, its own past
//! decisions that are not on the table included: Dog's exchange pick is
//! `exchange.given`), so in all four games the information-state tensor equals the
//! observation tensor; no game has a second one.
//!
//! # Conventions (all games)
//! - **Seen from the seat.** Seats are written relative to the view's seat: "me" first,
//!   then the following seats in playing order (`(seat + k) % players` at `k`). Only
//!   the slice `seat` names the absolute seat, so the same position seen by different
//!   seats reads alike. Dog's board is turned the same way: ring field 0 is the seat's
//!   own start field. The public (spectator) view is written as seen from seat 0 with
//!   `seat` all zero and no hand.
//! - **Values in [0, 1].** Flags and one-hot slices are 0/1; counts and sizes are
//!   divided by a fixed bound named in the slice's meaning (so distinct counts stay
//!   distinct numbers).
//! - **Exact.** Two views of a seat give the same tensor only if they agree on
//!   everything that matters for play; what a game leaves out (display texts, the order
//!   cards were played where nothing depends on it) is listed in its module docs, and
//!   the tests (`core/tests/tensor.rs`) check both directions over thousands of random
//!   states.
//!
//! # Layouts (draft of the README section)
//!
//! ## Schotten Totten: 1,115 floats, shape `[1115]`
//! | slice | shape | meaning |
//! |---|---|---|
//! | `seat` | 2 | the view's seat, one-hot (all zero for a spectator) |
//! | `to_move` | 2 | the seat to move, relative (me, other); zero once over |
//! | `phase` | 3 | play, claim, over |
//! | `hand` | 54 | own hand, card index `colour * 9 + value - 1` (colours R O Y G B P) |
//! | `hand_sizes` | 2 | cards in hand, relative, / 6 |
//! | `pile_size` | 1 | cards in the draw pile / 42 |
//! | `stone_cards` | 9 × 2 × 54 | per stone, per side (me, other): the cards there |
//! | `stone_owner` | 9 × 2 | per stone: owned by me / by the other |
//! | `stone_award` | 9 × 4 | per stone: how it was won (claim, settlement proof, complete, count) |
//! | `completed_first` | 9 × 2 | per stone: whose side was complete first (S4) |
//! | `turn_passed` | 1 | the player to move passed this turn (S3a) |
//! | `passes_in_row` | 1 | turns in a row ended after a pass / 2 (S9) |
//! | `winner` | 2 | once over: I won / the other won (both zero: draw or running) |
//! | `end_reason` | 3 | five stones, three adjacent, settlement |
//!
//! ## The Game: `4 · players + 608` floats (612 solo … 628 with five), shape `[len]`
//! | slice | shape | meaning |
//! |---|---|---|
//! | `seat` | players | the view's seat, one-hot (all zero for a spectator) |
//! | `to_move` | players | the seat to move, relative; zero once over |
//! | `pile_tops` | 4 × 100 | per pile (ascending 1, 2, descending 1, 2), its top 1–100 one-hot |
//! | `pile_counts` | 4 | cards played on each pile / 98 |
//! | `played_cards` | 98 | cards 2–99 played so far |
//! | `hand` | 98 | own hand, cards 2–99 |
//! | `hand_sizes` | players | cards in hand, relative, / 8 |
//! | `draw_pile_size` | 1 | cards in the draw pile / 98 |
//! | `played_this_turn` | 1 | cards the player to move has played this turn / 8 |
//! | `minimum` | 3 | the turn's minimum 1, 2, 3 one-hot (T3) |
//! | `over` | 1 | the game is over |
//! | `won` | 1 | every card was played (T6) |
//! | `score` | 1 | once over: cards left / 98 (T6) |
//! | `stuck_player` | players | in a lost game the seat that could not play, relative |
//!
//! ## Caravan: 2,532 floats (4,612 with *Doppeldeck*), shape `[len]`
//! Counts of cards are divided by 2 (4 with *Doppeldeck*): a joker's copies in one deck.
//! Caravans are seen from the seat: my three (in their order), then the other's three.
//! | slice | shape | meaning |
//! |---|---|---|
//! | `seat` | 2 | the view's seat, one-hot (all zero for a spectator) |
//! | `to_move` | 2 | the seat to move (me, other); zero once over |
//! | `first_player` | 2 | who began (C1): me, other |
//! | `in_opening` | 2 | me, other: still in the opening (C2) |
//! | `hand_sizes` | 2 | cards in hand / 8 |
//! | `deck_sizes` | 2 | cards in the deck / 54 (108) |
//! | `reshuffles_used` | 2 | *Neu mischen*: reshuffles so far / 2 |
//! | `caravan_value` | 6 | its value (C7) / 52, at most 1 |
//! | `caravan_selling` | 6 | its value lies in 21–26 (C9) |
//! | `caravan_length` | 6 | its number cards / 40 (80) |
//! | `caravan_direction` | 6 × 2 | ascending, descending (C3) |
//! | `caravan_suit` | 6 × 4 | its suit C, D, H, S (C4) |
//! | `sold_by` | 3 × 2 | per pair: sold by me, by the other (C9) |
//! | `hand` | 53 | own hand: copies per card `suit · 13 + rank − 1`, every joker at 52 |
//! | `discards` | 2 × 53 | the discard piles (me, other), as `hand` |
//! | `reshuffled` | 2 × 53 | *Neu mischen*: the cards of the latest reshuffle, as `hand` |
//! | `shown` | 2 × 53 | *Frische Hand*: per card the most copies one shown starting hand held |
//! | `shown_hands` | 2 | *Frische Hand*: starting hands shown, n / (n + 1) |
//! | `number_cards` | 2 × 40 (80) × 26 | per owner (me, other) and number card `suit · 10 + value − 1` (× 2 + copy): the owner's caravan it lies in (3), position / 40 (80), queens and kings on it by `suit · 2 + owner` (8 + 8), jokers on it by owner (2), the topmost queen's suit (4) |
//! | `winner` | 2 | once over: I won, the other won |
//! | `end_reason` | 3 | sold, quick_sale, out_of_cards (C9) |
//!
//! ## Dog: 1,399 floats, shape `[1399]`
//! | slice | shape | meaning |
//! |---|---|---|
//! | `seat` | 4 | the view's seat, one-hot (all zero for a spectator) |
//! | `to_move` | 4 | the seat to move, relative (me, next, partner, last); zero once over |
//! | `phase` | 3 | exchange, play, over |
//! | `round` | 1 | the round (from 1) / `max_turns` (/ 10,000 without a limit) |
//! | `hand_size` | 5 | cards dealt this round: 6, 5, 4, 3, 2 one-hot (D4) |
//! | `first_player` | 4 | the round's first player, relative |
//! | `marble_place` | 16 × 69 | per marble (relative: my 4, next seat's 4, …): kennel, ring field 0–63 turned so that 0 is my start field, goal field 0–3 |
//! | `marble_protected` | 16 | the marble stands protected on its start field (D6) |
//! | `hand` | 14 | own hand, copies per card A, 2–10, J, Q, K, JK / 6 |
//! | `hand_sizes` | 4 | cards in hand, relative, / 6 |
//! | `pile_size` | 1 | cards in the pile / 110 |
//! | `discard_size` | 1 | cards in the discards / 110 |
//! | `face_up` | 14 | cards played face up since the last shuffle, per card / 8 |
//! | `own_face_down` | 14 | cards I discarded face down on sitting out (D5), per card / 8 |
//! | `played` | 4 × 14 | cards each seat played this round, relative, per card / 6 |
//! | `picked` | 4 | per seat (relative), whether it picked for the exchange (D4) |
//! | `given` | 14 | the card I picked for my partner, one-hot |
//! | `received` | 14 | the card my partner gave me, one-hot |
//! | `seven_active` | 1 | a seven is being played in parts (D8) |
//! | `seven_remaining` | 1 | its steps still to use / 7 |
//! | `seven_joker` | 1 | the seven is a joker (D11) |
//! | `seven_parts` | 6 × 18 | its parts so far, oldest first: marble (relative, 16) one-hot, steps / 7, into the goal |
//! | `sat_out` | 4 | per seat (relative), it sat out this round (D5) |
//! | `turns` | 1 | turns so far / `max_turns` (/ 10,000 without a limit) |
//! | `winner` | 2 | once over: my team won / the other team won |
//! | `points` | 2 | D13 points of my team, the other team / 16 |
//! | `end_reason` | 2 | all home, turn limit |

/// One named part of a tensor: `shape` elements from `offset`, row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorSlice {
    /// A short name, e.g. `"hand"`.
    pub name: &'static str,
    /// The index of the slice's first element in the flat tensor.
    pub offset: usize,
    /// The slice's shape, row-major (e.g. `[9, 2, 54]`: stone, side, card).
    pub shape: Vec<usize>,
    /// What the slice holds, for people: order of its elements and any scaling.
    pub meaning: &'static str,
}

impl TensorSlice {
    /// The number of elements: the product of the shape.
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }
    /// Whether the slice has no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Builds the slice list of `describe_observation`, each slice right after the last.
#[derive(Default)]
pub struct Layout {
    slices: Vec<TensorSlice>,
    len: usize,
}

impl Layout {
    pub fn new() -> Layout {
        Layout::default()
    }
    /// Appends a slice of `shape` after the ones before.
    pub fn add(mut self, name: &'static str, shape: &[usize], meaning: &'static str) -> Layout {
        let slice = TensorSlice {
            name,
            offset: self.len,
            shape: shape.to_vec(),
            meaning,
        };
        self.len += slice.len();
        self.slices.push(slice);
        self
    }
    /// The total number of elements so far.
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn into_slices(self) -> Vec<TensorSlice> {
        self.slices
    }
}

/// Checks that `slices` lie one after another from 0, cover exactly `len` elements and
/// have distinct names; says what is wrong otherwise (for the games' tests).
pub fn check_slices(slices: &[TensorSlice], len: usize) -> Result<(), String> {
    let mut at = 0;
    for (i, s) in slices.iter().enumerate() {
        if s.offset != at {
            return Err(format!("slice {} starts at {}, expected {at}", s.name, s.offset));
        }
        if s.is_empty() {
            return Err(format!("slice {} is empty", s.name));
        }
        if s.meaning.is_empty() {
            return Err(format!("slice {} says nothing of its meaning", s.name));
        }
        if slices[..i].iter().any(|t| t.name == s.name) {
            return Err(format!("slice name {} appears twice", s.name));
        }
        at += s.len();
    }
    if at != len {
        return Err(format!("the slices cover {at} elements, the tensor has {len}"));
    }
    Ok(())
}

/// Writes a tensor slice by slice, front to back, into a caller's buffer: the buffer is
/// zeroed first, so a slice only sets what is not zero. Allocates nothing.
pub struct Writer<'a> {
    out: &'a mut [f32],
    at: usize,
}

impl<'a> Writer<'a> {
    /// A writer over `out`, which must hold exactly `len` elements (the tensor's length
    /// under the game's options): anything else is a caller's mistake, refused loudly.
    pub fn new(out: &'a mut [f32], len: usize) -> Writer<'a> {
        assert_eq!(
            out.len(),
            len,
            "an observation tensor of these options has {len} elements, the buffer {}",
            out.len()
        );
        out.fill(0.0);
        Writer { out, at: 0 }
    }
    /// The next `n` elements (zero), to be filled by the caller.
    pub fn take(&mut self, n: usize) -> &mut [f32] {
        let start = self.at;
        self.at += n;
        &mut self.out[start..self.at]
    }
    /// `n` elements with a 1 at `index` (none with `None`). An index outside `0..n` is a
    /// bug of the game's encoder (views are checked when they are built or read).
    pub fn one_hot(&mut self, n: usize, index: Option<usize>) {
        let slice = self.take(n);
        if let Some(i) = index {
            debug_assert!(i < n, "one-hot index {i} outside 0..{n}");
            if let Some(x) = slice.get_mut(i) {
                *x = 1.0;
            }
        }
    }
    /// One element: 1 or 0.
    pub fn flag(&mut self, on: bool) {
        self.take(1)[0] = f32::from(u8::from(on));
    }
    /// One element: `value / bound`.
    pub fn scaled(&mut self, value: f64, bound: f64) {
        self.take(1)[0] = (value / bound) as f32;
    }
    /// The number of elements written so far.
    pub fn position(&self) -> usize {
        self.at
    }
    /// Ends the tensor: every element must have been reached, else the encoder and its
    /// length disagree.
    pub fn finish(self) {
        assert_eq!(
            self.at,
            self.out.len(),
            "the encoder wrote {} of {} elements",
            self.at,
            self.out.len()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_are_contiguous_and_checked() {
        let slices = Layout::new()
            .add("a", &[2, 3], "six")
            .add("b", &[1], "one")
            .into_slices();
        assert_eq!(slices[1].offset, 6);
        assert_eq!(check_slices(&slices, 7), Ok(()));
        assert!(check_slices(&slices, 8).unwrap_err().contains("cover 7"));
        let mut gap = slices.clone();
        gap[1].offset = 7;
        assert!(check_slices(&gap, 8).unwrap_err().contains("starts at 7"));
        let twice = Layout::new()
            .add("a", &[1], "x")
            .add("a", &[1], "y")
            .into_slices();
        assert!(check_slices(&twice, 2).unwrap_err().contains("twice"));
    }

    #[test]
    fn the_writer_zeroes_and_fills_front_to_back() {
        let mut out = [f32::NAN; 7];
        let mut w = Writer::new(&mut out, 7);
        w.one_hot(3, Some(1));
        w.flag(true);
        w.scaled(3.0, 4.0);
        w.one_hot(2, None);
        w.finish();
        assert_eq!(out, [0.0, 1.0, 0.0, 1.0, 0.75, 0.0, 0.0]);
    }

    #[test]
    #[should_panic(expected = "wrote 1 of 2")]
    fn a_short_encoder_is_caught() {
        let mut out = [0.0; 2];
        let mut w = Writer::new(&mut out, 2);
        w.flag(true);
        w.finish();
    }
}
