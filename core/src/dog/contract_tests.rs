//! The engine contract v2 for Dog: typed views that are information states,
//! `state_from_view`, the move enum, coded errors, metadata, the simultaneous exchange,
//! and one test per finding of issue 9 (each failed on the code before it).

use serde_json::{Value, json};

use super::*;
use crate::bots::RandomBot;
use crate::error::Error;
use crate::game::{Action, Game, GameState};

/// States along seeded random games, every `every` actions, until the end.
fn random_states(seed: u64, every: usize) -> Vec<State> {
    let mut state = Dog::default().new_initial_state(seed);
    let mut bot = RandomBot::new(seed);
    let mut out = vec![state.clone()];
    let mut steps = 0;
    while let Some(a) = bot.step(&state) {
        state.apply_action(a).unwrap();
        steps += 1;
        if steps % every == 0 {
            out.push(state.clone());
        }
    }
    out.push(state);
    out
}

/// Plays on with random moves to the end (or `cap` actions); panics on any refusal.
fn play_out(mut state: State, seed: u64, cap: usize) -> State {
    let mut bot = RandomBot::new(seed);
    for _ in 0..cap {
        match bot.step(&state) {
            Some(a) => state.apply_action(a).unwrap(),
            None => break,
        }
    }
    state
}

fn json_of(state: &State) -> Value {
    serde_json::from_str(&state.to_json()).unwrap()
}

fn read(v: &Value) -> crate::error::Result<State> {
    Dog::default().state_from_json(&v.to_string())
}

/// A play-phase position: marbles (id, place, protected), the hands, the rest in the pile.
fn position(marbles: &[(usize, Value)], hands: [&[&str]; 4], current: u8) -> Value {
    let mut all = vec![json!({"place": "kennel", "protected": false}); 16];
    for (m, place) in marbles {
        all[*m] = json!({"place": place, "protected": false});
    }
    let mut counts: Vec<usize> = (0..14).map(|i| Card::from_index(i).copies() as usize).collect();
    for hand in hands {
        for c in hand {
            counts[c.parse::<Card>().unwrap().index()] -= 1;
        }
    }
    let pile: Vec<Card> = (0..14)
        .flat_map(|i| std::iter::repeat_n(Card::from_index(i), counts[i]))
        .collect();
    json!({
        "rules": {"max_turns": 10000}, "marbles": all, "hands": hands, "pile": pile,
        "discards": [], "reshuffle_seed": 1, "reshuffles": 0, "round": 0, "phase": "play",
        "current": current, "exchange": [null, null, null, null],
        "received": [null, null, null, null], "seven": null,
        "sat_out": [false, false, false, false], "turns": 0, "outcome": null, "history": []
    })
}

// ---- Findings of issue 9 -------------------------------------------------------------

#[test]
fn finding_a_marble_off_the_board_is_refused_not_a_panic() {
    let mut v = json_of(&Dog::default().new_initial_state(1));
    v["marbles"][3]["place"] = json!({"ring": 80});
    let err = read(&v).unwrap_err().to_string();
    assert!(
        err.contains("ring field 80 does not exist (fields are 0-63)"),
        "{err}"
    );
    v["marbles"][3]["place"] = json!({"goal": 200});
    assert!(read(&v).unwrap_err().to_string().contains("goal fields are 0-3"));
    // Serde alone (as pickle does) checks too.
    assert!(serde_json::from_value::<State>(v).is_err());
}

