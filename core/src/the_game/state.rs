//! The state of The Game: piles, hands, turns of several plays, drawing, the end.

use std::fmt::Write as _;

use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::view::{Move, View};
use crate::bits::ones;
use crate::error::{Error, IllegalAction, Result};
use crate::game::{Action, Game, GameState, parse_state, reject_unknown_options};
use crate::meta::{OptionSpec, Utility};
use crate::rng;

pub const NUM_PILES: usize = 4;
pub(super) const LOWEST: u8 = 2;
pub(super) const HIGHEST: u8 = 99;
pub(super) const NUM_CARDS: usize = (HIGHEST - LOWEST + 1) as usize;
pub const END_TURN: Action = (NUM_CARDS * NUM_PILES) as Action;
pub const NUM_ACTIONS: usize = END_TURN as usize + 1;

/// The action that plays `card` on `pile`.
pub const fn play_action(card: u8, pile: usize) -> Action {
    (card - LOWEST) as Action * NUM_PILES as Action + pile as Action
}

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

/// A pile as the board shows it: "ascending pile 1", …, "descending pile 2". Ids stay
/// 0–3 in JSON and actions; texts for people count each pair of piles from 1.
pub fn pile_name(pile: usize) -> String {
    let direction = if ascending(pile) {
        "ascending"
    } else {
        "descending"
    };
    format!("{direction} pile {}", pile % 2 + 1)
}

/// [`pile_name`] in German, in the dative ("auf dem aufsteigenden Stapel 1").
fn pile_name_de(pile: usize) -> String {
    let direction = if ascending(pile) {
        "aufsteigenden"
    } else {
        "absteigenden"
    };
    format!("{direction} Stapel {}", pile % 2 + 1)
}

/// A set of cards 2–99 as a bit mask; iterates ascending; serialized as a sorted list
/// of numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hand(u128);

/// Bit `c` for every card `c` in 2–99.
const ALL_CARDS: u128 = ((1u128 << (HIGHEST + 1)) - 1) & !((1u128 << LOWEST) - 1);

impl Hand {
    /// All 98 cards.
    pub(super) const ALL: Hand = Hand(ALL_CARDS);

    pub fn contains(self, card: u8) -> bool {
        card < 128 && self.0 & (1 << card) != 0
    }
    pub(super) fn insert(&mut self, card: u8) {
        self.0 |= 1 << card;
    }
    fn remove(&mut self, card: u8) {
        self.0 &= !(1 << card);
    }
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn iter(self) -> impl Iterator<Item = u8> {
        ones(self.0).map(|card| card as u8)
    }
    pub(super) fn union(self, other: Hand) -> Hand {
        Hand(self.0 | other.0)
    }
    pub(super) fn without(self, other: Hand) -> Hand {
        Hand(self.0 & !other.0)
    }
    /// The set as a bit mask: bit `c` for card `c`.
    pub(super) fn bits(self) -> u128 {
        self.0
    }
}

impl FromIterator<u8> for Hand {
    fn from_iter<I: IntoIterator<Item = u8>>(iter: I) -> Self {
        let mut hand = Hand::default();
        iter.into_iter().for_each(|c| hand.insert(c));
        hand
    }
}

impl Serialize for Hand {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            s.collect_seq(self.iter())
        } else {
            // Binary snapshots: the mask itself.
            s.serialize_u128(self.0)
        }
    }
}

impl<'de> Deserialize<'de> for Hand {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Hand, D::Error> {
        if !d.is_human_readable() {
            let mask = u128::deserialize(d)?;
            return if mask & !ALL_CARDS == 0 {
                Ok(Hand(mask))
            } else {
                Err(serde::de::Error::invalid_value(
                    serde::de::Unexpected::Other("a mask with bits outside 2-99"),
                    &"a set of the cards 2-99",
                ))
            };
        }
        let cards = Vec::<u8>::deserialize(d)?;
        let mut hand = Hand::default();
        for c in cards {
            if !(LOWEST..=HIGHEST).contains(&c) {
                return Err(serde::de::Error::custom(format!("card {c}: cards are 2-99")));
            }
            if hand.contains(c) {
                return Err(serde::de::Error::custom(format!(
                    "card {c} appears twice in a set of cards"
                )));
            }
            hand.insert(c);
        }
        Ok(hand)
    }
}

