//! The game state of Schotten Totten: deal, turns, claims, winning and the settlement.

use std::fmt::Write as _;

use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::cards::{Card, CardSet, NUM_CARDS};
use super::formation::{ClaimCheck, check_claim};
use crate::error::{Error, IllegalAction, Result};
use crate::game::{Action, Game, GameState, parse_state, reject_unknown_options, winner_returns};
use crate::meta::{OptionSpec, Utility};
use crate::rng;

pub const NUM_STONES: usize = 9;
const HAND_SIZE: usize = 6;
const CLAIM_BASE: Action = NUM_CARDS as Action * NUM_STONES as Action;
pub const PASS: Action = CLAIM_BASE + NUM_STONES as Action;
pub const END_TURN: Action = PASS + 1;
pub const NUM_ACTIONS: usize = END_TURN as usize + 1;

/// The action that plays `card` at `stone`.
pub const fn play_action(card: Card, stone: usize) -> Action {
    card.index() as Action * NUM_STONES as Action + stone as Action
}

/// The action that claims `stone`.
pub const fn claim_action(stone: usize) -> Action {
    CLAIM_BASE + stone as Action
}

/// An action id taken apart.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Move {
    Play(Card, usize),
    Claim(usize),
    Pass,
    EndTurn,
}

impl Move {
    fn decode(action: Action) -> Option<Move> {
        Some(match action {
            a if a < CLAIM_BASE => {
                let stone = (a % NUM_STONES as Action) as usize;
                Move::Play(Card::from_index((a / NUM_STONES as Action) as u8), stone)
            }
            a if a < PASS => Move::Claim((a - CLAIM_BASE) as usize),
            PASS => Move::Pass,
            END_TURN => Move::EndTurn,
            _ => return None,
        })
    }

    fn encode(self) -> Action {
        match self {
            Move::Play(card, stone) => play_action(card, stone),
            Move::Claim(stone) => claim_action(stone),
            Move::Pass => PASS,
            Move::EndTurn => END_TURN,
        }
    }
}

/// The rules with their options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SchottenTotten {
    /// The player who moves first (S2).
    pub first_player: u8,
}

impl Game for SchottenTotten {
    // SCAFFOLD(issue 9): replaced by the typed view and move enum.
    type View = Value;
    type Move = Value;
    type State = State;
    const NAME: &'static str = "schotten_totten";

    fn from_options(options: &Map<String, Value>) -> Result<Self> {
        reject_unknown_options(Self::NAME, options, &["first_player"])?;
        let mut game = Self::default();
        if let Some(v) = options.get("first_player") {
            game.first_player = match v.as_u64() {
                Some(p @ (0 | 1)) => p as u8,
                _ => {
                    return Err(Error::InvalidOption {
                        game: Self::NAME,
                        message: format!("first_player must be 0 or 1, got {v}"),
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
            history: Vec::new(),
        }
    }

    fn state_from_json(&self, json: &str) -> Result<State> {
        let state: State = parse_state(json, "Schotten Totten", self, |s: &State| &s.rules)?;
        state.validate()?;
        Ok(state)
    }
}

/// One player's cards at one stone, in the order they were played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Side {
    cards: [Card; 3],
    len: u8,
}

impl Default for Side {
    fn default() -> Self {
        Side {
            cards: [Card::from_index(0); 3],
            len: 0,
        }
    }
}

impl Side {
    pub fn cards(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }
    pub fn len(&self) -> usize {
        self.len as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn is_complete(&self) -> bool {
        self.len == 3
    }
    fn push(&mut self, card: Card) {
        self.cards[self.len as usize] = card;
        self.len += 1;
    }
    fn sum(&self) -> u32 {
        self.cards().iter().map(|c| u32::from(c.value())).sum()
    }
    fn complete(&self) -> [Card; 3] {
        debug_assert!(self.is_complete());
        self.cards
    }
}

impl Serialize for Side {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.cards())
    }
}

impl<'de> Deserialize<'de> for Side {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Side, D::Error> {
        let cards = Vec::<Card>::deserialize(d)?;
        if cards.len() > 3 {
            return Err(serde::de::Error::custom(format!(
                "a side of a stone holds at most 3 cards, got {}",
                cards.len()
            )));
        }
        let mut side = Side::default();
        cards.into_iter().for_each(|c| side.push(c));
        Ok(side)
    }
}

/// How a stone came to its owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Award {
    /// Claimed during play (S3b, S5).
    Claim,
    /// Settlement step 1: provable (S9).
    SettlementProof,
    /// Settlement step 2: the only complete side (S9).
    SettlementComplete,
    /// Settlement step 3: more cards, then the higher sum (S9).
    SettlementCount,
}

/// A stone with both sides.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stone {
    pub sides: [Side; 2],
    pub owner: Option<u8>,
    pub award: Option<Award>,
    /// The player whose side was complete first: S4's tie-break.
    pub completed_first: Option<u8>,
}