#[test]
fn finding_inconsistent_exchange_bookkeeping_is_refused() {
    // Player 0 gave a K to player 2, who neither holds nor played one: no such state.
    let mut v = position(&[], [&["A", "3"], &["2"], &["5"], &["6"]], 0);
    v["given"] = json!(["K", null, null, null]);
    v["received"] = json!([null, null, "K", null]);
    let err = read(&v).unwrap_err().to_string();
    assert!(err.contains("gave K"), "{err}");
    // Received and given must match.
    let mut v = position(&[], [&["A", "3"], &["2"], &["5"], &["6"]], 0);
    v["given"] = json!(["5", null, null, null]);
    assert!(read(&v).unwrap_err().to_string().contains("received"));
    // A set-up position with only part of the exchange known is fine, and resamples.
    let mut v = position(&[], [&["A", "3"], &["2"], &["5", "K"], &["6"]], 0);
    v["given"] = json!(["K", null, null, null]);
    v["received"] = json!([null, null, "K", null]);
    let state = read(&v).unwrap();
    for p in 0..4 {
        let r = state.resample(p, 3).unwrap();
        assert_eq!(r.view_of(Some(p)), state.view_of(Some(p)));
        // D4: the K given stays with the partner while it is surely there.
        if p == 0 {
            assert!(r.d.hands[2].has(Card::KING));
        }
    }
    // A seat that sat out holds no cards.
    let mut v = position(&[], [&["A", "3"], &["2"], &["5"], &["6"]], 0);
    v["sat_out"] = json!([false, true, false, false]);
    assert!(read(&v).unwrap_err().to_string().contains("sat out"));
}

#[test]
fn finding_a_team_with_all_eight_marbles_home_has_won() {
    let home: Vec<(usize, Value)> = [0, 1, 2, 3, 8, 9, 10, 11]
        .iter()
        .map(|&m| (m, json!({"goal": m % 4})))
        .collect();
    let v = position(&home, [&["A"], &["2"], &["5"], &["6"]], 1);
    let err = read(&v).unwrap_err().to_string();
    assert!(err.contains("the game is over"), "{err}");
    // A stored winner is never trusted: 9 is refused, the derived outcome is accepted.
    let mut v = v;
    v["phase"] = json!("over");
    v["outcome"] = json!({"winner": 9, "points": [16, 0], "reason": "all_home"});
    assert!(read(&v).is_err());
    v["outcome"] = json!({"winner": 0, "points": [16, 0], "reason": "all_home"});
    let state = read(&v).unwrap();
    assert_eq!(state.returns(), vec![1.0, -1.0, 1.0, -1.0]);
    assert!(state.is_terminal());
}

#[test]
fn finding_resample_does_not_leak_hands_that_sat_out() {
    // Find a position where a seat other than 0 has discarded cards face down (D5).
    let (state, q) = (0..200)
        .flat_map(|seed| random_states(seed, 7))
        .find_map(|s| {
            let q = (1..4).find(|&q| !s.d.face_down[q].is_empty() && !s.d.pile.is_empty())?;
            let x = s.d.face_down[q].cards().next()?;
            s.d.pile.iter().any(|&y| y != x).then_some((s, q))
        })
        .expect("some seat sits out");
    // Swap a face-down card of seat q with a pile card of another kind: seat 0 sees nothing.
    let mut other = state.clone();
    let x = state.d.face_down[q].cards().next().unwrap();
    let i = state.d.pile.iter().position(|&y| y != x).unwrap();
    let y = state.d.pile[i];
    other.d.pile[i] = x;
    let j = other.d.discards.iter().position(|&c| c == x).unwrap();
    other.d.discards[j] = y;
    other.d.face_down[q].take(x);
    other.d.face_down[q].add(y);
    let other = read(&json_of(&other)).unwrap();
    assert_ne!(state, other);
    assert_eq!(state.view_of(Some(0)), other.view_of(Some(0)));
    for seed in 0..5 {
        assert_eq!(state.resample(0, seed).unwrap(), other.resample(0, seed).unwrap());
    }
}

