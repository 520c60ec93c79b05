//! Criterion benchmarks of the bots (issue 11). Figures and commands: benches/README.md.
//!
//! `ismcts/1000 iterations/<game>`: one decision at 1,000 iterations from a mid-game
//! position, on one core; the throughput line is iterations per second.
//! `the_game heuristic/<n> players`: whole games of The Game's heuristic, one core.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde_json::{Map, Value, json};
use spielwerk_core::bots::{Bot, Heuristic, Ismcts, IsmctsParams, RandomBot, Rollout, heuristic_playout};
use spielwerk_core::caravan::CaravanGame;
use spielwerk_core::dog::Dog;
use spielwerk_core::game::{Game, GameState};
use spielwerk_core::rng;
use spielwerk_core::schotten_totten::SchottenTotten;
use spielwerk_core::the_game::TheGame;

const ITERATIONS: u64 = 1000;

/// A running position after `plies` random actions of deal `seed` with several legal
/// actions for the player to move.
fn mid_game<G: Game>(game: &G, seed: u64, plies: usize) -> G::State {
    let mut state = game.new_initial_state(seed);
    let mut bot = RandomBot::new(seed);
    for _ in 0..plies {
        let a = bot.step(&state).expect("the game runs");
        state.apply_action(a).unwrap();
    }
    while state.legal_actions().len() < 2 {
        let a = bot.step(&state).expect("the game runs");
        state.apply_action(a).unwrap();
    }
    state
}

fn decision<G: Game>(c: &mut Criterion, label: &str, game: &G, plies: usize, samples: usize)
where
    G::State: Heuristic,
{
    decision_with(c, label, game, plies, samples, &IsmctsParams::default());
}

/// As [`decision`], for the search `params` (their iterations set to 1,000).
fn decision_with<G: Game>(
    c: &mut Criterion,
    label: &str,
    game: &G,
    plies: usize,
    samples: usize,
    params: &IsmctsParams,
) where
    G::State: Heuristic,
{
    let state = mid_game(game, 7, plies);
    let seat = state.current_player().unwrap();
    let bot = Ismcts::new(IsmctsParams {
        iterations: ITERATIONS,
        ..*params
    });
    let mut group = c.benchmark_group("ismcts/1000 iterations");
    group.throughput(Throughput::Elements(ITERATIONS));
    group.sample_size(samples);
    group.measurement_time(Duration::from_secs(8));
    let mut seed = 0u64;
    group.bench_function(label, |b| {
        b.iter(|| {
            seed += 1;
            black_box(bot.choose(black_box(&state), seat, seed).unwrap())
        });
    });
    group.finish();
}

fn options(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(m) => m,
        _ => unreachable!(),
    }
}

fn ismcts(c: &mut Criterion) {
    decision(
        c,
        "schotten_totten",
        &SchottenTotten::from_options(&Map::new()).unwrap(),
        20,
        30,
    );
    // Schotten Totten's recommended search: rollouts stopped at once and the position
    // scored by the game's estimate (benches/README.md, "Schotten Totten ismcts").
    decision_with(
        c,
        "schotten_totten/rollout_depth 0",
        &SchottenTotten::from_options(&Map::new()).unwrap(),
        20,
        30,
        &IsmctsParams::from_json(&options(json!({"rollout_depth": 0, "c": 0.4, "dominant": true}))).unwrap(),
    );
    // The same, widened by the heuristic's ranking: each node weighs its actor's best
    // plays only (benches/README.md, "Schotten Totten ismcts").
    decision_with(
        c,
        "schotten_totten/widen 4",
        &SchottenTotten::from_options(&Map::new()).unwrap(),
        20,
        30,
        &IsmctsParams::from_json(&options(
            json!({"rollout_depth": 0, "c": 0.4, "dominant": true, "widen": 4}),
        ))
        .unwrap(),
    );
    // The widened search with one heuristic reply before the estimate
    // (benches/README.md, "The widened search within 30 ms").
    decision_with(
        c,
        "schotten_totten/widen 4, heuristic reply",
        &SchottenTotten::from_options(&Map::new()).unwrap(),
        20,
        30,
        &IsmctsParams::from_json(&options(json!({
            "rollout_depth": 1, "rollout": "heuristic", "c": 0.4, "dominant": true, "widen": 4
        })))
        .unwrap(),
    );
    decision(
        c,
        "caravan",
        &CaravanGame::from_options(&Map::new()).unwrap(),
        30,
        20,
    );
    decision(
        c,
        "the_game/3 players",
        &TheGame::from_options(&options(json!({"players": 3}))).unwrap(),
        6,
        30,
    );
    decision(c, "dog", &Dog::from_options(&Map::new()).unwrap(), 60, 10);
    // Dog as it plays best: heuristic rollouts cut after 8 actions and scored by the
    // position value, guided by the heuristic (benches/README.md, "Dog ismcts").
    decision_with(
        c,
        "dog, heuristic rollouts cut at 8, prior 2",
        &Dog::from_options(&Map::new()).unwrap(),
        60,
        10,
        &IsmctsParams {
            rollout: Rollout::Heuristic,
            rollout_depth: Some(8),
            prior: 2.0,
            ..IsmctsParams::default()
        },
    );
}

/// `the_game heuristic/<n> players`: whole games with the heuristic in every seat, one
/// core; the throughput line is games per second (issue 11's target: 80,000).
fn the_game_heuristic(c: &mut Criterion) {
    let mut group = c.benchmark_group("the_game heuristic");
    group.throughput(Throughput::Elements(1));
    for players in 1..=5 {
        let game = TheGame::from_options(&options(json!({"players": players}))).unwrap();
        let mut seed = 0u64;
        group.bench_function(format!("{players} players"), |b| {
            b.iter(|| {
                seed += 1;
                let mut state = game.new_initial_state(seed);
                black_box(heuristic_playout(
                    &mut state,
                    &mut rng::seeded(seed, rng::STREAM_POLICY),
                ))
            });
        });
    }
    group.finish();
}

criterion_group!(benches, ismcts, the_game_heuristic);
criterion_main!(benches);
