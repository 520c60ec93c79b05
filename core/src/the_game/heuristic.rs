//! The `heuristic` bot of the_game: a cooperative player without table talk (T7) that
//! a good human would recognise. It reads only what its seat may see: its own hand,
//! the piles, the played cards (public, so the cards nobody can see are the rest) and
//! the size of the draw pile.
//!
//! Each call decides one action of the turn (T3: single plays, then the end of the
//! turn). Every play is priced by the cards it makes unplayable on its pile, the
//! cards strictly between the pile's top and the played card:
//! - a card that is already played costs nothing to jump over;
//! - a card that no other pile takes any more (it can only be lost) costs most, one
//!   that one other pile still takes costs less, one that two or more take little;
//! - own hand cards jumped over are weighed apart from the unseen ones.
//!
//! A backward trick (T4: exactly ten back) is a gain: it earns a bonus and wins back
//! the cards between. A pair in the hand ten apart (say 47 and 37 for an ascending
//! pile) is played as one: the far card, then the near one as a backward trick, so
//! the pile ends at the near card and two cards are gone.
//!
//! Until the turn's minimum is reached (T3) the player must play: while two plays are
//! still due it prices each first play together with the cheapest second one after it
//! (so it does not take a cheap first card that leaves only a bad second), then plays
//! the cheapest. Beyond the minimum it goes on only while the cheapest play costs at
//! most a small threshold (one while the draw pile has cards, another once it is
//! empty), and otherwise ends the turn, so the piles stay open for the others. The
//! weights differ by the number of players (hand sizes differ, T2) and were tuned by
//! self-play on other seeds than those measured in benches/README.md.

use super::State;
use super::state::{END_TURN, Hand, NUM_PILES, ascending, play_action};
use crate::game::{Action, GameState};
use crate::rng::Rng;

/// The prices of one player count (integers; only their ratios and the thresholds
/// matter).
#[derive(Clone, Copy, Debug)]
struct Weights {
    /// An unseen card jumped over that no other pile takes any more.
    dead: i32,
    /// An unseen card jumped over that one other pile still takes.
    once: i32,
    /// An unseen card jumped over that two or three other piles still take.
    more: i32,
    /// An own card jumped over, in tenths of an unseen card of the same kind.
    own: i32,
    /// The bonus of a backward trick (half of it for a pair ten apart that lands
    /// higher than the top).
    reset: i32,
    /// Plays beyond the minimum while the draw pile has cards, if they cost at most this.
    extra: i32,
    /// The same once the draw pile is empty.
    extra_empty: i32,
    /// A jump whose card ten back is still unseen (a later backward trick may undo it):
    /// taken off its price (negative: added).
    partner: i32,
    /// Every step of a jump, played cards included.
    step: i32,
}

/// The weights for 1 to 5 players, tuned by self-play on seeds apart from the ones
/// measured in benches/README.md.
const WEIGHTS: [Weights; 5] = [
    // 1 player
    Weights {
        dead: 59,
        once: 23,
        more: 9,
        own: 17,
        reset: 23,
        extra: -4,
        extra_empty: 2,
        partner: 3,
        step: 2,
    },
    // 2 players
    Weights {
        dead: 68,
        once: 12,
        more: 7,
        own: 9,
        reset: 6,
        extra: 10,
        extra_empty: 29,
        partner: 2,
        step: 0,
    },
    // 3 players
    Weights {
        dead: 38,
        once: 24,
        more: 3,
        own: 24,
        reset: 8,
        extra: 5,
        extra_empty: 14,
        partner: -8,
        step: 0,
    },
    // 4 players
    Weights {
        dead: 31,
        once: 15,
        more: 8,
        own: 8,
        reset: 10,
        extra: 9,
        extra_empty: 4,
        partner: 2,
        step: 0,
    },
    // 5 players
    Weights {
        dead: 65,
        once: 15,
        more: 5,
        own: 10,
        reset: 10,
        extra: 0,
        extra_empty: 0,
        partner: 0,
        step: 0,
    },
];

/// Bit `c` for card `c`: the masks below hold cards (and the starts 1 and 100) by number.
const fn bit(card: u8) -> u128 {
    1 << card
}

