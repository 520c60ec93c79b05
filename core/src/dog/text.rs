//! Texts for people, in German and English ([`Lang`]): actions, the board and the result.
//! German words are the seed's: Murmel, Startraum, Zielraum, Partner, Partei, Runde; the
//! colours rot, blau, grün, gelb; the cards As, Bube, Dame, König, Joker
//! ([`super::cards::Card::name_de`]). English texts write the notation (A, 2–10, J, Q, K,
//! JK), as JSON does. Marbles are counted 1–4 within their colour.

use std::fmt::Write as _;

use super::board::*;
use super::checks::COLORS_DE;
use super::codec::*;
use super::rules::*;
use crate::game::{Action, Lang};
use crate::names::{Names, shown, team_number};

pub(super) fn color_name(color: usize, lang: Lang) -> &'static str {
    lang.pick(COLORS_DE, COLORS)[color]
}

/// A marble as `me` sees it: "red 1", "partner's green 1", "opponent's blue 3" /
/// "rot 1", "grün 1 (Partner)", "blau 3 (Gegner)": each colour's marbles counted 1-4.
fn marble_name(me: usize, marble: usize, lang: Lang) -> String {
    let c = color_of(marble);
    let color = color_name(c, lang);
    let n = shown(marble % 4);
    let whose = if c == me {
        0
    } else if c == partner(me) {
        1
    } else {
        2
    };
    match lang {
        Lang::De => format!("{color} {n}{}", ["", " (Partner)", " (Gegner)"][whose]),
        Lang::En => format!("{}{color} {n}", ["", "partner's ", "opponent's "][whose]),
    }
}

/// One part of a split seven (D8): "red 1 forward 3" / "rot 1 fährt 3 vorwärts".
fn seven_part_text(me: usize, marble: usize, steps: u8, goal: bool, lang: Lang) -> String {
    let name = marble_name(me, marble, lang);
    match lang {
        Lang::De => {
            let into = if goal { " in den Zielraum" } else { "" };
            format!("{name} fährt {steps} vorwärts{into}")
        }
        Lang::En => {
            let into = if goal { " into the goal" } else { "" };
            format!("{name} forward {steps}{into}")
        }
    }
}

impl State {
    pub(super) fn describe(&self, action: Action, lang: Lang) -> String {
        let me = self.d.current as usize;
        let color = self.moving_color(me);
        let joker = |j: bool| {
            if j {
                lang.pick("Joker als ", "Joker as ")
            } else {
                ""
            }
        };
        match Decoded::decode(action) {
            Some(Decoded::Exchange(card)) => match lang {
                Lang::De => format!("{} dem Partner geben", card.name_de()),
                Lang::En => format!("give {card} to the partner"),
            },
            Some(Decoded::Start { source }) => {
                let card = lang.pick(["As", "König", "Joker"], ["Ace", "King", "Joker"])[source as usize];
                match lang {
                    Lang::De if color == me => format!("{card}: eine Murmel starten"),
                    Lang::De => format!(
                        "{card}: eine Murmel des Partners ({}) starten",
                        color_name(color, lang)
                    ),
                    Lang::En if color == me => format!("{card}: start a marble"),
                    Lang::En => format!("{card}: start a marble of the partner ({})", COLORS[color]),
                }
            }
            Some(Decoded::Step {
                joker: j,
                kind,
                marble,
                goal,
            }) => {
                let (card, steps) = MOVE_KINDS[kind];
                let name = marble_name(me, marble, lang);
                let n = steps.abs();
                match lang {
                    Lang::De => {
                        let dir = if steps < 0 { "rückwärts" } else { "vorwärts" };
                        let into = if goal { " in den Zielraum" } else { "" };
                        let card = card.name_de();
                        format!("{}{card}: {name} fährt {n} {dir}{into}", joker(j))
                    }
                    Lang::En => {
                        let dir = if steps < 0 { "back" } else { "forward" };
                        let into = if goal { " into the goal" } else { "" };
                        format!("{}{card}: {name} {dir} {n}{into}", joker(j))
                    }
                }
            }
            Some(Decoded::Seven {
                joker: j,
                marble,
                steps,
                goal,
            }) => {
                // The parts played so far come first: "7: red 1 forward 3, partner's green 1
                // forward 4 (0 left)".
                let mut parts: Vec<String> = self
                    .seven_so_far()
                    .map(|(marble, steps, goal)| seven_part_text(me, marble, steps, goal, lang))
                    .collect();
                parts.push(seven_part_text(me, marble, steps, goal, lang));
                let left = self.d.seven.map_or(7, |s| s.remaining).saturating_sub(steps);
                let left = lang.pick(format!("noch {left}"), format!("{left} left"));
                format!("{}7: {} ({left})", joker(j), parts.join(", "))
            }
            Some(Decoded::Jack {
                joker: j,
                marble,
                with,
            }) => {
                let (a, b) = (marble_name(me, marble, lang), marble_name(me, with, lang));
                match lang {
                    Lang::De => format!("{}Bube: {a} mit {b} tauschen", joker(j)),
                    Lang::En => format!("{}J: swap {a} with {b}", joker(j)),
                }
            }
            Some(Decoded::SitOut) => lang
                .pick(
                    "kein Zug möglich: die Hand abwerfen und die Runde aussetzen",
                    "no legal move: discard the hand and sit out the round",
                )
                .into(),
            None => match lang {
                Lang::De => format!("ungültige Aktion {action}"),
                Lang::En => format!("invalid action {action}"),
            },
        }
    }