#[test]
fn finding_views_are_information_states() {
    let mut state = Dog::default().new_initial_state(4);
    // The public view shows no hand and no exchange card; the seat field is null.
    let public = state.public_view();
    assert!(public["player"].is_null() && public["hand"].is_null() && public["own_face_down"].is_null());
    assert_eq!(public["hand_sizes"], json!([6, 6, 6, 6]));
    // D4: rounds count from 1, hands of 6.
    assert_eq!(state.view(0)["round"], json!(1));
    assert_eq!(state.view(0)["hand_size"], json!(6));
    // The exchange: own pick, who picked.
    let pick = state.legal_actions()[0];
    state.apply_action(pick).unwrap();
    let v = state.view(0);
    assert_eq!(v["exchange"]["picked"], json!([true, false, false, false]));
    assert!(v["exchange"]["given"].is_string());
    assert!(state.view(1)["exchange"]["given"].is_null());
    while state.phase() == Phase::Exchange {
        let a = state.legal_actions()[0];
        state.apply_action(a).unwrap();
    }
    // A card played face up is in every view, with who played it this round.
    let first = state.current_player().unwrap();
    let before = state.view_of(Some(1)).face_up.len();
    let a = state.legal_actions()[0];
    let card = match codec::Decoded::decode(a).unwrap().to_move() {
        Move::SitOut {} => None,
        _ => Some(()),
    };
    state.apply_action(a).unwrap();
    if card.is_some() {
        assert_eq!(state.view_of(Some(1)).face_up.len(), before + 1);
        assert_eq!(state.view_of(Some(1)).played[first].len(), 1);
    }
    // The parts of a seven so far are in the view (they were only in the history before).
    let mut s = read(&position(
        &[(0, json!({"ring": 5})), (1, json!({"ring": 20}))],
        [&["7"], &["2"], &["5"], &["6"]],
        0,
    ))
    .unwrap();
    let part = s
        .action_from_move(&json!({"type": "seven", "card": "7", "marble": 0, "steps": 3}))
        .unwrap();
    s.apply_action(part).unwrap();
    let v = s.view_of(Some(2));
    assert_eq!(
        v.seven.unwrap().parts,
        vec![SevenPart {
            marble: 0,
            steps: 3,
            goal: false
        }]
    );
}

#[test]
fn finding_the_exchange_is_simultaneous() {
    let start = Dog::default().new_initial_state(9);
    assert_eq!(start.seats_to_move(), vec![0, 1, 2, 3]);
    let picks: Vec<Action> = (0..4)
        .map(|p| {
            let mut out = Vec::new();
            start.legal_actions_for(p, &mut out);
            out[out.len() / 2]
        })
        .collect();
    let mut results = Vec::new();
    for order in [[0, 1, 2, 3], [3, 2, 1, 0], [2, 0, 3, 1], [1, 3, 0, 2]] {
        let mut s = start.clone();
        for (n, &p) in order.iter().enumerate() {
            if n == 1 {
                // The first seat in order that has not picked stays `current_player`.
                let first = (0..4).find(|&q| !order[..1].contains(&q)).unwrap();
                assert_eq!(s.current_player(), Some(first));
                let err = s.check_action_for(order[0], picks[order[0]]).unwrap_err();
                assert_eq!(err.code, "already_picked");
                assert_eq!(
                    s.apply_action_for(order[0], picks[order[0]]).unwrap_err().code,
                    "already_picked"
                );
            }
            s.check_action_for(p, picks[p]).unwrap();
            s.apply_action_for(p, picks[p]).unwrap();
        }
        assert_eq!(s.phase(), Phase::Play);
        let mut v = json_of(&s);
        v["history"] = json!([]);
        v["actors"] = json!([]);
        results.push((v, (0..4).map(|p| s.view_of(Some(p))).collect::<Vec<_>>()));
    }
    assert!(results.windows(2).all(|w| w[0] == w[1]));
    // Who sees which pick: own always, the partner's once the exchange is complete.
    let mut s = start.clone();
    for p in [2, 0, 3, 1] {
        s.apply_action_for(p, picks[p]).unwrap();
    }
    let seen = s.history_for(0);
    assert_eq!(seen, vec![Some(picks[2]), Some(picks[0]), None, None]);
    // In play, only the current player moves.
    let other = (s.current_player().unwrap() + 1) % 4;
    let a = s.legal_actions()[0];
    assert_eq!(s.check_action_for(other, a).unwrap_err().code, "not_your_turn");
}

