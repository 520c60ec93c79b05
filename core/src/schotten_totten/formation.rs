//! Formations (S4), the claim proof (S5) and the best reachable formation (S6).
//!
//! The proof does not enumerate completions. For each formation kind, strongest
//! first, it asks with a few mask operations whether the other side can still
//! complete into that kind from the available cards, and if so with which highest
//! sum. The first kind that is reachable is the best one, since every completion
//! matching a kind's pattern has exactly that kind once all stronger kinds are
//! unreachable (a colour that is not a colour run is a plain colour, and so on).
//! `tests/claim_oracle.rs` compares this with brute-force enumeration.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::cards::{Card, CardSet, NUM_COLORS, NUM_VALUES};

/// The five formation kinds, weakest first, so that the derived order is S4's.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "SchottenTottenFormationKind")]
pub enum FormationKind {
    /// *Summe*: any three cards, compared by their sum.
    Sum,
    /// *Strasse*: three consecutive values in mixed colours.
    Run,
    /// *Farbe*: three cards of one colour.
    Color,
    /// *Dreierpasch*: three cards of one value.
    ThreeOfAKind,
    /// *Farbenfolge*: three consecutive values in one colour.
    ColorRun,
}

impl FormationKind {
    pub const fn name(self) -> &'static str {
        match self {
            FormationKind::Sum => "sum",
            FormationKind::Run => "run",
            FormationKind::Color => "color",
            FormationKind::ThreeOfAKind => "three_of_a_kind",
            FormationKind::ColorRun => "color_run",
        }
    }
}

impl FormationKind {
    /// The seed's German name (Farbenfolge, Dreierpasch, Farbe, Strasse, Summe).
    pub const fn name_de(self) -> &'static str {
        match self {
            FormationKind::Sum => "Summe",
            FormationKind::Run => "Strasse",
            FormationKind::Color => "Farbe",
            FormationKind::ThreeOfAKind => "Dreierpasch",
            FormationKind::ColorRun => "Farbenfolge",
        }
    }
}

impl fmt::Display for FormationKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A complete formation: kind first, then the sum (S4). The derived order is the
/// comparison of S4 without the completed-first tie-break.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize)]
pub struct Formation {
    pub kind: FormationKind,
    pub sum: u8,
}

impl fmt::Display for Formation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (sum {})", self.kind, self.sum)
    }
}

/// The formation of three cards (S4). Values do not wrap: 9-1-2 is no run.
pub fn formation(cards: [Card; 3]) -> Formation {
    let mut v = cards.map(Card::value);
    v.sort_unstable();
    let same_color = cards[0].color() == cards[1].color() && cards[1].color() == cards[2].color();
    let consecutive = v[0] + 1 == v[1] && v[1] + 1 == v[2];
    let kind = match (same_color, consecutive) {
        (true, true) => FormationKind::ColorRun,
        _ if v[0] == v[2] => FormationKind::ThreeOfAKind,
        (true, false) => FormationKind::Color,
        (false, true) => FormationKind::Run,
        (false, false) => FormationKind::Sum,
    };
    Formation {
        kind,
        sum: v.iter().sum(),
    }
}

/// A best completion of one side: its three cards (the side's own first) and formation.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Reachable {
    pub cards: [Card; 3],
    pub formation: Formation,
}

const COLOR_MASK: [u64; NUM_COLORS as usize] = {
    let mut m = [0; NUM_COLORS as usize];
    let mut c = 0;
    while c < NUM_COLORS as usize {
        m[c] = 0x1FF << (c * NUM_VALUES as usize);
        c += 1;
    }
    m
};

/// `VALUE_MASK[v]`: the six cards of value `v` (index 0 unused).
const VALUE_MASK: [u64; 10] = {
    let mut m = [0; 10];
    let mut v = 1;
    while v <= 9 {
        let mut c = 0;
        while c < NUM_COLORS as usize {
            m[v] |= 1 << (c * NUM_VALUES as usize + v - 1);
            c += 1;
        }
        v += 1;
    }
    m
};

/// The cards a side already has, summarised for the per-kind searches.
struct Partial {
    mask: u64,
    len: usize,
    sum: u8,
    /// The one colour of all cards, if they share one (`None` if empty or mixed).
    color: Option<u8>,
    mixed_colors: bool,
    min: u8,
    max: u8,
    /// Some value appears twice.
    repeated_value: bool,
}

