//! The game state of Schotten Totten: deal, turns, claims, winning and the settlement.

use std::fmt::Write as _;

use rand::seq::SliceRandom;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::cards::{Card, CardSet, NUM_CARDS};
use super::formation::{ClaimCheck, check_claim};
use super::view::View;
use crate::error::{Error, IllegalAction, Result, shorten};
use crate::game::{Action, Game, GameState, parse_state, reject_unknown_options, winner_returns};
use crate::meta::{OptionSpec, Utility};
use crate::rng;

pub const NUM_STONES: usize = 9;
pub(super) const HAND_SIZE: usize = 6;
/// The pile after the deal (S2): 54 cards minus two hands of six.
pub(super) const PILE_SIZE: usize = NUM_CARDS as usize - 2 * HAND_SIZE;
/// See [`SchottenTotten::max_game_length`].
pub const MAX_GAME_LENGTH: u64 = 227;
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

/// A move as JSON (README "Turns and actions"): `{"type": "play", "card": "B5", "stone": 3}`,
/// `{"type": "claim", "stone": 3}`, `{"type": "pass"}` or `{"type": "end_turn"}`.
/// Stones are 0-8 here and in every API, 1-9 on screen (S1).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[schemars(rename = "SchottenTottenMove")]
pub enum Move {
    /// S3a: play a card from the hand onto the mover's side of an unowned stone.
    Play {
        /// A card in the mover's hand.
        card: Card,
        /// The stone, 0-8 (shown as 1-9).
        #[schemars(range(max = 8))]
        stone: u8,
    },
    /// S3b: claim a stone whose win is proven (S5), after playing a card or passing.
    Claim {
        /// The stone, 0-8 (shown as 1-9).
        #[schemars(range(max = 8))]
        stone: u8,
    },
    /// S3a: sit the turn out; allowed only when no card can be played.
    // `Pass {}` and `EndTurn {}` rather than unit variants: serde's internally tagged
    // unit variants ignore unknown fields, struct variants refuse them.
    Pass {},
    /// S3b: end the turn without (further) claims; the draw follows (S3c).
    EndTurn {},
}

impl Move {
    /// The move of an action id; `None` outside the action space.
    pub fn decode(action: Action) -> Option<Move> {
        Some(match action {
            a if a < CLAIM_BASE => Move::Play {
                card: Card::from_index((a / NUM_STONES as Action) as u8),
                stone: (a % NUM_STONES as Action) as u8,
            },
            a if a < PASS => Move::Claim {
                stone: (a - CLAIM_BASE) as u8,
            },
            PASS => Move::Pass {},
            END_TURN => Move::EndTurn {},
            _ => return None,
        })
    }

    /// The action id; a stone outside 0-8 is refused with what is allowed.
    pub fn encode(self) -> Result<Action> {
        let stone_ok = |stone: u8| {
            if (stone as usize) < NUM_STONES {
                Ok(stone as usize)
            } else {
                Err(Error::InvalidMove(format!(
                    "stone {stone} does not exist: stones are numbered 0-8 (S1; shown as 1-9)"
                )))
            }
        };
        Ok(match self {
            Move::Play { card, stone } => play_action(card, stone_ok(stone)?),
            Move::Claim { stone } => claim_action(stone_ok(stone)?),
            Move::Pass {} => PASS,
            Move::EndTurn {} => END_TURN,
        })
    }
}

