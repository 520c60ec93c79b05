//! Many games stepped at once, for learning: [`VectorEnv`] holds `n` games of one rule
//! set and fills caller's buffers (observations, action masks, rewards, terminations,
//! truncations, seats) for all of them in one call, split over threads with rayon.
//!
//! - **Observation** of an env: the observation tensor ([`crate::tensor`]) of its seat to
//!   move; **mask**: 1 at that seat's legal actions.
//! - **Opponents.** Without, every seat is the learner's: an action is applied for the
//!   seat to move (the first of `seats_to_move` in Dog's exchange) and the rewards are
//!   every seat's (`[n, players]`). With [`Opponents`] the learner is seat 0 and the other
//!   seats are played by that bot inside the step, before the step returns, until seat 0
//!   may move again or the game is over; the rewards are seat 0's (`[n, 1]`), summed over
//!   its action and the bots' that followed.
//! - **Autoreset** (Gymnasium's `SAME_STEP` mode, without a final observation): an env
//!   whose game ended in this step reports its rewards and `terminated`, and is dealt its
//!   next game at once, so its observation, mask and seat are already the new game's.
//!   Games end by their rules only (Dog's turn limit is a rule), so `truncated` is never
//!   set.
//! - **Seeds.** Episode `k` (from 0) of env `i` is dealt from
//!   [`VectorEnv::episode_seed`]`(seed, i, k)`, and its bots draw from that seed's policy
//!   stream: every env's games depend on `seed`, `i` and the actions only, never on the
//!   threads or their scheduling. `reset` starts every env at episode 0 again.
//! - A step whose actions are not all legal is refused whole: no env moves.

use rayon::prelude::*;

use crate::bots::Heuristic;
use crate::caravan::CaravanGame;
use crate::dog::Dog;
use crate::error::{Error, Result};
use crate::game::{Action, Game, GameState};
use crate::registry::TypedState;
use crate::rng;
use crate::schotten_totten::SchottenTotten;
use crate::the_game::TheGame;

/// The seed of episode `episode` (from 0) of env `index` under the base `seed`:
/// `batch_seed(batch_seed(seed, index), episode)` ([`rng::batch_seed`]).
pub fn episode_seed(seed: u64, index: u64, episode: u64) -> u64 {
    rng::batch_seed(rng::batch_seed(seed, index), episode)
}

/// The bot that plays the seats other than the learner's (seat 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponents {
    /// Uniformly among the legal actions.
    Random,
    /// The game's heuristic ([`Heuristic::heuristic_action`]).
    Heuristic,
}

impl Opponents {
    pub fn parse(name: &str) -> Result<Opponents> {
        match name {
            "random" => Ok(Opponents::Random),
            "heuristic" => Ok(Opponents::Heuristic),
            other => Err(Error::InvalidArgument(format!(
                "opponents '{}': the vector env's opponents are random, heuristic",
                crate::error::shorten(other)
            ))),
        }
    }
}

/// The buffers a step fills, row `i` for env `i`: `observations` `[n, len]`, `masks`
/// `[n, num_distinct_actions]`, `rewards` `[n, players]` (`[n, 1]` with opponents),
/// `terminations`, `truncations` and `seats` `[n]`.
pub struct Buffers<'a> {
    pub observations: &'a mut [f32],
    pub masks: &'a mut [u8],
    pub rewards: &'a mut [f32],
    pub terminations: &'a mut [bool],
    pub truncations: &'a mut [bool],
    pub seats: &'a mut [i64],
}

struct Env<S> {
    state: S,
    episode: u64,
    /// The bots' random numbers, from the episode's seed.
    rng: rng::Rng,
    rewards: Vec<f64>,
    terminated: bool,
    legal: Vec<Action>,
}

/// `n` games of `G`, stepped together. See the module docs.
pub struct VectorEnv<G: Game> {
    game: G,
    seed: u64,
    opponents: Option<Opponents>,
    envs: Vec<Env<G::State>>,
    pool: Option<rayon::ThreadPool>,
}

