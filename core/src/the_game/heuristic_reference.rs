//! The The Game heuristic as it was before it was made faster (issue 11), kept as the
//! slow obvious reference the fast one is checked against: every pile read in its own
//! ascending coordinates (descending piles mirrored), every pile priced afresh at every
//! decision, every first play looked ahead from. One change of the rule itself since:
//! the look-ahead keeps the prices of the plays on other piles (benches/README.md, "The
//! Game `heuristic`", third round), made here and in the fast one alike. The fast one
//! must decide exactly as this one does (`decides_as_the_reference` in the heuristic's
//! tests).

use super::super::State;
use super::super::cards::Hand;
use super::super::codec::{END_TURN, play_action};
use super::super::rules::{NUM_PILES, ascending};
use super::{WEIGHTS, Weights};
use crate::game::{Action, GameState};

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

/// The number of cards in `set`. The build has no hardware popcount (no `target-cpu`),
/// and most sets weighed here are empty, so those cost one comparison.
fn count(set: u128) -> i32 {
    if set == 0 { 0 } else { set.count_ones() as i32 }
}

/// The coordinates a pile is read in: its own (ascending as it is, descending
/// [`mirror`]ed) are index 0 for ascending piles and 1 for descending ones.
const fn coords(pile: usize) -> usize {
    if ascending(pile) { 0 } else { 1 }
}

/// The cards a pile takes (T4) whose top is `top` in the pile's own coordinates, in those
/// coordinates and mirrored. Bits outside the cards 2–99 may be set: every mask here is
/// only ever cut down to own or unseen cards.
fn takes(top: u8) -> [u128; 2] {
    let ahead = above(top) | top.checked_sub(10).map_or(0, bit);
    let m = 101 - top;
    [ahead, (bit(m) - 1) | bit(m + 10)]
}

/// What the seat sees, as bit masks in both coordinates (index 0 real, index 1 mirrored):
/// its hand, the cards nobody at the table has shown (another hand or the draw pile),
/// and the piles.
#[derive(Clone, Copy)]
struct Position {
    /// The tops in each pile's own coordinates.
    tops: [u8; NUM_PILES],
    own: [u128; 2],
    unseen: [u128; 2],
    /// The cards each pile takes, in real (0) and mirrored (1) coordinates.
    takes: [[u128; 2]; NUM_PILES],
}

impl Position {
    fn new(tops: [u8; NUM_PILES], own: u128, unseen: u128) -> Self {
        let tops = std::array::from_fn(|p| if ascending(p) { tops[p] } else { 101 - tops[p] });
        Position {
            tops,
            own: [own, mirror(own)],
            unseen: [unseen, mirror(unseen)],
            takes: std::array::from_fn(|p| {
                let [ahead, back] = takes(tops[p]);
                if ascending(p) {
                    [ahead, back]
                } else {
                    [back, ahead]
                }
            }),
        }
    }

    /// The position after `play` (its cards gone from the hand, its pile at its landing).
    fn after(&self, play: Play) -> Self {
        let mut next = *self;
        let p = play.pile();
        let k = coords(p);
        next.tops[p] = if ascending(p) {
            play.landing
        } else {
            101 - play.landing
        };
        next.own[0] &= !play.used();
        next.own[1] &= !mirror_cards(play.used());
        let [ahead, back] = takes(next.tops[p]);
        next.takes[p][k] = ahead;
        next.takes[p][1 - k] = back;
        next
    }

    /// What the seat sees of `pile`, in the pile's own coordinates.
    fn sight(&self, pile: usize) -> PileSight {
        let k = coords(pile);
        let mut others = (0..NUM_PILES).filter(|&q| q != pile).map(|q| self.takes[q][k]);
        let (a, b, c) = (
            others.next().unwrap_or(0),
            others.next().unwrap_or(0),
            others.next().unwrap_or(0),
        );
        let any = a | b | c;
        let two = (a & b) | (a & c) | (b & c);
        PileSight {
            top: self.tops[pile],
            own: self.own[k],
            unseen: self.unseen[k],
            dead: !any,
            once: any & !two,
            more: two,
        }
    }
}

