//! The targets of Dog's views (`hand_targets`: per card, where each legal move takes a
//! marble) against the legal moves and against the board after each move is applied.
//!
//! Positions come from seeded games played by uniformly random legal moves, stopped
//! after a random number of moves. In every seat's view for people the targets must be
//! exactly the seat's legal moves that move a marble (none off its turn or in the
//! exchange, D4), each naming the marble, the place it ends on and the marbles it sends
//! home as applying the move shows them; the public view carries none.

mod common;

use std::collections::BTreeSet;

use proptest::prelude::*;
use serde_json::Value;
use spielwerk_core::dog::{CardTargets, Dog, Move, Phase, Place, State, View};
use spielwerk_core::{Action, Error, Game, GameState};

fn people_view(state: &State, seat: Option<usize>) -> View {
    let json = match seat {
        Some(p) => state.view(p),
        None => state.public_view(),
    };
    serde_json::from_value(json).unwrap()
}

fn action_of(state: &State, mv: &Move) -> Action {
    state
        .action_from_move(&serde_json::to_value(mv).unwrap())
        .unwrap()
}

fn check_targets(state: &State, seat: usize, targets: &[CardTargets]) -> Result<(), TestCaseError> {
    let mut legal = Vec::new();
    state.legal_actions_for(seat, &mut legal);
    // The legal moves that move a marble: all but the exchange picks and sitting out.
    let moving: BTreeSet<Action> = legal
        .iter()
        .copied()
        .filter(|&a| {
            let mv = state.action_to_move(a);
            !matches!(mv["type"].as_str(), Some("exchange" | "sit_out"))
        })
        .collect();
    let mut shown = BTreeSet::new();
    let mut cards = Vec::new();
    for entry in targets {
        cards.push(entry.card);
        prop_assert!(
            !entry.targets.is_empty(),
            "card {} has an empty entry",
            entry.card
        );
        let mut last = None;
        for t in &entry.targets {
            let a = action_of(state, &t.mv);
            prop_assert!(moving.contains(&a), "{:?} is no legal move", t.mv);
            prop_assert!(shown.insert(a), "{:?} twice", t.mv);
            prop_assert!(last < Some(a), "targets in action order");
            last = Some(a);
            prop_assert_eq!(serde_json::to_value(&t.mv).unwrap(), state.action_to_move(a));
            let card = serde_json::to_value(entry.card).unwrap();
            prop_assert_eq!(
                &state.action_to_move(a)["card"],
                &card,
                "grouped by the move's card"
            );
            // Where the move takes the marble, as applying it shows.
            let before = *state.marbles();
            let mut after = state.clone();
            after.apply_action_for(seat, a).unwrap();
            let after = *after.marbles();
            let m = usize::from(t.marble);
            prop_assert_eq!(after[m].place, t.to, "{:?}", t.mv);
            if let Move::Jack { with, .. } = t.mv {
                let with = with as usize;
                prop_assert_eq!(before[with].place, t.to);
                prop_assert_eq!(after[with].place, before[m].place, "a jack swaps");
            } else if let Move::Start { .. } = t.mv {
                prop_assert_eq!(before[m].place, Place::Kennel, "a start leaves the kennel");
            } else {
                prop_assert_eq!(before[m].place != Place::Kennel, true);
            }
            let sent: Vec<u8> = (0..16u8)
                .filter(|&v| usize::from(v) != m)
                .filter(|&v| {
                    before[usize::from(v)].place != Place::Kennel
                        && after[usize::from(v)].place == Place::Kennel
                })
                .collect();
            prop_assert_eq!(&t.sends_home, &sent, "{:?}", t.mv);
        }
    }
    prop_assert_eq!(shown, moving, "every legal move that moves a marble is shown");
    let mut sorted = cards.clone();
    sorted.sort();
    sorted.dedup();
    prop_assert_eq!(sorted, cards, "one entry per card, in card order");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3_000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn targets_equal_the_legal_moves_and_the_board_after_them(seed in any::<u64>(), moves in 0usize..1_200) {
        let state = common::random_position(&Dog::default(), seed, moves);
        let to_move = state.seats_to_move();
        for seat in 0..4 {
            let view = people_view(&state, Some(seat));
            let targets = view.hand_targets.clone().expect("a seat's view carries hand_targets");
            if !to_move.contains(&seat) || state.phase() == Phase::Exchange {
                // Off its turn, and in the exchange (D4: a card is picked, no marble moves).
                prop_assert!(targets.is_empty(), "seat {} {:?}", seat, targets);
            }
            check_targets(&state, seat, &targets)?;
            prop_assert_eq!(state.view_json(Some(seat)), serde_json::to_vec(&view).unwrap());
            let mut bare = view.clone();
            bare.hand_targets = None;
            prop_assert_eq!(state.view_of(Some(seat)), bare);
            // What a seat is shown depends on its own view alone: a resample keeps it.
            let resampled = state.resample(seat, seed ^ 1).unwrap();
            prop_assert_eq!(people_view(&resampled, Some(seat)), view);
        }
        let public = state.public_view();
        prop_assert!(public.get("hand_targets").is_none());
        prop_assert_eq!(serde_json::from_slice::<Value>(&state.view_json(None)).unwrap(), public);
    }

    #[test]
    fn views_read_back_with_targets_given_or_left_out_but_never_wrong(seed in any::<u64>(), moves in 0usize..1_200, pick in any::<u64>()) {
        let game = Dog::default();
        let state = common::random_position(&game, seed, moves);
        let Some(seat) = state.current_player() else { return Ok(()) };
        let view = people_view(&state, Some(seat));
        let back = game.state_from_view(&view, seed).unwrap();
        prop_assert_eq!(people_view(&back, Some(seat)), view.clone());
        let mut json: Value = serde_json::to_value(&view).unwrap();
        json.as_object_mut().unwrap().remove("hand_targets");
        let bare: View = serde_json::from_value(json).unwrap();
        prop_assert_eq!(people_view(&game.state_from_view(&bare, seed).unwrap(), Some(seat)), view.clone());
        let mut forged = view.clone();
        let targets = forged.hand_targets.as_mut().unwrap();
        if targets.is_empty() {
            // A card that cannot move gets a target.
            let other = serde_json::from_value(serde_json::json!({"card": "K", "targets": [{"marble": 0, "to": "kennel", "sends_home": [], "move": {"type": "start", "card": "K"}}]})).unwrap();
            targets.push(other);
        } else {
            let n = targets.len();
            let entry = &mut targets[(pick as usize) % n];
            let t = (pick as usize / 7) % entry.targets.len();
            match pick / 3 % 3 {
                0 => entry.targets[t].to = match entry.targets[t].to { Place::Ring(f) => Place::Ring((f + 1) % 64), _ => Place::Ring(63) },
                1 => entry.targets[t].sends_home.push(15),
                _ => { entry.targets.remove(t); }
            }
        }
        match game.state_from_view(&forged, seed) {
            Err(Error::InvalidView(message)) => {
                prop_assert!(message.en.contains("hand_targets disagree"), "{}", message);
                prop_assert!(message.en.contains("(D4-D12)"), "{}", message);
            }
            other => prop_assert!(false, "forged targets were accepted: {:?}", other.map(|_| ())),
        }
    }
}