impl<G: Game> VectorEnv<G>
where
    G::State: Heuristic,
{
    /// `n_envs` games from `seed`; `threads` `None` uses rayon's pool (one per core).
    pub fn new(
        game: G,
        n_envs: usize,
        seed: u64,
        opponents: Option<Opponents>,
        threads: Option<usize>,
    ) -> Result<VectorEnv<G>> {
        if n_envs == 0 || n_envs > 1 << 20 {
            return Err(Error::InvalidArgument(format!(
                "n_envs {n_envs}: a vector env holds 1 to {} games",
                1 << 20
            )));
        }
        let pool = match threads {
            None => None,
            Some(t) if t == 0 || t > 1024 => {
                return Err(Error::InvalidArgument(format!(
                    "threads {t}: from 1 to 1024 (or None: one per core)"
                )));
            }
            Some(t) => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(t)
                    .build()
                    .map_err(|e| Error::InvalidArgument(format!("cannot start {t} threads: {e}")))?,
            ),
        };
        let players = game.num_players();
        let mut vector = VectorEnv {
            envs: (0..n_envs)
                .map(|_| Env {
                    state: game.new_initial_state(0),
                    episode: 0,
                    rng: rng::seeded(0, rng::STREAM_POLICY),
                    rewards: vec![0.0; players],
                    terminated: false,
                    legal: Vec::new(),
                })
                .collect(),
            game,
            seed,
            opponents,
            pool,
        };
        vector.deal_all();
        Ok(vector)
    }

    /// See [`episode_seed`].
    pub fn episode_seed(seed: u64, index: u64, episode: u64) -> u64 {
        episode_seed(seed, index, episode)
    }

    pub fn num_envs(&self) -> usize {
        self.envs.len()
    }
    pub fn game(&self) -> &G {
        &self.game
    }
    /// The width of a row of rewards: every seat's, or seat 0's with opponents.
    pub fn reward_width(&self) -> usize {
        if self.opponents.is_some() {
            1
        } else {
            self.game.num_players()
        }
    }
    /// The position of env `index` now, and the seed it was dealt from.
    pub fn state(&self, index: usize) -> Option<(&G::State, u64)> {
        let env = self.envs.get(index)?;
        Some((
            &env.state,
            Self::episode_seed(self.seed, index as u64, env.episode),
        ))
    }

    fn run<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        match &self.pool {
            Some(pool) => pool.install(f),
            None => f(),
        }
    }

    fn deal_all(&mut self) {
        let (game, seed, opponents) = (&self.game, self.seed, self.opponents);
        let envs = &mut self.envs;
        let mut run = || {
            envs.par_iter_mut().enumerate().for_each(|(i, env)| {
                env.episode = 0;
                deal(game, seed, opponents, i, env);
            });
        };
        match &self.pool {
            Some(pool) => pool.install(run),
            None => run(),
        }
    }

    fn check(&self, out: &Buffers<'_>, n: usize) -> Result<()> {
        let sizes = [
            (
                "observations",
                out.observations.len(),
                n * self.game.observation_tensor_len(),
            ),
            ("masks", out.masks.len(), n * self.game.num_distinct_actions()),
            ("rewards", out.rewards.len(), n * self.reward_width()),
            ("terminations", out.terminations.len(), n),
            ("truncations", out.truncations.len(), n),
            ("seats", out.seats.len(), n),
        ];
        for (name, got, wanted) in sizes {
            if got != wanted {
                return Err(Error::InvalidArgument(format!(
                    "the buffer {name} holds {got} elements, the vector env {wanted}"
                )));
            }
        }
        Ok(())
    }

    /// Starts every env at episode 0 of `seed` (the one given before if `None`) and
    /// writes their first observations; rewards and terminations are zero.
    pub fn reset(&mut self, seed: Option<u64>, mut out: Buffers<'_>) -> Result<()> {
        self.check(&out, self.envs.len())?;
        if let Some(seed) = seed {
            self.seed = seed;
        }
        self.deal_all();
        for env in &mut self.envs {
            env.rewards.fill(0.0);
            env.terminated = false;
        }
        self.write(&mut out);
        Ok(())
    }

    /// Applies `actions[i]` in env `i` (for its seat to move), lets the opponents move,
    /// deals a new game where one ended, and writes every buffer. Refused whole, before
    /// any env moves, unless every action is legal.
    pub fn step(&mut self, actions: &[i64], mut out: Buffers<'_>) -> Result<()> {
        let n = self.envs.len();
        self.check(&out, n)?;
        if actions.len() != n {
            return Err(Error::InvalidArgument(format!(
                "{} actions for {n} envs: one action per env",
                actions.len()
            )));
        }
        let learner = self.opponents.map(|_| 0);
        let num_actions = self.game.num_distinct_actions();
        let envs = &self.envs;
        let refused = self.run(|| {
            envs.par_iter()
                .zip(actions.par_iter())
                .enumerate()
                .find_map_first(|(i, (env, &a))| {
                    let seat = learner.or_else(|| env.state.current_player())?;
                    let legal = u32::try_from(a)
                        .ok()
                        .filter(|&a| (a as usize) < num_actions)
                        .ok_or_else(|| format!("action {a} is outside 0..{num_actions}"))
                        .and_then(|a| env.state.check_action_for(seat, a).map_err(|e| e.to_string()));
                    legal.err().map(|e| (i, e))
                })
        });
        if let Some((i, e)) = refused {
            return Err(Error::InvalidArgument(format!("env {i}: {e}; no env moved")));
        }
        let (game, seed, opponents) = (&self.game, self.seed, self.opponents);
        let envs = &mut self.envs;
        let mut play = || {
            envs.par_iter_mut()
                .zip(actions.par_iter())
                .enumerate()
                .for_each(|(i, (env, &a))| {
                    env.rewards.fill(0.0);
                    let seat = learner
                        .or_else(|| env.state.current_player())
                        .expect("an env's game is never over between steps");
                    env.state
                        .apply_action_for(seat, a as Action)
                        .expect("every action was checked");
                    add_rewards(&env.state, learner, &mut env.rewards);
                    if let Some(bot) = opponents {
                        play_opponents(bot, env, true);
                    }
                    env.terminated = env.state.is_terminal();
                    if env.terminated {
                        env.episode += 1;
                        deal(game, seed, opponents, i, env);
                    }
                });
        };
        match &self.pool {
            Some(pool) => pool.install(play),
            None => play(),
        }
        self.write(&mut out);
        Ok(())
    }

    /// Writes every env's row of every buffer.
    fn write(&mut self, out: &mut Buffers<'_>) {
        let len = self.game.observation_tensor_len();
        let num_actions = self.game.num_distinct_actions();
        let width = self.reward_width();
        let learner = self.opponents.map(|_| 0);
        let envs = &mut self.envs;
        let (obs, masks, rewards) = (&mut *out.observations, &mut *out.masks, &mut *out.rewards);
        let mut write = || {
            envs.par_iter_mut()
                .zip(obs.par_chunks_mut(len))
                .zip(masks.par_chunks_mut(num_actions))
                .zip(rewards.par_chunks_mut(width))
                .with_min_len(16)
                .for_each(|(((env, obs), mask), reward)| {
                    let seat = learner
                        .or_else(|| env.state.current_player())
                        .expect("an env's game is never over between steps");
                    env.state
                        .observation_tensor_into(Some(seat), obs)
                        .expect("the row has the tensor's length");
                    mask.fill(0);
                    env.state.legal_actions_for(seat, &mut env.legal);
                    for &a in &env.legal {
                        mask[a as usize] = 1;
                    }
                    for (r, x) in reward.iter_mut().zip(&env.rewards) {
                        *r = *x as f32;
                    }
                });
        };
        match &self.pool {
            Some(pool) => pool.install(write),
            None => write(),
        }
        for (i, env) in self.envs.iter().enumerate() {
            out.terminations[i] = env.terminated;
            out.truncations[i] = false;
            out.seats[i] = learner
                .or_else(|| env.state.current_player())
                .map_or(-1, |s| s as i64);
        }
    }
}

