//! Criterion benchmarks of the observation tensors (issue 24): ns per
//! `write_observation` for every game, over views of states spread through random games,
//! the same with building the view first (`view_of` + write: what a call from a state
//! cost before), `observation_tensor_into` (written straight from the state, no view
//! built: what a call from a state and a vector env's step cost now), and through the
//! rules trait (`GameState::observation_tensor_into`: the seat and length checks and the
//! game's tensor, as the bindings and the vector env call it). Figures and commands:
//! benches/README.md.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use spielwerk_core::caravan::CaravanGame;
use spielwerk_core::dog::Dog;
use spielwerk_core::game::{Game, GameState};
use spielwerk_core::schotten_totten::SchottenTotten;
use spielwerk_core::the_game::TheGame;
use spielwerk_core::{caravan, dog, schotten_totten, the_game};

/// 256 states of random games (every 5th state), each with its player to move.
fn states<G: Game>(game: &G) -> Vec<(G::State, usize)> {
    let mut out = Vec::new();
    let mut actions = Vec::new();
    let mut rng = ChaCha8Rng::seed_from_u64(24);
    for seed in 0.. {
        let mut state = game.new_initial_state(seed);
        for step in 0.. {
            let Some(seat) = state.current_player() else { break };
            if step % 5 == 0 {
                out.push((state.clone(), seat));
                if out.len() == 256 {
                    return out;
                }
            }
            state.legal_actions_into(&mut actions);
            state
                .apply_action(actions[rng.random_range(0..actions.len())])
                .unwrap();
        }
    }
    unreachable!()
}

fn bench<G: Game>(
    c: &mut Criterion,
    name: &str,
    game: &G,
    shape: fn(&G) -> Vec<usize>,
    write: fn(&G, &G::View, &mut [f32]),
) {
    let states = states(game);
    let views: Vec<G::View> = states.iter().map(|(s, p)| s.view_of(Some(*p))).collect();
    let mut out = vec![0.0f32; shape(game).iter().product()];
    let mut group = c.benchmark_group("tensor");
    let mut i = 0;
    group.bench_function(format!("{name}/write_observation"), |b| {
        b.iter(|| {
            i = (i + 1) % views.len();
            write(game, black_box(&views[i]), black_box(&mut out));
        });
    });
    group.bench_function(format!("{name}/view_of + write_observation"), |b| {
        b.iter(|| {
            i = (i + 1) % states.len();
            let (state, seat) = &states[i];
            let view = state.view_of(Some(*seat));
            write(game, black_box(&view), black_box(&mut out));
        });
    });
    group.bench_function(format!("{name}/observation_tensor_into"), |b| {
        b.iter(|| {
            i = (i + 1) % states.len();
            let (state, seat) = &states[i];
            black_box(state)
                .observation_tensor_into(Some(*seat), black_box(&mut out))
                .unwrap();
        });
    });
    group.finish();
}

fn tensors(c: &mut Criterion) {
    bench(
        c,
        "schotten_totten",
        &SchottenTotten::default(),
        schotten_totten::tensor::observation_tensor_shape,
        schotten_totten::tensor::write_observation,
    );
    bench(
        c,
        "caravan",
        &CaravanGame::default(),
        caravan::tensor::observation_tensor_shape,
        caravan::tensor::write_observation,
    );
    for players in [2, 5] {
        bench(
            c,
            &format!("the_game {players} players"),
            &TheGame { players, pro: false },
            the_game::tensor::observation_tensor_shape,
            the_game::tensor::write_observation,
        );
    }
    bench(
        c,
        "dog",
        &Dog::default(),
        dog::tensor::observation_tensor_shape,
        dog::tensor::write_observation,
    );
}

criterion_group!(benches, tensors);
criterion_main!(benches);