/// [`mirror`] of a set of at most two cards, bit by bit (cheaper than reversing 128 bits).
fn mirror_cards(mut cards: u128) -> u128 {
    let mut out = 0;
    while cards != 0 {
        out |= bit(101 - cards.trailing_zeros() as u8);
        cards &= cards - 1;
    }
    out
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
    /// The price of making the cards strictly between `lo` and `hi` unplayable on this
    /// pile (the gain of winning them back by a backward trick).
    fn weigh(&self, lo: u8, hi: u8, w: &Weights) -> i32 {
        let len = u32::from(hi - lo - 1);
        let steps = w.step * len as i32;
        if len == 0 {
            return steps;
        }
        if len > 64 {
            let range = between(lo, hi);
            let kinds = |set: u128| {
                w.dead * count(set & self.dead)
                    + w.once * count(set & self.once)
                    + w.more * count(set & self.more)
            };
            return kinds(self.unseen & range) + kinds(self.own & range) * w.own / 10 + steps;
        }
        // The range fits a 64-bit window: half the work of counting 128 bits (the build
        // has no hardware popcount), and no counting at all for an empty set.
        let shift = u32::from(lo) + 1;
        let mask = u64::MAX >> (64 - len);
        let window = |set: u128| (set >> shift) as u64 & mask;
        let kinds = |set: u64| {
            if set == 0 {
                return 0;
            }
            let dead = (set & window(self.dead)).count_ones() as i32;
            let once = (set & window(self.once)).count_ones() as i32;
            let more = set.count_ones() as i32 - dead - once;
            w.dead * dead + w.once * once + w.more * more
        };
        kinds(window(self.unseen)) + kinds(window(self.own)) * w.own / 10 + steps
    }
}

/// One play (or a pair ten apart, played as one) and its price.
#[derive(Clone, Copy, Debug)]
struct Play {
    cost: i32,
    /// The card to lay first and its pile.
    card: u8,
    pile: u8,
    /// The pile's top afterwards (the same card, or the near card of a pair).
    landing: u8,
}

impl Play {
    /// The cards it uses: one, or two for a pair.
    fn used(self) -> u128 {
        bit(self.card) | bit(self.landing)
    }
    fn pile(self) -> usize {
        self.pile as usize
    }
    fn cards(self) -> usize {
        if self.card == self.landing { 1 } else { 2 }
    }
}

/// The price of a play that does not exist (no card fits): far above any real price,
/// and small enough to be weighed and added without overflow.
const NO_PLAY: i32 = 1 << 20;

/// At most: per pile a backward trick, two pairs and a few plain jumps.
const MAX_PLAYS: usize = 32;

/// The plays worth pricing on `pile`: the backward trick, the best pair of each kind and
/// the plain jumps that can still beat the nearest, each handed to `push`.
fn pile_plays(pile: usize, sight: &PileSight, w: &Weights, mut push: impl FnMut(Play)) {
    let top = sight.top;
    let real = |c: u8| if ascending(pile) { c } else { 101 - c };
    // The cost is `sign` times the weight of the cards strictly between `lo` and `hi` (in
    // the pile's own coordinates: the cards it jumps over or wins back) plus `bonus`.
    let mut offer = |lo: u8, hi: u8, sign: i32, bonus: i32, first: u8, landing: u8| {
        push(Play {
            cost: sign * sight.weigh(lo, hi, w) + bonus,
            card: real(first),
            pile: pile as u8,
            landing: real(landing),
        });
    };
    // A backward trick (T4) wins back the cards between.
    if let Some(back) = top.checked_sub(10).filter(|&c| sight.own & bit(c) != 0) {
        offer(back, top, -1, -w.reset, back, back);
    }
    // Pairs ten apart: the far card first, then the near one as a backward trick.
    let pairs = sight.own & (sight.own >> 10) & !((bit(top.saturating_sub(10)) << 1) - 1);
    let below = pairs & (bit(top) - 1);
    if below != 0 {
        // Ends below the top: the lowest near card wins back the most.
        let near = below.trailing_zeros() as u8;
        offer(near, top, -1, -w.reset, near + 10, near);
    }
    let higher = pairs & above(top);
    if higher != 0 {
        let near = higher.trailing_zeros() as u8;
        offer(top, near, 1, -(w.reset / 2), near + 10, near);
    }
    // Plain jumps, nearest first: the price grows with the distance, up to the
    // discount for an unseen card ten back.
    let discount = w.partner.max(0);
    let mut nearest: Option<i32> = None;
    let mut plain = sight.own & above(top) & !(sight.own << 10);
    while plain != 0 {
        let card = plain.trailing_zeros() as u8;
        plain &= plain - 1;
        let base = sight.weigh(top, card, w);
        if nearest.is_some_and(|c| base - discount >= c) {
            break;
        }
        let partner = card > top + 10 && sight.unseen & bit(card - 10) != 0;
        let bonus = if partner { -w.partner } else { 0 };
        nearest = Some(nearest.map_or(base + bonus, |c| c.min(base + bonus)));
        offer(top, card, 1, bonus, card, card);
    }
}