/// Adds the rewards of the last action: every seat's, or the learner's alone.
fn add_rewards<S: GameState>(state: &S, learner: Option<usize>, into: &mut [f64]) {
    let rewards = state.rewards();
    match learner {
        Some(seat) => into[0] += rewards[seat],
        None => into.iter_mut().zip(&rewards).for_each(|(a, r)| *a += r),
    }
}

/// Deals env `i`'s current episode and lets the opponents move up to seat 0's turn.
fn deal<G: Game>(game: &G, seed: u64, opponents: Option<Opponents>, i: usize, env: &mut Env<G::State>)
where
    G::State: Heuristic,
{
    let episode_seed = VectorEnv::<G>::episode_seed(seed, i as u64, env.episode);
    env.state = game.new_initial_state(episode_seed);
    env.rng = rng::seeded(episode_seed, rng::STREAM_POLICY);
    if let Some(bot) = opponents {
        play_opponents(bot, env, false);
        // A game the bots end before the learner's first move is dealt anew (not
        // possible in these four games: seat 0 moves in every first round).
        debug_assert!(!env.state.is_terminal());
    }
}

/// The bots move for every seat but 0 until seat 0 may move or the game is over; with
/// `count`, their rewards are seat 0's too.
fn play_opponents<S: Heuristic>(bot: Opponents, env: &mut Env<S>, count: bool) {
    loop {
        let to_move = env.state.seats_to_move();
        if to_move.is_empty() || to_move.contains(&0) {
            return;
        }
        let seat = to_move[0];
        let action = match bot {
            Opponents::Heuristic => env.state.heuristic_action(seat, &mut env.rng),
            Opponents::Random => {
                env.state.legal_actions_for(seat, &mut env.legal);
                let k = rand::RngExt::random_range(&mut env.rng, 0..env.legal.len());
                Some(env.legal[k])
            }
        }
        .expect("a seat to move has a legal action");
        env.state
            .apply_action_for(seat, action)
            .expect("a bot's action is legal");
        if count {
            add_rewards(&env.state, Some(0), &mut env.rewards);
        }
    }
}

