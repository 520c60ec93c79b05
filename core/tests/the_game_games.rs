//! Invariants over many seeded random games of The Game, for every player count.

use spielwerk_core::Game;
use spielwerk_core::bots::RandomBot;
use spielwerk_core::game::{Action, GameState};
use spielwerk_core::the_game::{NUM_ACTIONS, State, TheGame};

const GAMES: u64 = 1_000;
/// 98 plays and at most one end-turn after each play.
const MAX_ACTIONS: usize = 196;

/// Every card 2–99 exactly once across hands, draw pile and piles.
fn assert_cards_conserved(state: &State, players: usize) {
    let json: serde_json::Value = serde_json::from_str(&state.to_json()).unwrap();
    let mut cards: Vec<u64> = json["draw_pile"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect();
    for p in 0..players {
        cards.extend(state.hand_set(p).iter().map(u64::from));
    }
    let played: u64 = json["pile_sizes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .sum();
    let mut sorted = cards.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), cards.len(), "a card appears twice");
    assert!(cards.iter().all(|c| (2..=99).contains(c)));
    assert_eq!(cards.len() as u64 + played, 98);
    for top in state.tops() {
        assert!(!cards.contains(&u64::from(top)), "a pile's top is also held");
    }
}

#[test]
fn random_games_keep_every_invariant_for_one_to_five_players() {
    for players in 1..=5u8 {
        for pro in [false, true] {
            let game = TheGame { players, pro };
            let games = if pro { GAMES / 4 } else { GAMES };
            for seed in 0..games {
                let mut state = game.new_initial_state(seed);
                let mut bot = RandomBot::new(seed);
                let mut steps = 0;
                while let Some(action) = bot.step(&state) {
                    assert_cards_conserved(&state, players as usize);
                    let legal = state.legal_actions();
                    let checked: Vec<Action> = (0..NUM_ACTIONS as Action)
                        .filter(|&a| state.check_action(a).is_ok())
                        .collect();
                    assert_eq!(legal, checked, "{players} players, seed {seed}");
                    if steps % 7 == 0 {
                        assert_eq!(game.state_from_json(&state.to_json()).unwrap(), state);
                        let p = state.current_player().unwrap();
                        assert_eq!(
                            state.resample(p, seed).expect("the state resamples").view(p),
                            state.view(p)
                        );
                    }
                    state.apply_action(action).unwrap();
                    steps += 1;
                    assert!(steps <= MAX_ACTIONS);
                }
                assert_cards_conserved(&state, players as usize);
                let returns = state.returns();
                assert_eq!(returns.len(), players as usize);
                assert!(returns.iter().all(|&r| r == returns[0] && r <= 0.0));
            }
        }
    }
}