impl schemars::JsonSchema for Hand {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "TheGameCards".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "array",
            "description": "A set of cards, ascending; cards are the numbers 2-99, each at most once.",
            "items": {"type": "integer", "minimum": 2, "maximum": 99},
            "uniqueItems": true,
        })
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
    fn full_minimum(&self) -> usize {
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
            ),
            OptionSpec::flag(
                "pro",
                false,
                "Pro variant (T3): while the draw pile has cards, every turn must play at \
                 least three cards instead of two.",
            )
            .german("Profivariante"),
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

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    /// Every card was played (T6).
    pub won: bool,
    /// Cards left in all hands plus the draw pile (T6).
    pub score: u32,
}

/// A position of The Game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    pub(super) rules: TheGame,
    /// The next card drawn is the last.
    pub(super) draw_pile: Vec<u8>,
    /// One per seat.
    pub(super) hands: Vec<Hand>,
    /// The top card of each pile (1 or 100 before any play).
    pub(super) tops: [u8; NUM_PILES],
    /// How many cards were played on each pile.
    pub(super) pile_sizes: [u8; NUM_PILES],
    /// The player to move; once the game is lost, the one who could not go on (T6).
    pub(super) current: u8,
    pub(super) played_this_turn: u8,
    pub(super) outcome: Option<Outcome>,
    pub(super) history: crate::history::History,
}

impl State {
    pub fn tops(&self) -> [u8; NUM_PILES] {
        self.tops
    }
    pub fn draw_pile(&self) -> &[u8] {
        &self.draw_pile
    }
    pub fn hand_set(&self, player: usize) -> Hand {
        self.hands[player]
    }
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
    pub fn played_this_turn(&self) -> usize {
        self.played_this_turn as usize
    }

    /// T3: 2 (pro: 3) while the draw pile has cards, 1 once it is empty.
    pub fn minimum(&self) -> usize {
        self.rules.minimum(self.draw_pile.len())
    }

    /// T4: whether `card` may go on `pile` now.
    pub fn fits(&self, card: u8, pile: usize) -> bool {
        fits(card, self.tops[pile], pile)
    }

    /// Every card that lies on a pile: neither in a hand nor in the draw pile (the
    /// 98 cards are conserved, T1).
    pub fn played_cards(&self) -> Hand {
        let mut left = self.draw_pile.iter().copied().collect::<Hand>();
        for &hand in &self.hands {
            left = left.union(hand);
        }
        Hand::ALL.without(left)
    }

    /// The player who could not go on in a lost game (T6).
    pub fn stuck_player(&self) -> Option<usize> {
        self.outcome.filter(|o| !o.won).map(|_| self.current as usize)
    }

    /// Whether the player to move holds a card that fits some pile (T4), from the masks
    /// of the cards each pile takes rather than card by card (it is asked after every
    /// action).
    fn can_play(&self) -> bool {
        let takes = (0..NUM_PILES).fold(0, |all, p| all | takes(self.tops[p], p));
        self.hands[self.current as usize].bits() & takes != 0
    }

    fn score(&self) -> u32 {
        (self.hands.iter().map(|h| h.len()).sum::<usize>() + self.draw_pile.len()) as u32
    }

