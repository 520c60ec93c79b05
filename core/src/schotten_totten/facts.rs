//! The facts the board shows at each stone (S5, S6), and the settlement step by step
//! (S9), derived from the position alone.
//!
//! Everything here follows from the table (the cards at the stones, who completed a
//! side first, whose claim step it is), which every seat sees; the available cards of
//! S5 are "every card not lying at a stone", the same set for both seats and for
//! spectators. So the facts leak nothing, and the seat views and the public view carry
//! the same facts.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::cards::{Card, CardSet};
use super::formation::{FormationKind, best_reachable, check_claim};
use super::rules::NUM_STONES;
use super::state::{Award, Phase, State};
use crate::game::{GameState, Lang};

/// What the board shows at a stone nobody owns.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "SchottenTottenStoneFacts")]
pub struct StoneFacts {
    /// Per player, [player 0, player 1]: whether that player's claim proof (S5) succeeds
    /// now: their three cards lie here and no completion of the other side from the
    /// available cards can beat them. Exactly `provable` of the claim check.
    pub provable: [bool; 2],
    /// Per player: the strongest formation that player's side can still complete here
    /// (S6) with the cards not lying at any stone, their own cards first; the complete
    /// formation itself once they have three cards; null if too few cards are left for
    /// them ever to complete. For a claim of player p, `best[1 - p]` is what the claim
    /// check compares with (shown when hovering over a stone that is not provable).
    pub best: [Option<Best>; 2],
    /// Whether claiming this stone (*Nehmen*) is a legal move now: the player to move is
    /// in their claim step (S3b) and `provable[current_player]`. The seat's board shows
    /// the button when this holds and `current_player` is the seat.
    pub claimable: bool,
}

/// A side's best (or actual) formation at a stone.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "SchottenTottenBest")]
pub struct Best {
    /// The three cards: the side's own first, in the order played, then the completion.
    pub cards: [Card; 3],
    /// The formation's kind (S4).
    pub formation: FormationKind,
    /// The sum of the three values (S4's tie-break within a kind).
    pub sum: u8,
    /// Whether the side already holds these three cards (nothing left to complete).
    pub complete: bool,
}

/// The facts of every stone: `None` at owned stones.
pub(super) fn stone_facts(state: &State) -> [Option<StoneFacts>; NUM_STONES] {
    let available = CardSet::ALL.minus(state.table());
    let claimer = match (state.phase(), state.outcome()) {
        (Phase::Claim, None) => state.current_player(),
        _ => None,
    };
    // An empty side's best is the same at every stone (the costliest search of S6): once.
    let mut empty_best = None;
    std::array::from_fn(|i| {
        let stone = &state.stones()[i];
        if stone.owner.is_some() {
            return None;
        }
        let best = stone.sides.map(|side| {
            let reach = if side.is_empty() {
                *empty_best.get_or_insert_with(|| best_reachable(&[], available))
            } else {
                best_reachable(side.cards(), available)
            };
            reach.map(|r| Best {
                cards: r.cards,
                formation: r.formation.kind,
                sum: r.formation.sum,
                complete: side.is_complete(),
            })
        });
        // `State::claim_check` with the available cards computed once for all stones.
        let provable = [0, 1].map(|p| {
            let mine: Option<[Card; 3]> = stone.sides[p].cards().try_into().ok();
            mine.is_some_and(|mine| {
                let first = stone.completed_first == Some(p as u8);
                check_claim(mine, stone.sides[1 - p].cards(), available, first).provable
            })
        });
        Some(StoneFacts {
            provable,
            best,
            claimable: claimer.is_some_and(|p| provable[p]),
        })
    })
}

