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

/// A running state as JSON, to be changed field by field.
fn running_json() -> serde_json::Value {
    let mut state = TheGame::default().new_initial_state(3);
    let legal = state.legal_actions();
    state.apply_action(legal[0]).unwrap();
    serde_json::from_str(&state.to_json()).unwrap()
}

#[track_caller]
fn assert_refused(json: &serde_json::Value, text: &str) {
    let err = TheGame::default()
        .state_from_json(&json.to_string())
        .expect_err("the state is refused");
    assert!(matches!(err, crate::Error::InvalidState(_)), "{err}");
    assert!(err.to_string().contains(text), "{err}");
}

#[test]
fn finding_played_this_turn_250_is_accepted() {
    // T3: a counter out of what play can reach is refused at the boundary.
    let mut json = running_json();
    json["played_this_turn"] = json!(250);
    assert_refused(&json, "played_this_turn 250");
}

#[test]
fn finding_counters_out_of_reach_are_refused() {
    let base = running_json();
    let hands = base["hands"].clone();
    let cases: Vec<(&str, serde_json::Value, &str)> = vec![
        (
            "played_this_turn",
            json!(2),
            "played_this_turn 2, but only 1 cards are on the piles",
        ),
        ("played_this_turn", json!(0), "add up to the hand size 7"),
        ("current", json!(2), "seats are 0-1"),
        ("current", json!(1), "at most 0 can have been played"),
        (
            "pile_sizes",
            json!([0, 0, 0, 0]),
            "pile sizes [0, 0, 0, 0] add up to 0",
        ),
        ("pile_sizes", json!([50, 50, 0, 0]), "add up to 100"),
        ("tops", json!([1, 1, 100, 100]), "must be a played card"),
        ("hands", json!([hands[0], []]), "pile sizes"),
        ("hands", json!([hands[0], hands[0]]), "is also elsewhere"),
        (
            "outcome",
            json!({"won": false, "score": 97}),
            "the position gives null",
        ),
        (
            "outcome",
            json!({"won": true, "score": 0}),
            "the position gives null",
        ),
        ("history", json!([5000]), "actions are 0-392"),
        ("rules", json!({"players": 3, "pro": false}), "options"),
    ];
    for (field, value, text) in cases {
        let mut json = base.clone();
        json[field] = value;
        assert_refused(&json, text);
    }
}

#[test]
fn finding_hand_sizes_by_player_count_and_the_finished_turns() {
    // Draw pile with cards: every hand but the mover's is full (T3).
    let mut json = running_json();
    let moved = json["hands"][1].as_array().unwrap()[0].clone();
    json["hands"][1].as_array_mut().unwrap().remove(0);
    json["draw_pile"].as_array_mut().unwrap().push(moved);
    assert_refused(&json, "every hand is refilled to 7");
    // A hand larger than the hand size (T2): three players hold six at most.
    let state = json!({
        "rules": {"players": 3, "pro": false},
        "draw_pile": [],
        "hands": [[20, 30, 40, 50, 60, 70, 80], [11], [12]],
        "tops": [5, 1, 100, 100],
        "pile_sizes": [89, 0, 0, 0],
        "current": 0, "played_this_turn": 0, "outcome": null, "history": [],
    });
    let err = TheGame {
        players: 3,
        pro: false,
    }
    .state_from_json(&state.to_string())
    .unwrap_err();
    assert!(err.to_string().contains("a hand holds at most 6 (T2)"), "{err}");
    // While the draw pile has cards, every finished turn played the minimum (T3).
    let mut json = running_json();
    json["played_this_turn"] = json!(0);
    json["current"] = json!(1);
    // Player 0 played one card and drew one: a turn of one card.
    let card = json["draw_pile"].as_array_mut().unwrap().pop().unwrap();
    json["hands"][0].as_array_mut().unwrap().push(card);
    assert_refused(&json, "every turn plays at least 2");
}

#[test]
fn a_running_game_with_no_legal_action_is_refused() {
    // Player 0 is to move, has not played the minimum and nothing fits: the game is lost,
    // so a state saying it runs is refused (T6).
    let state = json!({
        "rules": {"players": 2, "pro": false},
        "draw_pile": [],
        "hands": [[50, 60], [70]],
        "tops": [96, 99, 3, 2],
        "pile_sizes": [50, 20, 15, 10],
        "current": 0, "played_this_turn": 0, "outcome": null, "history": [],
    });
    let err = TheGame::default()
        .state_from_json(&state.to_string())
        .unwrap_err();
    assert!(
        err.to_string().contains("the position gives won=false, score=3"),
        "{err}"
    );
}