#[test]
fn finding_the_result_in_words() {
    let home: Vec<(usize, Value)> = [1, 2, 3, 8, 9, 10, 11]
        .iter()
        .map(|&m| (m, json!({"goal": m % 4})))
        .chain([(0, json!({"ring": 60}))])
        .collect();
    let mut s = read(&position(&home, [&["5"], &["2"], &["5"], &["6"]], 0)).unwrap();
    let a = s
        .action_from_move(&json!({"type": "move", "card": "5", "marble": 0, "steps": 5, "goal": true}))
        .unwrap();
    s.apply_action(a).unwrap();
    assert_eq!(
        s.result_text().unwrap(),
        "team 1 (red: player 1, green: player 3) wins: all eight marbles home; points 16:0"
    );
    let short = Dog { max_turns: 3 };
    let mut s = short.new_initial_state(1);
    let mut bot = RandomBot::new(1);
    while let Some(a) = bot.step(&s) {
        s.apply_action(a).unwrap();
    }
    assert_eq!(
        s.result_text().unwrap(),
        "no winner: stopped after 3 turns; a point per marble home: 0:0"
    );
    assert_eq!(s.returns(), vec![0.0; 4]);
}

// ---- The view and state_from_view ----------------------------------------------------

#[test]
fn resampled_states_keep_the_view_and_play_on() {
    let game = Dog::default();
    for seed in 0..12 {
        for (i, state) in random_states(seed, 41).into_iter().enumerate() {
            for p in 0..4 {
                let r = state.resample(p, seed * 1000 + i as u64).unwrap();
                assert_eq!(r.view_of(Some(p)), state.view_of(Some(p)), "seed {seed} #{i}");
                assert_eq!(r.information_state_key(p), state.information_state_key(p));
                assert!(r.history().is_empty() && r.history_for(p).is_empty());
                assert_eq!(game.state_from_json(&r.to_json()).unwrap(), r);
                if i % 5 == 0 && p == 1 {
                    let end = play_out(r, seed, 100_000);
                    assert!(end.is_terminal());
                    end.render();
                }
            }
            let public = game.state_from_view(&state.view_of(None), seed).unwrap();
            assert_eq!(public.view_of(None), state.view_of(None));
        }
    }
}

#[test]
fn states_with_equal_views_give_equal_resamples() {
    // Swap a card between the hands of seats 1 and 3: seat 0 cannot tell the difference.
    let mut swapped = 0;
    for state in (0..6).flat_map(|seed| random_states(seed, 31)) {
        let (h1, h3) = (state.d.hands[1], state.d.hands[3]);
        let Some((x, y)) = h1
            .kinds()
            .find_map(|x| h3.kinds().find(|&y| y != x).map(|y| (x, y)))
        else {
            continue;
        };
        let mut other = state.clone();
        other.d.hands[1].take(x);
        other.d.hands[1].add(y);
        other.d.hands[3].take(y);
        other.d.hands[3].add(x);
        // The exchange bookkeeping may forbid it (a card given must stay with the partner).
        let Ok(other) = read(&json_of(&other)) else {
            continue;
        };
        assert_ne!(state, other);
        assert_eq!(state.view_of(Some(0)), other.view_of(Some(0)));
        assert_eq!(state.information_state_key(0), other.information_state_key(0));
        assert_eq!(state.resample(0, 7).unwrap(), other.resample(0, 7).unwrap());
        assert_eq!(state.resample(2, 7).unwrap(), other.resample(2, 7).unwrap());
        swapped += 1;
    }
    assert!(swapped > 20, "{swapped}");
}

