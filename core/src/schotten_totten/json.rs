//! Reading states: every inconsistent position is refused with what is wrong and what is
//! allowed, so that a state that is read plays to its end without panicking. What can be
//! derived (the outcome, S7 and S9; whose turn it is, S2 and S3c) is derived and compared,
//! never trusted.

use super::cards::{CardSet, NUM_CARDS};
use super::codec::NUM_ACTIONS;
use super::rules::{HAND_SIZE, PILE_SIZE};
use super::state::{Award, EndReason, Outcome, Phase, State, Stone};

impl State {
    /// Checks everything JSON cannot, so that every method works on the state and the
    /// game plays on to its end: every card exactly once, every range, and that some game
    /// reaches the position (hand sizes, whose turn it is, the phase, the outcome).
    ///
    /// The checks look only at what the views show (the table, counters, phase, outcome)
    /// and at hand and pile *sizes*, never at which hidden card lies where: a state dealt
    /// anew from a valid state's view is valid too.
    pub(super) fn validate(&self) -> Result<(), String> {
        self.validate_cards()?;
        self.validate_stones()?;
        self.validate_hand_sizes()?;
        self.validate_turn()
    }

    /// Reads a hand-built position checking only that every card is there once: the
    /// rule tests build positions no game reaches (hand sizes that do not fit the
    /// pile, claimed stones without a proof) to isolate one ruling.
    #[cfg(test)]
    pub(super) fn from_json_for_tests(json: &str) -> State {
        let state: State = serde_json::from_str(json).expect("a well-formed test position");
        state.validate_cards().expect("every card once");
        state
    }

    /// Every one of the 54 cards exactly once, in the pile, a hand or at a stone.
    fn validate_cards(&self) -> Result<(), String> {
        let mut seen = CardSet::EMPTY;
        let mut count = 0;
        let places = self
            .pile
            .iter()
            .copied()
            .chain(self.hands.iter().flat_map(|h| h.iter()))
            .chain(
                self.stones
                    .iter()
                    .flat_map(|s| s.sides.iter().flat_map(|d| d.cards().iter().copied())),
            );
        for card in places {
            if seen.contains(card) {
                return Err(format!(
                    "card {card} appears twice; each of the 54 cards exists once"
                ));
            }
            seen.insert(card);
            count += 1;
        }
        if count != NUM_CARDS {
            let missing: Vec<String> = CardSet::ALL.minus(seen).iter().map(|c| c.to_string()).collect();
            return Err(format!(
                "cards missing from pile, hands and stones: {}",
                missing.join(" ")
            ));
        }
        Ok(())
    }

    /// Owners, awards and completion order of every stone; claimed stones stay provable.
    fn validate_stones(&self) -> Result<(), String> {
        if self.current > 1 {
            return Err(format!("current player {} is not 0 or 1", self.current));
        }
        let available = CardSet::ALL.minus(self.table());
        for (i, s) in self.stones.iter().enumerate() {
            if let Some(owner) = s.owner.filter(|&o| o > 1) {
                return Err(format!("stones[{i}]: owner {owner} is not a player (0 or 1)"));
            }
            if s.owner.is_some() != s.award.is_some() {
                return Err(format!(
                    "stones[{i}]: an owned stone says how it was won (award), an unowned one does not"
                ));
            }
            let first_ok = match s.completed_first {
                None => !s.sides[0].is_complete() && !s.sides[1].is_complete(),
                Some(p @ (0 | 1)) => s.sides[p as usize].is_complete(),
                Some(_) => false,
            };
            if !first_ok {
                return Err(format!(
                    "stones[{i}]: completed_first must name a complete side, 0 or 1 (or be null if neither is)"
                ));
            }
            if let (Some(owner), Some(Award::Claim)) = (s.owner, s.award) {
                // S5: a stone once provable stays so (the other side's options only
                // shrink as cards are played), so a claimed stone is provable now.
                let proof = self.proof(i, owner as usize, available);
                if !proof.is_some_and(|c| c.provable) {
                    return Err(format!(
                        "stones[{i}]: claimed by player {owner}, but the claim is not provable (S5)"
                    ));
                }
            }
        }
        if let Some(a) = self.history.iter().find(|&a| a as usize >= NUM_ACTIONS) {
            return Err(format!("history holds action {a}, outside 0..{NUM_ACTIONS}"));
        }
        Ok(())
    }

