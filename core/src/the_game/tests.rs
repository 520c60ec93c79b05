//! Explicit positions for the rulings T1–T6.

use serde_json::json;

use super::*;
use crate::game::{Action, Game, GameState};

/// A position: hands, pile tops, and a draw pile of `draw` cards (the cards not in
/// hands and not on top of a pile); every other card counts as played under a top.
fn position(players: u8, pro: bool, hands: &[&[u8]], tops: [u8; 4], draw: usize, current: u8) -> State {
    let held: Vec<u8> = hands.iter().flat_map(|h| h.iter().copied()).collect();
    let rest: Vec<u8> = (2..=99)
        .filter(|c| !held.contains(c) && !tops.contains(c))
        .collect();
    let draw_pile: Vec<u8> = rest[..draw].to_vec();
    let played = 98 - held.len() - draw;
    let started: Vec<usize> = (0..4).filter(|&p| tops[p] != [1, 1, 100, 100][p]).collect();
    let mut sizes = [0u8; 4];
    for &p in &started {
        sizes[p] = 1;
    }
    sizes[started[0]] += (played - started.len()) as u8;
    let state = json!({
        "rules": {"players": players, "pro": pro},
        "draw_pile": draw_pile,
        "hands": hands,
        "tops": tops,
        "pile_sizes": sizes,
        "current": current,
        "played_this_turn": 0,
        "outcome": null,
        "history": [],
    });
    TheGame { players, pro }
        .state_from_json(&state.to_string())
        .unwrap()
}

#[track_caller]
fn assert_illegal(state: &mut State, action: Action, rule: &str, text: &str) {
    let before = state.clone();
    let err = state.apply_action(action).unwrap_err();
    assert_eq!((err.rule, err.reason.as_str()), (rule, text), "{err}");
    assert_eq!(*state, before, "a rejected action changes nothing");
}

#[test]
fn t1_t2_deal_and_hand_sizes() {
    for (players, size) in [(1, 8), (2, 7), (3, 6), (4, 6), (5, 6)] {
        let state = TheGame { players, pro: false }.new_initial_state(1);
        for p in 0..players as usize {
            assert_eq!(state.hand_set(p).len(), size);
        }
        assert_eq!(state.draw_pile().len(), 98 - size * players as usize);
        assert_eq!(state.tops(), [1, 1, 100, 100]);
        assert_eq!(state.current_player(), Some(0));
    }
    let err = TheGame::from_options(json!({"players": 6}).as_object().unwrap()).unwrap_err();
    assert!(err.to_string().contains("players must be 1-5"), "{err}");
}

#[test]
fn t4_backward_trick_chains_within_a_turn() {
    // 63 -> 53 -> 43 -> 46 on an ascending pile: twice ten back, then on as usual.
    let mut state = position(
        2,
        false,
        &[&[53, 43, 46, 52, 70, 80, 90], &[10, 11, 12, 13, 14, 15, 16]],
        [63, 1, 100, 100],
        5,
        0,
    );
    assert_illegal(
        &mut state,
        play_action(52, 0),
        "T4",
        "52 on ascending pile 1 at 63 is neither higher nor exactly 10 lower",
    );
    assert_illegal(
        &mut state,
        play_action(43, 0),
        "T4",
        "43 on ascending pile 1 at 63 is neither higher nor exactly 10 lower",
    );
    for card in [53, 43, 46] {
        state.apply_action(play_action(card, 0)).unwrap();
    }
    assert_eq!(state.tops()[0], 46);
    assert_eq!(state.played_this_turn(), 3);
}

#[test]
fn t4_backward_trick_on_descending_piles() {
    // 36 -> 46 -> 56 on a descending pile; a jump of 20 is not allowed.
    let mut state = position(
        2,
        false,
        &[&[46, 56, 26, 50, 70, 80, 90], &[10, 11, 12, 13, 14, 15, 16]],
        [1, 1, 36, 100],
        5,
        0,
    );
    assert_illegal(
        &mut state,
        play_action(56, 2),
        "T4",
        "56 on descending pile 1 at 36 is neither lower nor exactly 10 higher",
    );
    state.apply_action(play_action(46, 2)).unwrap();
    state.apply_action(play_action(56, 2)).unwrap();
    state.apply_action(play_action(26, 2)).unwrap();
    assert_eq!(state.tops()[2], 26);
}

#[test]
fn t3_minimum_of_two_while_the_draw_pile_has_cards() {
    let mut state = position(
        2,
        false,
        &[&[20, 30, 40, 50, 60, 70, 80], &[11, 12, 13, 14, 15, 16, 17]],
        [5, 1, 100, 100],
        5,
        0,
    );
    assert!(!state.legal_actions().contains(&END_TURN));
    state.apply_action(play_action(20, 0)).unwrap();
    assert_illegal(
        &mut state,
        END_TURN,
        "T3",
        "you must play 1 more card before ending the turn",
    );
    state.apply_action(play_action(30, 0)).unwrap();
    assert!(state.legal_actions().contains(&END_TURN));
    state.apply_action(play_action(40, 0)).unwrap();
    state.apply_action(END_TURN).unwrap();
    assert_eq!(state.hand_set(0).len(), 7, "drew as many as were played");
    assert_eq!(state.draw_pile().len(), 2);
    assert_eq!(state.current_player(), Some(1));
}

