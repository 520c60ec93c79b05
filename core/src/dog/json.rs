//! Reading a state: every field is checked before anything is built from it, and what
//! can be derived (the outcome, the player to pick) is derived and compared, never
//! trusted. After these checks a state plays to its end without panicking.

use std::collections::HashSet;

use super::board::*;
use super::cards::{Card, Hand, NUM_KINDS};
use super::codec::*;
use super::rules::*;
use crate::error::{Error, Result};

/// The hand size of round `round` (counted from 0), D4.
pub(super) fn hand_size(round: u32) -> usize {
    HAND_SIZES[(round % 5) as usize]
}

/// D4, D5: the record of the cards each seat played this round, checked against what
/// else the state says about the round (after the exchange; before it nothing is played).
///
/// - After an exchange of four cards the round's cards are all accounted for: a seat
///   still in the round holds and played as many as the round deals (the exchange gives
///   one and returns one); a seat that sat out played fewer (it held cards when it sat
///   out). A position set up without an exchange, as the rule tests build them, may know
///   only part of one; its hands are what the test set up.
/// - The history, where it reaches back to the round's exchange (its last pick), says
///   exactly which cards each seat played since; a history that starts later in the
///   round (a state built from a view starts none) holds a part of them.
fn check_played(d: &Data, size: usize) -> Result<(), String> {
    // A set-up position may know part of the exchange (the rule tests' do); a game's own
    // exchange gives four cards, and then every card of the round is accounted for.
    let gave = d.given.iter().filter(|g| g.is_some()).count();
    if gave == 4 {
        for p in 0..4 {
            let (held, played) = (d.hands[p].len(), d.played[p].len());
            if d.sat_out[p] {
                // Its discarded hand is among the face-down discards, but a state built
                // from a view cannot say whose: `face_down` is not checked per seat.
                if played >= size {
                    return Err(format!(
                        "player {p} sat out after playing {played} cards this round: a seat sits \
                         out holding cards, and the round deals {size} (D4, D5)"
                    ));
                }
            } else if held + played != size {
                return Err(format!(
                    "player {p} holds {held} cards and played {played} this round: the round \
                     deals {size}, and the exchange gives one and returns one, so together {size} (D4)"
                ));
            }
        }
    }
    let (by_history, whole) = played_by_history(d);
    for (p, (played, recorded)) in d.played.iter().zip(&by_history).enumerate() {
        let fits = if whole {
            played == recorded
        } else {
            played.contains(recorded)
        };
        if !fits {
            return Err(format!(
                "played says player {p} played {} cards this round, but the history records {} \
                 since the round's exchange{} (D4)",
                played.len(),
                recorded.len(),
                if whole { "" } else { " (played must hold them all)" }
            ));
        }
    }
    Ok(())
}

/// The cards each seat played after the last pick of the history (the round's exchange,
/// D4), and whether the history reaches back to that pick. A seven is one card however
/// many parts it is played in (D8); without the pick the history may start inside a
/// seven, so sevens are left out then.
fn played_by_history(d: &Data) -> ([Hand; 4], bool) {
    let mut played = [Hand::default(); 4];
    let mut whole = false;
    let mut seven_left = 0u8;
    for (action, actor) in d.history.iter().zip(d.actors.iter()) {
        let Some(act) = Decoded::decode(action) else {
            continue;
        };
        let seat = usize::from(actor) % 4;
        match act {
            Decoded::Exchange(_) => {
                played = [Hand::default(); 4];
                whole = true;
                seven_left = 0;
            }
            Decoded::SitOut => seven_left = 0,
            Decoded::Seven { steps, .. } => {
                if seven_left == 0 {
                    if whole && let Some(card) = act.card() {
                        played[seat].add(card);
                    }
                    seven_left = 7;
                }
                seven_left = seven_left.saturating_sub(steps);
            }
            other => {
                seven_left = 0;
                if let Some(card) = other.card() {
                    played[seat].add(card);
                }
            }
        }
    }
    (played, whole)
}

impl State {
    /// Reads a state of `rules` and checks it whole ([`Game::state_from_json`]).
    pub(super) fn from_json(rules: Dog, json: &str) -> Result<State> {
        let data: Data = crate::game::parse_state(json, "Dog", &rules, |d: &Data| &d.rules)?;
        State::try_from(data).map_err(Error::InvalidState)
    }

