//! The `heuristic` bot of The Game: a cooperative player without table talk (T7) that
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
//! the cheapest. Solo it looks one play further: each way to finish the minimum is
//! priced with part of the cheapest play after it, which is where the next turn starts
//! (the draw is unknown), so it keeps the hand playable. Beyond the minimum it goes on
//! only while the cheapest play costs at most a small threshold (one while the draw pile
//! has cards, another once it is empty), and otherwise ends the turn, so the piles stay
//! open for the others. The weights differ by the number of players (hand sizes differ,
//! T2) and were tuned by self-play on other seeds than those measured in
//! benches/README.md.
//!
//! Speed: everything is bit masks of the 98 cards, read by their numbers on every pile
//! (the cards a jump passes over are the same set whichever way its pile runs; only
//! the search for the nearest card and the tricks are written out per direction). A
//! short jump's cards are counted by kind in one word ([`weighted_count`]). A plain
//! jump that cannot beat the nearest even by a lower bound of its price (the nearer
//! plain card in between is an own card, so it weighs at least that much more) is not
//! weighed. While plays are due the first plays are tried cheapest first, and one that
//! cannot beat the best found even with the cheapest possible look-ahead (when no
//! backward trick or pair is in reach, every later play costs at least the partner
//! discount) is not looked ahead from. The look-ahead prices the first play's pile anew
//! and keeps the price of a play on another pile (re-pricing those whose cards the first
//! play changed made no measurable difference to the results). The playout loop
//! ([`playout`]) keeps the played cards itself instead of reading them off the draw pile
//! before every action, and decides exactly as [`choose`]; both decide exactly as the
//! slow, obvious version without these speed-ups (`heuristic_reference.rs`, kept for the
//! tests).

use super::State;
use super::cards::Hand;
use super::codec::{Decoded, END_TURN, play_action};
use super::rules::{NUM_PILES, ascending, takes};
use crate::bots::Heuristic;
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
    /// The cheapest play after the turn's due plays (what the next turn starts from, the
    /// draw unknown), in tenths of its price: 0 looks no further than the due plays.
    ahead: i32,
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
        ahead: 8,
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
        ahead: 0,
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
        ahead: 0,
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
        ahead: 0,
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
        ahead: 0,
    },
];

/// Bit `c` for card `c`: the masks below hold cards (and the starts 1 and 100) by number.
fn bit(card: u8) -> u128 {
    MASKS[usize::from(card)].bit
}

/// The cards strictly between `lo` and `hi` (`lo < hi`).
fn between(lo: u8, hi: u8) -> u128 {
    below(hi) & above(lo)
}

/// The cards above `top`.
fn above(top: u8) -> u128 {
    MASKS[usize::from(top)].above
}

/// The cards below `top`.
fn below(top: u8) -> u128 {
    MASKS[usize::from(top)].below
}

/// [`bit`], [`above`] and [`below`] of one number.
#[derive(Clone, Copy)]
struct Masks {
    bit: u128,
    above: u128,
    below: u128,
}

/// The masks of every number a `u8` holds (none past 127), read from a table: cheaper
/// than the 128-bit shifts they are made of, which every price needs several of.
static MASKS: [Masks; 256] = {
    let mut table = [Masks {
        bit: 0,
        above: 0,
        below: u128::MAX,
    }; 256];
    let mut n = 0;
    while n < 128 {
        let bit = 1u128 << n;
        table[n] = Masks {
            bit,
            above: !((bit << 1).wrapping_sub(1)),
            below: bit - 1,
        };
        n += 1;
    }
    table
};

/// The highest card in `set` (not empty).
fn highest(set: u128) -> u8 {
    127 - set.leading_zeros() as u8
}

/// The number of cards in `set`. The build has no hardware popcount (no `target-cpu`),
/// and most sets weighed here are empty, so those cost one comparison.
fn count(set: u128) -> i32 {
    if set == 0 { 0 } else { set.count_ones() as i32 }
}

/// What the seat sees, as bit masks of the cards by number: its hand, the cards nobody
/// at the table has shown (another hand or the draw pile), and the piles.
#[derive(Clone, Copy)]
struct Position {
    tops: [u8; NUM_PILES],
    own: u128,
    unseen: u128,
    /// The cards each pile takes (T4).
    takes: [u128; NUM_PILES],
}

