//! Mutation fuzzing of Caravan's state boundary: serialized states from random games,
//! mutated (numbers out of range, cards swapped, duplicated or removed, booleans flipped,
//! fields nulled or dropped, strings changed), must either be refused with an error or
//! give a state that plays to its end, never a panic.
//!
//! `CARAVAN_FUZZ_CASES=50000 cargo test -p spielwerk-core --test caravan_fuzz` runs more.

use rand::RngExt;
use serde_json::{Map, Value, json};
use spielwerk_core::bots::RandomBot;
use spielwerk_core::caravan::{CaravanGame, VARIANTS, View};
use spielwerk_core::game::{Game, GameState};
use spielwerk_core::rng;

const CARDS: [&str; 14] = [
    "AH", "7C", "10S", "QD", "KS", "JH", "JK1", "JK2", "JK3", "JK4", "5D", "2S", "XX", "",
];

fn numbers(rng: &mut rng::Rng) -> Value {
    let choices = [
        json!(0),
        json!(1),
        json!(2),
        json!(3),
        json!(5),
        json!(6),
        json!(8),
        json!(9),
        json!(30),
        json!(255),
        json!(256),
        json!(-1),
        json!(4_294_967_296u64),
        json!(u64::MAX),
        json!(1.5),
        json!(1e30),
    ];
    choices[rng.random_range(0..choices.len())].clone()
}

