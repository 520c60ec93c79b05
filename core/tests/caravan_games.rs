//! Invariants over many seeded random games of Caravan, with every variant.

use serde_json::{Map, Value, json};
use spielwerk_core::Game;
use spielwerk_core::bots::RandomBot;
use spielwerk_core::caravan::{CaravanGame, VARIANTS};
use spielwerk_core::game::{Action, GameState};

fn with(options: &[&str]) -> CaravanGame {
    let map: Map<String, Value> = options.iter().map(|o| (o.to_string(), json!(true))).collect();
    CaravanGame::from_options(&map).unwrap()
}

fn check_games(game: CaravanGame, games: u64) {
    let n = game.num_distinct_actions() as Action;
    for seed in 0..games {
        let mut state = game.new_initial_state(seed);
        let mut bot = RandomBot::new(seed);
        let mut steps = 0;
        while let Some(action) = bot.step(&state) {
            if steps % 10 == 0 {
                // Cards of each owner exactly once (validated on reading), round trip.
                assert_eq!(game.state_from_json(&state.to_json()).unwrap(), state);
            }
            if steps % 25 == 0 {
                let legal = state.legal_actions();
                let checked: Vec<Action> = (0..n).filter(|&a| state.check_action(a).is_ok()).collect();
                assert_eq!(legal, checked, "{game:?} seed {seed} step {steps}");
                let p = state.current_player().unwrap();
                let r = state.resample(p, seed).expect("the state resamples");
                assert_eq!(r.view(p), state.view(p));
                assert_eq!(r.information_state_key(p), state.information_state_key(p));
                game.state_from_json(&r.to_json()).unwrap();
            }
            state.apply_action(action).unwrap();
            steps += 1;
            assert!(
                steps as u64 <= game.max_game_length(),
                "{game:?} seed {seed} is longer than max_game_length"
            );
        }
        game.state_from_json(&state.to_json()).unwrap();
        let r = state.returns();
        assert!(r == [1.0, -1.0] || r == [-1.0, 1.0] || r == [0.0, 0.0]);
    }
}

#[test]
fn random_games_with_the_standard_rules() {
    check_games(CaravanGame::default(), 1_000);
}

#[test]
fn random_games_with_each_variant() {
    for (name, _) in VARIANTS {
        check_games(with(&[name]), 200);
    }
}

#[test]
fn random_games_with_all_variants_at_once() {
    let all: Vec<&str> = VARIANTS.iter().map(|(n, _)| *n).collect();
    check_games(with(&all), 100);
}