    /// S2, S3c: every finished turn draws one card while the pile has cards, so the pile
    /// says how many cards each player drew, and the table how many each played.
    fn validate_hand_sizes(&self) -> Result<(), String> {
        let pile = self.pile.len();
        if pile > PILE_SIZE {
            return Err(format!(
                "the pile holds {pile} cards, but at most {PILE_SIZE} are left after the deal (S2)"
            ));
        }
        for p in 0..2 {
            let draws = self.draws(p);
            let played: usize = self.stones.iter().map(|s| s.sides[p].len()).sum();
            let held = self.hands[p].len() as usize;
            if (HAND_SIZE + draws).checked_sub(played) != Some(held) {
                return Err(format!(
                    "player {p} holds {held} cards, but was dealt {HAND_SIZE}, drew {draws} (with {pile} cards left \
                     in the pile, players drawing in turn from player {}) and played {played} (S2, S3c)",
                    self.rules.first_player
                ));
            }
            // S3a, S3c: a turn that plays draws a card back, so a hand grows past the six
            // dealt only by passing, and a player with cards passes only when every free
            // stone already holds three of theirs. That room never comes back (stones are
            // only ever claimed and sides only ever fill), so it is still gone now.
            if held > HAND_SIZE
                && let Some(stone) = self.open_stones(p).next()
            {
                return Err(format!(
                    "player {p} holds {held} cards, more than the {HAND_SIZE} dealt, which only passing \
                     turns allow, yet stones[{stone}] is free and holds fewer than three of their cards: \
                     a player passes only when no card can be played (S3a, S3c)"
                ));
            }
        }
        Ok(())
    }

    /// How many cards `player` has drawn: the pile shrank by one per finished turn, turns
    /// alternating from the first player (S2, S3c).
    fn draws(&self, player: usize) -> usize {
        let drawn = PILE_SIZE.saturating_sub(self.pile.len());
        if player == self.rules.first_player as usize {
            drawn.div_ceil(2)
        } else {
            drawn / 2
        }
    }

    /// The seat whose turn it is while the pile has cards: every finished turn drew one.
    fn turn_by_pile(&self) -> Option<u8> {
        let drawn = PILE_SIZE.checked_sub(self.pile.len())?;
        (!self.pile.is_empty()).then_some(self.rules.first_player ^ (drawn % 2) as u8)
    }

    /// Phase, counters, whose turn it is and the outcome, derived from the stones.
    fn validate_turn(&self) -> Result<(), String> {
        let derived = self.derived_outcome()?;
        if self.outcome != derived {
            let show = |o: Option<Outcome>| serde_json::to_string(&o).unwrap_or_default();
            return Err(format!(
                "outcome {} does not follow from the stones and counters, which give {} (S7, S9)",
                show(self.outcome),
                show(derived)
            ));
        }
        let me = self.current as usize;
        let turn = self.turn_by_pile();
        match (self.phase, derived) {
            (Phase::Over, None) => {
                return Err("phase is 'over', but nobody has won and there was no settlement".into());
            }
            (Phase::Play | Phase::Claim, Some(_)) => {
                return Err("the game is over (see outcome), so the phase is 'over'".into());
            }
            (Phase::Play, None) => {
                if self.turn_passed {
                    return Err("turn_passed is true only in the claim phase after a pass (S3a)".into());
                }
            }
            (Phase::Claim, None) => {
                if !self.any_claimable(me) {
                    return Err(format!(
                        "phase 'claim', but player {me} has no provable stone (the claim step is entered only with one, S3b)"
                    ));
                }
                if self.turn_passed && self.can_play(me) {
                    return Err(format!(
                        "player {me} passed this turn (turn_passed), but can play a card (S3a)"
                    ));
                }
            }
            (Phase::Over, Some(Outcome { winner, reason })) => {
                if let (Some(w), EndReason::FiveStones | EndReason::ThreeAdjacent) = (winner, reason)
                    && w != self.current
                {
                    return Err(format!(
                        "the game ended with a claim of player {w} (S7), so current is that player, not {}",
                        self.current
                    ));
                }
                // The settling turn was finished (and drew): the turn by the pile is
                // already the next player's.
                let last = if reason == EndReason::Settlement {
                    turn.map(|t| 1 - t)
                } else {
                    turn
                };
                if last.is_some_and(|t| t != self.current) {
                    return Err(format!(
                        "with {} cards in the pile the last turn was player {}'s, not {}'s (S3c)",
                        self.pile.len(),
                        1 - self.current,
                        self.current
                    ));
                }
                return Ok(());
            }
        }
        if self.passes_in_row > 1 {
            return Err(
                "two passing turns in a row end the game (S9): passes_in_row is 0 or 1 while it runs".into(),
            );
        }
        // S3a: the last turn was a pass, so that player could not play then, and cannot
        // now: room to play never comes back (stones are only claimed, sides only fill),
        // and a hand empty then stays empty (a hand runs empty only once the pile is).
        if self.passes_in_row == 1 && self.can_play(1 - me) {
            return Err(format!(
                "passes_in_row 1 says player {} passed last turn, but that player can play a card (S3a)",
                1 - me
            ));
        }
        if turn.is_some_and(|t| t != self.current) {
            return Err(format!(
                "with {} cards in the pile it is player {}'s turn, not {}'s: turns alternate from player {} \
                 and each one draws a card (S2, S3c)",
                self.pile.len(),
                1 - self.current,
                self.current,
                self.rules.first_player
            ));
        }
        Ok(())
    }

