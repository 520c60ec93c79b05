//! The position of Schotten Totten and applying moves: turns, claims, winning and the
//! settlement (S3, S7-S9).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::cards::{Card, CardSet};
use super::codec::{Decoded, Move, NUM_ACTIONS};
use super::formation::{ClaimCheck, check_claim};
use super::rules::{NUM_STONES, SchottenTotten};
use super::view::View;
use crate::error::{IllegalAction, Result};
use crate::game::{Action, GameState, Lang, winner_returns};

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
    /// The cards as a set, without a branch per card (the tensor and [`State::table`]
    /// read all 18 sides on every call): slot `i` counts while `i < len`.
    pub fn set(&self) -> CardSet {
        let mut bits = 0;
        for (i, card) in self.cards.iter().enumerate() {
            bits |= card.bit() & 0u64.wrapping_sub(u64::from(i < usize::from(self.len)));
        }
        CardSet(bits)
    }
    /// The three slots and how many of them hold cards (the rest hold card 0): the
    /// tensor writes all three without a branch per card.
    pub(super) fn slots(self) -> ([Card; 3], usize) {
        (self.cards, usize::from(self.len))
    }
    fn push(&mut self, card: Card) {
        self.cards[self.len as usize] = card;
        self.len += 1;
    }
    pub(super) fn sum(self) -> u32 {
        self.cards().iter().map(|c| u32::from(c.value())).sum()
    }
    fn complete(self) -> [Card; 3] {
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
            let n = cards.len();
            return Err(crate::error::custom(crate::msg!(
                "a side of a stone holds at most 3 cards, got {n}",
                "eine Seite eines Steins hält höchstens 3 Karten, nicht {n}"
            )));
        }
        let mut side = Side::default();
        for c in cards {
            side.push(c);
        }
        Ok(side)
    }
}

impl JsonSchema for Side {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "SchottenTottenSide".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let card = generator.subschema_for::<Card>();
        schemars::json_schema!({
            "type": "array",
            "description": "one player's cards at one stone in the order they were played: at most three (S3a)",
            "items": card,
            "maxItems": 3,
            "uniqueItems": true,
        })
    }
}

/// How a stone came to its owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "SchottenTottenAward")]
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

impl Award {
    pub const fn name(self) -> &'static str {
        match self {
            Award::Claim => "claim",
            Award::SettlementProof => "settlement_proof",
            Award::SettlementComplete => "settlement_complete",
            Award::SettlementCount => "settlement_count",
        }
    }
}

/// A stone with both sides.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stone {
    pub sides: [Side; 2],
    pub owner: Option<u8>,
    pub award: Option<Award>,
    /// The player whose side was complete first: S4's tie-break.
    pub completed_first: Option<u8>,
}

/// Where in a turn the game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "SchottenTottenPhase")]
pub enum Phase {
    /// S3a: play a card, or pass if none can be played.
    Play,
    /// S3b: claim provable stones one at a time, or end the turn.
    Claim,
    /// The game is over.
    Over,
}

impl Phase {
    pub const fn name(self) -> &'static str {
        match self {
            Phase::Play => "play",
            Phase::Claim => "claim",
            Phase::Over => "over",
        }
    }
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "SchottenTottenEndReason")]
pub enum EndReason {
    /// S7: the winner claimed a fifth stone.
    FiveStones,
    /// S7: the winner claimed three adjacent stones (i, i+1, i+2).
    ThreeAdjacent,
    /// S9: two passing turns in a row; the player with more stones wins.
    Settlement,
}

impl EndReason {
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::FiveStones => "five_stones",
            EndReason::ThreeAdjacent => "three_adjacent",
            EndReason::Settlement => "settlement",
        }
    }
}

/// How the game ended: always derived from the stones and counters (S7, S9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "SchottenTottenOutcome")]
pub struct Outcome {
    /// The winning player (0 or 1); null for a draw (only after the settlement).
    #[schemars(range(max = 1))]
    pub winner: Option<u8>,
    /// Why the game ended.
    pub reason: EndReason,
}