/// The cards strictly between `lo` and `hi` (`lo < hi`).
fn between(lo: u8, hi: u8) -> u128 {
    (bit(hi) - 1) & !((bit(lo) << 1) - 1)
}

/// The cards above `top`.
fn above(top: u8) -> u128 {
    !((bit(top) << 1) - 1)
}

/// A descending pile seen as an ascending one: card `c` becomes `101 - c`, so its start
/// 100 becomes 1, "lower" becomes "higher" and ten up becomes ten down (T4).
fn mirror(mask: u128) -> u128 {
    mask.reverse_bits() >> (128 - 102)
}

/// What the seat sees of one pile, in that pile's ascending coordinates ([`mirror`]).
struct PileSight {
    top: u8,
    own: u128,
    unseen: u128,
    /// The cards no other pile takes any more, that one other pile takes, that two or
    /// three take (T4, at the other piles' tops now).
    dead: u128,
    once: u128,
    more: u128,
}

impl PileSight {
    fn new(pile: usize, tops: &[u8; NUM_PILES], takes: &[u128; NUM_PILES], own: u128, unseen: u128) -> Self {
        let mut others = (0..NUM_PILES).filter(|&q| q != pile).map(|q| takes[q]);
        let (a, b, c) = (
            others.next().unwrap_or(0),
            others.next().unwrap_or(0),
            others.next().unwrap_or(0),
        );
        let any = a | b | c;
        let two = (a & b) | (a & c) | (b & c);
        let sight = PileSight {
            top: tops[pile],
            own,
            unseen,
            dead: !any,
            once: any & !two,
            more: two,
        };
        if ascending(pile) {
            sight
        } else {
            PileSight {
                top: 101 - sight.top,
                own: mirror(sight.own),
                unseen: mirror(sight.unseen),
                dead: mirror(sight.dead),
                once: mirror(sight.once),
                more: mirror(sight.more),
            }
        }
    }

    /// The price of making the cards `range` unplayable on this pile (the gain of
    /// winning them back by a backward trick).
    fn weigh(&self, range: u128, w: &Weights) -> i32 {
        let count = |set: u128| {
            w.dead * (set & self.dead).count_ones() as i32
                + w.once * (set & self.once).count_ones() as i32
                + w.more * (set & self.more).count_ones() as i32
        };
        count(self.unseen & range) + count(self.own & range) * w.own / 10 + w.step * range.count_ones() as i32
    }
}

/// One play (or a pair ten apart, played as one) and its price.
#[derive(Clone, Copy, Debug)]
struct Play {
    cost: i32,
    /// The card to lay first and its pile.
    card: u8,
    pile: usize,
    /// The pile's top afterwards and the cards it uses (one, or two for a pair).
    landing: u8,
    used: u128,
}

/// At most: per pile a backward trick, two pairs and a few plain jumps.
const MAX_PLAYS: usize = 32;

