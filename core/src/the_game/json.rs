//! Reading states: everything a state shows is checked against what play can reach, so
//! that a state that is read plays to its end without panicking; the outcome is derived
//! and compared, never trusted.

use super::cards::{HIGHEST, Hand, LOWEST};
use super::codec::NUM_ACTIONS;
use super::rules::{NUM_PILES, START_TOPS, TheGame};
use super::state::{Outcome, State};
use super::text::pile_name;
use crate::game::Game;

impl State {
    /// Checks everything the state shows against what play can reach; the message says
    /// what is wrong and what is allowed. After this, every method works and the game
    /// plays to its end.
    pub(super) fn validate(&self) -> Result<(), String> {
        let rules = self.rules;
        let players = rules.players as usize;
        if !(1..=5).contains(&players) {
            return Err(format!("players {players}: The Game has 1-5 players (T2)"));
        }
        if self.hands.len() != players {
            return Err(format!(
                "{} hands for {players} players: one hand per seat",
                self.hands.len()
            ));
        }
        // T1: every card 2-99 exactly once: in a hand, in the draw pile or on a pile.
        let mut left = Hand::default();
        for &c in &self.draw_pile {
            if !(LOWEST..=HIGHEST).contains(&c) || left.contains(c) {
                return Err(format!("draw pile card {c}: cards are 2-99, each once"));
            }
            left.insert(c);
        }
        for (p, &hand) in self.hands.iter().enumerate() {
            if let Some(c) = hand.iter().find(|&c| left.contains(c)) {
                return Err(format!(
                    "card {c} in player {p}'s hand is also elsewhere: each card is in one place"
                ));
            }
            left = left.union(hand);
        }
        let played = Hand::ALL.without(left);
        let on_piles: usize = self.pile_sizes.iter().map(|&n| n as usize).sum();
        if on_piles != played.len() {
            return Err(format!(
                "pile sizes {:?} add up to {on_piles}, but {} cards are neither in a hand nor in \
                 the draw pile: the 98 cards are the sum of the three",
                self.pile_sizes,
                played.len()
            ));
        }
        check_piles(self.tops, self.pile_sizes, played)?;
        self.check_history(played)?;
        if self.current as usize >= players {
            return Err(format!(
                "current player {}: seats are 0-{}",
                self.current,
                players - 1
            ));
        }
        let hand_sizes: Vec<usize> = self.hands.iter().map(|h| h.len()).collect();
        check_counts(
            rules,
            &hand_sizes,
            self.draw_pile.len(),
            played.len(),
            self.current as usize,
            self.played_this_turn as usize,
        )?;
        let derived = self.derived_outcome();
        if derived != self.outcome {
            let show = |o: Option<Outcome>| match o {
                None => "null (the game goes on)".to_string(),
                Some(o) => format!("won={}, score={}", o.won, o.score),
            };
            return Err(format!(
                "the outcome is {}, but the position gives {} (T6)",
                show(self.outcome),
                show(derived)
            ));
        }
        Ok(())
    }

    /// The history is the record of the actions applied to this state object since it
    /// was dealt or built (a state built from a view starts an empty one and plays on),
    /// so it need not lead from a deal to these piles; every action in it must be an
    /// action, and no game is longer than `max_game_length`.
    fn check_history(&self, _played: Hand) -> Result<(), String> {
        let max = self.rules.max_game_length();
        if self.history.len() as u64 > max {
            return Err(format!(
                "the history holds {} actions; a game under these options has at most {max}",
                self.history.len()
            ));
        }
        if let Some((i, action)) = self
            .history
            .iter()
            .enumerate()
            .find(|(_, a)| *a as usize >= NUM_ACTIONS)
        {
            return Err(format!(
                "history action {i} is {action}: actions are 0-{}",
                NUM_ACTIONS - 1
            ));
        }
        Ok(())
    }
}

/// The piles against the played cards: a pile without cards shows its start (1 or 100),
/// one with cards a played card as its top, no card on two piles (T1).
pub(super) fn check_piles(tops: [u8; NUM_PILES], sizes: [u8; NUM_PILES], played: Hand) -> Result<(), String> {
    for pile in 0..NUM_PILES {
        let (top, name) = (tops[pile], pile_name(pile));
        if sizes[pile] == 0 {
            if top != START_TOPS[pile] {
                return Err(format!(
                    "{name} (pile {pile}) has no card played, so its top is {}, not {top}",
                    START_TOPS[pile]
                ));
            }
        } else if !played.contains(top) {
            return Err(format!(
                "{name} (pile {pile}): its top {top} must be a played card 2-99, in no hand and not \
                 in the draw pile"
            ));
        } else if (0..pile).any(|q| sizes[q] > 0 && tops[q] == top) {
            return Err(format!(
                "{top} is the top of two piles: a card lies on one pile only"
            ));
        }
    }
    Ok(())
}

/// The counters of a position against what play can reach. `turn` is the player to move
/// (in a lost game the one who could not go on; in a won game any seat).
///
/// - T2: nobody holds more than the hand size;
/// - T3: while the draw pile has cards every finished turn refilled its player's hand,
///   so all hands but the mover's are full and the mover's holds the hand size minus
///   the cards played this turn; and every finished turn played at least the minimum;
/// - T3, T5: the mover holds cards (a player without any is skipped) and has played
///   this turn no more than the hand held; a won game has nobody mid-turn.
pub(super) fn check_counts(
    rules: TheGame,
    hand_sizes: &[usize],
    draw: usize,
    played: usize,
    turn: usize,
    played_this_turn: usize,
) -> Result<(), String> {
    let size = rules.hand_size();
    let players = rules.players;
    if let Some(p) = hand_sizes.iter().position(|&n| n > size) {
        return Err(format!(
            "player {p} holds {} cards: with {players} players a hand holds at most {size} (T2)",
            hand_sizes[p]
        ));
    }
    if played_this_turn > played {
        return Err(format!(
            "played_this_turn {played_this_turn}, but only {played} cards are on the piles"
        ));
    }
    let left = draw + hand_sizes.iter().sum::<usize>();
    if left == 0 {
        if played_this_turn != 0 {
            return Err(format!(
                "played_this_turn {played_this_turn}: every card is played, the game is won and \
                 nobody is mid-turn (0)"
            ));
        }
        return Ok(());
    }
    let mover = hand_sizes[turn];
    if mover == 0 {
        return Err(format!(
            "player {turn} holds no cards, so cannot be the player to move (T5)"
        ));
    }
    if mover + played_this_turn > size {
        return Err(format!(
            "played_this_turn {played_this_turn}: player {turn} holds {mover} cards, and a turn \
             starts with at most {size} (T2, T3), so at most {} can have been played this turn",
            size - mover
        ));
    }
    if draw > 0 {
        if let Some(p) = (0..hand_sizes.len()).find(|&p| p != turn && hand_sizes[p] != size) {
            return Err(format!(
                "player {p} holds {} cards: while the draw pile has cards, every hand is refilled \
                 to {size} at its turn's end (T3)",
                hand_sizes[p]
            ));
        }
        if mover + played_this_turn != size {
            return Err(format!(
                "player {turn} holds {mover} cards and played {played_this_turn} this turn: while \
                 the draw pile has cards, the two add up to the hand size {size} (T3)"
            ));
        }
        let minimum = rules.full_minimum();
        let finished = played - played_this_turn;
        if (1..minimum).contains(&finished) {
            return Err(format!(
                "{finished} cards played in finished turns: while the draw pile has cards, every \
                 turn plays at least {minimum} (T3)"
            ));
        }
    }
    Ok(())
}
