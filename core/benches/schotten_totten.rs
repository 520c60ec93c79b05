//! Criterion benchmarks of Schotten Totten. Figures and commands: benches/README.md.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use spielwerk_core::bots::RandomBot;
use spielwerk_core::game::{Game, GameState};
use spielwerk_core::schotten_totten::{Card, CardSet, SchottenTotten, best_reachable, check_claim};
use spielwerk_core::simulate::random_game;

fn cards(s: &str) -> Vec<Card> {
    s.split_whitespace().map(|c| c.parse().unwrap()).collect()
}

fn claim_proof(c: &mut Criterion) {
    // Worst case: the other side is empty and 45 cards are available.
    let mine: [Card; 3] = cards("R4 O4 Y4").try_into().unwrap();
    let table: CardSet = cards("R4 O4 Y4 G1 B2 P3 R9 O8 Y7").into_iter().collect();
    let available = CardSet::ALL.minus(table);
    assert_eq!(available.len(), 45);
    c.bench_function("check_claim/other side empty, 45 available", |b| {
        b.iter(|| check_claim(black_box(mine), black_box(&[]), black_box(available), true));
    });
    let theirs = cards("B5 G7");
    c.bench_function("best_reachable/two cards, 43 available", |b| {
        b.iter(|| {
            best_reachable(
                black_box(&theirs),
                black_box(available.minus(theirs.iter().copied().collect())),
            )
        });
    });
}

fn games(c: &mut Criterion) {
    let game = SchottenTotten::default();
    let mut group = c.benchmark_group("schotten_totten");
    group.throughput(Throughput::Elements(1));
    let mut seed = 0u64;
    let mut buf = Vec::new();
    group.bench_function("random game (deal + playout)", |b| {
        b.iter(|| {
            seed += 1;
            black_box(random_game(&game, seed, &mut buf))
        });
    });
    let state = game.new_initial_state(1);
    group.bench_function("legal_actions/initial state (36 actions)", |b| {
        b.iter(|| {
            black_box(&state).legal_actions_into(&mut buf);
            black_box(buf.len())
        });
    });
    // A mid-game position (after 30 random actions) for cloning and serialization.
    let mut mid = game.new_initial_state(9);
    let mut bot = RandomBot::new(9);
    for _ in 0..30 {
        let a = bot.step(&mid).unwrap();
        mid.apply_action(a).unwrap();
    }
    group.bench_function("clone/mid-game", |b| b.iter(|| black_box(&mid).clone()));
    // Views and dealing from a view (engine contract v2): what the API serves and what
    // search over hidden information calls.
    group.bench_function("view_json(Some(0))/initial state", |b| {
        b.iter(|| black_box(&state).view_json(black_box(Some(0))));
    });
    group.bench_function("view_json(Some(0))/mid-game", |b| {
        b.iter(|| black_box(&mid).view_json(black_box(Some(0))));
    });
    let first_view = state.view_of(Some(0));
    let mut view_seed = 0u64;
    group.bench_function("state_from_view/initial state", |b| {
        b.iter(|| {
            view_seed += 1;
            game.state_from_view(black_box(&first_view), view_seed).unwrap()
        });
    });
    let mid_view = mid.view_of(Some(mid.current_player().unwrap()));
    group.bench_function("state_from_view/mid-game", |b| {
        b.iter(|| {
            view_seed += 1;
            game.state_from_view(black_box(&mid_view), view_seed).unwrap()
        });
    });
    group.bench_function("serialize/mid-game", |b| b.iter(|| black_box(&mid).to_json()));
    group.finish();
}

criterion_group!(benches, claim_proof, games);
criterion_main!(benches);
