//! One conformance suite for every registered game (after OpenSpiel's `basic_tests`):
//! the shared contract of `Game` and `GameState`, checked the same way for each game and
//! a spread of options. A new game gets the whole battery by one line in `configs()`.
//!
//! - legal actions equal the move check over every id, and seats agree with the player
//!   to move;
//! - JSON, view and move round trips; the information-state key is the view's bytes
//!   (without the facts for people that a game leaves out of it: [`key_view`]);
//! - `resample` and `state_from_view` keep the view and depend on nothing else;
//! - games end within `max_game_length`, and rewards sum to the returns;
//! - a mutation fuzz of serialized states and moves: every mutated input is refused
//!   with an error or gives a consistent state that plays to the end; never a panic;
//! - binary snapshots: they round-trip every state, are refused exactly where the JSON
//!   of the same state is, and mutated bytes are refused or give a consistent state.

mod common;

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};

use rand::seq::SliceRandom;
use rand::{Rng as _, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Map, Value, json};
use spielwerk_core::caravan::CaravanGame;
use spielwerk_core::dog::Dog;
use spielwerk_core::game::{Action, Game, GameState, Lang};
use spielwerk_core::schotten_totten::SchottenTotten;
use spielwerk_core::the_game::TheGame;
use spielwerk_core::{DynGame, DynState, list_games, load_game};

/// Every game with a spread of its options (the registry's names).
fn configs() -> Vec<(&'static str, Value)> {
    vec![
        ("schotten_totten", json!({})),
        ("schotten_totten", json!({"first_player": 1})),
        ("caravan", json!({})),
        (
            "caravan",
            json!({"reshuffle": true, "fresh_hand": true, "quick_sale": true}),
        ),
        (
            "caravan",
            json!({"short_deck": true, "queens_anywhere": true, "kings_add": true}),
        ),
        (
            "caravan",
            json!({"double_deck": true, "unlimited_face_cards": true, "protected_joker": true}),
        ),
        (
            "caravan",
            json!({"founding_suit": true, "queens_shield": true, "fixed_course": true}),
        ),
        ("the_game", json!({"players": 1})),
        ("the_game", json!({"players": 2, "pro": true})),
        ("the_game", json!({"players": 3})),
        ("the_game", json!({"players": 4, "pro": true})),
        ("the_game", json!({"players": 5})),
        ("dog", json!({})),
        ("dog", json!({"max_turns": 60})),
    ]
}

fn load(name: &str, options: &Value) -> Box<dyn DynGame> {
    load_game(name, options.as_object().expect("options are an object")).expect("the game loads")
}

#[test]
fn every_registered_game_is_covered() {
    let covered: Vec<&str> = configs().iter().map(|(name, _)| *name).collect();
    for name in list_games() {
        assert!(covered.contains(&name), "{name} has no conformance config");
    }
}

/// Plays `games` random games of every config and calls `check` on the states along the
/// way (every `every`-th state, and the last).
fn for_states(games: u64, every: usize, mut check: impl FnMut(&str, &dyn DynGame, &dyn DynState, u64)) {
    for (name, options) in configs() {
        let game = load(name, &options);
        for seed in 0..games {
            let mut state = game.new_initial_state(seed);
            let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x00C0_FFEE);
            let mut buf = Vec::new();
            let mut step = 0;
            loop {
                let at = format!("{name} {options} seed {seed} step {step}");
                if step % every == 0 || state.is_terminal() {
                    check(&at, game.as_ref(), state.as_ref(), seed + step as u64);
                }
                if state.is_terminal() {
                    break;
                }
                state.legal_actions_into(&mut buf);
                let action = buf[rng.random_range(0..buf.len())];
                state.apply_action(action).unwrap_or_else(|e| panic!("{at}: {e}"));
                step += 1;
            }
        }
    }
}

#[test]
fn legal_actions_equal_the_move_check_over_every_id() {
    for_states(6, 5, |at, game, state, _| {
        let mut legal = Vec::new();
        state.legal_actions_into(&mut legal);
        let checked: Vec<Action> = (0..game.num_distinct_actions() as Action)
            .filter(|&a| state.check_action(a).is_ok())
            .collect();
        assert_eq!(legal, checked, "{at}");
        assert!(
            state.is_terminal() || !legal.is_empty(),
            "{at}: a running game has a legal action"
        );
        // Out of the space: refused with its own code (once the game is over, that may
        // come first), never a panic.
        let outside = state
            .check_action(game.num_distinct_actions() as Action)
            .map_err(|e| e.code);
        if state.is_terminal() {
            assert!(
                matches!(outside, Err("no_such_action" | "game_over")),
                "{at}: {outside:?}"
            );
        } else {
            assert_eq!(outside, Err("no_such_action"), "{at}");
        }
    });
}

#[test]
fn seats_agree_with_the_player_to_move() {
    for_states(6, 3, |at, game, state, _| {
        let seats = state.seats_to_move();
        match state.current_player() {
            None => assert!(seats.is_empty(), "{at}"),
            Some(p) => assert!(seats.contains(&p), "{at}: {seats:?} lacks {p}"),
        }
        let mut mine = Vec::new();
        let mut all = Vec::new();
        state.legal_actions_into(&mut all);
        for seat in 0..game.num_players() {
            state.legal_actions_for(seat, &mut mine);
            if seats.contains(&seat) {
                assert!(!mine.is_empty(), "{at}: seat {seat} may move but has no action");
                if state.current_player() == Some(seat) {
                    assert_eq!(mine, all, "{at}");
                }
            } else {
                assert!(mine.is_empty(), "{at}: seat {seat} is not to move");
                if let Some(&a) = all.first() {
                    let refused = state.check_action_for(seat, a).map_err(|e| e.code);
                    // Dog's exchange says more: the seat has picked already.
                    assert!(
                        matches!(refused, Err("not_your_turn" | "already_picked")),
                        "{at}: {refused:?}"
                    );
                }
            }
        }
    });
}

/// The view an information-state key holds: the view for people less the facts a game
/// derives for its board and leaves out of the key, so that the bots seeding each decision
/// by the key neither pay for them nor change their moves (The Game's piles' `takes` and
/// `backward`, Caravan's pairs' `facts`, Dog's `hand_targets`). Schotten Totten's key
/// carries its stone facts and settlement: the view is the key.
fn key_view(game: &str, view: &Value) -> Value {
    let mut view = view.clone();
    match game {
        "the_game" => {
            for pile in view["piles"].as_array_mut().unwrap() {
                let pile = pile.as_object_mut().unwrap();
                pile.remove("takes");
                pile.remove("backward");
            }
        }
        "caravan" => {
            for pair in view["pairs"].as_array_mut().unwrap() {
                pair.as_object_mut().unwrap().remove("facts");
            }
        }
        "dog" => {
            view.as_object_mut().unwrap().remove("hand_targets");
        }
        _ => {}
    }
    view
}

