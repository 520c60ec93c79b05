//! Explicit positions for the rulings D4–D13.

use serde_json::{Value, json};

use super::*;
use crate::game::{Action, Game, GameState};

/// A position in the play phase: marbles as (marble id, place, protected); every other
/// marble in its kennel; the hands as card lists; the rest of the 110 cards in the pile.
pub(super) fn position(marbles: &[(usize, Place, bool)], hands: [&str; 4], current: u8) -> State {
    let mut all = vec![json!({"place": "kennel", "protected": false}); 16];
    for &(m, place, protected) in marbles {
        all[m] = json!({"place": place, "protected": protected});
    }
    let mut counts: Vec<usize> = (0..14).map(|i| Card::from_index(i).copies() as usize).collect();
    let hands: Vec<Vec<Card>> = hands
        .iter()
        .map(|h| {
            h.split_whitespace()
                .map(|c| {
                    let card: Card = c.parse().unwrap();
                    counts[card.index()] -= 1;
                    card
                })
                .collect()
        })
        .collect();
    let pile: Vec<Card> = (0..14)
        .flat_map(|i| std::iter::repeat_n(Card::from_index(i), counts[i]))
        .collect();
    let state = json!({
        "rules": {"max_turns": 10000},
        "marbles": all,
        "hands": hands,
        "pile": pile,
        "discards": [],
        "reshuffle_seed": 1,
        "reshuffles": 0,
        "round": 0,
        "phase": "play",
        "current": current,
        "exchange": [null, null, null, null],
        "received": [null, null, null, null],
        "seven": null,
        "sat_out": [false, false, false, false],
        "turns": 0,
        "outcome": null,
        "history": [],
    });
    Dog::default().state_from_json(&state.to_string()).unwrap()
}

fn ring(f: u8) -> Place {
    Place::Ring(f)
}

fn mv(state: &State, m: &Value) -> Action {
    state.action_from_move(m).unwrap()
}

#[track_caller]
fn play(state: &mut State, m: &Value) {
    let a = mv(state, m);
    if let Err(e) = state.apply_action(a) {
        panic!("{m} refused: {e}");
    }
}

#[track_caller]
fn refused(state: &State, m: &Value, rule: &str, text: &str) {
    let reason = state
        .check_move(m, None)
        .map(|r| r.map(|e| e.to_string()))
        .unwrap()
        .unwrap_or_else(|| panic!("{m} is legal"));
    assert!(reason.starts_with(rule), "{reason}");
    assert!(reason.contains(text), "'{reason}' does not say '{text}'");
    let mut copy = state.clone();
    assert!(copy.apply_action(mv(state, m)).is_err());
    assert_eq!(&copy, state, "a rejected move changes nothing");
}

fn place(state: &State, m: usize) -> Place {
    state.marbles()[m].place
}

#[test]
fn d6_d9_the_express_finish() {
    // Start with an ace, four back, then a five into the goal (the others hold no cards).
    let mut state = position(&[], ["A 4 5", "", "", ""], 0);
    play(&mut state, &json!({"type": "start", "card": "A"}));
    assert_eq!(
        state.marbles()[0],
        Marble {
            place: ring(0),
            protected: true
        }
    );
    play(
        &mut state,
        &json!({"type": "move", "card": "4", "marble": 0, "steps": -4}),
    );
    assert_eq!(
        state.marbles()[0],
        Marble {
            place: ring(60),
            protected: false
        }
    );
    play(
        &mut state,
        &json!({"type": "move", "card": "5", "marble": 0, "steps": 5, "goal": true}),
    );
    assert_eq!(place(&state, 0), Place::Goal(0));
    for (card, slot) in [("6", 1), ("8", 3)] {
        let mut s = position(&[(0, ring(60), false)], [card, "2", "2", "2"], 0);
        play(
            &mut s,
            &json!({"type": "move", "card": card, "marble": 0, "steps": card.parse::<i64>().unwrap(), "goal": true}),
        );
        assert_eq!(place(&s, 0), Place::Goal(slot));
    }
    let mut s = position(&[(0, ring(60), false)], ["7", "2", "2", "2"], 0);
    play(
        &mut s,
        &json!({"type": "seven", "card": "7", "marble": 0, "steps": 7, "goal": true}),
    );
    assert_eq!(place(&s, 0), Place::Goal(2));
}

