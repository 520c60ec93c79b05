//! Invariants over many seeded random games of Dog.

use spielwerk_core::Game;
use spielwerk_core::bots::RandomBot;
use spielwerk_core::dog::{Dog, NUM_ACTIONS, Place};
use spielwerk_core::game::{Action, GameState};

const GAMES: u64 = 500;

#[test]
fn random_games_keep_every_invariant() {
    let game = Dog::default();
    // At most `max_turns` turns of at most 7 actions (a seven in single steps), and four
    // picks per round of at least four turns.
    let max_actions = game.max_game_length() as usize;
    for seed in 0..GAMES {
        let mut state = game.new_initial_state(seed);
        let mut bot = RandomBot::new(seed);
        let mut steps = 0;
        while let Some(action) = bot.step(&state) {
            if steps % 50 == 0 {
                // 16 marbles on distinct fields and 110 cards are checked on reading.
                assert_eq!(game.state_from_json(&state.to_json()).unwrap(), state);
                for p in 0..4 {
                    let r = state
                        .resample(p, seed + steps as u64)
                        .expect("the state resamples");
                    assert_eq!(r.view(p), state.view(p));
                    game.state_from_json(&r.to_json()).unwrap();
                }
            }
            if steps % 97 == 0 {
                let legal = state.legal_actions();
                let checked: Vec<Action> = (0..NUM_ACTIONS as Action)
                    .filter(|&a| state.check_action(a).is_ok())
                    .collect();
                assert_eq!(legal, checked, "seed {seed} step {steps}");
            }
            state.apply_action(action).unwrap();
            steps += 1;
            assert!(
                steps <= max_actions,
                "seed {seed} runs past {max_actions} actions"
            );
        }
        game.state_from_json(&state.to_json()).unwrap();
        let outcome = state.outcome().unwrap();
        let in_goal = |t: usize| {
            state
                .marbles()
                .iter()
                .enumerate()
                .filter(|(m, mk)| (m / 4) % 2 == t && matches!(mk.place, Place::Goal(_)))
                .count()
        };
        if let Some(w) = outcome.winner {
            let w = w as usize;
            assert_eq!(in_goal(w), 8);
            assert_eq!(outcome.points[w] as usize, 16 - in_goal(1 - w));
            assert_eq!(outcome.points[1 - w] as usize, in_goal(1 - w));
        }
    }
}
