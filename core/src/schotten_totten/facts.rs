//! The facts the board shows at each stone (S5, S6), derived from the position alone.
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
use super::state::{Phase, State};
use crate::game::GameState;

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
