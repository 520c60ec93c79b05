//! Legal-move generation (the hot path of playouts and search): the moves
//! [`State::check`] allows, per card in the hand and pile.

use super::codec::{END_TURN, play_action};
use super::rules::NUM_PILES;
use super::state::State;
use crate::game::Action;

impl State {
    pub(super) fn generate_legal(&self, out: &mut Vec<Action>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        for card in self.hands[self.current as usize].iter() {
            for pile in 0..NUM_PILES {
                if self.fits(card, pile) {
                    out.push(play_action(card, pile));
                }
            }
        }
        if self.played_this_turn as usize >= self.minimum() {
            out.push(END_TURN);
        }
    }
}
