//! The `heuristic` bot of Schotten Totten: a rules-based player that reads only what its
//! seat may see (its own hand, the table, the pile's size and the other hand's size).
//!
//! How a good human plays, made into numbers:
//! - **Claim whenever provable** (S3b, S5). A claim costs nothing and cannot be undone
//!   by the other side, so every provable stone is claimed at once.
//! - **Build towards the strongest formation each stone can still reach.** For every
//!   open stone the bot estimates its chance `w` of winning it, from the expected
//!   strength of its own side (completions from its hand, which are likely, and from
//!   the unseen cards, which it may still draw) against the other side's (completions
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
//! the table and the bot's hand. Cards in hand count with probability
//! [`Params::hand_card`] (a hand card may be needed elsewhere); an unseen card reaches a
//! player with a probability from the draws left to it.

use std::cell::Cell;

use rand::RngExt;

use super::State;
use super::cards::{Card, CardSet, NUM_CARDS};
use super::codec::{END_TURN, PASS, claim_action, play_action};
use super::formation::{Formation, FormationKind, best_reachable, formation};
use super::rules::NUM_STONES;
use super::state::Phase;
use crate::bots::Heuristic;
use crate::game::Action;
use crate::rng::Rng;

/// The player's weights. One set is used; it is a value so that variants can be played
/// against each other when tuning.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Params {
    /// Probability that a card in the bot's hand ends up where the plan wants it (it may
    /// be needed elsewhere).
    pub hand_card: f32,
    /// Scale of the logistic that turns a strength difference into a win chance: a
    /// strength point is one point of sum, a formation kind is [`KIND_STEP`] points.
    pub temperature: f32,
    /// Expected value of a card not yet known, for a completion the model does not plan.
    pub mean_value: f32,
    /// Weight of a line of three adjacent stones (S7) that a player can still complete,
    /// and the extra for each stone of it the player already owns.
    pub line_weight: f32,
    pub line_owned: f32,
    /// Scales the chance that an unseen card reaches a player (the pile may not last, the
    /// stone may be decided first).
    pub draw_factor: f32,
}

impl Params {
    pub const DEFAULT: Params = Params {
        hand_card: 0.65,
        temperature: 20.0,
        mean_value: 5.0,
        line_weight: 0.25,
        line_owned: 0.5,
        draw_factor: 1.8,
    };
}

/// Strength between neighbouring formation kinds (S4: a kind beats every weaker one, and
/// sums range 6-26, so a step near the widest sum gap keeps the kinds apart).
const KIND_STEP: usize = 20;

/// The heuristic player's action for `seat`, `None` if it may not move now.
pub(crate) fn choose(state: &State, seat: usize, rng: &mut Rng) -> Option<Action> {
    choose_with(state, seat, rng, &Params::DEFAULT)
}

/// [`choose`] with the given weights.
pub(crate) fn choose_with(state: &State, seat: usize, rng: &mut Rng, params: &Params) -> Option<Action> {
    if state.phase() == Phase::Over || usize::from(state.current) != seat {
        return None;
    }
    let stones = state.stones();
    let hand = state.hand_set(seat);
    if state.phase() == Phase::Claim {
        // S3b: every provable stone is claimed; the claim phase is only entered with one.
        return Some(
            (0..NUM_STONES)
                .find(|&s| {
                    stones[s].owner.is_none() && state.claim_check(s, seat).is_some_and(|c| c.provable)
                })
                .map_or(END_TURN, claim_action),
        );
    }
    let open = |s: usize| stones[s].owner.is_none() && !stones[s].sides[seat].is_complete();
    if hand.is_empty() || !(0..NUM_STONES).any(open) {
        return Some(PASS); // S3a: no card can be played
    }
    // Ties are drawn at random; a hand holds six cards in play, but hand-built positions
    // may hold more.
    let mut best = [PASS; NUM_CARDS as usize * NUM_STONES];
    let mut n_best = 0;
    let mut best_score = f32::NEG_INFINITY;
    score_plays(state, seat, params, |action, score| {
        if score > best_score + 1e-6 {
            best_score = score;
            n_best = 0;
        }
        if score > best_score - 1e-6 {
            best[n_best] = action;
            n_best += 1;
        }
    });
    Some(best[rng.random_range(0..n_best)])
}

