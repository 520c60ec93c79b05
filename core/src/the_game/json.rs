//! Reading states: everything a state shows is checked against what play can reach, so
//! that a state that is read plays to its end without panicking; the outcome is derived
//! and compared, never trusted.

use super::cards::{HIGHEST, Hand, LOWEST};
use super::codec::NUM_ACTIONS;
use super::rules::{NUM_PILES, START_TOPS, TheGame};
use super::state::{Outcome, State};
use super::text::pile_label;
use crate::error::Message;
use crate::game::{Game, Lang};

impl State {
    /// Checks everything the state shows against what play can reach; the message says
    /// what is wrong and what is allowed. After this, every method works and the game
    /// plays to its end.
    pub(super) fn validate(&self) -> Result<(), Message> {
        let rules = self.rules;
        let players = rules.players as usize;
        if !(1..=5).contains(&players) {
            return Err(crate::msg!(
                "players {players}: The Game has 1-5 players (T2)",
                "{players} Spieler: The Game hat 1-5 Spieler (T2)"
            ));
        }
        if self.hands.len() != players {
            let n = self.hands.len();
            return Err(crate::msg!(
                "{n} hands for {players} players: one hand per seat",
                "{n} Hände für {players} Spieler: eine Hand je Platz"
            ));
        }
        // T1: every card 2-99 exactly once: in a hand, in the draw pile or on a pile.
        let mut left = Hand::default();
        for &c in &self.draw_pile {
            if !(LOWEST..=HIGHEST).contains(&c) || left.contains(c) {
                return Err(crate::msg!(
                    "draw pile card {c}: cards are 2-99, each once",
                    "Karte {c} im Nachziehstapel: die Karten sind 2-99, jede einmal"
                ));
            }
            left.insert(c);
        }
        for (p, &hand) in self.hands.iter().enumerate() {
            if let Some(c) = hand.iter().find(|&c| left.contains(c)) {
                return Err(crate::msg!(
                    "card {c} in player {p}'s hand is also elsewhere: each card is in one place",
                    "Karte {c} auf der Hand von Spieler {p} ist auch anderswo: jede Karte ist an einem Ort"
                ));
            }
            left = left.union(hand);
        }
        let played = Hand::ALL.without(left);
        let on_piles: usize = self.pile_sizes.iter().map(|&n| n as usize).sum();
        if on_piles != played.len() {
            let (sizes, n) = (self.pile_sizes, played.len());
            return Err(crate::msg!(
                "pile sizes {sizes:?} add up to {on_piles}, but {n} cards are neither in a hand nor in \
                 the draw pile: the 98 cards are the sum of the three",
                "die Stapelgrößen {sizes:?} ergeben {on_piles}, doch {n} Karten sind weder auf einer Hand \
                 noch im Nachziehstapel: die 98 Karten sind die Summe der drei"
            ));
        }
        check_piles(self.tops, self.pile_sizes, played)?;
        self.check_history(played)?;
        if self.current as usize >= players {
            let (current, last) = (self.current, players - 1);
            return Err(crate::msg!(
                "current player {current}: seats are 0-{last}",
                "Spieler am Zug {current}: die Plätze sind 0-{last}"
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
            let show = |o: Option<Outcome>, lang: Lang| match o {
                None => lang
                    .pick("null (das Spiel geht weiter)", "null (the game goes on)")
                    .to_string(),
                Some(o) => format!("won={}, score={}", o.won, o.score),
            };
            let (is, gives) = (show(self.outcome, Lang::En), show(derived, Lang::En));
            let (ist, ergibt) = (show(self.outcome, Lang::De), show(derived, Lang::De));
            return Err(crate::msg!(
                "the outcome is {is}, but the position gives {gives} (T6)",
                "das Ergebnis ist {ist}, doch die Stellung ergibt {ergibt} (T6)"
            ));
        }
        Ok(())
    }

    /// The history is the record of the actions applied to this state object since it
    /// was dealt or built (a state built from a view starts an empty one and plays on),
    /// so it need not lead from a deal to these piles; every action in it must be an
    /// action, and no game is longer than `max_game_length`.
    fn check_history(&self, _played: Hand) -> Result<(), Message> {
        let max = self.rules.max_game_length();
        if self.history.len() as u64 > max {
            let n = self.history.len();
            return Err(crate::msg!(
                "the history holds {n} actions; a game under these options has at most {max}",
                "der Verlauf hält {n} Aktionen; ein Spiel mit diesen Optionen hat höchstens {max}"
            ));
        }
        if let Some((i, action)) = self
            .history
            .iter()
            .enumerate()
            .find(|(_, a)| *a as usize >= NUM_ACTIONS)
        {
            let last = NUM_ACTIONS - 1;
            return Err(crate::msg!(
                "history action {i} is {action}: actions are 0-{last}",
                "Aktion {i} des Verlaufs ist {action}: die Aktionen sind 0-{last}"
            ));
        }
        Ok(())
    }
}

/// The piles against the played cards: a pile without cards shows its start (1 or 100),
/// one with cards a played card as its top, no card on two piles (T1).
pub(super) fn check_piles(
    tops: [u8; NUM_PILES],
    sizes: [u8; NUM_PILES],
    played: Hand,
) -> Result<(), Message> {
    for pile in 0..NUM_PILES {
        let (top, name, de) = (tops[pile], pile_label(pile, Lang::En), pile_label(pile, Lang::De));
        if sizes[pile] == 0 {
            if top != START_TOPS[pile] {
                let start = START_TOPS[pile];
                return Err(crate::msg!(
                    "{name} (pile {pile}) has no card played, so its top is {start}, not {top}",
                    "auf {de} (Stapel {pile}) liegt keine gespielte Karte, also zeigt er {start}, nicht {top}"
                ));
            }
        } else if !played.contains(top) {
            return Err(crate::msg!(
                "{name} (pile {pile}): its top {top} must be a played card 2-99, in no hand and not \
                 in the draw pile",
                "{de} (Stapel {pile}): seine oberste Karte {top} muss eine gespielte Karte 2-99 sein, \
                 auf keiner Hand und nicht im Nachziehstapel"
            ));
        } else if (0..pile).any(|q| sizes[q] > 0 && tops[q] == top) {
            return Err(crate::msg!(
                "{top} is the top of two piles: a card lies on one pile only",
                "{top} liegt oben auf zwei Stapeln: eine Karte liegt auf einem Stapel"
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
) -> Result<(), Message> {
    let size = rules.hand_size();
    let players = rules.players;
    if let Some(p) = hand_sizes.iter().position(|&n| n > size) {
        let n = hand_sizes[p];
        return Err(crate::msg!(
            "player {p} holds {n} cards: with {players} players a hand holds at most {size} (T2)",
            "Spieler {p} hält {n} Karten: bei {players} Spielern hält eine Hand höchstens {size} (T2)"
        ));
    }
    if played_this_turn > played {
        return Err(crate::msg!(
            "played_this_turn {played_this_turn}, but only {played} cards are on the piles",
            "played_this_turn {played_this_turn}, doch nur {played} Karten liegen auf den Stapeln"
        ));
    }
    let left = draw + hand_sizes.iter().sum::<usize>();
    if left == 0 {
        if played_this_turn != 0 {
            return Err(crate::msg!(
                "played_this_turn {played_this_turn}: every card is played, the game is won and \
                 nobody is mid-turn (0)",
                "played_this_turn {played_this_turn}: jede Karte ist gespielt, das Spiel ist gewonnen \
                 und niemand ist mitten im Zug (0)"
            ));
        }
        return Ok(());
    }
    let mover = hand_sizes[turn];
    if mover == 0 {
        return Err(crate::msg!(
            "player {turn} holds no cards, so cannot be the player to move (T5)",
            "Spieler {turn} hält keine Karten, kann also nicht am Zug sein (T5)"
        ));
    }
    if mover + played_this_turn > size {
        let most = size - mover;
        return Err(crate::msg!(
            "played_this_turn {played_this_turn}: player {turn} holds {mover} cards, and a turn \
             starts with at most {size} (T2, T3), so at most {most} can have been played this turn",
            "played_this_turn {played_this_turn}: Spieler {turn} hält {mover} Karten, und ein Zug \
             beginnt mit höchstens {size} (T2, T3), also können in diesem Zug höchstens {most} gespielt sein"
        ));
    }
    if draw > 0 {
        if let Some(p) = (0..hand_sizes.len()).find(|&p| p != turn && hand_sizes[p] != size) {
            let n = hand_sizes[p];
            return Err(crate::msg!(
                "player {p} holds {n} cards: while the draw pile has cards, every hand is refilled \
                 to {size} at its turn's end (T3)",
                "Spieler {p} hält {n} Karten: solange der Nachziehstapel Karten hat, wird jede Hand \
                 am Ende ihres Zuges auf {size} aufgefüllt (T3)"
            ));
        }
        if mover + played_this_turn != size {
            return Err(crate::msg!(
                "player {turn} holds {mover} cards and played {played_this_turn} this turn: while \
                 the draw pile has cards, the two add up to the hand size {size} (T3)",
                "Spieler {turn} hält {mover} Karten und hat in diesem Zug {played_this_turn} gespielt: \
                 solange der Nachziehstapel Karten hat, ergeben beide die Handgröße {size} (T3)"
            ));
        }
        let minimum = rules.full_minimum();
        let finished = played - played_this_turn;
        if (1..minimum).contains(&finished) {
            return Err(crate::msg!(
                "{finished} cards played in finished turns: while the draw pile has cards, every \
                 turn plays at least {minimum} (T3)",
                "{finished} Karten in beendeten Zügen gespielt: solange der Nachziehstapel Karten hat, \
                 spielt jeder Zug mindestens {minimum} (T3)"
            ));
        }
    }
    Ok(())
}