#[test]
fn finding_result_text_says_won_or_cards_left() {
    // T6, R1: cooperative; the line says whether the players won and what is left.
    let mut state = position(2, false, &[&[97, 98, 50], &[60, 61]], [96, 90, 3, 2], 0, 0);
    assert_eq!(state.result_text(), None);
    state.apply_action(play_action(97, 0)).unwrap();
    state.apply_action(END_TURN).unwrap();
    assert_eq!(
        state.result_text().as_deref(),
        Some("very good: only 4 cards left (4 in hands, 0 in the draw pile)")
    );
    assert_eq!(state.returns(), vec![-4.0, -4.0]);
    let mut state = position(2, false, &[&[50], &[]], [40, 1, 100, 100], 0, 0);
    state.apply_action(play_action(50, 0)).unwrap();
    assert_eq!(
        state.result_text().as_deref(),
        Some("the players win: every card is played")
    );
    let lost = position(
        2,
        false,
        &[&[97, 50, 60, 61, 62, 63, 64], &[10, 11, 12, 13, 14, 15, 16]],
        [96, 99, 3, 2],
        5,
        0,
    );
    let mut lost = lost;
    lost.apply_action(play_action(97, 0)).unwrap();
    assert_eq!(
        lost.result_text().as_deref(),
        Some("the players lose: 18 cards left (13 in hands, 5 in the draw pile)")
    );
}

#[test]
fn every_error_code_appears_with_its_params_and_german_reason() {
    let mut state = position(
        2,
        false,
        &[&[53, 43, 46, 52, 70, 80, 90], &[10, 11, 12, 13, 14, 15, 16]],
        [63, 1, 100, 100],
        5,
        0,
    );
    let code = |s: &State, a: Action| s.check_action(a).unwrap_err();
    let e = code(&state, play_action(52, 0));
    assert_eq!((e.rule, e.code), ("T4", "pile_wrong_direction"));
    assert_eq!(e.params["card"], json!(52));
    assert_eq!(e.params["pile"], json!(0));
    assert_eq!(e.params["top"], json!(63));
    assert_eq!(
        e.reason_de,
        "Die 52 auf dem aufsteigenden Stapel 1 mit der 63 oben ist weder höher noch genau 10 weniger"
    );
    let e = code(&state, play_action(20, 3));
    assert_eq!(e.code, "card_not_in_hand");
    assert_eq!(
        (e.params["card"].clone(), e.params["player"].clone()),
        (json!(20), json!(0))
    );
    assert!(e.reason_de.contains("keine Handkarte"), "{}", e.reason_de);
    let e = code(&state, END_TURN);
    assert_eq!((e.rule, e.code), ("T3", "minimum_not_played"));
    assert_eq!(e.params["missing"], json!(2));
    assert_eq!(
        e.reason_de,
        "Du musst noch 2 Karten legen, bevor du den Zug beenden darfst"
    );
    let e = code(&state, 393);
    assert_eq!(e.code, "no_such_action");
    state = position(2, false, &[&[50], &[]], [40, 1, 100, 100], 0, 0);
    state.apply_action(play_action(50, 0)).unwrap();
    let e = code(&state, END_TURN);
    assert_eq!((e.rule, e.code), ("T6", "game_over"));
    assert_eq!(e.reason_de, "Das Spiel ist vorbei");
}

#[test]
fn option_specs_agree_with_from_options() {
    let game = TheGame::default();
    let specs = game.option_specs();
    let names: Vec<&str> = specs.iter().map(|s| s.name).collect();
    assert_eq!(names, ["players", "pro"]);
    assert_eq!(specs[1].name_de, Some("Profivariante"));
    for spec in &specs {
        let one = |v: serde_json::Value| {
            let mut map = serde_json::Map::new();
            map.insert(spec.name.to_string(), v);
            TheGame::from_options(&map)
        };
        let default = one(spec.default.clone()).unwrap();
        assert_eq!(default.options()[spec.name], spec.default);
        assert_eq!(TheGame::default().options()[spec.name], spec.default);
        for v in spec.allowed.clone().unwrap() {
            assert_eq!(one(v.clone()).unwrap().options()[spec.name], v);
        }
        if let (Some(min), Some(max)) = (spec.min, spec.max) {
            assert!(one(json!(min - 1)).is_err() && one(json!(max + 1)).is_err());
        }
        assert!(one(json!("x")).is_err());
    }
}

#[test]
fn piles_are_named_as_the_board_shows_them() {
    let names: Vec<String> = (0..4).map(pile_name).collect();
    assert_eq!(
        names,
        [
            "ascending pile 1",
            "ascending pile 2",
            "descending pile 1",
            "descending pile 2"
        ]
    );
    let state = TheGame::default().new_initial_state(2);
    assert_eq!(
        state.action_to_string(play_action(52, 3)),
        "play 52 on descending pile 2"
    );
    assert!(
        state.render().starts_with("ascending pile 1"),
        "{}",
        state.render()
    );
}

