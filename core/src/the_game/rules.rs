//! The rules with their options (T2, T3), the piles (T1, T4), the deal and `impl Game`.

use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::cards::{HIGHEST, LOWEST, NUM_CARDS};
use super::codec::NUM_ACTIONS;
use super::state::State;
use super::view::{Move, View};
use crate::error::{Error, Result};
use crate::game::{Game, parse_state, reject_unknown_options};
use crate::meta::{OptionSpec, Utility};
use crate::rng;

pub const NUM_PILES: usize = 4;

/// T1: piles 0 and 1 ascend from 1, piles 2 and 3 descend from 100.
pub(super) const fn ascending(pile: usize) -> bool {
    pile < 2
}

pub(super) const START_TOPS: [u8; NUM_PILES] = [1, 1, 100, 100];

/// T4: on an ascending pile a card higher than the top or exactly 10 lower; on a
/// descending pile lower or exactly 10 higher. Nothing else.
pub(super) const fn fits(card: u8, top: u8, pile: usize) -> bool {
    if ascending(pile) {
        card > top || card + 10 == top
    } else {
        card < top || card == top + 10
    }
}

/// T4 as a mask: bit `c` for every card `c` that fits on `pile` with `top` (1–100) on
/// it. Bits outside the cards 2–99 may be set: the mask is only ever cut down to cards
/// (it is asked after every action and by the heuristic, so it has no branches; the
/// shifts wrap rather than panic on a top no state holds).
pub(super) fn takes(top: u8, pile: usize) -> u128 {
    let top = u32::from(top);
    if ascending(pile) {
        // Higher than the top, or exactly 10 lower (bit 0 or 1 for a top up to 11: no
        // card).
        !(2u128.wrapping_shl(top).wrapping_sub(1)) | 1u128.wrapping_shl(top.saturating_sub(10))
    } else {
        1u128.wrapping_shl(top).wrapping_sub(1) | 1u128.wrapping_shl(top + 10)
    }
}

/// The rules with their options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TheGame {
    /// 1–5 (T2).
    pub players: u8,
    /// The pro variant: at least three cards per turn while the draw pile has cards.
    pub pro: bool,
}

impl Default for TheGame {
    fn default() -> Self {
        TheGame {
            players: 2,
            pro: false,
        }
    }
}

impl TheGame {
    /// T2: 8 cards solo, 7 for two, 6 for three to five.
    pub fn hand_size(&self) -> usize {
        match self.players {
            1 => 8,
            2 => 7,
            _ => 6,
        }
    }

    /// T3: the minimum per turn while the draw pile has cards: 2, or 3 in the pro variant.
    pub(super) fn full_minimum(&self) -> usize {
        if self.pro { 3 } else { 2 }
    }

    /// T3: the turn's minimum for a draw pile of `draw_pile_size` cards.
    pub(super) fn minimum(&self, draw_pile_size: usize) -> usize {
        if draw_pile_size == 0 {
            1
        } else {
            self.full_minimum()
        }
    }

    /// The cards left in the draw pile after the deal (T2).
    fn initial_draw_pile(&self) -> usize {
        NUM_CARDS - self.hand_size() * self.players as usize
    }
}

impl Game for TheGame {
    type View = View;
    type Move = Move;
    type State = State;
    const NAME: &'static str = "the_game";
    const MOVE_SYNTAX: &'static str = r#"moves are {"type": "play", "card": 2-99, "pile": 0-3} (piles 0 and 1 ascend, 2 and 3 descend) or {"type": "end_turn"}"#;

    fn from_options(options: &Map<String, Value>) -> Result<Self> {
        reject_unknown_options(Self::NAME, options, &["players", "pro"])?;
        let mut game = TheGame::default();
        let invalid = |message: String| Error::InvalidOption {
            game: Self::NAME,
            message,
        };
        if let Some(v) = options.get("players") {
            game.players = match v.as_u64() {
                Some(n @ 1..=5) => n as u8,
                _ => return Err(invalid(format!("players must be 1-5, got {v}"))),
            };
        }
        if let Some(v) = options.get("pro") {
            game.pro = v
                .as_bool()
                .ok_or_else(|| invalid(format!("pro must be true or false, got {v}")))?;
        }
        Ok(game)
    }

    fn num_players(&self) -> usize {
        self.players as usize
    }

    fn num_distinct_actions(&self) -> usize {
        NUM_ACTIONS
    }

    fn utility(&self) -> Utility {
        Utility::Cooperative
    }

