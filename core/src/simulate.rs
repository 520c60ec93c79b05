//! Batch simulation of uniformly random games on all cores.

use rayon::prelude::*;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::game::{Action, Game, GameState};
use crate::rng;
use rand::RngExt;

/// What a batch of games came to.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    pub games: u64,
    /// Per player: games in which this player's return was the highest and not
    /// everyone's return was equal (R1: a team win counts for both partners).
    pub wins: Vec<u64>,
    /// Games in which every player got the same return.
    pub draws: u64,
    /// Mean number of actions per game.
    pub mean_length: f64,
    /// Mean return per player.
    pub mean_returns: Vec<f64>,
}

#[derive(Clone)]
struct Tally {
    wins: Vec<u64>,
    draws: u64,
    actions: u64,
    returns: Vec<f64>,
}

impl Tally {
    fn new(players: usize) -> Self {
        Self {
            wins: vec![0; players],
            draws: 0,
            actions: 0,
            returns: vec![0.0; players],
        }
    }
    fn add(mut self, other: Tally) -> Tally {
        for (a, b) in self.wins.iter_mut().zip(&other.wins) {
            *a += b;
        }
        for (a, b) in self.returns.iter_mut().zip(&other.returns) {
            *a += b;
        }
        self.draws += other.draws;
        self.actions += other.actions;
        self
    }
}

/// Plays one uniformly random game from `state` to the end; returns the number of actions.
pub fn random_playout<S: GameState>(state: &mut S, rng: &mut rng::Rng, buf: &mut Vec<Action>) -> u64 {
    let mut n = 0;
    while !state.is_terminal() {
        state.legal_actions_into(buf);
        let action = buf[rng.random_range(0..buf.len())];
        state.apply_action(action).expect("a legal action always applies");
        n += 1;
    }
    n
}

/// One whole random game from `seed`: the deal and the random choices both follow it.
/// Returns the final state and the number of actions.
pub fn random_game<G: Game>(game: &G, seed: u64, buf: &mut Vec<Action>) -> (G::State, u64) {
    let mut state = game.new_initial_state(seed);
    let actions = random_playout(&mut state, &mut rng::seeded(seed, rng::STREAM_POLICY), buf);
    (state, actions)
}

fn play_one<G: Game>(game: &G, seed: u64, index: u64, buf: &mut Vec<Action>) -> Tally {
    let (state, actions) = random_game(game, rng::batch_seed(seed, index), buf);
    let returns = state.returns();
    let mut tally = Tally::new(returns.len());
    tally.actions = actions;
    let best = returns.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    if returns.iter().all(|r| *r == returns[0]) {
        tally.draws = 1;
    } else {
        for (w, r) in tally.wins.iter_mut().zip(&returns) {
            *w = u64::from(*r == best);
        }
    }
    tally.returns = returns;
    tally
}

/// Plays `n_games` uniformly random games. Game `i` is dealt from
/// `rng::batch_seed(seed, i)` and its moves drawn from the same seed's policy
/// stream, so the summary depends on `seed` alone, never on `threads`.
pub fn simulate<G: Game>(game: &G, n_games: u64, seed: u64, threads: Option<usize>) -> Result<Summary> {
    if threads == Some(0) {
        return Err(Error::InvalidArgument(
            "threads must be at least 1 (or None for all cores)".into(),
        ));
    }
    let players = game.num_players();
    let run = || {
        (0..n_games)
            .into_par_iter()
            .map_init(Vec::new, |buf, i| play_one(game, seed, i, buf))
            .reduce(|| Tally::new(players), Tally::add)
    };
    let tally = match threads {
        None => run(),
        Some(t) => rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .map_err(|e| Error::InvalidArgument(format!("cannot start {t} threads: {e}")))?
            .install(run),
    };
    let n = n_games.max(1) as f64;
    Ok(Summary {
        games: n_games,
        wins: tally.wins,
        draws: tally.draws,
        mean_length: tally.actions as f64 / n,
        mean_returns: tally.returns.iter().map(|r| r / n).collect(),
    })
}
