//! The rules with their options, the state and its rounds, and `impl Game`.

use rand::seq::SliceRandom;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::board::*;
use super::cards::{Card, Hand, NUM_KINDS};
use super::codec::*;
use super::view::View;
use crate::error::{Error, IllegalAction, Result};
use crate::game::{Action, Game, GameState, Lang, reject_unknown_options, winner_returns};
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

/// The part of a round the game is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// D4: each player picks a card for the partner, face down, all at the same time.
    Exchange,
    /// Cards are played one per turn in seat order (D4, D5).
    Play,
    /// A team has all eight marbles home, or `max_turns` stopped the game (D13).
    Over,
}

/// A seven being played in parts (D8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seven {
    pub remaining: u8,
    pub joker: bool,
}

/// One part of a split seven played so far (D8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SevenPart {
    /// The marble moved, 0-15 (marble 4·p + k is player p's marble k).
    pub marble: u8,
    /// How many fields forward, 1-7.
    pub steps: u8,
    /// Whether it moved into or along its goal lane.
    pub goal: bool,
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// D13: all eight marbles of a team are in the goal.
    AllHome,
    /// The `max_turns` limit stopped the game like a clock (D13).
    TurnLimit,
}

/// How the game ended (D13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    /// The winning team (0: seats 0 and 2, red and green; 1: seats 1 and 3, blue and
    /// yellow); null when `max_turns` stopped the game.
    pub winner: Option<u8>,
    /// D13 points of team 0 and team 1: the winner 8 + the opponents' marbles not home,
    /// the loser its marbles home; stopped by the clock, each team its marbles home.
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
    /// The cards played face up since the pile was last shuffled (all of them in the
    /// discards): everyone saw them.
    #[serde(default)]
    pub(super) face_up: Hand,
    /// The cards each seat discarded face down on sitting out (D5) since the pile was last
    /// shuffled: only that seat knows them.
    #[serde(default)]
    pub(super) face_down: [Hand; 4],
    pub(super) seven: Option<Seven>,
    /// The parts of the seven in progress, oldest first (empty when no seven is being
    /// played, or when a position was set up without them).
    #[serde(default)]
    pub(super) seven_parts: Vec<SevenPart>,
    pub(super) sat_out: [bool; 4],
    /// Turns so far: cards played completely, and sitting out.
    pub(super) turns: u32,
    pub(super) outcome: Option<Outcome>,
    pub(super) history: crate::history::History,
    /// The seat that took each action of `history` (the exchange picks come in any order).
    #[serde(default)]
    pub(super) actors: crate::history::Log<u8>,
}

/// A position of Dog. Reading one (serde or [`Game::state_from_json`]) checks it whole.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Data", into = "Data")]
pub struct State {
    pub(super) d: Data,
    pub(super) board: Board,
}

impl TryFrom<Data> for State {
    type Error = crate::error::Message;
    /// The board is built only after every place is checked (`Board::new` indexes by them).
    fn try_from(d: Data) -> Result<State, crate::error::Message> {
        State::check_data(&d)?;
        let state = State {
            board: Board::new(d.marbles),
            d,
        };
        state.check_position()?;
        Ok(state)
    }
}

impl From<State> for Data {
    fn from(s: State) -> Data {
        s.d
    }
}

impl Game for Dog {
    type View = View;
    type Move = Move;
    type State = State;
    const NAME: &'static str = "dog";
    const MOVE_SYNTAX: &'static str = super::codec::MOVE_SYNTAX;
    const MOVE_SYNTAX_DE: &'static str = super::codec::MOVE_SYNTAX_DE;