/// The plays worth pricing from this position: per pile the backward trick, the best
/// pair of each kind and the plain jumps that can still beat the nearest.
fn plays(tops: &[u8; NUM_PILES], own: u128, unseen: u128, w: &Weights, out: &mut [Play; MAX_PLAYS]) -> usize {
    // The cards each pile takes now (T4).
    let takes: [u128; NUM_PILES] = std::array::from_fn(|p| {
        let top = tops[p];
        if ascending(p) {
            (Hand::ALL.bits() & above(top)) | top.checked_sub(10).map_or(0, bit)
        } else {
            (bit(top) - 1) | if top <= 89 { bit(top + 10) } else { 0 }
        }
    });
    let mut n = 0;
    for pile in 0..NUM_PILES {
        let sight = PileSight::new(pile, tops, &takes, own, unseen);
        let top = sight.top;
        let real = |c: u8| if ascending(pile) { c } else { 101 - c };
        let mut push = |cost: i32, first: u8, landing: u8| {
            if n < MAX_PLAYS {
                out[n] = Play {
                    cost,
                    card: real(first),
                    pile,
                    landing: real(landing),
                    used: bit(real(first)) | bit(real(landing)),
                };
                n += 1;
            }
        };
        // A backward trick (T4) wins back the cards between.
        if let Some(back) = top.checked_sub(10).filter(|&c| sight.own & bit(c) != 0) {
            push(-w.reset - sight.weigh(between(back, top), w), back, back);
        }
        // Pairs ten apart: the far card first, then the near one as a backward trick.
        let pairs = sight.own & (sight.own >> 10) & !((bit(top.saturating_sub(10)) << 1) - 1);
        let below = pairs & (bit(top) - 1);
        if below != 0 {
            // Ends below the top: the lowest near card wins back the most.
            let near = below.trailing_zeros() as u8;
            push(-w.reset - sight.weigh(between(near, top), w), near + 10, near);
        }
        let higher = pairs & above(top);
        if higher != 0 {
            let near = higher.trailing_zeros() as u8;
            push(sight.weigh(between(top, near), w) - w.reset / 2, near + 10, near);
        }
        // Plain jumps, nearest first: the price grows with the distance, up to the
        // discount for an unseen card ten back.
        let discount = w.partner.max(0);
        let mut nearest: Option<i32> = None;
        let mut plain = sight.own & above(top) & !(sight.own << 10);
        while plain != 0 {
            let card = plain.trailing_zeros() as u8;
            plain &= plain - 1;
            let base = sight.weigh(between(top, card), w);
            if nearest.is_some_and(|c| base - discount >= c) {
                break;
            }
            let partner = card > top + 10 && sight.unseen & bit(card - 10) != 0;
            let cost = base - if partner { w.partner } else { 0 };
            nearest = Some(nearest.map_or(cost, |c| c.min(cost)));
            push(cost, card, card);
        }
    }
    n
}

/// The cheapest of `plays`.
fn cheapest(plays: &[Play]) -> Option<Play> {
    plays
        .iter()
        .copied()
        .reduce(|a, b| if b.cost < a.cost { b } else { a })
}

