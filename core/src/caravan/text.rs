//! Texts for people, in German and English ([`Lang`]): actions, the board and the result.
//! They number caravans 1–6 and a caravan's number cards from 1, as the board shows them;
//! ids and JSON stay 0-based. German words are the seed's: Route, Zahlenkarte,
//! Ablagestapel, Verkaufen, Auflösen; suits Kreuz, Karo, Herz, Pik.

use std::fmt::Write as _;

use super::cards::{SUIT_NAMES, SUIT_NAMES_DE};
use super::checks::shown;
use super::codec::Decoded;
use super::rules::NUM_CARAVANS;
use super::state::{EndReason, State};
use super::table::{Direction, owner_of};
use crate::game::{Action, GameState, Lang};
use crate::names::{Names, seat_number};

impl State {
    pub(super) fn action_line(&self, action: Action, lang: Lang) -> String {
        match (self.rules.decode(action), lang) {
            (Some(Decoded::Play { card, caravan, .. }), Lang::De) if card.is_number() => {
                format!("{} an Route {} legen", card.name_de(), shown(caravan))
            }
            (Some(Decoded::Play { card, caravan, .. }), Lang::En) if card.is_number() => {
                format!("play {card} on caravan {}", shown(caravan))
            }
            (
                Some(Decoded::Play {
                    card,
                    caravan,
                    position,
                }),
                Lang::De,
            ) => format!(
                "{} an Route {}, Zahlenkarte {} legen",
                card.name_de(),
                shown(caravan),
                position + 1
            ),
            (
                Some(Decoded::Play {
                    card,
                    caravan,
                    position,
                }),
                Lang::En,
            ) => format!(
                "play {card} on caravan {}, number card {}",
                shown(caravan),
                position + 1
            ),
            (Some(Decoded::Discard(card)), Lang::De) => format!("{} abwerfen", card.name_de()),
            (Some(Decoded::Discard(card)), Lang::En) => format!("discard {card}"),
            (Some(Decoded::Disband(caravan)), Lang::De) => format!("Route {} auflösen", shown(caravan)),
            (Some(Decoded::Disband(caravan)), Lang::En) => format!("disband caravan {}", shown(caravan)),
            (None, Lang::De) => format!("ungültige Aktion {action}"),
            (None, Lang::En) => format!("invalid action {action}"),
        }
    }

    /// The board; with a seat, every other hand shows only its size.
    pub(super) fn render_text(&self, seat: Option<usize>, lang: Lang) -> String {
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
                Some(Direction::Ascending) => lang.pick("steigt", "up"),
                Some(Direction::Descending) => lang.pick("fällt", "down"),
                None => "-",
            };
            let suit = c
                .suit(&self.rules)
                .map_or("-", |s| lang.pick(SUIT_NAMES_DE, SUIT_NAMES)[s as usize]);
            // The direction's column as wide as its longest word ("steigt", "down").
            let width = lang.pick(6, 4);
            let _ = writeln!(
                out,
                "{} {} ({} {}): {:>2} {dir:<width$} {suit:<8} {}",
                lang.pick("Route", "caravan"),
                shown(i),
                lang.pick("Spieler", "player"),
                shown(owner_of(i)),
                c.value(&self.rules),
                cards.join(" ")
            );
        }
        for p in 0..2 {
            let hand = if seat.is_none_or(|s| s == p) {
                self.hand(p).join(" ")
            } else {
                lang.pick(
                    format!("{} Karten", self.hands[p].len()),
                    format!("{} cards", self.hands[p].len()),
                )
            };
            let opening = if self.in_opening(p) {
                lang.pick(" | Eröffnung", " | opening")
            } else {
                ""
            };
            let _ = match lang {
                Lang::De => writeln!(
                    out,
                    "Spieler {}: Hand {hand} | Deck {} | Ablagestapel {}{opening}",
                    shown(p),
                    self.decks[p].len(),
                    self.discards[p].len(),
                ),
                Lang::En => writeln!(
                    out,
                    "player {}: hand {hand} | deck {} | discard {}{opening}",
                    shown(p),
                    self.decks[p].len(),
                    self.discards[p].len(),
                ),
            };
        }
        let sales: Vec<String> = (0..3)
            .map(|i| {
                self.sells(i)
                    .map_or("-".to_string(), |p| seat_number(usize::from(p), lang))
            })
            .collect();
        let _ = write!(
            out,
            "{}: {}",
            lang.pick("Paare verkauft von", "pairs sold by"),
            sales.join(", ")
        );
        out
    }

    /// Why the game ended, for people (C9), naming the seats by `names`.
    pub(super) fn result_line(&self, lang: Lang, names: &Names) -> Option<String> {
        let outcome = self.outcome?;
        let sold = |w: u8| (0..3).filter(|&i| self.sells(i) == Some(w)).count();
        let name = |p: u8| names.seat(usize::from(p), lang);
        Some(match (outcome.winner, outcome.reason, lang) {
            (Some(w), EndReason::Sold, Lang::De) => {
                format!("{} gewinnt: {} der drei Paare verkauft", name(w), sold(w))
            }
            (Some(w), EndReason::Sold, Lang::En) => {
                format!("{} wins: sold {} of the three pairs", name(w), sold(w))
            }
            (Some(w), EndReason::QuickSale, Lang::De) => {
                format!(
                    "{} gewinnt: zwei Paare auf einmal verkauft (Schnellverkauf)",
                    name(w)
                )
            }
            (Some(w), EndReason::QuickSale, Lang::En) => {
                format!("{} wins: sold two pairs at once (quick sale)", name(w))
            }
            (Some(w), EndReason::OutOfCards, Lang::De) => {
                format!("{} gewinnt: {} hat keine Karten mehr", name(w), name(1 - w))
            }
            (Some(w), EndReason::OutOfCards, Lang::En) => {
                format!("{} wins: {} ran out of cards", name(w), name(1 - w))
            }
            (None, _, Lang::De) => "unentschieden: beiden Spielern sind die Karten ausgegangen".to_string(),
            (None, _, Lang::En) => "a draw: both players ran out of cards".to_string(),
        })
    }
}
