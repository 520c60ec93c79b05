//! The `heuristic` bot of Schotten Totten: a rules-based player that reads only what its
//! seat may see (its own hand, the table, the pile's size and the other hand's size).
//!
//! How a good human plays, made into numbers:
//! - **Claim whenever provable** (S3b, S5). A claim costs nothing and cannot be undone
//!   by the other side, so every provable stone is claimed at once.
//! - **Build towards the strongest formation each stone can still reach.** For every
//!   open stone the bot estimates its chance `w` of winning it, from the expected
//!   strength of its own side (completions from its hand, which are nearly certain, and
//!   from the unseen cards, which it may still draw) against the other side's (completions
//!   from the unseen cards only: S5's available set less the bot's own hand, which the
//!   other player can never get). Known outcomes are exact: a stone the bot is sure to
//!   win (the claim proof with its own hand taken out of the available set) has `w = 1`,
//!   one it cannot win even with its best reachable formation (S6) has `w = 0`.
//! - **Keep the game structure in mind (S7).** Each stone weighs by the lines of three
//!   adjacent stones through it that either player can still complete, more for lines in
//!   which a player already owns stones.
//! - **Dump hopeless cards.** Each play is scored by the whole position after it: the
//!   weighted sum of `w` over the stones, with the played card gone from the hand. A card
//!   that helps nowhere then goes where it costs least: a stone already lost or won, or
//!   the least valuable one.
//!
//! The unseen cards are the deck and the other hand as one multiset: all 54 cards less
//! the table and the bot's hand. Cards in hand count with probability [`HAND_CARD`] (a hand
//! card may be needed elsewhere); an unseen card reaches a player with a probability
//! from the draws left to it.

use rand::RngExt;

use super::State;
use super::cards::{Card, CardSet};
use super::formation::{Formation, FormationKind, best_reachable, formation};
use super::state::{END_TURN, NUM_STONES, PASS, Phase, claim_action, play_action};
use crate::game::Action;
use crate::rng::Rng;

/// Probability that a card in the bot's hand ends up where the plan wants it.
const HAND_CARD: f32 = 0.85;
/// Scale of the logistic that turns a strength difference into a win chance: a strength
/// point is one point of sum, a formation kind is [`KIND_STEP`] points.
const TEMPERATURE: f32 = 6.0;
/// Strength between neighbouring formation kinds (S4: a kind beats every weaker one, and
/// sums range 6-26, so a step above the widest sum gap keeps the kinds apart).
const KIND_STEP: f32 = 20.0;
/// Expected value of a card not yet known, for a completion the model does not plan.
const MEAN_VALUE: f32 = 5.0;
/// Weight of a line of three adjacent stones (S7) that a player can still complete, and
/// the extra for each stone of it the player already owns.
const LINE_WEIGHT: f32 = 0.25;
const LINE_OWNED: f32 = 0.5;

/// The heuristic player's action for `seat`, `None` if it may not move now.
pub(crate) fn choose(state: &State, seat: usize, rng: &mut Rng) -> Option<Action> {
    if state.phase() == Phase::Over || usize::from(state.current) != seat {
        return None;
    }
    let stones = state.stones();
    let hand = state.hand_set(seat);
    if state.phase() == Phase::Claim {
        // S3b: every provable stone is claimed; the claim phase is only entered with one.
        return Some(
            (0..NUM_STONES)
                .find(|&s| stones[s].owner.is_none() && state.claim_check(s, seat).is_some_and(|c| c.provable))
                .map_or(END_TURN, claim_action),
        );
    }
    let open: Vec<usize> = (0..NUM_STONES)
        .filter(|&s| stones[s].owner.is_none() && !stones[s].sides[seat].is_complete())
        .collect();
    if hand.is_empty() || open.is_empty() {
        return Some(PASS); // S3a: no card can be played
    }
    let model = Model::new(state, seat);
    let importance = importance(state, seat);

    // Each play is scored by the position after it: the weighted win chances of all
    // stones with the card gone from the hand, and at its stone with the card added.
    let mut best: Vec<Action> = Vec::new();
    let mut best_score = f32::NEG_INFINITY;
    let mut values = [0.0f32; NUM_STONES];
    for card in hand.iter() {
        let rest = hand.minus(CardSet(card.bit()));
        let mut total = 0.0;
        for s in 0..NUM_STONES {
            if stones[s].owner.is_none() {
                values[s] = importance[s] * model.win_chance(state, s, None, rest);
                total += values[s];
            }
        }
        for &s in &open {
            let after = importance[s] * model.win_chance(state, s, Some(card), rest);
            let score = total - values[s] + after;
            if score > best_score + 1e-6 {
                best_score = score;
                best.clear();
            }
            if score > best_score - 1e-6 {
                best.push(play_action(card, s));
            }
        }
    }
    Some(best[rng.random_range(0..best.len())])
}

/// What the seat knows about who may still get which card.
struct Model {
    seat: usize,
    /// All 54 cards less the table and the seat's hand: the deck and the other hand.
    unseen: CardSet,
    /// Chance that a given unseen card reaches the seat / the other player in time.
    mine: f32,
    theirs: f32,
}

impl Model {
    fn new(state: &State, seat: usize) -> Model {
        let unseen = CardSet::ALL.minus(state.table()).minus(state.hand_set(seat));
        let pile = state.pile().len() as f32;
        let other_hand = state.hand_set(1 - seat).len() as f32; // its size is public
        let n = unseen.len().max(1) as f32;
        // The seat draws after this turn, then the players alternate (S3c).
        let my_draws = (pile / 2.0).ceil();
        let their_draws = (pile / 2.0).floor();
        Model {
            seat,
            unseen,
            mine: (my_draws / n).min(1.0),
            theirs: ((other_hand + their_draws) / n).min(1.0),
        }
    }

