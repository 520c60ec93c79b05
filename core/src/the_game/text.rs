//! Texts for people, in German and English ([`Lang`]): actions, the board and the result.
//! Piles are numbered 1–2 per direction as on the table; German words are the seed's
//! (Stapel, aufsteigend, absteigend, Nachziehstapel).

use std::fmt::Write as _;

use super::codec::Decoded;
use super::rules::{NUM_PILES, ascending};
use super::state::State;
use crate::game::{Action, GameState, Lang};
use crate::names::{Names, shown};

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

/// A pile for the board, in the nominative: "Stapel 1 aufsteigend" / "ascending pile 1".
pub(super) fn pile_label(pile: usize, lang: Lang) -> String {
    match lang {
        Lang::De => {
            let direction = if ascending(pile) {
                "aufsteigend"
            } else {
                "absteigend"
            };
            format!("Stapel {} {direction}", pile % 2 + 1)
        }
        Lang::En => pile_name(pile),
    }
}

impl State {
    /// "play 52 on ascending pile 1" / "52 auf den aufsteigenden Stapel 1 legen",
    /// "end turn" / "Zug beenden".
    pub(super) fn action_line(action: Action, lang: Lang) -> String {
        match (Decoded::decode(action), lang) {
            (Some(Decoded::Play { card, pile }), Lang::De) => {
                format!("{card} auf den {} legen", pile_name_de(pile))
            }
            (Some(Decoded::Play { card, pile }), Lang::En) => format!("play {card} on {}", pile_name(pile)),
            (Some(Decoded::EndTurn), _) => lang.pick("Zug beenden", "end turn").into(),
            (None, Lang::De) => format!("ungültige Aktion {action}"),
            (None, Lang::En) => format!("invalid action {action}"),
        }
    }

    /// T6: whether the players won, else how many cards are left and where; under ten
    /// cards left the seed calls the result very good ("unter zehn Restkarten sehr gut").
    /// The Game is played together, so the line names the players as one ("die Spieler"),
    /// and `names` is not needed.
    pub(super) fn result_line(&self, lang: Lang, _names: &Names) -> Option<String> {
        let outcome = self.outcome?;
        if outcome.won {
            return Some(
                lang.pick(
                    "die Spieler gewinnen: jede Karte ist gespielt",
                    "the players win: every card is played",
                )
                .into(),
            );
        }
        let in_hands: usize = self.hands.iter().map(|h| h.len()).sum();
        let (left, pile) = (outcome.score, self.draw_pile.len());
        let very_good = left < 10;
        Some(match lang {
            Lang::De => {
                let cards = if left == 1 { "Karte" } else { "Karten" };
                let how = if very_good {
                    "sehr gut: nur"
                } else {
                    "die Spieler verlieren:"
                };
                format!("{how} {left} {cards} übrig ({in_hands} auf der Hand, {pile} im Nachziehstapel)")
            }
            Lang::En => {
                let cards = if left == 1 { "card" } else { "cards" };
                let how = if very_good {
                    "very good: only"
                } else {
                    "the players lose:"
                };
                format!("{how} {left} {cards} left ({in_hands} in hands, {pile} in the draw pile)")
            }
        })
    }

    /// The piles, the hands (with a seat: its own, the others' sizes) with the player to
    /// move marked `*`, the draw pile and the turn's count.
    pub(super) fn render_text(&self, seat: Option<usize>, lang: Lang) -> String {
        let mut out = String::new();
        for p in 0..NUM_PILES {
            let (top, played) = (self.tops[p], self.pile_sizes[p]);
            let _ = match lang {
                Lang::De => writeln!(
                    out,
                    "{:<21} oben {top:>3} ({played} gespielt)",
                    pile_label(p, lang)
                ),
                Lang::En => writeln!(out, "{:<18} top {top:>3} ({played} played)", pile_label(p, lang)),
            };
        }
        for p in 0..self.rules.players as usize {
            let mark = if Some(p) == self.current_player() {
                "*"
            } else {
                " "
            };
            let hand = if seat.is_none_or(|s| s == p) {
                self.hand(p).join(" ")
            } else {
                let n = self.hands[p].len();
                lang.pick(format!("{n} Karten"), format!("{n} cards"))
            };
            let _ = writeln!(out, "{mark}{} {}: {hand}", lang.pick("Hand", "hand"), shown(p));
        }
        let (pile, played, minimum) = (self.draw_pile.len(), self.played_this_turn, self.minimum());
        let _ = match lang {
            Lang::De => write!(
                out,
                "Nachziehstapel: {pile} Karten; in diesem Zug gelegt: {played} von mindestens {minimum}"
            ),
            Lang::En => write!(
                out,
                "draw pile: {pile} cards; played this turn: {played} of at least {minimum}"
            ),
        };
        if let Some(result) = self.result_line(lang, &Names::default()) {
            let _ = write!(out, "\n{result}");
        }
        out
    }
}
