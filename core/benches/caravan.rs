//! Criterion benchmarks of Caravan. Figures and commands: benches/README.md.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use spielwerk_core::bots::RandomBot;
use spielwerk_core::caravan::CaravanGame;
use spielwerk_core::game::{Game, GameState};
use spielwerk_core::simulate::random_game;

fn games(c: &mut Criterion) {
    let mut group = c.benchmark_group("caravan");
    group.throughput(Throughput::Elements(1));
    for (name, game) in [
        ("standard", CaravanGame::default()),
        (
            "double deck",
            CaravanGame {
                double_deck: true,
                ..Default::default()
            },
        ),
    ] {
        let mut seed = 0u64;
        let mut buf = Vec::new();
        group.bench_function(format!("random game, {name} (deal + playout)"), |b| {
            b.iter(|| {
                seed += 1;
                black_box(random_game(&game, seed, &mut buf))
            });
        });
    }
    // A crowded table: 60 random actions into a game.
    let game = CaravanGame::default();
    let mut state = game.new_initial_state(5);
    let mut bot = RandomBot::new(5);
    for _ in 0..60 {
        if let Some(a) = bot.step(&state) {
            state.apply_action(a).unwrap();
        }
    }
    let mut buf = Vec::new();
    state.legal_actions_into(&mut buf);
    let n = buf.len();
    group.bench_function(format!("legal_actions/after 60 actions ({n} actions)"), |b| {
        b.iter(|| {
            black_box(&state).legal_actions_into(&mut buf);
            black_box(buf.len())
        });
    });
    // The API serves views: one seat's view as JSON bytes, with the pairs' sale facts; the
    // information-state key (bots) is the same view without them.
    group.bench_function("view_json (one seat, after 60 actions)", |b| {
        b.iter(|| black_box(black_box(&state).view_json(Some(0))));
    });
    group.bench_function("information_state_key (one seat, after 60 actions)", |b| {
        b.iter(|| black_box(black_box(&state).information_state_key(0)));
    });
    // Clones early and late in a game: the cost must not grow with the history.
    let mut late = game.new_initial_state(5);
    let mut bot = RandomBot::new(5);
    while let Some(a) = bot.step(&late) {
        late.apply_action(a).unwrap();
    }
    let length = late.history().len();
    for (label, at) in [("early", 10), ("late", length * 95 / 100)] {
        let mut s = game.new_initial_state(5);
        let mut bot = RandomBot::new(5);
        for _ in 0..at {
            s.apply_action(bot.step(&s).unwrap()).unwrap();
        }
        group.bench_function(format!("clone/{label} ({at} actions)"), |b| {
            b.iter(|| black_box(black_box(&s).clone()));
        });
    }
    group.finish();
}

criterion_group!(benches, games);
criterion_main!(benches);