#[test]
fn views_of_a_seat_and_of_spectators() {
    let state = TheGame {
        players: 3,
        pro: false,
    }
    .new_initial_state(4);
    let public = state.public_view();
    assert_eq!(public["player"], json!(null));
    assert_eq!(public["hand"], json!(null));
    assert_eq!(public["hand_sizes"], json!([6, 6, 6]));
    let view = state.view(1);
    let text = String::from_utf8(state.view_json(Some(1))).unwrap();
    let keys: Vec<&str> = [
        "game",
        "player",
        "players",
        "pro",
        "current_player",
        "piles",
        "played_cards",
        "draw_pile_size",
        "hand",
        "hand_sizes",
        "played_this_turn",
        "minimum",
        "outcome",
    ]
    .into_iter()
    .filter(|k| text.contains(&format!("\"{k}\":")))
    .collect();
    assert_eq!(keys.len(), 13, "{text}");
    assert_eq!(view.as_object().unwrap().len(), 13);
    assert!(
        text.starts_with(r#"{"game":"the_game","player":1,"players":3,"pro":false,"current_player":0,"#),
        "{text}"
    );
    assert_eq!(view["player"], json!(1));
    // A fresh descending pile takes every card of the hand, none by the backward trick.
    assert_eq!(
        view["piles"][2],
        json!({"direction": "descending", "top": 100, "cards_played": 0, "takes": view["hand"], "backward": []})
    );
    assert_eq!(
        public["piles"][2],
        json!({"direction": "descending", "top": 100, "cards_played": 0})
    );
    assert_eq!(
        state.information_state_key(1),
        serde_json::to_vec(&state.view_of(Some(1))).unwrap(),
        "the key is the view's JSON in declaration order"
    );
    // The view reads back through its type, and unknown fields are refused.
    let typed: View = serde_json::from_value(view.clone()).unwrap();
    assert_eq!(typed, super::view::view_with_facts(&state, Some(1)));
    let mut extra = view;
    extra["x"] = json!(1);
    assert!(serde_json::from_value::<View>(extra).is_err());
}

#[test]
fn state_from_view_respects_the_stuck_player_and_the_player_to_move() {
    // Lost: player 1 could play nothing; a resample for player 0 must give player 1
    // only cards that fit no pile (T6).
    let mut state = position(2, false, &[&[97, 98, 50], &[60, 61]], [96, 90, 3, 2], 0, 0);
    state.apply_action(play_action(97, 0)).unwrap();
    state.apply_action(END_TURN).unwrap();
    let view = state.view_of(Some(0));
    let lost_view = view.clone();
    assert_eq!(view.outcome.unwrap().stuck_player, Some(1));
    for seed in 0..50 {
        let r = state.resample(0, seed).unwrap();
        assert_eq!(r.view_of(Some(0)), view);
        assert!(r.hand_set(1).iter().all(|c| (0..4).all(|p| !r.fits(c, p))));
    }
    // Running, minimum not reached: the player to move holds a card that fits.
    let state = position(2, false, &[&[20, 30], &[97, 4]], [96, 90, 3, 2], 0, 1);
    for seed in 0..50 {
        let r = state.resample(0, seed).unwrap();
        assert!(r.hand_set(1).iter().any(|c| (0..4).any(|p| r.fits(c, p))));
        assert!(!r.legal_actions().is_empty());
    }
    // A view whose player to move can hold no fitting card is refused: the lost game
    // above, claimed to be still running with player 1 to move.
    let mut view = lost_view;
    view.outcome = None;
    view.current_player = Some(1);
    let err = TheGame::default().state_from_view(&view, 1).unwrap_err();
    assert!(
        err.to_string().contains("can hold no card that fits a pile"),
        "{err}"
    );
}

#[test]
fn impossible_views_are_refused() {
    type Change = fn(&mut View);
    let state = TheGame {
        players: 3,
        pro: false,
    }
    .new_initial_state(5);
    let mut s = state.clone();
    for _ in 0..5 {
        let a = s.legal_actions()[0];
        s.apply_action(a).unwrap();
    }
    let game = TheGame {
        players: 3,
        pro: false,
    };
    let view = s.view_of(Some(1));
    assert!(game.state_from_view(&view, 0).is_ok());
    let cases: Vec<(Change, &str)> = vec![
        (|v| v.players = 4, "players=4"),
        (|v| v.player = Some(3), "seats are 0-2"),
        (|v| v.hand = None, "hand is null"),
        (|v| v.hand_sizes.push(6), "one per seat"),
        (|v| v.piles[0].cards_played += 1, "add up to"),
        (
            |v| v.piles[0].direction = Direction::Descending,
            "piles 0 and 1 ascend",
        ),
        (|v| v.draw_pile_size += 1, "unseen"),
        (|v| v.minimum = 3, "minimum 3"),
        (|v| v.current_player = None, "a running game has a player to move"),
        (|v| v.current_player = Some(7), "seats are 0-2"),
        (|v| v.played_this_turn = 250, "played_this_turn 250"),
        (|v| v.hand_sizes[1] = 5, "hand_sizes says player 1 holds 5"),
        (
            |v| {
                v.outcome = Some(ViewOutcome {
                    won: false,
                    score: 1,
                    stuck_player: Some(0),
                });
                v.current_player = None;
            },
            "outcome score 1",
        ),
        (
            |v| {
                let top = v.piles[0].top;
                v.piles[0].top = if top == 1 { 2 } else { 1 };
            },
            "pile",
        ),
    ];
    for (change, text) in cases {
        let mut bad = view.clone();
        change(&mut bad);
        let err = game.state_from_view(&bad, 0).unwrap_err();
        assert!(matches!(err, crate::Error::InvalidView(_)), "{err}");
        assert!(err.to_string().contains(text), "{text}: {err}");
    }
}

#[test]
fn a_constrained_hand_is_uniform_among_the_hands_the_view_allows() {
    // Player 1 is to move with nothing played yet, so holds a card that fits (T6). Of the
    // nine cards player 0 cannot see only 88 fits (on 98, exactly 10 lower): player 1's
    // seven cards are 88 and six of the other eight, each of the 28 such hands alike.
    let state = position(
        2,
        false,
        &[&[99, 87, 13, 12, 50, 51, 52], &[88, 40, 41, 42, 43, 44, 45]],
        [98, 97, 3, 2],
        2,
        1,
    );
    let mut counts = std::collections::BTreeMap::new();
    let n = 2_800;
    for seed in 0..n {
        let r = state.resample(0, seed).unwrap();
        assert!(
            r.hand_set(1).contains(88),
            "player 1 must hold the one fitting card"
        );
        *counts
            .entry(r.hand_set(1).iter().collect::<Vec<_>>())
            .or_insert(0u32) += 1;
    }
    assert_eq!(counts.len(), 28);
    let expected = f64::from(n as u32) / 28.0;
    let chi2: f64 = counts
        .values()
        .map(|&c| (f64::from(c) - expected).powi(2) / expected)
        .sum();
    assert!(chi2 < 27.0 + 6.0 * 54f64.sqrt(), "chi2 {chi2:.1}");
}

#[test]
fn schemas_describe_the_view_and_the_moves() {
    use crate::dynamic::DynGame;
    let game = TheGame::default();
    let view = DynGame::view_schema(&game);
    let text = view.to_string();
    assert_eq!(view["title"], json!("TheGameView"));
    assert_eq!(view["additionalProperties"], json!(false));
    for name in [
        "TheGamePile",
        "TheGameOutcome",
        "TheGameCards",
        "TheGameDirection",
    ] {
        assert!(text.contains(name), "{name} in {text}");
    }
    assert!(
        view["properties"]["played_cards"]
            .to_string()
            .contains("TheGameCards")
    );
    assert!(
        view["properties"]["hand"]["description"]
            .as_str()
            .unwrap()
            .contains("null in the public view")
    );
    let moves = DynGame::move_schema(&game);
    let text = moves.to_string();
    assert_eq!(moves["title"], json!("TheGameMove"));
    for part in [
        "\"play\"",
        "\"end_turn\"",
        "\"minimum\":2",
        "\"maximum\":99",
        "\"maximum\":3",
    ] {
        assert!(text.contains(part), "{part} in {text}");
    }
}

/// T4 is written twice in the engine: card by card ([`rules::fits`], the move check) and
/// as a mask of every card a pile takes ([`rules::takes`], asked after every action for
/// "can the player go on" and by the heuristic). Both must agree for every pile, every
/// top a pile can show (the starts 1 and 100, a played card 2-99) and every card.
#[test]
fn t4_the_mask_of_a_pile_agrees_with_the_move_check() {
    for pile in 0..NUM_PILES {
        for top in 1..=100u8 {
            let mask = rules::takes(top, pile);
            for card in 2..=99u8 {
                assert_eq!(
                    (mask >> card) & 1 == 1,
                    rules::fits(card, top, pile),
                    "pile {pile}, top {top}, card {card}"
                );
            }
        }
    }
}
