//! The move check with reasons: the slow obvious reference (`check`) that the fast
//! generation in `legal.rs` must agree with, and the seven's search (D8).

use std::collections::HashSet;

use super::board::*;
use super::cards::Card;
use super::codec::*;
use super::rules::*;
use crate::error::IllegalAction;
use crate::game::GameState;

impl From<Blocked> for IllegalAction {
    fn from(b: Blocked) -> IllegalAction {
        match b {
            Blocked::InKennel => {
                IllegalAction::untyped("D6", "a marble in the kennel can only be started (A, K or joker)")
            }
            Blocked::GoalForwardOnly => IllegalAction::untyped(
                "D9",
                "in the goal a marble moves forward only, and stays in the goal",
            ),
            Blocked::GoalOvershoot { slot, steps } => IllegalAction::untyped(
                "D9",
                format!(
                    "no overshooting in the goal: goal field {slot} plus {steps} is past the last goal field"
                ),
            ),
            Blocked::GoalTaken(s) => IllegalAction::untyped(
                "D9",
                format!("no passing or landing in the goal: goal field {s} is taken"),
            ),
            Blocked::GoalBackward => IllegalAction::untyped("D9", "the goal is entered moving forward only"),
            Blocked::PassProtected(f) => {
                IllegalAction::untyped("D6", format!("cannot pass the protected marble on field {f}"))
            }
            Blocked::LandProtected(f) => {
                IllegalAction::untyped("D6", format!("cannot land on the protected marble on field {f}"))
            }
            Blocked::NotLeftStart => IllegalAction::untyped(
                "D9",
                "a marble enters its goal only after it has left the start field once",
            ),
            Blocked::KennelEmpty(color) => {
                IllegalAction::untyped("D6", format!("no {} marble is left in the kennel", COLORS[color]))
            }
            Blocked::StartTaken(field) => {
                IllegalAction::untyped("D6", format!("the start field {field} holds a protected marble"))
            }
            Blocked::ShortOfGoal { steps, field } => IllegalAction::untyped(
                "D9",
                format!("{steps} steps from field {field} do not reach the goal"),
            ),
            Blocked::PastGoal { steps, field } => IllegalAction::untyped(
                "D9",
                format!(
                    "{steps} steps from field {field} overshoot the goal: the marble must go round again"
                ),
            ),
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
        &self,
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
                    if self.seven_can_finish(&next, player, remaining - steps, joker, failed) {
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
    pub(super) fn check(&self, mv: Act) -> Result<Option<Landing>, IllegalAction> {
        self.check_by(self.d.current as usize, mv)
    }

    /// [`State::check`] for a move of `seat`: whether that seat may move at all, then the move.
    pub(super) fn check_seat(&self, seat: usize, mv: Act) -> Result<Option<Landing>, IllegalAction> {
        if self.d.phase == Phase::Exchange && seat < 4 {
            if self.d.exchange[seat].is_some() {
                return Err(IllegalAction::untyped("D4", "already picked"));
            }
            return self.check_by(seat, mv);
        }
        if self.current_player() != Some(seat) {
            return Err(IllegalAction::not_your_turn(seat, &self.seats_to_move()));
        }
        self.check_by(seat, mv)
    }

    /// [`State::check`] for a move of seat `me`: during the exchange any seat that has not
    /// picked may pick (D4); otherwise only the current player moves (the caller sees to it).
    pub(super) fn check_by(&self, me: usize, mv: Act) -> Result<Option<Landing>, IllegalAction> {
        if self.d.outcome.is_some() {
            return Err(IllegalAction::untyped("D13", "the game is over"));
        }
        let hand = &self.d.hands[me];
        if let Act::Exchange(card) = mv {
            if self.d.phase != Phase::Exchange {
                return Err(IllegalAction::untyped(
                    "D4",
                    "the exchange happens before the round's first card",
                ));
            }
            if !hand.has(card) {
                return Err(IllegalAction::untyped(
                    "D4",
                    format!("{card} is not in player {me}'s hand"),
                ));
            }
            return Ok(None);
        }
        if self.d.phase == Phase::Exchange {
            return Err(IllegalAction::untyped(
                "D4",
                "first every player picks a card for the partner",
            ));
        }
        match (self.d.seven, mv) {
            (Some(seven), Act::Seven { joker, .. }) if joker == seven.joker => {}
            (Some(seven), _) => {
                return Err(IllegalAction::untyped(
                    "D8",
                    format!(
                        "a seven must be used completely: {} steps are left",
                        seven.remaining
                    ),
                ));
            }
            _ => {}
        }
        if mv == Act::SitOut {
            return match self.has_legal_move() {
                true => Err(IllegalAction::untyped(
                    "D5",
                    "a player who can move must play a card (Zugzwang)",
                )),
                false => Ok(None),
            };
        }
        let card = mv.card().expect("plays have cards");
        if self.d.seven.is_none() && !hand.has(card) {
            return Err(IllegalAction::untyped(
                "D5",
                format!("{card} is not in player {me}'s hand"),
            ));
        }
        let color = self.moving_color(me);
        match mv {
            Act::Start { .. } => {
                // A start never brings a marble into the goal: the joker may always start.
                self.board.start(color)?;
                Ok(None)
            }
            Act::Step {
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
                    return Err(IllegalAction::untyped(
                        "D11",
                        "the joker may not bring the team's last marble home",
                    ));
                }
                Ok(Some(landing))
            }
            Act::Seven {
                joker,
                marble,
                steps,
                goal,
            } => {
                if team(color_of(marble)) != team(me) {
                    return Err(IllegalAction::untyped(
                        "D8",
                        format!(
                            "a seven moves the team's marbles only; marble {marble} is {}",
                            COLORS[color_of(marble)]
                        ),
                    ));
                }
                let remaining = self.d.seven.map_or(7, |s| s.remaining);
                if steps > remaining {
                    return Err(IllegalAction::untyped(
                        "D8",
                        format!("only {remaining} steps of the seven are left"),
                    ));
                }
                let landing = self.board.landing(marble, steps as i8, goal, true)?;
                let after = || {
                    let mut after = self.board;
                    after.apply_landing(marble, landing);
                    after
                };
                if joker && self.joker_brings_last_home(me, &after()) {
                    return Err(IllegalAction::untyped(
                        "D11",
                        "the joker may not bring the team's last marble home",
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
                if !quick && !self.seven_can_finish(&after(), me, rest, joker, &mut HashSet::new()) {
                    return Err(IllegalAction::untyped(
                        "D8",
                        format!(
                            "a seven must be used completely: the other {} steps could not be used",
                            remaining - steps
                        ),
                    ));
                }
                Ok(Some(landing))
            }
            Act::Jack { marble, with, .. } => {
                if color_of(marble) != color {
                    return Err(self.not_yours(me, marble));
                }
                if color_of(with) == color_of(marble) {
                    return Err(IllegalAction::untyped(
                        "D10",
                        "the jack swaps with a marble of another player",
                    ));
                }
                for m in [marble, with] {
                    let mk = self.board.marbles[m];
                    match mk.place {
                        Place::Ring(f) if mk.protected => {
                            return Err(IllegalAction::untyped(
                                "D10",
                                format!("the protected marble on field {f} cannot be swapped"),
                            ));
                        }
                        Place::Ring(_) => {}
                        _ => {
                            return Err(IllegalAction::untyped(
                                "D10",
                                format!(
                                    "the jack swaps marbles on the ring only; {} {} is not",
                                    COLORS[color_of(m)],
                                    m % 4
                                ),
                            ));
                        }
                    }
                }
                Ok(None)
            }
            Act::Exchange(_) | Act::SitOut => unreachable!(),
        }
    }

    pub(super) fn not_yours(&self, me: usize, marble: usize) -> IllegalAction {
        let color = self.moving_color(me);
        IllegalAction::untyped(
            if color == me { "D7" } else { "D12" },
            format!(
                "player {me} moves the {} marbles; marble {marble} is {}",
                COLORS[color],
                COLORS[color_of(marble)]
            ),
        )
    }
}