/// Every play of `seat` (the play step, a card in hand and an open stone) with its
/// score, the one [`choose`] maximises, for search that ranks the plays
/// ([`crate::game::GameState::heuristic_scores_into`]); empty when `seat` may not play
/// a card now (the claim step, a pass, the other player's turn).
pub(crate) fn play_scores_into(state: &State, seat: usize, out: &mut Vec<(Action, f32)>) {
    out.clear();
    let stones = state.stones();
    if state.phase() != Phase::Play
        || usize::from(state.current) != seat
        || state.hand_set(seat).is_empty()
        || !(0..NUM_STONES).any(|s| stones[s].owner.is_none() && !stones[s].sides[seat].is_complete())
    {
        return;
    }
    score_plays(state, seat, &Params::DEFAULT, |action, score| {
        out.push((action, score));
    });
}

/// Calls `each` with every play of `seat` and its score: the weighted win chances of all
/// stones after it. The play step, with a card in hand and an open stone.
fn score_plays(state: &State, seat: usize, params: &Params, mut each: impl FnMut(Action, f32)) {
    let stones = state.stones();
    let hand = state.hand_set(seat);
    let open = |s: usize| stones[s].owner.is_none() && !stones[s].sides[seat].is_complete();
    let model = Model::new(state, seat, params);
    let importance = importance(state, seat, params);

    // Each play is scored by the position after it: the weighted win chances of all
    // stones with the card gone from the hand, and at its stone with the card added.
    // A stone's value with the whole hand is computed once, with the hand cards it
    // depends on; it holds for every hand less a card it does not depend on.
    let mut base = [0.0f32; NUM_STONES];
    let mut depends = [CardSet::EMPTY; NUM_STONES];
    for s in 0..NUM_STONES {
        if stones[s].owner.is_none() {
            let (w, used) = model.win_chance(state, s, None, hand);
            base[s] = importance[s] * w;
            depends[s] = used;
        }
    }
    let mut values = [0.0f32; NUM_STONES];
    for card in hand.iter() {
        let rest = hand.minus(CardSet(card.bit()));
        let mut total = 0.0;
        for s in 0..NUM_STONES {
            values[s] = if depends[s].contains(card) {
                importance[s] * model.win_chance(state, s, None, rest).0
            } else {
                base[s]
            };
            total += values[s];
        }
        for s in (0..NUM_STONES).filter(|&s| open(s)) {
            let after = importance[s] * model.win_chance(state, s, Some(card), rest).0;
            each(play_action(card, s), total - values[s] + after);
        }
    }
}

/// An expected strength and the cards of the hand it depends on ([`expected_strength`]).
type Strength = (f32, CardSet);

/// The chance that each of some cards reaches a side, with the chance that none of `k`
/// of them does (`1 - p` to the power `k`) at hand for every `k`.
struct Chance {
    p: f32,
    none_of: [f32; 55],
}

impl Chance {
    fn new(p: f32) -> Chance {
        let mut none_of = [1.0; 55];
        for k in 1..none_of.len() {
            none_of[k] = none_of[k - 1] * (1.0 - p);
        }
        Chance { p, none_of }
    }
}

/// What the seat knows about who may still get which card, and the other side of each
/// stone, which no play of the seat changes.
struct Model {
    seat: usize,
    temperature: f32,
    mean_value: f32,
    /// All 54 cards less the table and the seat's hand: the deck and the other hand.
    unseen: CardSet,
    /// A card of the seat's hand, an unseen card reaching the seat in time.
    hand_card: Chance,
    my_draw: Chance,
    /// Per stone: the other side's best reachable formation from the unseen cards (S6,
    /// without the seat's hand), `None` if it can never complete, and its expected strength.
    their_best: [Option<Formation>; NUM_STONES],
    their_strength: [f32; NUM_STONES],
    /// The seat's expected strength on a stone where its side is empty, and where its
    /// side is one card just played on an empty stone, with the hand it was computed for:
    /// every empty stone gives the same (only the other side differs), and
    /// [`score_plays`] asks for the same hand on each of them in turn.
    empty_side: Cell<Option<(CardSet, Strength)>>,
    lone_card: Cell<Option<(Card, CardSet, Strength)>>,
}