#[test]
fn an_unseen_card_lands_in_each_other_hand_about_as_often_as_it_should() {
    // After the exchange, seat 0 sees its own hand; the others' hands are drawn from the
    // unseen cards. Each other hand should get a given unseen kind in proportion to its size.
    let mut state = Dog::default().new_initial_state(5);
    while state.phase() == Phase::Exchange {
        let a = state.legal_actions()[0];
        state.apply_action(a).unwrap();
    }
    let own = state.d.hands[0];
    let kind = (0..14).map(Card::from_index).find(|&c| !own.has(c)).unwrap();
    let n = 400;
    let mut counts = [0usize; 4];
    for seed in 0..n {
        let r = state.resample(0, seed).unwrap();
        for (p, count) in counts.iter_mut().enumerate().skip(1) {
            *count += r.d.hands[p].0[kind.index()] as usize;
        }
    }
    // Unseen: 110 - 6 = 104 cards, of which `copies` of `kind`; each other hand holds 6,
    // one of partner's pinned (the card given), so 5 random for seat 2.
    let expect = |size: f64| n as f64 * size * f64::from(kind.copies()) / 103.0;
    for (p, size) in [(1, 6.0), (2, 5.0), (3, 6.0)] {
        let got = counts[p] as f64;
        assert!(
            (got - expect(size)).abs() < expect(size) * 0.35,
            "seat {p}: {got} vs {}",
            expect(size)
        );
    }
}

#[test]
fn impossible_views_are_refused_with_a_reason() {
    let state = Dog::default().new_initial_state(3);
    let good = state.view(0);
    let game = Dog::default();
    let try_view = |change: &dyn Fn(&mut Value)| {
        let mut v = good.clone();
        change(&mut v);
        let view: View = serde_json::from_value(v).map_err(|e| e.to_string())?;
        game.state_from_view(&view, 1)
            .map(|_| ())
            .map_err(|e| e.to_string())
    };
    try_view(&|_| {}).unwrap();
    for (change, text) in [
        (
            &(|v: &mut Value| v["player"] = json!(7)) as &dyn Fn(&mut Value),
            "seats are 0-3",
        ),
        (&|v| v["round"] = json!(0), "from 1"),
        (&|v| v["hand_sizes"][1] = json!(200), "at most 6"),
        (&|v| v["pile_size"] = json!(3), "unseen"),
        (&|v| v["marbles"][3]["marble"] = json!(4), "marbles[3]"),
        (
            &|v| v["marbles"][3]["place"] = json!({"ring": 99}),
            "ring field 99",
        ),
        (&|v| v["turns"] = json!(4_000_000_000u32), "exceed max_turns"),
        (&|v| v["current_player"] = json!(2), "first seat"),
        (&|v| v["first_player"] = json!(2), "fit together"),
        (
            &|v| v["outcome"] = json!({"winner": 1, "points": [0, 16], "reason": "all_home"}),
            "over",
        ),
        (&|v| v["game"] = json!("chess"), "dog view"),
        (
            &|v| v["hand"] = json!(["A", "A", "A", "A", "A", "A", "A", "A", "A"]),
            "more than 8",
        ),
        (&|v| v["extra"] = json!(1), "unknown field"),
    ] {
        let err = try_view(change).unwrap_err();
        assert!(err.contains(text), "'{err}' does not say '{text}'");
    }
}

// ---- Moves, errors, metadata ---------------------------------------------------------

