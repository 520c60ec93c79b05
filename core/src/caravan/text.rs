//! Texts for people: actions and the board.

use std::fmt::Write as _;

use super::cards::SUIT_NAMES;
use super::codec::*;
use super::rules::*;
use super::state::*;
use super::table::*;
use crate::game::{Action, GameState};

impl State {
    pub(super) fn action_text(&self, action: Action) -> String {
        match self.rules.decode(action) {
            Some(Move::Play { card, caravan, .. }) if card.is_number() => {
                format!("play {card} on caravan {caravan}")
            }
            Some(Move::Play {
                card,
                caravan,
                position,
            }) => {
                format!("play {card} on caravan {caravan}, number card {position}")
            }
            Some(Move::Discard(card)) => format!("discard {card}"),
            Some(Move::Disband(caravan)) => format!("disband caravan {caravan}"),
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
                    let faces: String = s.faces.iter().map(|f| format!("+{}", f.card)).collect();
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
                "caravan {i} (player {}): {:>2} {dir:<4} {suit:<8} {}",
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
}
