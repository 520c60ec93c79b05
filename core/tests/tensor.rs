//! Observation tensors over thousands of random states of every game (issue 24):
//!
//! - (a) a seat's tensor is identical for a state and `resample(seat, seed)` of it: it
//!   depends on nothing the seat cannot see;
//! - (b) two states of a seat give equal tensors exactly when their views are equal up
//!   to the fields a game leaves out on purpose (listed in its `tensor` module docs);
//! - (c) `describe_observation` covers the tensor exactly, slice after slice, and the
//!   shape's product is its length;
//! - (d) `write_observation` writes every element (the buffer is filled with NaN first)
//!   and every element lies in [0, 1];
//! - (e) the tensor written straight from the state (`observation_tensor_into`, through
//!   `Game::write_observation_of`, which builds no view where a game says so) equals the
//!   one written from `view_of` bit for bit, for every seat and the spectator, into a
//!   buffer holding NaN or the last case's tensor;
//! - a few slices are read back by name against the view, so that the description says
//!   where things really are.

use std::collections::HashMap;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use spielwerk_core::game::{Game, GameState};
use spielwerk_core::tensor::{TensorSlice, check_slices};

/// One game's tensor functions and what its tensor leaves out.
struct Encoder<G: Game> {
    shape: fn(&G) -> Vec<usize>,
    describe: fn(&G) -> Vec<TensorSlice>,
    write: fn(&G, &G::View, &mut [f32]),
    /// Makes two views equal that differ only in what the tensor leaves out on purpose.
    normalize: fn(&mut Value),
    /// Reads slices back by name and compares them with the view.
    spot_check: fn(&G::View, &Tensor<'_>),
}

/// A written tensor with its slices, to read by name.
struct Tensor<'a> {
    data: &'a [f32],
    slices: &'a [TensorSlice],
}

impl Tensor<'_> {
    fn get(&self, name: &str) -> &[f32] {
        let s = self
            .slices
            .iter()
            .find(|s| s.name == name)
            .unwrap_or_else(|| panic!("no slice {name}"));
        &self.data[s.offset..s.offset + s.len()]
    }
    fn ones(&self, name: &str) -> usize {
        self.get(name).iter().filter(|&&x| x == 1.0).count()
    }
}

/// The tensor without its zeros: exact, and small enough to keep thousands of.
fn sparse(t: &[f32]) -> Vec<(u32, u32)> {
    t.iter()
        .enumerate()
        .filter(|(_, x)| **x != 0.0)
        .map(|(i, x)| (i as u32, x.to_bits()))
        .collect()
}

