//! Mutation fuzzing of Dog's boundary: serialized states from random games are changed
//! (numbers to other and out-of-range values, huge ones included; cards swapped,
//! duplicated or removed; booleans flipped; fields nulled or removed; strings changed).
//! Each mutated input must either be refused with an error, or give a state that plays
//! to the end with random moves and whose views, resample, render and JSON round trip
//! work: never a panic.
//!
//! `DOG_FUZZ_CASES=50000 cargo test -p spielwerk-core --test dog_fuzz` runs more cases.

use std::panic::{AssertUnwindSafe, catch_unwind};

use rand::RngExt;
use serde_json::{Value, json};
use spielwerk_core::bots::RandomBot;
use spielwerk_core::dog::{Dog, State};
use spielwerk_core::game::{Game, GameState};
use spielwerk_core::rng;

const CASES: u64 = 1_000;
/// Actions played on from an accepted mutated state (Dog games are long).
const PLAY_CAP: usize = 3_000;

fn base_states() -> Vec<String> {
    let game = Dog::default();
    let mut out = Vec::new();
    for seed in 0..12 {
        let mut state = game.new_initial_state(seed);
        let mut bot = RandomBot::new(seed);
        let mut n = 0;
        out.push(state.to_json());
        while let Some(a) = bot.step(&state) {
            state.apply_action(a).unwrap();
            n += 1;
            // Early, middle and late positions, sevens half played and exchanges half done.
            if n % 97 == 0 || state.seven().is_some() && n % 5 == 0 || (n % 300 < 4 && n > 200) {
                out.push(state.to_json());
            }
        }
        out.push(state.to_json());
    }
    out
}

fn other_number(r: &mut rng::Rng) -> Value {
    match r.random_range(0..14) {
        0 => json!(-1),
        1 => json!(r.random_range(0..8)),
        2 => json!(r.random_range(0..20)),
        3 => json!(63),
        4 => json!(64),
        5 => json!(80),
        6 => json!(255),
        7 => json!(256),
        8 => json!(u32::MAX),
        9 => json!(u64::MAX),
        10 => json!(1e20),
        11 => json!(-1_000_000),
        12 => json!(r.random_range(0..2000)),
        _ => json!(7),
    }
}

fn any_value(r: &mut rng::Rng) -> Value {
    match r.random_range(0..12) {
        0 => Value::Null,
        1 => json!(true),
        2 => json!("A"),
        3 => json!("JK"),
        4 => json!({"ring": r.random_range(0..70)}),
        5 => json!({"goal": r.random_range(0..5)}),
        6 => json!("kennel"),
        7 => json!({"remaining": r.random_range(0..8), "joker": r.random_bool(0.5)}),
        8 => json!([]),
        9 => json!({"winner": r.random_range(0..3), "points": [16, 2], "reason": "all_home"}),
        10 => json!({"marble": r.random_range(0..17), "steps": r.random_range(0..8), "goal": false}),
        _ => other_number(r),
    }
}

const STRINGS: [&str; 14] = [
    "A",
    "2",
    "7",
    "J",
    "K",
    "JK",
    "kennel",
    "play",
    "over",
    "exchange",
    "all_home",
    "turn_limit",
    "x",
    "",
];

/// Changes one place of `v`, chosen by walking down from the top at random.
fn mutate(v: &mut Value, r: &mut rng::Rng, depth: usize) {
    let descend = depth == 0 || r.random_bool(0.75);
    match v {
        Value::Object(map) if descend && !map.is_empty() => {
            let keys: Vec<String> = map.keys().cloned().collect();
            let key = &keys[r.random_range(0..keys.len())];
            match r.random_range(0..10) {
                0 => {
                    map.remove(key);
                }
                1 => {
                    map.insert(key.clone(), Value::Null);
                }
                _ => mutate(map.get_mut(key).unwrap(), r, depth + 1),
            }
        }
        Value::Array(items) if descend && !items.is_empty() => {
            let i = r.random_range(0..items.len());
            match r.random_range(0..10) {
                0 => {
                    items.remove(i);
                }
                1 => {
                    let copy = items[i].clone();
                    items.insert(i, copy);
                }
                2 => {
                    let j = r.random_range(0..items.len());
                    items.swap(i, j);
                }
                3 => items.push(any_value(r)),
                _ => mutate(&mut items[i], r, depth + 1),
            }
        }
        Value::Number(_) => *v = other_number(r),
        Value::Bool(b) => *b = !*b,
        Value::String(_) => *v = json!(STRINGS[r.random_range(0..STRINGS.len())]),
        _ => *v = any_value(r),
    }
}

/// Everything a caller may do with an accepted state, then random play to the end.
fn exercise(state: State, seed: u64) {
    let game = Dog::default();
    for p in 0..4 {
        let _ = state.view(p);
        let _ = state.history_for(p);
        let r = state.resample(p, seed).expect("an accepted state resamples");
        assert_eq!(r.view_of(Some(p)), state.view_of(Some(p)));
    }
    let _ = state.public_view();
    let public = game
        .state_from_view(&state.view_of(None), seed)
        .expect("the public view deals");
    assert_eq!(public.view_of(None), state.view_of(None));
    let _ = state.render();
    let _ = state.result_text();
    let _ = state.returns();
    assert_eq!(game.state_from_json(&state.to_json()).unwrap(), state);
    let mut state = state;
    let mut bot = RandomBot::new(seed);
    for _ in 0..PLAY_CAP {
        let legal = state.legal_actions();
        for &a in legal.iter().take(3) {
            let _ = state.action_to_string(a);
            assert_eq!(state.action_from_move(&state.action_to_move(a)).unwrap(), a);
        }
        let Some(a) = bot.step(&state) else { break };
        state.apply_action(a).expect("a legal action applies");
    }
    let _ = (
        state.render(),
        state.result_text(),
        state.view(0),
        state.to_json(),
    );
}

#[test]
fn mutated_states_are_refused_or_play_on() {
    let cases: u64 = std::env::var("DOG_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(CASES);
    let bases = base_states();
    let game = Dog::default();
    let (mut accepted, mut refused) = (0u64, 0u64);
    for case in 0..cases {
        let mut r = rng::seeded(case, rng::STREAM_POLICY);
        let mut v: Value = serde_json::from_str(&bases[r.random_range(0..bases.len())]).unwrap();
        for _ in 0..r.random_range(1..=3) {
            mutate(&mut v, &mut r, 0);
        }
        let text = v.to_string();
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            // The generic layer refuses a running game without legal actions as well.
            let dyn_ok = spielwerk_core::dynamic::DynGame::deserialize_state(&game, &text).is_ok();
            match game.state_from_json(&text) {
                Ok(state) => {
                    assert!(dyn_ok, "the generic layer refuses what the game accepts");
                    exercise(state, case);
                    true
                }
                Err(e) => {
                    assert!(!e.to_string().is_empty());
                    false
                }
            }
        }));
        match outcome {
            Ok(true) => accepted += 1,
            Ok(false) => refused += 1,
            Err(_) => panic!("case {case} panicked on: {text}"),
        }
    }
    eprintln!("{cases} cases: {accepted} accepted, {refused} refused");
    assert!(accepted > 0 && refused > 0);
}