impl Model {
    fn new(state: &State, seat: usize, params: &Params) -> Model {
        let unseen = CardSet::ALL.minus(state.table()).minus(state.hand_set(seat));
        let pile = state.pile().len() as f32;
        let other_hand = state.hand_set(1 - seat).len() as f32; // its size is public
        let n = unseen.len().max(1) as f32;
        // The seat draws after this turn, then the players alternate (S3c); the other
        // player holds some unseen cards already.
        let my_draws = (pile / 2.0).ceil();
        let their_draws = (pile / 2.0).floor();
        let their_draw = Chance::new((params.draw_factor * (other_hand + their_draws) / n).min(1.0));
        let no_hand = Chance::new(0.0);
        let mut model = Model {
            seat,
            temperature: params.temperature,
            mean_value: params.mean_value,
            unseen,
            hand_card: Chance::new(params.hand_card),
            my_draw: Chance::new((params.draw_factor * my_draws / n).min(1.0)),
            their_best: [None; NUM_STONES],
            their_strength: [0.0; NUM_STONES],
            empty_side: Cell::new(None),
            lone_card: Cell::new(None),
        };
        for (s, stone) in state.stones().iter().enumerate() {
            if stone.owner.is_none() {
                let theirs = stone.sides[1 - seat].cards();
                model.their_best[s] = best_reachable(theirs, unseen).map(|r| r.formation);
                model.their_strength[s] = expected_strength(
                    theirs,
                    CardSet::EMPTY,
                    unseen,
                    &no_hand,
                    &their_draw,
                    params.mean_value,
                )
                .0;
            }
        }
        model
    }

    /// The seat's chance to win `stone`, with `played` added to its side and `hand` left,
    /// and the cards of `hand` the chance depends on: without any other card of it, the
    /// chance is the same.
    fn win_chance(&self, state: &State, stone: usize, played: Option<Card>, hand: CardSet) -> (f32, CardSet) {
        let s = &state.stones()[stone];
        let mut mine = [Card::from_index(0); 3];
        let mut n = 0;
        for &c in s.sides[self.seat].cards().iter().chain(played.iter()) {
            mine[n] = c;
            n += 1;
        }
        let mine = &mine[..n];
        let theirs_complete = s.sides[1 - self.seat].is_complete();
        // The seat completed first if its side was complete before or it completes it now
        // while the other side is not complete (S4's tie-break).
        let mine_first = s.completed_first == Some(self.seat as u8) || (n == 3 && !theirs_complete);

        if n == 3 {
            let f = formation([mine[0], mine[1], mine[2]]);
            // Sure to win or lose: the claim proof with the seat's own hand out of reach.
            match self.their_best[stone] {
                None => return (1.0, CardSet::EMPTY),
                Some(b) if !theirs_complete && b <= f => return (1.0, CardSet::EMPTY),
                Some(b) if theirs_complete => {
                    let won = f > b || (f == b && mine_first);
                    return (if won { 1.0 } else { 0.0 }, CardSet::EMPTY);
                }
                _ => {}
            }
        } else if theirs_complete && let Some(theirs) = self.their_best[stone] {
            // Lost for sure if even the best reachable formation (S6) cannot beat theirs
            // (a tie goes to them, who completed first); fewer cards cannot change that.
            if best_reachable(mine, hand.union(self.unseen)).is_none_or(|b| b.formation <= theirs) {
                return (0.0, CardSet::EMPTY);
            }
        }
        let (my_strength, used) = self.my_strength(mine, played, hand);
        let w = 1.0 / (1.0 + (-(my_strength - self.their_strength[stone]) / self.temperature).exp());
        (w, used)
    }