/// Checks (a)–(d) over `games` random games (every `every`-th state and the last, every
/// seat and the spectator); returns the number of (state, seat) cases.
fn check<G: Game>(game: &G, enc: &Encoder<G>, games: u64, every: usize) -> usize {
    let shape = (enc.shape)(game);
    let len: usize = shape.iter().product();
    let slices = (enc.describe)(game);
    check_slices(&slices, len).unwrap_or_else(|e| panic!("{}: {e}", G::NAME));
    let mut buf = vec![f32::NAN; len];
    let mut again = vec![f32::NAN; len];
    let mut direct = vec![f32::NAN; len];
    // (b) both ways: tensor -> view and view -> tensor.
    let mut view_of_tensor: HashMap<Vec<(u32, u32)>, (String, String)> = HashMap::new();
    let mut tensor_of_view: HashMap<String, Vec<(u32, u32)>> = HashMap::new();
    let mut cases = 0;
    let mut actions = Vec::new();
    for seed in 0..games {
        let mut state = game.new_initial_state(seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x007E_450A);
        for step in 0.. {
            let last = state.is_terminal();
            if step % every == 0 || last {
                let at = format!("{} seed {seed} step {step}", G::NAME);
                for seat in (0..game.num_players()).map(Some).chain([None]) {
                    let view = state.view_of(seat);
                    buf.fill(f32::NAN);
                    (enc.write)(game, &view, &mut buf);
                    // (d)
                    if let Some(i) = buf.iter().position(|x| !(0.0..=1.0).contains(x)) {
                        let s = slices.iter().find(|s| s.offset + s.len() > i).unwrap();
                        panic!("{at} seat {seat:?}: element {i} (slice {}) is {}", s.name, buf[i]);
                    }
                    // (e) into NaN every other case, else into the last case's tensor.
                    if cases % 2 == 0 {
                        direct.fill(f32::NAN);
                    }
                    state
                        .observation_tensor_into(seat, &mut direct)
                        .expect("a seat of the game and a buffer of the length");
                    assert!(
                        buf.iter().zip(&direct).all(|(a, b)| a.to_bits() == b.to_bits()),
                        "{at} seat {seat:?}: the tensor from the state is not the view's"
                    );
                    (enc.spot_check)(
                        &view,
                        &Tensor {
                            data: &buf,
                            slices: &slices,
                        },
                    );
                    let Some(p) = seat else { continue };
                    cases += 1;
                    // (a)
                    let resampled = state.resample(p, seed ^ 0x5EED).expect("a state resamples");
                    again.fill(f32::NAN);
                    (enc.write)(game, &resampled.view_of(seat), &mut again);
                    assert!(
                        buf.iter().zip(&again).all(|(a, b)| a.to_bits() == b.to_bits()),
                        "{at} seat {p}: the resampled state gives another tensor"
                    );
                    resampled
                        .observation_tensor_into(seat, &mut direct)
                        .expect("a seat of the game and a buffer of the length");
                    assert!(
                        buf.iter().zip(&direct).all(|(a, b)| a.to_bits() == b.to_bits()),
                        "{at} seat {p}: the resampled state's own tensor differs"
                    );
                    // (b)
                    let mut json = serde_json::to_value(&view).unwrap();
                    (enc.normalize)(&mut json);
                    let key = json.to_string();
                    let tensor = sparse(&buf);
                    if let Some((other, where_)) = view_of_tensor.get(&tensor) {
                        assert_eq!(
                            other, &key,
                            "{at} and {where_}: different views give the same tensor"
                        );
                    } else {
                        view_of_tensor.insert(tensor.clone(), (key.clone(), at.clone()));
                    }
                    let seen = tensor_of_view.entry(key).or_insert_with(|| tensor.clone());
                    assert!(
                        *seen == tensor,
                        "{at} seat {p}: equal views give different tensors"
                    );
                }
            }
            if last {
                break;
            }
            state.legal_actions_into(&mut actions);
            state
                .apply_action(actions[rng.random_range(0..actions.len())])
                .expect("a legal action applies");
        }
    }
    assert!(
        view_of_tensor.len() * 2 > cases,
        "{}: too few distinct views ({} of {cases}) to test (b)",
        G::NAME,
        view_of_tensor.len()
    );
    eprintln!(
        "{}: {cases} (state, seat) cases, {} distinct tensors",
        G::NAME,
        view_of_tensor.len()
    );
    cases
}

/// Every path in a JSON document (JSON pointers), leaves and arrays.
fn pointers(value: &Value, at: &str, out: &mut Vec<String>) {
    out.push(at.to_string());
    match value {
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                pointers(v, &format!("{at}/{i}"), out);
            }
        }
        Value::Object(map) => {
            for (k, v) in map {
                pointers(v, &format!("{at}/{k}"), out);
            }
        }
        _ => {}
    }
}