    /// The checks that need no board: places, card counts, counters, the bookkeeping of
    /// the exchange and of the round. `Board::new` relies on the places being in range.
    pub(super) fn check_data(d: &Data) -> Result<(), String> {
        for (m, marble) in d.marbles.iter().enumerate() {
            let color = m / 4;
            match marble.place {
                Place::Ring(f) if f as usize >= RING => {
                    return Err(format!(
                        "marble {m}: ring field {f} does not exist (fields are 0-63)"
                    ));
                }
                Place::Goal(s) if s >= GOAL_LEN => {
                    return Err(format!(
                        "marble {m}: goal field {s} does not exist (goal fields are 0-3)"
                    ));
                }
                Place::Ring(f) if marble.protected && f as usize != start_field(color) => {
                    return Err(format!(
                        "marble {m}: only a marble on its own start field ({}) can be protected (D6)",
                        start_field(color)
                    ));
                }
                Place::Kennel | Place::Goal(_) if marble.protected => {
                    return Err(format!(
                        "marble {m}: only a marble on its own start field can be protected (D6)"
                    ));
                }
                _ => {}
            }
        }
        let mut cells = HashSet::new();
        for (m, marble) in d.marbles.iter().enumerate() {
            if let Some(cell) = Board::cell(m, marble.place)
                && !cells.insert(cell)
            {
                return Err(format!("marble {m} shares its field with another marble"));
            }
        }
        // D3: every card exactly once: pile, discards, hands and the picks in transit.
        let mut counts = [0usize; NUM_KINDS];
        let in_transit = d.exchange.iter().flatten().filter(|_| d.phase == Phase::Exchange);
        for card in d.pile.iter().chain(&d.discards).chain(in_transit) {
            counts[card.index()] += 1;
        }
        for hand in &d.hands {
            for (count, &n) in counts.iter_mut().zip(&hand.0) {
                *count += n as usize;
            }
        }
        if let Some(i) = (0..NUM_KINDS).find(|&i| counts[i] != Card::from_index(i).copies() as usize) {
            let card = Card::from_index(i);
            return Err(format!(
                "there are {} cards {card} in pile, discards, hands and the exchange; the deck has {}",
                counts[i],
                card.copies()
            ));
        }
        // The discards are the cards played face up and the hands discarded face down.
        let mut discards = Hand::default();
        for &card in &d.discards {
            discards.add(card);
        }
        let mut known = d.face_up;
        for hand in &d.face_down {
            known.add_all(hand);
        }
        if known != discards {
            return Err("the discards must be exactly the cards in face_up and face_down".into());
        }
        let mut played = Hand::default();
        for hand in &d.played {
            played.add_all(hand);
        }
        if !d.face_up.contains(&played) {
            return Err("every card played this round must be among the face_up cards".into());
        }
        if d.current > 3 {
            return Err(format!("current player {}: seats are 0-3", d.current));
        }
        if d.history
            .chunks()
            .any(|c| c.iter().any(|&a| a as usize >= NUM_ACTIONS))
        {
            return Err(format!("history holds an action outside 0-{}", NUM_ACTIONS - 1));
        }
        if d.actors.len() != d.history.len() || d.actors.chunks().any(|c| c.iter().any(|&p| p > 3)) {
            return Err("actors must name the seat (0-3) of every action of the history".into());
        }
        // A round has at least four turns (every seat plays or sits out at least once), so
        // the counters stay far from overflowing.
        if u64::from(d.round) * 4 > u64::from(d.turns) {
            return Err(format!(
                "round {} cannot be reached in {} turns: every round has at least 4",
                d.round, d.turns
            ));
        }
        let max = d.rules.max_turns;
        if max > 0 && d.turns > max {
            return Err(format!("turns {} exceed max_turns {max}", d.turns));
        }
        let size = hand_size(d.round);
        for p in 0..4 {
            let picked = usize::from(d.phase == Phase::Exchange && d.exchange[p].is_some());
            let held = d.hands[p].len() + d.played[p].len() + picked;
            if held > size {
                return Err(format!(
                    "player {p} holds and played {held} cards in round {}: hands have {size}",
                    d.round + 1
                ));
            }
            if d.sat_out[p] && !d.hands[p].is_empty() {
                return Err(format!("player {p} sat out and so holds no cards (D5)"));
            }
            // D4: a partner's card given is still in its hand while no card of that kind
            // was played; the card received is the one the partner gave.
            if d.received[p] != d.given[partner(p)] && d.phase != Phase::Exchange {
                return Err(format!(
                    "player {p} received {:?} but the partner gave {:?}",
                    d.received[p],
                    d.given[partner(p)]
                ));
            }
            if let Some(card) = d.given[p]
                && d.phase == Phase::Play
                && !d.sat_out[partner(p)]
                && !d.hands[partner(p)].has(card)
                && !d.played[partner(p)].has(card)
            {
                return Err(format!(
                    "player {p} gave {card}, which player {} neither holds nor played",
                    partner(p)
                ));
            }
        }
        let all_picked = d.exchange.iter().all(Option::is_some);
        match d.phase {
            Phase::Exchange => {
                if all_picked {
                    return Err("all four picked, so the exchange is over (D4)".into());
                }
                if d.exchange != d.given || d.received.iter().any(Option::is_some) {
                    return Err(
                        "during the exchange, given are the picks and nothing is received yet".into(),
                    );
                }
                if !d.played.iter().all(Hand::is_empty) || d.sat_out.iter().any(|&s| s) || d.seven.is_some() {
                    return Err("nothing is played before the exchange is over (D4)".into());
                }
            }
            Phase::Play | Phase::Over => {
                if d.exchange.iter().any(Option::is_some) {
                    return Err("picks in transit only during the exchange".into());
                }
            }
        }
        if d.phase != Phase::Exchange {
            check_played(d, size)?;
        }
        match d.seven {
            None if !d.seven_parts.is_empty() => {
                return Err("seven_parts without a seven in progress".into());
            }
            Some(seven) if !(1..=6).contains(&seven.remaining) => {
                return Err(format!(
                    "a seven in progress has 1-6 steps left, not {}",
                    seven.remaining
                ));
            }
            Some(seven) if !d.seven_parts.is_empty() => {
                let bad = d
                    .seven_parts
                    .iter()
                    .find(|p| p.marble as usize >= NUM_MARBLES || !(1..=6).contains(&p.steps));
                if let Some(part) = bad {
                    return Err(format!(
                        "seven part {part:?}: marbles are 0-15, steps of a part left unfinished 1-6"
                    ));
                }
                let used: u32 = d.seven_parts.iter().map(|p| u32::from(p.steps)).sum();
                if used + u32::from(seven.remaining) != 7 {
                    return Err(format!(
                        "the seven's parts use {used} steps and {} are left: together 7",
                        seven.remaining
                    ));
                }
            }
            _ => {}
        }
        if d.phase != Phase::Play && d.seven.is_some() {
            return Err("a seven is played only in the play phase".into());
        }
        Ok(())
    }