    /// [`expected_strength`] of the seat's side `mine` (ending with `played`, if any) with
    /// `hand` left, remembered for an empty side and for a lone card played on one.
    fn my_strength(&self, mine: &[Card], played: Option<Card>, hand: CardSet) -> Strength {
        let compute = || {
            expected_strength(
                mine,
                hand,
                self.unseen,
                &self.hand_card,
                &self.my_draw,
                self.mean_value,
            )
        };
        match (mine.len(), played) {
            (0, _) => match self.empty_side.get() {
                Some((h, known)) if h == hand => known,
                _ => {
                    let known = compute();
                    self.empty_side.set(Some((hand, known)));
                    known
                }
            },
            (1, Some(card)) => match self.lone_card.get() {
                Some((c, h, known)) if c == card && h == hand => known,
                _ => {
                    let known = compute();
                    self.lone_card.set(Some((card, hand, known)));
                    known
                }
            },
            _ => compute(),
        }
    }
}

/// A formation as one number: [`KIND_STEP`] per kind above `sum` (S4), plus the sum.
fn strength_index(f: Formation) -> usize {
    let kind = match f.kind {
        FormationKind::Sum => 0,
        FormationKind::Run => 1,
        FormationKind::Color => 2,
        FormationKind::ThreeOfAKind => 3,
        FormationKind::ColorRun => 4,
    };
    kind * KIND_STEP + usize::from(f.sum)
}

fn strength(f: Formation) -> f32 {
    strength_index(f) as f32
}

/// The expected strength of a side that completes from `hand` and from `unseen` (each card
/// reaching it with the given chance), taking the best it gets; and the cards of `hand`
/// the estimate depends on.
fn expected_strength(
    side: &[Card],
    hand: CardSet,
    unseen: CardSet,
    hand_card: &Chance,
    draw: &Chance,
    mean_value: f32,
) -> Strength {
    let side_sum: f32 = side.iter().map(|c| f32::from(c.value())).sum();
    let need = 3 - side.len();
    // What the side is worth if none of the planned completions comes: the cards it
    // gets by chance, as a plain sum.
    let fallback = side_sum + mean_value * need as f32;
    match *side {
        [a, b, c] => (strength(formation([a, b, c])), CardSet::EMPTY),
        [a, b] => {
            // One card to come: every candidate strength, strongest first, with the
            // cards that give it (a table per pair), counted in the hand and unseen apart.
            let mut missed = 1.0;
            let mut expected = 0.0;
            for &(s, cards) in third_card_strengths(a, b) {
                let h = (cards & hand.0).count_ones();
                let u = (cards & unseen.0).count_ones();
                if h + u == 0 {
                    continue;
                }
                let still = missed * hand_card.none_of[h as usize] * draw.none_of[u as usize];
                expected += (missed - still) * f32::from(s);
                missed = still;
            }
            (expected + missed * fallback, hand)
        }
        _ => {
            // Two or three cards to come: the best plan over hand and unseen cards, the
            // best plan from the hand alone, else chance.
            let mut expected = 0.0;
            let mut missed = 1.0;
            let mut used = CardSet::EMPTY;
            let pool = if draw.p > 0.0 { hand.union(unseen) } else { hand };
            if let Some(r) = best_reachable(side, pool) {
                let mut p = 1.0;
                for &c in &r.cards[side.len()..] {
                    if hand.contains(c) {
                        p *= hand_card.p;
                        used.insert(c);
                    } else {
                        p *= draw.p;
                    }
                }
                expected += p * strength(r.formation);
                missed *= 1.0 - p;
            }
            if hand_card.p > 0.0
                && let Some(r) = best_reachable(side, hand)
            {
                let p = hand_card.p.powi(need as i32);
                used = used.union(r.cards[side.len()..].iter().copied().collect());
                expected += missed * p * strength(r.formation);
                missed *= 1.0 - p;
            }
            (expected + missed * fallback, used)
        }
    }
}

/// Per unordered pair of cards, where its list starts in the entries; the entries:
/// (strength, set of third cards giving it), strongest first.
type ThirdCardTable = (Vec<u32>, Vec<(u8, u64)>);