    fn from_options(options: &Map<String, Value>) -> Result<Self> {
        reject_unknown_options(Self::NAME, options, &["max_turns"])?;
        let mut game = Dog::default();
        if let Some(v) = options.get("max_turns") {
            game.max_turns =
                v.as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or_else(|| Error::InvalidOption {
                        game: Self::NAME,
                        message: crate::msg!(
                            "max_turns must be a whole number from 0 (no limit) to 4294967295, got {v}",
                            "max_turns ist eine ganze Zahl von 0 (keine Grenze) bis 4294967295, nicht {v}"
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

    /// D13: a match may end at a playing time, the marbles home scored.
    fn has_playing_time(&self) -> bool {
        true
    }

    /// At most `max_turns` turns (T); a turn is one action, except a seven split into
    /// up to seven parts of one step (7 actions). Before each round's turns come its four
    /// exchange picks; every round has at least four turns (each seat plays or sits out at
    /// least once), and the turn that reaches T ends the game before a new deal, so there
    /// are at most 1 + (T - 1) / 4 rounds: 7·T + 4·(1 + (T - 1) / 4) actions. Without a
    /// limit (0) a game can go on for ever (marbles can be sent home again and again).
    fn max_game_length(&self) -> u64 {
        match u64::from(self.max_turns) {
            0 => u64::MAX,
            t => 7 * t + 4 * (1 + (t - 1) / 4),
        }
    }

    fn option_specs(&self) -> Vec<OptionSpec> {
        vec![OptionSpec::int(
            "max_turns",
            i64::from(Dog::default().max_turns),
            0,
            i64::from(u32::MAX),
            "Stops the game like a match clock after this many turns (cards played or hands sat out): each team scores a point per marble home and nobody wins (D13); 0: no limit",
        )
        .german("Höchstzahl der Züge")
        .german_description(
            "Beendet das Spiel wie eine Spieluhr nach so vielen Zügen (gespielte Karten oder ausgesetzte Hände): jede Partei erhält einen Punkt je Murmel im Zielraum, niemand gewinnt (D13); 0: keine Grenze",
        )]
    }

    /// See [`State::from_view`]: the built state's history is empty (a view has none).
    fn state_from_view(&self, view: &View, seed: u64) -> Result<State> {
        State::from_view(*self, view, seed)
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
        // Built directly: the checks of a read state expect the hands dealt.
        let mut state = State {
            board: Board::new(marbles),
            d: Data {
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
                face_up: Hand::default(),
                face_down: [Hand::default(); 4],
                seven: None,
                seven_parts: Vec::new(),
                sat_out: [false; 4],
                turns: 0,
                outcome: None,
                history: crate::history::History::new(),
                actors: crate::history::Log::new(),
            },
        };
        state.deal();
        debug_assert_eq!(
            State::check_data(&state.d).and_then(|()| state.check_position()),
            Ok(())
        );
        state
    }

    fn state_from_json(&self, json: &str) -> Result<State> {
        State::from_json(*self, json)
    }

    /// Reading a Dog state checks it whole (`try_from = "Data"`); these are those checks.
    fn check_state(&self, state: &State) -> Result<()> {
        State::check_data(&state.d)
            .and_then(|()| state.check_position())
            .map_err(Error::InvalidState)
    }

    /// As every game's, but through [`Data`], so that a refusal says what is wrong: the
    /// snapshot's format keeps no message of a type's own.
    fn state_from_snapshot(&self, bytes: &[u8]) -> Result<State> {
        let data: Data = crate::snapshot::read(Self::NAME, bytes)?;
        crate::game::check_options(&data.rules, self)?;
        State::try_from(data).map_err(Error::InvalidState)
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
                    self.d.reshuffles = self.d.reshuffles.wrapping_add(1);
                    // Everything seen face up or discarded face down is hidden again.
                    self.d.face_up = Hand::default();
                    self.d.face_down = [Hand::default(); 4];
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

    /// D4: the first seat from the round's first player, in seat order, that has not
    /// picked its card for the partner yet.
    pub(super) fn first_unpicked(&self) -> Option<usize> {
        let first = self.first_player();
        (0..4)
            .map(|i| (first + i) % 4)
            .find(|&p| self.d.exchange[p].is_none())
    }

    /// Carries out a move of seat `me` that was checked.
    pub(super) fn apply_checked(&mut self, me: usize, mv: Decoded, action: Action, landing: Option<Landing>) {
        self.d.history.push(action);
        self.d.actors.push(me as u8);
        match mv {
            Decoded::Exchange(card) => {
                self.d.hands[me].take(card);
                self.d.exchange[me] = Some(card);
                self.d.given[me] = Some(card);
                let first = self.first_player();
                if let Some(p) = self.first_unpicked() {
                    self.d.current = p as u8;
                } else {
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
                return;
            }
            Decoded::SitOut => {
                // D5: no legal move: the whole hand is discarded for this round.
                // Face down (the seed shows only played cards, "sichtbar"): only `me` knows them.
                let hand = std::mem::take(&mut self.d.hands[me]);
                self.d.discards.extend(hand.cards());
                self.d.face_down[me].add_all(&hand);
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
            self.d.face_up.add(card);
        }
        let color = self.moving_color(me);
        match mv {
            Decoded::Start { .. } => {
                let (marble, victim) = self.board.start(color).expect("checked");
                if let Some(v) = victim {
                    self.board.send_home(v);
                }
                self.board
                    .put(marble, Place::Ring(start_field(color) as u8), true);
            }
            Decoded::Step { marble, .. } => {
                self.board.apply_landing(marble, landing.expect("checked"));
            }
            Decoded::Seven {
                joker,
                marble,
                steps,
                goal,
            } => {
                self.board.apply_landing(marble, landing.expect("checked"));
                let remaining = self.d.seven.map_or(7, |s| s.remaining) - steps;
                self.d.seven = (remaining > 0).then_some(Seven { remaining, joker });
                if remaining > 0 {
                    self.d.seven_parts.push(SevenPart {
                        marble: marble as u8,
                        steps,
                        goal,
                    });
                    return;
                }
                self.d.seven_parts.clear();
            }
            Decoded::Jack { marble, with, .. } => {
                self.board.swap(marble, with);
            }
            Decoded::Exchange(_) | Decoded::SitOut => unreachable!(),
        }
        self.card_done();
    }

    /// After a turn (a card played completely, or sitting out): the win, the turn limit,
    /// the next player or round.
    pub(super) fn card_done(&mut self) {
        self.d.turns = self.d.turns.saturating_add(1);
        // D13: the win (checked first) or the clock, derived from the board alone.
        if let Some(outcome) = self.derived_outcome() {
            self.d.outcome = Some(outcome);
            self.d.phase = Phase::Over;
            return;
        }
        self.next_player();
    }

    /// D4: the next seat holding cards; a new round once all hands are empty.
    pub(super) fn next_player(&mut self) {
        let me = self.d.current as usize;
        if let Some(p) = (1..=4)
            .map(|i| (me + i) % 4)
            .find(|&p| !self.d.hands[p].is_empty())
        {
            self.d.current = p as u8;
        } else {
            self.d.round += 1;
            self.deal();
        }
    }
}

impl GameState for State {
    /// D13: stopped by the playing time, each team scores a point per marble in the goal.
    fn playing_time_points(&self) -> Option<[u32; 2]> {
        Some([0, 1].map(|t| self.board.team_in_goal(t) as u32))
    }
    type Game = Dog;

    /// D4: the partners pick at the same time, in any order, so a record of the game
    /// needs the seat of every pick.
    fn history_seats(&self) -> Option<Vec<usize>> {
        Some(self.d.actors.iter().map(usize::from).collect())
    }

    fn game(&self) -> &Dog {
        &self.d.rules
    }

    /// The position's [`Data`], as serde writes a state, without the copy that
    /// `into = "Data"` makes.
    fn to_snapshot(&self) -> Vec<u8> {
        crate::snapshot::write(<Dog as Game>::NAME, &self.d)
    }

    fn encode_move(&self, mv: &Move) -> Result<Action> {
        mv.encode()
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
                out.extend(hand.kinds().map(|c| Decoded::Exchange(c).encode()));
            }
            Phase::Play => {
                self.plays(out);
                if out.is_empty() {
                    out.push(SIT_OUT);
                }
            }
        }
    }

    /// D4: during the exchange every seat that has not picked yet may pick, in any order.
    fn seats_to_move(&self) -> Vec<usize> {
        match self.d.phase {
            Phase::Exchange => (0..4).filter(|&p| self.d.exchange[p].is_none()).collect(),
            Phase::Play => vec![self.d.current as usize],
            Phase::Over => Vec::new(),
        }
    }

    fn legal_actions_for(&self, seat: usize, out: &mut Vec<Action>) {
        out.clear();
        if self.d.phase == Phase::Exchange && seat < 4 && self.d.exchange[seat].is_none() {
            out.extend(self.d.hands[seat].kinds().map(|c| Decoded::Exchange(c).encode()));
        } else if self.current_player() == Some(seat) {
            self.legal_actions_into(out);
        }
    }

    fn check_action(&self, action: Action) -> Result<(), IllegalAction> {
        let mv = Decoded::decode(action).ok_or_else(|| IllegalAction::no_such_action(action, NUM_ACTIONS))?;
        self.check(mv).map(|_| ())
    }

    fn check_action_for(&self, seat: usize, action: Action) -> Result<(), IllegalAction> {
        let mv = Decoded::decode(action).ok_or_else(|| IllegalAction::no_such_action(action, NUM_ACTIONS))?;
        self.check_seat(seat, mv).map(|_| ())
    }

    fn apply_action(&mut self, action: Action) -> Result<(), IllegalAction> {
        self.apply_action_for(self.d.current as usize, action)
    }

    fn apply_action_for(&mut self, seat: usize, action: Action) -> Result<(), IllegalAction> {
        let mv = Decoded::decode(action).ok_or_else(|| IllegalAction::no_such_action(action, NUM_ACTIONS))?;
        let landing = self.check_seat(seat, mv)?;
        self.apply_checked(seat, mv, action, landing);
        // The board works on its own copy of the marbles; the data keeps them in step.
        self.d.marbles = self.board.marbles;
        Ok(())
    }

    fn result_text_named(&self, lang: Lang, names: &crate::names::Names) -> Option<String> {
        self.result_line(lang, names)
    }

    fn returns(&self) -> Vec<f64> {
        winner_returns(4, self.d.outcome.and_then(|o| o.winner).map(usize::from), team)
    }

    fn history(&self) -> &crate::history::History {
        &self.d.history
    }

    fn history_for(&self, player: usize) -> Vec<Option<Action>> {
        self.history_seen_by(player)
    }

    /// The board, every hand's size, the own hand, the cards seen face up, what the
    /// player gave and (once all four picked) received; never another hand, a pick in
    /// transit, a face-down discard or the pile's order.
    fn view_of(&self, seat: Option<usize>) -> View {
        self.view_struct(seat)
    }

    /// Written straight from the state, exactly as serde writes the view for people:
    /// like `view` it carries, in a seat's view, the targets of its cards (`hand_targets`,
    /// [`super::facts`]), which `view_of` (bots, tensors) leaves out.
    fn view_json(&self, seat: Option<usize>) -> Vec<u8> {
        self.write_view_json(seat, true)
    }

    /// The typed view's JSON (`view_of`), without the targets: they follow from the view
    /// (the seat's legal moves), so the bytes are equal exactly when the view is, and the
    /// bots that seed each decision by this key neither pay for the targets (a move check
    /// per legal move) nor change their moves.
    fn information_state_key(&self, player: usize) -> Vec<u8> {
        self.write_view_json(Some(player), false)
    }

    fn view(&self, player: usize) -> Value {
        serde_json::to_value(self.view_with_facts(Some(player))).expect("a view always serializes")
    }

    fn public_view(&self) -> Value {
        serde_json::to_value(self.view_with_facts(None)).expect("a view always serializes")
    }

    fn action_text(&self, action: Action, lang: Lang) -> String {
        self.describe(action, lang)
    }

    fn action_to_move(&self, action: Action) -> Value {
        match Decoded::decode(action).map(Decoded::to_move) {
            Some(mv) => serde_json::to_value(mv).expect("a move serializes"),
            None => serde_json::json!({"type": "invalid", "action": action}),
        }
    }

    fn hand(&self, player: usize) -> Vec<String> {
        self.hand_text(player)
    }

    fn render_for(&self, seat: Option<usize>, lang: Lang) -> String {
        self.picture(seat, lang)
    }
}
