//! Mutation fuzzing of The Game's boundary: serialized states (and views) from random
//! games are changed at random; each must be refused with an error or give a state that
//! works in every method and plays to its end. Never a panic.
//!
//! `SPIELWERK_FUZZ_CASES=50000 cargo test -p spielwerk-core --test the_game_fuzz` runs
//! more cases than the suite's default.

use rand::RngExt;
use serde_json::{Value, json};
use spielwerk_core::Game;
use spielwerk_core::bots::RandomBot;
use spielwerk_core::dynamic::DynGame;
use spielwerk_core::game::{Action, GameState};
use spielwerk_core::rng::{self, Rng};
use spielwerk_core::the_game::{NUM_ACTIONS, State, TheGame, View};

fn cases() -> u64 {
    std::env::var("SPIELWERK_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(2_000)
}

/// Numbers worth trying anywhere: edges of every range in the state, and far beyond.
const NUMBERS: &[f64] = &[
    0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 12.0, 50.0, 89.0, 97.0, 98.0, 99.0, 100.0, 101.0,
    127.0, 128.0, 196.0, 255.0, 256.0, 392.0, 393.0, 1000.0, 65536.0, -1.0, -100.0, 1.5, 1e20, -1e20,
];

/// A state JSON from a random game of random options, at a random point.
fn sample_state(rng: &mut Rng) -> (TheGame, Value) {
    let game = TheGame {
        players: rng.random_range(1..=5),
        pro: rng.random_bool(0.3),
    };
    let seed = rng.random_range(0..1_000_000);
    let mut state = Game::new_initial_state(&game, seed);
    let mut bot = RandomBot::new(seed);
    let stop = rng.random_range(0..200);
    for _ in 0..stop {
        match bot.step(&state) {
            Some(a) => state.apply_action(a).unwrap(),
            None => break,
        }
    }
    if rng.random_bool(0.3) {
        // A state built from a view: empty history.
        let p = rng.random_range(0..game.players as usize);
        state = state.resample(p, seed).unwrap();
    }
    (game, serde_json::from_str(&state.to_json()).unwrap())
}

/// Every node of a JSON tree, by path.
fn paths(value: &Value, here: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    out.push(here.clone());
    match value {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                here.push(json!(i));
                paths(item, here, out);
                here.pop();
            }
        }
        Value::Object(map) => {
            for (k, item) in map {
                here.push(json!(k));
                paths(item, here, out);
                here.pop();
            }
        }
        _ => {}
    }
}

fn at<'a>(value: &'a mut Value, path: &[Value]) -> &'a mut Value {
    path.iter().fold(value, |v, key| match key {
        Value::String(k) => &mut v[k.as_str()],
        Value::Number(i) => &mut v[i.as_u64().unwrap() as usize],
        _ => unreachable!(),
    })
}

fn number(rng: &mut Rng) -> Value {
    match rng.random_range(0..4) {
        0 => json!(u64::MAX),
        1 => json!(i64::MIN),
        _ => {
            let n = NUMBERS[rng.random_range(0..NUMBERS.len())];
            if n.fract() == 0.0 && n.abs() < 1e15 {
                json!(n as i64)
            } else {
                json!(n)
            }
        }
    }
}

/// One random change somewhere in `value`.
fn mutate(value: &mut Value, rng: &mut Rng) {
    let mut all = Vec::new();
    paths(value, &mut Vec::new(), &mut all);
    // Moving one card between two lists (hands, draw pile): the subtle kind.
    if rng.random_bool(0.2) {
        let lists: Vec<&Vec<Value>> = all
            .iter()
            .filter(|p| {
                let mut v = value.clone();
                matches!(at(&mut v, p), Value::Array(a) if a.iter().all(Value::is_number))
            })
            .collect();
        if lists.len() >= 2 {
            let from = lists[rng.random_range(0..lists.len())].clone();
            let to = lists[rng.random_range(0..lists.len())].clone();
            let (a, b) = (at(value, &from).clone(), at(value, &to).clone());
            if let (true, Value::Array(a), Value::Array(b)) = (rng.random_bool(0.5), a, b)
                && !a.is_empty()
                && !b.is_empty()
            {
                // Swap a card of one list with a card of another: the sizes stay, so this
                // often gives a valid state with other hidden cards.
                let (i, j) = (rng.random_range(0..a.len()), rng.random_range(0..b.len()));
                *at(value, &[from, vec![json!(i)]].concat()) = b[j].clone();
                *at(value, &[to, vec![json!(j)]].concat()) = a[i].clone();
                return;
            }
            let Value::Array(source) = at(value, &from) else {
                unreachable!()
            };
            if !source.is_empty() {
                let card = source.remove(rng.random_range(0..source.len()));
                if let Value::Array(target) = at(value, &to) {
                    let i = rng.random_range(0..=target.len());
                    target.insert(i, card);
                }
                return;
            }
        }
    }
    let path = all[rng.random_range(0..all.len())].clone();
    let node = at(value, &path);
    match node {
        Value::Number(n) => {
            *node = match rng.random_range(0..3) {
                0 => json!(n.as_i64().unwrap_or(0).saturating_add(1)),
                1 => json!(n.as_i64().unwrap_or(0).saturating_sub(1)),
                _ => number(rng),
            }
        }
        Value::Bool(b) => *node = json!(!*b),
        Value::Null => {
            *node = match rng.random_range(0..4) {
                0 => json!({"won": rng.random_bool(0.5), "score": number(rng)}),
                1 => json!({"won": rng.random_bool(0.5), "score": number(rng), "stuck_player": number(rng)}),
                2 => number(rng),
                _ => json!([]),
            }
        }
        Value::String(_) => {
            *node = json!(["x", "", "THE_GAME", "ascending", "descending"][rng.random_range(0..5)]);
        }
        Value::Array(items) => match rng.random_range(0..6) {
            0 if !items.is_empty() => {
                items.remove(rng.random_range(0..items.len()));
            }
            1 if !items.is_empty() => {
                let item = items[rng.random_range(0..items.len())].clone();
                items.push(item);
            }
            2 if items.len() >= 2 => {
                let (i, j) = (rng.random_range(0..items.len()), rng.random_range(0..items.len()));
                items.swap(i, j);
            }
            3 => items.push(number(rng)),
            4 => items.clear(),
            _ => *node = Value::Null,
        },
        Value::Object(map) => match rng.random_range(0..3) {
            0 if !map.is_empty() => {
                let key = map.keys().nth(rng.random_range(0..map.len())).unwrap().clone();
                map.remove(&key);
            }
            1 => {
                map.insert("extra".into(), json!(1));
            }
            _ => *node = Value::Null,
        },
    }
}