#[test]
fn moves_are_one_enum_and_round_trip_for_every_legal_action() {
    for seed in 0..6 {
        for state in random_states(seed, 13) {
            for &a in &state.legal_actions() {
                let mv = state.action_to_move(a);
                assert_eq!(state.action_from_move(&mv).unwrap(), a, "{mv}");
            }
        }
    }
    let state = Dog::default().new_initial_state(1);
    for (m, text) in [
        (json!({"type": "sit_out", "x": 1}), "unknown field `x`"),
        (
            json!({"type": "move", "card": "5", "marble": 16, "steps": 5}),
            "marbles are 0-15",
        ),
        (
            json!({"type": "move", "card": "5", "marble": -1, "steps": 5}),
            "marbles are 0-15",
        ),
        (
            json!({"type": "move", "card": "5", "marble": 1, "steps": 99}),
            "is no move",
        ),
        (
            json!({"type": "move", "card": "5", "as": "6", "marble": 1}),
            "no joker",
        ),
        (
            json!({"type": "move", "card": "JK", "marble": 1, "steps": 5}),
            "'as'",
        ),
        (
            json!({"type": "seven", "card": "7", "marble": 1, "steps": 0}),
            "1-7",
        ),
        (
            json!({"type": "jack", "card": "J", "marble": 1, "with": 99}),
            "marbles are 0-15",
        ),
        (json!({"type": "start", "card": "Q"}), "only A, K or JK"),
    ] {
        let err = state.action_from_move(&m).unwrap_err();
        assert!(matches!(err, Error::InvalidMove(_)));
        assert!(err.to_string().contains(text), "{err}");
    }
    assert_eq!(
        state.action_to_move(SIT_OUT),
        json!({"type": "sit_out"}),
        "the JSON moves are today's"
    );
}