/// The heuristic player's action for `seat`, `None` if it may not move now.
pub(crate) fn choose(state: &State, seat: usize, _rng: &mut Rng) -> Option<Action> {
    if state.current_player() != Some(seat) {
        return None;
    }
    let w = WEIGHTS[state.game().players as usize - 1];
    let hand = state.hand_set(seat);
    // The played cards are public (the view shows them), so this is what the seat sees.
    let unseen = Hand::ALL.without(state.played_cards()).without(hand).bits();
    let own = hand.bits();
    let tops = state.tops();
    let mut buffer = [Play {
        cost: 0,
        card: 0,
        pile: 0,
        landing: 0,
        used: 0,
    }; MAX_PLAYS];
    let n = plays(&tops, own, unseen, &w, &mut buffer);
    let options = &buffer[..n];
    let need = state.minimum().saturating_sub(state.played_this_turn());
    let best = if need >= 2 {
        // Two plays still due: price each first play with the cheapest second after it.
        let mut next = buffer;
        options
            .iter()
            .map(|&first| {
                if first.used.count_ones() as usize >= need {
                    return (first.cost, first);
                }
                let mut after = tops;
                after[first.pile] = first.landing;
                let m = plays(&after, own & !first.used, unseen, &w, &mut next);
                let second = cheapest(&next[..m]).map_or(i32::MAX / 4, |p| p.cost);
                (first.cost + second, first)
            })
            .reduce(|a, b| if b.0 < a.0 { b } else { a })
            .map(|(_, first)| first)
    } else {
        cheapest(options)
    };
    let threshold = if state.draw_pile().is_empty() {
        w.extra_empty
    } else {
        w.extra
    };
    match best {
        Some(play) if need > 0 || play.cost <= threshold => Some(play_action(play.card, play.pile)),
        _ if need == 0 => Some(END_TURN),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::heuristic_playout;
    use crate::game::Game;
    use crate::rng;
    use crate::the_game::TheGame;

    /// A solo position: `tops` on the piles (each a played card, or the start), `played`
    /// more cards played somewhere below them, `hand` held, `played_this_turn` already
    /// laid this turn; the rest is the draw pile.
    fn solo(tops: [u8; NUM_PILES], played: &[u8], hand: &[u8], played_this_turn: u8) -> State {
        let rules = TheGame {
            players: 1,
            pro: false,
        };
        let mut state = rules.new_initial_state(0);
        let hand: Hand = hand.iter().copied().collect();
        let on_piles: Hand = tops
            .iter()
            .copied()
            .filter(|&t| t != 1 && t != 100)
            .chain(played.iter().copied())
            .collect();
        state.hands = vec![hand];
        state.draw_pile = Hand::ALL.without(hand).without(on_piles).iter().collect();
        state.tops = tops;
        state.pile_sizes = std::array::from_fn(|p| u8::from(tops[p] != 1 && tops[p] != 100));
        state.pile_sizes[0] += played.len() as u8;
        state.played_this_turn = played_this_turn;
        state
    }

    fn decide(state: &State) -> Action {
        choose(state, 0, &mut rng::seeded(0, rng::STREAM_POLICY)).expect("the seat moves")
    }

    #[test]
    fn takes_every_backward_trick_even_beyond_the_minimum() {
        // T4: 30 on the ascending 40, 70 on the descending 60.
        let state = solo([40, 1, 60, 100], &[], &[30, 70, 85, 95], 2);
        assert_eq!(decide(&state), play_action(30, 0));
        let state = solo([40, 1, 60, 100], &[], &[70, 85, 95], 2);
        assert_eq!(decide(&state), play_action(70, 2));
    }

    #[test]
    fn plays_a_pair_ten_apart_far_card_first() {
        // 45 then 35 on the ascending 40 ends the pile lower than it started.
        let state = solo([40, 90, 20, 10], &[], &[35, 45, 97], 0);
        assert_eq!(decide(&state), play_action(45, 0));
        // Mirrored on a descending pile: 55 then 65 on 60.
        let state = solo([90, 95, 60, 98], &[], &[55, 65, 3], 0);
        assert_eq!(decide(&state), play_action(55, 2));
    }

    #[test]
    fn jumping_over_played_cards_is_free() {
        // 30 on the ascending 20 jumps only played cards (21-29); 63 on the ascending
        // 60 would lose 61 and 62.
        let played: Vec<u8> = (21..=29).collect();
        let state = solo([20, 60, 100, 100], &played, &[30, 63], 0);
        assert_eq!(decide(&state), play_action(30, 0));
    }

    #[test]
    fn plays_the_smallest_jump_and_stops_after_the_minimum() {
        let state = solo([10, 50, 90, 60], &[], &[12, 30, 75], 0);
        assert_eq!(decide(&state), play_action(12, 0));
        // The minimum is played; every further play loses cards: the turn ends (T3).
        let state = solo([10, 50, 90, 60], &[], &[30, 75], 2);
        assert_eq!(decide(&state), END_TURN);
    }

    #[test]
    fn decides_only_for_the_seat_to_move() {
        let rules = TheGame {
            players: 3,
            pro: false,
        };
        let state = rules.new_initial_state(5);
        let mut rng = rng::seeded(0, rng::STREAM_POLICY);
        assert!(choose(&state, 1, &mut rng).is_none());
        assert!(choose(&state, 0, &mut rng).is_some());
    }

    /// Strength for every player count over seeded deals (deterministic, so it cannot
    /// flake): random play leaves about 84 cards, the heuristic far fewer (its measured
    /// means over 10,000 games are in benches/README.md, each well below these bounds).
    #[test]
    fn leaves_few_cards_for_every_player_count() {
        for (players, bound) in [(1, 25.0), (2, 14.0), (3, 18.0), (4, 13.0), (5, 12.0)] {
            let rules = TheGame { players, pro: false };
            let games = 100;
            let mut left = 0;
            let mut perfect = 0;
            for seed in 0..games {
                let mut state = rules.new_initial_state(seed);
                heuristic_playout(&mut state, &mut rng::seeded(seed, rng::STREAM_POLICY));
                let score = state.outcome().expect("played to the end").score;
                left += score;
                perfect += u32::from(score == 0);
            }
            let mean = f64::from(left) / games as f64;
            assert!(mean < bound, "{players} players: mean cards left {mean}");
            if players > 1 {
                assert!(perfect > 0, "{players} players: no perfect game in {games}");
            }
        }
    }
}
