//! The rules with their options, the deal (S2) and `impl Game`.

use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::cards::{Card, NUM_CARDS};
use super::codec::{Move, NUM_ACTIONS};
use super::state::{Phase, State, Stone};
use super::view::View;
use crate::error::{Error, Result, shorten};
use crate::game::{Game, parse_state, reject_unknown_options};
use crate::meta::{OptionSpec, Utility};
use crate::rng;

pub const NUM_STONES: usize = 9;
pub(super) const HAND_SIZE: usize = 6;
/// The pile after the deal (S2): 54 cards minus two hands of six.
pub(super) const PILE_SIZE: usize = NUM_CARDS as usize - 2 * HAND_SIZE;
/// See [`SchottenTotten::max_game_length`].
pub const MAX_GAME_LENGTH: u64 = 227;

/// The rules with their options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SchottenTotten {
    /// The player who moves first (S2).
    pub first_player: u8,
}

impl Game for SchottenTotten {
    type View = View;
    type Move = Move;
    type State = State;
    const NAME: &'static str = "schotten_totten";
    const MOVE_SYNTAX: &'static str = r#"moves are {"type": "play", "card": "B5", "stone": 0-8}, {"type": "claim", "stone": 0-8}, {"type": "pass"} or {"type": "end_turn"}"#;

    fn from_options(options: &Map<String, Value>) -> Result<Self> {
        reject_unknown_options(Self::NAME, options, &["first_player"])?;
        let mut game = Self::default();
        if let Some(v) = options.get("first_player") {
            game.first_player = match v.as_u64() {
                Some(p @ (0 | 1)) => p as u8,
                _ => {
                    return Err(Error::InvalidOption {
                        game: Self::NAME,
                        message: format!("first_player must be 0 or 1, got {}", shorten(&v.to_string())),
                    });
                }
            };
        }
        Ok(game)
    }

    fn num_players(&self) -> usize {
        2
    }

    fn num_distinct_actions(&self) -> usize {
        NUM_ACTIONS
    }

    fn utility(&self) -> Utility {
        Utility::ZeroSum
    }

    /// 227 actions at most. Every card is played at most once: 54 plays. The first turn
    /// is a play (six cards, nine open stones), and two passing turns in a row settle
    /// the game (S9), so every pass but the last follows a play: at most 55 passes, so
    /// at most 109 turns. Each turn ends with at most one `end_turn` (declining further
    /// claims; the turn also ends by itself once nothing is provable): 109. Each stone is
    /// claimed at most once: 9. 54 + 55 + 109 + 9 = 227.
    fn max_game_length(&self) -> u64 {
        MAX_GAME_LENGTH
    }

    fn option_specs(&self) -> Vec<OptionSpec> {
        vec![
            OptionSpec::int("first_player", 0, 0, 1, "the player who moves first (S2)")
                .german("Startspieler")
                .german_description("der Spieler, der zuerst zieht (S2)"),
        ]
    }

    /// The seat's own hand and everything on the table are kept; the other hand and
    /// the pile (or, for the public view, both hands and the pile) are dealt from the
    /// unseen cards, shuffled by `rng::seeded(seed, STREAM_RESAMPLE)`. The view carries no
    /// history, so the built state's history is empty.
    fn state_from_view(&self, view: &View, seed: u64) -> Result<State> {
        super::view::state_from_view(*self, view, seed)
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

    /// S2: one seeded shuffle of the 54 cards; player 0 gets the first six, player 1
    /// the next six, the remaining 42 are the pile, drawn from its end.
    fn new_initial_state(&self, seed: u64) -> State {
        let mut deck: Vec<Card> = Card::all().collect();
        deck.shuffle(&mut rng::seeded(seed, rng::STREAM_DEAL));
        let pile = deck.split_off(2 * HAND_SIZE);
        State {
            rules: *self,
            pile,
            hands: [
                deck[..HAND_SIZE].iter().copied().collect(),
                deck[HAND_SIZE..].iter().copied().collect(),
            ],
            stones: [Stone::default(); NUM_STONES],
            current: self.first_player,
            phase: Phase::Play,
            turn_passed: false,
            passes_in_row: 0,
            outcome: None,
            history: crate::history::History::new(),
        }
    }

    /// Refuses every inconsistent state (see [`State::validate`]), so that
    /// every method of a state read here works and the game plays on to its end.
    fn state_from_json(&self, json: &str) -> Result<State> {
        let state: State = parse_state(json, "Schotten Totten", self, |s: &State| &s.rules)?;
        self.check_state(&state)?;
        Ok(state)
    }

    fn check_state(&self, state: &State) -> Result<()> {
        state.validate().map_err(Error::InvalidState)
    }
}
