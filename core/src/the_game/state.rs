//! The state of The Game: piles, hands, turns of several plays, drawing, the end.

use std::fmt::Write as _;

use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::bits::ones;
use crate::error::{Error, IllegalAction, Result};
use crate::game::{Action, Game, GameState, parse_state, reject_unknown_options};
use crate::meta::{OptionSpec, Utility};
use crate::rng;

pub const NUM_PILES: usize = 4;
const LOWEST: u8 = 2;
const HIGHEST: u8 = 99;
const NUM_CARDS: usize = (HIGHEST - LOWEST + 1) as usize;
pub const END_TURN: Action = (NUM_CARDS * NUM_PILES) as Action;
pub const NUM_ACTIONS: usize = END_TURN as usize + 1;

/// The action that plays `card` on `pile`.
pub const fn play_action(card: u8, pile: usize) -> Action {
    (card - LOWEST) as Action * NUM_PILES as Action + pile as Action
}

/// T1: piles 0 and 1 ascend from 1, piles 2 and 3 descend from 100.
const fn ascending(pile: usize) -> bool {
    pile < 2
}

const START_TOPS: [u8; NUM_PILES] = [1, 1, 100, 100];

/// A set of cards 2–99 as a bit mask; iterates ascending; serialized as a list of numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hand(u128);

impl Hand {
    pub fn contains(self, card: u8) -> bool {
        card < 128 && self.0 & (1 << card) != 0
    }
    fn insert(&mut self, card: u8) {
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
}

impl Serialize for Hand {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Hand {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Hand, D::Error> {
        let cards = Vec::<u8>::deserialize(d)?;
        let mut hand = Hand::default();
        for c in cards {
            if !(LOWEST..=HIGHEST).contains(&c) {
                return Err(serde::de::Error::custom(format!("card {c}: cards are 2-99")));
            }
            if hand.contains(c) {
                return Err(serde::de::Error::custom(format!(
                    "card {c} appears twice in a hand"
                )));
            }
            hand.insert(c);
        }
        Ok(hand)
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
}

impl Game for TheGame {
    // SCAFFOLD(issue 9): replaced by the typed view and move enum.
    type View = Value;
    type Move = Value;
    type State = State;
    const NAME: &'static str = "the_game";

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

    /// One seeded shuffle of the 98 cards; player `i` gets the `i`-th run of
    /// hand-size cards, the rest is the draw pile, drawn from its end. Player 0 starts.
    fn new_initial_state(&self, seed: u64) -> State {
        let mut deck: Vec<u8> = (LOWEST..=HIGHEST).collect();
        deck.shuffle(&mut rng::seeded(seed, rng::STREAM_DEAL));
        let size = self.hand_size();
        let mut hands = vec![Hand::default(); self.players as usize];
        for (p, hand) in hands.iter_mut().enumerate() {
            deck[p * size..(p + 1) * size]
                .iter()
                .for_each(|&c| hand.insert(c));
        }
        State {
            rules: *self,
            draw_pile: deck.split_off(size * self.players as usize),
            hands,
            tops: START_TOPS,
            pile_sizes: [0; NUM_PILES],
            current: 0,
            played_this_turn: 0,
            outcome: None,
            history: Vec::new(),
        }
    }

    fn state_from_json(&self, json: &str) -> Result<State> {
        let mut state: State = parse_state(json, "The Game", self, |s: &State| &s.rules)?;
        state.validate()?;
        // T6: a position whose player to move is stuck (or with every card played) is over.
        if state.outcome.is_none() {
            state.settle_outcome();
        }
        Ok(state)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
    rules: TheGame,
    /// The next card drawn is the last.
    draw_pile: Vec<u8>,
    /// One per seat.
    hands: Vec<Hand>,
    /// The top card of each pile (1 or 100 before any play).
    tops: [u8; NUM_PILES],
    /// How many cards were played on each pile.
    pile_sizes: [u8; NUM_PILES],
    current: u8,
    played_this_turn: u8,
    outcome: Option<Outcome>,
    history: Vec<Action>,
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
        match (self.draw_pile.is_empty(), self.rules.pro) {
            (true, _) => 1,
            (false, false) => 2,
            (false, true) => 3,
        }
    }

    /// T4: ascending, higher or exactly 10 lower; descending, lower or exactly 10 higher.
    pub fn fits(&self, card: u8, pile: usize) -> bool {
        let top = self.tops[pile];
        if ascending(pile) {
            card > top || card + 10 == top
        } else {
            card < top || card == top + 10
        }
    }

    fn can_play(&self) -> bool {
        let hand = self.hands[self.current as usize];
        hand.iter().any(|c| (0..NUM_PILES).any(|p| self.fits(c, p)))
    }

    fn score(&self) -> u32 {
        (self.hands.iter().map(|h| h.len()).sum::<usize>() + self.draw_pile.len()) as u32
    }