    /// The seat's chance to win `stone`, with `played` added to its side and `hand` left.
    fn win_chance(&self, state: &State, stone: usize, played: Option<Card>, hand: CardSet) -> f32 {
        let s = &state.stones()[stone];
        let mut mine = [Card::from_index(0); 3];
        let mut n = 0;
        for &c in s.sides[self.seat].cards().iter().chain(played.iter()) {
            mine[n] = c;
            n += 1;
        }
        let mine = &mine[..n];
        let theirs = s.sides[1 - self.seat].cards();
        // The seat completed first if its side was complete before or it completes it now
        // while the other side is not complete (S4's tie-break).
        let mine_first = s.completed_first == Some(self.seat as u8)
            || (n == 3 && theirs.len() < 3 && s.completed_first.is_none());

        if n == 3 {
            let f = formation([mine[0], mine[1], mine[2]]);
            // Sure to win: the claim proof with the seat's own hand taken out of reach.
            match best_reachable(theirs, self.unseen) {
                None => return 1.0,
                Some(b) if theirs.len() < 3 && b.formation <= f => return 1.0,
                Some(b) if theirs.len() == 3 => {
                    return if f > b.formation || (f == b.formation && mine_first) {
                        1.0
                    } else {
                        0.0
                    };
                }
                _ => {}
            }
        }
        if theirs.len() == 3 {
            // Lost for sure if even the best reachable formation (S6) cannot beat theirs;
            // a tie goes to them, who completed first.
            let f = formation([theirs[0], theirs[1], theirs[2]]);
            if best_reachable(mine, hand.union(self.unseen)).is_none_or(|b| b.formation <= f) {
                return 0.0;
            }
        }
        let my_strength = expected_strength(mine, hand, self.unseen, HAND_CARD, self.mine);
        let their_strength = expected_strength(theirs, CardSet::EMPTY, self.unseen, 0.0, self.theirs);
        1.0 / (1.0 + (-(my_strength - their_strength) / TEMPERATURE).exp())
    }
}

fn strength(f: Formation) -> f32 {
    let kind = match f.kind {
        FormationKind::Sum => 0.0,
        FormationKind::Run => 1.0,
        FormationKind::Color => 2.0,
        FormationKind::ThreeOfAKind => 3.0,
        FormationKind::ColorRun => 4.0,
    };
    kind * KIND_STEP + f32::from(f.sum)
}

/// The expected strength of a side that completes from `hand` (each card with chance
/// `p_hand`) and from `unseen` (each with chance `p_unseen`), taking the best it gets.
fn expected_strength(side: &[Card], hand: CardSet, unseen: CardSet, p_hand: f32, p_unseen: f32) -> f32 {
    let side_sum: f32 = side.iter().map(|c| f32::from(c.value())).sum();
    let need = 3 - side.len();
    // What the side is worth if none of the planned completions comes: the cards it
    // gets by chance, as a plain sum.
    let fallback = side_sum + MEAN_VALUE * need as f32;
    match *side {
        [a, b, c] => strength(formation([a, b, c])),
        [a, b] => {
            // One card to come: every candidate, strongest first, each with its chance.
            let mut options = [(0.0f32, 0.0f32); 54];
            let mut k = 0;
            for (set, p) in [(hand, p_hand), (unseen, p_unseen)] {
                if p <= 0.0 {
                    continue;
                }
                for x in set.iter() {
                    options[k] = (strength(formation([a, b, x])), p);
                    k += 1;
                }
            }
            let options = &mut options[..k];
            options.sort_unstable_by(|x, y| y.0.total_cmp(&x.0));
            let mut missed = 1.0;
            let mut expected = 0.0;
            for &(s, p) in options.iter() {
                expected += missed * p * s;
                missed *= 1.0 - p;
            }
            expected + missed * fallback
        }
        _ => {
            // Two or three cards to come: the best plan over hand and unseen cards, the
            // best plan from the hand alone, else chance.
            let mut expected = 0.0;
            let mut missed = 1.0;
            let pool = if p_unseen > 0.0 { hand.union(unseen) } else { hand };
            if let Some(r) = best_reachable(side, pool) {
                let p: f32 = r.cards[side.len()..]
                    .iter()
                    .map(|&c| if hand.contains(c) { p_hand } else { p_unseen })
                    .product();
                expected += p * strength(r.formation);
                missed *= 1.0 - p;
            }
            if p_hand > 0.0
                && let Some(r) = best_reachable(side, hand)
            {
                let p = p_hand.powi(need as i32);
                expected += missed * p * strength(r.formation);
                missed *= 1.0 - p;
            }
            expected + missed * fallback
        }
    }
}

/// How much each stone matters for winning the game (S7: three adjacent stones or five):
/// one, plus for each line of three adjacent stones through it that a player can still
/// complete (none of its stones owned by the other), more the more of it the player owns.
fn importance(state: &State, seat: usize) -> [f32; NUM_STONES] {
    let stones = state.stones();
    let mut weight = [1.0f32; NUM_STONES];
    for start in 0..NUM_STONES - 2 {
        for player in [seat, 1 - seat] {
            let line = &stones[start..start + 3];
            if line.iter().any(|s| s.owner == Some(1 - player as u8)) {
                continue;
            }
            let owned = line.iter().filter(|s| s.owner == Some(player as u8)).count();
            for w in &mut weight[start..start + 3] {
                *w += LINE_WEIGHT + LINE_OWNED * owned as f32;
            }
        }
    }
    weight
}
