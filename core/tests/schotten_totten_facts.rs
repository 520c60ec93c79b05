//! The stone facts of the views (S5, S6) against the claim proof and the legal moves.
//!
//! Positions come from seeded games played by uniformly random legal moves (declined
//! claims included, so provable stones stay unowned for a while), stopped after a random
//! number of moves. For every stone nobody owns, in both seats' views and the public
//! view, the facts must say what `State::claim_check` decides and what the legal moves
//! allow; owned stones carry none. A game ended by the settlement (S9) shows it step by
//! step, equal to S9 read plainly on the table it settled.

mod common;

use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use spielwerk_core::schotten_totten::{
    Award, CardSet, EndReason, NUM_STONES, SchottenTotten, State, View, best_reachable, claim_action,
};
use spielwerk_core::{Error, Game, GameState};

/// The position after `moves` uniformly random legal moves of the game dealt by `seed`.
fn random_position(seed: u64, moves: usize) -> State {
    common::random_position(&SchottenTotten::default(), seed, moves)
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
            bare.settlement = None;
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

/// A whole game of uniformly random legal moves from `seed`, and the state before its
/// last action (for a settled game the table the settlement (S9) worked on, but for a
/// last claim that ended the turn).
fn random_game(seed: u64) -> (State, State) {
    let mut state = SchottenTotten::default().new_initial_state(seed);
    let mut before = state.clone();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5e77);
    loop {
        let legal = state.legal_actions();
        if legal.is_empty() {
            return (before, state);
        }
        before = state.clone();
        state
            .apply_action(legal[rng.random_range(0..legal.len())])
            .unwrap();
    }
}

/// S9 read plainly on the table before the settlement: per unowned stone the step that
/// decides it and how (`provable`, `complete`, `more_cards`, `higher_sum`, `tie`) with
/// the owner.
fn plain_settlement(before: &State) -> Vec<(usize, u8, &'static str, Option<u8>)> {
    let mut out = Vec::new();
    for (i, stone) in before.stones().iter().enumerate() {
        if stone.owner.is_some() {
            continue;
        }
        let [a, b] = &stone.sides;
        let provable = (0..2).find(|&p| before.claim_check(i, p).is_some_and(|c| c.provable));
        let sum = |s: &spielwerk_core::schotten_totten::Side| {
            s.cards().iter().map(|c| u32::from(c.value())).sum::<u32>()
        };
        out.push(if let Some(p) = provable {
            (i, 1, "provable", Some(p as u8))
        } else if a.is_complete() != b.is_complete() {
            (i, 2, "complete", Some(u8::from(b.is_complete())))
        } else if a.len() != b.len() {
            (i, 3, "more_cards", Some(u8::from(b.len() > a.len())))
        } else if sum(a) != sum(b) {
            (i, 3, "higher_sum", Some(u8::from(sum(b) > sum(a))))
        } else {
            (i, 3, "tie", None)
        });
    }
    out
}