    /// The checks on the board: the outcome derived from it (D5, D8, D13), the player to
    /// move, and a seven in progress that can still be finished.
    pub(super) fn check_position(&self) -> Result<(), String> {
        let d = &self.d;
        if self.board.team_in_goal(0) == 8 && self.board.team_in_goal(1) == 8 {
            return Err("both teams have all eight marbles home".into());
        }
        let derived = self.derived_outcome();
        if d.outcome != derived {
            return Err(match derived {
                Some(o) => format!("the game is over ({o:?}), the state says {:?}", d.outcome),
                None => format!(
                    "the game is not over (no team has 8 marbles home, {} of {} turns), the state says {:?}",
                    d.turns, d.rules.max_turns, d.outcome
                ),
            });
        }
        if (d.phase == Phase::Over) != derived.is_some() {
            return Err("the phase is 'over' exactly when the game has an outcome".into());
        }
        match d.phase {
            Phase::Exchange => {
                // D4: a seat still to pick has a card to pick.
                if let Some(p) = (0..4).find(|&p| d.exchange[p].is_none() && d.hands[p].is_empty()) {
                    return Err(format!(
                        "player {p} has not picked for the exchange but holds no card"
                    ));
                }
                let first = self.first_unpicked();
                if first != Some(d.current as usize) {
                    return Err(format!(
                        "current is {}: in the exchange it is the first seat from the round's first player ({}) that has not picked, {first:?}",
                        d.current,
                        self.first_player()
                    ));
                }
            }
            Phase::Play => {
                let me = d.current as usize;
                if d.hands[me].is_empty() && d.seven.is_none() {
                    return Err(format!("current player {me} holds no cards"));
                }
                if let Some(seven) = d.seven
                    && !Self::seven_can_finish(
                        &self.board,
                        me,
                        seven.remaining,
                        seven.joker,
                        &mut HashSet::new(),
                    )
                {
                    return Err(format!(
                        "the seven in progress cannot use its {} steps left (D8)",
                        seven.remaining
                    ));
                }
            }
            Phase::Over => {}
        }
        Ok(())
    }

    /// D13 from the board and the turn count: a team with all eight marbles home has won
    /// once its card is played completely; else `max_turns` stops the game.
    pub(super) fn derived_outcome(&self) -> Option<Outcome> {
        let home = [self.board.team_in_goal(0), self.board.team_in_goal(1)];
        if self.d.seven.is_none()
            && let Some(t) = (0..2).find(|&t| home[t] == 8)
        {
            let mut points = [0u8; 2];
            points[t] = (16 - home[1 - t]) as u8;
            points[1 - t] = home[1 - t] as u8;
            return Some(Outcome {
                winner: Some(t as u8),
                points,
                reason: EndReason::AllHome,
            });
        }
        let max = self.d.rules.max_turns;
        (max > 0 && self.d.turns >= max).then(|| Outcome {
            winner: None,
            points: [home[0] as u8, home[1] as u8],
            reason: EndReason::TurnLimit,
        })
    }
}