    fn check(&self, action: Action) -> Result<(), IllegalAction> {
        if self.outcome.is_some() {
            return Err(IllegalAction::untyped("T6", "the game is over"));
        }
        let me = self.current as usize;
        if action == END_TURN {
            let missing = self.minimum().saturating_sub(self.played_this_turn as usize);
            return match missing {
                0 => Ok(()),
                1 => Err(IllegalAction::untyped(
                    "T3",
                    "you must play 1 more card before ending the turn",
                )),
                n => Err(IllegalAction::untyped(
                    "T3",
                    format!("you must play {n} more cards before ending the turn"),
                )),
            };
        }
        let Some((card, pile)) = decode(action) else {
            return Err(IllegalAction::no_such_action(action, NUM_ACTIONS));
        };
        if !self.hands[me].contains(card) {
            return Err(IllegalAction::untyped(
                "T3",
                format!("{card} is not in player {me}'s hand"),
            ));
        }
        if !self.fits(card, pile) {
            let top = self.tops[pile];
            let reason = if ascending(pile) {
                format!("{card} on ascending pile {pile} at {top} is neither higher nor exactly 10 lower")
            } else {
                format!("{card} on descending pile {pile} at {top} is neither lower nor exactly 10 higher")
            };
            return Err(IllegalAction::untyped("T4", reason));
        }
        Ok(())
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
    /// reached the minimum and has no legal play.
    fn settle_outcome(&mut self) {
        let score = self.score();
        if score == 0 {
            self.outcome = Some(Outcome { won: true, score });
        } else if (self.played_this_turn as usize) < self.minimum() && !self.can_play() {
            self.outcome = Some(Outcome { won: false, score });
        }
    }

    fn validate(&self) -> Result<()> {
        let bad = |m: String| Err(Error::InvalidState(m));
        let players = self.rules.players as usize;
        if self.hands.len() != players {
            return bad(format!(
                "{} hands for {players} players: one hand per seat",
                self.hands.len()
            ));
        }
        let mut seen = Hand::default();
        let mut count = 0;
        let played_count: usize = self.pile_sizes.iter().map(|&n| n as usize).sum();
        for &c in self.draw_pile.iter() {
            if !(LOWEST..=HIGHEST).contains(&c) || seen.contains(c) {
                return bad(format!("draw pile card {c}: cards are 2-99, each once"));
            }
            seen.insert(c);
            count += 1;
        }
        for (p, h) in self.hands.iter().enumerate() {
            for c in h.iter() {
                if seen.contains(c) {
                    return bad(format!("card {c} in player {p}'s hand appears twice"));
                }
                seen.insert(c);
                count += 1;
            }
        }
        for (pile, &top) in self.tops.iter().enumerate() {
            if self.pile_sizes[pile] == 0 {
                if top != START_TOPS[pile] {
                    return bad(format!(
                        "pile {pile}: no card played, so its top is {}",
                        START_TOPS[pile]
                    ));
                }
            } else if !(LOWEST..=HIGHEST).contains(&top) || seen.contains(top) {
                return bad(format!(
                    "pile {pile}: top {top} must be a card 2-99 held nowhere else"
                ));
            } else {
                // The top is a played card: it lies on this pile only.
                seen.insert(top);
            }
        }
        if count + played_count != NUM_CARDS {
            return bad(format!(
                "{count} cards in hands and draw pile plus {played_count} played is not the 98 cards"
            ));
        }
        if self.current as usize >= players {
            return bad(format!("current player {} does not exist", self.current));
        }
        if self.outcome.is_none() && self.hands[self.current as usize].is_empty() && self.score() > 0 {
            return bad(format!(
                "player {} holds no cards, so cannot be the player to move (T5)",
                self.current
            ));
        }
        let mut settled = self.clone();
        settled.outcome = None;
        settled.settle_outcome();
        if self.outcome.is_some() && self.outcome != settled.outcome {
            return bad(format!(
                "the outcome {:?} does not follow from the position (T6)",
                self.outcome
            ));
        }
        if self.history.iter().any(|&a| a as usize >= NUM_ACTIONS) {
            return bad(format!("history holds an action outside 0..{NUM_ACTIONS}"));
        }
        Ok(())
    }
}

fn decode(action: Action) -> Option<(u8, usize)> {
    (action < END_TURN).then(|| {
        (
            LOWEST + (action / NUM_PILES as Action) as u8,
            (action % NUM_PILES as Action) as usize,
        )
    })
}

const MOVE_SYNTAX: &str = r#"moves are {"type": "play", "card": 2-99, "pile": 0-3} (piles 0 and 1 ascend, 2 and 3 descend) or {"type": "end_turn"}"#;

fn move_error(what: impl std::fmt::Display) -> Error {
    Error::InvalidMove(format!("{what}; {MOVE_SYNTAX}"))
}

impl GameState for State {
    type Game = TheGame;

    fn game(&self) -> &TheGame {
        &self.rules
    }

    // SCAFFOLD(issue 9)
    fn encode_move(&self, mv: &Value) -> Result<Action> {
        self.action_from_move(mv)
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
        self.settle_outcome();
        Ok(())
    }