/// Where in a turn the game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// S3a: play a card, or pass if none can be played.
    Play,
    /// S3b: claim provable stones one at a time, or end the turn.
    Claim,
    /// The game is over.
    Over,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    FiveStones,
    ThreeAdjacent,
    Settlement,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// `None` for a draw (only possible after the settlement).
    pub winner: Option<u8>,
    pub reason: EndReason,
}

/// A position of Schotten Totten. Serialized as readable JSON (cards in notation).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    rules: SchottenTotten,
    /// The draw pile; the next card drawn is the last.
    pile: Vec<Card>,
    hands: [CardSet; 2],
    stones: [Stone; NUM_STONES],
    current: u8,
    phase: Phase,
    /// Whether the current turn began with a pass (S3a).
    turn_passed: bool,
    /// How many turns in a row ended after a pass (S9 settles at two).
    passes_in_row: u8,
    outcome: Option<Outcome>,
    history: Vec<Action>,
}

impl State {
    pub fn stones(&self) -> &[Stone; NUM_STONES] {
        &self.stones
    }
    pub fn hand_set(&self, player: usize) -> CardSet {
        self.hands[player]
    }
    pub fn pile(&self) -> &[Card] {
        &self.pile
    }
    pub fn phase(&self) -> Phase {
        self.phase
    }
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Every card lying at any stone (S5: these are used up).
    pub fn table(&self) -> CardSet {
        let mut table = CardSet::EMPTY;
        for stone in &self.stones {
            for side in &stone.sides {
                for &card in side.cards() {
                    table.insert(card);
                }
            }
        }
        table
    }

    /// The claim proof (S5) for `player` at `stone` as the position stands.
    /// `None` if the player does not have three cards there.
    pub fn claim_check(&self, stone: usize, player: usize) -> Option<ClaimCheck> {
        self.proof(stone, player, CardSet::ALL.minus(self.table()))
    }

    /// S5 with the available cards already known (the hot path computes them once).
    fn proof(&self, stone: usize, player: usize, available: CardSet) -> Option<ClaimCheck> {
        let s = &self.stones[stone];
        let mine = &s.sides[player];
        mine.is_complete().then(|| {
            check_claim(
                mine.complete(),
                s.sides[1 - player].cards(),
                available,
                s.completed_first == Some(player as u8),
            )
        })
    }

    fn claimable(&self, stone: usize, player: usize, available: CardSet) -> bool {
        self.stones[stone].owner.is_none() && self.proof(stone, player, available).is_some_and(|c| c.provable)
    }

    fn any_claimable(&self, player: usize) -> bool {
        let available = CardSet::ALL.minus(self.table());
        (0..NUM_STONES).any(|s| self.claimable(s, player, available))
    }

