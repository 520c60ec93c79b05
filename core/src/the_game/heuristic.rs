//! The `heuristic` bot of the_game. Reads only what `seat` may see.

use super::State;
use super::state::{END_TURN, Hand, NUM_PILES, ascending, play_action};
use crate::game::{Action, GameState};
use crate::rng::Rng;

#[derive(Clone, Copy, Debug)]
pub(crate) struct Weights {
    pub dead: i32,
    pub once: i32,
    pub more: i32,
    pub own: i32,
    pub reset: i32,
    pub extra: i32,
    pub extra_empty: i32,
}

pub(crate) const WEIGHTS: Weights = Weights {
    dead: 10,
    once: 10,
    more: 10,
    own: 10,
    reset: 30,
    extra: 0,
    extra_empty: 0,
};

fn weights() -> Weights {
    static W: std::sync::OnceLock<Weights> = std::sync::OnceLock::new();
    *W.get_or_init(|| {
        let mut w = WEIGHTS;
        if let Ok(s) = std::env::var("TG_W") {
            let v: Vec<i32> = s.split(',').map(|x| x.parse().unwrap()).collect();
            w = Weights {
                dead: v[0],
                once: v[1],
                more: v[2],
                own: v[3],
                reset: v[4],
                extra: v[5],
                extra_empty: v[6],
            };
        }
        w
    })
}

/// Bits `lo+1 ..= hi-1`: the cards strictly between `lo` and `hi` (`lo < hi`).
fn between(lo: u8, hi: u8) -> u128 {
    let below_hi = (1u128 << hi) - 1;
    let up_to_lo = (1u128 << (lo + 1)) - 1;
    below_hi & !up_to_lo
}

/// The heuristic player's action for `seat`, `None` if it may not move now.
pub(crate) fn choose(state: &State, seat: usize, _rng: &mut Rng) -> Option<Action> {
    if state.current_player() != Some(seat) {
        return None;
    }
    let w = weights();
    let hand = state.hand_set(seat);
    let unseen = Hand::ALL.without(state.played_cards()).without(hand).bits();
    let own = hand.bits();
    let tops = state.tops();
    // The cards each pile takes now (T4).
    let takes: [u128; NUM_PILES] = std::array::from_fn(|p| {
        let top = tops[p];
        if ascending(p) {
            let above = Hand::ALL.bits() & !((1u128 << (top + 1)) - 1);
            above | top.checked_sub(10).map_or(0, |c| 1u128 << c)
        } else {
            let below = (1u128 << top) - 1;
            below | if top <= 89 { 1u128 << (top + 10) } else { 0 }
        }
    });
    // What losing (or regaining) the cards `range` on `pile` weighs: by how many
    // other piles still take each card, own cards weighted apart.
    let weigh = |range: u128, pile: usize, hand: u128| {
        let (a, b, c) = match pile {
            0 => (takes[1], takes[2], takes[3]),
            1 => (takes[0], takes[2], takes[3]),
            2 => (takes[0], takes[1], takes[3]),
            _ => (takes[0], takes[1], takes[2]),
        };
        let any = a | b | c;
        let two = (a & b) | (a & c) | (b & c);
        let dead = range & !any;
        let once = range & any & !two;
        let more = range & two;
        let count = |set: u128| {
            w.dead * (set & dead).count_ones() as i32
                + w.once * (set & once).count_ones() as i32
                + w.more * (set & more).count_ones() as i32
        };
        count(unseen) + count(hand) * w.own / 10
    };
    let mut best: Option<(i32, Action)> = None;
    for card in hand.iter() {
        let others = own & !(1u128 << card);
        for pile in 0..NUM_PILES {
            let top = tops[pile];
            let cost = if ascending(pile) {
                if card + 10 == top {
                    -w.reset - weigh(between(card, top), pile, others)
                } else if card > top {
                    // A partner ten below can follow as a backward trick (T4).
                    let partner = card.checked_sub(10).filter(|&p| others & (1u128 << p) != 0);
                    match partner {
                        Some(p) if p < top => {
                            -w.reset - weigh(between(p, top), pile, others & !(1u128 << p))
                        }
                        Some(p) => weigh(between(top, p), pile, others & !(1u128 << p)) - w.reset / 2,
                        None => weigh(between(top, card), pile, others),
                    }
                } else {
                    continue;
                }
            } else if card == top + 10 {
                -w.reset - weigh(between(top, card), pile, others)
            } else if card < top {
                let partner = Some(card + 10).filter(|&p| p < 100 && others & (1u128 << p) != 0);
                match partner {
                    Some(p) if p > top => {
                        -w.reset - weigh(between(top, p), pile, others & !(1u128 << p))
                    }
                    Some(p) => weigh(between(p, top), pile, others & !(1u128 << p)) - w.reset / 2,
                    None => weigh(between(card, top), pile, others),
                }
            } else {
                continue;
            };
            if best.is_none_or(|(c, _)| cost < c) {
                best = Some((cost, play_action(card, pile)));
            }
        }
    }
    let must = state.played_this_turn() < state.minimum();
    let threshold = if state.draw_pile().is_empty() {
        w.extra_empty
    } else {
        w.extra
    };
    match best {
        Some((_, action)) if must => Some(action),
        Some((cost, action)) if cost <= threshold => Some(action),
        _ if !must => Some(END_TURN),
        _ => None,
    }
}