/// The settlement (S9) as the board shows it once the game ended by it: its four steps,
/// each with the stones it decided and its text for people in German and English.
///
/// Derived from the final table alone (every stone records the step that gave it, and
/// the cards at it show why step 3 decided as it did), which every seat sees: the seat
/// views and the public view carry the same.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "SchottenTottenSettlement")]
pub struct Settlement {
    /// Steps 1-4 of S9, in order: 1 the stones provable for a player (S5), 2 of the rest
    /// those where exactly one side is complete, 3 where both sides are incomplete: more
    /// cards, then the higher sum (else the stone stays unowned), 4 the count.
    pub steps: [SettlementStep; 4],
    /// Step 4: the stones each player owns after step 3, claimed ones included,
    /// [player 0, player 1]; the more wins, equal counts are a draw.
    pub counts: [u8; 2],
}

/// One step of the settlement.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "SchottenTottenSettlementStep")]
pub struct SettlementStep {
    /// The step's number, 1-4.
    #[schemars(range(min = 1, max = 4))]
    pub step: u8,
    /// The stones this step decided, ascending: steps 1-3 give stones to a player, and
    /// step 3 also names the stones that stay unowned; step 4 decides no stone.
    pub stones: Vec<SettledStone>,
    /// What the step did, as the board says it.
    pub text: Texts,
}

/// A stone the settlement decided.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "SchottenTottenSettledStone")]
pub struct SettledStone {
    /// The stone, 0-8.
    #[schemars(range(max = 8))]
    pub stone: u8,
    /// The player it went to; null if it stays unowned (step 3, a tie).
    #[schemars(range(max = 1))]
    pub owner: Option<u8>,
    /// Why: `provable` (step 1), `complete` (step 2), `more_cards`, `higher_sum` or
    /// `tie` (step 3).
    pub by: SettledBy,
}

/// Why the settlement decided a stone as it did (S9).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "SchottenTottenSettledBy")]
pub enum SettledBy {
    /// Step 1: the owner's claim proof (S5) succeeds.
    Provable,
    /// Step 2: only the owner's side holds three cards.
    Complete,
    /// Step 3: the owner's side holds more cards.
    MoreCards,
    /// Step 3: as many cards on both sides, the owner's sum is higher.
    HigherSum,
    /// Step 3: as many cards and the same sum: the stone stays unowned.
    Tie,
}

/// A text for people in both languages.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "SchottenTottenTexts")]
pub struct Texts {
    /// German (the rule texts' language, the page's default).
    pub de: String,
    /// English.
    pub en: String,
}

/// The settlement of a game that ended by it (S9); `None` for every other state.
pub(super) fn settlement(state: &State) -> Option<Settlement> {
    let outcome = state.outcome()?;
    if outcome.reason != super::state::EndReason::Settlement {
        return None;
    }
    let mut steps: [Vec<SettledStone>; 3] = Default::default();
    for (i, stone) in state.stones().iter().enumerate() {
        let [a, b] = &stone.sides;
        let (step, by) = match stone.award {
            Some(Award::Claim) => continue,
            Some(Award::SettlementProof) => (0, SettledBy::Provable),
            Some(Award::SettlementComplete) => (1, SettledBy::Complete),
            // Step 3 (both incomplete): more cards, then the higher sum.
            Some(Award::SettlementCount) if a.len() != b.len() => (2, SettledBy::MoreCards),
            Some(Award::SettlementCount) => (2, SettledBy::HigherSum),
            None => (2, SettledBy::Tie),
        };
        steps[step].push(SettledStone {
            stone: i as u8,
            owner: stone.owner,
            by,
        });
    }
    let count = |p: u8| state.stones().iter().filter(|s| s.owner == Some(p)).count() as u8;
    let counts = [count(0), count(1)];
    let [one, two, three] = steps;
    let text = |step: u8, stones: &[SettledStone]| Texts {
        de: state.settlement_line(step, stones, counts, outcome.winner, Lang::De),
        en: state.settlement_line(step, stones, counts, outcome.winner, Lang::En),
    };
    let step = |n: u8, stones: Vec<SettledStone>| SettlementStep {
        step: n,
        text: text(n, &stones),
        stones,
    };
    Some(Settlement {
        steps: [step(1, one), step(2, two), step(3, three), step(4, Vec::new())],
        counts,
    })
}