    fn check(&self, action: Action) -> Result<(), IllegalAction> {
        if self.outcome.is_some() {
            return Err(IllegalAction::new(
                "T6",
                "game_over",
                "the game is over",
                "Das Spiel ist vorbei",
            ));
        }
        let me = self.current as usize;
        if action == END_TURN {
            let (minimum, played) = (self.minimum(), self.played_this_turn as usize);
            return match minimum.saturating_sub(played) {
                0 => Ok(()),
                missing => {
                    let (cards, karten) = if missing == 1 {
                        ("1 more card".to_string(), "1 Karte".to_string())
                    } else {
                        (format!("{missing} more cards"), format!("{missing} Karten"))
                    };
                    Err(IllegalAction::new(
                        "T3",
                        "minimum_not_played",
                        format!("you must play {cards} before ending the turn"),
                        format!("Du musst noch {karten} legen, bevor du den Zug beenden darfst"),
                    )
                    .with("missing", missing)
                    .with("minimum", minimum)
                    .with("played", played))
                }
            };
        }
        let Some((card, pile)) = decode(action) else {
            return Err(IllegalAction::no_such_action(action, NUM_ACTIONS));
        };
        if !self.hands[me].contains(card) {
            return Err(IllegalAction::new(
                "T3",
                "card_not_in_hand",
                format!("{card} is not in player {me}'s hand"),
                format!("Die {card} ist keine Handkarte von Spieler {me}"),
            )
            .with("card", card)
            .with("player", me));
        }
        if !self.fits(card, pile) {
            let top = self.tops[pile];
            let (name, name_de) = (pile_name(pile), pile_name_de(pile));
            let (reason, reason_de) = if ascending(pile) {
                (
                    format!("{card} on {name} at {top} is neither higher nor exactly 10 lower"),
                    format!(
                        "Die {card} auf dem {name_de} mit der {top} oben ist weder höher noch genau 10 weniger"
                    ),
                )
            } else {
                (
                    format!("{card} on {name} at {top} is neither lower nor exactly 10 higher"),
                    format!(
                        "Die {card} auf dem {name_de} mit der {top} oben ist weder niedriger noch genau 10 mehr"
                    ),
                )
            };
            return Err(
                IllegalAction::new("T4", "pile_wrong_direction", reason, reason_de)
                    .with("card", card)
                    .with("pile", pile)
                    .with("top", top),
            );
        }
        Ok(())
    }

    /// [`GameState::apply_action`] for an `action` already known to be legal (the
    /// heuristic's playout, which only chooses legal actions, skips the check).
    pub(super) fn apply_checked(&mut self, action: Action) {
        debug_assert_eq!(self.check(action), Ok(()));
        self.history.push(action);
        match decode(action) {
            None => self.end_turn(),
            Some((card, pile)) => {
                let me = self.current as usize;
                self.hands[me].remove(card);
                self.tops[pile] = card;
                self.pile_sizes[pile] += 1;
                self.played_this_turn += 1;
                if self.hands[me].is_empty() {
                    // No card left: the turn ends by itself (the minimum was reached, T3).
                    self.end_turn();
                }
            }
        }
        self.outcome = self.derived_outcome();
    }

    /// T3 and T5: draw as many as were played, then the next player holding cards.
    fn end_turn(&mut self) {
        let me = self.current as usize;
        for _ in 0..self.played_this_turn {
            match self.draw_pile.pop() {
                Some(card) => self.hands[me].insert(card),
                None => break,
            }
        }
        self.played_this_turn = 0;
        let n = self.rules.players as usize;
        if let Some(next) = (1..=n).map(|i| (me + i) % n).find(|&p| !self.hands[p].is_empty()) {
            self.current = next as u8;
        }
    }

    /// T6: won when every card is played; lost as soon as the player to move has not
    /// reached the minimum and has no legal play. `current` must be a seat.
    pub(super) fn derived_outcome(&self) -> Option<Outcome> {
        // Every card played is the score 0 without counting the hands (this runs after
        // every action; the count is only needed once the game is over).
        if self.draw_pile.is_empty() && self.hands.iter().all(|h| h.is_empty()) {
            Some(Outcome { won: true, score: 0 })
        } else if (self.played_this_turn as usize) < self.minimum() && !self.can_play() {
            Some(Outcome {
                won: false,
                score: self.score(),
            })
        } else {
            None
        }
    }

