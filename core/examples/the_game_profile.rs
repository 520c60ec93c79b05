//! Plays The Game with the heuristic in every seat, for profiling:
//! `cargo run --release --example the_game_profile -- PLAYERS GAMES` (add `replay` to time
//! the engine alone: the same games' actions replayed).
//!
//! `the_game_profile digest` instead prints a digest of every action of heuristic games
//! for 1-5 players, with and without the pro rules: two builds that print the same
//! digest make the same decisions (a speed-up must not change one of them).
use std::time::Instant;

use serde_json::json;
use spielwerk_core::bots::heuristic_playout;
use spielwerk_core::game::{Game, GameState};
use spielwerk_core::rng;
use spielwerk_core::the_game::TheGame;

fn game(players: u64, pro: bool) -> TheGame {
    let options = json!({"players": players, "pro": pro});
    TheGame::from_options(options.as_object().expect("an object")).expect("valid options")
}

/// FNV-1a over the histories of `games` heuristic games of `game`.
fn digest(game: TheGame, games: u64) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for seed in 0..games {
        let mut state = game.new_initial_state(seed);
        heuristic_playout(&mut state, &mut rng::seeded(seed, rng::STREAM_POLICY));
        for a in state.history().iter() {
            for b in u64::from(a).to_le_bytes() {
                hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
            }
        }
    }
    hash
}

/// Times the engine alone: the deals, then the actions of `games` heuristic games
/// replayed (the playout's cost beyond the heuristic's decisions).
fn replay(game: TheGame, games: u64) {
    let histories: Vec<Vec<_>> = (0..games)
        .map(|seed| {
            let mut state = game.new_initial_state(seed);
            heuristic_playout(&mut state, &mut rng::seeded(seed, rng::STREAM_POLICY));
            state.history().iter().collect()
        })
        .collect();
    let start = Instant::now();
    for seed in 0..games {
        std::hint::black_box(game.new_initial_state(seed));
    }
    let deal = start.elapsed().as_secs_f64();
    let start = Instant::now();
    for (seed, history) in (0..games).zip(&histories) {
        let mut state = game.new_initial_state(seed);
        for &action in history {
            state.apply_action(action).expect("a replayed action is legal");
        }
        std::hint::black_box(&state);
    }
    let all = start.elapsed().as_secs_f64();
    println!(
        "{games} games: deal {:.2} µs, deal and replay {:.2} µs per game",
        deal * 1e6 / games as f64,
        all * 1e6 / games as f64
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("digest") {
        for players in 1..=5 {
            for pro in [false, true] {
                let d = digest(game(players, pro), 2000);
                println!("{players} players, pro {pro}: {d:016x}");
            }
        }
        return;
    }
    let players = args.first().map_or(2, |a| a.parse().expect("a player count"));
    let games: u64 = args
        .get(1)
        .map_or(20_000, |a| a.parse().expect("a number of games"));
    let game = game(players, false);
    if args.get(2).map(String::as_str) == Some("replay") {
        replay(game, games);
        return;
    }
    let start = Instant::now();
    let mut actions = 0;
    for seed in 0..games {
        let mut state = game.new_initial_state(seed);
        actions += heuristic_playout(&mut state, &mut rng::seeded(seed, rng::STREAM_POLICY));
    }
    let elapsed = start.elapsed().as_secs_f64();
    println!(
        "{players} players: {games} games, {actions} actions, {:.2} µs per game, {:.0} games/s",
        elapsed * 1e6 / games as f64,
        games as f64 / elapsed
    );
}
