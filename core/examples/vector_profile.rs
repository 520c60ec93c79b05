//! Where a [`VectorEnv`] step's time goes, for profiling (issue 24):
//! `cargo run --release -p spielwerk-core --example vector_profile -- [game] [steps] [threads] [mode]`
//! (game: `schotten_totten`, `the_game`, `caravan`, `dog`; default `schotten_totten`, 200 steps,
//! 1 thread; mode `all`, `masks`, `bits`, `lists`, `both`, `none`, `parts`). It times
//! whole steps of 1,024 envs (`VECTOR_PROFILE_ENVS`; actions uniform among the legal
//! ones, chosen in Rust from the buffers the step wrote, so no Python is in the figure)
//! with the masks, the packed mask bits, the lists, masks and lists, or none of them
//! written; then (`all`, `parts`) the parts of a step per env on random
//! positions: apply, legal actions, the view, the tensor, the mask row. Under callgrind
//! (`valgrind --tool=callgrind`) use few steps and one mode; the parts are named
//! functions (mind that callgrind counts each byte of a `rep stosb` memset).
use std::hint::black_box;
use std::time::Instant;

use spielwerk_core::caravan::CaravanGame;
use spielwerk_core::dog::Dog;
use spielwerk_core::game::{Action, Game, GameState};
use spielwerk_core::rng;
use spielwerk_core::schotten_totten::SchottenTotten;
use spielwerk_core::the_game::TheGame;
use spielwerk_core::vector::{Buffers, VectorEnv};

/// The number of envs: 1,024, or `VECTOR_PROFILE_ENVS` (to see what the working set costs).
fn n_envs() -> usize {
    std::env::var("VECTOR_PROFILE_ENVS").map_or(1024, |s| s.parse().expect("VECTOR_PROFILE_ENVS"))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("schotten_totten", String::as_str);
    let steps: usize = args.get(2).map_or(200, |s| s.parse().expect("steps"));
    let threads: usize = args.get(3).map_or(1, |s| s.parse().expect("threads"));
    let mode = args.get(4).map_or("all", String::as_str);
    match name {
        "schotten_totten" => run(SchottenTotten::default(), steps, threads, mode),
        "the_game" => run(TheGame::default(), steps, threads, mode),
        "caravan" => run(CaravanGame::default(), steps, threads, mode),
        "dog" => run(Dog::default(), steps, threads, mode),
        other => panic!("unknown game {other}"),
    }
}

fn run<G: Game + Copy>(game: G, steps: usize, threads: usize, mode: &str)
where
    G::State: spielwerk_core::bots::Heuristic,
{
    let len = game.observation_tensor_len();
    let width = game.num_distinct_actions();
    let players = game.num_players();
    let n = n_envs();
    // (masks, bits, lists)
    let configs: &[(bool, bool, bool)] = match mode {
        "all" => &[
            (true, false, true),
            (true, false, false),
            (false, true, false),
            (false, false, true),
            (false, false, false),
        ],
        "masks" => &[(true, false, false)],
        "bits" => &[(false, true, false)],
        "lists" => &[(false, false, true)],
        "both" => &[(true, false, true)],
        "none" => &[(false, false, false)],
        "parts" => &[],
        other => panic!("unknown mode {other}"),
    };
    for &(masks_on, bits_on, lists_on) in configs {
        let mut env = VectorEnv::new(game, n, 0, None, Some(threads)).expect("env");
        let mut o = vec![0.0f32; n * len];
        let mut m = vec![0u8; n * width];
        let bits_len = spielwerk_core::vector::mask_bits_len(width);
        let mut b = vec![0u8; n * bits_len];
        let mut l = vec![0i64; n * width];
        let mut c = vec![0i64; n];
        let mut r = vec![0.0f32; n * players];
        let (mut t, mut u, mut s) = (vec![false; n], vec![false; n], vec![0i64; n]);
        let mut random = rng::seeded(1, rng::STREAM_POLICY);
        let mut actions = vec![0i64; n];
        let mut legal: Vec<Action> = Vec::new();
        macro_rules! buffers {
            () => {
                Buffers {
                    observations: &mut o,
                    masks: masks_on.then_some(&mut m[..]),
                    mask_bits: bits_on.then_some(&mut b[..]),
                    legal_actions: lists_on.then_some(&mut l[..]),
                    legal_counts: lists_on.then_some(&mut c[..]),
                    rewards: &mut r,
                    terminations: &mut t,
                    truncations: &mut u,
                    seats: &mut s,
                }
            };
        }
        env.reset(None, buffers!()).expect("reset");
        let mut spent = std::time::Duration::ZERO;
        for _ in 0..steps {
            for (i, a) in actions.iter_mut().enumerate() {
                if lists_on {
                    let k = rand::RngExt::random_range(&mut random, 0..c[i] as usize);
                    *a = l[i * width + k];
                } else if masks_on {
                    legal.clear();
                    let row = &m[i * width..(i + 1) * width];
                    legal.extend((0..width as Action).filter(|&a| row[a as usize] != 0));
                    let k = rand::RngExt::random_range(&mut random, 0..legal.len());
                    *a = i64::from(legal[k]);
                } else if bits_on {
                    legal.clear();
                    let row = &b[i * bits_len..(i + 1) * bits_len];
                    legal.extend((0..width as Action).filter(|&a| row[a as usize / 8] >> (a % 8) & 1 == 1));
                    let k = rand::RngExt::random_range(&mut random, 0..legal.len());
                    *a = i64::from(legal[k]);
                } else {
                    let (state, _) = env.state(i).expect("env");
                    state.legal_actions_for(s[i] as usize, &mut legal);
                    let k = rand::RngExt::random_range(&mut random, 0..legal.len());
                    *a = i64::from(legal[k]);
                }
            }
            let start = Instant::now();
            env.step(&actions, buffers!()).expect("step");
            spent += start.elapsed();
        }
        let per_step = spent / steps as u32;
        println!(
            "{} masks={masks_on} bits={bits_on} lists={lists_on} threads={threads}: {per_step:?} per step of {n} envs, {:.2} M env steps/s",
            G::NAME,
            n as f64 / per_step.as_secs_f64() / 1e6
        );
    }
    if matches!(mode, "all" | "parts") {
        parts(game, steps.min(100));
    }
}

