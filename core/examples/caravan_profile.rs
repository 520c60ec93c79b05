//! Plays random games of Caravan for profiling: `cargo run --release --example caravan_profile`.
use spielwerk_core::caravan::CaravanGame;
use spielwerk_core::simulate::random_game;

fn main() {
    let game = CaravanGame::default();
    let mut buf = Vec::new();
    let start = std::time::Instant::now();
    let mut actions = 0;
    for seed in 0..3000 {
        actions += random_game(&game, seed, &mut buf).1;
    }
    let t = start.elapsed();
    println!(
        "{actions} actions, {:?} per game, {:?} per action",
        t / 3000,
        t / actions as u32
    );
}
