//! The engine contract v2 for The Game over many random games: views and
//! `state_from_view` (resample), moves, the game's length bound.

mod common;

use rand::RngExt;
use serde_json::Value;
use spielwerk_core::Game;
use spielwerk_core::bots::RandomBot;
use spielwerk_core::game::GameState;
use spielwerk_core::rng;
use spielwerk_core::the_game::{State, TheGame, View};

fn games() -> impl Iterator<Item = TheGame> {
    (1..=5u8).flat_map(|players| [false, true].map(|pro| TheGame { players, pro }))
}

/// Plays a resampled (or any) state to its end with random moves; checks the length bound.
fn play_out(state: &mut State, seed: u64) {
    let mut bot = RandomBot::new(seed);
    let max = Game::max_game_length(state.game()) as usize;
    let mut steps = 0;
    while let Some(a) = bot.step(state) {
        state.apply_action(a).expect("a legal action applies");
        steps += 1;
        assert!(steps <= max, "more than {max} actions");
    }
}

#[test]
fn resample_keeps_the_view_reads_back_and_plays_on() {
    for game in games() {
        for seed in 0..40u64 {
            let mut state = Game::new_initial_state(&game, seed);
            let mut bot = RandomBot::new(seed);
            let mut step = 0u64;
            loop {
                if step.is_multiple_of(5) || state.is_terminal() {
                    for p in 0..game.players as usize {
                        let view = state.view_of(Some(p));
                        let r = state
                            .resample(p, seed ^ step)
                            .expect("a reachable state resamples");
                        assert_eq!(r.view_of(Some(p)), view, "{game:?} seed {seed} step {step}");
                        assert!(r.history().is_empty(), "the view carries no history");
                        assert_eq!(game.state_from_json(&r.to_json()).unwrap(), r);
                        // The view's JSON (for people: with the piles' facts) reads back,
                        // and is the typed view with those facts.
                        let mut typed: View = serde_json::from_slice(&state.view_json(Some(p))).unwrap();
                        assert!(
                            typed
                                .piles
                                .iter()
                                .all(|pile| pile.takes.is_some() && pile.backward.is_some())
                        );
                        for pile in &mut typed.piles {
                            (pile.takes, pile.backward) = (None, None);
                        }
                        assert_eq!(typed, view, "the view's JSON reads back");
                        if step.is_multiple_of(15) {
                            let mut r = r;
                            play_out(&mut r, seed + step);
                        }
                    }
                    let public = state.view_of(None);
                    let r = Game::state_from_view(&game, &public, seed).expect("the public view deals");
                    assert_eq!(r.view_of(None), public);
                    let dynamic = spielwerk_core::dynamic::DynGame::state_from_view(
                        &game,
                        &GameState::public_view(&state),
                        seed,
                    )
                    .unwrap();
                    assert_eq!(
                        spielwerk_core::dynamic::DynState::public_view(&*dynamic),
                        GameState::public_view(&state)
                    );
                }
                let Some(a) = bot.step(&state) else { break };
                state.apply_action(a).unwrap();
                step += 1;
            }
        }
    }
}

#[test]
fn moves_and_actions_never_disagree() {
    for game in games() {
        for seed in 0..30u64 {
            let mut state = Game::new_initial_state(&game, seed);
            let mut bot = RandomBot::new(seed);
            while let Some(a) = bot.step(&state) {
                for legal in state.legal_actions() {
                    let mv = state.action_to_move(legal);
                    assert_eq!(state.action_from_move(&mv).unwrap(), legal, "{mv}");
                }
                state.apply_action(a).unwrap();
            }
        }
    }
}

#[test]
fn max_game_length_bounds_every_random_game() {
    for game in games() {
        let max = Game::max_game_length(&game);
        assert!(max <= 196, "98 plays and at most one end of turn each");
        let mut longest = 0;
        for seed in 0..2_000 {
            let (_, length) = spielwerk_core::simulate::random_game(&game, seed, &mut Vec::new());
            assert!(length <= max, "{game:?} seed {seed}: {length} > {max}");
            longest = longest.max(length);
        }
        assert!(longest > 0);
    }
}

