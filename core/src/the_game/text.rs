//! Texts for people: the piles, actions, the board and the result. Piles are named
//! "ascending pile 1" … "descending pile 2"; ids and JSON stay 0-3.

use std::fmt::Write as _;

use super::codec::Decoded;
use super::rules::{NUM_PILES, ascending};
use super::state::State;
use crate::game::{Action, GameState};

/// A pile as the board shows it: "ascending pile 1", …, "descending pile 2". Ids stay
/// 0–3 in JSON and actions; texts for people count each pair of piles from 1.
pub fn pile_name(pile: usize) -> String {
    let direction = if ascending(pile) {
        "ascending"
    } else {
        "descending"
    };
    format!("{direction} pile {}", pile % 2 + 1)
}

/// [`pile_name`] in German, in the dative ("auf dem aufsteigenden Stapel 1").
pub(super) fn pile_name_de(pile: usize) -> String {
    let direction = if ascending(pile) {
        "aufsteigenden"
    } else {
        "absteigenden"
    };
    format!("{direction} Stapel {}", pile % 2 + 1)
}

impl State {
    pub(super) fn action_text(&self, action: Action) -> String {
        match Decoded::decode(action) {
            Some(Decoded::Play { card, pile }) => format!("play {card} on {}", pile_name(pile)),
            Some(Decoded::EndTurn) => "end turn".into(),
            None => format!("invalid action {action}"),
        }
    }

    /// T6: whether the players won, else how many cards are left and where.
    pub(super) fn result_line(&self) -> Option<String> {
        let outcome = self.outcome?;
        if outcome.won {
            return Some("the players win: every card is played".into());
        }
        let in_hands: usize = self.hands.iter().map(|h| h.len()).sum();
        let cards = if outcome.score == 1 { "card" } else { "cards" };
        Some(format!(
            "the players lose: {} {cards} left ({in_hands} in hands, {} in the draw pile)",
            outcome.score,
            self.draw_pile.len()
        ))
    }

    pub(super) fn render_text(&self) -> String {
        let mut out = String::new();
        for p in 0..NUM_PILES {
            let _ = writeln!(
                out,
                "{:<18} top {:>3} ({} played)",
                pile_name(p),
                self.tops[p],
                self.pile_sizes[p]
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
        if let Some(result) = self.result_text() {
            let _ = write!(out, "\n{result}");
        }
        out
    }
}
