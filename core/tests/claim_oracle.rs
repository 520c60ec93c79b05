//! The claim proof (S5) and the best reachable formation (S6) against brute force.
//!
//! The oracle enumerates every completion of the other side from the available
//! cards. Positions are random, with a share pushed to the decision boundary: strong
//! own formations, nearly exhausted colours and values, half-built colour runs on the
//! other side, complete other sides with completed-first ties.

use proptest::prelude::*;
use spielwerk_core::schotten_totten::{Card, CardSet, Formation, check_claim, formation};

#[derive(Debug, Clone)]
struct Position {
    mine: [Card; 3],
    theirs: Vec<Card>,
    available: CardSet,
    mine_completed_first: bool,
}

/// The strongest formation any completion of `theirs` from `available` reaches.
fn brute_force_best(theirs: &[Card], available: CardSet) -> Option<Formation> {
    let avail: Vec<Card> = available.iter().collect();
    let mut best: Option<Formation> = None;
    let mut consider = |extra: &[Card]| {
        let mut cards = theirs.to_vec();
        cards.extend_from_slice(extra);
        let f = formation(cards.try_into().unwrap());
        if best.is_none_or(|b| f > b) {
            best = Some(f);
        }
    };
    match 3 - theirs.len() {
        0 => consider(&[]),
        1 => avail.iter().for_each(|&a| consider(&[a])),
        2 => {
            for (i, &a) in avail.iter().enumerate() {
                for &b in &avail[i + 1..] {
                    consider(&[a, b]);
                }
            }
        }
        _ => {
            for (i, &a) in avail.iter().enumerate() {
                for (j, &b) in avail.iter().enumerate().skip(i + 1) {
                    for &c in &avail[j + 1..] {
                        consider(&[a, b, c]);
                    }
                }
            }
        }
    }
    best
}

fn take(deck: &mut Vec<Card>, pred: impl Fn(Card) -> bool, n: usize) -> Vec<Card> {
    let mut out = Vec::new();
    deck.retain(|&c| {
        if out.len() < n && pred(c) {
            out.push(c);
            false
        } else {
            true
        }
    });
    out
}

fn position() -> impl Strategy<Value = Position> {
    let deck: Vec<Card> = Card::all().collect();
    (
        Just(deck).prop_shuffle(),
        0..=3usize,
        0..=51usize,
        any::<bool>(),
        0..5u8,
        0..6u8,
        1..=9u8,
        0..3usize,
    )
        .prop_map(|(mut deck, k, t, first, mode, color, value, spare)| {
            let start = value.min(7);
            let mine: Vec<Card> = match mode {
                // A strong own formation: a colour run or three of a kind.
                1 if value % 2 == 0 => (start..start + 3).map(|v| Card::new(color, v)).collect(),
                1 => (0..3).map(|c| Card::new((color + c) % 6, value)).collect(),
                _ => deck[..3].to_vec(),
            };
            deck.retain(|c| !mine.contains(c));
            let theirs: Vec<Card> = match mode {
                // The other side holds two cards of a colour run or of a kind.
                3 => take(
                    &mut deck,
                    |c| c.color() == color && (start..start + 2).contains(&c.value()),
                    k.min(2),
                ),
                4 => take(&mut deck, |c| c.value() == value, k.min(2)),
                _ => deck.drain(..k).collect(),
            };
            let mut table: Vec<Card> = Vec::new();
            if mode >= 2 {
                // Nearly exhaust one colour and one value: all but `spare` of each go to the table.
                let of_color = deck.iter().filter(|c| c.color() == color).count();
                table.extend(take(
                    &mut deck,
                    |c| c.color() == color,
                    of_color.saturating_sub(spare),
                ));
                let of_value = deck.iter().filter(|c| c.value() == value).count();
                table.extend(take(
                    &mut deck,
                    |c| c.value() == value,
                    of_value.saturating_sub(spare),
                ));
            }
            let extra = t.min(deck.len());
            table.extend(deck.drain(..extra));
            Position {
                mine: mine.try_into().unwrap(),
                theirs,
                available: deck.iter().copied().collect(),
                mine_completed_first: first || theirs_len_below_three(k),
            }
        })
}

/// With an incomplete other side the claimant necessarily completed first.
fn theirs_len_below_three(k: usize) -> bool {
    k < 3
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100_000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn claim_proof_matches_brute_force(pos in position()) {
        let check = check_claim(pos.mine, &pos.theirs, pos.available, pos.mine_completed_first);
        let oracle = brute_force_best(&pos.theirs, pos.available);
        prop_assert_eq!(check.best.map(|b| b.formation), oracle);
        let mine = formation(pos.mine);
        prop_assert_eq!(check.mine, mine);
        let provable = match oracle {
            None => true,
            Some(best) if pos.theirs.len() == 3 => mine > best || (mine == best && pos.mine_completed_first),
            Some(best) => best <= mine,
        };
        prop_assert_eq!(check.provable, provable);
        if let Some(best) = check.best {
            // The reported cards are a real completion with exactly that formation.
            prop_assert_eq!(&best.cards[..pos.theirs.len()], &pos.theirs[..]);
            let added: CardSet = best.cards[pos.theirs.len()..].iter().copied().collect();
            prop_assert_eq!(added.len() as usize, 3 - pos.theirs.len());
            prop_assert!(added.minus(pos.available).is_empty(), "added cards must be available");
            prop_assert_eq!(formation(best.cards), best.formation);
        }
    }
}
