//! Texts for people: actions, the board and the result. They number stones 1-9 as the
//! board does (S1); ids and JSON stay 0-8.

use std::fmt::Write as _;

use super::cards::Card;
use super::checks::shown;
use super::codec::Move;
use super::rules::NUM_STONES;
use super::state::{EndReason, Outcome, Side, State};
use crate::game::{Action, GameState};

impl State {
    /// "play B5 at stone 4", "claim stone 4", "pass", "end turn": stones 1-9 as on the
    /// board (S1), while the move's JSON says `"stone": 3`.
    pub(super) fn action_text(&self, action: Action) -> String {
        match Move::decode(action) {
            Some(Move::Play { card, stone }) => format!("play {card} at stone {}", shown(stone.into())),
            Some(Move::Claim { stone }) => format!("claim stone {}", shown(stone.into())),
            Some(Move::Pass {}) => "pass".into(),
            Some(Move::EndTurn {}) => "end turn".into(),
            None => format!("invalid action {action}"),
        }
    }

    /// Why the game ended, e.g. "player 1 wins: three adjacent stones (4-5-6)"; stones
    /// are numbered 1-9 as on the board (S1).
    pub(super) fn result_line(&self) -> Option<String> {
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

    pub(super) fn render_text(&self) -> String {
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