/// Swaps two cards the seat cannot see (in other hands or the draw pile) in the state's
/// JSON: a different state with the same view for `seat`.
fn swap_hidden(state: &State, seat: usize, rng: &mut rng::Rng) -> Option<State> {
    fn slot<'a>(json: &'a mut Value, place: &(String, usize)) -> &'a mut Value {
        match place.0.strip_prefix("hand") {
            None => &mut json["draw_pile"][place.1],
            Some(p) => &mut json["hands"][p.parse::<usize>().unwrap()][place.1],
        }
    }
    let mut json: Value = serde_json::from_str(&state.to_json()).unwrap();
    let mut places: Vec<(String, usize)> = Vec::new();
    for (i, _) in json["draw_pile"].as_array().unwrap().iter().enumerate() {
        places.push(("draw".into(), i));
    }
    for p in (0..state.game().players as usize).filter(|&p| p != seat) {
        for i in 0..json["hands"][p].as_array().unwrap().len() {
            places.push((format!("hand{p}"), i));
        }
    }
    for _ in 0..20 {
        let a = &places[rng.random_range(0..places.len())];
        let b = &places[rng.random_range(0..places.len())];
        if a.0 == b.0 {
            continue;
        }
        let card_a = slot(&mut json, a).take();
        let card_b = std::mem::replace(slot(&mut json, b), card_a);
        *slot(&mut json, a) = card_b;
        for p in 0..state.game().players as usize {
            let hand = json["hands"][p].as_array_mut().unwrap();
            hand.sort_by_key(serde_json::Value::as_u64);
        }
        return state.game().state_from_json(&json.to_string()).ok();
    }
    None
}

#[test]
fn equal_views_give_equal_resamples() {
    let mut found = 0;
    for game in games() {
        let mut rng = rng::seeded(7, rng::STREAM_GAME);
        for seed in 0..30u64 {
            let mut state = Game::new_initial_state(&game, seed);
            let mut bot = RandomBot::new(seed);
            for _ in 0..(seed % 9) {
                match bot.step(&state) {
                    Some(a) => state.apply_action(a).unwrap(),
                    None => break,
                }
            }
            let seat = (seed as usize) % game.players as usize;
            let Some(other) = swap_hidden(&state, seat, &mut rng) else {
                continue;
            };
            if other == state {
                continue;
            }
            assert_eq!(other.view_of(Some(seat)), state.view_of(Some(seat)));
            found += 1;
            for s in 0..5 {
                assert_eq!(state.resample(seat, s).unwrap(), other.resample(seat, s).unwrap());
            }
        }
    }
    assert!(found > 100, "only {found} pairs of states built");
}

/// Every unseen card lands in another hand about as often as the hand's share of the
/// unseen cards says: a chi-square-like sanity check of the deal's uniformity.
#[test]
fn resampled_cards_land_uniformly() {
    let game = TheGame {
        players: 3,
        pro: false,
    };
    // A game in which player 0 is to move again: no constraint on the others' hands then.
    let state = (0..)
        .find_map(|seed| {
            let mut state = Game::new_initial_state(&game, seed);
            let mut bot = RandomBot::new(seed);
            while let Some(a) = bot.step(&state) {
                state.apply_action(a).unwrap();
                if state.current_player() == Some(0) && state.history().len() > 6 {
                    return Some(state);
                }
            }
            None
        })
        .unwrap();
    let view = state.view_of(Some(0));
    let hidden: Vec<u8> = (2..=99u8)
        .filter(|&c| !view.played_cards.contains(c) && !view.hand.unwrap().contains(c))
        .collect();
    let share = f64::from(view.hand_sizes[1]) / hidden.len() as f64;
    let n = 600;
    let mut counts = [0u32; 100];
    for seed in 0..n {
        let r = state.resample(0, seed).unwrap();
        for c in r.hand_set(1).iter() {
            counts[c as usize] += 1;
        }
    }
    let expected = n as f64 * share;
    let chi2: f64 = hidden
        .iter()
        .map(|&c| (f64::from(counts[c as usize]) - expected).powi(2) / expected)
        .sum();
    let df = (hidden.len() - 1) as f64;
    // Mean df, standard deviation sqrt(2 df): six deviations is far beyond chance.
    assert!(
        chi2 < df + 6.0 * (2.0 * df).sqrt(),
        "chi2 {chi2:.1} with {df} degrees"
    );
    assert!(hidden.iter().all(|&c| counts[c as usize] > 0));
}

#[test]
fn the_same_seed_gives_the_same_resample() {
    let state = common::play_random(&TheGame::default(), 3);
    assert_eq!(state.resample(1, 9).unwrap(), state.resample(1, 9).unwrap());
}
