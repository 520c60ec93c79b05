//! Plays random games of Caravan for profiling: `cargo run --release --example caravan_profile`.
//!
//! `caravan_profile digest` instead prints a digest of every action and result of random
//! games under the standard rules and under each variant: two builds that print the same
//! digest play the same seeded games (a speed-up must not change one of them).
use spielwerk_core::caravan::{CaravanGame, VARIANTS};
use spielwerk_core::game::{Game, GameState};
use spielwerk_core::simulate::random_game;

/// FNV-1a over the histories and returns of `games` random games of `game`.
fn digest(game: &CaravanGame, games: u64) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut eat = |x: u64| {
        for b in x.to_le_bytes() {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    let mut buf = Vec::new();
    for seed in 0..games {
        let (state, _) = random_game(game, seed, &mut buf);
        for a in state.history().iter() {
            eat(u64::from(a));
        }
        for r in state.returns() {
            eat(r.to_bits());
        }
    }
    hash
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("digest") {
        let mut rule_sets = vec![("standard".to_string(), CaravanGame::default())];
        for (name, _) in VARIANTS {
            let options = serde_json::json!({ name: true });
            let game = CaravanGame::from_options(options.as_object().unwrap()).unwrap();
            rule_sets.push((name.to_string(), game));
        }
        let all = VARIANTS
            .iter()
            .map(|(n, _)| (n.to_string(), true.into()))
            .collect();
        rule_sets.push(("all variants".into(), CaravanGame::from_options(&all).unwrap()));
        for (name, game) in rule_sets {
            println!("{name}: {:016x}", digest(&game, 2000));
        }
        return;
    }
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