#[test]
fn d9_a_marble_enters_only_after_leaving_the_start_and_entering_is_optional() {
    // Just placed: protected, it may not enter; it goes round instead.
    let state = position(&[(0, ring(0), true)], ["3", "2", "2", "2"], 0);
    refused(
        &state,
        &json!({"type": "move", "card": "3", "marble": 0, "steps": 3, "goal": true}),
        "D9",
        "left the start field",
    );
    assert_eq!(
        state
            .check_move(
                &json!({"type": "move", "card": "3", "marble": 0, "steps": 3}),
                None
            )
            .map(|r| r.map(|e| e.to_string()))
            .unwrap(),
        None
    );
    // On its start field again by moving (second touch): it may enter at once.
    let state = position(&[(0, ring(0), false)], ["3", "2", "2", "2"], 0);
    assert_eq!(
        state
            .check_move(
                &json!({"type": "move", "card": "3", "marble": 0, "steps": 3, "goal": true}),
                None
            )
            .map(|r| r.map(|e| e.to_string()))
            .unwrap(),
        None
    );
    // Entering is optional: both ways are offered.
    let state = position(&[(0, ring(62), false)], ["3", "2", "2", "2"], 0);
    let ring_way = mv(
        &state,
        &json!({"type": "move", "card": "3", "marble": 0, "steps": 3}),
    );
    let goal_way = mv(
        &state,
        &json!({"type": "move", "card": "3", "marble": 0, "steps": 3, "goal": true}),
    );
    let legal = state.legal_actions();
    assert!(legal.contains(&ring_way) && legal.contains(&goal_way));
}

#[test]
fn d9_overshooting_the_goal_forces_another_lap() {
    let mut state = position(&[(0, ring(62), false)], ["10", "2", "2", "2"], 0);
    refused(
        &state,
        &json!({"type": "move", "card": "10", "marble": 0, "steps": 10, "goal": true}),
        "D9",
        "must go round again",
    );
    play(
        &mut state,
        &json!({"type": "move", "card": "10", "marble": 0, "steps": 10}),
    );
    assert_eq!(place(&state, 0), ring(8));
}

#[test]
fn d9_no_passing_backward_moves_or_overshooting_inside_the_goal() {
    let state = position(
        &[
            (0, Place::Goal(0), false),
            (1, Place::Goal(2), false),
            (2, ring(63), false),
        ],
        ["3 2 4", "2", "2", "2"],
        0,
    );
    refused(
        &state,
        &json!({"type": "move", "card": "3", "marble": 0, "steps": 3, "goal": true}),
        "D9",
        "goal field 2 is taken",
    );
    refused(
        &state,
        &json!({"type": "move", "card": "2", "marble": 1, "steps": 2, "goal": true}),
        "D9",
        "no overshooting",
    );
    refused(
        &state,
        &json!({"type": "move", "card": "4", "marble": 1, "steps": -4}),
        "D9",
        "forward only",
    );
    refused(
        &state,
        &json!({"type": "move", "card": "3", "marble": 2, "steps": 3, "goal": true}),
        "D9",
        "goal field 0 is taken",
    );
}

#[test]
fn d6_d7_protected_marbles_cannot_be_passed_or_landed_on() {
    let state = position(
        &[(0, ring(12), false), (4, ring(16), true)],
        ["5 4 2", "2", "2", "2"],
        0,
    );
    refused(
        &state,
        &json!({"type": "move", "card": "5", "marble": 0, "steps": 5}),
        "D6",
        "cannot pass the protected marble on field 16",
    );
    let state = position(
        &[(0, ring(14), false), (4, ring(16), true)],
        ["2", "2", "2", "2"],
        0,
    );
    refused(
        &state,
        &json!({"type": "move", "card": "2", "marble": 0, "steps": 2}),
        "D6",
        "cannot land on the protected marble on field 16",
    );
    // Its own team too: a protected red marble on 0 blocks red's way into the goal.
    let state = position(
        &[(0, ring(0), true), (1, ring(62), false)],
        ["3", "2", "2", "2"],
        0,
    );
    refused(
        &state,
        &json!({"type": "move", "card": "3", "marble": 1, "steps": 3, "goal": true}),
        "D6",
        "field 0",
    );
}