impl Position {
    fn new(tops: [u8; NUM_PILES], own: u128, unseen: u128) -> Self {
        Position {
            tops,
            own,
            unseen,
            takes: std::array::from_fn(|p| takes(tops[p], p)),
        }
    }

    /// The position after `play` (its cards gone from the hand, its pile at its landing).
    fn after(&self, play: Play) -> Self {
        let mut next = *self;
        let p = play.pile();
        next.tops[p] = play.landing;
        next.own &= !play.used();
        next.takes[p] = takes(play.landing, p);
        next
    }

    /// What the seat sees of `pile`.
    fn sight(&self, pile: usize) -> PileSight {
        let [p0, p1, p2, p3] = self.takes;
        let (a, b, c) = match pile {
            0 => (p1, p2, p3),
            1 => (p0, p2, p3),
            2 => (p0, p1, p3),
            _ => (p0, p1, p2),
        };
        let any = a | b | c;
        let two = (a & b) | (c & (a | b));
        PileSight {
            top: self.tops[pile],
            own: self.own,
            unseen: self.unseen,
            dead: !any,
            once: any & !two,
        }
    }

    fn sights(&self) -> [PileSight; NUM_PILES] {
        std::array::from_fn(|p| self.sight(p))
    }
}

/// What the seat sees of one pile. Cards are read by their numbers on every pile: the
/// cards a play jumps over are the same set whichever way its pile runs.
#[derive(Clone, Copy)]
struct PileSight {
    top: u8,
    own: u128,
    unseen: u128,
    /// The cards no other pile takes any more, and that exactly one other pile takes (T4,
    /// at the other piles' tops now); the rest two or three take.
    dead: u128,
    once: u128,
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
                let dead = count(set & self.dead);
                let once = count(set & self.once);
                let more = count(set) - dead - once;
                w.dead * dead + w.once * once + w.more * more
            };
            return kinds(self.unseen & range) + kinds(self.own & range) * w.own / 10 + steps;
        }
        // The range fits a 64-bit window: half the work of counting 128 bits (the build
        // has no hardware popcount), and no counting at all for an empty set.
        let shift = u32::from(lo) + 1;
        let mask = u64::MAX >> (64 - len);
        let window = |set: u128| (set >> shift) as u64 & mask;
        if len <= 16 {
            // Most jumps are short: the unseen cards of each kind counted at once, in
            // three 16-bit lanes of one word.
            let (unseen, dead, once) = (window(self.unseen), window(self.dead), window(self.once));
            let lanes = (unseen & dead) | (unseen & once) << 16 | (unseen & !(dead | once)) << 32;
            let own = window(self.own);
            let own_weight = if own == 0 {
                0
            } else {
                let dead = (own & dead).count_ones() as i32;
                let once = (own & once).count_ones() as i32;
                let more = own.count_ones() as i32 - dead - once;
                (w.dead * dead + w.once * once + w.more * more) * w.own / 10
            };
            return weighted_count(lanes, w) + own_weight + steps;
        }
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

/// `w.dead`, `w.once` and `w.more` times the number of cards in the three 16-bit lanes
/// of `lanes` (from the bottom), by one word-wide count: the lanes are summed in place,
/// and one multiplication gathers them, weighted, in the top lane (no lane overflows:
/// [`WEIGHTS_FIT`]).
fn weighted_count(lanes: u64, w: &Weights) -> i32 {
    const ODD: u64 = 0x5555_5555_5555_5555;
    const PAIRS: u64 = 0x3333_3333_3333_3333;
    const NIBBLES: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    const BYTES: u64 = 0x00ff_00ff_00ff_00ff;
    let x = lanes - ((lanes >> 1) & ODD);
    let x = (x & PAIRS) + ((x >> 2) & PAIRS);
    let x = (x + (x >> 4)) & NIBBLES;
    let x = (x + (x >> 8)) & BYTES;
    let gather = (w.dead as u64) << 48 | (w.once as u64) << 32 | (w.more as u64) << 16;
    (x.wrapping_mul(gather) >> 48) as i32
}

/// The kinds' weights are small and not negative, so [`weighted_count`]'s lanes (at most
/// 16 cards each) never carry into the next; with `own` and `step` not negative either, a
/// jump weighs at least as much as a shorter one from the same top ([`pile_plays`]).
const WEIGHTS_FIT: () = {
    let mut i = 0;
    while i < WEIGHTS.len() {
        let w = WEIGHTS[i];
        assert!(w.dead >= 0 && w.once >= 0 && w.more >= 0 && w.own >= 0 && w.step >= 0);
        assert!(16 * (w.dead + w.once + w.more) < 1 << 16);
        i += 1;
    }
};
const _: () = WEIGHTS_FIT;

