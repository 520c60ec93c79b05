//! Observation tensors: a seat's view as a flat `f32` vector for learning agents.
//!
//! What a seat may see is a rule question, so the tensors are decided here, in the core,
//! and a tensor holds exactly what `view_of(seat)` holds: each game has one encoder, which
//! reads the seat's view through a small trait (`Seen` in `<game>/tensor.rs`) with two
//! implementations, the typed [`crate::Game::View`] itself and the state as that seat
//! sees it (`SeatOf`: the same fields `view_of` copies, read in place). The second lets
//! `observation_tensor_into` and every step of a vector env write the tensor without
//! building the view (which allocates in three of the games); `core/tests/tensor.rs`
//! checks over thousands of random states of every game, every seat and the spectator,
//! that both give the same tensor bit for bit, and that a resampled state (the hidden
//! cards dealt anew) gives the seat the same tensor on both ways. Each game has a module
//! `<game>::tensor` with
//!
//! - `observation_tensor_len(game) -> usize`: the number of elements, without
//!   allocating;
//! - `observation_tensor_shape(game) -> Vec<usize>`: depends on the options only;
//! - `write_observation(game, view, out)`: writes every element of `out` (zeroing it
//!   first), allocates nothing; `out.len()` must be the shape's product;
//! - `write_observation_of(game, state, seat, out)`: the same tensor from the state
//!   ([`ObservationTensor::write_observation_of`]);
//! - `describe_observation(game) -> Vec<TensorSlice>`: the slices by name, contiguous,
//!   covering the whole tensor, each with what it means.
//!
//! These functions are the game's [`ObservationTensor`], a supertrait of [`crate::Game`]:
//! the one list at the end of this module (`observation_tensor!`) makes them so, and the
//! games' rules do not repeat them. A new tensor capability is one trait method, one line
//! in that list's macro, and one function in each game's `tensor` module.
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
//! # Layouts
//!
//! The table of slices of every game is in the README, section "Tensors" (which slice
//! means what), and at run time in each game's `describe_observation`
//! (`game.describe_tensor()` in Python); `core/tests/tensor.rs` reads slices back by
//! name against the view, so the two cannot drift apart unnoticed.

/// A game's observation tensor ([`crate::tensor`]): every [`crate::Game`] has one (a
/// supertrait), so generic code and the bindings reach it through the game. `View` and
/// `State` are the game's [`crate::Game::View`] and [`crate::Game::State`]. The games implement it by their `tensor` modules'
/// functions of the same names (`observation_tensor!` below).
pub trait ObservationTensor<View, State> {
    /// The number of elements of the observation tensor: the product of its shape,
    /// computed without allocating (it is checked on every `observation_tensor_into`).
    fn observation_tensor_len(&self) -> usize;
    /// The shape of the observation tensor: it depends on the options only, never on the
    /// position.
    fn observation_tensor_shape(&self) -> Vec<usize>;
    /// The observation tensor's slices by name, one after another, covering it whole.
    fn describe_observation(&self) -> Vec<TensorSlice>;
    /// Writes the tensor of `view` into `out` (every element; allocates nothing).
    /// `out.len()` is [`ObservationTensor::observation_tensor_len`]; callers go through
    /// [`crate::GameState::observation_tensor_into`], which checks it.
    fn write_observation(&self, view: &View, out: &mut [f32]);
    /// Writes the tensor of `seat`'s view of `state` (`None`: the public view) into `out`,
    /// equal element for element to [`ObservationTensor::write_observation`] of
    /// `state.view_of(seat)`, but straight from the state without building the view
    /// (every step of a vector env writes one per env; tested over thousands of random
    /// states in `core/tests/tensor.rs`). `seat` and `out.len()` are checked by the
    /// caller, [`crate::GameState::observation_tensor_into`].
    fn write_observation_of(&self, state: &State, seat: Option<usize>, out: &mut [f32]);
}

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
    /// An empty layout.
    pub fn new() -> Layout {
        Layout::default()
    }
    /// Appends a slice of `shape` after the ones before.
    #[must_use]
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
    /// Whether no slice was added.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// The slices, in order.
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
    /// `n` elements with a 1 at `index` (none with `None`).
    ///
    /// # Panics
    /// If `index` is outside `0..n`, in release builds too: that is a bug of the game's
    /// encoder (every index comes from a checked view: a seat, a phase, a card), and a
    /// silently dropped or misplaced 1 would make two different views one tensor.
    pub fn one_hot(&mut self, n: usize, index: Option<usize>) {
        let slice = self.take(n);
        if let Some(i) = index {
            assert!(i < n, "one-hot index {i} outside 0..{n}");
            slice[i] = 1.0;
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

/// Whose tensor it is: the two facts every game's encoder reads first, the seat the view
/// is for (`None`: the spectator) and the seat to move. Each game's `Seen` (the view as
/// its encoder reads it) builds on it; it is implemented once for the typed views, by
/// `observation_tensor!` (every view has these two fields), and once for [`SeatOf`].
pub(crate) trait Seat {
    /// The seat the tensor is written for; `None` for the public (spectator) view.
    fn player(&self) -> Option<u8>;
    /// The seat to move; `None` once the game is over.
    fn current_player(&self) -> Option<u8>;
}

/// A state as seat `seat` (or with `None` a spectator) sees it, read in place: the
/// second way to the tensor beside the typed view. Each game's `tensor.rs` implements its
/// `Seen` for it with what that game's `view_of` would copy into the view.
pub(crate) struct SeatOf<'a, S> {
    pub(crate) state: &'a S,
    pub(crate) seat: Option<usize>,
}

impl<S: crate::game::GameState> Seat for SeatOf<'_, S> {
    fn player(&self) -> Option<u8> {
        self.seat.map(|p| p as u8)
    }
    fn current_player(&self) -> Option<u8> {
        self.state.current_player().map(|p| p as u8)
    }
}

/// Makes each registered game's `tensor` module its [`ObservationTensor`], and its view a
/// [`Seat`] (the games from the registry's list, `crate::registered_games!`).
macro_rules! observation_tensor {
    ($([$variant:ident $game:ident $rules:ident])*) => {$(
        impl ObservationTensor<crate::$game::View, crate::$game::State> for crate::$game::$rules {
            fn observation_tensor_len(&self) -> usize {
                crate::$game::tensor::observation_tensor_len(self)
            }
            fn observation_tensor_shape(&self) -> Vec<usize> {
                crate::$game::tensor::observation_tensor_shape(self)
            }
            fn describe_observation(&self) -> Vec<TensorSlice> {
                crate::$game::tensor::describe_observation(self)
            }
            fn write_observation(&self, view: &crate::$game::View, out: &mut [f32]) {
                crate::$game::tensor::write_observation(self, view, out);
            }
            fn write_observation_of(
                &self,
                state: &crate::$game::State,
                seat: Option<usize>,
                out: &mut [f32],
            ) {
                crate::$game::tensor::write_observation_of(self, state, seat, out);
            }
        }

        impl Seat for crate::$game::View {
            fn player(&self) -> Option<u8> {
                self.player
            }
            fn current_player(&self) -> Option<u8> {
                self.current_player
            }
        }
    )*};
}

crate::registered_games!([observation_tensor]);

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
    #[should_panic(expected = "one-hot index 3 outside 0..3")]
    fn a_one_hot_index_out_of_bounds_is_caught_in_release_too() {
        let mut out = [0.0; 4];
        let mut w = Writer::new(&mut out, 4);
        w.one_hot(3, Some(3));
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
