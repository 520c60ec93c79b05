//! Legal-move generation (the hot path of playouts and search): the moves
//! [`State::check`] allows, written out per open stone instead of checked one by one.

use super::cards::CardSet;
use super::codec::{END_TURN, PASS, claim_action, play_action};
use super::rules::NUM_STONES;
use super::state::{Phase, State};
use crate::game::Action;

impl State {
    pub(super) fn generate_legal(&self, out: &mut Vec<Action>) {
        out.clear();
        let me = self.current as usize;
        match self.phase {
            Phase::Over => {}
            Phase::Play => {
                let mut open = [0 as Action; NUM_STONES];
                let mut n = 0;
                for s in self.open_stones(me) {
                    open[n] = s as Action;
                    n += 1;
                }
                for card in self.hands[me].iter() {
                    let base = play_action(card, 0);
                    out.extend(open[..n].iter().map(|s| base + s));
                }
                if out.is_empty() {
                    out.push(PASS);
                }
            }
            Phase::Claim => {
                let available = CardSet::ALL.minus(self.table());
                out.extend(
                    (0..NUM_STONES)
                        .filter(|&s| self.claimable(s, me, available))
                        .map(claim_action),
                );
                out.push(END_TURN);
            }
        }
    }

    /// S3b, S5: the claim of the first stone the player to move can claim now by proof
    /// (`None` outside the claim step or where none is provable).
    pub(crate) fn provable_claim(&self) -> Option<Action> {
        if self.phase != Phase::Claim {
            return None;
        }
        let available = CardSet::ALL.minus(self.table());
        (0..NUM_STONES)
            .find(|&s| self.claimable(s, self.current as usize, available))
            .map(claim_action)
    }
}
