//! Where a serialization round trip spends its time, per game, on the mid-game state of
//! `benches/openspiel_compare.py` (seed 3, random bot 3, half a game):
//! `cargo run --release -p spielwerk-core --example serialize_profile`.
use std::hint::black_box;
use std::time::Instant;

use serde_json::Map;
use spielwerk_core::bots::RandomBot;
use spielwerk_core::{DynState, compact, load_game};

fn per_call(n: u32, mut f: impl FnMut()) -> f64 {
    for _ in 0..n / 10 {
        f();
    }
    let start = Instant::now();
    for _ in 0..n {
        f();
    }
    start.elapsed().as_nanos() as f64 / f64::from(n) / 1000.0
}

fn main() {
    for name in ["schotten_totten", "caravan", "the_game", "dog"] {
        let game = load_game(name, &Map::new()).unwrap();
        let mut state = game.new_initial_state(3);
        let mut bot = RandomBot::new(3);
        while let Some(a) = bot.step_dyn(state.as_ref()) {
            state.apply_action(a).unwrap();
        }
        let history = state.history().to_vec();
        let half = &history[..history.len() / 2];
        let mut state = game.new_initial_state(3);
        for &a in half {
            state.apply_action(a).unwrap();
        }
        let n = if name == "dog" { 2_000 } else { 20_000 };
        let g = game.as_ref();
        let s: &dyn DynState = state.as_ref();
        let json = s.to_json();
        let record = compact::write(g, 3, s);
        let snapshot = s.to_snapshot();
        let write_snapshot = per_call(n, || {
            black_box(s.to_snapshot());
        });
        let read_snapshot = per_call(n, || {
            black_box(g.deserialize_snapshot(black_box(&snapshot)).unwrap());
        });
        let write_json = per_call(n, || {
            black_box(s.to_json());
        });
        let read_json = per_call(n, || {
            black_box(g.deserialize_state(black_box(&json)).unwrap());
        });
        let write_compact = per_call(n, || {
            black_box(compact::write(g, 3, s));
        });
        let read_compact = per_call(n, || {
            black_box(compact::read(g, black_box(&record)).unwrap());
        });
        let options = per_call(n, || {
            black_box(g.options());
        });
        let deal = per_call(n, || {
            black_box(g.new_initial_state(3));
        });
        let replay = per_call(n, || {
            let mut r = g.new_initial_state(3);
            for &a in half {
                r.apply_action(a).unwrap();
            }
            black_box(r);
        });
        let legal = per_call(n, || {
            let mut r = g.new_initial_state(3);
            let mut buf = Vec::new();
            for &a in half {
                r.legal_actions_into(&mut buf);
                black_box(&buf);
                r.apply_action(a).unwrap();
            }
            black_box(r);
        });
        let clone = per_call(n, || {
            black_box(s.clone_box());
        });
        println!(
            "{name:<16} {:>4} actions | snapshot ({} bytes) write {write_snapshot:5.2} read {read_snapshot:5.2} \
             | JSON write {write_json:6.2} read {read_json:6.2} | compact write {write_compact:6.2} \
             read {read_compact:6.2} (options {options:5.2}, deal {deal:5.2}, deal + replay {replay:6.2}, \
             with legal_actions {legal:6.2}) | clone {clone:5.3} µs",
            half.len(),
            snapshot.len()
        );
    }
}
