//! The move check with reasons: the slow obvious reference (`check`) that the fast
//! generation in `legal.rs` must agree with, and the seven's search (D8).

use std::collections::HashSet;

use super::board::*;
use super::cards::Card;
use super::codec::*;
use super::rules::*;
use crate::error::IllegalAction;
use crate::game::{GameState, Lang};
use crate::names::seat_number;

/// The German colour names (the seed's language), seat 0-3.
pub(super) const COLORS_DE: [&str; 4] = ["rot", "blau", "grün", "gelb"];

/// A marble as a rejection names it: its colour and its number within the colour, counted
/// 1-4 as a person counts ("blau 2" for marble 5).
fn marble_label(marble: usize, lang: Lang) -> String {
    let color = super::text::color_name(color_of(marble), lang);
    format!("{color} {}", crate::names::shown(marble % 4))
}

impl From<Blocked> for IllegalAction {
    fn from(b: Blocked) -> IllegalAction {
        match b {
            Blocked::InKennel => IllegalAction::new(
                "D6",
                "marble_in_kennel",
                "a marble in the kennel can only be started (A, K or joker)",
                "eine Murmel im Startraum kann nur gestartet werden (As, König oder Joker)",
            ),
            Blocked::GoalForwardOnly => IllegalAction::new(
                "D9",
                "goal_forward_only",
                "in the goal a marble moves forward only, and stays in the goal",
                "im Zielraum fährt eine Murmel nur vorwärts und bleibt im Zielraum",
            ),
            Blocked::GoalOvershoot { slot, steps } => IllegalAction::new(
                "D9",
                "goal_overshoot",
                format!(
                    "no overshooting in the goal: goal field {slot} plus {steps} is past the last goal field"
                ),
                format!(
                    "kein Überfahren im Zielraum: Zielfeld {slot} plus {steps} liegt hinter dem letzten Zielfeld"
                ),
            )
            .with("goal_field", slot)
            .with("steps", steps),
            Blocked::GoalTaken(s) => IllegalAction::new(
                "D9",
                "goal_field_taken",
                format!("no passing or landing in the goal: goal field {s} is taken"),
                format!("im Zielraum wird weder überholt noch aufgefahren: Zielfeld {s} ist besetzt"),
            )
            .with("goal_field", s),
            Blocked::GoalBackward => IllegalAction::new(
                "D9",
                "goal_entered_backward",
                "the goal is entered moving forward only",
                "in den Zielraum darf nur vorwärts eingefahren werden",
            ),
            Blocked::PassProtected(f) => IllegalAction::new(
                "D6",
                "passes_protected_marble",
                format!("cannot pass the protected marble on field {f}"),
                format!("die geschützte Murmel auf Feld {f} darf nicht überholt werden"),
            )
            .with("field", f),
            Blocked::LandProtected(f) => IllegalAction::new(
                "D6",
                "lands_on_protected_marble",
                format!("cannot land on the protected marble on field {f}"),
                format!("auf die geschützte Murmel auf Feld {f} darf nicht gefahren werden"),
            )
            .with("field", f),
            Blocked::NotLeftStart => IllegalAction::new(
                "D9",
                "not_left_start",
                "a marble enters its goal only after it has left the start field once",
                "eine Murmel fährt erst in den Zielraum, wenn sie die Startposition einmal verlassen hat",
            ),
            Blocked::KennelEmpty(color) => IllegalAction::new(
                "D6",
                "kennel_empty",
                format!("no {} marble is left in the kennel", COLORS[color]),
                format!("im Startraum ist keine Murmel ({}) mehr", COLORS_DE[color]),
            )
            .with("color", COLORS[color]),
            Blocked::StartTaken(field) => IllegalAction::new(
                "D6",
                "start_field_protected",
                format!("the start field {field} holds a protected marble"),
                format!("auf der Startposition {field} steht eine geschützte Murmel"),
            )
            .with("field", field),
            Blocked::ShortOfGoal { steps, field } => IllegalAction::new(
                "D9",
                "short_of_goal",
                format!("{steps} steps from field {field} do not reach the goal"),
                format!("{steps} Felder ab Feld {field} reichen nicht in den Zielraum"),
            )
            .with("steps", steps)
            .with("field", field),
            Blocked::PastGoal { steps, field } => IllegalAction::new(
                "D9",
                "past_goal",
                format!(
                    "{steps} steps from field {field} overshoot the goal: the marble must go round again"
                ),
                format!(
                    "{steps} Felder ab Feld {field} führen über den Zielraum hinaus: die Murmel muss eine weitere Runde fahren"
                ),
            )
            .with("steps", steps)
            .with("field", field),
        }
    }
}