/// One small change to a view's JSON, of the kind a consistent view may differ by: a
/// number one up or down, a flag flipped, a card swapped with another card of the view or
/// of `pool`, an element moved from one list to another.
fn mutate(doc: &mut Value, rng: &mut ChaCha8Rng, pool: &[Value]) {
    let mut all = Vec::new();
    pointers(doc, "", &mut all);
    let path = all[rng.random_range(0..all.len())].clone();
    let other = all[rng.random_range(0..all.len())].clone();
    let target = doc.pointer(&path).unwrap().clone();
    let new = match target {
        Value::Number(n) => {
            let x = n.as_u64().unwrap_or(0);
            if rng.random_bool(0.5) {
                x + 1
            } else {
                x.saturating_sub(1)
            }
            .into()
        }
        Value::Bool(b) => (!b).into(),
        Value::String(_) | Value::Null | Value::Object(_) if rng.random_bool(0.5) => {
            // Swap with another value of the document (a card moves, two marbles trade places).
            let there = doc.pointer(&other).unwrap().clone();
            if path.starts_with(&other) || other.starts_with(&path) {
                return;
            }
            *doc.pointer_mut(&other).unwrap() = target;
            there
        }
        Value::String(_) | Value::Null | Value::Object(_) => pool[rng.random_range(0..pool.len())].clone(),
        Value::Array(mut items) => {
            if items.is_empty() || rng.random_bool(0.3) {
                items.push(pool[rng.random_range(0..pool.len())].clone());
            } else {
                let moved = items.remove(rng.random_range(0..items.len()));
                // Into another list, if the other path is one (outside this one).
                if !other.starts_with(&path)
                    && let Some(Value::Array(there)) = doc.pointer_mut(&other)
                {
                    there.push(moved);
                }
            }
            Value::Array(items)
        }
    };
    if let Some(slot) = doc.pointer_mut(&path) {
        *slot = new;
    }
}

/// Leaves of views, to swap in.
fn leaves(value: &Value, out: &mut Vec<Value>) {
    match value {
        Value::Array(items) => items.iter().for_each(|v| leaves(v, out)),
        Value::Object(map) => {
            out.push(value.clone());
            map.values().for_each(|v| leaves(v, out));
        }
        _ => out.push(value.clone()),
    }
}

/// (b) on near neighbours: views changed in one small way that `state_from_view` still
/// accepts (so they are views some state has) give another tensor unless they differ
/// only in what the tensor leaves out. Returns the number of accepted neighbours.
fn neighbours_differ<G: Game>(game: &G, enc: &Encoder<G>, games: u64, every: usize, tries: usize) -> usize {
    let len: usize = (enc.shape)(game).iter().product();
    let mut buf = vec![0.0; len];
    let mut near = vec![0.0; len];
    let mut accepted = 0;
    let mut rng = ChaCha8Rng::seed_from_u64(0x007E_450B);
    let mut actions = Vec::new();
    let mut pool = Vec::new();
    for seed in 0..games {
        let mut state = game.new_initial_state(seed);
        for step in 0.. {
            let last = state.is_terminal();
            if step % every == 0 || last {
                for p in 0..game.num_players() {
                    let view = state.view_of(Some(p));
                    (enc.write)(game, &view, &mut buf);
                    let json = serde_json::to_value(&view).unwrap();
                    leaves(&json, &mut pool);
                    let mut key = json.clone();
                    (enc.normalize)(&mut key);
                    for _ in 0..tries {
                        let mut doc = json.clone();
                        mutate(&mut doc, &mut rng, &pool);
                        let Ok(other) = serde_json::from_value::<G::View>(doc) else {
                            continue;
                        };
                        if game.state_from_view(&other, seed).is_err() {
                            continue;
                        }
                        let mut other_key = serde_json::to_value(&other).unwrap();
                        (enc.normalize)(&mut other_key);
                        if other_key == key {
                            continue;
                        }
                        accepted += 1;
                        (enc.write)(game, &other, &mut near);
                        assert!(
                            buf != near,
                            "{} seed {seed} step {step} seat {p}: a view and its neighbour give the same tensor:\n{key}\n{other_key}",
                            G::NAME
                        );
                    }
                }
                pool.truncate(20_000);
            }
            if last {
                break;
            }
            state.legal_actions_into(&mut actions);
            state
                .apply_action(actions[rng.random_range(0..actions.len())])
                .expect("a legal action applies");
        }
    }
    eprintln!("{}: {accepted} accepted neighbouring views", G::NAME);
    accepted
}