impl Partial {
    fn new(side: &[Card]) -> Partial {
        let mut p = Partial {
            mask: 0,
            len: side.len(),
            sum: 0,
            color: side.first().map(|c| c.color()),
            mixed_colors: false,
            min: 9,
            max: 1,
            repeated_value: false,
        };
        let mut values = 0u16;
        for &card in side {
            p.mask |= card.bit();
            p.sum += card.value();
            p.mixed_colors |= Some(card.color()) != p.color;
            p.min = p.min.min(card.value());
            p.max = p.max.max(card.value());
            p.repeated_value |= values & (1 << card.value()) != 0;
            values |= 1 << card.value();
        }
        if p.mixed_colors {
            p.color = None;
        }
        p
    }

    fn need(&self) -> u32 {
        3 - self.len as u32
    }

    /// Start values `v` of windows `v, v+1, v+2` that hold all of the side's values.
    fn run_starts(&self) -> std::ops::RangeInclusive<u8> {
        if self.len == 0 {
            1..=7
        } else {
            self.max.saturating_sub(2).max(1)..=self.min.min(7)
        }
    }

    fn colors(&self) -> std::ops::Range<u8> {
        match self.color {
            Some(c) => c..c + 1,
            None if self.mixed_colors => 0..0,
            None => 0..NUM_COLORS,
        }
    }
}

/// The side's cards followed by the cards in `added`, as a [`Reachable`].
fn complete(side: &[Card], added: u64, kind: FormationKind) -> Reachable {
    let mut cards = [Card::from_index(0); 3];
    cards[..side.len()].copy_from_slice(side);
    for (slot, card) in cards[side.len()..].iter_mut().zip(CardSet(added).iter()) {
        *slot = card;
    }
    let sum = cards.iter().map(|c| c.value()).sum();
    Reachable {
        cards,
        formation: Formation { kind, sum },
    }
}

/// The lowest `n` cards of `mask` (in card order).
fn lowest(mut mask: u64, n: u32) -> u64 {
    let mut out = 0;
    for _ in 0..n {
        let bit = mask & mask.wrapping_neg();
        out |= bit;
        mask ^= bit;
    }
    out
}

/// The `n` cards of highest value in `mask` (ties: lower colour index first).
fn highest_values(mask: u64, mut n: u32) -> u64 {
    let mut out = 0;
    for v in (1..=9).rev() {
        if n == 0 {
            break;
        }
        let take = lowest(mask & VALUE_MASK[v], n);
        n -= take.count_ones();
        out |= take;
    }
    out
}

fn color_run(side: &[Card], p: &Partial, avail: u64) -> Option<Reachable> {
    if p.repeated_value {
        return None;
    }
    // All colour runs at once: bit `c*9 + v-1` is set where v, v+1 and v+2 of colour c
    // are all at hand (the side's own or available), in the colours the side allows
    // (only starts v <= 7 are read, so no run wraps into the next colour).
    let at_hand = avail | p.mask;
    let colors = p.colors().fold(0, |m, c| m | COLOR_MASK[c as usize]);
    let starts = at_hand & (at_hand >> 1) & (at_hand >> 2) & colors;
    // Highest run first, then the lowest colour.
    for v in p.run_starts().rev() {
        for start in CardSet(starts & VALUE_MASK[v as usize]).iter() {
            let run = 0b111u64 << start.index();
            if p.mask & !run == 0 {
                return Some(complete(side, run & !p.mask, FormationKind::ColorRun));
            }
        }
    }
    None
}

fn three_of_a_kind(side: &[Card], p: &Partial, avail: u64) -> Option<Reachable> {
    if p.len > 0 && p.min != p.max {
        return None;
    }
    let values = if p.len > 0 { p.min..=p.min } else { 1..=9 };
    for v in values.rev() {
        let same = avail & VALUE_MASK[v as usize];
        if same.count_ones() >= p.need() {
            return Some(complete(
                side,
                lowest(same, p.need()),
                FormationKind::ThreeOfAKind,
            ));
        }
    }
    None
}

fn color(side: &[Card], p: &Partial, avail: u64) -> Option<Reachable> {
    let mut best: Option<Reachable> = None;
    for c in p.colors() {
        let same = avail & COLOR_MASK[c as usize];
        if same.count_ones() >= p.need() {
            let r = complete(side, highest_values(same, p.need()), FormationKind::Color);
            if best.is_none_or(|b| r.formation.sum > b.formation.sum) {
                best = Some(r);
            }
        }
    }
    best
}