/// The strengths a side of the two cards `a` and `b` can complete to, strongest first,
/// each with the set of third cards that give it (any of the 54; S4). Computed once for
/// every pair: the one-card-to-come estimate is the heuristic's and the search's inner
/// loop, and a table lookup with two popcounts per strength replaces a formation per card.
fn third_card_strengths(a: Card, b: Card) -> &'static [(u8, u64)] {
    static TABLE: std::sync::OnceLock<ThirdCardTable> = std::sync::OnceLock::new();
    let n = usize::from(NUM_CARDS);
    let (offsets, entries) = TABLE.get_or_init(|| {
        let mut offsets = Vec::with_capacity(n * n + 1);
        let mut entries = Vec::new();
        offsets.push(0);
        for pair in 0..n * n {
            let (a, b) = (pair / n, pair % n);
            // A formation does not depend on the order of its cards: one list per
            // unordered pair, the index's smaller card first.
            if a <= b {
                let mut by_strength = [0u64; 128];
                for x in Card::all() {
                    let f = formation([Card::from_index(a as u8), Card::from_index(b as u8), x]);
                    by_strength[strength_index(f)] |= x.bit();
                }
                for s in (0..by_strength.len()).rev() {
                    if by_strength[s] != 0 {
                        entries.push((s as u8, by_strength[s]));
                    }
                }
            }
            offsets.push(u32::try_from(entries.len()).expect("a small table"));
        }
        (offsets, entries)
    });
    let (lo, hi) = (a.index().min(b.index()), a.index().max(b.index()));
    let pair = usize::from(lo) * n + usize::from(hi);
    &entries[offsets[pair] as usize..offsets[pair + 1] as usize]
}

/// How much each stone matters for winning the game (S7: three adjacent stones or five):
/// one, plus for each line of three adjacent stones through it that a player can still
/// complete (none of its stones owned by the other), more the more of it the player owns.
fn importance(state: &State, seat: usize, params: &Params) -> [f32; NUM_STONES] {
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
                *w += params.line_weight + params.line_owned * owned as f32;
            }
        }
    }
    weight
}