    fn returns(&self) -> Vec<f64> {
        // 0.0 - score, not -score: a won game returns 0.0, not -0.0.
        let score = self.outcome.map_or(0.0, |o| 0.0 - f64::from(o.score));
        vec![score; self.rules.players as usize]
    }

    fn history(&self) -> &[Action] {
        &self.history
    }

    /// The piles, every hand's size and the player's own hand; never another hand.
    // SCAFFOLD(issue 9)
    fn view_of(&self, seat: Option<usize>) -> Value {
        let player = seat.unwrap_or(0);
        let piles: Vec<Value> = (0..NUM_PILES)
            .map(|p| {
                json!({
                    "direction": if ascending(p) { "ascending" } else { "descending" },
                    "top": self.tops[p],
                    "cards_played": self.pile_sizes[p],
                })
            })
            .collect();
        json!({
            "game": TheGame::NAME,
            "player": player,
            "players": self.rules.players,
            "pro": self.rules.pro,
            "current_player": self.current_player(),
            "piles": piles,
            "draw_pile_size": self.draw_pile.len(),
            "hand": self.hands[player],
            "hand_sizes": self.hands[..self.rules.players as usize].iter().map(|h| h.len()).collect::<Vec<_>>(),
            "played_this_turn": self.played_this_turn,
            "minimum": self.minimum(),
            "outcome": self.outcome,
        })
    }

    fn action_to_string(&self, action: Action) -> String {
        match decode(action) {
            Some((card, pile)) => {
                let dir = if ascending(pile) {
                    "ascending"
                } else {
                    "descending"
                };
                format!("play {card} on {dir} pile {pile}")
            }
            None if action == END_TURN => "end turn".into(),
            None => format!("invalid action {action}"),
        }
    }

    fn action_to_move(&self, action: Action) -> Value {
        match decode(action) {
            Some((card, pile)) => json!({"type": "play", "card": card, "pile": pile}),
            None if action == END_TURN => json!({"type": "end_turn"}),
            None => json!({"type": "invalid", "action": action}),
        }
    }

    fn action_from_move(&self, mv: &Value) -> Result<Action> {
        let obj = mv
            .as_object()
            .ok_or_else(|| move_error("a move is a JSON object"))?;
        let allowed: &[&str] = match obj.get("type").and_then(Value::as_str) {
            Some("play") => &["type", "card", "pile"],
            Some("end_turn") => &["type"],
            Some(other) => return Err(move_error(format!("unknown move type '{other}'"))),
            None => return Err(move_error("missing string field 'type'")),
        };
        if let Some(k) = obj.keys().find(|k| !allowed.contains(&k.as_str())) {
            return Err(move_error(format!("unexpected field '{k}'")));
        }
        if allowed.len() == 1 {
            return Ok(END_TURN);
        }
        let card = obj
            .get("card")
            .ok_or_else(|| move_error("missing field 'card'"))?;
        let card = match card.as_u64() {
            Some(c @ 2..=99) => c as u8,
            _ => {
                return Err(move_error(format!(
                    "card {card} does not exist: cards are 2-99 (T1)"
                )));
            }
        };
        let pile = obj
            .get("pile")
            .ok_or_else(|| move_error("missing field 'pile'"))?;
        let pile = match pile.as_u64() {
            Some(p @ 0..=3) => p as usize,
            _ => return Err(move_error(format!("pile {pile} does not exist: piles are 0-3"))),
        };
        Ok(play_action(card, pile))
    }

    /// The other players' hands and the draw pile are pooled, shuffled from `seed`
    /// and dealt again in the same sizes.
    fn resample(&self, player: usize, seed: u64) -> Result<State> {
        // SCAFFOLD(issue 9)
        fn old(this: &State, player: usize, seed: u64) -> State {
            let others: Vec<usize> = (0..this.rules.players as usize)
                .filter(|&p| p != player)
                .collect();
            let mut hidden: Vec<u8> = others
                .iter()
                .flat_map(|&p| this.hands[p].iter())
                .chain(this.draw_pile.iter().copied())
                .collect();
            hidden.shuffle(&mut rng::seeded(seed, rng::STREAM_RESAMPLE));
            let mut state = this.clone();
            for &p in &others {
                let n = this.hands[p].len();
                state.hands[p] = Hand::default();
                hidden.drain(..n).for_each(|c| state.hands[p].insert(c));
            }
            state.draw_pile = hidden;
            state
        }
        Ok(old(self, player, seed))
    }

    fn hand(&self, player: usize) -> Vec<String> {
        self.hands[player].iter().map(|c| c.to_string()).collect()
    }

    fn render(&self) -> String {
        let mut out = String::new();
        for p in 0..NUM_PILES {
            let arrow = if ascending(p) { "up  " } else { "down" };
            let _ = writeln!(
                out,
                "pile {p} {arrow} top {:>3} ({} played)",
                self.tops[p], self.pile_sizes[p]
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
        out
    }
}