/// A stone as people see it: stones are numbered 1-9 on screen (S1), 0-8 in ids and JSON.
fn shown(stone: usize) -> usize {
    stone + 1
}

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
        vec![OptionSpec::int(
            "first_player",
            0,
            0,
            1,
            "the player who moves first (S2)",
        )]
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

    /// Says why `mv` is illegal here. Reasons number stones 1-9 as the board does (S1);
    /// the `stone` parameter is the id 0-8, as in moves.
    fn check(&self, mv: Move) -> Result<(), IllegalAction> {
        let me = self.current as usize;
        if let Some(outcome) = self.outcome {
            let rule = if outcome.reason == EndReason::Settlement {
                "S9"
            } else {
                "S7"
            };
            return Err(IllegalAction::new(
                rule,
                "game_over",
                "the game is over",
                "die Partie ist vorbei",
            ));
        }
        let already_played = || {
            IllegalAction::new(
                "S3",
                "already_played",
                "a card was already played (or passed) this turn; claim a stone or end the turn",
                "in diesem Zug wurde schon eine Karte gelegt (oder ausgesetzt); beanspruche einen Grenzstein oder beende den Zug",
            )
        };
        match mv {
            Move::Play { card, stone } => {
                let stone = stone as usize;
                if self.phase != Phase::Play {
                    return Err(already_played());
                }
                if !self.hands[me].contains(card) {
                    return Err(IllegalAction::new(
                        "S3a",
                        "card_not_in_hand",
                        format!("{card} is not in player {me}'s hand"),
                        format!("{card} ist nicht auf der Hand von Spieler {me}"),
                    )
                    .with("card", card.to_string())
                    .with("player", me));
                }
                let s = &self.stones[stone];
                let n = shown(stone);
                if let Some(owner) = s.owner {
                    return Err(IllegalAction::new(
                        "S3a",
                        "stone_owned",
                        format!("stone {n} is already owned by player {owner}; cards go to unowned stones only"),
                        format!(
                            "Grenzstein {n} gehört schon Spieler {owner}; Karten werden nur an Grenzsteine gelegt, die noch niemandem gehören"
                        ),
                    )
                    .with("stone", stone)
                    .with("owner", owner));
                }
                if s.sides[me].is_complete() {
                    return Err(IllegalAction::new(
                        "S3a",
                        "side_full",
                        format!("player {me} already has three cards at stone {n}; at most three per side"),
                        format!(
                            "Spieler {me} hat an Grenzstein {n} schon drei Karten; pro Grenzstein und Person passen höchstens drei"
                        ),
                    )
                    .with("stone", stone)
                    .with("player", me));
                }
                Ok(())
            }
            Move::Pass {} => {
                if self.phase != Phase::Play {
                    return Err(already_played());
                }
                if self.can_play(me) {
                    return Err(IllegalAction::new(
                        "S3a",
                        "must_play",
                        format!(
                            "player {me} can still play a card, and passing is allowed only when no card can be played"
                        ),
                        format!("Spieler {me} kann noch eine Karte legen; aussetzen darf nur, wer keine Karte legen kann"),
                    )
                    .with("player", me));
                }
                Ok(())
            }
            Move::Claim { stone } => {
                let stone = stone as usize;
                let n = shown(stone);
                if self.phase != Phase::Claim {
                    return Err(IllegalAction::new(
                        "S3b",
                        "claim_not_now",
                        "claims come after playing a card (or passing) and only when a stone is provable",
                        "beansprucht wird nach dem Legen einer Karte (oder dem Aussetzen) und nur, wenn ein Grenzstein beweisbar ist",
                    ));
                }
                let s = &self.stones[stone];
                if let Some(owner) = s.owner {
                    return Err(IllegalAction::new(
                        "S3b",
                        "stone_owned",
                        format!("stone {n} is already owned by player {owner}"),
                        format!("Grenzstein {n} gehört schon Spieler {owner}"),
                    )
                    .with("stone", stone)
                    .with("owner", owner));
                }
                let Some(check) = self.claim_check(stone, me) else {
                    let k = s.sides[me].len();
                    return Err(IllegalAction::new(
                        "S5",
                        "claim_needs_three_cards",
                        format!(
                            "player {me} has {k} card(s) at stone {n}; a claim needs the claimant's three cards there"
                        ),
                        format!(
                            "Spieler {me} hat {k} Karte(n) an Grenzstein {n}; beanspruchen kann nur, wessen drei Karten dort liegen"
                        ),
                    )
                    .with("stone", stone)
                    .with("player", me)
                    .with("cards", k));
                };
                // A refuted claim always comes with the other side's better completion (S6).
                if let (false, Some(best)) = (check.provable, check.best) {
                    let cards: Vec<String> = best.cards.iter().map(Card::to_string).collect();
                    let (theirs, mine) = (best.formation, check.mine);
                    return Err(IllegalAction::new(
                        "S5",
                        "not_provable",
                        format!(
                            "stone {n} is not provable: the other side can still reach {theirs} with {}, which beats {mine}",
                            cards.join(" "),
                        ),
                        format!(
                            "Grenzstein {n} ist nicht beweisbar: die Gegenseite kann mit {} noch {} (Summe {}) bilden, das schlägt {} (Summe {})",
                            cards.join(" "),
                            theirs.kind.name_de(),
                            theirs.sum,
                            mine.kind.name_de(),
                            mine.sum,
                        ),
                    )
                    .with("stone", stone)
                    .with("formation", theirs.kind.name())
                    .with("sum", theirs.sum)
                    .with("cards", cards)
                    .with("mine", mine.kind.name())
                    .with("mine_sum", mine.sum));
                }
                Ok(())
            }
            Move::EndTurn {} => {
                if self.phase != Phase::Claim {
                    return Err(IllegalAction::new(
                        "S3",
                        "end_turn_not_now",
                        "play a card (or pass) before ending the turn",
                        "lege erst eine Karte (oder setze aus), bevor du den Zug beendest",
                    ));
                }
                Ok(())
            }
        }
    }

    fn apply_checked(&mut self, action: Action, mv: Move) {
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
    fn winning_reason(&self, player: usize) -> Option<EndReason> {
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

    /// Checks everything JSON cannot, so that every method works on the state and the
    /// game plays on to its end: every card exactly once, every range, and that some game
    /// reaches the position (hand sizes, whose turn it is, the phase, the outcome).
    ///
    /// The checks look only at what the views show (the table, counters, phase, outcome)
    /// and at hand and pile *sizes*, never at which hidden card lies where: a state dealt
    /// anew from a valid state's view is valid too.
    pub(super) fn validate(&self) -> Result<(), String> {
        self.validate_cards()?;
        self.validate_stones()?;
        self.validate_hand_sizes()?;
        self.validate_turn()
    }

    /// Reads a hand-built position checking only that every card is there once: the
    /// rule tests build positions no game reaches (hand sizes that do not fit the
    /// pile, claimed stones without a proof) to isolate one ruling.
    #[cfg(test)]
    pub(super) fn from_json_for_tests(json: &str) -> State {
        let state: State = serde_json::from_str(json).expect("a well-formed test position");
        state.validate_cards().expect("every card once");
        state
    }

    /// Every one of the 54 cards exactly once, in the pile, a hand or at a stone.
    fn validate_cards(&self) -> Result<(), String> {
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
                return Err(format!(
                    "card {card} appears twice; each of the 54 cards exists once"
                ));
            }
            seen.insert(card);
            count += 1;
        }
        if count != NUM_CARDS {
            let missing: Vec<String> = CardSet::ALL.minus(seen).iter().map(|c| c.to_string()).collect();
            return Err(format!(
                "cards missing from pile, hands and stones: {}",
                missing.join(" ")
            ));
        }
        Ok(())
    }

    /// Owners, awards and completion order of every stone; claimed stones stay provable.
    fn validate_stones(&self) -> Result<(), String> {
        if self.current > 1 {
            return Err(format!("current player {} is not 0 or 1", self.current));
        }
        let available = CardSet::ALL.minus(self.table());
        for (i, s) in self.stones.iter().enumerate() {
            if let Some(owner) = s.owner.filter(|&o| o > 1) {
                return Err(format!("stones[{i}]: owner {owner} is not a player (0 or 1)"));
            }
            if s.owner.is_some() != s.award.is_some() {
                return Err(format!(
                    "stones[{i}]: an owned stone says how it was won (award), an unowned one does not"
                ));
            }
            let first_ok = match s.completed_first {
                None => !s.sides[0].is_complete() && !s.sides[1].is_complete(),
                Some(p @ (0 | 1)) => s.sides[p as usize].is_complete(),
                Some(_) => false,
            };
            if !first_ok {
                return Err(format!(
                    "stones[{i}]: completed_first must name a complete side, 0 or 1 (or be null if neither is)"
                ));
            }
            if let (Some(owner), Some(Award::Claim)) = (s.owner, s.award) {
                // S5: a stone once provable stays so (the other side's options only
                // shrink as cards are played), so a claimed stone is provable now.
                let proof = self.proof(i, owner as usize, available);
                if !proof.is_some_and(|c| c.provable) {
                    return Err(format!(
                        "stones[{i}]: claimed by player {owner}, but the claim is not provable (S5)"
                    ));
                }
            }
        }
        if let Some(a) = self.history.iter().find(|&a| a as usize >= NUM_ACTIONS) {
            return Err(format!("history holds action {a}, outside 0..{NUM_ACTIONS}"));
        }
        Ok(())
    }

    /// S2, S3c: every finished turn draws one card while the pile has cards, so the pile
    /// says how many cards each player drew, and the table how many each played.
    fn validate_hand_sizes(&self) -> Result<(), String> {
        let pile = self.pile.len();
        if pile > PILE_SIZE {
            return Err(format!(
                "the pile holds {pile} cards, but at most {PILE_SIZE} are left after the deal (S2)"
            ));
        }
        for p in 0..2 {
            let draws = self.draws(p);
            let played: usize = self.stones.iter().map(|s| s.sides[p].len()).sum();
            let held = self.hands[p].len() as usize;
            if (HAND_SIZE + draws).checked_sub(played) != Some(held) {
                return Err(format!(
                    "player {p} holds {held} cards, but was dealt {HAND_SIZE}, drew {draws} (with {pile} cards left \
                     in the pile, players drawing in turn from player {}) and played {played} (S2, S3c)",
                    self.rules.first_player
                ));
            }
        }
        Ok(())
    }

    /// How many cards `player` has drawn: the pile shrank by one per finished turn, turns
    /// alternating from the first player (S2, S3c).
    fn draws(&self, player: usize) -> usize {
        let drawn = PILE_SIZE.saturating_sub(self.pile.len());
        if player == self.rules.first_player as usize {
            drawn.div_ceil(2)
        } else {
            drawn / 2
        }
    }

    /// The seat whose turn it is while the pile has cards: every finished turn drew one.
    fn turn_by_pile(&self) -> Option<u8> {
        let drawn = PILE_SIZE.checked_sub(self.pile.len())?;
        (!self.pile.is_empty()).then_some(self.rules.first_player ^ (drawn % 2) as u8)
    }

    /// Phase, counters, whose turn it is and the outcome, derived from the stones.
    fn validate_turn(&self) -> Result<(), String> {
        let derived = self.derived_outcome()?;
        if self.outcome != derived {
            let show = |o: Option<Outcome>| serde_json::to_string(&o).unwrap_or_default();
            return Err(format!(
                "outcome {} does not follow from the stones and counters, which give {} (S7, S9)",
                show(self.outcome),
                show(derived)
            ));
        }
        let me = self.current as usize;
        let turn = self.turn_by_pile();
        match (self.phase, derived) {
            (Phase::Over, None) => {
                return Err("phase is 'over', but nobody has won and there was no settlement".into());
            }
            (Phase::Play | Phase::Claim, Some(_)) => {
                return Err("the game is over (see outcome), so the phase is 'over'".into());
            }
            (Phase::Play, None) => {
                if self.turn_passed {
                    return Err("turn_passed is true only in the claim phase after a pass (S3a)".into());
                }
            }
            (Phase::Claim, None) => {
                if !self.any_claimable(me) {
                    return Err(format!(
                        "phase 'claim', but player {me} has no provable stone (the claim step is entered only with one, S3b)"
                    ));
                }
                if self.turn_passed && self.can_play(me) {
                    return Err(format!(
                        "player {me} passed this turn (turn_passed), but can play a card (S3a)"
                    ));
                }
            }
            (Phase::Over, Some(Outcome { winner, reason })) => {
                if let (Some(w), EndReason::FiveStones | EndReason::ThreeAdjacent) = (winner, reason)
                    && w != self.current
                {
                    return Err(format!(
                        "the game ended with a claim of player {w} (S7), so current is that player, not {}",
                        self.current
                    ));
                }
                // The settling turn was finished (and drew): the turn by the pile is
                // already the next player's.
                let last = if reason == EndReason::Settlement {
                    turn.map(|t| 1 - t)
                } else {
                    turn
                };
                if last.is_some_and(|t| t != self.current) {
                    return Err(format!(
                        "with {} cards in the pile the last turn was player {}'s, not {}'s (S3c)",
                        self.pile.len(),
                        1 - self.current,
                        self.current
                    ));
                }
                return Ok(());
            }
        }
        if self.passes_in_row > 1 {
            return Err(
                "two passing turns in a row end the game (S9): passes_in_row is 0 or 1 while it runs".into(),
            );
        }
        if turn.is_some_and(|t| t != self.current) {
            return Err(format!(
                "with {} cards in the pile it is player {}'s turn, not {}'s: turns alternate from player {} \
                 and each one draws a card (S2, S3c)",
                self.pile.len(),
                1 - self.current,
                self.current,
                self.rules.first_player
            ));
        }
        Ok(())
    }

    /// Who made the last turn of a finished game: the claimant of a win (S7); after
    /// the settlement, the player before the one the pile says is next (or, with an
    /// empty pile, which does not say, the first player).
    pub(super) fn last_mover(&self) -> u8 {
        match self.outcome {
            Some(Outcome {
                winner: Some(w),
                reason: EndReason::FiveStones | EndReason::ThreeAdjacent,
            }) => w.min(1),
            Some(_) => self.turn_by_pile().map_or(self.rules.first_player, |t| 1 - t),
            None => self.current,
        }
    }

    /// The outcome the stones and counters give (S7, S9), whatever the state says.
    fn derived_outcome(&self) -> Result<Option<Outcome>, String> {
        let from_settlement = |s: &Stone| s.award.is_some_and(|a| a != Award::Claim);
        let settled = self.stones.iter().position(from_settlement);
        let wins = |state: &State| -> Vec<(u8, EndReason)> {
            (0..2)
                .filter_map(|p| state.winning_reason(p).map(|r| (p as u8, r)))
                .collect()
        };
        match self.passes_in_row {
            0 | 1 => {
                if let Some(i) = settled {
                    return Err(format!(
                        "stones[{i}] was won in the settlement (S9), which needs two passing turns in a row \
                         (passes_in_row 2)"
                    ));
                }
                match wins(self)[..] {
                    [] => Ok(None),
                    [(p, reason)] => Ok(Some(Outcome {
                        winner: Some(p),
                        reason,
                    })),
                    _ => Err(
                        "both players own five or three adjacent stones; the game ends at the first (S7)"
                            .into(),
                    ),
                }
            }
            2 => {
                // The position before the settlement: claimed stones only.
                let mut before = self.clone();
                for s in &mut before.stones {
                    if from_settlement(s) {
                        s.owner = None;
                        s.award = None;
                    }
                }
                if let Some(&(p, _)) = wins(&before).first() {
                    return Err(format!(
                        "player {p} won by claims (S7) before the settlement that passes_in_row 2 says happened"
                    ));
                }
                before.settle();
                let show = |s: &Stone| match (s.owner, s.award) {
                    (Some(p), Some(a)) => format!("player {p} ({})", a.name()),
                    _ => "nobody".to_string(),
                };
                for (i, (got, want)) in self.stones.iter().zip(&before.stones).enumerate() {
                    if (got.owner, got.award) != (want.owner, want.award) {
                        return Err(format!(
                            "stones[{i}]: the settlement (S9) gives it to {}, the state says {}",
                            show(want),
                            show(got)
                        ));
                    }
                }
                Ok(before.outcome)
            }
            n => Err(format!(
                "passes_in_row is {n}, but two passing turns in a row end the game (S9): it is 0, 1 or 2"
            )),
        }
    }
}