#[test]
fn every_refusal_has_its_code() {
    let check = |v: Value, m: Value, code: &str| {
        let state = read(&v).unwrap_or_else(|e| panic!("{code}: {e}"));
        let err = state
            .check_move(&m, None)
            .unwrap()
            .unwrap_or_else(|| panic!("{code}: {m} is legal"));
        assert_eq!(err.code, code, "{err}");
        assert!(!err.reason_de.is_empty() && err.reason_de != err.reason);
    };
    let mv = |card: &str, marble: usize, steps: i64, goal: bool| json!({"type": "move", "card": card, "marble": marble, "steps": steps, "goal": goal});
    let hands = |h: &'static [&'static str]| -> [&'static [&'static str]; 4] { [h, &["2"], &["2"], &["2"]] };
    let ring = |f: u8| json!({"ring": f});
    let p = |m: &[(usize, Value)], h: &'static [&'static str]| position(m, hands(h), 0);
    check(p(&[], &["2"]), mv("2", 0, 2, false), "marble_in_kennel");
    check(
        p(&[(0, json!({"goal": 1}))], &["2"]),
        mv("2", 0, 2, false),
        "goal_forward_only",
    );
    check(
        p(&[(0, json!({"goal": 1}))], &["3"]),
        mv("3", 0, 3, true),
        "goal_overshoot",
    );
    check(
        p(&[(0, json!({"goal": 1})), (1, json!({"goal": 2}))], &["2"]),
        mv("2", 0, 2, true),
        "goal_field_taken",
    );
    check(
        p(&[(0, ring(2))], &["4"]),
        mv("4", 0, -4, true),
        "goal_entered_backward",
    );
    let mut v = p(&[(0, ring(14)), (4, ring(16))], &["3"]);
    v["marbles"][4]["protected"] = json!(true);
    check(v.clone(), mv("3", 0, 3, false), "passes_protected_marble");
    check(
        p(&[(0, ring(14)), (4, ring(16))], &["2"]).pipe(|mut v| {
            v["marbles"][4]["protected"] = json!(true);
            v
        }),
        mv("2", 0, 2, false),
        "lands_on_protected_marble",
    );
    let mut v = p(&[(0, ring(0))], &["3"]);
    v["marbles"][0]["protected"] = json!(true);
    check(v, mv("3", 0, 3, true), "not_left_start");
    let all_out: Vec<(usize, Value)> = (0..4).map(|k| (k, ring(10 + k as u8))).collect();
    check(
        p(&all_out, &["A"]),
        json!({"type": "start", "card": "A"}),
        "kennel_empty",
    );
    let mut v = p(&[(0, ring(0))], &["A"]);
    v["marbles"][0]["protected"] = json!(true);
    check(v, json!({"type": "start", "card": "A"}), "start_field_protected");
    check(p(&[(0, ring(50))], &["2"]), mv("2", 0, 2, true), "short_of_goal");
    check(p(&[(0, ring(60))], &["10"]), mv("10", 0, 10, true), "past_goal");
    check(
        p(&[], &["2"]),
        json!({"type": "move", "card": "3", "marble": 0, "steps": 3}),
        "card_not_in_hand",
    );
    check(
        p(&[(0, ring(5))], &["2"]),
        json!({"type": "sit_out"}),
        "must_play",
    );
    check(
        p(&[(0, ring(5))], &["2"]),
        mv("2", 4, 2, false),
        "not_your_marble",
    );
    check(
        p(&[(0, ring(5)), (4, ring(20))], &["7"]),
        json!({"type": "seven", "card": "7", "marble": 4, "steps": 7}),
        "seven_team_only",
    );
    let mut v = p(&[(0, ring(5)), (1, ring(30))], &["7"]);
    v["seven"] = json!({"remaining": 3, "joker": false});
    check(
        v.clone(),
        json!({"type": "seven", "card": "7", "marble": 0, "steps": 4}),
        "seven_steps_left",
    );
    check(v, mv("2", 0, 2, false), "seven_unfinished");
    // A seven part that leaves 2 steps nobody can use: the only marble lands in the goal's end.
    check(
        p(&[(0, ring(62))], &["7"]),
        json!({"type": "seven", "card": "7", "marble": 0, "steps": 5, "goal": true}),
        "seven_rest_unusable",
    );
    check(
        p(&[(0, ring(5)), (1, ring(9))], &["J"]),
        json!({"type": "jack", "card": "J", "marble": 0, "with": 1}),
        "jack_same_color",
    );
    let mut v = p(&[(0, ring(5)), (4, ring(16))], &["J"]);
    v["marbles"][4]["protected"] = json!(true);
    check(
        v,
        json!({"type": "jack", "card": "J", "marble": 0, "with": 4}),
        "protected_marble",
    );
    check(
        p(&[(0, ring(5)), (4, json!({"goal": 0}))], &["J"]),
        json!({"type": "jack", "card": "J", "marble": 0, "with": 4}),
        "jack_ring_only",
    );
    let seven_home: Vec<(usize, Value)> = [1, 2, 3, 8, 9, 10, 11]
        .iter()
        .map(|&m| (m, json!({"goal": m % 4})))
        .chain([(0, ring(60))])
        .collect();
    check(
        p(&seven_home, &["JK"]),
        json!({"type": "move", "card": "JK", "as": "5", "marble": 0, "steps": 5, "goal": true}),
        "joker_last_marble",
    );
    // The exchange and the end.
    let start = Dog::default().new_initial_state(2);
    let play = start
        .action_from_move(&json!({"type": "start", "card": "A"}))
        .unwrap();
    assert_eq!(start.check_action(play).unwrap_err().code, "exchange_first");
    let missing = (0..14)
        .map(Card::from_index)
        .find(|&c| !start.d.hands[0].has(c))
        .unwrap();
    let give = start
        .action_from_move(&json!({"type": "exchange", "card": missing.to_string()}))
        .unwrap();
    assert_eq!(start.check_action(give).unwrap_err().code, "card_not_in_hand");
    let in_play = read(&p(&[(0, ring(5))], &["2"])).unwrap();
    assert_eq!(in_play.check_action(0).unwrap_err().code, "exchange_over");
    let mut over = p(&seven_home, &["5"]);
    over["marbles"][0]["place"] = json!({"goal": 0});
    over["phase"] = json!("over");
    over["outcome"] = json!({"winner": 0, "points": [16, 0], "reason": "all_home"});
    assert_eq!(
        read(&over).unwrap().check_action(SIT_OUT).unwrap_err().code,
        "game_over"
    );
}

trait Pipe: Sized {
    fn pipe(self, f: impl FnOnce(Self) -> Self) -> Self {
        f(self)
    }
}
impl Pipe for Value {}