impl State {
    /// Would this (joker) move bring the team's last marble into the goal (D11)?
    pub(super) fn joker_brings_last_home(&self, player: usize, after: &Board) -> bool {
        let t = team(player);
        self.board.team_in_goal(t) < 8 && after.team_in_goal(t) == 8
    }

    /// Can `remaining` steps of a seven still be used completely from `board` (D8)?
    ///
    /// First the common case, one marble taking all the steps; then a depth-first search
    /// over splits, remembering positions that failed.
    pub(super) fn seven_can_finish(
        board: &Board,
        player: usize,
        remaining: u8,
        joker: bool,
        failed: &mut HashSet<([u8; NUM_MARBLES], u8)>,
    ) -> bool {
        if remaining == 0 {
            return true;
        }
        let t = team(player);
        let home = board.team_in_goal(t);
        // D11: with a joker, no part may bring the team's last marble into the goal.
        let allowed = |marble: usize, landing: &Landing| {
            !(joker
                && home == 7
                && matches!(board.marbles[marble].place, Place::Ring(_))
                && matches!(landing.place, Place::Goal(_)))
        };
        let (movable, n) = board.team_out(t);
        let movable = &movable[..n];
        for &marble in movable {
            for goal in [false, true] {
                if board
                    .landing(marble, remaining as i8, goal, true)
                    .is_ok_and(|l| allowed(marble, &l))
                {
                    return true;
                }
            }
        }
        if remaining == 1 || failed.contains(&(board.key(), remaining)) {
            return false;
        }
        for &marble in movable {
            for steps in (1..remaining).rev() {
                for goal in [false, true] {
                    let Ok(landing) = board.landing(marble, steps as i8, goal, true) else {
                        continue;
                    };
                    if !allowed(marble, &landing) {
                        continue;
                    }
                    let mut next = *board;
                    next.apply_landing(marble, landing);
                    if Self::seven_can_finish(&next, player, remaining - steps, joker, failed) {
                        return true;
                    }
                }
            }
        }
        failed.insert((board.key(), remaining));
        false
    }

    /// Whether `mv` is legal, and for a marble's move its landing, so that carrying the
    /// move out does not walk its way again.
    pub(super) fn check(&self, mv: Decoded) -> Result<Option<Landing>, IllegalAction> {
        self.check_by(self.d.current as usize, mv)
    }

    /// [`State::check`] for a move of `seat`: whether that seat may move at all, then the move.
    pub(super) fn check_seat(&self, seat: usize, mv: Decoded) -> Result<Option<Landing>, IllegalAction> {
        if self.d.phase == Phase::Exchange && seat < 4 {
            if self.d.exchange[seat].is_some() {
                return Err(IllegalAction::new(
                    "D4",
                    "already_picked",
                    format!(
                        "player {seat_n} has already picked a card for the partner this round",
                        seat_n = crate::names::shown(seat)
                    ),
                    format!(
                        "Spieler {seat_n} hat in dieser Runde schon eine Karte für den Partner gewählt",
                        seat_n = crate::names::shown(seat)
                    ),
                )
                .with("seat", seat));
            }
            return self.check_by(seat, mv);
        }
        // Once the game is over, every seat hears that (D13), not "not your turn".
        if self.current_player() != Some(seat) && self.d.outcome.is_none() {
            return Err(IllegalAction::not_your_turn(seat, &self.seats_to_move()));
        }
        self.check_by(seat, mv)
    }

