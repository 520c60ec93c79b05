//! Texts for people, in German and English ([`Lang`]): actions, the board and the result.
//! Stones are numbered 1–9 as on the board (S1), while ids and JSON say 0–8. German words
//! are the seed's: Stein, Nehmen (the claim button), Endabrechnung, the formations'
//! names (Farbenfolge, Dreierpasch, Farbe, Strasse, Summe).

use std::fmt::Write as _;

use super::cards::Card;
use super::checks::shown;
use super::codec::Move;
use super::facts::{SettledBy, SettledStone};
use super::rules::NUM_STONES;
use super::state::{Award, EndReason, Outcome, Side, State};
use crate::game::{Action, GameState, Lang};
use crate::names::{self, Names, seat_number};

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
    /// "play B5 at stone 4" / "Blau 5 an Stein 4 legen", "claim stone 4" / "Stein 4 nehmen",
    /// "pass" / "passen", "end turn" / "Zug beenden".
    pub(super) fn action_line(action: Action, lang: Lang) -> String {
        match (Move::decode(action), lang) {
            (Some(Move::Play { card, stone }), Lang::De) => {
                format!("{} an Stein {} legen", card.name_de(), shown(stone.into()))
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

    /// Why the game ended, naming the seats by `names`, e.g. "Anna wins: three adjacent
    /// stones (4-5-6)".
    pub(super) fn result_line(&self, lang: Lang, names: &Names) -> Option<String> {
        let Outcome { winner, reason } = self.outcome?;
        let count = |p: u8| self.stones.iter().filter(|s| s.owner == Some(p)).count();
        let name = |p: u8| names.seat(usize::from(p), lang);
        Some(match (winner, reason) {
            (Some(w), EndReason::FiveStones) => match lang {
                Lang::De => format!("{} gewinnt: fünf Steine", name(w)),
                Lang::En => format!("{} wins: five stones", name(w)),
            },
            (Some(w), EndReason::ThreeAdjacent) => {
                let first = (0..NUM_STONES - 2)
                    .find(|&i| (i..i + 3).all(|j| self.stones[j].owner == Some(w)))
                    .unwrap_or(0);
                let (a, b, c) = (shown(first), shown(first + 1), shown(first + 2));
                match lang {
                    Lang::De => format!("{} gewinnt: drei benachbarte Steine ({a}-{b}-{c})", name(w)),
                    Lang::En => format!("{} wins: three adjacent stones ({a}-{b}-{c})", name(w)),
                }
            }
            (Some(w), EndReason::Settlement) => {
                let (mine, theirs) = (count(w), count(1 - w.min(1)));
                match lang {
                    Lang::De => format!("{} gewinnt die Endabrechnung, {mine} Steine zu {theirs}", name(w)),
                    Lang::En => format!("{} wins the settlement, {mine} stones to {theirs}", name(w)),
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

    /// Step `step` (1-4) of the settlement (S9) for people, e.g. "1. Beweisbare Steine:
    /// Steine 2 und 5 an Spieler 1, Stein 7 an Spieler 2." / "3. Both sides incomplete: more
    /// cards, then the higher sum: stone 8 to player 1 (more cards: 2 to 1), stone 4 stays
    /// unowned (as many cards, the same sum)." / "4. Count: player 1 has 5 stones, player 2
    /// has 4: player 1 wins." Stones are numbered 1-9 as on the board (S1), and so are the
    /// seats, from 1 (the steps are the state's facts, the same for every reader).
    pub(super) fn settlement_line(
        &self,
        step: u8,
        stones: &[SettledStone],
        counts: [u8; 2],
        winner: Option<u8>,
        lang: Lang,
    ) -> String {
        let title = match step {
            1 => lang.pick("Beweisbare Steine", "Provable stones"),
            2 => lang.pick("Eine Seite vollständig", "One side complete"),
            3 => lang.pick(
                "Beide Seiten unvollständig: mehr Karten, dann höhere Summe",
                "Both sides incomplete: more cards, then the higher sum",
            ),
            _ => lang.pick("Zählen", "Count"),
        };
        if step == 4 {
            let stones = |n: u8| match (n, lang) {
                (1, Lang::De) => "1 Stein".to_string(),
                (1, Lang::En) => "1 stone".to_string(),
                (n, Lang::De) => format!("{n} Steine"),
                (n, Lang::En) => format!("{n} stones"),
            };
            let end = match winner {
                Some(w) => {
                    let w = seat_number(usize::from(w), lang);
                    lang.pick(format!("{w} gewinnt"), format!("{w} wins"))
                }
                None => lang.pick("unentschieden", "a draw").to_string(),
            };
            let (a, b) = (stones(counts[0]), stones(counts[1]));
            return match lang {
                Lang::De => format!("4. {title}: Spieler 1 hat {a}, Spieler 2 hat {b}: {end}."),
                Lang::En => format!("4. {title}: player 1 has {a}, player 2 has {b}: {end}."),
            };
        }
        if stones.is_empty() {
            return format!("{step}. {title}: {}.", lang.pick("keiner", "none"));
        }
        // "1", "1 und 3", "1, 3 und 5": stones as the board numbers them.
        let list = |stones: &[&SettledStone]| {
            let names: Vec<String> = stones
                .iter()
                .map(|s| shown(usize::from(s.stone)).to_string())
                .collect();
            match names.split_last() {
                Some((last, [])) => last.clone(),
                Some((last, first)) => format!("{} {} {last}", first.join(", "), lang.pick("und", "and")),
                None => String::new(),
            }
        };
        let stones_word = |n: usize| match (n, lang) {
            (1, Lang::De) => "Stein",
            (_, Lang::De) => "Steine",
            (1, Lang::En) => "stone",
            (_, Lang::En) => "stones",
        };
        let mut parts = Vec::new();
        if step == 3 {
            // Step 3: each stone with the figures that decided it.
            for s in stones {
                let Some(p) = s.owner else { continue };
                let i = usize::from(s.stone);
                let n = shown(i);
                let [a, b] = &self.stones[i].sides;
                let (mine, theirs) = if p == 0 { (a, b) } else { (b, a) };
                let why = match s.by {
                    SettledBy::MoreCards => lang.pick(
                        format!("mehr Karten: {} zu {}", mine.len(), theirs.len()),
                        format!("more cards: {} to {}", mine.len(), theirs.len()),
                    ),
                    _ => lang.pick(
                        format!("höhere Summe: {} zu {}", mine.sum(), theirs.sum()),
                        format!("higher sum: {} to {}", mine.sum(), theirs.sum()),
                    ),
                };
                let who = seat_number(usize::from(p), lang);
                parts.push(lang.pick(
                    format!("Stein {n} an {who} ({why})"),
                    format!("stone {n} to {who} ({why})"),
                ));
            }
        } else {
            // Steps 1 and 2: the stones of each player together.
            for p in 0..2u8 {
                let theirs: Vec<&SettledStone> = stones.iter().filter(|s| s.owner == Some(p)).collect();
                if !theirs.is_empty() {
                    let (word, list) = (stones_word(theirs.len()), list(&theirs));
                    let who = seat_number(usize::from(p), lang);
                    parts.push(lang.pick(
                        format!("{word} {list} an {who}"),
                        format!("{word} {list} to {who}"),
                    ));
                }
            }
        }
        // Step 3's ties, together: as many cards and the same sum (empty stones too).
        let ties: Vec<&SettledStone> = stones.iter().filter(|s| s.owner.is_none()).collect();
        if !ties.is_empty() {
            let (word, list) = (stones_word(ties.len()), list(&ties));
            parts.push(match (ties.len(), lang) {
                (1, Lang::De) => format!("{word} {list} bleibt frei (gleich viele Karten, gleiche Summe)"),
                (1, Lang::En) => format!("{word} {list} stays unowned (as many cards, the same sum)"),
                (_, Lang::De) => format!("{word} {list} bleiben frei (gleich viele Karten, gleiche Summe)"),
                (_, Lang::En) => format!("{word} {list} stay unowned (as many cards, the same sum)"),
            });
        }
        format!("{step}. {title}: {}.", parts.join(", "))
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
                "Stein  Spieler 1   Spieler 2   gehört",
                "stone  player 1    player 2    owner"
            )
        );
        for (i, s) in self.stones.iter().enumerate() {
            let owner = match (s.owner, s.award) {
                (Some(p), Some(how)) => {
                    format!(
                        "{} ({})",
                        seat_number(usize::from(p), lang),
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
            let _ = writeln!(out, "{} {}: {hand}", lang.pick("Hand", "hand"), names::shown(p));
        }
        let n = self.pile.len();
        let _ = write!(
            out,
            "{}",
            lang.pick(format!("Stapel: {n} Karten"), format!("pile: {n} cards"))
        );
        if let Some(settled) = super::facts::settlement(self) {
            let _ = write!(out, "\n{}", lang.pick("Endabrechnung:", "settlement:"));
            for step in &settled.steps {
                let _ = write!(out, "\n  {}", lang.pick(&step.text.de, &step.text.en));
            }
        }
        out
    }
}
