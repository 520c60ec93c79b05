//! The one seeded generator of the project.
//!
//! Every shuffle and every random choice comes from ChaCha8 (`rand_chacha`), seeded by
//! `SeedableRng::seed_from_u64`, whose expansion of a `u64` into a 32-byte key is
//! specified by `rand_core` and identical on every platform. Different purposes within
//! one seed use different ChaCha streams, so a deal never shares numbers with a bot.
//! The crate versions are pinned by `Cargo.lock`; the golden playthroughs in `tests/`
//! would show any change of the sequence.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

pub use rand_chacha::ChaCha8Rng as Rng;

/// Stream for the deal (the initial shuffle) of a game.
pub const STREAM_DEAL: u64 = 0;
/// Stream for redealing hidden cards in `resample`.
pub const STREAM_RESAMPLE: u64 = 1;
/// Stream for the random policy of simulations and bots.
pub const STREAM_POLICY: u64 = 2;
/// First of the streams a game uses for shuffles of its own (each player's deck, each
/// reshuffle): stream `STREAM_GAME + k` for the game's `k`-th purpose. Streams of one
/// seed never share numbers, so no two purposes (or seeds) repeat a shuffle.
pub const STREAM_GAME: u64 = 1 << 32;

/// A ChaCha8 generator for `seed` on the given stream.
pub fn seeded(seed: u64, stream: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(stream);
    rng
}

/// SplitMix64 finaliser: spreads consecutive integers over the whole `u64` range.
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of game `index` in a batch that was started with `seed`.
///
/// Depends only on the two numbers, never on threads or scheduling.
pub fn batch_seed(seed: u64, index: u64) -> u64 {
    mix(seed ^ mix(index))
}
