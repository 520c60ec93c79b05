//! Texts for people: actions, the board and the result. They number caravans 1–6 and a
//! caravan's number cards from 1, as the board shows them; ids and JSON stay 0-based.

use std::fmt::Write as _;

use super::cards::SUIT_NAMES;
use super::checks::shown;
use super::codec::Decoded;
use super::rules::NUM_CARAVANS;
use super::state::{EndReason, State};
use super::table::{Direction, owner_of};
use crate::game::{Action, GameState};

impl State {
    pub(super) fn action_text(&self, action: Action) -> String {
        match self.rules.decode(action) {
            Some(Decoded::Play { card, caravan, .. }) if card.is_number() => {
                format!("play {card} on caravan {}", shown(caravan))
            }
            Some(Decoded::Play {
                card,
                caravan,
                position,
            }) => {
                format!(
                    "play {card} on caravan {}, number card {}",
                    shown(caravan),
                    position + 1
                )
            }
            Some(Decoded::Discard(card)) => format!("discard {card}"),
            Some(Decoded::Disband(caravan)) => format!("disband caravan {}", shown(caravan)),
            None => format!("invalid action {action}"),
        }
    }

    pub(super) fn render_text(&self) -> String {
        let mut out = String::new();
        for i in 0..NUM_CARAVANS {
            let c = &self.caravans[i];
            let cards: Vec<String> = c
                .slots
                .iter()
                .map(|s| {
                    let faces: String = s.faces.iter().fold(String::new(), |mut out, f| {
                        let _ = write!(out, "+{}", f.card);
                        out
                    });
                    format!("{}{faces}", s.number.card)
                })
                .collect();
            let dir = match c.direction(&self.rules) {
                Some(Direction::Ascending) => "up",
                Some(Direction::Descending) => "down",
                None => "-",
            };
            let suit = c.suit(&self.rules).map_or("-", |s| SUIT_NAMES[s as usize]);
            let _ = writeln!(
                out,
                "caravan {} (player {}): {:>2} {dir:<4} {suit:<8} {}",
                shown(i),
                owner_of(i),
                c.value(&self.rules),
                cards.join(" ")
            );
        }
        for p in 0..2 {
            let _ = writeln!(
                out,
                "player {p}: hand {} | deck {} | discard {}{}",
                self.hand(p).join(" "),
                self.decks[p].len(),
                self.discards[p].len(),
                if self.in_opening(p) { " | opening" } else { "" }
            );
        }
        let sales: Vec<String> = (0..3)
            .map(|i| self.sells(i).map_or("-".to_string(), |p| format!("player {p}")))
            .collect();
        let _ = write!(out, "pairs sold by: {}", sales.join(", "));
        out
    }

    /// Why the game ended, for people (C9).
    pub(super) fn result_line(&self) -> Option<String> {
        let outcome = self.outcome?;
        Some(match (outcome.winner, outcome.reason) {
            (Some(w), EndReason::Sold) => format!("player {w} wins: sold {} of the three pairs", {
                (0..3).filter(|&i| self.sells(i) == Some(w)).count()
            }),
            (Some(w), EndReason::QuickSale) => {
                format!("player {w} wins: sold two pairs at once (quick sale)")
            }
            (Some(w), EndReason::OutOfCards) => {
                format!("player {w} wins: player {} ran out of cards", 1 - w)
            }
            (None, _) => "a draw: both players ran out of cards".to_string(),
        })
    }
}
