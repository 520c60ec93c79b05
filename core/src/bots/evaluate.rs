//! Seeded matches between bots on all cores, with seats rotated, and their tally.

use rayon::prelude::*;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::game::{Game, GameState};
use crate::meta::Utility;
use crate::rng;

use super::DynBot;

/// The z of a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// Wilson's 95% score interval of a share `k` of `n` (`(0, 1)` for no games).
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let z2 = Z95 * Z95;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = Z95 / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// A running mean with its normal 95% interval (from the sample's standard deviation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Mean {
    pub n: u64,
    pub sum: f64,
    pub sum_squares: f64,
}

impl Mean {
    fn add(&mut self, x: f64) {
        self.n += 1;
        self.sum += x;
        self.sum_squares += x * x;
    }
    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.sum / self.n as f64
        }
    }
    pub fn interval(&self) -> (f64, f64) {
        let mean = self.mean();
        if self.n < 2 {
            return (mean, mean);
        }
        let n = self.n as f64;
        let variance = ((self.sum_squares - self.sum * self.sum / n) / (n - 1.0)).max(0.0);
        let half = Z95 * (variance / n).sqrt();
        (mean - half, mean + half)
    }
}

/// How one bot did over the games it played.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing {
    pub name: String,
    pub params: Map<String, Value>,
    pub games: u64,
    /// Games its side won (cooperative games: perfect games, every card played).
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Its return, the mean over its seats in each game.
    pub returns: Mean,
    /// Cooperative games: games with no card left, with fewer than 10, and the cards left.
    pub perfect: u64,
    pub under_10: u64,
    pub cards_left: Mean,
}

impl Standing {
    pub fn win_rate(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.wins as f64 / self.games as f64
        }
    }
    pub fn win_rate_interval(&self) -> (f64, f64) {
        wilson(self.wins, self.games)
    }
}

/// What [`evaluate`] found: one standing per bot, in the order given.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Evaluation {
    pub utility: Utility,
    pub games: u64,
    pub standings: Vec<Standing>,
}

/// The bot at `seat` in rotation `rotation`: seat `p` takes bot `(p + rotation) % k`, so
/// with two bots partners play for the same bot (Dog) and two-player games swap seats.
pub fn bot_at(seat: usize, rotation: usize, bots: usize) -> usize {
    (seat + rotation) % bots
}

/// Plays `n_games` games between `bots` (1 to the number of seats, dividing it). Game `i`
/// is deal `i / k` (dealt from `rng::batch_seed(seed, i / k)`) in rotation `i % k`, so
/// each deal is played once with every rotation of the seats (two-player games: twice,
/// swapped). Each decision is seeded from the bot's seed, the deal, the rotation and the
/// ply, so the result depends on the seed alone, never on `threads`. Stops with
/// [`Error::Interrupted`] once `stop` returns true (asked before every action).
pub fn evaluate<G: Game>(
    game: &G,
    bots: &[&dyn DynBot],
    n_games: u64,
    seed: u64,
    threads: Option<usize>,
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<Evaluation> {
    let players = game.num_players();
    let k = bots.len();
    if k == 0 || k > players || !players.is_multiple_of(k) {
        return Err(Error::InvalidArgument(format!(
            "{} has {players} seats: give a number of bots that divides it (got {k})",
            G::NAME
        )));
    }
    if let Some(bot) = bots.iter().find(|b| b.game_name() != G::NAME) {
        return Err(Error::InvalidArgument(format!(
            "the {} bot was made for {}, not for {}",
            bot.name(),
            bot.game_name(),
            G::NAME
        )));
    }
    if threads == Some(0) {
        return Err(Error::InvalidArgument(
            "threads must be at least 1 (or None for all cores)".into(),
        ));
    }
    let play = |i: u64| -> Result<Option<Vec<f64>>> {
        let deal = rng::batch_seed(seed, i / k as u64);
        let rotation = (i % k as u64) as usize;
        let moves = rng::batch_seed(deal, rotation as u64);
        let mut state = game.new_initial_state(deal);
        let mut ply = 0u64;
        while let Some(seat) = state.current_player() {
            let bot = bots[bot_at(seat, rotation, k)];
            let decision = rng::mix(bot.seed() ^ rng::batch_seed(moves, ply));
            let action = match bot.choose_until(&state, seat, decision, stop) {
                Err(Error::Interrupted) => return Ok(None),
                other => other?,
            }
            .ok_or_else(|| {
                Error::InvalidState(format!(
                    "the {} bot found no action for player {seat}",
                    bot.name()
                ))
            })?;
            state.apply_action_for(seat, action)?;
            ply += 1;
        }
        Ok(Some(state.returns()))
    };
    let run = || (0..n_games).into_par_iter().map(play).collect::<Vec<_>>();
    let results = crate::simulate::on_threads(threads, run)?;
    let utility = game.utility();
    let mut standings: Vec<Standing> = bots
        .iter()
        .map(|b| Standing {
            name: b.name().to_string(),
            params: b.params(),
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            returns: Mean::default(),
            perfect: 0,
            under_10: 0,
            cards_left: Mean::default(),
        })
        .collect();
    // Tallied in game order: the same sums whatever the threads did.
    for (i, result) in results.into_iter().enumerate() {
        let Some(returns) = result? else {
            return Err(Error::Interrupted);
        };
        let rotation = i % k;
        for (b, standing) in standings.iter_mut().enumerate() {
            let seats: Vec<usize> = (0..players).filter(|&p| bot_at(p, rotation, k) == b).collect();
            let ret = seats.iter().map(|&p| returns[p]).sum::<f64>() / seats.len() as f64;
            standing.games += 1;
            standing.returns.add(ret);
            match utility {
                Utility::Cooperative => {
                    // T6, R1: every player's return is −(cards left).
                    let left = -ret;
                    standing.cards_left.add(left);
                    if left == 0.0 {
                        standing.perfect += 1;
                        standing.wins += 1;
                    } else {
                        standing.losses += 1;
                    }
                    if left < 10.0 {
                        standing.under_10 += 1;
                    }
                }
                Utility::ZeroSum | Utility::TeamZeroSum => {
                    if ret > 0.0 {
                        standing.wins += 1;
                    } else if ret < 0.0 {
                        standing.losses += 1;
                    } else {
                        standing.draws += 1;
                    }
                }
            }
        }
    }
    Ok(Evaluation {
        utility,
        games: n_games,
        standings,
    })
}