    /// Who made the last turn of a finished game: the claimant of a win (S7); after
    /// the settlement, the player before the one the pile says is next (or, with an
    /// empty pile, which does not say, the first player).
    pub(super) fn last_mover(&self) -> u8 {
        match self.outcome {
            Some(Outcome {
                winner: Some(w),
                reason: EndReason::FiveStones | EndReason::ThreeAdjacent,
            }) => w.min(1),
            Some(_) => self.turn_by_pile().map_or(self.rules.first_player, |t| 1 - t),
            None => self.current,
        }
    }

    /// The outcome the stones and counters give (S7, S9), whatever the state says.
    fn derived_outcome(&self) -> Result<Option<Outcome>, String> {
        let from_settlement = |s: &Stone| s.award.is_some_and(|a| a != Award::Claim);
        let settled = self.stones.iter().position(from_settlement);
        let wins = |state: &State| -> Vec<(u8, EndReason)> {
            (0..2)
                .filter_map(|p| state.winning_reason(p).map(|r| (p as u8, r)))
                .collect()
        };
        match self.passes_in_row {
            0 | 1 => {
                if let Some(i) = settled {
                    return Err(format!(
                        "stones[{i}] was won in the settlement (S9), which needs two passing turns in a row \
                         (passes_in_row 2)"
                    ));
                }
                match wins(self)[..] {
                    [] => Ok(None),
                    [(p, reason)] => Ok(Some(Outcome {
                        winner: Some(p),
                        reason,
                    })),
                    _ => Err(
                        "both players own five or three adjacent stones; the game ends at the first (S7)"
                            .into(),
                    ),
                }
            }
            2 => {
                // The position before the settlement: claimed stones only.
                let mut before = self.clone();
                for s in &mut before.stones {
                    if from_settlement(s) {
                        s.owner = None;
                        s.award = None;
                    }
                }
                if let Some(&(p, _)) = wins(&before).first() {
                    return Err(format!(
                        "player {p} won by claims (S7) before the settlement that passes_in_row 2 says happened"
                    ));
                }
                before.settle();
                let show = |s: &Stone| match (s.owner, s.award) {
                    (Some(p), Some(a)) => format!("player {p} ({})", a.name()),
                    _ => "nobody".to_string(),
                };
                for (i, (got, want)) in self.stones.iter().zip(&before.stones).enumerate() {
                    if (got.owner, got.award) != (want.owner, want.award) {
                        return Err(format!(
                            "stones[{i}]: the settlement (S9) gives it to {}, the state says {}",
                            show(want),
                            show(got)
                        ));
                    }
                }
                Ok(before.outcome)
            }
            n => Err(format!(
                "passes_in_row is {n}, but two passing turns in a row end the game (S9): it is 0, 1 or 2"
            )),
        }
    }
}