/// The parts of a step per env, on the positions of `N` random games over `steps` steps.
fn parts<G: Game + Copy>(game: G, steps: usize) {
    let mut random = rng::seeded(2, rng::STREAM_POLICY);
    let mut states: Vec<G::State> = Vec::new();
    let mut legal = Vec::new();
    for i in 0..1024 {
        let mut state = game.new_initial_state(i);
        for _ in 0..(i as usize % steps.max(1)) {
            if state.is_terminal() {
                break;
            }
            state.legal_actions_into(&mut legal);
            let k = rand::RngExt::random_range(&mut random, 0..legal.len());
            state.apply_action(legal[k]).expect("legal");
        }
        if !state.is_terminal() {
            states.push(state);
        }
    }
    let n = states.len() as u32;
    let len = game.observation_tensor_len();
    let width = game.num_distinct_actions();
    let mut out = vec![0.0f32; len];
    let mut mask = vec![0u8; width];
    let mut chosen: Vec<Action> = Vec::new();
    for s in &states {
        s.legal_actions_into(&mut legal);
        chosen.push(legal[legal.len() / 2]);
    }
    // The best of 30 rounds over every position: the machine is shared, a round that
    // was interrupted says nothing about the code.
    let time = |label: &str, f: &mut dyn FnMut()| {
        let best = (0..30)
            .map(|_| {
                let start = Instant::now();
                f();
                start.elapsed()
            })
            .min()
            .expect("rounds");
        println!("  {label}: {:?} per env (best round)", best / n);
    };
    time("apply (clone + apply)", &mut || {
        for (s, &a) in states.iter().zip(&chosen) {
            let mut s = s.clone();
            s.apply_action(a).expect("legal");
            black_box(&s);
        }
    });
    time("clone alone", &mut || {
        for s in &states {
            black_box(s.clone());
        }
    });
    time("legal actions", &mut || {
        for s in &states {
            s.legal_actions_into(&mut legal);
            black_box(&legal);
        }
    });
    time("view_of", &mut || {
        for s in &states {
            black_box(s.view_of(s.current_player()));
        }
    });
    let views: Vec<G::View> = states.iter().map(|s| s.view_of(s.current_player())).collect();
    time("write_observation (view built before)", &mut || {
        for v in &views {
            game.write_observation(v, &mut out);
            black_box(&out);
        }
    });
    time("view_of + write_observation", &mut || {
        for s in &states {
            game.write_observation(&s.view_of(s.current_player()), &mut out);
            black_box(&out);
        }
    });
    time("observation_tensor_into", &mut || {
        for s in &states {
            s.observation_tensor_into(s.current_player(), &mut out)
                .expect("len");
            black_box(&out);
        }
    });
    // As in a vector env: each position into its own row of one large buffer (cold,
    // as every step's buffer is by the time it is written again).
    let mut rows = vec![0.0f32; states.len() * len];
    time("observation_tensor_into, a row each", &mut || {
        for (s, row) in states.iter().zip(rows.chunks_exact_mut(len)) {
            s.observation_tensor_into(s.current_player(), row).expect("len");
        }
        black_box(&rows);
    });
    time("fill(0) alone, a row each", &mut || {
        for row in rows.chunks_exact_mut(len) {
            row.fill(0.0);
        }
        black_box(&rows);
    });
    time("mask row (fill + set)", &mut || {
        for s in &states {
            s.legal_actions_into(&mut legal);
            mask.fill(0);
            for &a in &legal {
                mask[a as usize] = 1;
            }
            black_box(&mask);
        }
    });
    let total: usize = states
        .iter()
        .map(|s| {
            s.legal_actions_into(&mut legal);
            legal.len()
        })
        .sum();
    println!(
        "  {} positions, {:.1} legal actions on average of {width}",
        states.len(),
        total as f64 / states.len() as f64
    );
}