    /// The result in one line for people (D13), naming the winning team's seats by
    /// `names` with their colours; `None` while the game runs.
    pub(super) fn result_line(&self, lang: Lang, names: &Names) -> Option<String> {
        let o = self.d.outcome?;
        let [a, b] = o.points;
        Some(match (o.reason, o.winner) {
            (EndReason::AllHome, Some(t)) => {
                let t = t as usize % 2;
                let seat = |p: usize| format!("{}: {}", color_name(p, lang), names.seat(p, lang));
                let (team, first, second) = (team_number(t, lang), seat(t), seat(t + 2));
                match lang {
                    Lang::De => format!(
                        "{team} ({first}, {second}) gewinnt: alle acht Murmeln im Zielraum; Punkte {a}:{b}"
                    ),
                    Lang::En => {
                        format!("{team} ({first}, {second}) wins: all eight marbles home; points {a}:{b}")
                    }
                }
            }
            _ => match lang {
                Lang::De => format!(
                    "kein Sieger: nach {} Zügen beendet; ein Punkt je Murmel im Zielraum: {a}:{b}",
                    self.d.turns
                ),
                Lang::En => format!(
                    "no winner: stopped after {} turns; a point per marble home: {a}:{b}",
                    self.d.turns
                ),
            },
        })
    }

    /// The ring (protected marbles in capitals), each colour's kennel, goal and hand (with
    /// a seat: only its own, the others' sizes), the round and the pile.
    pub(super) fn picture(&self, seat: Option<usize>, lang: Lang) -> String {
        let mut out = String::new();
        let mut ring = vec!["."; RING];
        let letters = ["r", "b", "g", "y"];
        for (m, mk) in self.board.marbles.iter().enumerate() {
            if let Place::Ring(f) = mk.place {
                ring[f as usize] = if mk.protected {
                    ["R", "B", "G", "Y"][color_of(m)]
                } else {
                    letters[color_of(m)]
                };
            }
        }
        for q in 0..4 {
            let _ = writeln!(
                out,
                "{} {:>2}-{:>2}: {}",
                lang.pick("Felder", "fields"),
                16 * q,
                16 * q + 15,
                ring[16 * q..16 * q + 16].join(" ")
            );
        }
        for (p, &letter) in letters.iter().enumerate() {
            let kennel = (0..4)
                .filter(|k| self.board.marbles[4 * p + k].place == Place::Kennel)
                .count();
            let goal: String = (0..GOAL_LEN)
                .map(|s| {
                    if self.board.at(goal_cell(p, s)).is_some() {
                        letter
                    } else {
                        "."
                    }
                })
                .collect();
            let hand = if seat.is_none_or(|s| s == p) {
                self.hand_text(p).join(" ")
            } else {
                let n = self.d.hands[p].len();
                lang.pick(format!("{n} Karten"), format!("{n} cards"))
            };
            let sat_out = if self.d.sat_out[p] {
                lang.pick(" (setzt aus)", " (sat out)")
            } else {
                ""
            };
            let color = color_name(p, lang);
            let _ = match lang {
                Lang::De => writeln!(
                    out,
                    "{color:<6} Startraum {kennel} Zielraum [{goal}] Hand {hand}{sat_out}"
                ),
                Lang::En => writeln!(
                    out,
                    "{color:<6} kennel {kennel} goal [{goal}] hand {hand}{sat_out}"
                ),
            };
        }
        let (round, size, pile) = (
            self.d.round + 1,
            HAND_SIZES[(self.d.round % 5) as usize],
            self.d.pile.len(),
        );
        let _ = match lang {
            Lang::De => write!(out, "Runde {round} ({size} Karten), Stapel {pile}"),
            Lang::En => write!(out, "round {round} ({size} cards), pile {pile}"),
        };
        if let Some(seven) = self.d.seven {
            let left = seven.remaining;
            let _ = match lang {
                Lang::De => write!(out, ", Sieben: noch {left} Schritte"),
                Lang::En => write!(out, ", seven: {left} steps left"),
            };
        }
        if let Some(text) = self.result_line(lang, &Names::default()) {
            let _ = write!(out, "\n{text}");
        }
        out
    }
}