/// The paths of every node of `v` (object keys and array indices).
fn paths(v: &Value, at: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    out.push(at.clone());
    match v {
        Value::Object(m) => {
            for (k, child) in m {
                at.push(json!(k));
                paths(child, at, out);
                at.pop();
            }
        }
        Value::Array(a) => {
            for (i, child) in a.iter().enumerate() {
                at.push(json!(i));
                paths(child, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

fn node<'a>(v: &'a mut Value, path: &[Value]) -> &'a mut Value {
    path.iter().fold(v, |v, key| match key {
        Value::String(k) => &mut v[k.as_str()],
        Value::Number(i) => &mut v[i.as_u64().unwrap() as usize],
        _ => unreachable!(),
    })
}

fn get<'a>(v: &'a Value, path: &[Value]) -> &'a Value {
    path.iter().fold(v, |v, key| match key {
        Value::String(k) => &v[k.as_str()],
        Value::Number(i) => &v[i.as_u64().unwrap() as usize],
        _ => unreachable!(),
    })
}

fn mutate(state: &mut Value, rng: &mut rng::Rng) {
    let mut all = Vec::new();
    paths(state, &mut Vec::new(), &mut all);
    let path = all[rng.random_range(1..all.len())].clone();
    let kind = rng.random_range(0..10);
    // Moving a card from one pile to another keeps the counts right: the subtle cases.
    if kind == 0 {
        let arrays: Vec<Vec<Value>> = all
            .iter()
            .filter(|p| {
                get(state, p)
                    .as_array()
                    .is_some_and(|a| a.first().is_some_and(Value::is_string))
            })
            .cloned()
            .collect();
        if arrays.len() >= 2 {
            let from = &arrays[rng.random_range(0..arrays.len())];
            let to = &arrays[rng.random_range(0..arrays.len())];
            let card = {
                let a = node(state, from).as_array_mut().unwrap();
                let i = rng.random_range(0..a.len());
                a.remove(i)
            };
            node(state, to).as_array_mut().unwrap().push(card);
            return;
        }
    }
    let target = node(state, &path);
    match (kind, &mut *target) {
        (_, Value::Number(_)) => *target = numbers(rng),
        (_, Value::Bool(b)) => *b = !*b,
        (1..=3, Value::String(_)) => *target = json!(CARDS[rng.random_range(0..CARDS.len())]),
        (1, Value::Array(a)) if !a.is_empty() => {
            a.remove(rng.random_range(0..a.len()));
        }
        (2, Value::Array(a)) if !a.is_empty() => {
            let x = a[rng.random_range(0..a.len())].clone();
            a.push(x);
        }
        (3, Value::Array(a)) if a.len() >= 2 => {
            let (i, j) = (rng.random_range(0..a.len()), rng.random_range(0..a.len()));
            a.swap(i, j);
        }
        (4, Value::Array(a)) => a.clear(),
        (5, Value::Object(m)) if !m.is_empty() => {
            let keys: Vec<String> = m.keys().cloned().collect();
            m.remove(&keys[rng.random_range(0..keys.len())]);
        }
        (6, Value::Object(m)) => {
            m.insert("x".into(), json!(1));
        }
        (7, Value::Null) => *target = numbers(rng),
        (7, _) => *target = json!({"winner": 9, "reason": "sold"}),
        _ => *target = Value::Null,
    }
}

/// A read state plays to its end with random moves, and everything a caller may ask of
/// it works on the way.
fn play_out(game: &CaravanGame, mut state: <CaravanGame as Game>::State, seed: u64) {
    let mut bot = RandomBot::new(seed);
    let mut steps = 0;
    loop {
        let _ = state.render();
        let _ = state.result_text();
        let _ = state.returns();
        for p in 0..2 {
            let _ = state.view_json(Some(p));
            let r = state.resample(p, seed).expect("a read state resamples");
            assert_eq!(r.view_of(Some(p)), state.view_of(Some(p)));
        }
        let _ = state.view_json(None);
        let json = state.to_json();
        assert_eq!(game.state_from_json(&json).expect("round trip"), state);
        let Some(action) = bot.step(&state) else {
            break;
        };
        let _ = state.action_to_string(action);
        state.apply_action(action).expect("a legal action applies");
        steps += 1;
        assert!(steps as u64 <= game.max_game_length(), "does not end");
        if steps > 40 {
            // Views and resamples are checked at the start; the rest just plays on.
            while let Some(action) = bot.step(&state) {
                state.apply_action(action).unwrap();
                steps += 1;
                assert!(steps as u64 <= game.max_game_length(), "does not end");
            }
            break;
        }
    }
    assert!(state.is_terminal());
    assert!(state.result_text().is_some());
}

fn games() -> Vec<CaravanGame> {
    let with = |names: &[&str]| {
        let map: Map<String, Value> = names.iter().map(|n| (n.to_string(), json!(true))).collect();
        CaravanGame::from_options(&map).unwrap()
    };
    let all: Vec<&str> = VARIANTS.iter().map(|(n, _)| *n).collect();
    vec![
        CaravanGame::default(),
        with(&["reshuffle"]),
        with(&["short_deck", "fresh_hand"]),
        with(&["double_deck", "fixed_course"]),
        with(&["reshuffle", "short_deck", "double_deck"]),
        with(&all),
    ]
}

#[test]
fn mutated_states_are_refused_or_play_to_the_end() {
    let cases: u64 = std::env::var("CARAVAN_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(2_000);
    let games = games();
    // Source states: positions from random games, early, middle and late.
    let mut sources = Vec::new();
    for (g, game) in games.iter().enumerate() {
        for seed in 0..12u64 {
            let mut state = game.new_initial_state(seed);
            let mut bot = RandomBot::new(seed);
            let stop = [0, 3, 8, 20, 60, 1000][seed as usize % 6];
            for _ in 0..stop {
                match bot.step(&state) {
                    Some(a) => state.apply_action(a).unwrap(),
                    None => break,
                }
            }
            sources.push((g, serde_json::from_str::<Value>(&state.to_json()).unwrap()));
        }
    }
    let mut rng = rng::seeded(9, rng::STREAM_POLICY);
    let (mut refused, mut accepted) = (0, 0);
    for case in 0..cases {
        let (g, source) = &sources[rng.random_range(0..sources.len())];
        let game = &games[*g];
        let mut json = source.clone();
        for _ in 0..rng.random_range(1..=3) {
            mutate(&mut json, &mut rng);
        }
        let text = json.to_string();
        match game.state_from_json(&text) {
            Err(e) => {
                assert!(!e.to_string().is_empty());
                refused += 1;
            }
            Ok(state) => {
                accepted += 1;
                play_out(game, state, case);
            }
        }
    }
    assert!(
        refused > 0 && accepted > 0,
        "{refused} refused, {accepted} accepted"
    );
}

#[test]
fn mutated_views_are_refused_or_give_a_state_with_that_view() {
    let cases: u64 = std::env::var("CARAVAN_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(2_000);
    let games = games();
    let mut sources = Vec::new();
    for (g, game) in games.iter().enumerate() {
        for seed in 0..12u64 {
            let mut state = game.new_initial_state(seed);
            let mut bot = RandomBot::new(seed);
            let stop = [0, 3, 8, 20, 60, 1000][seed as usize % 6];
            for _ in 0..stop {
                match bot.step(&state) {
                    Some(a) => state.apply_action(a).unwrap(),
                    None => break,
                }
            }
            let seat = [Some(0), Some(1), None][seed as usize % 3];
            sources.push((g, seat, serde_json::to_value(state.view_of(seat)).unwrap()));
        }
    }
    let mut rng = rng::seeded(11, rng::STREAM_POLICY);
    let (mut refused, mut accepted) = (0, 0);
    for case in 0..cases {
        let (g, _, source) = &sources[rng.random_range(0..sources.len())];
        let game = &games[*g];
        let mut json = source.clone();
        for _ in 0..rng.random_range(1..=2) {
            mutate(&mut json, &mut rng);
        }
        let built = serde_json::from_value::<View>(json.clone())
            .map_err(|e| e.to_string())
            .and_then(|view| game.state_from_view(&view, case).map_err(|e| e.to_string()));
        // The object-safe layer agrees.
        assert_eq!(
            spielwerk_core::DynGame::state_from_view(game, &json, case).is_ok(),
            built.is_ok()
        );
        match built {
            Err(e) => {
                assert!(!e.clone().is_empty());
                refused += 1;
            }
            Ok(state) => {
                accepted += 1;
                // Missing optional fields read as null, so compare the typed views.
                let given: View = serde_json::from_value(json).unwrap();
                let seat = given.player.map(usize::from);
                assert_eq!(
                    state.view_of(seat),
                    given,
                    "the built state has the view it was built from"
                );
                play_out(game, state, case);
            }
        }
    }
    assert!(
        refused > 0 && accepted > 0,
        "{refused} refused, {accepted} accepted"
    );
}
