//! Helpers shared by the random-game tests.

// Each test binary that includes this module uses a part of it.
#![allow(dead_code)]

use spielwerk_core::Game;
use spielwerk_core::bots::RandomBot;
use spielwerk_core::game::GameState;

/// Plays one game of random moves from `seed` (the deal and the bot's choices).
pub fn play_random<G: Game>(game: &G, seed: u64) -> G::State {
    let mut state = game.new_initial_state(seed);
    let mut bot = RandomBot::new(seed);
    while let Some(a) = bot.step(&state) {
        state.apply_action(a).expect("a legal action applies");
    }
    state
}

/// The same seed gives the same game, and different seeds give different games.
pub fn assert_same_seed_same_game<G: Game>(game: &G, seeds: u64)
where
    G::State: PartialEq + std::fmt::Debug,
{
    for seed in 0..seeds {
        assert_eq!(play_random(game, seed), play_random(game, seed), "seed {seed}");
    }
    assert_ne!(play_random(game, 1).history(), play_random(game, 2).history());
}

/// The position after `moves` uniformly random legal moves of the player to move in the
/// game dealt by `seed` (fewer if the game ends first).
pub fn random_position<G: Game>(game: &G, seed: u64, moves: usize) -> G::State {
    use rand::{RngExt as _, SeedableRng as _};
    let mut state = game.new_initial_state(seed);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    for _ in 0..moves {
        let legal = state.legal_actions();
        if legal.is_empty() {
            break;
        }
        state
            .apply_action(legal[rng.random_range(0..legal.len())])
            .expect("a legal action applies");
    }
    state
}