#[test]
fn json_view_and_move_round_trips() {
    for_states(6, 4, |at, game, state, _| {
        let json = state.to_json();
        let back = game
            .deserialize_state(&json)
            .unwrap_or_else(|e| panic!("{at}: {e}"));
        assert_eq!(back.to_json(), json, "{at}: serialize round trip");
        for seat in (0..game.num_players()).map(Some).chain([None]) {
            let bytes = state.view_json(seat);
            let view: Value = serde_json::from_slice(&bytes).unwrap();
            let expected = match seat {
                Some(p) => state.view(p),
                None => state.public_view(),
            };
            assert_eq!(view, expected, "{at}: view_json and view agree");
            if let Some(p) = seat {
                let key = state.information_state_key(p);
                if key_view(game.name(), &view) == view {
                    assert_eq!(key, bytes, "{at}: the key is the view's bytes");
                } else {
                    let key: Value = serde_json::from_slice(&key).unwrap();
                    assert_eq!(
                        key,
                        key_view(game.name(), &view),
                        "{at}: the key is the view without its facts"
                    );
                }
            }
            // The typed view reads its own JSON back (state_from_view accepts it).
            if let Err(e) = game.state_from_view(&view, 7) {
                panic!("{at}: the view of seat {seat:?} is refused: {e}");
            }
        }
        let mut legal = Vec::new();
        state.legal_actions_into(&mut legal);
        for a in legal {
            let mv = state.action_to_move(a);
            assert_eq!(state.action_from_move(&mv).ok(), Some(a), "{at}: {mv}");
            assert_eq!(
                state.check_move(&mv, None).map(|r| r.is_none()).ok(),
                Some(true),
                "{at}"
            );
            assert!(!state.action_to_string(a).is_empty());
        }
        // A view's schema names the view's fields.
        let schema = game.view_schema();
        let view = state.public_view();
        if let (Some(props), Some(obj)) = (schema["properties"].as_object(), view.as_object()) {
            for key in obj.keys() {
                assert!(props.contains_key(key), "{at}: the view schema lacks '{key}'");
            }
        }
    });
}

#[test]
fn resample_keeps_the_view_and_depends_on_nothing_else() {
    for_states(4, 6, |at, game, state, seed| {
        for p in 0..game.num_players() {
            let view = state.view(p);
            let resampled = state.resample(p, seed).unwrap_or_else(|e| panic!("{at}: {e}"));
            assert_eq!(resampled.view(p), view, "{at}: resample keeps the view of {p}");
            let built = game.state_from_view(&view, seed).unwrap();
            assert_eq!(
                built.to_json(),
                resampled.to_json(),
                "{at}: resample is state_from_view"
            );
            // A resampled state is consistent: it reads back and plays on.
            let back = game
                .deserialize_state(&resampled.to_json())
                .unwrap_or_else(|e| panic!("{at}: {e}"));
            play_out(back, seed, game.max_game_length());
        }
        let public = state.public_view();
        let built = game
            .state_from_view(&public, seed)
            .unwrap_or_else(|e| panic!("{at}: {e}"));
        assert_eq!(built.public_view(), public, "{at}: the public view is kept");
    });
}

/// Plays random moves to the end; panics if the game outlasts `max_length`.
fn play_out(mut state: Box<dyn DynState>, seed: u64, max_length: u64) -> Box<dyn DynState> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut buf = Vec::new();
    let mut steps = state.history().len() as u64;
    while !state.is_terminal() {
        state.legal_actions_into(&mut buf);
        assert!(!buf.is_empty(), "a running game has a legal action");
        let a = buf[rng.random_range(0..buf.len())];
        state.apply_action(a).expect("a legal action applies");
        steps += 1;
        assert!(
            steps <= max_length.saturating_add(1_000),
            "the game runs past its bound"
        );
    }
    state
}

#[test]
fn games_end_within_their_bound_and_rewards_sum_to_returns() {
    for (name, options) in configs() {
        let game = load(name, &options);
        for seed in 0..10 {
            let mut state = game.new_initial_state(seed);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut buf = Vec::new();
            let mut total = vec![0.0; game.num_players()];
            while !state.is_terminal() {
                state.legal_actions_into(&mut buf);
                state.apply_action(buf[rng.random_range(0..buf.len())]).unwrap();
                for (t, r) in total.iter_mut().zip(state.rewards()) {
                    *t += r;
                }
            }
            let at = format!("{name} {options} seed {seed}");
            assert!(state.history().len() as u64 <= game.max_game_length(), "{at}");
            assert_eq!(total, state.returns(), "{at}");
            assert!(state.result_text().is_some(), "{at}");
        }
    }
}

/// The same seed gives the same resample; the view alone decides it.
#[test]
fn resample_is_seeded() {
    for_states(2, 9, |at, game, state, seed| {
        let p = state.current_player().unwrap_or(0);
        let a = state.resample(p, seed).unwrap().to_json();
        let b = state.resample(p, seed).unwrap().to_json();
        assert_eq!(a, b, "{at}");
        let _ = game;
    });
}

// --- Mutation fuzz ----------------------------------------------------------------------

/// Every leaf and node of a JSON document, as paths.
fn paths(value: &Value, at: &mut Vec<PathStep>, out: &mut Vec<Vec<PathStep>>) {
    out.push(at.clone());
    match value {
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                at.push(PathStep::Index(i));
                paths(v, at, out);
                at.pop();
            }
        }
        Value::Object(map) => {
            for (k, v) in map {
                at.push(PathStep::Key(k.clone()));
                paths(v, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

#[derive(Clone, Debug)]
enum PathStep {
    Index(usize),
    Key(String),
}

fn at_path<'a>(value: &'a mut Value, path: &[PathStep]) -> &'a mut Value {
    path.iter().fold(value, |v, step| match step {
        PathStep::Index(i) => &mut v[*i],
        PathStep::Key(k) => &mut v[k.as_str()],
    })
}

/// One random change of where things lie, the subtle kind that keeps every count: an item
/// (a card) moved from one list of plain values to another list of the same kind (a hand,
/// a pile, a deck, a stone's side), or two items swapped between lists. The per-game
/// fuzzers this suite replaced moved cards so; here the lists are found by their shape.
fn move_between_places(doc: &mut Value, rng: &mut ChaCha8Rng) {
    let mut all = Vec::new();
    paths(doc, &mut Vec::new(), &mut all);
    let kind = |v: &Value| match v {
        Value::String(_) => 1,
        Value::Number(_) => 2,
        _ => 0,
    };
    // Lists of plain values, by the kind of their first item (empty lists take either).
    let lists: Vec<(Vec<PathStep>, u8)> = all
        .into_iter()
        .filter_map(|path| {
            let items = at_path(&mut doc.clone(), &path).as_array().cloned()?;
            match items.first().map(kind) {
                None => Some((path, 0)),
                Some(0) => None,
                Some(k) if items.iter().all(|v| kind(v) == k) => Some((path, k)),
                Some(_) => None,
            }
        })
        .collect();
    let full: Vec<&(Vec<PathStep>, u8)> = lists.iter().filter(|(_, k)| *k != 0).collect();
    if full.is_empty() {
        return;
    }
    let (from, k) = full[rng.random_range(0..full.len())].clone();
    let targets: Vec<&(Vec<PathStep>, u8)> = lists.iter().filter(|(_, t)| *t == 0 || *t == k).collect();
    let (to, _) = targets[rng.random_range(0..targets.len())].clone();
    let len = at_path(doc, &from).as_array().map_or(0, Vec::len);
    let i = rng.random_range(0..len);
    if rng.random_bool(0.7) {
        let item = at_path(doc, &from).as_array_mut().unwrap().remove(i);
        let target = at_path(doc, &to).as_array_mut().unwrap();
        let at = rng.random_range(0..=target.len());
        target.insert(at, item);
    } else {
        let other = at_path(doc, &to).as_array().map_or(0, Vec::len);
        if other == 0 {
            return;
        }
        let j = rng.random_range(0..other);
        let a = at_path(doc, &from)[i].clone();
        let b = std::mem::replace(&mut at_path(doc, &to)[j], a);
        at_path(doc, &from)[i] = b;
    }
}

/// One random change to `doc`: numbers to neighbours and extremes, booleans flipped,
/// strings swapped for others from the document, nulls, elements removed, duplicated or
/// swapped, keys removed.
fn mutate(doc: &mut Value, rng: &mut ChaCha8Rng, strings: &[String]) {
    let mut all = Vec::new();
    paths(doc, &mut Vec::new(), &mut all);
    let path = &all[rng.random_range(0..all.len())];
    let target = at_path(doc, path);
    match target {
        Value::Number(n) => {
            let x = n.as_i64().unwrap_or(0);
            *target = match rng.random_range(0..8) {
                0 => json!(x.saturating_add(1)),
                1 => json!(x.saturating_sub(1)),
                2 => json!(0),
                3 => json!(-1),
                4 => json!(u64::MAX),
                5 => json!(i64::MIN),
                6 => json!(1.5),
                _ => json!(rng.random_range(0..100)),
            }
        }
        Value::Bool(b) => *target = Value::Bool(!*b),
        Value::String(_) => {
            *target = match rng.random_range(0..4) {
                0 => Value::String(String::new()),
                1 => Value::String("x".repeat(100_000)),
                _ => Value::String(strings[rng.random_range(0..strings.len())].clone()),
            }
        }
        Value::Array(items) if !items.is_empty() => {
            let i = rng.random_range(0..items.len());
            match rng.random_range(0..3) {
                0 => {
                    items.remove(i);
                }
                1 => {
                    let copy = items[i].clone();
                    items.insert(i, copy);
                }
                _ => {
                    let j = rng.random_range(0..items.len());
                    items.swap(i, j);
                }
            }
        }
        Value::Object(map) if !map.is_empty() => {
            let keys: Vec<String> = map.keys().cloned().collect();
            let key = &keys[rng.random_range(0..keys.len())];
            if rng.random_bool(0.5) {
                map.remove(key);
            } else {
                map.insert(key.clone(), Value::Null);
            }
        }
        other => *other = json!(rng.random_range(0..10)),
    }
}

fn strings_of(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|v| strings_of(v, out)),
        Value::Object(map) => map.iter().for_each(|(k, v)| {
            out.push(k.clone());
            strings_of(v, out);
        }),
        _ => {}
    }
}

