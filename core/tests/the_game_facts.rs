//! The piles' facts of The Game's views (T4: what each pile takes from the seat's hand,
//! and by the backward trick) against the legal moves and a plain reading of T4.
//!
//! Positions come from seeded games of 1-5 players (pro or not) played by uniformly random
//! legal moves, stopped after a random number of moves. In every seat's view for people
//! each pile must carry exactly the hand cards T4 lets onto it; on the seat's own turn in
//! a running game these are exactly its legal plays. The public view carries none.

mod common;

use proptest::prelude::*;
use serde_json::Value;
use spielwerk_core::the_game::{NUM_PILES, State, TheGame, View, play_action};
use spielwerk_core::{Error, Game, GameState};

/// T4 read plainly: an ascending pile (0, 1) takes a higher card or one exactly 10 lower;
/// a descending pile (2, 3) a lower card or one exactly 10 higher.
fn fits_plainly(card: u8, top: u8, pile: usize) -> (bool, bool) {
    let (card, top) = (i32::from(card), i32::from(top));
    if pile < 2 {
        (card > top || card == top - 10, card == top - 10)
    } else {
        (card < top || card == top + 10, card == top + 10)
    }
}

fn people_view(state: &State, seat: Option<usize>) -> View {
    let json = match seat {
        Some(p) => state.view(p),
        None => state.public_view(),
    };
    serde_json::from_value(json).unwrap()
}

fn check_facts(state: &State, seat: usize, view: &View) -> Result<(), TestCaseError> {
    let hand = view.hand.unwrap();
    let legal = state.legal_actions();
    let my_turn = state.current_player() == Some(seat);
    for (p, pile) in view.piles.iter().enumerate() {
        let takes = pile.takes.expect("a seat's view carries takes");
        let backward = pile.backward.expect("a seat's view carries backward");
        for card in 2..=99u8 {
            let (fits, trick) = fits_plainly(card, pile.top, p);
            let held = hand.contains(card);
            prop_assert_eq!(takes.contains(card), held && fits, "pile {} card {}", p, card);
            prop_assert_eq!(backward.contains(card), held && trick, "pile {} card {}", p, card);
            if my_turn {
                // On the seat's own turn: exactly its legal plays onto this pile (T3).
                prop_assert_eq!(
                    takes.contains(card),
                    legal.contains(&play_action(card, p)),
                    "pile {} card {}",
                    p,
                    card
                );
            }
        }
    }
    Ok(())
}

fn game(players: u8, pro: bool) -> TheGame {
    TheGame { players, pro }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4_000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn pile_facts_equal_t4_and_the_legal_plays(seed in any::<u64>(), players in 1u8..=5, pro in any::<bool>(), moves in 0usize..200) {
        let rules = game(players, pro);
        let state = common::random_position(&rules, seed, moves);
        for seat in 0..usize::from(players) {
            let view = people_view(&state, Some(seat));
            check_facts(&state, seat, &view)?;
            // The fast path writes the same, and the typed view (bots, tensors) has none.
            prop_assert_eq!(state.view_json(Some(seat)), serde_json::to_vec(&view).unwrap());
            let mut bare = view.clone();
            for pile in &mut bare.piles {
                (pile.takes, pile.backward) = (None, None);
            }
            prop_assert_eq!(state.view_of(Some(seat)), bare);
            // What a seat is shown depends on its own hand alone: a resample keeps it.
            let resampled = state.resample(seat, seed ^ 1).unwrap();
            prop_assert_eq!(people_view(&resampled, Some(seat)), view);
        }
        // The public view shows no hand, so no pile facts: the fields are left out.
        let public = state.public_view();
        for pile in public["piles"].as_array().unwrap() {
            prop_assert!(pile.get("takes").is_none() && pile.get("backward").is_none(), "{}", pile);
        }
        prop_assert_eq!(serde_json::from_slice::<Value>(&state.view_json(None)).unwrap(), public);
    }

    #[test]
    fn views_read_back_with_pile_facts_given_or_left_out_but_never_wrong(seed in any::<u64>(), players in 1u8..=5, moves in 0usize..200, pick in any::<u64>()) {
        let rules = game(players, false);
        let state = common::random_position(&rules, seed, moves);
        let seat = (pick % u64::from(players)) as usize;
        let view = people_view(&state, Some(seat));
        let back = rules.state_from_view(&view, seed).unwrap();
        prop_assert_eq!(people_view(&back, Some(seat)), view.clone());
        // Left out: accepted, and derived again.
        let mut json: Value = serde_json::to_value(&view).unwrap();
        for pile in json["piles"].as_array_mut().unwrap() {
            pile.as_object_mut().unwrap().remove("takes");
            pile.as_object_mut().unwrap().remove("backward");
        }
        let bare: View = serde_json::from_value(json).unwrap();
        prop_assert_eq!(people_view(&rules.state_from_view(&bare, seed).unwrap(), Some(seat)), view.clone());
        // Wrong: a card added to or taken from a pile's takes or backward is refused.
        let p = (pick / 7 % NUM_PILES as u64) as usize;
        let card = view.hand.unwrap().iter().nth((pick / 31) as usize % view.hand.unwrap().len().max(1));
        let other = (2..=99u8).find(|&c| !view.piles[p].takes.unwrap().contains(c)).unwrap();
        let mut forged = view.clone();
        let field = if pick % 2 == 0 { "takes" } else { "backward" };
        let set = if field == "takes" { &mut forged.piles[p].takes } else { &mut forged.piles[p].backward };
        let mut cards: Vec<u8> = set.unwrap().iter().collect();
        match card.filter(|c| cards.contains(c)) {
            Some(c) => cards.retain(|&x| x != c),
            None => cards.push(other),
        }
        *set = Some(serde_json::from_value(serde_json::json!(cards)).unwrap());
        match rules.state_from_view(&forged, seed) {
            Err(Error::InvalidView(message)) => {
                prop_assert!(message.en.contains(&format!("piles[{p}].{field} disagrees")), "{}", message);
                prop_assert!(message.en.contains("(T4)"), "{}", message);
            }
            other => prop_assert!(false, "a forged fact was accepted: {:?}", other.map(|_| ())),
        }
    }
}

#[test]
fn the_public_view_refuses_pile_facts() {
    let rules = TheGame::default();
    let state = rules.new_initial_state(3);
    let mut public: Value = state.public_view();
    public["piles"][0]["takes"] = serde_json::json!([]);
    let err = rules
        .state_from_view(&serde_json::from_value(public).unwrap(), 0)
        .unwrap_err()
        .to_string();
    assert!(err.contains("the public view has none"), "{err}");
}

/// Every backward trick the facts show is a legal play on the seat's turn, and positions
/// with one are common enough to be tested above.
#[test]
fn backward_tricks_occur_in_random_games() {
    let mut seen = 0;
    for seed in 0..300 {
        // Random play loses The Game after a few dozen actions: positions early in it.
        let state = common::random_position(&TheGame::default(), seed, (seed % 20) as usize);
        let Some(seat) = state.current_player() else {
            continue;
        };
        let view: View = serde_json::from_value(state.view(seat)).unwrap();
        for (p, pile) in view.piles.iter().enumerate() {
            for card in pile.backward.unwrap().iter() {
                assert!(state.legal_actions().contains(&play_action(card, p)));
                seen += 1;
            }
        }
    }
    assert!(seen >= 10, "only {seen} backward tricks in 300 random games");
}