    /// Checks everything the state shows against what play can reach; the message says
    /// what is wrong and what is allowed. After this, every method works and the game
    /// plays to its end.
    pub(super) fn validate(&self) -> Result<(), String> {
        let rules = self.rules;
        let players = rules.players as usize;
        if !(1..=5).contains(&players) {
            return Err(format!("players {players}: The Game has 1-5 players (T2)"));
        }
        if self.hands.len() != players {
            return Err(format!(
                "{} hands for {players} players: one hand per seat",
                self.hands.len()
            ));
        }
        // T1: every card 2-99 exactly once: in a hand, in the draw pile or on a pile.
        let mut left = Hand::default();
        for &c in &self.draw_pile {
            if !(LOWEST..=HIGHEST).contains(&c) || left.contains(c) {
                return Err(format!("draw pile card {c}: cards are 2-99, each once"));
            }
            left.insert(c);
        }
        for (p, &hand) in self.hands.iter().enumerate() {
            if let Some(c) = hand.iter().find(|&c| left.contains(c)) {
                return Err(format!(
                    "card {c} in player {p}'s hand is also elsewhere: each card is in one place"
                ));
            }
            left = left.union(hand);
        }
        let played = Hand::ALL.without(left);
        let on_piles: usize = self.pile_sizes.iter().map(|&n| n as usize).sum();
        if on_piles != played.len() {
            return Err(format!(
                "pile sizes {:?} add up to {on_piles}, but {} cards are neither in a hand nor in \
                 the draw pile: the 98 cards are the sum of the three",
                self.pile_sizes,
                played.len()
            ));
        }
        check_piles(&self.tops, &self.pile_sizes, played)?;
        self.check_history(played)?;
        if self.current as usize >= players {
            return Err(format!(
                "current player {}: seats are 0-{}",
                self.current,
                players - 1
            ));
        }
        let hand_sizes: Vec<usize> = self.hands.iter().map(|h| h.len()).collect();
        check_counts(
            &rules,
            &hand_sizes,
            self.draw_pile.len(),
            played.len(),
            self.current as usize,
            self.played_this_turn as usize,
        )?;
        let derived = self.derived_outcome();
        if derived != self.outcome {
            let show = |o: Option<Outcome>| match o {
                None => "null (the game goes on)".to_string(),
                Some(o) => format!("won={}, score={}", o.won, o.score),
            };
            return Err(format!(
                "the outcome is {}, but the position gives {} (T6)",
                show(self.outcome),
                show(derived)
            ));
        }
        Ok(())
    }

    /// The history is the record of the actions applied to this state object since it
    /// was dealt or built (a state built from a view starts an empty one and plays on),
    /// so it need not lead from a deal to these piles; every action in it must be an
    /// action, and no game is longer than `max_game_length`.
    fn check_history(&self, _played: Hand) -> Result<(), String> {
        let max = self.rules.max_game_length();
        if self.history.len() as u64 > max {
            return Err(format!(
                "the history holds {} actions; a game under these options has at most {max}",
                self.history.len()
            ));
        }
        if let Some((i, action)) = self
            .history
            .iter()
            .enumerate()
            .find(|(_, a)| *a as usize >= NUM_ACTIONS)
        {
            return Err(format!(
                "history action {i} is {action}: actions are 0-{}",
                NUM_ACTIONS - 1
            ));
        }
        Ok(())
    }
}

/// The piles against the played cards: a pile without cards shows its start (1 or 100),
/// one with cards a played card as its top, no card on two piles (T1).
pub(super) fn check_piles(
    tops: &[u8; NUM_PILES],
    sizes: &[u8; NUM_PILES],
    played: Hand,
) -> Result<(), String> {
    for pile in 0..NUM_PILES {
        let (top, name) = (tops[pile], pile_name(pile));
        if sizes[pile] == 0 {
            if top != START_TOPS[pile] {
                return Err(format!(
                    "{name} (pile {pile}) has no card played, so its top is {}, not {top}",
                    START_TOPS[pile]
                ));
            }
        } else if !played.contains(top) {
            return Err(format!(
                "{name} (pile {pile}): its top {top} must be a played card 2-99, in no hand and not \
                 in the draw pile"
            ));
        } else if (0..pile).any(|q| sizes[q] > 0 && tops[q] == top) {
            return Err(format!(
                "{top} is the top of two piles: a card lies on one pile only"
            ));
        }
    }
    Ok(())
}

