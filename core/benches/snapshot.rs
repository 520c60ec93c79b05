//! Criterion benchmarks of the binary snapshot (`to_snapshot`, `deserialize_snapshot`)
//! of every game, on the mid-game state of `benches/openspiel_compare.py` (seed 3, random
//! bot 3, half a game), next to the readable JSON; and Dog at three points of a game, for
//! the cost per action of its history. Figures and commands: benches/README.md.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::Map;
use spielwerk_core::bots::RandomBot;
use spielwerk_core::{DynGame, DynState, load_game};

/// The state `share` (in percent) of the way through the seeded random game.
fn state_at(game: &dyn DynGame, share: usize) -> Box<dyn DynState> {
    let mut state = game.new_initial_state(3);
    let mut bot = RandomBot::new(3);
    while let Some(a) = bot.step_dyn(state.as_ref()) {
        state.apply_action(a).unwrap();
    }
    let history = state.history().to_vec();
    let mut state = game.new_initial_state(3);
    for &a in &history[..history.len() * share / 100] {
        state.apply_action(a).unwrap();
    }
    state
}

fn snapshots(c: &mut Criterion) {
    let mut group = c.benchmark_group("snapshot");
    for name in ["schotten_totten", "caravan", "the_game", "dog"] {
        let game = load_game(name, &Map::new()).unwrap();
        let g = game.as_ref();
        let shares: &[usize] = if name == "dog" { &[10, 50, 95] } else { &[50] };
        for &share in shares {
            let state = state_at(g, share);
            let at = format!("{name} at {share}% ({} actions)", state.history().len());
            let bytes = state.to_snapshot();
            group.bench_function(format!("write/{at}"), |b| {
                b.iter(|| black_box(black_box(state.as_ref()).to_snapshot()));
            });
            group.bench_function(format!("read/{at}"), |b| {
                b.iter(|| black_box(g.deserialize_snapshot(black_box(&bytes)).unwrap()));
            });
            group.bench_function(format!("round trip/{at}"), |b| {
                b.iter(|| {
                    let bytes = black_box(state.as_ref()).to_snapshot();
                    black_box(g.deserialize_snapshot(&bytes).unwrap())
                });
            });
            if share == 50 {
                let json = state.to_json();
                group.bench_function(format!("JSON round trip/{at}"), |b| {
                    b.iter(|| {
                        let json = black_box(state.as_ref()).to_json();
                        black_box(g.deserialize_state(&json).unwrap())
                    });
                });
                black_box(json);
            }
        }
    }
    group.finish();
}

criterion_group!(benches, snapshots);
criterion_main!(benches);