fn run(side: &[Card], p: &Partial, avail: u64) -> Option<Reachable> {
    if p.repeated_value {
        return None;
    }
    // The values at hand (the side's own or available) in any colour, bit v-1, and the
    // windows v, v+1, v+2 they fill.
    let mut at_hand = avail | p.mask;
    at_hand |= at_hand >> (3 * NUM_VALUES);
    at_hand |= at_hand >> NUM_VALUES;
    at_hand |= at_hand >> (2 * NUM_VALUES);
    let values = at_hand & 0x1FF;
    let starts = values & (values >> 1) & (values >> 2);
    for v in p.run_starts().rev() {
        if starts & (1 << (v - 1)) == 0 {
            continue;
        }
        let mut added = 0;
        for w in v..v + 3 {
            if p.mask & VALUE_MASK[w as usize] == 0 {
                added |= lowest(avail & VALUE_MASK[w as usize], 1);
            }
        }
        return Some(complete(side, added, FormationKind::Run));
    }
    None
}

fn sum(side: &[Card], p: &Partial, avail: u64) -> Option<Reachable> {
    (avail.count_ones() >= p.need())
        .then(|| complete(side, highest_values(avail, p.need()), FormationKind::Sum))
}

/// S6: the strongest formation `side` (0–3 cards) can still reach with cards from
/// `available`; `None` if too few cards are available to ever complete it.
pub fn best_reachable(side: &[Card], available: CardSet) -> Option<Reachable> {
    assert!(side.len() <= 3, "a side holds at most three cards");
    if let [a, b, c] = *side {
        return Some(Reachable {
            cards: [a, b, c],
            formation: formation([a, b, c]),
        });
    }
    let p = Partial::new(side);
    let avail = available.0 & !p.mask;
    if avail.count_ones() < p.need() {
        return None;
    }
    color_run(side, &p, avail)
        .or_else(|| three_of_a_kind(side, &p, avail))
        .or_else(|| color(side, &p, avail))
        .or_else(|| run(side, &p, avail))
        .or_else(|| sum(side, &p, avail))
}

/// The outcome of a claim proof (S5).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ClaimCheck {
    pub provable: bool,
    pub mine: Formation,
    /// The other side's strongest reachable completion (S6), `None` if it can never complete.
    pub best: Option<Reachable>,
}