/// The counters of a position against what play can reach. `turn` is the player to move
/// (in a lost game the one who could not go on; in a won game any seat).
///
/// - T2: nobody holds more than the hand size;
/// - T3: while the draw pile has cards every finished turn refilled its player's hand,
///   so all hands but the mover's are full and the mover's holds the hand size minus
///   the cards played this turn; and every finished turn played at least the minimum;
/// - T3, T5: the mover holds cards (a player without any is skipped) and has played
///   this turn no more than the hand held; a won game has nobody mid-turn.
pub(super) fn check_counts(
    rules: &TheGame,
    hand_sizes: &[usize],
    draw: usize,
    played: usize,
    turn: usize,
    played_this_turn: usize,
) -> Result<(), String> {
    let size = rules.hand_size();
    let players = rules.players;
    if let Some(p) = hand_sizes.iter().position(|&n| n > size) {
        return Err(format!(
            "player {p} holds {} cards: with {players} players a hand holds at most {size} (T2)",
            hand_sizes[p]
        ));
    }
    if played_this_turn > played {
        return Err(format!(
            "played_this_turn {played_this_turn}, but only {played} cards are on the piles"
        ));
    }
    let left = draw + hand_sizes.iter().sum::<usize>();
    if left == 0 {
        if played_this_turn != 0 {
            return Err(format!(
                "played_this_turn {played_this_turn}: every card is played, the game is won and \
                 nobody is mid-turn (0)"
            ));
        }
        return Ok(());
    }
    let mover = hand_sizes[turn];
    if mover == 0 {
        return Err(format!(
            "player {turn} holds no cards, so cannot be the player to move (T5)"
        ));
    }
    if mover + played_this_turn > size {
        return Err(format!(
            "played_this_turn {played_this_turn}: player {turn} holds {mover} cards, and a turn \
             starts with at most {size} (T2, T3), so at most {} can have been played this turn",
            size - mover
        ));
    }
    if draw > 0 {
        if let Some(p) = (0..hand_sizes.len()).find(|&p| p != turn && hand_sizes[p] != size) {
            return Err(format!(
                "player {p} holds {} cards: while the draw pile has cards, every hand is refilled \
                 to {size} at its turn's end (T3)",
                hand_sizes[p]
            ));
        }
        if mover + played_this_turn != size {
            return Err(format!(
                "player {turn} holds {mover} cards and played {played_this_turn} this turn: while \
                 the draw pile has cards, the two add up to the hand size {size} (T3)"
            ));
        }
        let minimum = rules.full_minimum();
        let finished = played - played_this_turn;
        if (1..minimum).contains(&finished) {
            return Err(format!(
                "{finished} cards played in finished turns: while the draw pile has cards, every \
                 turn plays at least {minimum} (T3)"
            ));
        }
    }
    Ok(())
}

pub(super) fn decode(action: Action) -> Option<(u8, usize)> {
    (action < END_TURN).then(|| {
        (
            LOWEST + (action / NUM_PILES as Action) as u8,
            (action % NUM_PILES as Action) as usize,
        )
    })
}

/// The move of an action id; `None` for an id outside the action space.
fn move_of(action: Action) -> Option<Move> {
    match decode(action) {
        Some((card, pile)) => Some(Move::Play {
            card: card.into(),
            pile: pile as i64,
        }),
        None if action == END_TURN => Some(Move::EndTurn {}),
        None => None,
    }
}

impl GameState for State {
    /// R1, T6: the game is lost with every card still in the hands and the draw pile.
    fn forfeit_returns(&self, _seat: usize) -> Vec<f64> {
        vec![0.0 - f64::from(self.score()); self.rules.players as usize]
    }
    type Game = TheGame;

    fn game(&self) -> &TheGame {
        &self.rules
    }

