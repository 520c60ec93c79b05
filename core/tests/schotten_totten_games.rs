//! Invariants over many seeded random games of Schotten Totten.

use spielwerk_core::Game;
use spielwerk_core::bots::RandomBot;
use spielwerk_core::game::{Action, GameState};
use spielwerk_core::schotten_totten::{CardSet, NUM_ACTIONS, SchottenTotten, State};

const GAMES: u64 = 2_000;

fn assert_cards_conserved(state: &State) {
    let pile: CardSet = state.pile().iter().copied().collect();
    let (h0, h1, table) = (state.hand_set(0), state.hand_set(1), state.table());
    let total = pile.len() + h0.len() + h1.len() + table.len();
    assert_eq!(total, 54, "every card exactly once");
    assert_eq!(pile.union(h0).union(h1).union(table), CardSet::ALL);
}

#[test]
fn random_games_keep_every_invariant() {
    let game = SchottenTotten::default();
    let mut lengths = 0;
    for seed in 0..GAMES {
        let mut state = game.new_initial_state(seed);
        let mut bot = RandomBot::new(seed);
        let mut steps = 0;
        // No game can take longer (the argument is at `max_game_length`).
        let max_actions = game.max_game_length() as usize;
        while let Some(action) = bot.step(&state) {
            assert_cards_conserved(&state);
            // The fast legal-action generator agrees with the move check on every id.
            let legal = state.legal_actions();
            let checked: Vec<Action> = (0..NUM_ACTIONS as Action)
                .filter(|&a| state.check_action(a).is_ok())
                .collect();
            assert_eq!(legal, checked, "seed {seed} step {steps}");
            if steps % 10 == 0 {
                let json = state.to_json();
                assert_eq!(game.state_from_json(&json).unwrap(), state);
                let p = state.current_player().unwrap();
                assert_eq!(
                    state.resample(p, seed).expect("the state resamples").view(p),
                    state.view(p)
                );
            }
            state.apply_action(action).unwrap();
            steps += 1;
            assert!(
                steps <= max_actions,
                "seed {seed} runs past {max_actions} actions"
            );
        }
        assert_cards_conserved(&state);
        let returns = state.returns();
        assert!(returns == [1.0, -1.0] || returns == [-1.0, 1.0] || returns == [0.0, 0.0]);
        lengths += steps;
    }
    assert!(lengths > 0);
}