/// The plays worth pricing from `position` on every pile, into `out`; returns how many.
fn plays(position: &Position, w: &Weights, out: &mut [Play; MAX_PLAYS]) -> usize {
    let mut n = 0;
    for pile in 0..NUM_PILES {
        pile_plays(pile, &position.sight(pile), w, |play| {
            if n < MAX_PLAYS {
                out[n] = play;
                n += 1;
            }
        });
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

/// The plays after `first`, each handed to `visit`, from the `options` of the position
/// before it (`next` is the position after it): the first's pile is priced anew from
/// its landing; a play on another pile that does not use the first's cards keeps its
/// price.
fn plays_after(next: &Position, first: Play, options: &[Play], w: &Weights, mut visit: impl FnMut(Play)) {
    let p = first.pile();
    pile_plays(p, &next.sight(p), w, &mut visit);
    options
        .iter()
        .filter(|o| o.pile() != p && o.used() & first.used() == 0)
        .for_each(|&play| visit(play));
}

/// The price of the cheapest play after `first` ([`plays_after`]).
fn cheapest_second(position: &Position, first: Play, options: &[Play], w: &Weights) -> i32 {
    let mut best = NO_PLAY;
    plays_after(&position.after(first), first, options, w, |play| {
        best = best.min(play.cost);
    });
    best
}

/// The price of `play` from `position` (whose plays are `options`) while `need` plays
/// are due: its own, the cheapest second after it if one is still due, and `ahead`
/// tenths of the cheapest play after the due ones.
fn value(position: &Position, play: Play, options: &[Play], need: usize, w: &Weights) -> i32 {
    let rest = need.saturating_sub(play.cards());
    if w.ahead == 0 {
        return play.cost
            + if rest == 0 {
                0
            } else {
                cheapest_second(position, play, options, w)
            };
    }
    if rest == 0 {
        return play.cost + cheapest_second(position, play, options, w) * w.ahead / 10;
    }
    // A second play is due: every second after this one, each with its own look ahead.
    let next = position.after(play);
    let mut buffer = [EMPTY_PLAY; MAX_PLAYS];
    let mut n = 0;
    plays_after(&next, play, options, w, |second| {
        if n < MAX_PLAYS {
            buffer[n] = second;
            n += 1;
        }
    });
    let seconds = &buffer[..n];
    let second = seconds
        .iter()
        .map(|second| {
            let after = if rest == 1 {
                cheapest_second(&next, *second, seconds, w) * w.ahead / 10
            } else {
                0
            };
            second.cost + after
        })
        .min()
        .unwrap_or(NO_PLAY);
    play.cost + second
}

const EMPTY_PLAY: Play = Play {
    cost: 0,
    card: 0,
    pile: 0,
    landing: 0,
};

/// The decision for the seat to move, as the heuristic made it before it was made
/// faster.
pub(super) fn decide(state: &State, seat: usize) -> Option<Action> {
    let played = state.played_cards().bits();
    let w = WEIGHTS[state.game().players as usize - 1];
    let own = state.hand_set(seat).bits();
    // The played cards are public (the view shows them), so this is what the seat sees.
    let unseen = Hand::ALL.bits() & !played & !own;
    let position = Position::new(state.tops(), own, unseen);
    let mut buffer = [EMPTY_PLAY; MAX_PLAYS];
    let n = plays(&position, &w, &mut buffer);
    let options = &buffer[..n];
    let need = state.minimum().saturating_sub(state.played_this_turn());
    let best = if need >= 1 {
        // Plays still due: price each with the cheapest way to finish the minimum after
        // it (and, with `ahead`, the cheapest play after that).
        options
            .iter()
            .map(|play| (value(&position, *play, options, need, &w), play))
            .reduce(|a, b| if b.0 < a.0 { b } else { a })
            .map(|(_, play)| *play)
    } else {
        cheapest(options)
    };
    let threshold = if state.draw_pile().is_empty() {
        w.extra_empty
    } else {
        w.extra
    };
    match best {
        Some(play) if need > 0 || play.cost <= threshold => Some(play_action(play.card, play.pile())),
        _ if need == 0 => Some(END_TURN),
        _ => None,
    }
}