/// A view in the form in which two JSON texts of one typed view agree: a missing optional
/// field and a null one say the same, and a list of plain values may be a set, which the
/// typed view keeps in its own order (The Game's played cards). A move's field left at its
/// default reads as the default too: Dog's `"goal": false` in a move (`"type": "move"` or
/// `"seven"`) of `hand_targets`, as in every Dog move (the move parser's default).
fn without_nulls(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let is_move = map.contains_key("type");
            Value::Object(
                map.into_iter()
                    .filter(|(k, v)| {
                        let default_goal = is_move && k == "goal" && *v == Value::Bool(false);
                        !v.is_null() && !default_goal
                    })
                    .map(|(k, v)| (k, without_nulls(v)))
                    .collect(),
            )
        }
        Value::Array(items) => {
            let mut items: Vec<Value> = items.into_iter().map(without_nulls).collect();
            if items.iter().all(|v| v.is_number() || v.is_string()) {
                items.sort_by_key(Value::to_string);
            }
            Value::Array(items)
        }
        other => other,
    }
}

/// The facts a view derives for people's boards (Schotten Totten's stones' `facts` and
/// `settlement`, The Game's piles' `takes` and `backward`, Caravan's pairs' `facts`, Dog's
/// `hand_targets`): `state_from_view` accepts them left out or null and derives them again,
/// and refuses them given wrong.
const DERIVED: [&str; 5] = ["facts", "settlement", "takes", "backward", "hand_targets"];

/// `built` (the view of a state built from `given`) with the derived facts that `given`
/// left out or null left out too: what `given` promises is everything else, and the facts
/// it did give (those must be kept, as every other field).
fn facts_as_given(built: Value, given: &Value) -> Value {
    match (built, given) {
        (Value::Object(map), Value::Object(given)) => Value::Object(
            map.into_iter()
                .filter(|(k, _)| !DERIVED.contains(&k.as_str()) || given.get(k).is_some_and(|v| !v.is_null()))
                .map(|(k, v)| {
                    let v = match given.get(&k) {
                        Some(g) => facts_as_given(v, g),
                        None => v,
                    };
                    (k, v)
                })
                .collect(),
        ),
        (Value::Array(items), Value::Array(given)) if items.len() == given.len() => Value::Array(
            items
                .into_iter()
                .zip(given)
                .map(|(v, g)| facts_as_given(v, g))
                .collect(),
        ),
        (built, _) => built,
    }
}

/// Everything a client can do with a state it was handed: nothing of it may panic.
fn exercise(game: &dyn DynGame, state: Box<dyn DynState>, seed: u64) {
    for p in 0..game.num_players() {
        let _ = state.view(p);
        let _ = state.hand(p);
        let _ = state.history_for(p);
        let resampled = state.resample(p, seed).expect("an accepted state resamples");
        let _ = play_out(resampled, seed, game.max_game_length());
    }
    let _ = state.public_view();
    let _ = state.render();
    let _ = state.result_text();
    let mut buf = Vec::new();
    state.legal_actions_into(&mut buf);
    for &a in buf.iter().take(20) {
        let _ = state.action_to_string(a);
        let mv = state.action_to_move(a);
        assert_eq!(state.action_from_move(&mv).ok(), Some(a));
    }
    let json = state.to_json();
    let back = game
        .deserialize_state(&json)
        .expect("an accepted state round-trips");
    assert_eq!(back.to_json(), json);
    let snapshot = state.to_snapshot();
    let back = game
        .deserialize_snapshot(&snapshot)
        .expect("an accepted state round-trips as a snapshot");
    assert_eq!((back.to_json(), back.to_snapshot()), (json, snapshot));
    play_out(state, seed, game.max_game_length());
}

/// Words of the English messages that no German one has (whole words, any case).
const ENGLISH_WORDS: &[&str] = &[
    "the", "is", "are", "but", "not", "must", "does", "exist", "and", "or", "of", "with", "has", "holds",
    "cards", "card", "player", "players", "seat", "seats", "expected", "missing", "unknown", "field",
    "invalid", "view", "state", "move", "only", "cannot", "no",
];

/// A refusal says it in German too (`Error::message`): a German message unlike the English
/// one, without English words outside what it quotes (input in quotes, single quotes or
/// backticks, JSON)
/// and identifiers (`hand_sizes`).
fn says_it_in_german(e: &spielwerk_core::Error) {
    let (en, de) = (e.to_string(), e.message(Lang::De));
    assert_ne!(de, en, "no German for: {en}");
    // A game's name and options (`players=2`) are names too.
    let named = de.replace("The Game", "");
    let mut plain = String::new();
    let mut closing: Option<char> = None;
    let mut depth = 0usize;
    for c in named.chars() {
        match (closing, c) {
            (Some(end), c) if c == end => closing = None,
            (None, '`' | '"' | '\'') => closing = Some(c),
            (None, '{' | '[' | '(') if depth > 0 || c != '(' => depth += 1,
            (None, '}' | ']') => depth = depth.saturating_sub(1),
            (None, c) if depth == 0 => plain.push(c),
            // Inside a quote or brackets: a name or input, not the message's words.
            _ => {}
        }
    }
    for word in plain.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '=')) {
        if word.contains(['_', '=']) || word.is_empty() {
            continue;
        }
        assert!(
            !ENGLISH_WORDS.contains(&word.to_lowercase().as_str()),
            "the German message has the English word '{word}': {de}\n(English: {en})"
        );
    }
}