impl State {
    /// S3b, S5: the claim of the first stone the player to move can claim now by proof
    /// (`None` outside the claim step or where none is provable).
    pub(crate) fn provable_claim(&self) -> Option<Action> {
        if self.phase != Phase::Claim {
            return None;
        }
        let available = CardSet::ALL.minus(self.table());
        (0..NUM_STONES)
            .find(|&s| self.claimable(s, self.current as usize, available))
            .map(claim_action)
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
        let Some(mv) = Move::decode(action) else {
            return Err(IllegalAction::no_such_action(action, NUM_ACTIONS));
        };
        self.check(mv)?;
        self.apply_checked(action, mv);
        Ok(())
    }

    fn returns(&self) -> Vec<f64> {
        winner_returns(2, self.outcome.and_then(|o| o.winner).map(usize::from), |p| p)
    }

    /// Why the game ended, e.g. "player 1 wins: three adjacent stones (4-5-6)"; stones
    /// are numbered 1-9 as on the board (S1).
    fn result_text(&self) -> Option<String> {
        let Outcome { winner, reason } = self.outcome?;
        let count = |p: u8| self.stones.iter().filter(|s| s.owner == Some(p)).count();
        Some(match (winner, reason) {
            (Some(w), EndReason::FiveStones) => format!("player {w} wins: five stones"),
            (Some(w), EndReason::ThreeAdjacent) => {
                let first = (0..NUM_STONES - 2)
                    .find(|&i| (i..i + 3).all(|j| self.stones[j].owner == Some(w)))
                    .unwrap_or(0);
                format!(
                    "player {w} wins: three adjacent stones ({}-{}-{})",
                    shown(first),
                    shown(first + 1),
                    shown(first + 2)
                )
            }
            (Some(w), EndReason::Settlement) => format!(
                "player {w} wins the settlement, {} stones to {}",
                count(w),
                count(1 - w.min(1))
            ),
            (None, _) => format!("a draw: the settlement leaves {} stones each", count(0)),
        })
    }