#[test]
fn d7_landing_sends_home_any_marble_and_passing_is_allowed() {
    let mut state = position(
        &[(0, ring(10), false), (1, ring(12), false), (5, ring(15), false)],
        ["5", "2", "2", "2"],
        0,
    );
    play(
        &mut state,
        &json!({"type": "move", "card": "5", "marble": 0, "steps": 5}),
    );
    assert_eq!(place(&state, 0), ring(15));
    assert_eq!(
        place(&state, 5),
        Place::Kennel,
        "the blue marble landed on goes home"
    );
    assert_eq!(place(&state, 1), ring(12), "a passed marble stays (no seven)");
    let mut own = position(
        &[(0, ring(10), false), (1, ring(12), false)],
        ["2", "2", "2", "2"],
        0,
    );
    play(
        &mut own,
        &json!({"type": "move", "card": "2", "marble": 0, "steps": 2}),
    );
    assert_eq!(place(&own, 1), Place::Kennel, "own marbles are sent home too");
}

#[test]
fn d8_a_seven_sends_home_every_marble_it_passes_own_included() {
    let mut state = position(
        &[
            (0, ring(10), false),
            (1, ring(12), false),
            (5, ring(14), false),
            (8, ring(40), false),
        ],
        ["7", "2", "2", "2"],
        0,
    );
    play(
        &mut state,
        &json!({"type": "seven", "card": "7", "marble": 0, "steps": 7}),
    );
    assert_eq!(place(&state, 0), ring(17));
    assert_eq!(place(&state, 1), Place::Kennel);
    assert_eq!(place(&state, 5), Place::Kennel);
    assert_eq!(state.current_player(), Some(1));
}

#[test]
fn d8_a_seven_split_over_the_partners_marbles() {
    let mut state = position(
        &[(0, ring(10), false), (8, ring(40), false)],
        ["7", "2", "2", "2"],
        0,
    );
    play(
        &mut state,
        &json!({"type": "seven", "card": "7", "marble": 0, "steps": 3}),
    );
    assert_eq!(
        state.seven(),
        Some(Seven {
            remaining: 4,
            joker: false
        })
    );
    assert_eq!(state.current_player(), Some(0), "the seven goes on");
    refused(
        &state,
        &json!({"type": "move", "card": "2", "marble": 0, "steps": 2}),
        "D8",
        "must be used completely",
    );
    assert_eq!(
        state.action_to_string(mv(
            &state,
            &json!({"type": "seven", "card": "7", "marble": 8, "steps": 4})
        )),
        "7: red 1 forward 3, partner's green 1 forward 4 (0 left)"
    );
    play(
        &mut state,
        &json!({"type": "seven", "card": "7", "marble": 8, "steps": 4}),
    );
    assert_eq!((place(&state, 0), place(&state, 8)), (ring(13), ring(44)));
    assert_eq!(state.current_player(), Some(1));
}

#[test]
fn d8_a_part_is_offered_only_if_the_rest_can_be_used() {
    // Red's only marble at 10; a protected blue marble on 16 blocks at 15: red can go 5 at
    // most, so no part of the seven is playable at all.
    let state = position(
        &[(0, ring(10), false), (4, ring(16), true)],
        ["7", "2", "2", "2"],
        0,
    );
    assert_eq!(state.legal_actions(), vec![SIT_OUT]);
    refused(
        &state,
        &json!({"type": "seven", "card": "7", "marble": 0, "steps": 2}),
        "D8",
        "a seven must be used completely",
    );
    // With the partner's marble free, parts of 2..5 on red are fine, the rest going to green.
    let state = position(
        &[(0, ring(10), false), (4, ring(16), true), (8, ring(40), false)],
        ["7", "2", "2", "2"],
        0,
    );
    let seven = |m: usize, s: u8| {
        mv(
            &state,
            &json!({"type": "seven", "card": "7", "marble": m, "steps": s}),
        )
    };
    let legal = state.legal_actions();
    assert!(legal.contains(&seven(0, 5)) && !legal.contains(&seven(0, 6)));
    assert!(legal.contains(&seven(8, 7)));
}

