//! The position of The Game and applying moves: turns of several plays, drawing, the end
//! (T3, T5, T6).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::cards::Hand;
use super::codec::Decoded;
use super::rules::{NUM_PILES, TheGame, fits, takes};
use super::view::{Move, View};
use crate::error::{IllegalAction, Result};
use crate::game::{Action, GameState, Lang};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    /// Every card was played (T6).
    pub won: bool,
    /// Cards left in all hands plus the draw pile (T6).
    pub score: u32,
}

/// A position of The Game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    pub(super) rules: TheGame,
    /// The next card drawn is the last.
    pub(super) draw_pile: Vec<u8>,
    /// One per seat.
    pub(super) hands: Vec<Hand>,
    /// The top card of each pile (1 or 100 before any play).
    pub(super) tops: [u8; NUM_PILES],
    /// How many cards were played on each pile.
    pub(super) pile_sizes: [u8; NUM_PILES],
    /// The player to move; once the game is lost, the one who could not go on (T6).
    pub(super) current: u8,
    pub(super) played_this_turn: u8,
    pub(super) outcome: Option<Outcome>,
    pub(super) history: crate::history::History,
}

impl State {
    pub fn tops(&self) -> [u8; NUM_PILES] {
        self.tops
    }
    pub fn draw_pile(&self) -> &[u8] {
        &self.draw_pile
    }
    pub fn hand_set(&self, player: usize) -> Hand {
        self.hands[player]
    }
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
    pub fn played_this_turn(&self) -> usize {
        self.played_this_turn as usize
    }

    /// T3: 2 (pro: 3) while the draw pile has cards, 1 once it is empty.
    pub fn minimum(&self) -> usize {
        self.rules.minimum(self.draw_pile.len())
    }

    /// T4: whether `card` may go on `pile` now.
    pub fn fits(&self, card: u8, pile: usize) -> bool {
        fits(card, self.tops[pile], pile)
    }

    /// Every card that lies on a pile: neither in a hand nor in the draw pile (the
    /// 98 cards are conserved, T1).
    pub fn played_cards(&self) -> Hand {
        let mut left = self.draw_pile.iter().copied().collect::<Hand>();
        for &hand in &self.hands {
            left = left.union(hand);
        }
        Hand::ALL.without(left)
    }

    /// The player who could not go on in a lost game (T6).
    pub fn stuck_player(&self) -> Option<usize> {
        self.outcome.filter(|o| !o.won).map(|_| self.current as usize)
    }

    /// Whether the player to move holds a card that fits some pile (T4), from the masks
    /// of the cards each pile takes rather than card by card (it is asked after every
    /// action).
    fn can_play(&self) -> bool {
        let takes = (0..NUM_PILES).fold(0, |all, p| all | takes(self.tops[p], p));
        self.hands[self.current as usize].bits() & takes != 0
    }

    fn score(&self) -> u32 {
        (self.hands.iter().map(|h| h.len()).sum::<usize>() + self.draw_pile.len()) as u32
    }

    /// [`GameState::apply_action`] for an `action` already known to be legal (the
    /// heuristic's playout, which only chooses legal actions, skips the check).
    pub(super) fn apply_checked(&mut self, action: Action) {
        debug_assert_eq!(self.check(action), Ok(()));
        self.history.push(action);
        match Decoded::decode(action) {
            None | Some(Decoded::EndTurn) => self.end_turn(),
            Some(Decoded::Play { card, pile }) => {
                let me = self.current as usize;
                self.hands[me].remove(card);
                self.tops[pile] = card;
                self.pile_sizes[pile] += 1;
                self.played_this_turn += 1;
                if self.hands[me].is_empty() {
                    // No card left: the turn ends by itself (the minimum was reached, T3).
                    self.end_turn();
                }
            }
        }
        self.outcome = self.derived_outcome();
    }

    /// T3 and T5: draw as many as were played, then the next player holding cards.
    fn end_turn(&mut self) {
        let me = self.current as usize;
        for _ in 0..self.played_this_turn {
            match self.draw_pile.pop() {
                Some(card) => self.hands[me].insert(card),
                None => break,
            }
        }
        self.played_this_turn = 0;
        let n = self.rules.players as usize;
        if let Some(next) = (1..=n).map(|i| (me + i) % n).find(|&p| !self.hands[p].is_empty()) {
            self.current = next as u8;
        }
    }

