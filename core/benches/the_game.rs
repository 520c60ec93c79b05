//! Criterion benchmarks of The Game. Figures and commands: benches/README.md.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use spielwerk_core::game::{Game, GameState};
use spielwerk_core::simulate::random_game;
use spielwerk_core::the_game::{TheGame, mentions_number};

fn games(c: &mut Criterion) {
    let mut group = c.benchmark_group("the_game");
    group.throughput(Throughput::Elements(1));
    for players in [2u8, 5] {
        let game = TheGame { players, pro: false };
        let mut seed = 0u64;
        let mut buf = Vec::new();
        group.bench_function(format!("random game, {players} players (deal + playout)"), |b| {
            b.iter(|| {
                seed += 1;
                black_box(random_game(&game, seed, &mut buf))
            });
        });
    }
    let state = TheGame::default().new_initial_state(1);
    let mut buf = Vec::new();
    group.bench_function("legal_actions/initial state, 7 cards", |b| {
        b.iter(|| {
            black_box(&state).legal_actions_into(&mut buf);
            black_box(buf.len())
        });
    });
    // A position mid-game: some cards played, others held.
    let mut mid = TheGame {
        players: 3,
        pro: false,
    }
    .new_initial_state(1);
    let mut bot = spielwerk_core::bots::RandomBot::new(1);
    for _ in 0..12 {
        if let Some(a) = bot.step(&mid) {
            mid.apply_action(a).unwrap();
        }
    }
    // The API's view (with the piles' takes and backward) and the information-state key
    // (bots: the same view without them).
    group.bench_function("view_json/mid-game, 3 players", |b| {
        b.iter(|| black_box(black_box(&mid).view_json(Some(1))));
    });
    group.bench_function("information_state_key/mid-game, 3 players", |b| {
        b.iter(|| black_box(black_box(&mid).information_state_key(1)));
    });
    group.bench_function("resample/mid-game, 3 players", |b| {
        let mut seed = 0u64;
        b.iter(|| {
            seed += 1;
            black_box(black_box(&mid).resample(1, seed).unwrap())
        });
    });
    group.finish();
    c.bench_function("the_game/mentions_number/sentence", |b| {
        b.iter(|| {
            mentions_number(black_box(
                "Bitte nur noch einen ganz kleinen Sprung auf dem linken Stapel",
            ))
        });
    });
}

criterion_group!(benches, games);
criterion_main!(benches);