/// Runs `f`, and on a panic shows which input caused it before passing the panic on.
fn blame(input: &str, f: impl FnOnce()) {
    if let Err(panic) = catch_unwind(AssertUnwindSafe(f)) {
        let shown: String = input.chars().take(2_000).collect();
        eprintln!("panicked on input: {shown}");
        resume_unwind(panic);
    }
}

/// Cases per config; `SPIELWERK_FUZZ_CASES` raises it for a long run by hand.
fn fuzz_cases() -> u64 {
    std::env::var("SPIELWERK_FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(150)
}

/// Cases per config beyond [`fuzz_cases`] for mutated states and views, for the games whose
/// own fuzzers this suite replaced (they ran 1,000-2,000 cheaper cases per game; a case here
/// resamples every seat and plays each out, so fewer of them take as long; Dog's games are
/// long, its 150 cases per config are the most a bounded run affords).
/// `SPIELWERK_FUZZ_CASES` raises the base for a long run by hand.
fn per_game_cases(name: &str) -> (u64, u64) {
    match name {
        "schotten_totten" => (150, 150),
        "caravan" => (50, 100),
        "the_game" => (50, 50),
        _ => (0, 0),
    }
}

#[test]
fn mutated_states_are_refused_or_consistent() {
    for (name, options) in configs() {
        let game = load(name, &options);
        let mut rng = ChaCha8Rng::seed_from_u64(0xF0221);
        for case in 0..fuzz_cases() + per_game_cases(name).0 {
            // A state somewhere in a random game.
            let seed = rng.next_u64() % 1_000;
            let mut state = game.new_initial_state(seed);
            let mut buf = Vec::new();
            let steps = rng.random_range(0..400);
            for _ in 0..steps {
                if state.is_terminal() {
                    break;
                }
                state.legal_actions_into(&mut buf);
                state.apply_action(buf[rng.random_range(0..buf.len())]).unwrap();
            }
            let mut doc: Value = serde_json::from_str(&state.to_json()).unwrap();
            let mut strings = Vec::new();
            strings_of(&doc, &mut strings);
            for _ in 0..rng.random_range(1..4) {
                if rng.random_bool(0.3) {
                    move_between_places(&mut doc, &mut rng);
                } else {
                    mutate(&mut doc, &mut rng, &strings);
                }
            }
            let input = doc.to_string();
            blame(&input, || match game.deserialize_state(&input) {
                Ok(accepted) => exercise(game.as_ref(), accepted, case),
                Err(e) => says_it_in_german(&e),
            });
        }
    }
}

#[test]
fn mutated_views_are_refused_or_kept() {
    for (name, options) in configs() {
        let game = load(name, &options);
        let mut rng = ChaCha8Rng::seed_from_u64(0x71E3);
        for _ in 0..fuzz_cases() + per_game_cases(name).1 {
            let seed = rng.next_u64() % 1_000;
            let mut state = game.new_initial_state(seed);
            let mut buf = Vec::new();
            for _ in 0..rng.random_range(0..300) {
                if state.is_terminal() {
                    break;
                }
                state.legal_actions_into(&mut buf);
                state.apply_action(buf[rng.random_range(0..buf.len())]).unwrap();
            }
            let seat = rng.random_range(0..game.num_players());
            let mut view = state.view(seat);
            let mut strings = Vec::new();
            strings_of(&view, &mut strings);
            if rng.random_bool(0.3) {
                move_between_places(&mut view, &mut rng);
            } else {
                mutate(&mut view, &mut rng, &strings);
            }
            let input = view.to_string();
            blame(&input, || {
                let built = game.state_from_view(&view, seed);
                if let Err(e) = &built {
                    says_it_in_german(e);
                }
                if let Ok(built) = built {
                    let seat = view["player"].as_u64().map(|p| p as usize);
                    // A view that is accepted is the built state's view.
                    let again = match seat {
                        Some(p) => built.view(p),
                        None => built.public_view(),
                    };
                    assert_eq!(
                        without_nulls(facts_as_given(again, &view)),
                        without_nulls(view.clone()),
                        "state_from_view keeps the view"
                    );
                    let json = built.to_json();
                    if let Ok(back) = game.deserialize_state(&json) {
                        play_out(back, seed, game.max_game_length());
                    } else {
                        panic!("a state built from a view does not read back");
                    }
                }
            });
        }
    }
}

#[test]
fn mutated_moves_are_refused_or_parsed() {
    let junk_moves = [
        json!(null),
        json!([]),
        json!("pass"),
        json!({}),
        json!({"type": 7}),
        json!({"type": "pass", "x": 1}),
        json!({"type": "play", "card": "x".repeat(1_000_000), "stone": 1}),
        json!({"type": "play", "card": 5, "stone": -1, "pile": 9}),
    ];
    for (name, options) in configs() {
        let game = load(name, &options);
        let state = game.new_initial_state(1);
        for mv in &junk_moves {
            if let Err(e) = state.action_from_move(mv) {
                assert!(
                    e.to_string().len() < 2_000 && e.message(Lang::De).len() < 2_000,
                    "{name}: the error echoes too much: {e}"
                );
                says_it_in_german(&e);
            }
            let _ = state.check_move(mv, Some(0));
        }
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut buf = Vec::new();
        state.legal_actions_into(&mut buf);
        for _ in 0..fuzz_cases() * 4 {
            let a = buf[rng.random_range(0..buf.len())];
            let mut mv = state.action_to_move(a);
            let mut strings = Vec::new();
            strings_of(&mv, &mut strings);
            mutate(&mut mv, &mut rng, &strings);
            let input = mv.to_string();
            blame(&input, || match state.action_from_move(&mv) {
                Ok(action) => {
                    assert!((action as usize) < game.num_distinct_actions());
                    let _ = state.check_move(&mv, None);
                }
                Err(e) => says_it_in_german(&e),
            });
        }
    }
}

/// Every state of `games` random games of `game` (every `every`-th, and the last), typed.
fn typed_states<G: Game>(game: &G, games: u64, every: usize, mut check: impl FnMut(&str, &G::State)) {
    for seed in 0..games {
        let mut state = game.new_initial_state(seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5AA9);
        let mut buf = Vec::new();
        for step in 0.. {
            if step % every == 0 || GameState::is_terminal(&state) {
                check(&format!("{} seed {seed} step {step}", G::NAME), &state);
            }
            if GameState::is_terminal(&state) {
                break;
            }
            GameState::legal_actions_into(&state, &mut buf);
            GameState::apply_action(&mut state, buf[rng.random_range(0..buf.len())]).unwrap();
        }
    }
}

/// `state_from_snapshot(to_snapshot(s)) == s` over thousands of states of every game and
/// a spread of options, compared as typed states (every field, the history included).
#[test]
fn snapshots_round_trip_every_state() {
    fn check<G: Game>(game: &G, games: u64, every: usize) -> usize
    where
        G::State: PartialEq + std::fmt::Debug,
    {
        let mut states = 0;
        typed_states(game, games, every, |at, state| {
            let snapshot = GameState::to_snapshot(state);
            let back = game
                .state_from_snapshot(&snapshot)
                .unwrap_or_else(|e| panic!("{at}: {e}"));
            assert_eq!(&back, state, "{at}");
            assert_eq!(GameState::to_snapshot(&back), snapshot, "{at}");
            // Far shorter than the JSON: cards as bytes, numbers as varints.
            assert!(snapshot.len() * 2 < GameState::to_json(state).len(), "{at}");
            states += 1;
        });
        states
    }
    let mut states = 0;
    for (name, options) in configs() {
        let options = options.as_object().unwrap();
        states += match name {
            "schotten_totten" => check(&SchottenTotten::from_options(options).unwrap(), 30, 1),
            "caravan" => check(&CaravanGame::from_options(options).unwrap(), 12, 1),
            "the_game" => check(&TheGame::from_options(options).unwrap(), 30, 1),
            "dog" => check(&Dog::from_options(options).unwrap(), 4, 3),
            other => panic!("no typed check for {other}"),
        };
    }
    assert!(states > 10_000, "only {states} states");
}

/// A snapshot is read with the same checks as JSON: states built unchecked from mutated
/// JSON (serde alone does not check a Schotten Totten, Caravan or The Game state whole)
/// are refused by the snapshot reader exactly where `state_from_json` refuses them, with
/// the same message.
#[test]
fn snapshots_are_checked_like_json() {
    fn check<G: Game>(game: &G, rng: &mut ChaCha8Rng) -> (u32, u32) {
        let (mut refused, mut accepted) = (0, 0);
        for _ in 0..fuzz_cases() * 2 {
            let mut state = game.new_initial_state(rng.next_u64() % 1_000);
            let mut buf = Vec::new();
            for _ in 0..rng.random_range(0..300) {
                if GameState::is_terminal(&state) {
                    break;
                }
                GameState::legal_actions_into(&state, &mut buf);
                GameState::apply_action(&mut state, buf[rng.random_range(0..buf.len())]).unwrap();
            }
            let mut doc: Value = serde_json::from_str(&GameState::to_json(&state)).unwrap();
            let mut strings = Vec::new();
            strings_of(&doc, &mut strings);
            for _ in 0..rng.random_range(1..3) {
                mutate(&mut doc, rng, &strings);
            }
            let json = doc.to_string();
            let Ok(unchecked) = serde_json::from_str::<G::State>(&json) else {
                continue;
            };
            let from_json = game.state_from_json(&json).map(|_| ()).map_err(|e| e.to_string());
            let from_snapshot = game
                .state_from_snapshot(&GameState::to_snapshot(&unchecked))
                .map(|_| ())
                .map_err(|e| e.to_string());
            assert_eq!(from_snapshot, from_json, "{json}");
            if from_json.is_ok() {
                accepted += 1;
            } else {
                refused += 1;
            }
        }
        (refused, accepted)
    }
    let mut rng = ChaCha8Rng::seed_from_u64(0x5A95);
    for (name, options) in configs() {
        let options = options.as_object().unwrap();
        let (refused, accepted) = match name {
            "schotten_totten" => check(&SchottenTotten::from_options(options).unwrap(), &mut rng),
            "caravan" => check(&CaravanGame::from_options(options).unwrap(), &mut rng),
            "the_game" => check(&TheGame::from_options(options).unwrap(), &mut rng),
            // Reading a Dog state checks it whole already in serde: no unchecked ones.
            _ => continue,
        };
        assert!(
            refused > 10 && accepted > 0,
            "{name} {options:?}: {refused} refused, {accepted} accepted"
        );
    }
}

/// One random change to a snapshot's bytes: a byte set, bumped or flipped, bytes cut,
/// inserted or removed, or a stretch copied from another state's snapshot.
fn mutate_bytes(bytes: &mut Vec<u8>, rng: &mut ChaCha8Rng, other: &[u8]) {
    let i = rng.random_range(0..bytes.len());
    match rng.random_range(0..8) {
        0 => bytes[i] = rng.random(),
        1 => bytes[i] = bytes[i].wrapping_add(1),
        2 => bytes[i] = bytes[i].wrapping_sub(1),
        3 => bytes[i] ^= 1 << rng.random_range(0..8),
        4 => bytes.truncate(i),
        5 => bytes.insert(i, rng.random()),
        6 => {
            bytes.remove(i);
        }
        _ => {
            let j = rng.random_range(0..other.len());
            let n = rng.random_range(1..16).min(other.len() - j).min(bytes.len() - i);
            bytes[i..i + n].copy_from_slice(&other[j..j + n]);
        }
    }
}

#[test]
fn mutated_snapshots_are_refused_or_consistent() {
    for (name, options) in configs() {
        let game = load(name, &options);
        let mut rng = ChaCha8Rng::seed_from_u64(0x5A9F);
        let mut accepted = 0;
        let mut other = game.new_initial_state(1).to_snapshot();
        // Many small cases: most mutations of a binary format are refused early.
        for case in 0..fuzz_cases() * 4 {
            let seed = rng.next_u64() % 1_000;
            let mut state = game.new_initial_state(seed);
            let mut buf = Vec::new();
            for _ in 0..rng.random_range(0..400) {
                if state.is_terminal() {
                    break;
                }
                state.legal_actions_into(&mut buf);
                state.apply_action(buf[rng.random_range(0..buf.len())]).unwrap();
            }
            let mut bytes = state.to_snapshot();
            // Mostly the body, sometimes the header.
            for _ in 0..rng.random_range(1..4) {
                if bytes.is_empty() {
                    break;
                }
                mutate_bytes(&mut bytes, &mut rng, &other);
            }
            other = state.to_snapshot();
            let shown = format!("{bytes:?}");
            blame(&shown, || match game.deserialize_snapshot(&bytes) {
                Ok(state) => {
                    accepted += 1;
                    exercise(game.as_ref(), state, case);
                }
                Err(e) => says_it_in_german(&e),
            });
        }
        // Some mutations keep a consistent state (a card for another, a flag): those
        // must play on.
        assert!(
            accepted > 0,
            "{name} {options}: every mutated snapshot was refused"
        );
    }
}

/// A snapshot of another game, of other options, or cut short is refused with an error
/// saying so; JSON is no snapshot.
#[test]
fn foreign_snapshots_are_refused() {
    let games: Vec<Box<dyn DynGame>> = configs().iter().map(|(n, o)| load(n, o)).collect();
    for game in &games {
        let state = game.new_initial_state(5);
        let snapshot = state.to_snapshot();
        for other in &games {
            let read = other.deserialize_snapshot(&snapshot);
            if other.name() == game.name() && other.options() == game.options() {
                assert_eq!(read.unwrap().to_json(), state.to_json());
                continue;
            }
            let e = read
                .err()
                .expect("another game's or options' snapshot is refused");
            assert_eq!(e.code(), "invalid_state");
            let said = e.to_string();
            if other.name() == game.name() {
                assert!(said.contains("options"), "{said}");
            } else {
                assert!(said.contains(&format!("of the game '{}'", game.name())), "{said}");
            }
        }
        for cut in 0..snapshot.len() {
            let e = game
                .deserialize_snapshot(&snapshot[..cut])
                .err()
                .expect("a cut snapshot is refused");
            assert_eq!(e.code(), "invalid_state", "{e}");
        }
        let e = game
            .deserialize_snapshot(state.to_json().as_bytes())
            .err()
            .unwrap();
        assert!(e.to_string().contains("magic"), "{e}");
    }
}

/// The typed games, directly: `Game::state_from_view` agrees with the registry's.
#[test]
fn typed_and_dynamic_faces_agree() {
    fn check<G: Game<State: spielwerk_core::bots::Heuristic>>(game: &G) {
        let state = game.new_initial_state(3);
        let view = state.view_of(Some(0));
        let typed = game.state_from_view(&view, 11).unwrap();
        let dynamic = DynGame::state_from_view(game, &serde_json::to_value(&view).unwrap(), 11).unwrap();
        assert_eq!(serde_json::to_string(&typed).unwrap(), dynamic.to_json());
        let _: Map<String, Value> = Game::options(game);
    }
    check(&SchottenTotten::default());
    check(&CaravanGame::default());
    check(&TheGame::default());
    check(&Dog::default());
}

/// R1, C11, D13: a match stopped by a match rule. A seat that resigns, runs out of time,
/// leaves or does not move loses for its side (zero-sum: the others win; Dog: the other
/// team; The Game: everybody, with every card still in play); the returns sum as the game's
/// utility says; an aborted match and a playing time without points are a draw; Dog's
/// playing time scores a point per marble home. Nothing of the state changes.
#[test]
fn match_rules_end_a_match_as_r1_and_d13_say() {
    use spielwerk_core::game::MatchEnd;
    use spielwerk_core::meta::Utility;
    for_states(2, 9, |at, game, state, _| {
        let n = game.num_players();
        let before = state.to_json();
        for seat in 0..n {
            for end in [
                MatchEnd::Resigned(seat),
                MatchEnd::Time(seat),
                MatchEnd::Left(seat),
                MatchEnd::NoMove(seat),
            ] {
                let e = spielwerk_core::with_state!(state, s => s.match_ending(end));
                assert_eq!(e.returns.len(), n, "{at}");
                // Seats counted from 1 in the text; the rule is a field, never "(C11)" in it.
                assert!(
                    e.text.starts_with(&format!("player {} ", seat + 1)),
                    "{at}: {}",
                    e.text
                );
                assert!(!e.text.contains("C11"), "{at}: {}", e.text);
                let rule = if matches!(end, MatchEnd::Resigned(_)) {
                    None
                } else {
                    Some("C11")
                };
                assert_eq!(e.rule, rule, "{at}");
                match game.utility() {
                    Utility::ZeroSum => {
                        assert_eq!(e.returns[seat], -1.0, "{at}");
                        assert_eq!(e.returns.iter().sum::<f64>(), f64::from(n as u32) - 2.0, "{at}");
                        assert!(
                            e.text.ends_with(&format!("player {} wins", 2 - seat)),
                            "{at}: {}",
                            e.text
                        );
                    }
                    Utility::TeamZeroSum => {
                        for p in 0..n {
                            assert_eq!(e.returns[p], if p % 2 == seat % 2 { -1.0 } else { 1.0 }, "{at}");
                        }
                        assert!(
                            e.text.contains(&format!("team {} ", 2 - seat % 2)),
                            "{at}: {}",
                            e.text
                        );
                    }
                    Utility::Cooperative => {
                        let view = state.public_view();
                        let in_hands: u64 = view["hand_sizes"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|h| h.as_u64().unwrap())
                            .sum();
                        let left = (in_hands + view["draw_pile_size"].as_u64().unwrap()) as f64;
                        assert!(
                            e.returns.iter().all(|&r| r == -left),
                            "{at}: {:?} vs {left}",
                            e.returns
                        );
                    }
                }
                assert_eq!(e.points, None, "{at}");
            }
            let aborted = spielwerk_core::with_state!(state, s => s.match_ending(MatchEnd::Aborted(seat)));
            assert!(aborted.returns.iter().all(|&r| r == 0.0), "{at}");
            assert!(aborted.text.contains("aborted"), "{at}");
            assert_eq!(aborted.rule, Some("C11"), "{at}");
        }
        // An open seat nobody took: the match never began, so nobody wins and no seat is
        // named (it is not C11's missed first move).
        let withdrawn = spielwerk_core::with_state!(state, s => s.match_ending(MatchEnd::Withdrawn));
        assert!(withdrawn.returns.iter().all(|&r| r == 0.0), "{at}");
        assert_eq!(withdrawn.returns.len(), n, "{at}");
        assert_eq!(withdrawn.points, None, "{at}");
        assert!(
            withdrawn.text.starts_with("withdrawn: ") && !withdrawn.text.contains("C11"),
            "{at}: {}",
            withdrawn.text
        );
        let german =
            spielwerk_core::with_state!(state, s => s.match_ending_in(MatchEnd::Withdrawn, Lang::De));
        assert!(
            german.text.starts_with("zurückgezogen: "),
            "{at}: {}",
            german.text
        );
        assert_eq!(german.returns, withdrawn.returns, "{at}");
        let stopped = spielwerk_core::with_state!(state, s => s.match_ending(MatchEnd::PlayingTime));
        assert!(stopped.returns.iter().all(|&r| r == 0.0), "{at}");
        if game.name() == "dog" {
            let view = state.public_view();
            let mut home = [0u32; 2];
            for m in view["marbles"].as_array().unwrap() {
                if m["place"].get("goal").is_some() {
                    home[m["player"].as_u64().unwrap() as usize % 2] += 1;
                }
            }
            assert_eq!(stopped.points, Some(home), "{at}");
        } else {
            assert_eq!(stopped.points, None, "{at}");
        }
        assert_eq!(state.to_json(), before, "{at}");
    });
}

#[test]
fn match_rules_by_name_say_which_exist() {
    use spielwerk_core::game::MatchEnd;
    assert_eq!(MatchEnd::parse("time", Some(1)).unwrap(), MatchEnd::Time(1));
    assert_eq!(
        MatchEnd::parse("playing_time", None).unwrap(),
        MatchEnd::PlayingTime
    );
    let e = MatchEnd::parse("forfeit", Some(0)).unwrap_err();
    assert!(
        e.to_string()
            .contains("aborted, left, no_move, playing_time, resigned, time"),
        "{e}"
    );
    assert_eq!(MatchEnd::parse("withdrawn", None).unwrap(), MatchEnd::Withdrawn);
    assert!(MatchEnd::parse("withdrawn", Some(1)).is_err());
    assert!(e.to_string().contains("withdrawn"), "{e}");
    assert!(MatchEnd::parse("resigned", None).is_err());
    assert!(MatchEnd::parse("playing_time", Some(0)).is_err());
}

// --- Forged views and states no game reaches (issue 22) ---------------------------------

/// The view of `seat` (`None`: the public view).
fn view_of(state: &dyn DynState, seat: Option<usize>) -> Value {
    match seat {
        Some(p) => state.view(p),
        None => state.public_view(),
    }
}

/// The numbers of a view that count or name something (a field's value, or one entry of
/// a per-seat list of sizes), not the cards of a hand or pile.
fn counts(doc: &Value) -> Vec<Vec<PathStep>> {
    let mut all = Vec::new();
    paths(doc, &mut Vec::new(), &mut all);
    all.into_iter()
        .filter(|path| {
            let counting = match path.as_slice() {
                [.., PathStep::Key(_)] => true,
                [.., PathStep::Key(k), PathStep::Index(_)] => k.ends_with("sizes"),
                _ => false,
            };
            counting && at_path(&mut doc.clone(), path).is_u64()
        })
        .collect()
}

/// Whether a count is the size of a place (a hand, a pile, a deck): where hidden cards lie.
fn is_size(path: &[PathStep]) -> bool {
    match path {
        [.., PathStep::Key(k)] => k.ends_with("size"),
        [.., PathStep::Key(k), PathStep::Index(_)] => k.ends_with("sizes"),
        _ => false,
    }
}

/// One forgery of a view that passes the simple checks: a count moved (all or part of it)
/// from one number to another, often between the sizes of places (hidden cards moved
/// from one place to another), so that sums still add up, or a number set to another's
/// value or a small one. The Game's panic of issue 22 was such a view: the draw pile moved
/// into the hand of the player to move, then the minimum set to 1 (see [`repair`]).
fn forge(doc: &mut Value, rng: &mut ChaCha8Rng) {
    let mut numbers = counts(doc);
    let sizes: Vec<Vec<PathStep>> = numbers.iter().filter(|p| is_size(p)).cloned().collect();
    if sizes.len() >= 2 && rng.random_bool(0.7) {
        numbers = sizes;
    }
    if numbers.len() < 2 {
        return;
    }
    let a = &numbers[rng.random_range(0..numbers.len())];
    let b = &numbers[rng.random_range(0..numbers.len())];
    let x = at_path(doc, a).as_u64().unwrap_or(0);
    let y = at_path(doc, b).as_u64().unwrap_or(0);
    match rng.random_range(0..4) {
        0 | 1 => {
            let moved = if rng.random_bool(0.5) {
                y
            } else {
                rng.random_range(0..=y)
            };
            *at_path(doc, b) = json!(y - moved);
            *at_path(doc, a) = json!(x.saturating_add(moved));
        }
        2 => *at_path(doc, a) = json!(y),
        _ => *at_path(doc, a) = json!(rng.random_range(0..=3)),
    }
}

/// A forged view one field away from being accepted: counts tried at 0, 1 and their
/// neighbours (at most 64 tries, in random order), the first that `accepts` is kept.
/// Checks that derive a field from others (The Game's minimum from the draw pile) refuse
/// most forgeries early; this gets past them to the deal.
fn repair(doc: &mut Value, rng: &mut ChaCha8Rng, accepts: impl Fn(&Value) -> bool) {
    if accepts(doc) {
        return;
    }
    let mut tries: Vec<(Vec<PathStep>, u64)> = Vec::new();
    for path in counts(doc) {
        let x = at_path(doc, &path).as_u64().unwrap_or(0);
        for value in [0, 1, x.saturating_sub(1), x.saturating_add(1)] {
            if value != x {
                tries.push((path.clone(), value));
            }
        }
    }
    tries.shuffle(rng);
    for (path, value) in tries.into_iter().take(64) {
        let mut tried = doc.clone();
        *at_path(&mut tried, &path) = json!(value);
        if accepts(&tried) {
            *doc = tried;
            return;
        }
    }
}

/// A view forged as [`forge`] does (sometimes with a blind mutation on top) is refused with
/// an `invalid_view` error or builds a state whose view is that view; that state's views
/// build states again (`resample` for every seat) and it reads back and plays on. Never a
/// panic: `state_from_view` serves strangers over HTTP.
#[test]
fn forged_views_are_refused_or_kept() {
    let mut accepted = 0;
    for (name, options) in configs() {
        let game = load(name, &options);
        let mut rng = ChaCha8Rng::seed_from_u64(0xF0A6E);
        // Half the cases, but all for The Game, whose deal is constrained (T6).
        let cases = if name == "the_game" {
            fuzz_cases()
        } else {
            fuzz_cases() / 2
        };
        for case in 0..cases {
            // A state anywhere in a random game, as likely running as over (a random game of
            // The Game is over after a few dozen actions).
            let seed = rng.next_u64() % 1_000;
            let mut state = game.new_initial_state(seed);
            let mut buf = Vec::new();
            let mut actions = Vec::new();
            while !state.is_terminal() && actions.len() < 2_000 {
                state.legal_actions_into(&mut buf);
                let a = buf[rng.random_range(0..buf.len())];
                state.apply_action(a).unwrap();
                actions.push(a);
            }
            let mut state = game.new_initial_state(seed);
            for &a in &actions[..rng.random_range(0..=actions.len())] {
                state.apply_action(a).unwrap();
            }
            let seat = (!rng.random_bool(0.2)).then(|| rng.random_range(0..game.num_players()));
            let mut view = view_of(state.as_ref(), seat);
            for _ in 0..rng.random_range(1..4) {
                forge(&mut view, &mut rng);
            }
            if rng.random_bool(0.2) {
                let mut strings = Vec::new();
                strings_of(&view, &mut strings);
                mutate(&mut view, &mut rng, &strings);
            }
            // A panic while repairing is a panic too: blamed on the view before the repair.
            let input = view.to_string();
            blame(&input, || {
                repair(&mut view, &mut rng, |v| game.state_from_view(v, case).is_ok());
            });
            let input = view.to_string();
            // The repair may have named another seat.
            let seat = view["player"].as_u64().map(|p| p as usize);
            blame(&input, || match game.state_from_view(&view, case) {
                Err(e) => {
                    assert_eq!(e.code(), "invalid_view", "{e}");
                    says_it_in_german(&e);
                }
                Ok(built) => {
                    accepted += 1;
                    assert_eq!(
                        without_nulls(facts_as_given(view_of(built.as_ref(), seat), &view)),
                        without_nulls(view.clone()),
                        "state_from_view keeps the view"
                    );
                    for p in 0..game.num_players() {
                        let again = built
                            .resample(p, case + 1)
                            .unwrap_or_else(|e| panic!("the built state's view of {p} is refused: {e}"));
                        assert_eq!(again.view(p), built.view(p));
                    }
                    let again = game
                        .state_from_view(&built.public_view(), case + 1)
                        .unwrap_or_else(|e| panic!("the built state's public view is refused: {e}"));
                    assert_eq!(again.public_view(), built.public_view());
                    let back = game
                        .deserialize_state(&built.to_json())
                        .unwrap_or_else(|e| panic!("a state built from a view does not read back: {e}"));
                    play_out(back, case, game.max_game_length());
                }
            });
        }
    }
    // Some forgeries are harmless (a count moved onto itself, a value set to what it was).
    assert!(accepted > 0, "every forged view was refused");
}

/// Issue 22: The Game's view with the draw pile moved into the hand of the player to move
/// (who is shown holding every unseen card) and the minimum 1 panicked while dealing
/// (`cannot sample empty range`); over HTTP a plain-text 500. It is refused before the
/// deal: a hand holds at most the hand size (T2).
#[test]
fn the_game_view_with_every_unseen_card_in_one_hand_is_refused() {
    let game = load("the_game", &json!({}));
    let mut state = game.new_initial_state(1);
    for _ in 0..2 {
        let mut legal = Vec::new();
        state.legal_actions_into(&mut legal);
        state.apply_action(legal[0]).unwrap();
    }
    let end_turn = state.action_from_move(&json!({"type": "end_turn"})).unwrap();
    state.apply_action(end_turn).unwrap();
    let mut view = state.view(0);
    let draw = view["draw_pile_size"].as_u64().unwrap();
    let held = view["hand_sizes"][1].as_u64().unwrap();
    view["hand_sizes"][1] = json!(held + draw);
    view["draw_pile_size"] = json!(0);
    view["minimum"] = json!(1);
    let e = game
        .state_from_view(&view, 7)
        .err()
        .expect("the forged view is refused");
    assert_eq!(e.code(), "invalid_view");
    let said = e.to_string();
    assert!(said.contains("at most 7") && said.contains("(T2)"), "{said}");
}

/// A state of `game` after `steps` random actions of seed `seed`, as JSON.
fn state_json(game: &dyn DynGame, seed: u64, steps: usize) -> Value {
    let mut state = game.new_initial_state(seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut buf = Vec::new();
    for _ in 0..steps {
        if state.is_terminal() {
            break;
        }
        state.legal_actions_into(&mut buf);
        state.apply_action(buf[rng.random_range(0..buf.len())]).unwrap();
    }
    serde_json::from_str(&state.to_json()).unwrap()
}

/// C2, C8: a Caravan hand is dealt 8 cards, the opening places three without drawing and
/// every later move draws at most one back, so after the opening it holds at most 5. A card
/// taken from the deck into the hand keeps the player's cards whole but is refused.
#[test]
fn caravan_hand_of_six_after_the_opening_is_refused() {
    let game = load("caravan", &json!({}));
    let mut refused = 0;
    for seed in 0..10 {
        let doc = state_json(game.as_ref(), seed, 20);
        if doc["outcome"] != Value::Null || doc["opening_done"] != json!([true, true]) {
            continue;
        }
        for p in 0..2 {
            if doc["decks"][p].as_array().unwrap().is_empty() {
                continue;
            }
            let mut forged = doc.clone();
            let card = forged["decks"][p].as_array_mut().unwrap().pop().unwrap();
            // The hand is sorted: try every place for the card; none is accepted.
            let hand = forged["hands"][p].as_array().unwrap().clone();
            let mut errors = Vec::new();
            for at in 0..=hand.len() {
                let mut bigger = hand.clone();
                bigger.insert(at, card.clone());
                forged["hands"][p] = Value::Array(bigger);
                let e = game
                    .deserialize_state(&forged.to_string())
                    .err()
                    .expect("a hand of six after the opening is refused");
                errors.push(e.to_string());
            }
            assert!(errors.iter().any(|e| e.contains("(C2, C8)")), "{errors:?}");
            refused += 1;
        }
    }
    assert!(refused > 5, "only {refused} forgeries tried");
}

/// D4: `played` (the cards each seat played this round, in every view) is checked against
/// the round's count (a seat still in the round holds and played the round's hand size) and
/// the history: a card taken out of it, or one added for a seat that sat out, is refused.
#[test]
fn dog_played_record_with_a_card_removed_or_added_is_refused() {
    let game = load("dog", &json!({}));
    let (mut removed, mut added) = (0, 0);
    for seed in 0..40 {
        for steps in [30, 70, 110, 150] {
            let doc = state_json(game.as_ref(), seed, steps);
            if doc["phase"] != json!("play") {
                continue;
            }
            for p in 0..4 {
                let played = doc["played"][p].as_array().unwrap();
                if !played.is_empty() {
                    let mut forged = doc.clone();
                    forged["played"][p].as_array_mut().unwrap().pop();
                    let e = game
                        .deserialize_state(&forged.to_string())
                        .err()
                        .expect("a card taken out of played is refused");
                    let said = e.to_string();
                    assert!(
                        said.contains("(D4)") || said.contains("neither holds nor played"),
                        "{said}"
                    );
                    removed += 1;
                }
                if doc["sat_out"][p] == json!(true) {
                    // A card seen face up (so `face_up` still holds `played`) added for a seat
                    // that sat out.
                    let mut forged = doc.clone();
                    let seen = forged["face_up"][0].clone();
                    let list = forged["played"][p].as_array_mut().unwrap();
                    list.push(seen);
                    list.sort_by_key(Value::to_string);
                    if let Ok(state) = game.deserialize_state(&forged.to_string()) {
                        panic!("a card added to played is accepted: {}", state.to_json());
                    }
                    added += 1;
                }
            }
        }
    }
    assert!(removed > 20 && added > 0, "{removed} removed, {added} added");
}

/// D4: a finished Dog game's view whose exchange shows the card given but none received
/// (a set-up position that knows only part of its exchange has such views) was accepted by
/// `state_from_view`, although `resample` of the built state then refused that state's own
/// view of the partner: a finished game's exchange was not dealt like a running one's. Now
/// every seat's view of the built state builds a state again and keeps that view.
#[test]
fn dog_finished_view_with_an_exchange_without_received_resamples() {
    let game = load("dog", &json!({"max_turns": 40}));
    let mut tried = 0;
    for seed in 0..5 {
        let mut state = game.new_initial_state(seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut buf = Vec::new();
        while !state.is_terminal() {
            state.legal_actions_into(&mut buf);
            state.apply_action(buf[rng.random_range(0..buf.len())]).unwrap();
        }
        for p in 0..4 {
            let mut view = state.view(p);
            if view["exchange"]["received"].is_null() {
                continue;
            }
            view["exchange"]["received"] = Value::Null;
            let built = game.state_from_view(&view, 3).unwrap();
            assert_eq!(built.view(p), view);
            for q in 0..4 {
                let again = built
                    .resample(q, 9)
                    .unwrap_or_else(|e| panic!("seed {seed}: the view of {q} is refused: {e}"));
                assert_eq!(again.view(q), built.view(q), "seed {seed}");
            }
            tried += 1;
        }
    }
    assert!(tried > 10, "only {tried} views tried");
}

// --- Seeds and threads (each game's suite had its own copy) -----------------------------

/// The configs of the game `name`, as its typed options.
fn options_of(name: &str) -> Vec<Map<String, Value>> {
    configs()
        .into_iter()
        .filter(|(n, _)| *n == name)
        .map(|(_, o)| o.as_object().unwrap().clone())
        .collect()
}

// The same seed gives the same game (the deal and a seeded random player's choices), every
// field of the typed state compared; different seeds give different games. One test per
// game (they ran in each game's own suite before).

#[test]
fn the_same_seed_gives_the_same_game_schotten_totten() {
    for options in options_of("schotten_totten") {
        common::assert_same_seed_same_game(&SchottenTotten::from_options(&options).unwrap(), 25);
    }
}

#[test]
fn the_same_seed_gives_the_same_game_caravan() {
    for options in options_of("caravan") {
        common::assert_same_seed_same_game(&CaravanGame::from_options(&options).unwrap(), 6);
    }
}

#[test]
fn the_same_seed_gives_the_same_game_the_game() {
    for options in options_of("the_game") {
        common::assert_same_seed_same_game(&TheGame::from_options(&options).unwrap(), 12);
    }
}

#[test]
fn the_same_seed_gives_the_same_game_dog() {
    for options in options_of("dog") {
        common::assert_same_seed_same_game(&Dog::from_options(&options).unwrap(), 3);
    }
}

/// `simulate` gives the same summary on one thread and on two, plays the games asked for,
/// and refuses zero threads.
fn simulate_on_one_and_two_threads<G: Game>(game: &G, games: u64) {
    let one = spielwerk_core::simulate(game, games, 3, Some(1)).unwrap();
    let two = spielwerk_core::simulate(game, games, 3, Some(2)).unwrap();
    assert_eq!(one, two, "{}", G::NAME);
    assert_eq!(one.games, games, "{}", G::NAME);
    assert!(spielwerk_core::simulate(game, 5, 3, Some(0)).is_err());
}

#[test]
fn simulate_is_independent_of_the_thread_count_schotten_totten() {
    for options in options_of("schotten_totten") {
        let game = SchottenTotten::from_options(&options).unwrap();
        simulate_on_one_and_two_threads(&game, 250);
        // R1: every game is won or drawn.
        let summary = spielwerk_core::simulate(&game, 100, 4, Some(1)).unwrap();
        assert_eq!(summary.wins.iter().sum::<u64>() + summary.draws, 100);
    }
}

#[test]
fn simulate_is_independent_of_the_thread_count_caravan() {
    for options in options_of("caravan") {
        simulate_on_one_and_two_threads(&CaravanGame::from_options(&options).unwrap(), 40);
    }
}

#[test]
fn simulate_is_independent_of_the_thread_count_the_game() {
    for options in options_of("the_game") {
        simulate_on_one_and_two_threads(&TheGame::from_options(&options).unwrap(), 100);
    }
}

#[test]
fn simulate_is_independent_of_the_thread_count_dog() {
    for options in options_of("dog") {
        simulate_on_one_and_two_threads(&Dog::from_options(&options).unwrap(), 4);
    }
}