/// A vector env of whichever registered game: one variant per game, as
/// [`TypedState`] (see the registry's "Adding a capability").
pub enum AnyVectorEnv {
    Caravan(VectorEnv<CaravanGame>),
    Dog(VectorEnv<Dog>),
    SchottenTotten(VectorEnv<SchottenTotten>),
    TheGame(VectorEnv<TheGame>),
}

/// Evaluates `$body` with `$v` bound to the typed vector env.
#[macro_export]
macro_rules! with_vector {
    ($env:expr, $v:ident => $body:expr) => {
        match $env {
            $crate::vector::AnyVectorEnv::Caravan($v) => $body,
            $crate::vector::AnyVectorEnv::Dog($v) => $body,
            $crate::vector::AnyVectorEnv::SchottenTotten($v) => $body,
            $crate::vector::AnyVectorEnv::TheGame($v) => $body,
        }
    };
}

impl AnyVectorEnv {
    /// A vector env of `game` (a registered game); see [`VectorEnv::new`].
    pub fn new(
        game: &dyn crate::dynamic::DynGame,
        n_envs: usize,
        seed: u64,
        opponents: Option<Opponents>,
        threads: Option<usize>,
    ) -> Result<AnyVectorEnv> {
        // The typed game is reached through a state of it.
        let state = game.new_initial_state(0);
        Ok(match TypedState::of(state.as_ref()) {
            TypedState::Caravan(s) => {
                AnyVectorEnv::Caravan(VectorEnv::new(*s.game(), n_envs, seed, opponents, threads)?)
            }
            TypedState::Dog(s) => {
                AnyVectorEnv::Dog(VectorEnv::new(*s.game(), n_envs, seed, opponents, threads)?)
            }
            TypedState::SchottenTotten(s) => {
                AnyVectorEnv::SchottenTotten(VectorEnv::new(*s.game(), n_envs, seed, opponents, threads)?)
            }
            TypedState::TheGame(s) => {
                AnyVectorEnv::TheGame(VectorEnv::new(*s.game(), n_envs, seed, opponents, threads)?)
            }
        })
    }
    pub fn reset(&mut self, seed: Option<u64>, out: Buffers<'_>) -> Result<()> {
        with_vector!(self, v => v.reset(seed, out))
    }
    pub fn step(&mut self, actions: &[i64], out: Buffers<'_>) -> Result<()> {
        with_vector!(self, v => v.step(actions, out))
    }
    pub fn num_envs(&self) -> usize {
        with_vector!(self, v => v.num_envs())
    }
    pub fn reward_width(&self) -> usize {
        with_vector!(self, v => v.reward_width())
    }
    /// Env `index`'s position as a snapshot, with the seed it was dealt from.
    pub fn snapshot(&self, index: usize) -> Option<(Vec<u8>, u64)> {
        with_vector!(self, v => v.state(index).map(|(s, seed)| (s.to_snapshot(), seed)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Owned buffers for `n` envs.
    struct Owned {
        o: Vec<f32>,
        m: Vec<u8>,
        r: Vec<f32>,
        t: Vec<bool>,
        u: Vec<bool>,
        s: Vec<i64>,
    }

    impl Owned {
        fn new(env: &VectorEnv<SchottenTotten>) -> Owned {
            let (g, n) = (env.game(), env.num_envs());
            Owned {
                o: vec![0.0; n * g.observation_tensor_len()],
                m: vec![0; n * g.num_distinct_actions()],
                r: vec![0.0; n * env.reward_width()],
                t: vec![false; n],
                u: vec![false; n],
                s: vec![0; n],
            }
        }
        fn buffers(&mut self) -> Buffers<'_> {
            Buffers {
                observations: &mut self.o,
                masks: &mut self.m,
                rewards: &mut self.r,
                terminations: &mut self.t,
                truncations: &mut self.u,
                seats: &mut self.s,
            }
        }
    }

    /// Steps the envs by each one's lowest legal action: on 1 and 2 threads, the same
    /// games as the seeded games stepped one by one, new episodes from `episode_seed`.
    #[test]
    fn the_envs_are_the_seeded_games_whatever_the_threads() {
        let game = SchottenTotten::default();
        let n = 5;
        let width = Game::num_distinct_actions(&game);
        for threads in [1, 2] {
            let mut env = VectorEnv::new(game, n, 3, None, Some(threads)).unwrap();
            let mut out = Owned::new(&env);
            let mut states: Vec<_> = (0..n)
                .map(|i| Game::new_initial_state(&game, episode_seed(3, i as u64, 0)))
                .collect();
            let mut episodes = vec![0; n];
            env.reset(None, out.buffers()).unwrap();
            for _ in 0..200 {
                let actions: Vec<i64> = out
                    .m
                    .chunks(width)
                    .map(|row| row.iter().position(|&x| x == 1).unwrap() as i64)
                    .collect();
                env.step(&actions, out.buffers()).unwrap();
                for i in 0..n {
                    states[i].apply_action(actions[i] as Action).unwrap();
                    assert_eq!(out.t[i], states[i].is_terminal());
                    if states[i].is_terminal() {
                        episodes[i] += 1;
                        states[i] = Game::new_initial_state(&game, episode_seed(3, i as u64, episodes[i]));
                    }
                    assert_eq!(env.state(i).unwrap().0.to_snapshot(), states[i].to_snapshot());
                    let len = game.observation_tensor_len();
                    let seat = states[i].current_player();
                    assert_eq!(
                        out.o[i * len..(i + 1) * len],
                        states[i].observation_tensor(seat).unwrap()[..]
                    );
                }
            }
            assert!(episodes.iter().any(|&e| e > 0), "autoreset was reached");
            // An illegal action anywhere: refused, nothing moves.
            let before: Vec<_> = (0..n).map(|i| env.state(i).unwrap().0.to_snapshot()).collect();
            let err = env.step(&[-1; 5], out.buffers()).unwrap_err();
            assert!(err.to_string().contains("env 0"), "{err}");
            let after: Vec<_> = (0..n).map(|i| env.state(i).unwrap().0.to_snapshot()).collect();
            assert_eq!(before, after);
        }
    }
}
