//! Texts for people, in German and English ([`Lang`]): actions, the board and the result.
//! Stones are numbered 1–9 as on the board (S1), while ids and JSON say 0–8. German words
//! are the seed's: Stein, Nehmen (the claim button), Endabrechnung, the formations'
//! names (Farbenfolge, Dreierpasch, Farbe, Strasse, Summe).

use std::fmt::Write as _;

use super::cards::Card;
use super::checks::shown;
use super::codec::Move;
use super::rules::NUM_STONES;
use super::state::{Award, EndReason, Outcome, Side, State};
use crate::game::{Action, GameState, Lang};

/// How an owned stone was won, for the board.
fn award_text(award: Award, lang: Lang) -> &'static str {
    match lang {
        Lang::En => award.name(),
        Lang::De => match award {
            Award::Claim => "genommen",
            Award::SettlementProof => "Endabrechnung: beweisbar",
            Award::SettlementComplete => "Endabrechnung: vollständig",
            Award::SettlementCount => "Endabrechnung: mehr Karten",
        },
    }
}

impl State {
    /// "play B5 at stone 4" / "B5 an Stein 4 legen", "claim stone 4" / "Stein 4 nehmen",
    /// "pass" / "passen", "end turn" / "Zug beenden".
    pub(super) fn action_line(action: Action, lang: Lang) -> String {
        match (Move::decode(action), lang) {
            (Some(Move::Play { card, stone }), Lang::De) => {
                format!("{card} an Stein {} legen", shown(stone.into()))
            }
            (Some(Move::Play { card, stone }), Lang::En) => {
                format!("play {card} at stone {}", shown(stone.into()))
            }
            (Some(Move::Claim { stone }), Lang::De) => format!("Stein {} nehmen", shown(stone.into())),
            (Some(Move::Claim { stone }), Lang::En) => format!("claim stone {}", shown(stone.into())),
            (Some(Move::Pass {}), _) => lang.pick("passen", "pass").into(),
            (Some(Move::EndTurn {}), _) => lang.pick("Zug beenden", "end turn").into(),
            (None, Lang::De) => format!("ungültige Aktion {action}"),
            (None, Lang::En) => format!("invalid action {action}"),
        }
    }

    /// Why the game ended, e.g. "player 1 wins: three adjacent stones (4-5-6)".
    pub(super) fn result_line(&self, lang: Lang) -> Option<String> {
        let Outcome { winner, reason } = self.outcome?;
        let count = |p: u8| self.stones.iter().filter(|s| s.owner == Some(p)).count();
        Some(match (winner, reason) {
            (Some(w), EndReason::FiveStones) => match lang {
                Lang::De => format!("Spieler {w} gewinnt: fünf Steine"),
                Lang::En => format!("player {w} wins: five stones"),
            },
            (Some(w), EndReason::ThreeAdjacent) => {
                let first = (0..NUM_STONES - 2)
                    .find(|&i| (i..i + 3).all(|j| self.stones[j].owner == Some(w)))
                    .unwrap_or(0);
                let (a, b, c) = (shown(first), shown(first + 1), shown(first + 2));
                match lang {
                    Lang::De => format!("Spieler {w} gewinnt: drei benachbarte Steine ({a}-{b}-{c})"),
                    Lang::En => format!("player {w} wins: three adjacent stones ({a}-{b}-{c})"),
                }
            }
            (Some(w), EndReason::Settlement) => {
                let (mine, theirs) = (count(w), count(1 - w.min(1)));
                match lang {
                    Lang::De => format!("Spieler {w} gewinnt die Endabrechnung, {mine} Steine zu {theirs}"),
                    Lang::En => format!("player {w} wins the settlement, {mine} stones to {theirs}"),
                }
            }
            (None, _) => match lang {
                Lang::De => format!(
                    "unentschieden: nach der Endabrechnung hat jeder {} Steine",
                    count(0)
                ),
                Lang::En => format!("a draw: the settlement leaves {} stones each", count(0)),
            },
        })
    }

    /// The stones with both sides, the hands (with a seat: only its own, the other's
    /// size) and the pile's size.
    pub(super) fn render_text(&self, seat: Option<usize>, lang: Lang) -> String {
        let mut out = String::new();
        let side = |s: &Side| {
            let mut cards: Vec<String> = s.cards().iter().map(Card::to_string).collect();
            cards.resize(3, "..".into());
            cards.join(" ")
        };
        let _ = writeln!(
            out,
            "{}",
            lang.pick(
                "Stein  Spieler 0   Spieler 1   gehört",
                "stone  player 0    player 1    owner"
            )
        );
        for (i, s) in self.stones.iter().enumerate() {
            let owner = match (s.owner, s.award) {
                (Some(p), Some(how)) => {
                    format!(
                        "{} {p} ({})",
                        lang.pick("Spieler", "player"),
                        award_text(how, lang)
                    )
                }
                _ => "-".into(),
            };
            let _ = writeln!(
                out,
                "  {}    {}    {}    {owner}",
                shown(i),
                side(&s.sides[0]),
                side(&s.sides[1])
            );
        }
        for p in 0..2 {
            let hand = if seat.is_none_or(|s| s == p) {
                self.hand(p).join(" ")
            } else {
                let n = self.hands[p].len();
                lang.pick(format!("{n} Karten"), format!("{n} cards"))
            };
            let _ = writeln!(out, "{} {p}: {hand}", lang.pick("Hand", "hand"));
        }
        let n = self.pile.len();
        let _ = write!(
            out,
            "{}",
            lang.pick(format!("Stapel: {n} Karten"), format!("pile: {n} cards"))
        );
        out
    }
}