    /// [`State::check`] for a move of seat `me`: during the exchange any seat that has not
    /// picked may pick (D4); otherwise only the current player moves (the caller sees to it).
    pub(super) fn check_by(&self, me: usize, mv: Decoded) -> Result<Option<Landing>, IllegalAction> {
        if self.d.outcome.is_some() {
            return Err(IllegalAction::new(
                "D13",
                "game_over",
                "the game is over",
                "das Spiel ist vorbei",
            ));
        }
        let hand = &self.d.hands[me];
        if let Decoded::Exchange(card) = mv {
            if self.d.phase != Phase::Exchange {
                return Err(IllegalAction::new(
                    "D4",
                    "exchange_over",
                    "the exchange happens before the round's first card",
                    "getauscht wird vor der ersten Karte der Runde",
                ));
            }
            if !hand.has(card) {
                return Err(
                    IllegalAction::card_not_in_hand("D4", &card.to_string(), card.name_de(), me)
                        .with("seat", me),
                );
            }
            return Ok(None);
        }
        if self.d.phase == Phase::Exchange {
            return Err(IllegalAction::new(
                "D4",
                "exchange_first",
                "first every player picks a card for the partner",
                "zuerst wählt jeder Spieler eine Karte für den Partner",
            ));
        }
        match (self.d.seven, mv) {
            (Some(seven), Decoded::Seven { joker, .. }) if joker == seven.joker => {}
            (Some(seven), _) => {
                return Err(IllegalAction::new(
                    "D8",
                    "seven_unfinished",
                    format!(
                        "a seven must be used completely: {} steps are left",
                        seven.remaining
                    ),
                    format!(
                        "die Sieben muss ganz ausgefahren werden: {} Punkte fehlen noch",
                        seven.remaining
                    ),
                )
                .with("remaining", seven.remaining));
            }
            _ => {}
        }
        if mv == Decoded::SitOut {
            return if self.has_legal_move() {
                Err(IllegalAction::new(
                    "D5",
                    "must_play",
                    "a player who can move must play a card (Zugzwang)",
                    "wer fahren kann, muss eine Karte spielen (Zugzwang)",
                ))
            } else {
                Ok(None)
            };
        }
        let card = mv.card().expect("plays have cards");
        if self.d.seven.is_none() && !hand.has(card) {
            return Err(
                IllegalAction::card_not_in_hand("D5", &card.to_string(), card.name_de(), me).with("seat", me),
            );
        }
        let color = self.moving_color(me);
        match mv {
            Decoded::Start { .. } => {
                // A start never brings a marble into the goal: the joker may always start.
                self.board.start(color)?;
                Ok(None)
            }
            Decoded::Step {
                kind, marble, goal, ..
            } => {
                if color_of(marble) != color {
                    return Err(self.not_yours(me, marble));
                }
                let from_ring = matches!(self.board.marbles[marble].place, Place::Ring(_));
                let landing = self.board.landing(marble, MOVE_KINDS[kind].1, goal, false)?;
                // D11: entering the goal from the ring adds one marble to the team's count.
                let completes = from_ring
                    && matches!(landing.place, Place::Goal(_))
                    && self.board.team_in_goal(team(me)) == 7;
                if card == Card::JOKER && completes {
                    return Err(IllegalAction::new(
                        "D11",
                        "joker_last_marble",
                        "the joker may not bring the team's last marble home",
                        "die 8. Murmel einer Partei darf nicht mit dem Joker ins Ziel gebracht werden",
                    ));
                }
                Ok(Some(landing))
            }
            Decoded::Seven {
                joker,
                marble,
                steps,
                goal,
            } => {
                if team(color_of(marble)) != team(me) {
                    return Err(IllegalAction::new(
                        "D8",
                        "seven_team_only",
                        format!(
                            "a seven moves the team's marbles only; {} is the opponents'",
                            marble_label(marble, Lang::En)
                        ),
                        format!(
                            "die Sieben fährt nur Murmeln der eigenen Partei; {} gehört den Gegnern",
                            marble_label(marble, Lang::De)
                        ),
                    )
                    .with("marble", marble));
                }
                let remaining = self.d.seven.map_or(7, |s| s.remaining);
                if steps > remaining {
                    return Err(IllegalAction::new(
                        "D8",
                        "seven_steps_left",
                        format!("only {remaining} steps of the seven are left"),
                        format!("von der Sieben sind nur noch {remaining} Punkte übrig"),
                    )
                    .with("remaining", remaining)
                    .with("steps", steps));
                }
                let landing = self.board.landing(marble, steps as i8, goal, true)?;
                let after = || {
                    let mut after = self.board;
                    after.apply_landing(marble, landing);
                    after
                };
                if joker && self.joker_brings_last_home(me, &after()) {
                    return Err(IllegalAction::new(
                        "D11",
                        "joker_last_marble",
                        "the joker may not bring the team's last marble home",
                        "die 8. Murmel einer Partei darf nicht mit dem Joker ins Ziel gebracht werden",
                    ));
                }
                // The common case first: another marble (not sent home) takes the rest along
                // the ring, which only gets freer during a seven (see `seven_parts`).
                let rest = remaining - steps;
                let (team_marbles, n) = self.board.team_out(team(me));
                let protected = self.board.protected_fields();
                let quick = rest == 0
                    || team_marbles[..n].iter().any(|&other| {
                        other != marble
                            && landing.victims & (1 << other) == 0
                            && self.board.ring_reach(other, protected).0 >= rest
                    });
                if !quick && !Self::seven_can_finish(&after(), me, rest, joker, &mut HashSet::new()) {
                    return Err(IllegalAction::new(
                        "D8",
                        "seven_rest_unusable",
                        format!(
                            "a seven must be used completely: the other {} steps could not be used",
                            remaining - steps
                        ),
                        format!(
                            "die Sieben muss ganz ausgefahren werden: die übrigen {} Punkte könnten nicht gefahren werden",
                            remaining - steps
                        ),
                    )
                    .with("rest", remaining - steps));
                }
                Ok(Some(landing))
            }
            Decoded::Jack { marble, with, .. } => {
                if color_of(marble) != color {
                    return Err(self.not_yours(me, marble));
                }
                if color_of(with) == color_of(marble) {
                    return Err(IllegalAction::new(
                        "D10",
                        "jack_same_color",
                        "the jack swaps with a marble of another player",
                        "der Bube tauscht mit einer Murmel eines anderen Spielers",
                    ));
                }
                for m in [marble, with] {
                    let mk = self.board.marbles[m];
                    match mk.place {
                        Place::Ring(f) if mk.protected => {
                            return Err(IllegalAction::new(
                                "D10",
                                "protected_marble",
                                format!("the protected marble on field {f} cannot be swapped"),
                                format!("die geschützte Murmel auf Feld {f} kann nicht getauscht werden"),
                            )
                            .with("marble", m)
                            .with("field", f));
                        }
                        Place::Ring(_) => {}
                        _ => {
                            return Err(IllegalAction::new(
                                "D10",
                                "jack_ring_only",
                                format!(
                                    "the jack swaps marbles on the ring only; {} {} is not",
                                    COLORS[color_of(m)],
                                    m % 4
                                ),
                                format!(
                                    "der Bube tauscht nur Murmeln auf der Spielbahn; {} {} steht nicht dort",
                                    COLORS_DE[color_of(m)],
                                    m % 4
                                ),
                            )
                            .with("marble", m));
                        }
                    }
                }
                Ok(None)
            }
            Decoded::Exchange(_) | Decoded::SitOut => unreachable!(),
        }
    }

    pub(super) fn not_yours(&self, me: usize, marble: usize) -> IllegalAction {
        let color = self.moving_color(me);
        IllegalAction::new(
            if color == me { "D7" } else { "D12" },
            "not_your_marble",
            format!(
                "{} moves the {} marbles; {} is not one of them",
                seat_number(me, Lang::En),
                COLORS[color],
                marble_label(marble, Lang::En)
            ),
            format!(
                "{} fährt die Murmeln der Farbe {}; {} gehört nicht dazu",
                seat_number(me, Lang::De),
                COLORS_DE[color],
                marble_label(marble, Lang::De)
            ),
        )
        .with("marble", marble)
    }
}
