//! The rules with their options, the state and its rounds, and `impl Game`.

use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::board::*;
use super::cards::{Card, Hand, NUM_KINDS};
use super::codec::*;
use crate::error::{Error, IllegalAction, Result};
use crate::game::{Action, Game, GameState, parse_state, reject_unknown_options, winner_returns};
use crate::meta::{OptionSpec, Utility};
use crate::rng;

/// D4: hand sizes cycle 6, 5, 4, 3, 2.
pub(super) const HAND_SIZES: [usize; 5] = [6, 5, 4, 3, 2];
/// The k-th reshuffle of the discards uses ChaCha stream `RESHUFFLE_STREAM + k`.
pub(super) const RESHUFFLE_STREAM: u64 = rng::STREAM_GAME;

/// The rules with their options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Dog {
    /// Stops the game like a match clock (D13) after this many turns (cards played or
    /// sat out); 0: never. It bounds every game, random ones included.
    pub max_turns: u32,
}

impl Default for Dog {
    fn default() -> Self {
        Dog { max_turns: 10_000 }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// D4: each player picks a card for the partner, face down.
    Exchange,
    Play,
    Over,
}

/// A seven being played in parts (D8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seven {
    pub remaining: u8,
    pub joker: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// D13: all eight marbles of a team are in the goal.
    AllHome,
    /// The `max_turns` limit stopped the game like a clock (D13).
    TurnLimit,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Team 0 is seats 0 and 2, team 1 seats 1 and 3.
    pub winner: Option<u8>,
    /// D13 points per team.
    pub points: [u8; 2],
    pub reason: EndReason,
}

/// Everything a Dog position holds, as it is serialized.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Data {
    pub(super) rules: Dog,
    /// Marble `4·p + k` is player p's marble k.
    pub(super) marbles: [Marble; NUM_MARBLES],
    pub(super) hands: [Hand; 4],
    /// The next card dealt is the last.
    pub(super) pile: Vec<Card>,
    pub(super) discards: Vec<Card>,
    /// Seeds the reshuffles of the discards (D3); hidden like the pile's order.
    pub(super) reshuffle_seed: u64,
    pub(super) reshuffles: u32,
    pub(super) round: u32,
    pub(super) phase: Phase,
    pub(super) current: u8,
    /// The cards picked for the partner this round (hidden until all four picked).
    pub(super) exchange: [Option<Card>; 4],
    /// The card each player received this round, once the exchange is complete.
    pub(super) received: [Option<Card>; 4],
    /// The card each player gave this round (their own knowledge, kept after the exchange).
    #[serde(default)]
    pub(super) given: [Option<Card>; 4],
    /// The cards each player has played this round, as everyone saw them.
    #[serde(default)]
    pub(super) played: [Hand; 4],
    pub(super) seven: Option<Seven>,
    pub(super) sat_out: [bool; 4],
    /// Turns so far: cards played completely, and sitting out.
    pub(super) turns: u32,
    pub(super) outcome: Option<Outcome>,
    pub(super) history: Vec<Action>,
}

/// A position of Dog.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "Data", into = "Data")]
pub struct State {
    pub(super) d: Data,
    pub(super) board: Board,
}

impl From<Data> for State {
    fn from(d: Data) -> State {
        let board = Board::new(d.marbles);
        State { d, board }
    }
}

impl From<State> for Data {
    fn from(s: State) -> Data {
        s.d
    }
}

impl Game for Dog {
    // SCAFFOLD(issue 9): replaced by the typed view and move enum.
    type View = Value;
    type Move = Value;
    type State = State;
    const NAME: &'static str = "dog";

    fn from_options(options: &Map<String, Value>) -> Result<Self> {
        reject_unknown_options(Self::NAME, options, &["max_turns"])?;
        let mut game = Dog::default();
        if let Some(v) = options.get("max_turns") {
            game.max_turns =
                v.as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or_else(|| Error::InvalidOption {
                        game: Self::NAME,
                        message: format!(
                            "max_turns must be a whole number from 0 (no limit) to 4294967295, got {v}"
                        ),
                    })?;
        }
        Ok(game)
    }

    fn num_players(&self) -> usize {
        4
    }

    fn num_distinct_actions(&self) -> usize {
        NUM_ACTIONS
    }

    fn utility(&self) -> Utility {
        Utility::TeamZeroSum
    }

    // SCAFFOLD(issue 9)
    fn max_game_length(&self) -> u64 {
        u64::MAX
    }

    // SCAFFOLD(issue 9)
    fn option_specs(&self) -> Vec<OptionSpec> {
        Vec::new()
    }

    // SCAFFOLD(issue 9)
    fn state_from_view(&self, _view: &Value, _seed: u64) -> Result<State> {
        Err(Error::InvalidView("not yet".into()))
    }