/// Player 0's chance to win the game from `state`, for search that stops its rollouts
/// early ([`crate::game::GameState::heuristic_value_into`]); 1 or 0 once it is over.
///
/// Each open stone goes to player 0 with the mean of the two players' own estimates
/// (the win chances the heuristic plays by, each from that player's side of the table:
/// player 0's chance and one less player 1's); owned stones are decided. The stones are
/// then taken as independent, and every way the open ones can fall is scored by S7 with
/// all nine stones given out ([`allocation_value`]).
pub(crate) fn game_value(state: &State) -> f64 {
    if let Some(outcome) = state.outcome() {
        return match outcome.winner {
            Some(0) => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
    }
    let p0 = view_chances(state);
    // Stones whose owner is certain (owned, or sure to be won: a provable claim is made
    // at the owner's next claim step) count as owned when a race is timed.
    let mut sure = [0u16; 2];
    for (s, &p) in p0.iter().enumerate() {
        if p >= 1.0 {
            sure[0] |= 1 << s;
        } else if p <= 0.0 {
            sure[1] |= 1 << s;
        }
    }
    // The chance of every allocation of the stones (bit s: player 0 gets stone s),
    // built one stone at a time.
    let mut chance = [0.0f32; 1 << NUM_STONES];
    chance[0] = 1.0;
    for (s, &p) in p0.iter().enumerate() {
        let bit = 1 << s;
        for m in 0..bit {
            chance[m | bit] = chance[m] * p;
            chance[m] *= 1.0 - p;
        }
    }
    let needs = [LineNeeds::new(sure[0]), LineNeeds::new(sure[1])];
    let mut value = 0.0f32;
    for (m, &c) in chance.iter().enumerate() {
        if c > 0.0 {
            value += c * f32::from(allocation_value(m as u16, &needs));
        }
    }
    f64::from(value / 2.0).clamp(0.0, 1.0)
}

/// Every set of three adjacent stones (S7), as a bit mask.
const LINES: [u16; NUM_STONES - 2] = {
    let mut lines = [0u16; NUM_STONES - 2];
    let mut i = 0;
    while i < NUM_STONES - 2 {
        lines[i] = 0b111 << i;
        i += 1;
    }
    lines
};

/// Bit `l`: the line of three adjacent stones `LINES[l]` (S7) lies wholly in the stones,
/// for every set of stones (bit s: stone s).
static LINES_WITHIN: [u8; 1 << NUM_STONES] = {
    let mut table = [0u8; 1 << NUM_STONES];
    let mut m = 0;
    while m < table.len() {
        let mut l = 0;
        while l < LINES.len() {
            if m as u16 & LINES[l] == LINES[l] {
                table[m] |= 1 << l;
            }
            l += 1;
        }
        m += 1;
    }
    table
};

/// What one player still needs beyond the stones it is sure of, built once per estimate
/// so that the 512 allocations read a need instead of counting it.
struct LineNeeds {
    /// Per set of lines (bit l: `LINES[l]`), the fewest stones any of them still needs
    /// (`u32::MAX` for none).
    fewest: [u32; 1 << LINES.len()],
    /// The stones five still needs.
    five: u32,
}

impl LineNeeds {
    fn new(sure: u16) -> LineNeeds {
        let mut fewest = [u32::MAX; 1 << LINES.len()];
        for lines in 1..fewest.len() {
            let l = lines.trailing_zeros() as usize;
            fewest[lines] = fewest[lines & (lines - 1)].min((LINES[l] & !sure).count_ones());
        }
        LineNeeds {
            fewest,
            five: 5u32.saturating_sub(sure.count_ones()),
        }
    }
}

/// S7 on a complete allocation of the nine stones (bit s: player 0 owns stone s), given
/// the stones each player is sure of: twice player 0's result (2 a win, 0 a loss, 1
/// even). With all nine given out, one player holds five stones and the other may hold
/// three adjacent ones as well; then the one who needs fewer stones beyond those it is
/// sure of is taken to get there first, and equal needs count as even. `needs` are the
/// players' [`LineNeeds`] for the stones they are sure of.
fn allocation_value(mine: u16, needs: &[LineNeeds; 2]) -> u8 {
    const ALL: u16 = (1 << NUM_STONES) - 1;
    let need = |owned: u16, player: usize| -> u32 {
        let line = needs[player].fewest[usize::from(LINES_WITHIN[usize::from(owned)])];
        if owned.count_ones() >= 5 {
            line.min(needs[player].five)
        } else {
            line
        }
    };
    let (n0, n1) = (need(mine, 0), need(ALL & !mine, 1));
    match n0.cmp(&n1) {
        std::cmp::Ordering::Less => 2,
        std::cmp::Ordering::Greater => 0,
        std::cmp::Ordering::Equal => 1,
    }
}

/// Per stone, player 0's chance to win it: the mean of both players' own estimates.
fn view_chances(state: &State) -> [f32; NUM_STONES] {
    let params = &Params::DEFAULT;
    let stones = state.stones();
    let models = [Model::new(state, 0, params), Model::new(state, 1, params)];
    let hands = [state.hand_set(0), state.hand_set(1)];
    let mut p0 = [0.0f32; NUM_STONES];
    for (s, stone) in stones.iter().enumerate() {
        p0[s] = match stone.owner {
            Some(0) => 1.0,
            Some(_) => 0.0,
            None => {
                let w0 = models[0].win_chance(state, s, None, hands[0]).0;
                let w1 = models[1].win_chance(state, s, None, hands[1]).0;
                0.5 * (w0 + 1.0 - w1)
            }
        };
    }
    p0
}

impl Heuristic for State {
    fn heuristic_action(&self, seat: usize, rng: &mut Rng) -> Option<Action> {
        choose(self, seat, rng)
    }
    /// The heuristic's score of every card play (the claim step and a pass rank none).
    fn heuristic_scores_into(&self, seat: usize, out: &mut Vec<(Action, f32)>) {
        play_scores_into(self, seat, out);
    }
    fn heuristic_value_into(&self, out: &mut Vec<f64>) -> bool {
        let value = game_value(self);
        out.clear();
        out.extend([value, 1.0 - value]);
        true
    }
    /// S3b, S5: a provable claim can only help. The stone is the claimant's for good,
    /// the other player can never claim it, it may end the game at once (S7), and the
    /// settlement would give it to the claimant anyway (S9 step 1); ending the turn
    /// instead only gives up that chance.
    fn dominant_action(&self) -> Option<Action> {
        self.provable_claim()
    }
}

#[cfg(test)]
mod tests {
    use rand::RngExt;

    use super::*;

    /// The one-card-to-come estimate as it was before the table: a formation per
    /// candidate card, counted per strength and read from the strongest down.
    fn one_to_come_by_formation(
        a: Card,
        b: Card,
        hand: CardSet,
        unseen: CardSet,
        hand_card: &Chance,
        draw: &Chance,
    ) -> f32 {
        let mut counts = [[0u8; 2]; 128];
        let mut present = 0u128;
        for (k, set) in [hand, unseen].into_iter().enumerate() {
            for x in set.iter() {
                let s = strength_index(formation([a, b, x]));
                counts[s][k] += 1;
                present |= 1 << s;
            }
        }
        let mut missed = 1.0;
        let mut expected = 0.0;
        while present != 0 {
            let s = 127 - present.leading_zeros() as usize;
            present &= !(1 << s);
            let [h, u] = counts[s];
            let still = missed * hand_card.none_of[usize::from(h)] * draw.none_of[usize::from(u)];
            expected += (missed - still) * s as f32;
            missed = still;
        }
        expected + missed * (f32::from(a.value()) + f32::from(b.value()) + 5.0)
    }

    #[test]
    fn the_third_card_table_gives_the_same_estimate_bit_for_bit() {
        // The table is a speed-up only (issue 11): the heuristic's decisions must not move.
        let mut rng = crate::rng::seeded(11, crate::rng::STREAM_POLICY);
        let (hand_card, draw) = (Chance::new(0.65), Chance::new(0.3));
        for _ in 0..2000 {
            let mut deck: Vec<Card> = Card::all().collect();
            for i in (1..deck.len()).rev() {
                deck.swap(i, rng.random_range(0..=i));
            }
            let (a, b) = (deck[0], deck[1]);
            let hand: CardSet = deck[2..8].iter().copied().collect();
            let unseen: CardSet = deck[8..8 + rng.random_range(0..40)].iter().copied().collect();
            let (got, used) = expected_strength(&[a, b], hand, unseen, &hand_card, &draw, 5.0);
            let want = one_to_come_by_formation(a, b, hand, unseen, &hand_card, &draw);
            assert_eq!(got.to_bits(), want.to_bits(), "{a} {b} {hand:?} {unseen:?}");
            assert_eq!(used, hand);
        }
    }

    /// S7's need counted line by line, as before [`LineNeeds`]: the reference.
    fn allocation_value_by_lines(mine: u16, sure: [u16; 2]) -> u8 {
        const ALL: u16 = (1 << NUM_STONES) - 1;
        let need = |owned: u16, sure: u16| -> u32 {
            let line = LINES
                .iter()
                .filter(|&&l| owned & l == l)
                .map(|&l| (l & !sure).count_ones())
                .min()
                .unwrap_or(u32::MAX);
            if owned.count_ones() >= 5 {
                line.min(5u32.saturating_sub(sure.count_ones()))
            } else {
                line
            }
        };
        let (n0, n1) = (need(mine, sure[0]), need(ALL & !mine, sure[1]));
        match n0.cmp(&n1) {
            std::cmp::Ordering::Less => 2,
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Equal => 1,
        }
    }

    #[test]
    fn the_needs_read_from_tables_are_the_needs_counted_line_by_line() {
        // A speed-up only (issue 11): every allocation against every pair of sure sets
        // that can occur (disjoint), sampled.
        let mut rng = crate::rng::seeded(12, crate::rng::STREAM_POLICY);
        for _ in 0..300 {
            let sure0: u16 = rng.random_range(0..512);
            let sure1: u16 = rng.random_range(0..512) & !sure0;
            let sure = [sure0, sure1];
            let needs = [LineNeeds::new(sure0), LineNeeds::new(sure1)];
            for m in 0..512u16 {
                assert_eq!(
                    allocation_value(m, &needs),
                    allocation_value_by_lines(m, sure),
                    "{m:b} {sure:?}"
                );
            }
        }
    }
}