/// S5: is a claim with `mine` against `theirs` provable, given the available cards?
///
/// `available` is every card not lying at any stone (both hands count as available,
/// the claimant's own included). A complete other side is compared directly (S4),
/// the tie going to whoever completed first; an incomplete one loses every tie, since
/// it would complete later.
pub fn check_claim(
    mine: [Card; 3],
    theirs: &[Card],
    available: CardSet,
    mine_completed_first: bool,
) -> ClaimCheck {
    let mine_formation = formation(mine);
    let best = best_reachable(theirs, available);
    let provable = match best {
        None => true,
        Some(b) if theirs.len() == 3 => {
            mine_formation > b.formation || (mine_formation == b.formation && mine_completed_first)
        }
        Some(b) => b.formation <= mine_formation,
    };
    ClaimCheck {
        provable,
        mine: mine_formation,
        best,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The per-kind searches as they were before the bit-parallel ones (issue 11: a
    /// speed-up only; the heuristic's decisions depend on the very cards chosen).
    mod reference {
        use super::super::*;

        pub fn color_run(side: &[Card], p: &Partial, avail: u64) -> Option<Reachable> {
            if p.repeated_value {
                return None;
            }
            for v in p.run_starts().rev() {
                for c in p.colors() {
                    let run = 0b111u64 << (c * NUM_VALUES + v - 1);
                    let missing = run & !p.mask;
                    if p.mask & !run == 0 && missing & !avail == 0 {
                        return Some(complete(side, missing, FormationKind::ColorRun));
                    }
                }
            }
            None
        }

        pub fn run(side: &[Card], p: &Partial, avail: u64) -> Option<Reachable> {
            if p.repeated_value {
                return None;
            }
            'window: for v in p.run_starts().rev() {
                let mut added = 0;
                for w in v..v + 3 {
                    if p.mask & VALUE_MASK[w as usize] != 0 {
                        continue;
                    }
                    let options = avail & VALUE_MASK[w as usize];
                    if options == 0 {
                        continue 'window;
                    }
                    added |= lowest(options, 1);
                }
                return Some(complete(side, added, FormationKind::Run));
            }
            None
        }
    }

    fn cards(s: &str) -> Vec<Card> {
        s.split_whitespace().map(|c| c.parse().unwrap()).collect()
    }
    fn three(s: &str) -> [Card; 3] {
        cards(s).try_into().unwrap()
    }
    fn f(kind: FormationKind, sum: u8) -> Formation {
        Formation { kind, sum }
    }

    #[test]
    fn formations_rank_as_s4_says() {
        use FormationKind::*;
        assert_eq!(formation(three("B5 B6 B7")), f(ColorRun, 18));
        assert_eq!(formation(three("B7 B5 B6")), f(ColorRun, 18));
        assert_eq!(formation(three("R9 O9 Y9")), f(ThreeOfAKind, 27));
        assert_eq!(formation(three("G1 G5 G9")), f(Color, 15));
        assert_eq!(formation(three("R4 G5 B6")), f(Run, 15));
        assert_eq!(formation(three("R9 G1 B2")), f(Sum, 12), "9-1-2 is no run");
        assert_eq!(
            formation(three("R9 R1 R2")),
            f(Color, 12),
            "no wrap for colour runs"
        );
        assert!(formation(three("P1 P2 P3")) > formation(three("R9 O9 Y9")));
    }

    #[test]
    fn seven_eight_nine_of_a_colour_beats_an_empty_side() {
        let mine = three("R7 R8 R9");
        let avail = CardSet::ALL.minus(mine.iter().copied().collect());
        let check = check_claim(mine, &[], avail, true);
        assert!(check.provable);
        // The best the other side can do is another 7-8-9 colour run: a tie, which the
        // claimant wins by having completed first.
        assert_eq!(check.best.unwrap().formation, f(FormationKind::ColorRun, 24));
    }

    #[test]
    fn one_available_card_decides() {
        // Other side holds B4 B5: B6 (or B3) would make a colour run beating our three 8s.
        let mine = three("R8 O8 Y8");
        let theirs = cards("B4 B5");
        let table: CardSet = mine.iter().chain(&theirs).copied().collect();
        let mut avail = CardSet::ALL.minus(table);
        assert!(!check_claim(mine, &theirs, avail, true).provable);
        avail.remove("B6".parse().unwrap());
        assert!(
            !check_claim(mine, &theirs, avail, true).provable,
            "B3 still available"
        );
        avail.remove("B3".parse().unwrap());
        let check = check_claim(mine, &theirs, avail, true);
        // Now the best is a blue colour: B4 B5 B9 (sum 18) is below three 8s.
        assert!(check.provable);
        assert_eq!(check.best.unwrap().formation, f(FormationKind::Color, 18));
    }

    #[test]
    fn complete_sides_compare_with_completed_first_tie() {
        let mine = three("R1 O2 Y3");
        let theirs = cards("G1 B2 P3");
        assert!(check_claim(mine, &theirs, CardSet::EMPTY, true).provable);
        assert!(!check_claim(mine, &theirs, CardSet::EMPTY, false).provable);
    }

    #[test]
    fn too_few_available_cards_can_never_complete() {
        let mine = three("R1 O1 Y2");
        let check = check_claim(mine, &cards("B9"), CardSet(lowest(CardSet::ALL.0, 1)), true);
        assert!(check.provable);
        assert_eq!(check.best, None);
    }

    #[test]
    fn the_bit_parallel_runs_choose_the_same_cards_as_the_window_by_window_search() {
        // Over random sides (0-2 cards) and available sets of every size: the same
        // formation and the very same cards, which the heuristic's decisions depend on.
        use rand::RngExt;
        let mut rng = crate::rng::seeded(6, crate::rng::STREAM_POLICY);
        for _ in 0..50_000 {
            let mut deck: Vec<Card> = Card::all().collect();
            for i in (1..deck.len()).rev() {
                deck.swap(i, rng.random_range(0..=i));
            }
            // Sides of one colour and close values are where runs matter: half the time
            // the side's cards are drawn from one colour.
            let n = rng.random_range(0..3);
            let side: Vec<Card> = if rng.random_bool(0.5) {
                deck.iter()
                    .copied()
                    .filter(|c| c.color() == deck[0].color())
                    .take(n)
                    .collect()
            } else {
                deck[..n].to_vec()
            };
            let avail: CardSet = deck
                .iter()
                .copied()
                .filter(|c| !side.contains(c))
                .take(rng.random_range(0..52))
                .collect();
            let p = Partial::new(&side);
            let a = avail.0 & !p.mask;
            assert_eq!(
                color_run(&side, &p, a),
                reference::color_run(&side, &p, a),
                "{side:?} {avail:?}"
            );
            assert_eq!(
                run(&side, &p, a),
                reference::run(&side, &p, a),
                "{side:?} {avail:?}"
            );
        }
    }
}