#[test]
fn t3_draws_only_as_far_as_the_pile_allows_then_the_minimum_is_one() {
    let mut state = position(
        2,
        false,
        &[&[20, 30, 40, 50, 60, 70, 80], &[11, 12, 13, 14, 15, 16, 17]],
        [5, 1, 100, 100],
        1,
        0,
    );
    state.apply_action(play_action(20, 0)).unwrap();
    state.apply_action(play_action(30, 0)).unwrap();
    state.apply_action(END_TURN).unwrap();
    assert_eq!(state.hand_set(0).len(), 6, "one card was left to draw");
    assert!(state.draw_pile().is_empty());
    assert_eq!(state.minimum(), 1);
    state.apply_action(play_action(11, 1)).unwrap();
    state.apply_action(END_TURN).unwrap();
    assert_eq!(state.current_player(), Some(0));
}

#[test]
fn t3_pro_variant_needs_three() {
    let mut state = position(
        2,
        true,
        &[&[20, 30, 40, 50, 60, 70, 80], &[11, 12, 13, 14, 15, 16, 17]],
        [5, 1, 100, 100],
        5,
        0,
    );
    assert_illegal(
        &mut state,
        END_TURN,
        "T3",
        "you must play 3 more cards before ending the turn",
    );
    state.apply_action(play_action(20, 0)).unwrap();
    state.apply_action(play_action(30, 0)).unwrap();
    assert_illegal(
        &mut state,
        END_TURN,
        "T3",
        "you must play 1 more card before ending the turn",
    );
    state.apply_action(play_action(40, 0)).unwrap();
    state.apply_action(END_TURN).unwrap();
}

#[test]
fn t5_players_without_cards_are_skipped() {
    let mut state = position(3, false, &[&[20, 30], &[], &[50]], [5, 1, 100, 100], 0, 0);
    state.apply_action(play_action(20, 0)).unwrap();
    state.apply_action(END_TURN).unwrap();
    assert_eq!(state.current_player(), Some(2), "player 1 has no cards");
    // Player 2 plays the last card: the hand is empty, the turn ends by itself.
    state.apply_action(play_action(50, 0)).unwrap();
    assert_eq!(state.current_player(), Some(0));
}

#[test]
fn t6_lost_the_moment_the_minimum_cannot_be_reached() {
    // Mid-turn: after one play nothing fits and the minimum is two.
    let mut state = position(
        2,
        false,
        &[&[97, 50, 60, 61, 62, 63, 64], &[10, 11, 12, 13, 14, 15, 16]],
        [96, 99, 3, 2],
        5,
        0,
    );
    state.apply_action(play_action(97, 0)).unwrap();
    assert!(state.is_terminal());
    let outcome = state.outcome().unwrap();
    assert!(!outcome.won);
    assert_eq!(outcome.score, 6 + 7 + 5);
    assert_eq!(state.returns(), vec![-18.0, -18.0]);
    assert!(state.legal_actions().is_empty());
    assert_eq!(state.check_action(END_TURN).unwrap_err().rule, "T6");
}

#[test]
fn t6_lost_when_the_next_player_cannot_play() {
    let mut state = position(2, false, &[&[97, 98, 50], &[60, 61]], [96, 90, 3, 2], 0, 0);
    state.apply_action(play_action(97, 0)).unwrap();
    assert!(!state.is_terminal());
    state.apply_action(END_TURN).unwrap();
    assert!(state.is_terminal(), "player 1 holds 60 and 61: nothing fits");
    assert_eq!(state.outcome().unwrap().score, 4);
}

#[test]
fn t6_won_with_every_card_played() {
    let mut state = position(2, false, &[&[50], &[]], [40, 1, 100, 100], 0, 0);
    state.apply_action(play_action(50, 0)).unwrap();
    assert_eq!(state.outcome(), Some(Outcome { won: true, score: 0 }));
    assert_eq!(state.returns(), vec![0.0, 0.0]);
}

#[test]
fn views_hide_other_hands_and_resample_keeps_the_view() {
    let state = TheGame {
        players: 3,
        pro: false,
    }
    .new_initial_state(4);
    for p in 0..3 {
        let view = state.view(p);
        assert_eq!(view["hand"], json!(state.hand_set(p).iter().collect::<Vec<_>>()));
        assert_eq!(view["hand_sizes"], json!([6, 6, 6]));
        let text = view.to_string();
        for q in (0..3).filter(|&q| q != p) {
            let hidden: Vec<u8> = state.hand_set(q).iter().collect();
            assert!(!text.contains(&json!(hidden).to_string()));
        }
        let r = state.resample(p, 8).expect("the state resamples");
        assert_eq!(r.view(p), view);
        assert_ne!(r, state);
    }
}

#[test]
fn moves_round_trip_and_malformed_ones_are_explained() {
    let state = TheGame::default().new_initial_state(2);
    for action in 0..NUM_ACTIONS as Action {
        assert_eq!(
            state.action_from_move(&state.action_to_move(action)).unwrap(),
            action
        );
    }
    for (mv, text) in [
        (json!({"type": "play", "card": 1, "pile": 0}), "cards are 2-99"),
        (json!({"type": "play", "card": 5, "pile": 4}), "piles are 0-3"),
        (json!({"type": "play", "card": 5}), "missing field `pile`"),
        (json!({"type": "draw"}), "unknown variant `draw`"),
        (json!({"type": "end_turn", "x": 1}), "unknown field `x`"),
        (
            json!({"type": "play", "card": 5, "pile": 0, "x": 1}),
            "unknown field `x`",
        ),
        (json!({"type": "play", "card": 100, "pile": 0}), "cards are 2-99"),
        (json!({"type": "play", "card": 5, "pile": -1}), "piles are 0-3"),
        (json!({"type": "play", "card": 1e300, "pile": 0}), "invalid type"),
    ] {
        let err = state.action_from_move(&mv).unwrap_err().to_string();
        assert!(err.contains(text), "{err}");
    }
}
