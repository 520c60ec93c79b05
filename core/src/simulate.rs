//! Batch simulation of uniformly random games on all cores.

use rayon::prelude::*;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::game::{Action, Game, GameState};
use crate::meta::Utility;
use crate::rng;
use rand::RngExt;

/// What a batch of games came to, counted as the game's utility says (R1).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    pub utility: Utility,
    pub games: u64,
    /// Per player: games this player won. A team win counts for both partners; in a
    /// cooperative game everyone wins a game in which every card was played.
    pub wins: Vec<u64>,
    /// Games that no side won (zero-sum and team games; 0 for cooperative ones).
    pub draws: u64,
    /// Mean number of actions per game.
    pub mean_length: f64,
    /// Mean return per player.
    pub mean_returns: Vec<f64>,
    /// Team games: games won by team 0 (players 0 and 2) and team 1 (1 and 3).
    pub team_wins: Vec<u64>,
    /// Cooperative games: `cards_left[k]` games ended with k cards left (T6).
    pub cards_left: Vec<u64>,
    /// Cooperative games: the mean number of cards left.
    pub mean_cards_left: f64,
}

impl Summary {
    /// Games won by everyone (cooperative games): those with no card left.
    pub fn perfect_games(&self) -> u64 {
        self.cards_left.first().copied().unwrap_or(0)
    }
}

#[derive(Clone)]
struct Tally {
    games: u64,
    wins: Vec<u64>,
    draws: u64,
    actions: u64,
    returns: Vec<f64>,
    team_wins: Vec<u64>,
    cards_left: Vec<u64>,
}

impl Tally {
    fn new(players: usize) -> Self {
        Self {
            games: 0,
            wins: vec![0; players],
            draws: 0,
            actions: 0,
            returns: vec![0.0; players],
            team_wins: Vec::new(),
            cards_left: Vec::new(),
        }
    }

    fn add(mut self, other: &Tally) -> Tally {
        fn add_all<T: Copy + std::ops::AddAssign + Default>(a: &mut Vec<T>, b: &[T]) {
            if a.len() < b.len() {
                a.resize(b.len(), T::default());
            }
            for (x, y) in a.iter_mut().zip(b) {
                *x += *y;
            }
        }
        self.games += other.games;
        add_all(&mut self.wins, &other.wins);
        add_all(&mut self.returns, &other.returns);
        add_all(&mut self.team_wins, &other.team_wins);
        add_all(&mut self.cards_left, &other.cards_left);
        self.draws += other.draws;
        self.actions += other.actions;
        self
    }

    /// One finished game with these returns under `utility`.
    fn game(utility: Utility, returns: Vec<f64>, actions: u64) -> Tally {
        let mut tally = Tally::new(returns.len());
        tally.games = 1;
        tally.actions = actions;
        match utility {
            Utility::Cooperative => {
                // T6, R1: every player's return is −(cards left).
                let left = (-returns[0]).max(0.0) as usize;
                tally.cards_left = vec![0; left + 1];
                tally.cards_left[left] = 1;
                if left == 0 {
                    tally.wins.fill(1);
                }
            }
            Utility::ZeroSum | Utility::TeamZeroSum => {
                let best = returns.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                if returns.iter().all(|r| *r == best) {
                    tally.draws = 1;
                } else {
                    for (w, r) in tally.wins.iter_mut().zip(&returns) {
                        *w = u64::from(*r == best);
                    }
                }
                if utility == Utility::TeamZeroSum {
                    tally.team_wins = vec![tally.wins[0], tally.wins[1]];
                }
            }
        }
        tally.returns = returns;
        tally
    }
}

/// Plays one uniformly random game from `state` to the end; returns the number of actions.
/// Runs `work` on rayon's global pool, or on a pool of exactly `threads` threads.
pub(crate) fn on_threads<T: Send>(threads: Option<usize>, work: impl FnOnce() -> T + Send) -> Result<T> {
    match threads {
        None => Ok(work()),
        Some(t) => Ok(rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .map_err(|e| Error::InvalidArgument(format!("cannot start {t} threads: {e}")))?
            .install(work)),
    }
}

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

/// Plays `n_games` uniformly random games. Game `i` is dealt from
/// `rng::batch_seed(seed, i)` and its moves drawn from the same seed's policy
/// stream, so the summary depends on `seed` alone, never on `threads`.
pub fn simulate<G: Game>(game: &G, n_games: u64, seed: u64, threads: Option<usize>) -> Result<Summary> {
    simulate_until(game, n_games, seed, threads, &|| false)
}

/// As [`simulate`], but gives up with [`Error::Interrupted`] as soon as `stop` returns
/// true (it is asked before every game: Ctrl-C in Python).
pub fn simulate_until<G: Game>(
    game: &G,
    n_games: u64,
    seed: u64,
    threads: Option<usize>,
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<Summary> {
    if threads == Some(0) {
        return Err(Error::InvalidArgument(
            "threads must be at least 1 (or None for all cores)".into(),
        ));
    }
    let players = game.num_players();
    let utility = game.utility();
    let run = || {
        (0..n_games)
            .into_par_iter()
            .map_init(Vec::new, |buf, i| {
                if stop() {
                    return Tally::new(players);
                }
                let (state, actions) = random_game(game, rng::batch_seed(seed, i), buf);
                Tally::game(utility, state.returns(), actions)
            })
            .reduce(|| Tally::new(players), |a, b| a.add(&b))
    };
    let tally = on_threads(threads, run)?;
    if tally.games < n_games {
        return Err(Error::Interrupted);
    }
    let n = n_games.max(1) as f64;
    let cards: f64 = tally
        .cards_left
        .iter()
        .enumerate()
        .map(|(k, g)| (k as u64 * g) as f64)
        .sum();
    Ok(Summary {
        utility,
        games: n_games,
        wins: tally.wins,
        draws: tally.draws,
        mean_length: tally.actions as f64 / n,
        mean_returns: tally.returns.iter().map(|r| r / n).collect(),
        team_wins: tally.team_wins,
        cards_left: tally.cards_left,
        mean_cards_left: if utility == Utility::Cooperative {
            cards / n
        } else {
            0.0
        },
    })
}