#[test]
fn d10_the_jack_and_its_forbidden_targets() {
    let state = position(
        &[
            (0, ring(10), false),
            (1, Place::Goal(1), false),
            (4, ring(16), true),
            (5, ring(20), false),
            (9, ring(50), false),
        ],
        ["J", "2", "2", "2"],
        0,
    );
    refused(
        &state,
        &json!({"type": "jack", "card": "J", "marble": 0, "with": 4}),
        "D10",
        "protected marble on field 16",
    );
    refused(
        &state,
        &json!({"type": "jack", "card": "J", "marble": 0, "with": 6}),
        "D10",
        "on the ring only",
    );
    refused(
        &state,
        &json!({"type": "jack", "card": "J", "marble": 1, "with": 5}),
        "D10",
        "on the ring only",
    );
    refused(
        &state,
        &json!({"type": "jack", "card": "J", "marble": 5, "with": 9}),
        "D7",
        "moves the red marbles",
    );
    let mut swap = state.clone();
    play(
        &mut swap,
        &json!({"type": "jack", "card": "J", "marble": 0, "with": 9}),
    );
    assert_eq!(
        (place(&swap, 0), place(&swap, 9)),
        (ring(50), ring(10)),
        "the partner's marble too; nothing goes home"
    );
    let none = position(&[(0, ring(10), false)], ["J", "2", "2", "2"], 0);
    assert_eq!(
        none.legal_actions(),
        vec![SIT_OUT],
        "a jack without a swap cannot be played"
    );
}

#[test]
fn d11_the_joker_may_not_bring_the_last_marble_home() {
    let mut marbles: Vec<(usize, Place, bool)> = (0..3)
        .map(|k| (k, Place::Goal(k as u8 + 1), false))
        .chain((8..12).map(|m| (m, Place::Goal((m - 8) as u8), false)))
        .collect();
    marbles.push((3, ring(60), false));
    let state = position(&marbles, ["JK 5", "2", "2", "2"], 0);
    refused(
        &state,
        &json!({"type": "move", "card": "JK", "as": "5", "marble": 3, "steps": 5, "goal": true}),
        "D11",
        "the joker may not bring the team's last marble home",
    );
    refused(
        &state,
        &json!({"type": "seven", "card": "JK", "marble": 3, "steps": 5, "goal": true}),
        "D11",
        "last marble",
    );
    assert_eq!(
        state
            .check_move(
                &json!({"type": "move", "card": "JK", "as": "5", "marble": 3, "steps": 5}),
                None
            )
            .map(|r| r.map(|e| e.to_string()))
            .unwrap(),
        None
    );
    let mut win = state.clone();
    play(
        &mut win,
        &json!({"type": "move", "card": "5", "marble": 3, "steps": 5, "goal": true}),
    );
    // D13: 8 + the opponents' 8 marbles outside the goal; the losers have 0 in the goal.
    assert_eq!(
        win.outcome(),
        Some(Outcome {
            winner: Some(0),
            points: [16, 0],
            reason: EndReason::AllHome
        })
    );
    assert_eq!(win.returns(), vec![1.0, -1.0, 1.0, -1.0]);
}

#[test]
fn d6_a_start_sends_home_a_foreign_marble_on_the_start_field() {
    let mut state = position(&[(5, ring(0), false)], ["K", "2", "2", "2"], 0);
    play(&mut state, &json!({"type": "start", "card": "K"}));
    assert_eq!(
        state.marbles()[0],
        Marble {
            place: ring(0),
            protected: true
        }
    );
    assert_eq!(place(&state, 5), Place::Kennel);
    let blocked = position(&[(0, ring(0), true)], ["A", "2", "2", "2"], 0);
    refused(
        &blocked,
        &json!({"type": "start", "card": "A"}),
        "D6",
        "protected marble",
    );
}