    /// T6: won when every card is played; lost as soon as the player to move has not
    /// reached the minimum and has no legal play. `current` must be a seat.
    pub(super) fn derived_outcome(&self) -> Option<Outcome> {
        // Every card played is the score 0 without counting the hands (this runs after
        // every action; the count is only needed once the game is over).
        if self.draw_pile.is_empty() && self.hands.iter().all(|h| h.is_empty()) {
            Some(Outcome { won: true, score: 0 })
        } else if (self.played_this_turn as usize) < self.minimum() && !self.can_play() {
            Some(Outcome {
                won: false,
                score: self.score(),
            })
        } else {
            None
        }
    }
}

impl GameState for State {
    /// R1, T6: the game is lost with every card still in the hands and the draw pile.
    fn forfeit_returns(&self, _seat: usize) -> Vec<f64> {
        vec![0.0 - f64::from(self.score()); self.rules.players as usize]
    }
    type Game = TheGame;

    fn game(&self) -> &TheGame {
        &self.rules
    }

    fn current_player(&self) -> Option<usize> {
        self.outcome.is_none().then_some(self.current as usize)
    }

    /// The same moves as [`State::check`] allows, per card and pile (`legal.rs`).
    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        self.generate_legal(out);
    }

    fn check_action(&self, action: Action) -> Result<(), IllegalAction> {
        self.check(action)
    }

    fn apply_action(&mut self, action: Action) -> Result<(), IllegalAction> {
        self.check(action)?;
        self.apply_checked(action);
        Ok(())
    }

    /// R1, T6: every player gets −(cards left in all hands and the draw pile).
    fn returns(&self) -> Vec<f64> {
        // 0.0 - score, not -score: a won game returns 0.0, not -0.0.
        let score = self.outcome.map_or(0.0, |o| 0.0 - f64::from(o.score));
        vec![score; self.rules.players as usize]
    }

    /// T6: whether the players won, else how many cards are left and where (`text.rs`).
    fn result_text_named(&self, lang: Lang, names: &crate::names::Names) -> Option<String> {
        self.result_line(lang, names)
    }

    fn history(&self) -> &crate::history::History {
        &self.history
    }

    /// The piles and the played cards, every hand's size and, for a seat, its own hand;
    /// never another hand or the draw pile's order. Panics if `seat` is not a seat.
    fn view_of(&self, seat: Option<usize>) -> View {
        super::view::view_of(self, seat)
    }

    /// The view for people, with room for a whole view from the start (the API serves
    /// views). Like `view` it carries, in a seat's view, what each pile takes from the
    /// hand (T4; `takes`, `backward`), which `view_of` (bots, tensors) leaves out.
    fn view_json(&self, seat: Option<usize>) -> Vec<u8> {
        let mut out = Vec::with_capacity(1024);
        serde_json::to_writer(&mut out, &super::view::view_with_facts(self, seat))
            .expect("a view always serializes");
        out
    }

    /// The typed view's JSON (`view_of`), without the piles' facts: they follow from the
    /// hand and the tops, so the bytes are equal exactly when the view is, and the bots that
    /// seed each decision by this key neither pay for the facts nor change their moves.
    fn information_state_key(&self, player: usize) -> Vec<u8> {
        let mut out = Vec::with_capacity(1024);
        serde_json::to_writer(&mut out, &self.view_of(Some(player))).expect("a view always serializes");
        out
    }

    fn view(&self, player: usize) -> Value {
        serde_json::to_value(super::view::view_with_facts(self, Some(player)))
            .expect("a view always serializes")
    }

    fn public_view(&self) -> Value {
        serde_json::to_value(super::view::view_with_facts(self, None)).expect("a view always serializes")
    }

    /// The action for people (`text.rs`).
    fn action_text(&self, action: Action, lang: Lang) -> String {
        Self::action_line(action, lang)
    }

    /// The move of `action` as JSON, serialized from [`Move`] so that it always reads
    /// back to the same id; an id outside the action space gives
    /// `{"type": "invalid", "action": id}`, which no move parses.
    fn action_to_move(&self, action: Action) -> Value {
        match Decoded::decode(action).map(Decoded::to_move) {
            Some(mv) => serde_json::to_value(mv).expect("a move always serializes"),
            None => serde_json::json!({"type": "invalid", "action": action}),
        }
    }

    fn encode_move(&self, mv: &Move) -> Result<Action> {
        super::codec::encode_move(mv)
    }

    fn hand(&self, player: usize) -> Vec<String> {
        self.hands[player].iter().map(|c| c.to_string()).collect()
    }

    fn render_for(&self, seat: Option<usize>, lang: Lang) -> String {
        self.render_text(seat, lang)
    }
}