/// Everything a caller can do with a state, ending with a random playout.
fn exercise(state: &State, rng: &mut Rng) {
    let game = *state.game();
    let players = game.players as usize;
    let _ = (
        state.render(),
        state.result_text(),
        state.returns(),
        state.history_for(0),
    );
    for p in 0..players {
        let view = state.view_of(Some(p));
        let text = state.view_json(Some(p));
        assert_eq!(serde_json::from_slice::<View>(&text).unwrap(), view);
        let _ = (state.information_state_key(p), state.hand(p));
        let r = state.resample(p, rng.random()).expect("a valid state resamples");
        assert_eq!(r.view_of(Some(p)), view);
    }
    let public = state.view_of(None);
    let r = Game::state_from_view(&game, &public, 3).expect("the public view deals");
    assert_eq!(r.view_of(None), public);
    assert_eq!(game.state_from_json(&state.to_json()).unwrap(), *state);
    for _ in 0..5 {
        let a: Action = rng.random_range(0..NUM_ACTIONS as Action + 3);
        let _ = (
            state.check_action(a),
            state.action_to_string(a),
            state.action_to_move(a),
        );
        let mut copy = state.clone();
        if copy.apply_action(a).is_err() {
            assert_eq!(copy, *state, "a refused action changes nothing");
        }
    }
    let mut s = state.clone();
    let mut bot = RandomBot::new(rng.random());
    let mut steps = 0u64;
    while let Some(a) = bot.step(&s) {
        let mv = s.action_to_move(a);
        assert_eq!(s.action_from_move(&mv).unwrap(), a);
        let _ = s.action_to_string(a);
        s.apply_action(a).unwrap();
        steps += 1;
        assert!(steps <= Game::max_game_length(&game), "the game does not end");
    }
    let _ = (s.render(), s.result_text().expect("a finished game has a result"));
}

#[test]
fn mutated_states_are_refused_or_play_to_the_end() {
    let mut rng = rng::seeded(2026, rng::STREAM_GAME);
    let (mut accepted, mut refused) = (0u64, 0u64);
    let mut base = sample_state(&mut rng);
    for case in 0..cases() {
        if case.is_multiple_of(20) {
            base = sample_state(&mut rng);
        }
        let (game, original) = &base;
        let mut json = original.clone();
        for _ in 0..rng.random_range(1..=3) {
            mutate(&mut json, &mut rng);
        }
        let text = json.to_string();
        let typed = game.state_from_json(&text);
        let dynamic = DynGame::deserialize_state(game, &text);
        assert_eq!(typed.is_ok(), dynamic.is_ok(), "{text}");
        match typed {
            Ok(state) => {
                accepted += 1;
                exercise(&state, &mut rng);
            }
            Err(e) => {
                refused += 1;
                assert!(e.to_string().len() < 600, "{e}");
            }
        }
    }
    eprintln!("states: {accepted} accepted, {refused} refused");
    assert!(
        refused > 0 && accepted > 0,
        "{accepted} accepted, {refused} refused"
    );
}

#[test]
fn mutated_views_are_refused_or_give_that_view() {
    let mut rng = rng::seeded(2027, rng::STREAM_GAME);
    let (mut accepted, mut refused) = (0u64, 0u64);
    for _ in 0..cases() / 2 {
        let (game, json) = sample_state(&mut rng);
        let state = game.state_from_json(&json.to_string()).unwrap();
        let seat = rng.random_range(0..=game.players as usize);
        let seat = (seat < game.players as usize).then_some(seat);
        let mut view = serde_json::to_value(state.view_of(seat)).unwrap();
        for _ in 0..rng.random_range(1..=3) {
            mutate(&mut view, &mut rng);
        }
        match DynGame::state_from_view(&game, &view, rng.random()) {
            Ok(built) => {
                accepted += 1;
                let typed: View = serde_json::from_value(view.clone()).unwrap();
                let built = game.state_from_json(&built.to_json()).unwrap();
                assert_eq!(built.view_of(typed.player.map(usize::from)), typed);
                exercise(&built, &mut rng);
            }
            Err(e) => {
                refused += 1;
                assert!(e.to_string().len() < 600, "{e}");
            }
        }
    }
    assert!(
        refused > 0 && accepted > 0,
        "{accepted} accepted, {refused} refused"
    );
    eprintln!("views: {accepted} accepted, {refused} refused");
}