#[test]
fn d5_zugzwang_with_only_a_bad_move_and_sitting_out() {
    // The only legal move: the 2 lands on the partner's marble and sends it home.
    let mut state = position(
        &[(0, ring(10), false), (8, ring(12), false)],
        ["2", "2", "2", "2"],
        0,
    );
    let only = mv(
        &state,
        &json!({"type": "move", "card": "2", "marble": 0, "steps": 2}),
    );
    assert_eq!(state.legal_actions(), vec![only]);
    refused(&state, &json!({"type": "sit_out"}), "D5", "must play");
    play(
        &mut state,
        &json!({"type": "move", "card": "2", "marble": 0, "steps": 2}),
    );
    assert_eq!(place(&state, 8), Place::Kennel);
    // No marble out and no start card: sit out, the hand is discarded.
    let mut out = position(&[], ["2 3 Q", "2", "2", "2"], 0);
    assert_eq!(out.legal_actions(), vec![SIT_OUT]);
    let discards = out.discards_len();
    out.apply_action(SIT_OUT).unwrap();
    assert_eq!(out.discards_len(), discards + 3);
    assert!(out.hand_cards(0).is_empty());
    assert_eq!(out.view(1)["sat_out"], json!([true, false, false, false]));
}

#[test]
fn d12_a_player_with_four_home_helps_the_partner() {
    let home: Vec<(usize, Place, bool)> = (0..4).map(|k| (k, Place::Goal(k as u8), false)).collect();
    let mut state = position(&home, ["A 3", "2", "2", "2"], 0);
    assert_eq!(
        state.action_to_string(mv(&state, &json!({"type": "start", "card": "A"}))),
        "Ace: start a marble of the partner (green)"
    );
    play(&mut state, &json!({"type": "start", "card": "A"}));
    assert_eq!(
        state.marbles()[8],
        Marble {
            place: ring(32),
            protected: true
        }
    );
}

#[test]
fn d4_the_exchange_is_hidden_until_all_four_picked() {
    let mut state = Dog::default().new_initial_state(3);
    assert_eq!(state.phase(), Phase::Exchange);
    let give = state.hand_cards(0)[0];
    play(&mut state, &json!({"type": "exchange", "card": give.to_string()}));
    assert_eq!(state.view(0)["exchange"]["given"], json!(give.to_string()));
    assert_eq!(
        state.view(2)["exchange"]["received"],
        Value::Null,
        "not before all four picked"
    );
    assert!(!state.view(2).to_string().contains("given\":\""));
    for p in 1..4 {
        let card = state.hand_cards(p)[0];
        play(&mut state, &json!({"type": "exchange", "card": card.to_string()}));
    }
    assert_eq!(state.phase(), Phase::Play);
    assert_eq!(state.view(2)["exchange"]["received"], json!(give.to_string()));
    assert_eq!(state.hand_cards(2).len(), 6);
}

#[test]
fn d4_rounds_shrink_and_the_first_player_rotates() {
    let mut state = Dog::default().new_initial_state(1);
    let mut sizes = vec![];
    let mut firsts = vec![];
    while state.round() < 6 {
        if state.phase() == Phase::Exchange
            && state.view(0)["exchange"]["picked"] == json!([false, false, false, false])
        {
            sizes.push(state.hand_cards(0).len());
            firsts.push(state.current_player().unwrap());
        }
        let a = state.legal_actions()[0];
        state.apply_action(a).unwrap();
        if state.is_terminal() {
            break;
        }
    }
    assert_eq!(sizes, vec![6, 5, 4, 3, 2, 6]);
    assert_eq!(firsts, vec![0, 1, 2, 3, 0, 1]);
}

#[test]
fn moves_round_trip_and_malformed_ones_are_explained() {
    let state = Dog::default().new_initial_state(2);
    for a in 0..NUM_ACTIONS as Action {
        assert_eq!(
            state.action_from_move(&state.action_to_move(a)).unwrap(),
            a,
            "{}",
            state.action_to_move(a)
        );
    }
    for (m, text) in [
        (json!({"type": "start", "card": "5"}), "only A, K or JK"),
        (json!({"type": "move", "card": "A", "marble": 0}), "steps missing"),
        (
            json!({"type": "move", "card": "5", "marble": 16, "steps": 5}),
            "marbles are 0-15",
        ),
        (
            json!({"type": "seven", "card": "7", "marble": 0, "steps": 8}),
            "1-7",
        ),
        (json!({"type": "fly"}), "unknown variant `fly`"),
    ] {
        let err = state.action_from_move(&m).unwrap_err().to_string();
        assert!(err.contains(text), "{err}");
    }
}