    fn current_player(&self) -> Option<usize> {
        self.outcome.is_none().then_some(self.current as usize)
    }

    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        for card in self.hands[self.current as usize].iter() {
            for pile in 0..NUM_PILES {
                if self.fits(card, pile) {
                    out.push(play_action(card, pile));
                }
            }
        }
        if self.played_this_turn as usize >= self.minimum() {
            out.push(END_TURN);
        }
    }

    fn check_action(&self, action: Action) -> Result<(), IllegalAction> {
        self.check(action)
    }

    fn apply_action(&mut self, action: Action) -> Result<(), IllegalAction> {
        self.check(action)?;
        self.apply_checked(action);
        Ok(())
    }

    /// R1, T6: every player gets −(cards left in all hands and the draw pile).
    fn returns(&self) -> Vec<f64> {
        // 0.0 - score, not -score: a won game returns 0.0, not -0.0.
        let score = self.outcome.map_or(0.0, |o| 0.0 - f64::from(o.score));
        vec![score; self.rules.players as usize]
    }

    /// T6: whether the players won, else how many cards are left and where.
    fn result_text(&self) -> Option<String> {
        let outcome = self.outcome?;
        if outcome.won {
            return Some("the players win: every card is played".into());
        }
        let in_hands: usize = self.hands.iter().map(|h| h.len()).sum();
        let cards = if outcome.score == 1 { "card" } else { "cards" };
        Some(format!(
            "the players lose: {} {cards} left ({in_hands} in hands, {} in the draw pile)",
            outcome.score,
            self.draw_pile.len()
        ))
    }

    fn history(&self) -> &crate::history::History {
        &self.history
    }

    /// The piles and the played cards, every hand's size and, for a seat, its own hand;
    /// never another hand or the draw pile's order. Panics if `seat` is not a seat.
    fn view_of(&self, seat: Option<usize>) -> View {
        super::view::view_of(self, seat)
    }

    /// As the trait's, with room for a whole view from the start (the API serves views).
    fn view_json(&self, seat: Option<usize>) -> Vec<u8> {
        let mut out = Vec::with_capacity(1024);
        serde_json::to_writer(&mut out, &self.view_of(seat)).expect("a view always serializes");
        out
    }

    fn action_to_string(&self, action: Action) -> String {
        match decode(action) {
            Some((card, pile)) => format!("play {card} on {}", pile_name(pile)),
            None if action == END_TURN => "end turn".into(),
            None => format!("invalid action {action}"),
        }
    }

    /// The move of `action` as JSON, serialized from [`Move`] so that it always reads
    /// back to the same id; an id outside the action space gives
    /// `{"type": "invalid", "action": id}`, which no move parses.
    fn action_to_move(&self, action: Action) -> Value {
        match move_of(action) {
            Some(mv) => serde_json::to_value(mv).expect("a move always serializes"),
            None => serde_json::json!({"type": "invalid", "action": action}),
        }
    }

    fn encode_move(&self, mv: &Move) -> Result<Action> {
        match *mv {
            Move::EndTurn {} => Ok(END_TURN),
            Move::Play { card, pile } => {
                if !(i64::from(LOWEST)..=i64::from(HIGHEST)).contains(&card) {
                    return Err(Error::InvalidMove(format!(
                        "card {card} does not exist: cards are 2-99 (T1)"
                    )));
                }
                if !(0..NUM_PILES as i64).contains(&pile) {
                    return Err(Error::InvalidMove(format!(
                        "pile {pile} does not exist: piles are 0-3 (0 and 1 ascend from 1, 2 and 3 \
                         descend from 100)"
                    )));
                }
                Ok(play_action(card as u8, pile as usize))
            }
        }
    }

    fn hand(&self, player: usize) -> Vec<String> {
        self.hands[player].iter().map(|c| c.to_string()).collect()
    }

    fn render(&self) -> String {
        let mut out = String::new();
        for p in 0..NUM_PILES {
            let _ = writeln!(
                out,
                "{:<18} top {:>3} ({} played)",
                pile_name(p),
                self.tops[p],
                self.pile_sizes[p]
            );
        }
        for p in 0..self.rules.players as usize {
            let mark = if Some(p) == self.current_player() {
                "*"
            } else {
                " "
            };
            let _ = writeln!(out, "{mark}hand {p}: {}", self.hand(p).join(" "));
        }
        let _ = write!(
            out,
            "draw pile: {} cards; played this turn: {} of at least {}",
            self.draw_pile.len(),
            self.played_this_turn,
            self.minimum()
        );
        if let Some(result) = self.result_text() {
            let _ = write!(out, "\n{result}");
        }
        out
    }
}