    /// T7: the players talk about their cards, without numbers.
    fn has_table_talk(&self) -> bool {
        true
    }

    /// At most 98 plays, one per card. Every end-turn action needs a play before it in
    /// its turn, and they come in two kinds:
    /// - those ended while the draw pile still had cards: each needed the full minimum
    ///   `m` (2, pro 3, T3) and so drew `m` cards, except a last one that empties the
    ///   pile; with `D` cards in the pile after the deal, at most `(D - 1) / m + 1`;
    /// - those ended with the pile empty: the pile empties only at a turn's end, so
    ///   their plays all came from the hands as they were then, at most
    ///   `players · hand size` cards, one play at least each.
    ///
    /// Both together are also at most 98 (one play each).
    fn max_game_length(&self) -> u64 {
        let draw = self.initial_draw_pile() as u64;
        let m = self.full_minimum() as u64;
        let with_cards = if draw == 0 { 0 } else { (draw - 1) / m + 1 };
        let emptied = (self.hand_size() * self.players as usize) as u64;
        NUM_CARDS as u64 + (with_cards + emptied).min(NUM_CARDS as u64)
    }

    fn option_specs(&self) -> Vec<OptionSpec> {
        vec![
            OptionSpec::int(
                "players",
                2,
                1,
                5,
                "Number of players, 1-5 (T2): each holds 8 cards solo, 7 with two players, \
                 6 with three to five.",
            )
            .german("Spieler")
            .german_description(
                "Zahl der Spieler, 1-5 (T2): solo hält jeder 8 Karten, zu zweit 7, zu dritt bis fünft 6.",
            ),
            OptionSpec::flag(
                "pro",
                false,
                "Pro variant (T3): while the draw pile has cards, every turn must play at \
                 least three cards instead of two.",
            )
            .german("Profivariante")
            .german_description(
                "Profivariante (T3): solange der Nachziehstapel Karten hat, muss jeder Zug mindestens \
                 drei statt zwei Karten legen.",
            ),
        ]
    }

    /// Builds a state from a seat's (or the public) view: the cards the view does not
    /// show (the other hands and the draw pile, or every hand in the public view) are
    /// dealt uniformly at random from `seed` among all deals that give exactly this view.
    /// The built state's history is empty: the view carries none.
    fn state_from_view(&self, view: &View, seed: u64) -> Result<State> {
        super::view::state_from_view(self, view, seed)
    }

    fn observation_tensor_shape(&self) -> Vec<usize> {
        super::tensor::observation_tensor_shape(self)
    }

    fn observation_tensor_len(&self) -> usize {
        super::tensor::observation_tensor_len(self)
    }

    fn describe_observation(&self) -> Vec<crate::tensor::TensorSlice> {
        super::tensor::describe_observation(self)
    }

    fn write_observation(&self, view: &View, out: &mut [f32]) {
        super::tensor::write_observation(self, view, out);
    }

    fn write_observation_of(&self, state: &State, seat: Option<usize>, out: &mut [f32]) {
        super::tensor::write_observation_of(self, state, seat, out);
    }

    /// One seeded shuffle of the 98 cards; player `i` gets the `i`-th run of
    /// hand-size cards, the rest is the draw pile, drawn from its end. Player 0 starts.
    fn new_initial_state(&self, seed: u64) -> State {
        let mut deck: Vec<u8> = (LOWEST..=HIGHEST).collect();
        deck.shuffle(&mut rng::seeded(seed, rng::STREAM_DEAL));
        let size = self.hand_size();
        let hands = (0..self.players as usize)
            .map(|p| deck[p * size..(p + 1) * size].iter().copied().collect())
            .collect();
        State {
            rules: *self,
            draw_pile: deck.split_off(size * self.players as usize),
            hands,
            tops: START_TOPS,
            pile_sizes: [0; NUM_PILES],
            current: 0,
            played_this_turn: 0,
            outcome: None,
            history: crate::history::History::new(),
        }
    }

    /// Reads a state and refuses every one that play cannot reach as far as the state
    /// shows it (see [`State::validate`]); the stored outcome must be the one the
    /// position implies (T6).
    fn state_from_json(&self, json: &str) -> Result<State> {
        let state: State = parse_state(json, "The Game", self, |s: &State| &s.rules)?;
        self.check_state(&state)?;
        Ok(state)
    }

    fn check_state(&self, state: &State) -> Result<()> {
        state.validate().map_err(Error::InvalidState)
    }
}