    /// D3: one seeded shuffle of the 110 cards; the first round is dealt at once.
    fn new_initial_state(&self, seed: u64) -> State {
        let mut pile: Vec<Card> = (0..NUM_KINDS)
            .flat_map(|i| std::iter::repeat_n(Card::from_index(i), Card::from_index(i).copies() as usize))
            .collect();
        pile.shuffle(&mut rng::seeded(seed, rng::STREAM_DEAL));
        let marbles = [Marble {
            place: Place::Kennel,
            protected: false,
        }; NUM_MARBLES];
        let mut state = State::from(Data {
            rules: *self,
            marbles,
            hands: [Hand::default(); 4],
            pile,
            discards: Vec::new(),
            reshuffle_seed: seed,
            reshuffles: 0,
            round: 0,
            phase: Phase::Exchange,
            current: 0,
            exchange: [None; 4],
            received: [None; 4],
            given: [None; 4],
            played: [Hand::default(); 4],
            seven: None,
            sat_out: [false; 4],
            turns: 0,
            outcome: None,
            history: Vec::new(),
        });
        state.deal();
        state
    }

    fn state_from_json(&self, json: &str) -> Result<State> {
        let state: State = parse_state(json, "Dog", self, |s: &State| &s.d.rules)?;
        state.validate()?;
        Ok(state)
    }
}

impl State {
    pub fn marbles(&self) -> &[Marble; NUM_MARBLES] {
        &self.board.marbles
    }
    pub fn hand_cards(&self, player: usize) -> Vec<Card> {
        self.d.hands[player].cards().collect()
    }
    pub fn round(&self) -> u32 {
        self.d.round
    }
    pub fn phase(&self) -> Phase {
        self.d.phase
    }
    pub fn outcome(&self) -> Option<Outcome> {
        self.d.outcome
    }
    pub fn seven(&self) -> Option<Seven> {
        self.d.seven
    }
    pub fn pile_len(&self) -> usize {
        self.d.pile.len()
    }
    pub fn discards_len(&self) -> usize {
        self.d.discards.len()
    }
    /// The cards picked for the exchange and not yet handed over.
    pub fn exchange_cards(&self) -> impl Iterator<Item = Card> + '_ {
        self.d
            .exchange
            .iter()
            .flatten()
            .copied()
            .filter(move |_| self.d.phase == Phase::Exchange)
    }

    /// D12: the colour whose marbles `player` moves with normal cards.
    pub(super) fn moving_color(&self, player: usize) -> usize {
        if self.board.in_goal(player) == 4 {
            partner(player)
        } else {
            player
        }
    }

    pub(super) fn first_player(&self) -> usize {
        (self.d.round % 4) as usize
    }

    /// D3, D4: deals the round's hands, reshuffling the discards when the pile runs out.
    pub(super) fn deal(&mut self) {
        let size = HAND_SIZES[(self.d.round % 5) as usize];
        let first = self.first_player();
        for _ in 0..size {
            for i in 0..4 {
                if self.d.pile.is_empty() {
                    let mut shuffle = rng::seeded(
                        self.d.reshuffle_seed,
                        RESHUFFLE_STREAM + u64::from(self.d.reshuffles),
                    );
                    self.d.pile = std::mem::take(&mut self.d.discards);
                    self.d.pile.shuffle(&mut shuffle);
                    self.d.reshuffles += 1;
                }
                let card = self.d.pile.pop().expect("110 cards cover 24 hand cards");
                self.d.hands[(first + i) % 4].add(card);
            }
        }
        self.d.phase = Phase::Exchange;
        self.d.current = first as u8;
        self.d.exchange = [None; 4];
        self.d.received = [None; 4];
        self.d.given = [None; 4];
        self.d.played = [Hand::default(); 4];
        self.d.sat_out = [false; 4];
    }

    /// Carries out a checked move.
    pub(super) fn apply_checked(&mut self, mv: Move, action: Action, landing: Option<Landing>) {
        let me = self.d.current as usize;
        self.d.history.push(action);
        match mv {
            Move::Exchange(card) => {
                self.d.hands[me].take(card);
                self.d.exchange[me] = Some(card);
                self.d.given[me] = Some(card);
                let first = self.first_player();
                match (1..4)
                    .map(|i| (me + i) % 4)
                    .find(|&p| self.d.exchange[p].is_none())
                {
                    Some(p) => self.d.current = p as u8,
                    None => {
                        // D4: all four picked; now everyone receives the partner's card.
                        for p in 0..4 {
                            let card = self.d.exchange[partner(p)].expect("all picked");
                            self.d.hands[p].add(card);
                            self.d.received[p] = Some(card);
                        }
                        self.d.exchange = [None; 4];
                        self.d.phase = Phase::Play;
                        self.d.current = first as u8;
                    }
                }
                return;
            }
            Move::SitOut => {
                // D5: no legal move: the whole hand is discarded for this round.
                let hand = std::mem::take(&mut self.d.hands[me]);
                self.d.discards.extend(hand.cards());
                self.d.sat_out[me] = true;
                self.card_done();
                return;
            }
            _ => {}
        }
        let card = mv.card().expect("a play");
        if self.d.seven.is_none() {
            self.d.hands[me].take(card);
            self.d.discards.push(card);
            self.d.played[me].add(card);
        }
        let color = self.moving_color(me);
        match mv {
            Move::Start { .. } => {
                let (marble, victim) = self.board.start(color).expect("checked");
                if let Some(v) = victim {
                    self.board.send_home(v);
                }
                self.board
                    .put(marble, Place::Ring(start_field(color) as u8), true);
            }
            Move::Step { marble, .. } => {
                self.board.apply_landing(marble, landing.expect("checked"));
            }
            Move::Seven {
                joker, marble, steps, ..
            } => {
                self.board.apply_landing(marble, landing.expect("checked"));
                let remaining = self.d.seven.map_or(7, |s| s.remaining) - steps;
                self.d.seven = (remaining > 0).then_some(Seven { remaining, joker });
                if remaining > 0 {
                    return;
                }
            }
            Move::Jack { marble, with, .. } => {
                self.board.swap(marble, with);
            }
            Move::Exchange(_) | Move::SitOut => unreachable!(),
        }
        self.card_done();
    }

    /// After a turn (a card played completely, or sitting out): the win, the turn limit,
    /// the next player or round.
    pub(super) fn card_done(&mut self) {
        self.d.turns += 1;
        for t in 0..2 {
            if self.board.team_in_goal(t) == 8 {
                // D13: 8 + the opponents' marbles not in the goal; the losers their marbles in the goal.
                let other = self.board.team_in_goal(1 - t);
                let mut points = [0u8; 2];
                points[t] = (8 + 8 - other) as u8;
                points[1 - t] = other as u8;
                self.finish(Some(t as u8), points, EndReason::AllHome);
                return;
            }
        }
        if self.d.rules.max_turns > 0 && self.d.turns >= self.d.rules.max_turns {
            let points = [self.board.team_in_goal(0) as u8, self.board.team_in_goal(1) as u8];
            self.finish(None, points, EndReason::TurnLimit);
            return;
        }
        self.next_player();
    }

    pub(super) fn finish(&mut self, winner: Option<u8>, points: [u8; 2], reason: EndReason) {
        self.d.outcome = Some(Outcome {
            winner,
            points,
            reason,
        });
        self.d.phase = Phase::Over;
    }

    /// D4: the next seat holding cards; a new round once all hands are empty.
    pub(super) fn next_player(&mut self) {
        let me = self.d.current as usize;
        match (1..=4)
            .map(|i| (me + i) % 4)
            .find(|&p| !self.d.hands[p].is_empty())
        {
            Some(p) => self.d.current = p as u8,
            None => {
                self.d.round += 1;
                self.deal();
            }
        }
    }
}