/// One play (or a pair ten apart, played as one) and its price.
#[derive(Clone, Copy, Debug)]
struct Play {
    cost: i32,
    /// It lands behind the top (a backward trick, or a pair whose near card is behind
    /// it), winning back the cards between.
    wins_back: bool,
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
///
/// Written out for each direction (T1): on a descending pile "above" is "below", ten
/// back is ten up, and the nearest card is the highest.
fn pile_plays(pile: usize, sight: &PileSight, w: &Weights, mut push: impl FnMut(Play)) {
    let (top, own) = (sight.top, sight.own);
    let mut offer = |cost: i32, wins_back: bool, first: u8, landing: u8| {
        push(Play {
            cost,
            wins_back,
            card: first,
            pile: pile as u8,
            landing,
        });
    };
    let asc = ascending(pile);
    if asc {
        // A backward trick (T4) wins back the cards between.
        if let Some(back) = top.checked_sub(10).filter(|&c| own & bit(c) != 0) {
            offer(-sight.weigh(back, top, w) - w.reset, true, back, back);
        }
        // Pairs ten apart: the far card first, then the near one as a backward trick.
        let pairs = own & (own >> 10) & above(top.saturating_sub(10));
        let under = pairs & below(top);
        if under != 0 {
            // Ends below the top: the lowest near card wins back the most.
            let near = under.trailing_zeros() as u8;
            offer(-sight.weigh(near, top, w) - w.reset, true, near + 10, near);
        }
        let higher = pairs & above(top);
        if higher != 0 {
            let near = higher.trailing_zeros() as u8;
            offer(sight.weigh(top, near, w) - w.reset / 2, false, near + 10, near);
        }
    } else {
        let back = top + 10;
        if own & bit(back) != 0 {
            offer(-sight.weigh(top, back, w) - w.reset, true, back, back);
        }
        let pairs = own & (own << 10) & below(top + 10);
        let under = pairs & above(top);
        if under != 0 {
            let near = highest(under);
            offer(-sight.weigh(top, near, w) - w.reset, true, near - 10, near);
        }
        let higher = pairs & below(top);
        if higher != 0 {
            let near = highest(higher);
            offer(sight.weigh(near, top, w) - w.reset / 2, false, near - 10, near);
        }
    }
    // Plain jumps, nearest first: the price grows with the distance, up to the
    // discount for an unseen card ten back.
    let discount = w.partner.max(0);
    // A jump over the nearer plain card costs at least that card's weight as an own card
    // more than the jump to it (every weight is at least 0: [`WEIGHTS_FIT`]), so a jump
    // that cannot beat the nearest even then is not weighed at all.
    let own_card = w.dead.min(w.once).min(w.more) * w.own / 10;
    let mut nearest: Option<i32> = None;
    let mut last = 0;
    let mut plain = if asc {
        own & above(top) & !(own << 10)
    } else {
        own & below(top) & !(own >> 10)
    };
    while plain != 0 {
        let card = if asc {
            plain.trailing_zeros() as u8
        } else {
            highest(plain)
        };
        plain &= !bit(card);
        let (lo, hi, partner) = if asc {
            (top, card, card > top + 10 && sight.unseen & bit(card - 10) != 0)
        } else {
            (card, top, card + 10 < top && sight.unseen & bit(card + 10) != 0)
        };
        if nearest.is_some_and(|c| last + own_card - discount >= c) {
            break;
        }
        let base = sight.weigh(lo, hi, w);
        if nearest.is_some_and(|c| base - discount >= c) {
            break;
        }
        last = base;
        let bonus = if partner { -w.partner } else { 0 };
        nearest = Some(nearest.map_or(base + bonus, |c| c.min(base + bonus)));
        offer(base + bonus, false, card, card);
    }
}

/// The plays worth pricing on every pile (seen as `sights`), into `out`; returns how many.
fn plays(sights: &[PileSight; NUM_PILES], w: &Weights, out: &mut [Play; MAX_PLAYS]) -> usize {
    let mut n = 0;
    for (pile, sight) in sights.iter().enumerate() {
        pile_plays(pile, sight, w, |play| {
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
/// before it (seen as `sights`): the first's pile is priced anew from its landing, and a
/// play on another pile that does not use the first's cards keeps its price. Re-pricing
/// those where the first play changed the cards they jump over (one left the hand, or a
/// pile no longer takes it) made no measurable difference to the results
/// (benches/README.md) and cost 11-13% of the instructions (27% solo).
fn plays_after(
    sights: &[PileSight; NUM_PILES],
    first: Play,
    options: &[Play],
    w: &Weights,
    mut visit: impl FnMut(Play),
) {
    let p = first.pile();
    let used = first.used();
    // On the first's own pile only the top and the hand change: the other piles, which
    // say what its cards are worth, stay.
    let here = PileSight {
        top: first.landing,
        own: sights[p].own & !used,
        ..sights[p]
    };
    pile_plays(p, &here, w, &mut visit);
    options
        .iter()
        .filter(|o| o.pile() != p && o.used() & used == 0)
        .for_each(|&play| visit(play));
}

/// The price of the cheapest play after `first` ([`plays_after`]).
fn cheapest_second(sights: &[PileSight; NUM_PILES], first: Play, options: &[Play], w: &Weights) -> i32 {
    let mut best = NO_PLAY;
    plays_after(sights, first, options, w, |play| {
        best = best.min(play.cost);
    });
    best
}

/// The price of `play` from `position` (seen as `sights`, whose plays are `options`)
/// while `need` plays are due: its own, the cheapest second after it if one is still
/// due, and `ahead` tenths of the cheapest play after the due ones.
fn value(
    position: &Position,
    sights: &[PileSight; NUM_PILES],
    play: Play,
    options: &[Play],
    need: usize,
    w: &Weights,
) -> i32 {
    let rest = need.saturating_sub(play.cards());
    if w.ahead == 0 {
        return play.cost
            + if rest == 0 {
                0
            } else {
                cheapest_second(sights, play, options, w)
            };
    }
    if rest == 0 {
        return play.cost + cheapest_second(sights, play, options, w) * w.ahead / 10;
    }
    // A second play is due: every second after this one, each with its own look ahead.
    let mut buffer = [EMPTY_PLAY; MAX_PLAYS];
    let mut n = 0;
    plays_after(sights, play, options, w, |second| {
        if n < MAX_PLAYS {
            buffer[n] = second;
            n += 1;
        }
    });
    let seconds = &buffer[..n];
    let next = position.after(play);
    let next_sights = next.sights();
    let second = seconds
        .iter()
        .map(|second| {
            let after = if rest == 1 {
                cheapest_second(&next_sights, *second, seconds, w) * w.ahead / 10
            } else {
                0
            };
            second.cost + after
        })
        .min()
        .unwrap_or(NO_PLAY);
    play.cost + second
}

/// The first of `options` (from `position`, seen as `sights`) with the lowest
/// [`value`] while `need` plays are due.
///
/// Without a backward trick or a pair ten apart in reach (no option wins cards back,
/// and no two cards of the hand are ten apart, so no later play can either), every play
/// after the first costs at least `-partner` (a plain jump with its discount): a first
/// play whose own price plus that bound cannot beat the best found is not looked ahead
/// from. The cheapest option is tried first, so the bound cuts early.
fn best_due(
    position: &Position,
    sights: &[PileSight; NUM_PILES],
    options: &[Play],
    need: usize,
    w: &Weights,
) -> Option<Play> {
    // The cheapest first play is looked ahead from first: its value bounds the rest.
    let cheapest = (0..options.len()).reduce(|a, b| if options[b].cost < options[a].cost { b } else { a })?;
    let calm = position.own & (position.own >> 10) == 0 && !options.iter().any(|o| o.wins_back);
    let least = -w.partner.max(0);
    // The least `value` can add to a play's own price ([`value`]'s terms, each at least
    // `least`; `* ahead / 10` keeps the order of its argument).
    let floor = |rest: usize| match (w.ahead, rest) {
        (0, 0) => 0,
        (0, _) => least,
        (_, 0) => least * w.ahead / 10,
        (_, 1) => least + least * w.ahead / 10,
        _ => least,
    };
    let mut best: Option<(i32, usize)> = None;
    for i in std::iter::once(cheapest).chain((0..options.len()).filter(|&i| i != cheapest)) {
        let play = &options[i];
        let rest = need.saturating_sub(play.cards());
        if calm && best.is_some_and(|best| (play.cost + floor(rest), i) >= best) {
            continue;
        }
        let v = value(position, sights, *play, options, need, w);
        if best.is_none_or(|best| (v, i) < best) {
            best = Some((v, i));
        }
    }
    best.map(|(_, i)| options[i])
}

const EMPTY_PLAY: Play = Play {
    cost: 0,
    wins_back: false,
    card: 0,
    pile: 0,
    landing: 0,
};

/// The heuristic player's action for `seat`, `None` if it may not move now.
pub(crate) fn choose(state: &State, seat: usize, _rng: &mut Rng) -> Option<Action> {
    if state.current_player() != Some(seat) {
        return None;
    }
    decide(state, seat, state.played_cards().bits())
}

/// Plays `state` to the end with the heuristic in every seat, as [`choose`] would, but
/// keeps the played cards (public) up to date instead of reading them off the draw pile
/// before every action; returns the number of actions.
pub(crate) fn playout(state: &mut State) -> u64 {
    let mut played = state.played_cards().bits();
    let mut n = 0;
    while let Some(seat) = state.current_player() {
        let action = decide(state, seat, played).expect("the player to move has a legal action");
        if let Some(Decoded::Play { card, .. }) = Decoded::decode(action) {
            played |= bit(card);
        }
        // The heuristic plays only legal actions (checked in debug builds).
        state.apply_checked(action);
        n += 1;
    }
    n
}

/// The decision of [`choose`] for the seat to move, given the cards on the piles.
fn decide(state: &State, seat: usize, played: u128) -> Option<Action> {
    let w = WEIGHTS[state.game().players as usize - 1];
    let own = state.hand_set(seat).bits();
    // The played cards are public (the view shows them), so this is what the seat sees.
    let unseen = Hand::ALL.bits() & !played & !own;
    let position = Position::new(state.tops(), own, unseen);
    let sights = position.sights();
    let mut buffer = [EMPTY_PLAY; MAX_PLAYS];
    let n = plays(&sights, &w, &mut buffer);
    let options = &buffer[..n];
    let need = state.minimum().saturating_sub(state.played_this_turn());
    let best = if need >= 1 {
        // Plays still due: price each with the cheapest way to finish the minimum after
        // it (and, with `ahead`, the cheapest play after that).
        best_due(&position, &sights, options, need, &w)
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

/// The heuristic's prices of `seat`'s plays as scores (higher is better: the negated
/// price), and once the turn's minimum is reached (T3) the end of the turn, scored just
/// below the plays the heuristic would still make (those within its threshold). Empty
/// when `seat` may not move now. A card offered both alone and as a pair keeps its better
/// score. Search widens by it (`pimc`'s `width`).
fn scores_into(state: &State, seat: usize, out: &mut Vec<(Action, f32)>) {
    out.clear();
    if state.current_player() != Some(seat) {
        return;
    }
    let w = WEIGHTS[state.game().players as usize - 1];
    let own = state.hand_set(seat).bits();
    let unseen = Hand::ALL.bits() & !state.played_cards().bits() & !own;
    let sights = Position::new(state.tops(), own, unseen).sights();
    let mut buffer = [EMPTY_PLAY; MAX_PLAYS];
    let n = plays(&sights, &w, &mut buffer);
    for play in &buffer[..n] {
        let action = play_action(play.card, play.pile());
        let score = -(play.cost as f32);
        match out.iter_mut().find(|(a, _)| *a == action) {
            Some(entry) => entry.1 = entry.1.max(score),
            None => out.push((action, score)),
        }
    }
    if state.minimum() <= state.played_this_turn() {
        let threshold = if state.draw_pile().is_empty() {
            w.extra_empty
        } else {
            w.extra
        };
        out.push((END_TURN, -(threshold as f32) - 0.5));
    }
}

impl Heuristic for State {
    fn heuristic_action(&self, seat: usize, rng: &mut Rng) -> Option<Action> {
        choose(self, seat, rng)
    }
    fn heuristic_scores_into(&self, seat: usize, out: &mut Vec<(Action, f32)>) {
        scores_into(self, seat, out);
    }
    /// The same decisions as [`Heuristic::heuristic_action`] in a loop that keeps the
    /// played cards up to date itself (the heuristic's tests compare the two).
    fn heuristic_playout(&mut self, _rng: &mut Rng) -> u64 {
        playout(self)
    }
}

#[cfg(test)]
#[path = "heuristic_reference.rs"]
mod reference;

#[cfg(test)]
#[path = "heuristic_tests.rs"]
mod tests;
