//! Schotten Totten (`seeds/schotten_totten.de.txt`, RULINGS S1–S10).
//!
//! # Action space (497 ids)
//! | ids | action |
//! |---|---|
//! | `card * 9 + stone` (0–485) | play `card` (index `color * 9 + value - 1`, colours R O Y G B P) at `stone` (0–8) |
//! | `486 + stone` (486–494) | claim `stone` |
//! | 495 | pass (S3a: only when no card can be played) |
//! | 496 | end the turn without (further) claims |
//!
//! A turn is a play or a pass, then claims one at a time, then the draw. The claim
//! step is only entered when the mover has a provable stone; otherwise, and after
//! the last provable stone is claimed, the turn ends by itself.
//!
//! # Files
//! | file | part of the rules |
//! |---|---|
//! | `cards.rs` | the cards and their notation, card sets |
//! | `formation.rs` | formations (S4) and the claim proof (S5, S6) |
//! | `rules.rs` | the options, the deal (S2), `impl Game` |
//! | `state.rs` | the position, applying moves: turns, claims, winning, the settlement (S3, S7-S9) |
//! | `codec.rs` | action ids and the JSON [`Move`] (also the action taken apart, `Decoded`) |
//! | `checks.rs` | why a move is illegal, with codes and reasons in English and German |
//! | `legal.rs` | legal-move generation (the hot path) |
//! | `json.rs` | reading and validating states |
//! | `view.rs` | the [`View`] (an information state) and `state_from_view` |
//! | `facts.rs` | what the board shows: the stone facts (provable, best formation, claimable: S5, S6) and the settlement step by step (S9) |
//! | `text.rs` | texts for people: actions, the board, the result, the settlement's steps |
//! | `heuristic.rs` | the `heuristic` bot |
//! | `tensor.rs` | the observation tensor |

pub mod cards;
mod checks;
mod codec;
mod facts;
pub mod formation;
mod heuristic;
mod json;
mod legal;
mod rules;
mod state;
pub mod tensor;
mod text;
mod view;

pub use cards::{Card, CardSet};
pub use codec::{END_TURN, Move, NUM_ACTIONS, PASS, claim_action, play_action};
pub use facts::{Best, SettledBy, SettledStone, Settlement, SettlementStep, StoneFacts, Texts};
pub use formation::{
    ClaimCheck, Formation, FormationKind, Reachable, best_reachable, check_claim, formation,
};
pub use rules::{MAX_GAME_LENGTH, NUM_STONES, SchottenTotten};
pub use state::{Award, EndReason, Outcome, Phase, Side, State, Stone};
pub use view::{GameName, StoneView, View};

use crate::error::{Error, Result};

/// S5 on card notation, for callers outside the game (the Python `check_claim`).
///
/// `table` is every card lying at any stone; it may or may not repeat `mine` and
/// `theirs`. Everything else is available to the other side.
pub fn check_claim_notation<S: AsRef<str>>(
    mine: &[S],
    theirs: &[S],
    table: &[S],
    mine_completed_first: bool,
) -> Result<ClaimCheck> {
    let mine = cards::parse_cards(mine)?;
    let theirs = cards::parse_cards(theirs)?;
    let table = cards::parse_cards(table)?;
    let mine: [Card; 3] = mine.try_into().map_err(|m: Vec<Card>| {
        let n = m.len();
        Error::InvalidArgument(crate::msg!(
            "mine must be the claimant's 3 cards, got {n} (a claim needs three cards at the stone (S5))",
            "mine sind die 3 Karten dessen, der nimmt, nicht {n} (wer einen Stein nimmt, braucht dort drei Karten (S5))"
        ))
    })?;
    if theirs.len() > 3 {
        let n = theirs.len();
        return Err(Error::InvalidArgument(crate::msg!(
            "theirs must be 0-3 cards (one side of a stone holds at most three), got {n}",
            "theirs sind 0-3 Karten (eine Seite eines Steins hält höchstens drei), nicht {n}"
        )));
    }
    if let Some(card) = theirs.iter().find(|c| mine.contains(c)) {
        return Err(Error::InvalidArgument(crate::msg!(
            "card {card} is in both mine and theirs; each card exists once",
            "Karte {card} ist in mine und in theirs; jede Karte gibt es einmal"
        )));
    }
    let lying: CardSet = table.iter().chain(&mine).chain(&theirs).copied().collect();
    Ok(check_claim(
        mine,
        &theirs,
        CardSet::ALL.minus(lying),
        mine_completed_first,
    ))
}

/// S4 on card notation: the formation of exactly three distinct cards.
pub fn formation_notation<S: AsRef<str>>(cards: &[S]) -> Result<Formation> {
    let cards = cards::parse_cards(cards)?;
    let three: [Card; 3] = cards.try_into().map_err(|c: Vec<Card>| {
        let n = c.len();
        Error::InvalidArgument(crate::msg!(
            "a formation is exactly 3 cards, got {n}",
            "eine Formation sind genau 3 Karten, nicht {n}"
        ))
    })?;
    Ok(formation(three))
}

#[cfg(test)]
mod tests;