#[test]
fn option_specs_agree_with_from_options_and_the_length_bound_holds() {
    let game = Dog::default();
    let specs = game.option_specs();
    assert_eq!(specs.len(), 1);
    let spec = &specs[0];
    assert_eq!(spec.name, "max_turns");
    assert_eq!(Value::from(game.max_turns), spec.default);
    let mut options = serde_json::Map::new();
    for (value, ok) in [
        (spec.min.unwrap(), true),
        (spec.max.unwrap(), true),
        (-1, false),
        (spec.max.unwrap() + 1, false),
    ] {
        options.insert("max_turns".into(), json!(value));
        assert_eq!(Dog::from_options(&options).is_ok(), ok, "{value}");
    }
    assert_eq!(
        game.options(),
        serde_json::from_value::<serde_json::Map<String, Value>>(json!({"max_turns": 10000})).unwrap()
    );
    // max_game_length bounds random games, also where the clock stops them.
    for max_turns in [1, 5, 40, 300] {
        let g = Dog { max_turns };
        for seed in 0..20 {
            let mut s = g.new_initial_state(seed);
            let mut bot = RandomBot::new(seed);
            let mut n = 0;
            while let Some(a) = bot.step(&s) {
                s.apply_action(a).unwrap();
                n += 1;
            }
            assert!(n <= g.max_game_length(), "{n} > {}", g.max_game_length());
        }
    }
    assert_eq!(Dog { max_turns: 10_000 }.max_game_length(), 80_000);
    assert_eq!(Dog { max_turns: 0 }.max_game_length(), u64::MAX);
}

#[test]
fn the_schemas_describe_view_and_moves() {
    let game: &dyn crate::dynamic::DynGame = &Dog::default();
    let view = game.view_schema().to_string();
    assert!(view.contains("face_up") && view.contains("rounds") || view.contains("round"));
    let moves = game.move_schema().to_string();
    assert!(moves.contains("sit_out") && moves.contains("\"as\""), "{moves}");
}

/// A rough timing by hand (`cargo test -p spielwerk-core --lib dog_timing -- --ignored
/// --nocapture`); the criterion benches in `core/benches/dog.rs` are the real figures.
#[test]
#[ignore = "a rough timing by hand, not a check"]
fn dog_timing() {
    let states = random_states(3, 50);
    let t = std::time::Instant::now();
    let mut bytes = 0;
    for _ in 0..200 {
        for s in &states {
            bytes += s.view_json(Some(1)).len();
        }
    }
    let n = 200 * states.len();
    eprintln!(
        "view_json: {:?} each ({} bytes)",
        t.elapsed() / n as u32,
        bytes / n
    );
    let t = std::time::Instant::now();
    for (i, s) in states.iter().enumerate() {
        let _ = s.resample(1, i as u64).unwrap();
    }
    eprintln!("resample: {:?} each", t.elapsed() / states.len() as u32);
    let t = std::time::Instant::now();
    let mut buf = Vec::new();
    for seed in 0..200 {
        crate::simulate::random_game(&Dog::default(), seed, &mut buf);
    }
    eprintln!("random game: {:?} each", t.elapsed() / 200);
}

#[test]
fn view_json_writes_exactly_what_serde_writes() {
    let mut checked = 0;
    for seed in 0..12 {
        // Every 7th position of a whole game, the finished game at the end; and a game
        // stopped by the clock (D13).
        let mut states = random_states(seed, 7);
        states.push(play_out(
            Dog {
                max_turns: 30 + seed as u32,
            }
            .new_initial_state(seed),
            seed,
            10_000,
        ));
        for state in &states {
            for seat in [Some(0), Some(1), Some(2), Some(3), None, Some(7)] {
                // The view for people (with the targets) and the typed view without.
                let serde = serde_json::to_vec(&state.view_with_facts(seat)).unwrap();
                assert_eq!(
                    String::from_utf8(state.view_json(seat)).unwrap(),
                    String::from_utf8(serde).unwrap()
                );
                let serde = serde_json::to_vec(&state.view_of(seat)).unwrap();
                assert_eq!(
                    String::from_utf8(state.write_view_json(seat, false)).unwrap(),
                    String::from_utf8(serde).unwrap()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 5_000, "{checked} views");
}
