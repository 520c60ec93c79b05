//! The stone facts of the views (S5, S6) against the claim proof and the legal moves.
//!
//! Positions come from seeded games played by uniformly random legal moves (declined
//! claims included, so provable stones stay unowned for a while), stopped after a random
//! number of moves. For every stone nobody owns, in both seats' views and the public
//! view, the facts must say what `State::claim_check` decides and what the legal moves
//! allow; owned stones carry none.

use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use spielwerk_core::schotten_totten::{
    CardSet, NUM_STONES, SchottenTotten, State, View, best_reachable, claim_action,
};
use spielwerk_core::{Error, Game, GameState};

/// The position after `moves` uniformly random legal moves of the game dealt by `seed`.
fn random_position(seed: u64, moves: usize) -> State {
    let mut state = SchottenTotten::default().new_initial_state(seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    for _ in 0..moves {
        let legal = state.legal_actions();
        if legal.is_empty() {
            break;
        }
        state
            .apply_action(legal[rng.random_range(0..legal.len())])
            .unwrap();
    }
    state
}

fn table(state: &State) -> CardSet {
    state.table()
}

/// The view for people, as `State.view(p)` and `State.public_view()` give it, typed.
fn people_view(state: &State, seat: Option<usize>) -> View {
    let json = match seat {
        Some(p) => state.view(p),
        None => state.public_view(),
    };
    serde_json::from_value(json).unwrap()
}

fn check_facts(state: &State, view: &View) -> Result<(), TestCaseError> {
    let legal = state.legal_actions();
    let available = CardSet::ALL.minus(table(state));
    for (i, stone) in view.stones.iter().enumerate() {
        let Some(facts) = stone.facts else {
            prop_assert!(stone.owner.is_some(), "stone {i} is unowned but has no facts");
            continue;
        };
        prop_assert!(stone.owner.is_none(), "stone {i} is owned but has facts");
        for p in 0..2 {
            let check = state.claim_check(i, p);
            prop_assert_eq!(
                facts.provable[p],
                check.is_some_and(|c| c.provable),
                "stone {} player {}",
                i,
                p
            );
            if let Some(check) = check {
                // What the claim proof compares with is the other side's best.
                let best = facts.best[1 - p].map(|b| (b.cards, b.formation, b.sum));
                let proof = check.best.map(|r| (r.cards, r.formation.kind, r.formation.sum));
                prop_assert_eq!(best, proof, "stone {} player {}", i, p);
            }
            let side = stone.cards[p].cards();
            let reach = best_reachable(side, available);
            prop_assert_eq!(
                facts.best[p].map(|b| (b.cards, b.formation, b.sum, b.complete)),
                reach.map(|r| (r.cards, r.formation.kind, r.formation.sum, side.len() == 3)),
                "stone {} player {}",
                i,
                p
            );
        }
        // The Nehmen button: exactly the legal claims of the player to move.
        prop_assert_eq!(facts.claimable, legal.contains(&claim_action(i)), "stone {}", i);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10_000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn stone_facts_equal_the_claim_proof_and_the_legal_claims(seed in any::<u64>(), moves in 0usize..120) {
        let state = random_position(seed, moves);
        for seat in [Some(0), Some(1), None] {
            let view = people_view(&state, seat);
            check_facts(&state, &view)?;
            // The fast JSON writer writes the same facts as serde.
            prop_assert_eq!(state.view_json(seat), serde_json::to_vec(&view).unwrap());
            // The internal view (bots, tensors) is the same without the facts.
            let mut bare = view.clone();
            for stone in &mut bare.stones {
                stone.facts = None;
            }
            prop_assert_eq!(state.view_of(seat), bare.clone());
            if let Some(p) = seat {
                prop_assert_eq!(state.information_state_key(p), state.view_json(seat));
            }
        }
        // Both seats and spectators see the same facts: they come from the table alone.
        let facts = |seat| people_view(&state, seat).stones.map(|s| s.facts);
        prop_assert_eq!(facts(Some(0)), facts(Some(1)));
        prop_assert_eq!(facts(Some(0)), facts(None));
    }

    #[test]
    fn views_read_back_with_facts_given_or_left_out_but_never_wrong(seed in any::<u64>(), moves in 0usize..120, pick in any::<u64>()) {
        let state = random_position(seed, moves);
        let game = SchottenTotten::default();
        for seat in [Some(0), Some(1), None] {
            let view = people_view(&state, seat);
            let back = game.state_from_view(&view, seed).unwrap();
            prop_assert_eq!(people_view(&back, seat), view.clone());
            // The internal view (facts null) reads back too.
            let back = game.state_from_view(&state.view_of(seat), seed).unwrap();
            prop_assert_eq!(people_view(&back, seat), view.clone());
            // Left out: accepted, and derived again.
            let mut json: Value = serde_json::to_value(&view).unwrap();
            for stone in json["stones"].as_array_mut().unwrap() {
                stone.as_object_mut().unwrap().remove("facts");
            }
            let bare: View = serde_json::from_value(json).unwrap();
            prop_assert_eq!(people_view(&game.state_from_view(&bare, seed).unwrap(), seat), view.clone());
            // Wrong: refused with the stone named.
            let unowned: Vec<usize> = (0..NUM_STONES).filter(|&i| view.stones[i].facts.is_some()).collect();
            if unowned.is_empty() {
                continue;
            }
            let i = unowned[pick as usize % unowned.len()];
            let mut forged = view.clone();
            let f = forged.stones[i].facts.as_mut().unwrap();
            match pick / 7 % 3 {
                0 => f.claimable = !f.claimable,
                1 => f.provable[(pick % 2) as usize] ^= true,
                _ => match &mut f.best[(pick % 2) as usize] {
                    Some(b) => b.sum += 1,
                    None => f.provable[0] ^= true,
                },
            }
            match game.state_from_view(&forged, seed) {
                Err(Error::InvalidView(message)) => {
                    prop_assert!(message.en.contains(&format!("stones[{i}].facts disagree")), "{}", message);
                }
                other => prop_assert!(false, "a forged fact was accepted: {:?}", other.map(|_| ())),
            }
        }
    }
}

#[test]
fn owned_stones_refuse_facts() {
    // Play until some stone is owned, then give it facts.
    let game = SchottenTotten::default();
    for seed in 0..200 {
        let state = random_position(seed, 80);
        let view = people_view(&state, Some(0));
        let Some(i) = (0..NUM_STONES).find(|&i| view.stones[i].owner.is_some()) else {
            continue;
        };
        let j = (0..NUM_STONES).find(|&j| view.stones[j].facts.is_some());
        let Some(j) = j else { continue };
        let mut forged = view.clone();
        forged.stones[i].facts = view.stones[j].facts;
        let err = game.state_from_view(&forged, 0).unwrap_err().to_string();
        assert!(err.contains(&format!("stones[{i}] is owned")), "{err}");
        return;
    }
    panic!("no random game of 80 moves owned a stone");
}