impl GameState for State {
    type Game = Dog;

    fn game(&self) -> &Dog {
        &self.d.rules
    }

    // SCAFFOLD(issue 9)
    fn encode_move(&self, mv: &Value) -> Result<Action> {
        self.action_from_move(mv)
    }
    fn current_player(&self) -> Option<usize> {
        self.d.outcome.is_none().then_some(self.d.current as usize)
    }

    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        match self.d.phase {
            Phase::Over => {}
            Phase::Exchange => {
                let hand = self.d.hands[self.d.current as usize];
                out.extend(hand.kinds().map(|c| Move::Exchange(c).encode()));
            }
            Phase::Play => {
                self.plays(out);
                if out.is_empty() {
                    out.push(SIT_OUT);
                }
            }
        }
    }

    fn check_action(&self, action: Action) -> Result<(), IllegalAction> {
        let mv = Move::decode(action).ok_or_else(|| IllegalAction::no_such_action(action, NUM_ACTIONS))?;
        self.check(mv).map(|_| ())
    }

    fn apply_action(&mut self, action: Action) -> Result<(), IllegalAction> {
        let mv = Move::decode(action).ok_or_else(|| IllegalAction::no_such_action(action, NUM_ACTIONS))?;
        let landing = self.check(mv)?;
        self.apply_checked(mv, action, landing);
        // The board works on its own copy of the marbles; the data keeps them in step.
        self.d.marbles = self.board.marbles;
        Ok(())
    }

    fn returns(&self) -> Vec<f64> {
        winner_returns(4, self.d.outcome.and_then(|o| o.winner).map(usize::from), team)
    }

    fn history(&self) -> &[Action] {
        &self.d.history
    }

    fn history_for(&self, player: usize) -> Vec<Option<Action>> {
        self.history_seen_by(player)
    }

    // SCAFFOLD(issue 9)
    fn view_of(&self, seat: Option<usize>) -> Value {
        self.view_value(seat)
    }

    fn action_to_string(&self, action: Action) -> String {
        self.describe(action)
    }

    fn action_to_move(&self, action: Action) -> Value {
        self.move_json(action)
    }

    fn action_from_move(&self, mv: &Value) -> Result<Action> {
        self.parse_move(mv)
    }

    // SCAFFOLD(issue 9)
    fn resample(&self, player: usize, seed: u64) -> Result<State> {
        self.resample_old(player, seed)
    }

    fn hand(&self, player: usize) -> Vec<String> {
        self.hand_text(player)
    }

    fn render(&self) -> String {
        self.picture()
    }
}
