//! Plays random games of Dog for profiling: `cargo run --release --example dog_profile`.
use spielwerk_core::dog::Dog;
use spielwerk_core::simulate::random_game;

fn main() {
    let game = Dog::default();
    let mut buf = Vec::new();
    let start = std::time::Instant::now();
    let mut actions = 0;
    for seed in 0..300 {
        actions += random_game(&game, seed, &mut buf).1;
    }
    let t = start.elapsed();
    println!(
        "{actions} actions, {:?} per game, {:?} per action",
        t / 300,
        t / actions as u32
    );
}