    /// Stones where `player` may place a card: unowned, fewer than three of theirs (S3a).
    fn open_stones(&self, player: usize) -> impl Iterator<Item = usize> + '_ {
        (0..NUM_STONES)
            .filter(move |&s| self.stones[s].owner.is_none() && !self.stones[s].sides[player].is_complete())
    }

    fn can_play(&self, player: usize) -> bool {
        !self.hands[player].is_empty() && self.open_stones(player).next().is_some()
    }

    fn check(&self, mv: Move) -> Result<(), IllegalAction> {
        let me = self.current as usize;
        if let Some(outcome) = self.outcome {
            let rule = if outcome.reason == EndReason::Settlement {
                "S9"
            } else {
                "S7"
            };
            return Err(IllegalAction::untyped(rule, "the game is over"));
        }
        match mv {
            Move::Play(card, stone) => {
                if self.phase != Phase::Play {
                    return Err(IllegalAction::untyped(
                        "S3",
                        "a card was already played (or passed) this turn; claim a stone or end the turn",
                    ));
                }
                if !self.hands[me].contains(card) {
                    return Err(IllegalAction::untyped(
                        "S3a",
                        format!("{card} is not in player {me}'s hand"),
                    ));
                }
                let s = &self.stones[stone];
                if let Some(owner) = s.owner {
                    return Err(IllegalAction::untyped(
                        "S3a",
                        format!(
                            "stone {stone} is already owned by player {owner}; cards go to unowned stones only"
                        ),
                    ));
                }
                if s.sides[me].is_complete() {
                    return Err(IllegalAction::untyped(
                        "S3a",
                        format!(
                            "player {me} already has three cards at stone {stone}; at most three per side"
                        ),
                    ));
                }
                Ok(())
            }
            Move::Pass => {
                if self.phase != Phase::Play {
                    return Err(IllegalAction::untyped(
                        "S3",
                        "a card was already played (or passed) this turn",
                    ));
                }
                if self.can_play(me) {
                    return Err(IllegalAction::untyped(
                        "S3a",
                        format!(
                            "player {me} can still play a card, and passing is allowed only when no card can be played"
                        ),
                    ));
                }
                Ok(())
            }
            Move::Claim(stone) => {
                if self.phase != Phase::Claim {
                    return Err(IllegalAction::untyped(
                        "S3b",
                        "claims come after playing a card (or passing) and only when a stone is provable",
                    ));
                }
                let s = &self.stones[stone];
                if let Some(owner) = s.owner {
                    return Err(IllegalAction::untyped(
                        "S3b",
                        format!("stone {stone} is already owned by player {owner}"),
                    ));
                }
                let Some(check) = self.claim_check(stone, me) else {
                    return Err(IllegalAction::untyped(
                        "S5",
                        format!(
                            "player {me} has {} card(s) at stone {stone}; a claim needs the claimant's three cards there",
                            s.sides[me].len()
                        ),
                    ));
                };
                if !check.provable {
                    let best = check.best.expect("a refuted claim has a better completion");
                    let cards: Vec<String> = best.cards.iter().map(Card::to_string).collect();
                    return Err(IllegalAction::untyped(
                        "S5",
                        format!(
                            "stone {stone} is not provable: the other side can still reach {} with {}, which beats {}",
                            best.formation,
                            cards.join(" "),
                            check.mine
                        ),
                    ));
                }
                Ok(())
            }
            Move::EndTurn => {
                if self.phase != Phase::Claim {
                    return Err(IllegalAction::untyped(
                        "S3",
                        "play a card (or pass) before ending the turn",
                    ));
                }
                Ok(())
            }
        }
    }

    fn apply_checked(&mut self, mv: Move) {
        let me = self.current as usize;
        self.history.push(mv.encode());
        match mv {
            Move::Play(card, stone) => {
                self.hands[me].remove(card);
                let s = &mut self.stones[stone];
                s.sides[me].push(card);
                if s.sides[me].is_complete() && s.completed_first.is_none() {
                    s.completed_first = Some(me as u8);
                }
                self.turn_passed = false;
                self.after_play_or_pass();
            }
            Move::Pass => {
                self.turn_passed = true;
                self.after_play_or_pass();
            }
            Move::Claim(stone) => {
                self.stones[stone].owner = Some(me as u8);
                self.stones[stone].award = Some(Award::Claim);
                if let Some(reason) = self.winning_reason(me) {
                    self.finish(Some(me as u8), reason);
                } else if !self.any_claimable(me) {
                    self.end_turn();
                }
            }
            Move::EndTurn => self.end_turn(),
        }
    }

    fn after_play_or_pass(&mut self) {
        if self.any_claimable(self.current as usize) {
            self.phase = Phase::Claim;
        } else {
            self.end_turn();
        }
    }

    /// S7: five stones, or three adjacent ones.
    fn winning_reason(&self, player: usize) -> Option<EndReason> {
        let owned: Vec<bool> = self
            .stones
            .iter()
            .map(|s| s.owner == Some(player as u8))
            .collect();
        if owned.iter().filter(|&&o| o).count() >= 5 {
            Some(EndReason::FiveStones)
        } else if owned.windows(3).any(|w| w.iter().all(|&o| o)) {
            Some(EndReason::ThreeAdjacent)
        } else {
            None
        }
    }

    /// S3c and S8: draw if the pile has cards; S9: two passing turns in a row settle.
    fn end_turn(&mut self) {
        let me = self.current as usize;
        if let Some(card) = self.pile.pop() {
            self.hands[me].insert(card);
        }
        self.passes_in_row = if self.turn_passed {
            self.passes_in_row + 1
        } else {
            0
        };
        self.turn_passed = false;
        if self.passes_in_row >= 2 {
            self.settle();
        } else {
            self.current = 1 - self.current;
            self.phase = Phase::Play;
        }
    }

    /// S9: the settlement. S7 is not applied; step 4 alone decides.
    fn settle(&mut self) {
        let available = CardSet::ALL.minus(self.table());
        for stone in 0..NUM_STONES {
            if self.stones[stone].owner.is_some() {
                continue;
            }
            // Step 1: provable stones (at most one side can prove a stone).
            let provable = (0..2).find(|&p| self.claimable(stone, p, available));
            let s = &mut self.stones[stone];
            let [a, b] = &s.sides;
            let award = if let Some(p) = provable {
                Some((p as u8, Award::SettlementProof))
            } else if a.is_complete() != b.is_complete() {
                // Step 2: exactly one complete side.
                Some((u8::from(b.is_complete()), Award::SettlementComplete))
            } else if !a.is_complete() && !b.is_complete() {
                // Step 3: more cards, then the higher sum; otherwise unowned.
                match (a.len(), a.sum()).cmp(&(b.len(), b.sum())) {
                    std::cmp::Ordering::Greater => Some((0, Award::SettlementCount)),
                    std::cmp::Ordering::Less => Some((1, Award::SettlementCount)),
                    std::cmp::Ordering::Equal => None,
                }
            } else {
                None
            };
            if let Some((owner, how)) = award {
                s.owner = Some(owner);
                s.award = Some(how);
            }
        }
        // Step 4: more stones wins; equal counts draw.
        let count = |p: u8| self.stones.iter().filter(|s| s.owner == Some(p)).count();
        let winner = match count(0).cmp(&count(1)) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        self.finish(winner, EndReason::Settlement);
    }

    fn finish(&mut self, winner: Option<u8>, reason: EndReason) {
        self.outcome = Some(Outcome { winner, reason });
        self.phase = Phase::Over;
    }

    /// Checks what JSON cannot: every card exactly once, sides and owners consistent.
    fn validate(&self) -> Result<()> {
        let bad = |m: String| Err(Error::InvalidState(m));
        let mut seen = CardSet::EMPTY;
        let mut count = 0;
        let places = self
            .pile
            .iter()
            .copied()
            .chain(self.hands.iter().flat_map(|h| h.iter()))
            .chain(
                self.stones
                    .iter()
                    .flat_map(|s| s.sides.iter().flat_map(|d| d.cards().iter().copied())),
            );
        for card in places {
            if seen.contains(card) {
                return bad(format!(
                    "card {card} appears twice; each of the 54 cards exists once"
                ));
            }
            seen.insert(card);
            count += 1;
        }
        if count != NUM_CARDS {
            let missing: Vec<String> = CardSet::ALL.minus(seen).iter().map(|c| c.to_string()).collect();
            return bad(format!(
                "cards missing from pile, hands and stones: {}",
                missing.join(" ")
            ));
        }
        if self.current > 1 {
            return bad(format!("current player {} is not 0 or 1", self.current));
        }
        for (i, s) in self.stones.iter().enumerate() {
            if s.owner.is_some_and(|o| o > 1) {
                return bad(format!("stone {i}: owner must be 0 or 1"));
            }
            if s.owner.is_some() != s.award.is_some() {
                return bad(format!(
                    "stone {i}: an owned stone says how it was won (award), an unowned one does not"
                ));
            }
            let complete: Vec<u8> = (0..2).filter(|&p| s.sides[p as usize].is_complete()).collect();
            let first_ok = match s.completed_first {
                None => complete.is_empty(),
                Some(p) => complete.contains(&p),
            };
            if !first_ok {
                return bad(format!(
                    "stone {i}: completed_first must name a complete side (or be null if none is)"
                ));
            }
            if s.award == Some(Award::Claim) && !s.sides[s.owner.unwrap() as usize].is_complete() {
                return bad(format!(
                    "stone {i}: a claimed stone has the claimant's three cards"
                ));
            }
        }
        if let Some(a) = self.history.iter().find(|&&a| a as usize >= NUM_ACTIONS) {
            return bad(format!("history holds action {a}, outside 0..{NUM_ACTIONS}"));
        }
        if (self.phase == Phase::Over) != self.outcome.is_some() {
            return bad("phase is 'over' exactly when there is an outcome".into());
        }
        if self.passes_in_row > 1 && self.outcome.is_none() {
            return bad("two passing turns in a row end the game (S9)".into());
        }
        Ok(())
    }

    fn move_to_json(mv: Move) -> Value {
        match mv {
            Move::Play(card, stone) => json!({"type": "play", "card": card.to_string(), "stone": stone}),
            Move::Claim(stone) => json!({"type": "claim", "stone": stone}),
            Move::Pass => json!({"type": "pass"}),
            Move::EndTurn => json!({"type": "end_turn"}),
        }
    }

    fn stone_json(&self, stone: &Stone) -> Value {
        json!({
            "cards": stone.sides,
            "owner": stone.owner,
            "award": stone.award,
            "completed_first": stone.completed_first,
        })
    }
}