mod schotten_totten {
    use super::*;
    use spielwerk_core::schotten_totten::tensor::*;
    use spielwerk_core::schotten_totten::{SchottenTotten, View};

    fn encoder() -> Encoder<SchottenTotten> {
        Encoder {
            shape: observation_tensor_shape,
            describe: describe_observation,
            write: write_observation,
            // The order of the cards of a side is left out (formations are sets, S4).
            normalize: |v| {
                for stone in v["stones"].as_array_mut().unwrap() {
                    for side in stone["cards"].as_array_mut().unwrap() {
                        side.as_array_mut().unwrap().sort_by_key(Value::to_string);
                    }
                }
            },
            spot_check: |v: &View, t| {
                assert_eq!(t.ones("hand"), v.hand.map_or(0, |h| h.len() as usize));
                let me = usize::from(v.player.unwrap_or(0));
                let mine: usize = v.stones.iter().map(|s| s.cards[me].len()).sum();
                let all: usize = v.stones.iter().map(|s| s.cards[0].len() + s.cards[1].len()).sum();
                assert_eq!(t.ones("stone_cards"), all);
                let first = t.get("stone_cards");
                let on_my_sides: usize = (0..9)
                    .map(|s| first[s * 108..s * 108 + 54].iter().sum::<f32>() as usize)
                    .sum();
                assert_eq!(on_my_sides, mine, "my side comes first at each stone");
                assert_eq!(t.get("hand_sizes")[0], f32::from(v.hand_sizes[me]) / 6.0);
            },
        }
    }

    #[test]
    fn neighbouring_views_give_other_tensors() {
        let accepted = neighbours_differ(&SchottenTotten::default(), &encoder(), 30, 4, 20);
        assert!(accepted > 500, "{accepted} neighbours");
    }

    #[test]
    fn tensors_hold_exactly_the_view() {
        for first_player in [0, 1] {
            let cases = check(&SchottenTotten { first_player }, &encoder(), 150, 3);
            assert!(cases > 5_000, "{cases} cases");
        }
    }

    #[test]
    fn the_shape_depends_on_nothing_but_the_options() {
        let game = SchottenTotten::default();
        assert_eq!(observation_tensor_shape(&game), vec![1115]);
    }
}

mod the_game {
    use super::*;
    use spielwerk_core::the_game::tensor::*;
    use spielwerk_core::the_game::{TheGame, View};

    fn encoder() -> Encoder<TheGame> {
        Encoder {
            shape: observation_tensor_shape,
            describe: describe_observation,
            write: write_observation,
            // Nothing of the view is left out but the options (equal within a game).
            normalize: |_| {},
            spot_check: |v: &View, t| {
                assert_eq!(
                    t.ones("hand"),
                    v.hand.map_or(0, spielwerk_core::the_game::Hand::len)
                );
                assert_eq!(t.ones("played_cards"), v.played_cards.len());
                assert_eq!(t.ones("pile_tops"), 4);
                for (i, pile) in v.piles.iter().enumerate() {
                    assert_eq!(t.get("pile_tops")[i * 100 + usize::from(pile.top) - 1], 1.0);
                }
                let me = v.player.map_or(0, usize::from);
                assert_eq!(t.get("hand_sizes")[0], f32::from(v.hand_sizes[me]) / 8.0);
            },
        }
    }

    #[test]
    fn neighbouring_views_give_other_tensors() {
        let mut accepted = 0;
        for players in 1..=5 {
            accepted += neighbours_differ(
                &TheGame {
                    players,
                    pro: players % 2 == 0,
                },
                &encoder(),
                20,
                2,
                20,
            );
        }
        assert!(accepted > 500, "{accepted} neighbours");
    }

