//! Mutation fuzzing of the state boundary of Schotten Totten.
//!
//! Serialized states of random games are mutated (numbers to other and out-of-range
//! values, huge ones included; cards moved, swapped, duplicated or removed; booleans
//! flipped; fields nulled, removed or added; strings changed). Each mutated input must be
//! refused with an error, or give a state on which every method works and which plays
//! on to its end: never a panic.
//!
//! `SPIELWERK_FUZZ_CASES=50000 cargo test -p spielwerk-core --test schotten_totten_fuzz`
//! runs more cases than the suite's default.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};

use rand::RngExt;
use serde_json::{Value, json};
use spielwerk_core::bots::RandomBot;
use spielwerk_core::game::{Game, GameState};
use spielwerk_core::rng;
use spielwerk_core::schotten_totten::{Card, SchottenTotten, State};

const DEFAULT_CASES: u64 = 2_000;

type Rng = rng::Rng;

/// Every node of `v` as a JSON pointer.
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                pointers(item, format!("{at}/{i}"), out);
            }
        }
        Value::Object(map) => {
            for (k, item) in map {
                pointers(item, format!("{at}/{k}"), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[rng.random_range(0..items.len())]
}

fn random_card(rng: &mut Rng) -> Value {
    json!(Card::from_index(rng.random_range(0..54u8)).to_string())
}

/// The pointers of arrays that hold cards: the pile, the hands, the stones' sides (of a
/// state or of a view).
fn card_arrays(v: &Value) -> Vec<String> {
    let mut out = vec![
        "/pile".to_string(),
        "/hands/0".into(),
        "/hands/1".into(),
        "/hand".into(),
    ];
    for s in 0..9 {
        for side in 0..2 {
            out.push(format!("/stones/{s}/sides/{side}"));
            out.push(format!("/stones/{s}/cards/{side}"));
        }
    }
    out.retain(|p| v.pointer(p).is_some_and(Value::is_array));
    out
}

fn mutate(v: &mut Value, rng: &mut Rng) {
    match rng.random_range(0..10u32) {
        // Move a card from one place to another (cards stay conserved).
        0..=2 => {
            let arrays = card_arrays(v);
            if arrays.len() < 2 {
                return;
            }
            let from = pick(rng, &arrays).clone();
            let to = pick(rng, &arrays).clone();
            let Some(len) = v.pointer(&from).and_then(Value::as_array).map(Vec::len) else {
                return;
            };
            if len == 0 {
                return;
            }
            let card = v
                .pointer_mut(&from)
                .unwrap()
                .as_array_mut()
                .unwrap()
                .remove(rng.random_range(0..len));
            let target = v.pointer_mut(&to).unwrap().as_array_mut().unwrap();
            let at = rng.random_range(0..=target.len());
            target.insert(at, card);
        }
        // Swap two cards between places.
        3 => {
            let arrays = card_arrays(v);
            if arrays.is_empty() {
                return;
            }
            let (a, b) = (pick(rng, &arrays).clone(), pick(rng, &arrays).clone());
            let la = v.pointer(&a).and_then(Value::as_array).map_or(0, Vec::len);
            let lb = v.pointer(&b).and_then(Value::as_array).map_or(0, Vec::len);
            if la == 0 || lb == 0 {
                return;
            }
            let (ia, ib) = (rng.random_range(0..la), rng.random_range(0..lb));
            let ca = v.pointer(&format!("{a}/{ia}")).unwrap().clone();
            let cb = v.pointer(&format!("{b}/{ib}")).unwrap().clone();
            *v.pointer_mut(&format!("{a}/{ia}")).unwrap() = cb;
            *v.pointer_mut(&format!("{b}/{ib}")).unwrap() = ca;
        }
        // Change any node by its kind.
        _ => {
            let mut all = Vec::new();
            pointers(v, String::new(), &mut all);
            let at = pick(rng, &all).clone();
            let node = v.pointer_mut(&at).unwrap();
            let new = match node {
                Value::Number(n) => {
                    let n = n.as_i64().unwrap_or(0);
                    let choices = [
                        json!(n.saturating_add(1)),
                        json!(n.saturating_sub(1)),
                        json!(0),
                        json!(1),
                        json!(2),
                        json!(3),
                        json!(8),
                        json!(9),
                        json!(42),
                        json!(43),
                        json!(54),
                        json!(255),
                        json!(256),
                        json!(496),
                        json!(497),
                        json!(65_536),
                        json!(u64::MAX),
                        json!(i64::MIN),
                        json!(1.5),
                        json!(1e300),
                        Value::Null,
                    ];
                    pick(rng, &choices).clone()
                }
                Value::Bool(b) => json!(!*b),
                Value::String(_) => {
                    let choices = [
                        random_card(rng),
                        random_card(rng),
                        json!("Z9"),
                        json!(""),
                        json!("claim"),
                        json!("play"),
                        json!("over"),
                        json!("settlement"),
                        json!("settlement_proof"),
                        json!("settlement_count"),
                        json!("five_stones"),
                        json!("three_adjacent"),
                        json!(7),
                    ];
                    pick(rng, &choices).clone()
                }
                Value::Null => {
                    let choices = [
                        json!(0),
                        json!(1),
                        json!(9),
                        json!("claim"),
                        json!("settlement_count"),
                        json!({"winner": 0, "reason": "five_stones"}),
                        json!({"winner": 1, "reason": "three_adjacent"}),
                        json!({"winner": null, "reason": "settlement"}),
                        json!({"winner": 9, "reason": "settlement"}),
                        json!([]),
                    ];
                    pick(rng, &choices).clone()
                }
                Value::Array(items) => {
                    let mut items = items.clone();
                    match rng.random_range(0..5u32) {
                        0 if !items.is_empty() => {
                            items.remove(rng.random_range(0..items.len()));
                        }
                        1 if !items.is_empty() => {
                            let dup = pick(rng, &items).clone();
                            items.push(dup);
                        }
                        2 => items.push(random_card(rng)),
                        3 => items.clear(),
                        _ => items.reverse(),
                    }
                    Value::Array(items)
                }
                Value::Object(map) => {
                    let mut map = map.clone();
                    if rng.random_bool(0.5) && !map.is_empty() {
                        let keys: Vec<String> = map.keys().cloned().collect();
                        map.remove(pick(rng, &keys));
                    } else {
                        map.insert("extra".into(), json!(1));
                    }
                    Value::Object(map)
                }
            };
            *node = if rng.random_range(0..12u32) == 0 {
                Value::Null
            } else {
                new
            };
        }
    }
}

/// Everything must work on an accepted state, and it plays on to its end.
fn exercise(game: &SchottenTotten, state: State, seed: u64) {
    let json = state.to_json();
    assert_eq!(
        game.state_from_json(&json).expect("a valid state reads back"),
        state
    );
    assert!(spielwerk_core::DynGame::deserialize_state(game, &json).is_ok());
    let _ = (state.render(), state.result_text(), state.returns());
    for p in 0..2 {
        let view = state.view_of(Some(p));
        assert_eq!(state.view_json(Some(p)), serde_json::to_vec(&view).unwrap());
        let r = state.resample(p, seed).expect("a valid state resamples");
        assert_eq!(r.view_of(Some(p)), view);
    }
    let public = game
        .state_from_view(&state.view_of(None), seed)
        .expect("the public view deals");
    assert_eq!(public.view_of(None), state.view_of(None));
    let mut state = state;
    let mut bot = RandomBot::new(seed);
    let mut steps = 0;
    loop {
        let legal = state.legal_actions();
        if state.is_terminal() {
            assert!(legal.is_empty());
            break;
        }
        assert!(!legal.is_empty(), "a running game has a legal action");
        for &a in &legal {
            let _ = state.action_to_string(a);
            assert_eq!(state.action_from_move(&state.action_to_move(a)).unwrap(), a);
        }
        let _ = state.check_action(seed as u32 % 600);
        let a = bot.step(&state).unwrap();
        state.apply_action(a).expect("a legal action applies");
        steps += 1;
        assert!(steps <= 1000, "the game does not end");
    }
    assert!(state.result_text().is_some());
    let _ = state.render();
}

fn cases() -> u64 {
    std::env::var("SPIELWERK_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(DEFAULT_CASES)
}

/// Positions of random games, finished ones included.
fn positions() -> Vec<State> {
    let game = SchottenTotten::default();
    let mut out = Vec::new();
    for seed in 0..40 {
        let mut state = game.new_initial_state(seed);
        let mut bot = RandomBot::new(seed);
        let mut step = 0;
        loop {
            if step % 7 == 0 {
                out.push(state.clone());
            }
            let Some(a) = bot.step(&state) else { break };
            state.apply_action(a).unwrap();
            step += 1;
        }
        out.push(state);
    }
    out
}

#[test]
fn mutated_states_are_refused_or_play_to_the_end() {
    let cases = cases();
    let game = SchottenTotten::default();
    let sources: Vec<Value> = positions()
        .iter()
        .map(|s| serde_json::from_str(&s.to_json()).unwrap())
        .collect();
    let (mut accepted, mut refused) = (0u64, 0u64);
    for case in 0..cases {
        let mut rng = rng::seeded(case, rng::STREAM_GAME);
        let mut json = pick(&mut rng, &sources).clone();
        for _ in 0..rng.random_range(1..=3u32) {
            mutate(&mut json, &mut rng);
        }
        let text = json.to_string();
        let result = catch_unwind(AssertUnwindSafe(|| match game.state_from_json(&text) {
            Ok(state) => {
                exercise(&game, state, case);
                true
            }
            Err(e) => {
                assert!(!e.to_string().is_empty());
                false
            }
        }));
        match result {
            Ok(true) => accepted += 1,
            Ok(false) => refused += 1,
            Err(panic) => {
                eprintln!("case {case} panicked on:\n{text}");
                resume_unwind(panic);
            }
        }
    }
    eprintln!("{cases} cases: {accepted} accepted, {refused} refused");
    assert!(
        accepted > cases / 20,
        "too few mutations keep a valid state: {accepted}"
    );
    assert!(refused > cases / 4, "too few mutations are refused: {refused}");
}

#[test]
fn mutated_views_are_refused_or_deal_a_state_that_plays_to_the_end() {
    let cases = cases() / 2;
    let game = SchottenTotten::default();
    let sources: Vec<Value> = positions()
        .iter()
        .enumerate()
        .map(|(i, s)| match i % 3 {
            2 => s.public_view(),
            p => s.view(p),
        })
        .collect();
    let (mut accepted, mut refused) = (0u64, 0u64);
    for case in 0..cases {
        let mut rng = rng::seeded(case, rng::STREAM_GAME + 1);
        let mut view = pick(&mut rng, &sources).clone();
        for _ in 0..rng.random_range(1..=3u32) {
            mutate(&mut view, &mut rng);
        }
        let result = catch_unwind(AssertUnwindSafe(
            || match spielwerk_core::DynGame::state_from_view(&game, &view, case) {
                Ok(_) => {
                    let typed = serde_json::from_value(view.clone()).expect("an accepted view parses");
                    let state = game.state_from_view(&typed, case).unwrap();
                    let seat = typed.player.map(usize::from);
                    assert_eq!(state.view_of(seat), typed);
                    exercise(&game, state, case);
                    true
                }
                Err(e) => {
                    assert_eq!(e.code(), "invalid_view", "{e}");
                    false
                }
            },
        ));
        match result {
            Ok(true) => accepted += 1,
            Ok(false) => refused += 1,
            Err(panic) => {
                eprintln!("case {case} panicked on the view:\n{view}");
                resume_unwind(panic);
            }
        }
    }
    eprintln!("{cases} view cases: {accepted} accepted, {refused} refused");
    assert!(
        accepted > cases / 20,
        "too few mutations keep a valid view: {accepted}"
    );
    assert!(refused > cases / 4, "too few mutations are refused: {refused}");
}