    fn history(&self) -> &crate::history::History {
        &self.history
    }

    /// See [`View`]. A seat other than 0 or 1 sees what a spectator sees.
    fn view_of(&self, seat: Option<usize>) -> View {
        super::view::view_of(self, seat.filter(|&p| p < 2))
    }

    /// The view's JSON bytes as serde writes them, by a writer made for this view (views
    /// are served per request and are the search's information-state keys).
    fn view_json(&self, seat: Option<usize>) -> Vec<u8> {
        super::view::view_json(self, seat.filter(|&p| p < 2))
    }

    /// "play B5 at stone 4", "claim stone 4", "pass", "end turn": stones 1-9 as on the
    /// board (S1), while the move's JSON says `"stone": 3`.
    fn action_to_string(&self, action: Action) -> String {
        match Move::decode(action) {
            Some(Move::Play { card, stone }) => format!("play {card} at stone {}", shown(stone.into())),
            Some(Move::Claim { stone }) => format!("claim stone {}", shown(stone.into())),
            Some(Move::Pass {}) => "pass".into(),
            Some(Move::EndTurn {}) => "end turn".into(),
            None => format!("invalid action {action}"),
        }
    }

    /// The [`Move`] of the action as JSON; an id outside the action space gives
    /// `{"type": "invalid", "action": id}`, which no move parses to.
    fn action_to_move(&self, action: Action) -> Value {
        match Move::decode(action).map(serde_json::to_value) {
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
                (Some(p), Some(how)) => format!("player {p} ({})", how.name()),
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