    #[test]
    fn tensors_hold_exactly_the_view() {
        for players in 1..=5 {
            for pro in [false, true] {
                let game = TheGame { players, pro };
                let cases = check(&game, &encoder(), 250, 1);
                assert!(cases > 2_000, "{players} players, pro {pro}: {cases} cases");
            }
        }
    }

    #[test]
    fn the_shape_depends_on_the_number_of_players() {
        for players in 1..=5 {
            let game = TheGame { players, pro: false };
            assert_eq!(
                observation_tensor_shape(&game),
                vec![4 * usize::from(players) + 608]
            );
        }
    }
}

mod dog {
    use super::*;
    use spielwerk_core::dog::tensor::*;
    use spielwerk_core::dog::{Dog, Place, View};

    fn encoder() -> Encoder<Dog> {
        Encoder {
            shape: observation_tensor_shape,
            describe: describe_observation,
            write: write_observation,
            // Nothing of the view is left out but what follows from a marble's id.
            normalize: |_| {},
            spot_check: |v: &View, t| {
                assert_eq!(t.ones("marble_place"), 16);
                let me = v.player.map_or(0, usize::from);
                // My marble 0 is slot 0; on the ring, its field is counted from my start.
                let mine = &v.marbles[4 * me];
                let at = t.get("marble_place")[..69]
                    .iter()
                    .position(|&x| x == 1.0)
                    .unwrap();
                let expected = match mine.place {
                    Place::Kennel => 0,
                    Place::Ring(f) => 1 + (usize::from(f) + 64 - 16 * me) % 64,
                    Place::Goal(g) => 65 + usize::from(g),
                };
                assert_eq!(at, expected);
                let held: f32 = t.get("hand").iter().sum::<f32>() * 6.0;
                let len = v.hand.as_ref().map_or(0, spielwerk_core::dog::Hand::len);
                assert!((held - len as f32).abs() < 1e-4, "{held} vs {len}");
                assert_eq!(t.ones("given"), usize::from(v.exchange.given.is_some()));
            },
        }
    }

    #[test]
    fn neighbouring_views_give_other_tensors() {
        let accepted = neighbours_differ(&Dog { max_turns: 100 }, &encoder(), 20, 4, 20);
        assert!(accepted > 500, "{accepted} neighbours");
    }

    #[test]
    fn tensors_hold_exactly_the_view() {
        let mut cases = check(&Dog { max_turns: 60 }, &encoder(), 80, 2);
        cases += check(&Dog { max_turns: 400 }, &encoder(), 12, 5);
        cases += check(&Dog::default(), &encoder(), 2, 40);
        assert!(cases > 5_000, "{cases} cases");
    }

    #[test]
    fn the_shape_depends_on_nothing_but_the_options() {
        assert_eq!(observation_tensor_shape(&Dog::default()), vec![1399]);
        assert_eq!(observation_tensor_shape(&Dog { max_turns: 0 }), vec![1399]);
    }
}

mod caravan {
    use super::*;
    use serde_json::json;
    use spielwerk_core::caravan::tensor::*;
    use spielwerk_core::caravan::{CaravanGame, View};

    /// Every joker as one card: `JK1`…`JK4` act alike.
    fn one_joker(v: &mut Value) {
        match v {
            Value::String(s) if s.starts_with("JK") => *s = "JK".into(),
            Value::Array(a) => a.iter_mut().for_each(one_joker),
            Value::Object(o) => o.values_mut().for_each(one_joker),
            _ => {}
        }
    }

    fn sorted(v: &mut Value) {
        v.as_array_mut().unwrap().sort_by_key(Value::to_string);
    }