#[test]
fn the_settlement_step_by_step_equals_s9_read_plainly() {
    let game = SchottenTotten::default();
    let mut settled = 0;
    for seed in 0..3_000 {
        let (before, state) = random_game(seed);
        let view = people_view(&state, Some(0));
        let outcome = state.outcome().unwrap();
        let Some(settlement) = view.settlement.clone() else {
            assert_ne!(
                outcome.reason,
                EndReason::Settlement,
                "seed {seed}: a settled game shows its settlement"
            );
            continue;
        };
        settled += 1;
        assert_eq!(outcome.reason, EndReason::Settlement);
        let shown: Vec<(usize, u8, String, Option<u8>)> = settlement.steps[..3]
            .iter()
            .flat_map(|step| {
                step.stones.iter().map(move |s| {
                    let by = serde_json::to_value(s.by).unwrap().as_str().unwrap().to_string();
                    (usize::from(s.stone), step.step, by, s.owner)
                })
            })
            .collect();
        let mut shown_sorted = shown.clone();
        shown_sorted.sort();
        // The last action may be a claim that ends the turn (nothing more to claim): that
        // stone is no part of the settlement, and a claim moves no card, so the proofs of
        // the others stand.
        let claimed_last =
            |i: usize| before.stones()[i].owner.is_none() && state.stones()[i].award == Some(Award::Claim);
        let plain: Vec<(usize, u8, String, Option<u8>)> = plain_settlement(&before)
            .into_iter()
            .filter(|&(i, ..)| !claimed_last(i))
            .map(|(i, s, by, o)| (i, s, by.to_string(), o))
            .collect();
        assert_eq!(shown_sorted, plain, "seed {seed}");
        // The stones a step names are its own, ascending, and the board agrees.
        for (n, step) in settlement.steps.iter().enumerate() {
            assert_eq!(usize::from(step.step), n + 1);
            assert!(step.stones.windows(2).all(|w| w[0].stone < w[1].stone));
            for s in &step.stones {
                assert_eq!(state.stones()[usize::from(s.stone)].owner, s.owner);
            }
            // Each player's stones of the step, as the board numbers them (1-9), in one
            // phrase ("Steine 2, 5 und 7 an Spieler 0"); step 3 names each with its figures,
            // and its ties together.
            for p in [Some(0u8), Some(1), None] {
                let theirs: Vec<String> = step
                    .stones
                    .iter()
                    .filter(|s| s.owner == p)
                    .map(|s| (s.stone + 1).to_string())
                    .collect();
                let Some((last, first)) = theirs.split_last() else {
                    continue;
                };
                if let (3, Some(p)) = (step.step, p) {
                    for n in &theirs {
                        let (de, en) = (
                            format!("Stein {n} an Spieler {p} ("),
                            format!("stone {n} to player {p} ("),
                        );
                        assert!(step.text.de.contains(&de), "{} lacks {de}", step.text.de);
                        assert!(step.text.en.contains(&en), "{} lacks {en}", step.text.en);
                    }
                    continue;
                }
                let (word_de, word_en, list_de, list_en) = if first.is_empty() {
                    ("Stein", "stone", last.clone(), last.clone())
                } else {
                    let head = first.join(", ");
                    (
                        "Steine",
                        "stones",
                        format!("{head} und {last}"),
                        format!("{head} and {last}"),
                    )
                };
                let (de, en) = match p {
                    Some(p) => (
                        format!("{word_de} {list_de} an Spieler {}", p + 1),
                        format!("{word_en} {list_en} to player {}", p + 1),
                    ),
                    None => (
                        format!("{word_de} {list_de} bleib"),
                        format!("{word_en} {list_en} stay"),
                    ),
                };
                assert!(step.text.de.contains(&de), "{} lacks {de}", step.text.de);
                assert!(step.text.en.contains(&en), "{} lacks {en}", step.text.en);
            }
            assert!(
                step.text.de.starts_with(&format!("{}. ", n + 1)),
                "{}",
                step.text.de
            );
            assert!(
                step.text.en.starts_with(&format!("{}. ", n + 1)),
                "{}",
                step.text.en
            );
        }
        assert!(settlement.steps[3].stones.is_empty());
        // Step 4: the count, claimed stones included, and its winner.
        let count = |p: u8| state.stones().iter().filter(|s| s.owner == Some(p)).count() as u8;
        assert_eq!(settlement.counts, [count(0), count(1)]);
        let winner = match count(0).cmp(&count(1)) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        assert_eq!(outcome.winner, winner);
        let end = match winner {
            // Seats counted from 1, as a person counts them.
            Some(w) => (
                format!("Spieler {} gewinnt.", w + 1),
                format!("player {} wins.", w + 1),
            ),
            None => ("unentschieden.".into(), "a draw.".into()),
        };
        assert!(
            settlement.steps[3].text.de.ends_with(&end.0),
            "{}",
            settlement.steps[3].text.de
        );
        assert!(
            settlement.steps[3].text.en.ends_with(&end.1),
            "{}",
            settlement.steps[3].text.en
        );
        // Every seat and spectators see the same; the fast writer writes it as serde.
        for seat in [Some(1), None] {
            assert_eq!(people_view(&state, seat).settlement, Some(settlement.clone()));
        }
        for seat in [Some(0), Some(1), None] {
            assert_eq!(
                state.view_json(seat),
                serde_json::to_vec(&people_view(&state, seat)).unwrap()
            );
            // The typed view (bots, tensors) leaves it out.
            assert_eq!(state.view_of(seat).settlement, None);
        }
        // Read back: given, left out, or wrong.
        assert_eq!(
            people_view(&game.state_from_view(&view, seed).unwrap(), Some(0)),
            view
        );
        let mut bare = view.clone();
        bare.settlement = None;
        assert_eq!(
            people_view(&game.state_from_view(&bare, seed).unwrap(), Some(0)),
            view
        );
        let mut forged = view.clone();
        let f = forged.settlement.as_mut().unwrap();
        match seed % 3 {
            0 => f.counts[0] += 1,
            1 => f.steps[3].text.de.push('!'),
            _ => f.steps.swap(0, 1),
        }
        let err = game.state_from_view(&forged, seed).unwrap_err().to_string();
        assert!(err.contains("settlement disagrees with the table (S9)"), "{err}");
    }
    assert!(settled >= 100, "only {settled} of 3000 random games were settled");
}

#[test]
fn games_not_settled_refuse_a_settlement() {
    let game = SchottenTotten::default();
    let state = random_position(5, 10);
    let settled = (0..3_000)
        .find_map(|seed| people_view(&random_game(seed).1, None).settlement)
        .unwrap();
    let mut view = people_view(&state, None);
    view.settlement = Some(settled);
    let err = game.state_from_view(&view, 0).unwrap_err().to_string();
    assert!(err.contains("did not end by the settlement (S9)"), "{err}");
}
