//! Criterion benchmarks of Dog. Figures and commands: benches/README.md.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use spielwerk_core::bots::{Heuristic, RandomBot, heuristic_playout};
use spielwerk_core::dog::Dog;
use spielwerk_core::game::{Game, GameState};
use spielwerk_core::rng;
use spielwerk_core::simulate::random_game;

fn games(c: &mut Criterion) {
    let mut group = c.benchmark_group("dog");
    group.throughput(Throughput::Elements(1));
    let game = Dog::default();
    let mut seed = 0u64;
    let mut buf = Vec::new();
    group.bench_function("random game (deal + playout)", |b| {
        b.iter(|| {
            seed += 1;
            black_box(random_game(&game, seed, &mut buf))
        });
    });
    // A crowded board: three marbles of every colour out, a seven and a joker in hand.
    let crowded = r#"{"rules":{"max_turns":10000},"marbles":[
        {"place":{"ring":2}},{"place":{"ring":9}},{"place":{"ring":60}},{"place":"kennel"},
        {"place":{"ring":16},"protected":true},{"place":{"ring":22}},{"place":{"ring":5}},{"place":"kennel"},
        {"place":{"ring":33}},{"place":{"ring":40}},{"place":{"goal":1}},{"place":"kennel"},
        {"place":{"ring":50}},{"place":{"ring":55}},{"place":{"ring":12}},{"place":"kennel"}],
        "hands":[["A","4","7","J","JK"],["2"],["3"],["5"]],
        "pile":[],"discards":[],"reshuffle_seed":1,"reshuffles":0,"round":1,"phase":"play","current":0,
        "exchange":[null,null,null,null],"received":[null,null,null,null],"seven":null,
        "sat_out":[false,false,false,false],"turns":4,"outcome":null,"history":[]}"#;
    let mut value: serde_json::Value = serde_json::from_str(crowded).unwrap();
    // The rest of the 110 cards lie in the pile.
    let held = ["A", "4", "7", "J", "JK", "2", "3", "5"];
    let mut pile = Vec::new();
    for (card, copies) in [
        ("A", 8),
        ("2", 8),
        ("3", 8),
        ("4", 8),
        ("5", 8),
        ("6", 8),
        ("7", 8),
        ("8", 8),
        ("9", 8),
        ("10", 8),
        ("J", 8),
        ("Q", 8),
        ("K", 8),
        ("JK", 6),
    ] {
        let n = copies - held.iter().filter(|&&h| h == card).count();
        pile.extend(std::iter::repeat_n(card, n));
    }
    value["pile"] = serde_json::json!(pile);
    let state = game.state_from_json(&value.to_string()).unwrap();
    state.legal_actions_into(&mut buf);
    let n = buf.len();
    group.bench_function(
        format!("legal_actions/crowded board, A 4 7 J JK in hand ({n} actions)"),
        |b| {
            b.iter(|| {
                black_box(&state).legal_actions_into(&mut buf);
                black_box(buf.len())
            });
        },
    );
    // The heuristic's decision (it scores every legal play, and plans the seven's split).
    group.bench_function("heuristic decision (crowded board, A 4 7 J JK in hand)", |b| {
        b.iter(|| {
            seed += 1;
            black_box(black_box(&state).heuristic_action(0, &mut rng::seeded(seed, rng::STREAM_POLICY)))
        });
    });
    // A whole game between heuristic players (the rollout of ismcts with heuristic
    // rollouts); the mean number of actions is printed to turn it into time per decision.
    let mut heuristic_actions = 0u64;
    for s in 0..100 {
        let mut st = game.new_initial_state(s);
        heuristic_actions += heuristic_playout(&mut st, &mut rng::seeded(s, rng::STREAM_POLICY));
    }
    eprintln!("heuristic games: {} actions on average", heuristic_actions / 100);
    group.bench_function("heuristic game (deal + playout)", |b| {
        b.iter(|| {
            seed += 1;
            let mut st = game.new_initial_state(seed);
            black_box(heuristic_playout(
                &mut st,
                &mut rng::seeded(seed, rng::STREAM_POLICY),
            ))
        });
    });
    // The API serves views: one seat's view as JSON bytes, with the targets of its cards
    // (`hand_targets`); the information-state key (bots) is the same view without them.
    group.bench_function("view_json (one seat, crowded board)", |b| {
        b.iter(|| black_box(black_box(&state).view_json(Some(0))));
    });
    group.bench_function("information_state_key (one seat, crowded board)", |b| {
        b.iter(|| black_box(black_box(&state).information_state_key(0)));
    });
    group.bench_function("resample (one seat, crowded board)", |b| {
        b.iter(|| {
            seed += 1;
            black_box(black_box(&state).resample(0, seed).unwrap())
        });
    });
    // Clones early and late in a game: the cost must not grow with the history.
    let mut late = game.new_initial_state(3);
    let mut bot = RandomBot::new(3);
    while let Some(a) = bot.step(&late) {
        late.apply_action(a).unwrap();
    }
    let length = late.history().len();
    for (label, at) in [("early", 10), ("late", length * 95 / 100)] {
        let mut s = game.new_initial_state(3);
        let mut bot = RandomBot::new(3);
        for _ in 0..at {
            s.apply_action(bot.step(&s).unwrap()).unwrap();
        }
        group.bench_function(format!("clone/{label} ({at} actions)"), |b| {
            b.iter(|| black_box(black_box(&s).clone()));
        });
        group.bench_function(format!("clone/{label}, the history alone"), |b| {
            b.iter(|| black_box(black_box(s.history()).clone()));
        });
    }
    group.finish();
}

criterion_group!(benches, games);
criterion_main!(benches);