const MOVE_SYNTAX: &str = r#"moves are {"type": "play", "card": "B5", "stone": 0-8}, {"type": "claim", "stone": 0-8}, {"type": "pass"} or {"type": "end_turn"}"#;

fn move_error(what: impl std::fmt::Display) -> Error {
    Error::InvalidMove(format!("{what}; {MOVE_SYNTAX}"))
}

fn stone_field(mv: &Map<String, Value>) -> Result<usize> {
    let v = mv
        .get("stone")
        .ok_or_else(|| move_error("missing field 'stone'"))?;
    match v.as_u64() {
        Some(s) if (s as usize) < NUM_STONES => Ok(s as usize),
        _ => Err(move_error(format!(
            "stone {v} does not exist: stones are numbered 0-8 (S1)"
        ))),
    }
}

fn expect_fields(mv: &Map<String, Value>, allowed: &[&str]) -> Result<()> {
    match mv.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(k) => Err(move_error(format!("unexpected field '{k}'"))),
        None => Ok(()),
    }
}

impl GameState for State {
    type Game = SchottenTotten;

    fn game(&self) -> &SchottenTotten {
        &self.rules
    }

    // SCAFFOLD(issue 9)
    fn encode_move(&self, mv: &Value) -> Result<Action> {
        self.action_from_move(mv)
    }
    fn current_player(&self) -> Option<usize> {
        (self.phase != Phase::Over).then_some(self.current as usize)
    }

    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        let me = self.current as usize;
        match self.phase {
            Phase::Over => {}
            Phase::Play => {
                let mut open = [0 as Action; NUM_STONES];
                let mut n = 0;
                for s in self.open_stones(me) {
                    open[n] = s as Action;
                    n += 1;
                }
                for card in self.hands[me].iter() {
                    let base = play_action(card, 0);
                    out.extend(open[..n].iter().map(|s| base + s));
                }
                if out.is_empty() {
                    out.push(PASS);
                }
            }
            Phase::Claim => {
                let available = CardSet::ALL.minus(self.table());
                out.extend(
                    (0..NUM_STONES)
                        .filter(|&s| self.claimable(s, me, available))
                        .map(claim_action),
                );
                out.push(END_TURN);
            }
        }
    }

    fn check_action(&self, action: Action) -> Result<(), IllegalAction> {
        match Move::decode(action) {
            Some(mv) => self.check(mv),
            None => Err(IllegalAction::no_such_action(action, NUM_ACTIONS)),
        }
    }

    fn apply_action(&mut self, action: Action) -> Result<(), IllegalAction> {
        self.check_action(action)?;
        self.apply_checked(Move::decode(action).expect("checked"));
        Ok(())
    }

    fn returns(&self) -> Vec<f64> {
        winner_returns(2, self.outcome.and_then(|o| o.winner).map(usize::from), |p| p)
    }

    fn history(&self) -> &[Action] {
        &self.history
    }

    /// The stones, both sides' cards, owners, the pile's size, every hand's size and
    /// the player's own hand; never the other hand or the pile's order.
    // SCAFFOLD(issue 9)
    fn view_of(&self, seat: Option<usize>) -> Value {
        let player = seat.unwrap_or(0);
        json!({
            "game": SchottenTotten::NAME,
            "player": player,
            "current_player": self.current_player(),
            "phase": self.phase,
            "hand": self.hands[player],
            "hand_sizes": [self.hands[0].len(), self.hands[1].len()],
            "pile_size": self.pile.len(),
            "stones": self.stones.iter().map(|s| self.stone_json(s)).collect::<Vec<_>>(),
            "turn_passed": self.turn_passed,
            "passes_in_row": self.passes_in_row,
            "outcome": self.outcome,
        })
    }

    fn action_to_string(&self, action: Action) -> String {
        match Move::decode(action) {
            Some(Move::Play(card, stone)) => format!("play {card} at stone {stone}"),
            Some(Move::Claim(stone)) => format!("claim stone {stone}"),
            Some(Move::Pass) => "pass".into(),
            Some(Move::EndTurn) => "end turn".into(),
            None => format!("invalid action {action}"),
        }
    }

    fn action_to_move(&self, action: Action) -> Value {
        match Move::decode(action) {
            Some(mv) => Self::move_to_json(mv),
            None => json!({"type": "invalid", "action": action}),
        }
    }

    fn action_from_move(&self, mv: &Value) -> Result<Action> {
        let obj = mv
            .as_object()
            .ok_or_else(|| move_error("a move is a JSON object"))?;
        let kind = obj
            .get("type")
            .and_then(Value::as_str)
            .ok_or_else(|| move_error("missing string field 'type'"))?;
        let mv = match kind {
            "play" => {
                expect_fields(obj, &["type", "card", "stone"])?;
                let card = obj
                    .get("card")
                    .and_then(Value::as_str)
                    .ok_or_else(|| move_error("missing string field 'card'"))?
                    .parse::<Card>()?;
                Move::Play(card, stone_field(obj)?)
            }
            "claim" => {
                expect_fields(obj, &["type", "stone"])?;
                Move::Claim(stone_field(obj)?)
            }
            "pass" => {
                expect_fields(obj, &["type"])?;
                Move::Pass
            }
            "end_turn" => {
                expect_fields(obj, &["type"])?;
                Move::EndTurn
            }
            other => return Err(move_error(format!("unknown move type '{other}'"))),
        };
        Ok(mv.encode())
    }

    /// The other hand and the pile are hidden from `player`: they are pooled,
    /// shuffled from `seed` and dealt again in the same sizes.
    fn resample(&self, player: usize, seed: u64) -> Result<State> {
        // SCAFFOLD(issue 9)
        fn old(this: &State, player: usize, seed: u64) -> State {
            let other = 1 - player;
            let mut hidden: Vec<Card> = this.hands[other]
                .iter()
                .chain(this.pile.iter().copied())
                .collect();
            hidden.shuffle(&mut rng::seeded(seed, rng::STREAM_RESAMPLE));
            let mut state = this.clone();
            let hand_size = this.hands[other].len() as usize;
            state.pile = hidden.split_off(hand_size);
            state.hands[other] = hidden.into_iter().collect();
            state
        }
        Ok(old(self, player, seed))
    }

    fn hand(&self, player: usize) -> Vec<String> {
        self.hands[player].iter().map(|c| c.to_string()).collect()
    }

    fn render(&self) -> String {
        let mut out = String::new();
        let side = |s: &Side| {
            let mut cards: Vec<String> = s.cards().iter().map(Card::to_string).collect();
            cards.resize(3, "..".into());
            cards.join(" ")
        };
        let _ = writeln!(out, "stone  player 0    player 1    owner");
        for (i, s) in self.stones.iter().enumerate() {
            let owner = match (s.owner, s.award) {
                (Some(p), Some(how)) => format!(
                    "player {p} ({})",
                    serde_json::to_value(how).unwrap().as_str().unwrap()
                ),
                _ => "-".into(),
            };
            // S1: stones are shown 1-9 on screen.
            let _ = writeln!(
                out,
                "  {}    {}    {}    {owner}",
                i + 1,
                side(&s.sides[0]),
                side(&s.sides[1])
            );
        }
        for p in 0..2 {
            let _ = writeln!(out, "hand {p}: {}", self.hand(p).join(" "));
        }
        let _ = write!(out, "pile: {} cards", self.pile.len());
        out
    }
}