/// Random games meet every kind of target the property checks: starts, moves into the
/// goal, the four backward, split sevens (also by a joker), jack swaps and moves that send
/// marbles home.
#[test]
fn random_games_meet_every_kind_of_target() {
    let mut kinds = BTreeSet::new();
    for seed in 0..300 {
        let state = common::random_position(&Dog::default(), seed, (seed as usize * 37) % 1_500);
        let Some(seat) = state.current_player() else {
            continue;
        };
        let view = people_view(&state, Some(seat));
        for entry in view.hand_targets.unwrap() {
            for t in entry.targets {
                let mv = serde_json::to_value(&t.mv).unwrap();
                kinds.insert(mv["type"].as_str().unwrap().to_string());
                if matches!(t.to, Place::Goal(_)) {
                    kinds.insert("goal".into());
                }
                if mv["steps"] == -4 {
                    kinds.insert("backward".into());
                }
                if !t.sends_home.is_empty() {
                    kinds.insert("sends_home".into());
                }
                if mv["type"] == "seven" && view.seven.is_some() {
                    kinds.insert("seven in progress".into());
                }
                if mv["card"] == "JK" {
                    kinds.insert("joker".into());
                }
            }
        }
    }
    for kind in [
        "start",
        "move",
        "seven",
        "jack",
        "goal",
        "backward",
        "sends_home",
        "seven in progress",
        "joker",
    ] {
        assert!(
            kinds.contains(kind),
            "no {kind} target in 300 random positions: {kinds:?}"
        );
    }
}
