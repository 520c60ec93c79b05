//! The pairs' sale facts of Caravan's views (C9) against a plain reading of C9 and the
//! game's end.
//!
//! Positions come from seeded games under random variant sets played by uniformly random
//! legal moves, stopped after a random number of moves (finished games included). For
//! every pair, in both seats' views and the public view, the facts must say where each
//! caravan stands against 21-26 and whether a tie holds the pair open, agree with who
//! sells the pair, and a game that ended by selling must show every pair sold.

mod common;

use proptest::prelude::*;
use serde_json::Value;
use spielwerk_core::caravan::{CaravanGame, EndReason, PairFacts, SaleRange, State, View};
use spielwerk_core::{Error, Game, GameState};

fn rules_of(bits: u16) -> CaravanGame {
    let on = |i: u16| bits & (1 << i) != 0;
    CaravanGame {
        queens_anywhere: on(0),
        kings_add: on(1),
        founding_suit: on(2),
        unlimited_face_cards: on(3),
        quick_sale: on(4),
        reshuffle: on(5),
        short_deck: on(6),
        double_deck: on(7) && !on(6),
        queens_shield: on(8),
        fixed_course: on(9),
        fresh_hand: on(10),
        protected_joker: on(11),
    }
}

fn people_view(state: &State, seat: Option<usize>) -> View {
    let json = match seat {
        Some(p) => state.view(p),
        None => state.public_view(),
    };
    serde_json::from_value(json).unwrap()
}

/// C9 read plainly: a caravan sells at 21-26; of two facing caravans in the range the
/// higher sells, with equal values neither.
fn plain(a: u32, b: u32) -> (PairFacts, Option<u8>) {
    let range = |v: u32| match v {
        0..=20 => SaleRange::Below,
        21..=26 => SaleRange::InRange,
        _ => SaleRange::Above,
    };
    let (ina, inb) = ((21..=26).contains(&a), (21..=26).contains(&b));
    let seller = match (ina, inb) {
        (true, false) => Some(0),
        (false, true) => Some(1),
        (true, true) if a > b => Some(0),
        (true, true) if b > a => Some(1),
        _ => None,
    };
    let facts = PairFacts {
        range: [range(a), range(b)],
        tied: ina && inb && a == b,
    };
    (facts, seller)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3_000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn pair_facts_equal_c9_and_the_end(seed in any::<u64>(), bits in any::<u16>(), moves in 0usize..1_500) {
        let rules = rules_of(bits);
        let state = common::random_position(&rules, seed, moves);
        let facts = |seat| people_view(&state, seat).pairs.map(|p| p.facts);
        for seat in [Some(0), Some(1), None] {
            let view = people_view(&state, seat);
            for (i, pair) in view.pairs.iter().enumerate() {
                let (a, b) = (view.caravans[i].value, view.caravans[3 + i].value);
                let (right, seller) = plain(a, b);
                prop_assert_eq!(pair.facts, Some(right), "pair {} values {} {}", i, a, b);
                prop_assert_eq!(pair.sold_by, seller, "pair {} values {} {}", i, a, b);
            }
            // The fast writer writes the same; the typed view (bots, tensors) has none.
            prop_assert_eq!(state.view_json(seat), serde_json::to_vec(&view).unwrap());
            let mut bare = view.clone();
            for pair in &mut bare.pairs {
                pair.facts = None;
            }
            prop_assert_eq!(state.view_of(seat), bare);
            // The table alone: every seat and spectators see the same facts.
            prop_assert_eq!(facts(seat), facts(Some(0)));
        }
        // A game sold out shows every pair sold (C9), the winner selling two or more.
        if let Some(outcome) = state.outcome() && outcome.reason == EndReason::Sold {
            let view = people_view(&state, None);
            prop_assert!(view.pairs.iter().all(|p| p.sold_by.is_some()));
            let w = outcome.winner.unwrap();
            prop_assert!(view.pairs.iter().filter(|p| p.sold_by == Some(w)).count() >= 2);
        }
    }

    #[test]
    fn views_read_back_with_pair_facts_given_or_left_out_but_never_wrong(seed in any::<u64>(), bits in any::<u16>(), moves in 0usize..600, pick in any::<u64>()) {
        let rules = rules_of(bits);
        let state = common::random_position(&rules, seed, moves);
        let seat = [Some(0), Some(1), None][(pick % 3) as usize];
        let view = people_view(&state, seat);
        let back = rules.state_from_view(&view, seed).unwrap();
        prop_assert_eq!(people_view(&back, seat), view.clone());
        let mut json: Value = serde_json::to_value(&view).unwrap();
        for pair in json["pairs"].as_array_mut().unwrap() {
            pair.as_object_mut().unwrap().remove("facts");
        }
        let bare: View = serde_json::from_value(json).unwrap();
        prop_assert_eq!(people_view(&rules.state_from_view(&bare, seed).unwrap(), seat), view.clone());
        let i = (pick / 3 % 3) as usize;
        let mut forged = view.clone();
        let f = forged.pairs[i].facts.as_mut().unwrap();
        match pick / 9 % 3 {
            0 => f.tied = !f.tied,
            1 => f.range[0] = if f.range[0] == SaleRange::Below { SaleRange::Above } else { SaleRange::Below },
            _ => f.range[1] = if f.range[1] == SaleRange::InRange { SaleRange::Below } else { SaleRange::InRange },
        }
        match rules.state_from_view(&forged, seed) {
            Err(Error::InvalidView(message)) => {
                prop_assert!(message.en.contains(&format!("pairs[{i}].facts disagree")), "{}", message);
                prop_assert!(message.en.contains("C9"), "{}", message);
            }
            other => prop_assert!(false, "a forged fact was accepted: {:?}", other.map(|_| ())),
        }
    }
}

/// Random games reach every kind of pair the facts tell apart, so the property above
/// meets them all.
#[test]
fn random_games_reach_every_kind_of_pair() {
    let mut kinds = std::collections::BTreeSet::new();
    for seed in 0..400 {
        let state = common::random_position(&CaravanGame::default(), seed, 40 + (seed as usize * 7) % 600);
        let view = people_view(&state, None);
        for pair in &view.pairs {
            let f = pair.facts.unwrap();
            for r in f.range {
                kinds.insert(format!("{r:?}"));
            }
            if f.tied {
                kinds.insert("tied".into());
            }
        }
    }
    for kind in ["Below", "InRange", "Above"] {
        assert!(
            kinds.contains(kind),
            "no caravan {kind} in 400 random games: {kinds:?}"
        );
    }
}