    /// The view without what the tensor leaves out (see `caravan::tensor`).
    fn normalize(v: &mut Value) {
        v.as_object_mut().unwrap().remove("ranked");
        one_joker(v);
        sorted(&mut v["hand"]);
        for p in 0..2 {
            sorted(&mut v["discard_piles"][p]);
            sorted(&mut v["reshuffled"][p]);
            // Shown hands: how many, and per card the most copies one of them held.
            let hands = v["shown_hands"][p].as_array().unwrap();
            let mut most: HashMap<String, usize> = HashMap::new();
            for hand in hands {
                let mut here: HashMap<String, usize> = HashMap::new();
                for card in hand.as_array().unwrap() {
                    *here.entry(card.to_string()).or_default() += 1;
                }
                for (card, n) in here {
                    let m = most.entry(card).or_default();
                    *m = (*m).max(n);
                }
            }
            let mut most: Vec<_> = most.into_iter().collect();
            most.sort();
            v["shown_hands"][p] = json!([hands.len(), most]);
        }
        for caravan in v["caravans"].as_array_mut().unwrap() {
            for slot in caravan["cards"].as_array_mut().unwrap() {
                let faces = slot["faces"].as_array().unwrap();
                let topmost_queen = faces
                    .iter()
                    .rfind(|f| f["card"].as_str().unwrap().starts_with('Q'))
                    .cloned();
                let mut faces = faces.clone();
                faces.sort_by_key(Value::to_string);
                slot["faces"] = json!([faces, topmost_queen]);
            }
        }
    }

    fn encoder() -> Encoder<CaravanGame> {
        Encoder {
            shape: observation_tensor_shape,
            describe: describe_observation,
            write: write_observation,
            normalize,
            spot_check: |v: &View, t| {
                let on_table: usize = v.caravans.iter().map(|c| c.cards.len()).sum();
                let entries = t.get("number_cards");
                let per = entries.len() / 2 / 26;
                let placed: usize = (0..2 * per)
                    .filter(|e| entries[e * 26..e * 26 + 3].contains(&1.0))
                    .count();
                assert_eq!(placed, on_table, "one entry per number card on the table");
                let bound = if per == 80 { 4.0 } else { 2.0 };
                let held: f32 = t.get("hand").iter().sum::<f32>() * bound;
                let len = v.hand.as_ref().map_or(0, Vec::len);
                assert_eq!(held, len as f32);
                let me = v.player.map_or(0, usize::from);
                let value = v.caravans[3 * me].value;
                assert_eq!(t.get("caravan_selling")[0] == 1.0, (21..=26).contains(&value));
            },
        }
    }

    fn configs() -> Vec<Value> {
        vec![
            json!({}),
            json!({"reshuffle": true, "fresh_hand": true, "quick_sale": true}),
            json!({"short_deck": true, "queens_anywhere": true, "kings_add": true}),
            json!({"double_deck": true, "unlimited_face_cards": true, "protected_joker": true}),
            json!({"founding_suit": true, "queens_shield": true, "fixed_course": true}),
        ]
    }

    #[test]
    fn neighbouring_views_give_other_tensors() {
        let mut accepted = 0;
        for options in configs() {
            let game = CaravanGame::from_options(options.as_object().unwrap()).unwrap();
            accepted += neighbours_differ(&game, &encoder(), 8, 4, 20);
        }
        assert!(accepted > 500, "{accepted} neighbours");
    }

    #[test]
    fn tensors_hold_exactly_the_view() {
        for options in configs() {
            let game = CaravanGame::from_options(options.as_object().unwrap()).unwrap();
            let cases = check(&game, &encoder(), 60, 2);
            assert!(cases > 3_000, "{options}: {cases} cases");
        }
    }

    #[test]
    fn the_shape_depends_on_the_decks() {
        assert_eq!(observation_tensor_shape(&CaravanGame::default()), vec![2532]);
        let double = CaravanGame::from_options(json!({"double_deck": true}).as_object().unwrap()).unwrap();
        assert_eq!(observation_tensor_shape(&double), vec![4612]);
    }
}