/// A position of Schotten Totten. Serialized as readable JSON (cards in notation).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    pub(super) rules: SchottenTotten,
    /// The draw pile; the next card drawn is the last.
    pub(super) pile: Vec<Card>,
    pub(super) hands: [CardSet; 2],
    pub(super) stones: [Stone; NUM_STONES],
    /// The player whose turn it is; once the game is over, the one who made the last turn.
    pub(super) current: u8,
    pub(super) phase: Phase,
    /// Whether the current turn began with a pass (S3a).
    pub(super) turn_passed: bool,
    /// How many turns in a row ended after a pass (S9 settles at two).
    pub(super) passes_in_row: u8,
    pub(super) outcome: Option<Outcome>,
    pub(super) history: crate::history::History,
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
                table = table.union(side.set());
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
    pub(super) fn proof(&self, stone: usize, player: usize, available: CardSet) -> Option<ClaimCheck> {
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

    pub(super) fn claimable(&self, stone: usize, player: usize, available: CardSet) -> bool {
        self.stones[stone].owner.is_none() && self.proof(stone, player, available).is_some_and(|c| c.provable)
    }

    pub(super) fn any_claimable(&self, player: usize) -> bool {
        let available = CardSet::ALL.minus(self.table());
        (0..NUM_STONES).any(|s| self.claimable(s, player, available))
    }

    /// Stones where `player` may place a card: unowned, fewer than three of theirs (S3a).
    pub(super) fn open_stones(&self, player: usize) -> impl Iterator<Item = usize> + '_ {
        (0..NUM_STONES)
            .filter(move |&s| self.stones[s].owner.is_none() && !self.stones[s].sides[player].is_complete())
    }

    pub(super) fn can_play(&self, player: usize) -> bool {
        !self.hands[player].is_empty() && self.open_stones(player).next().is_some()
    }

    fn apply_checked(&mut self, action: Action, mv: Decoded) {
        let me = self.current as usize;
        self.history.push(action);
        match mv {
            Move::Play { card, stone } => {
                self.hands[me].remove(card);
                let s = &mut self.stones[stone as usize];
                s.sides[me].push(card);
                if s.sides[me].is_complete() && s.completed_first.is_none() {
                    s.completed_first = Some(me as u8);
                }
                self.turn_passed = false;
                self.after_play_or_pass();
            }
            Move::Pass {} => {
                self.turn_passed = true;
                self.after_play_or_pass();
            }
            Move::Claim { stone } => {
                let stone = stone as usize;
                self.stones[stone].owner = Some(me as u8);
                self.stones[stone].award = Some(Award::Claim);
                if let Some(reason) = self.winning_reason(me) {
                    self.finish(Some(me as u8), reason);
                } else if !self.any_claimable(me) {
                    self.end_turn();
                }
            }
            Move::EndTurn {} => self.end_turn(),
        }
    }

    fn after_play_or_pass(&mut self) {
        if self.any_claimable(self.current as usize) {
            self.phase = Phase::Claim;
        } else {
            self.end_turn();
        }
    }

    /// S7: five stones, or three adjacent ones (stones do not wrap: 8-9-1 is not adjacent).
    pub(super) fn winning_reason(&self, player: usize) -> Option<EndReason> {
        let owned = self
            .stones
            .iter()
            .enumerate()
            .filter(|(_, s)| s.owner == Some(player as u8))
            .fold(0u16, |mask, (i, _)| mask | 1 << i);
        if owned.count_ones() >= 5 {
            Some(EndReason::FiveStones)
        } else if owned & (owned >> 1) & (owned >> 2) != 0 {
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
    pub(super) fn settle(&mut self) {
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
}

impl GameState for State {
    type Game = SchottenTotten;

    fn game(&self) -> &SchottenTotten {
        &self.rules
    }

    fn current_player(&self) -> Option<usize> {
        (self.phase != Phase::Over).then_some(self.current as usize)
    }

    /// The same moves as [`State::check`] allows, generated per open stone (`legal.rs`).
    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        self.generate_legal(out);
    }

    fn check_action(&self, action: Action) -> Result<(), IllegalAction> {
        match Decoded::decode(action) {
            Some(mv) => self.check(mv),
            None => Err(IllegalAction::no_such_action(action, NUM_ACTIONS)),
        }
    }

    fn apply_action(&mut self, action: Action) -> Result<(), IllegalAction> {
        let Some(mv) = Decoded::decode(action) else {
            return Err(IllegalAction::no_such_action(action, NUM_ACTIONS));
        };
        self.check(mv)?;
        self.apply_checked(action, mv);
        Ok(())
    }

    fn returns(&self) -> Vec<f64> {
        winner_returns(2, self.outcome.and_then(|o| o.winner).map(usize::from), |p| p)
    }

    /// Why the game ended, e.g. "player 2 wins: three adjacent stones (4-5-6)" (`text.rs`).
    fn result_text_named(&self, lang: Lang, names: &crate::names::Names) -> Option<String> {
        self.result_line(lang, names)
    }

    fn history(&self) -> &crate::history::History {
        &self.history
    }

    /// See [`View`]. A seat other than 0 or 1 sees what a spectator sees.
    fn view_of(&self, seat: Option<usize>) -> View {
        super::view::view_of(self, seat.filter(|&p| p < 2))
    }

    /// The view's JSON bytes as serde writes them, by a writer made for this view (views
    /// are served per request and are the search's information-state keys). Like `view`
    /// and `public_view` it carries the stones' facts (S5, S6; `super::facts`), which
    /// `view_of` (bots, tensors) leaves out.
    fn view_json(&self, seat: Option<usize>) -> Vec<u8> {
        super::view::view_json(self, seat.filter(|&p| p < 2), true)
    }

    fn view(&self, player: usize) -> serde_json::Value {
        let view = super::view::view_with_facts(self, Some(player).filter(|&p| p < 2));
        serde_json::to_value(view).expect("a view always serializes")
    }

    fn public_view(&self) -> serde_json::Value {
        serde_json::to_value(super::view::view_with_facts(self, None)).expect("a view always serializes")
    }

    /// The action for people (`text.rs`).
    fn action_text(&self, action: Action, lang: Lang) -> String {
        Self::action_line(action, lang)
    }

    /// The [`Move`] of the action as JSON; an id outside the action space gives
    /// `{"type": "invalid", "action": id}`, which no move parses to.
    fn action_to_move(&self, action: Action) -> Value {
        match Decoded::decode(action).map(serde_json::to_value) {
            Some(Ok(mv)) => mv,
            _ => json!({"type": "invalid", "action": action}),
        }
    }

    fn encode_move(&self, mv: &Move) -> Result<Action> {
        mv.encode()
    }

    /// The player's hand in card order; empty for a seat other than 0 or 1.
    fn hand(&self, player: usize) -> Vec<String> {
        let hand = self.hands.get(player).copied().unwrap_or_default();
        hand.iter().map(|c| c.to_string()).collect()
    }

    fn render_for(&self, seat: Option<usize>, lang: Lang) -> String {
        self.render_text(seat, lang)
    }
}
