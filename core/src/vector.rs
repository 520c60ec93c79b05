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

use std::sync::{Mutex, PoisonError};

use rayon::prelude::*;

use crate::bots::Heuristic;
use crate::error::{Error, Result};
use crate::game::{Action, Game, GameState};
use crate::registry::TypedState;
use crate::rng;

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
    /// The bot of a name: "random" or "heuristic".
    pub fn parse(name: &str) -> Result<Opponents> {
        match name {
            "random" => Ok(Opponents::Random),
            "heuristic" => Ok(Opponents::Heuristic),
            other => {
                let other = crate::error::shorten(other);
                Err(Error::InvalidArgument(crate::msg!(
                    "opponents '{other}': the vector env's opponents are random, heuristic",
                    "opponents '{other}': die Gegner der Vektorumgebung sind random, heuristic"
                )))
            }
        }
    }
}

/// The buffers a step fills, row `i` for env `i`: `observations` `[n, len]`, `rewards`
/// `[n, players]` (`[n, 1]` with opponents), `terminations`, `truncations` and `seats`
/// `[n]`; and those the caller asked for (`None`: not written, no work spent on them):
/// `masks` `[n, num_distinct_actions]` (1 at each legal action), `mask_bits`
/// `[n, mask_bits_len(num_distinct_actions)]` (the masks packed 8 actions a byte: action
/// `a` is bit `a % 8` of byte `a / 8`, as numpy's `packbits(mask, bitorder="little")`;
/// a row is padded with zeros to whole 64-bit words), `legal_actions`
/// `[n, num_distinct_actions]` (row `i`'s first `legal_counts[i]` entries the legal
/// actions ascending, the rest -1) with `legal_counts` `[n]`. The legal-action lists let
/// a caller pick uniformly in a few numpy operations on `n` elements
/// (`legal[i, floor(u · counts[i])]`) instead of passes over the whole masks. A `step`
/// writes only the entries that changed, so `legal_actions` must be the buffer the last
/// `reset` or `step` wrote (as the Python class's own arrays are).
pub struct Buffers<'a> {
    pub observations: &'a mut [f32],
    pub masks: Option<&'a mut [u8]>,
    pub mask_bits: Option<&'a mut [u8]>,
    pub legal_actions: Option<&'a mut [i64]>,
    pub legal_counts: Option<&'a mut [i64]>,
    pub rewards: &'a mut [f32],
    pub terminations: &'a mut [bool],
    pub truncations: &'a mut [bool],
    pub seats: &'a mut [i64],
}

/// The bytes of a row of packed mask bits for `num_actions` actions: 8 actions a byte,
/// padded to whole 64-bit words (so that a row can be read as `uint64` words too).
pub fn mask_bits_len(num_actions: usize) -> usize {
    num_actions.div_ceil(64) * 8
}

struct Env<S> {
    state: S,
    episode: u64,
    /// The bots' random numbers, from the episode's seed.
    rng: rng::Rng,
    rewards: Vec<f64>,
    terminated: bool,
    /// The seat to move (seat 0 with opponents), set after every change of `state`:
    /// the game is never over between steps (a finished game is dealt anew at once).
    seat: usize,
    /// `seat`'s legal actions, ascending, set with `seat`: the step checks actions
    /// against them and writes the masks and lists from them.
    legal: Vec<Action>,
    /// The count written to this env's row of `legal_actions` last time, so that only
    /// the entries of the longer old list are reset to -1; `usize::MAX` after a reset
    /// (the whole row is written).
    written: usize,
}

impl<S: GameState> Env<S> {
    /// Sets `seat` and `legal` from the state (not over): the learner's seat 0 with
    /// opponents (in Dog's exchange not always the first of `seats_to_move`), else the
    /// seat to move.
    fn refresh(&mut self, learner: Option<usize>) {
        self.seat = learner
            .or_else(|| self.state.current_player())
            .expect("an env's game is never over between steps");
        debug_assert!(
            !self.state.is_terminal(),
            "an env's game is never over between steps"
        );
        self.state.legal_actions_for(self.seat, &mut self.legal);
    }
}

/// `n` games of `G`, stepped together. See the module docs.
pub struct VectorEnv<G: Game> {
    game: G,
    seed: u64,
    opponents: Option<Opponents>,
    envs: Vec<Env<G::State>>,
    pool: Option<rayon::ThreadPool>,
    /// The observation tensor's length and the number of distinct actions (row widths).
    tensor_len: usize,
    num_actions: usize,
}

/// One block of consecutive envs and their rows, stepped and written by one thread.
struct Block<'a, S> {
    envs: &'a mut [Env<S>],
    /// The index of the block's first env.
    first: usize,
    rows: Rows<'a>,
}

/// The rows of a block's envs in every buffer.
struct Rows<'a> {
    observations: &'a mut [f32],
    masks: Option<&'a mut [u8]>,
    mask_bits: Option<&'a mut [u8]>,
    legal_actions: Option<&'a mut [i64]>,
    legal_counts: Option<&'a mut [i64]>,
    rewards: &'a mut [f32],
    terminations: &'a mut [bool],
    truncations: &'a mut [bool],
    seats: &'a mut [i64],
}

/// Splits the first `rows` rows of `width` elements off `rest`.
#[expect(
    clippy::mut_mut,
    reason = "the split moves the rest's borrow forward in place"
)]
fn split<'a, T>(rest: &mut &'a mut [T], rows: usize, width: usize) -> &'a mut [T] {
    let (head, tail) = std::mem::take(rest).split_at_mut(rows * width);
    *rest = tail;
    head
}

/// [`split`] of a buffer the caller may not have asked for.
fn split_opt<'a, T>(rest: &mut Option<&'a mut [T]>, rows: usize, width: usize) -> Option<&'a mut [T]> {
    rest.as_mut().map(|r| split(r, rows, width))
}

/// Envs per block handed out: about sixteen blocks per thread (so that the threads end
/// together: the last block is short), at least 8 envs (so that a block's work
/// outweighs handing it out, a lock).
fn block_len(n: usize, threads: usize) -> usize {
    n.div_ceil(16 * threads.max(1)).max(8)
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
            let most = 1 << 20;
            return Err(Error::InvalidArgument(crate::msg!(
                "n_envs {n_envs}: a vector env holds 1 to {most} games",
                "n_envs {n_envs}: eine Vektorumgebung hält 1 bis {most} Spiele"
            )));
        }
        let pool = match threads {
            None => None,
            Some(t) if t == 0 || t > 1024 => {
                return Err(Error::InvalidArgument(crate::msg!(
                    "threads {t}: from 1 to 1024 (or None: one per core)",
                    "threads {t}: von 1 bis 1024 (oder None: einer je Kern)"
                )));
            }
            Some(t) => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(t)
                    .build()
                    .map_err(|e| {
                        Error::InvalidArgument(crate::msg!(
                            "cannot start {t} threads: {e}",
                            "{t} Threads lassen sich nicht starten: {e}"
                        ))
                    })?,
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
                    seat: 0,
                    legal: Vec::new(),
                    written: usize::MAX,
                })
                .collect(),
            tensor_len: game.observation_tensor_len(),
            num_actions: game.num_distinct_actions(),
            game,
            seed,
            opponents,
            pool,
        };
        let (game, seed, opponents) = (&vector.game, vector.seed, vector.opponents);
        let envs = &mut vector.envs;
        let mut deal_all = || {
            envs.par_iter_mut()
                .enumerate()
                .for_each(|(i, env)| deal(game, seed, opponents, i, env));
        };
        match &vector.pool {
            Some(pool) => pool.install(deal_all),
            None => deal_all(),
        }
        Ok(vector)
    }

    /// See [`episode_seed`].
    pub fn episode_seed(seed: u64, index: u64, episode: u64) -> u64 {
        episode_seed(seed, index, episode)
    }

    /// The number of envs.
    pub fn num_envs(&self) -> usize {
        self.envs.len()
    }
    /// The rules every env is played under.
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

    /// Checks every buffer's length for `n` envs.
    fn check(&self, out: &Buffers<'_>, n: usize) -> Result<()> {
        let optional = |b: Option<usize>, wanted: usize| b.map(|got| (got, wanted));
        let sizes = [
            (
                "observations",
                Some((out.observations.len(), n * self.tensor_len)),
            ),
            (
                "masks",
                optional(out.masks.as_ref().map(|b| b.len()), n * self.num_actions),
            ),
            (
                "mask_bits",
                optional(
                    out.mask_bits.as_ref().map(|b| b.len()),
                    n * mask_bits_len(self.num_actions),
                ),
            ),
            (
                "legal_actions",
                optional(out.legal_actions.as_ref().map(|b| b.len()), n * self.num_actions),
            ),
            (
                "legal_counts",
                optional(out.legal_counts.as_ref().map(|b| b.len()), n),
            ),
            ("rewards", Some((out.rewards.len(), n * self.reward_width()))),
            ("terminations", Some((out.terminations.len(), n))),
            ("truncations", Some((out.truncations.len(), n))),
            ("seats", Some((out.seats.len(), n))),
        ];
        for (name, size) in sizes {
            if let Some((got, wanted)) = size
                && got != wanted
            {
                return Err(Error::InvalidArgument(crate::msg!(
                    "the buffer {name} holds {got} elements, the vector env {wanted}",
                    "der Puffer {name} hält {got} Elemente, die Vektorumgebung {wanted}"
                )));
            }
        }
        if out.legal_actions.is_some() != out.legal_counts.is_some() {
            return Err(Error::InvalidArgument(crate::msg!(
                "legal_actions and legal_counts are written together: give both or neither",
                "legal_actions und legal_counts werden zusammen geschrieben: gib beide oder keines"
            )));
        }
        Ok(())
    }

    /// Starts every env at episode 0 of `seed` (the one given before if `None`) and
    /// writes their first observations; rewards and terminations are zero.
    pub fn reset(&mut self, seed: Option<u64>, out: Buffers<'_>) -> Result<()> {
        self.check(&out, self.envs.len())?;
        if let Some(seed) = seed {
            self.seed = seed;
        }
        self.pass(None, out);
        Ok(())
    }

    /// Applies `actions[i]` in env `i` (for its seat to move), lets the opponents move,
    /// deals a new game where one ended, and writes every buffer. Refused whole, before
    /// any env moves, unless every action is legal.
    pub fn step(&mut self, actions: &[i64], out: Buffers<'_>) -> Result<()> {
        let n = self.envs.len();
        self.check(&out, n)?;
        if actions.len() != n {
            let given = actions.len();
            return Err(Error::InvalidArgument(crate::msg!(
                "{given} actions for {n} envs: one action per env",
                "{given} Aktionen für {n} Umgebungen: eine Aktion je Umgebung"
            )));
        }
        // Against the legal actions computed after the last change: a binary search
        // each, so no parallel pass is needed. The game's own check names the reason.
        let num_actions = self.num_actions;
        for (i, (env, &a)) in self.envs.iter().zip(actions).enumerate() {
            let legal = u32::try_from(a).is_ok_and(|a| env.legal.binary_search(&a).is_ok());
            if !legal {
                let reason = match u32::try_from(a).ok().filter(|&a| (a as usize) < num_actions) {
                    None => crate::msg!(
                        "action {a} is outside 0..{num_actions}",
                        "Aktion {a} liegt außerhalb von 0..{num_actions}"
                    ),
                    Some(a) => match env.state.check_action_for(env.seat, a) {
                        Err(e) => e.texts(),
                        Ok(()) => crate::msg!(
                            "action {a} is not legal now",
                            "Aktion {a} ist jetzt nicht erlaubt"
                        ),
                    },
                };
                return Err(Error::InvalidArgument(reason.map(|reason, lang| match lang {
                    crate::Lang::De => format!("Umgebung {i}: {reason}; keine Umgebung hat gezogen"),
                    crate::Lang::En => format!("env {i}: {reason}; no env moved"),
                })));
            }
        }
        self.pass(Some(actions), out);
        Ok(())
    }

    /// One parallel pass over the envs in blocks: with `actions` the step of each env
    /// (actions checked), without the reset to episode 0; then each env's rows.
    fn pass(&mut self, actions: Option<&[i64]>, out: Buffers<'_>) {
        let n = self.envs.len();
        let threads = match &self.pool {
            Some(pool) => pool.current_num_threads(),
            None => rayon::current_num_threads(),
        };
        let block = block_len(n, threads);
        let (len, num_actions, width) = (self.tensor_len, self.num_actions, self.reward_width());
        let Buffers {
            mut observations,
            mut masks,
            mut mask_bits,
            mut legal_actions,
            mut legal_counts,
            mut rewards,
            mut terminations,
            mut truncations,
            mut seats,
        } = out;
        let mut envs = &mut self.envs[..];
        let mut blocks = Vec::with_capacity(n.div_ceil(block));
        let mut first = 0;
        while !envs.is_empty() {
            let rows = block.min(envs.len());
            blocks.push(Block {
                envs: split(&mut envs, rows, 1),
                first,
                rows: Rows {
                    observations: split(&mut observations, rows, len),
                    masks: split_opt(&mut masks, rows, num_actions),
                    mask_bits: split_opt(&mut mask_bits, rows, mask_bits_len(num_actions)),
                    legal_actions: split_opt(&mut legal_actions, rows, num_actions),
                    legal_counts: split_opt(&mut legal_counts, rows, 1),
                    rewards: split(&mut rewards, rows, width),
                    terminations: split(&mut terminations, rows, 1),
                    truncations: split(&mut truncations, rows, 1),
                    seats: split(&mut seats, rows, 1),
                },
            });
            first += rows;
        }
        let (game, seed, opponents) = (&self.game, self.seed, self.opponents);
        let learner = opponents.map(|_| 0);
        let step_block = |mut b: Block<'_, G::State>| {
            for k in 0..b.envs.len() {
                let i = b.first + k;
                let env = &mut b.envs[k];
                env.rewards.fill(0.0);
                match actions {
                    None => {
                        env.episode = 0;
                        env.terminated = false;
                        env.written = usize::MAX;
                        deal(game, seed, opponents, i, env);
                    }
                    Some(actions) => {
                        env.state
                            .apply_action_for(env.seat, actions[i] as Action)
                            .expect("every action was checked");
                        add_rewards(&env.state, learner, &mut env.rewards);
                        if let Some(bot) = opponents {
                            play_opponents(bot, env, true);
                        }
                        env.terminated = env.state.is_terminal();
                        if env.terminated {
                            env.episode += 1;
                            deal(game, seed, opponents, i, env);
                        } else {
                            env.refresh(learner);
                        }
                    }
                }
                write_rows(env, &mut b.rows, k, len, num_actions, width);
            }
        };
        // The blocks are handed out one at a time to the calling thread and to
        // `threads - 1` helpers from the pool, as each comes for more: the caller starts
        // at once instead of waiting for a sleeping worker to wake (and for nothing, with
        // one thread), and a late helper or a slow env evens out. Which thread steps an
        // env changes nothing of its game. No more helpers than blocks beyond the
        // caller's first: one woken for nothing would still be waited for.
        let helpers = threads.saturating_sub(1).min(blocks.len().saturating_sub(1));
        let queue = Mutex::new(blocks.into_iter());
        let next = || queue.lock().unwrap_or_else(PoisonError::into_inner).next();
        let work = || {
            while let Some(b) = next() {
                step_block(b);
            }
        };
        share(self.pool.as_ref(), helpers, &work);
    }
}

/// Runs `work` on the calling thread and on `helpers` threads of `pool` (rayon's global
/// pool with `None`) at once, and returns when all are done.
fn share(pool: Option<&rayon::ThreadPool>, helpers: usize, work: &(impl Fn() + Sync)) {
    match pool {
        Some(pool) => pool.in_place_scope(|s| {
            for _ in 0..helpers {
                s.spawn(|_| work());
            }
            work();
        }),
        None => rayon::in_place_scope(|s| {
            for _ in 0..helpers {
                s.spawn(|_| work());
            }
            work();
        }),
    }
}

/// Writes env `env`'s row `k` of block `b`'s buffers from its state, seat and legal
/// actions (set before).
fn write_rows<S: GameState>(
    env: &mut Env<S>,
    b: &mut Rows<'_>,
    k: usize,
    len: usize,
    num_actions: usize,
    width: usize,
) {
    env.state
        .observation_tensor_into(Some(env.seat), &mut b.observations[k * len..(k + 1) * len])
        .expect("the row has the tensor's length");
    if let Some(masks) = b.masks.as_deref_mut() {
        let mask = &mut masks[k * num_actions..(k + 1) * num_actions];
        mask.fill(0);
        for &a in &env.legal {
            mask[a as usize] = 1;
        }
    }
    if let Some(bits) = b.mask_bits.as_deref_mut() {
        let row_len = mask_bits_len(num_actions);
        let row = &mut bits[k * row_len..(k + 1) * row_len];
        row.fill(0);
        for &a in &env.legal {
            row[a as usize / 8] |= 1 << (a % 8);
        }
    }
    if let (Some(lists), Some(counts)) = (b.legal_actions.as_deref_mut(), b.legal_counts.as_deref_mut()) {
        let row = &mut lists[k * num_actions..(k + 1) * num_actions];
        for (x, &a) in row.iter_mut().zip(&env.legal) {
            *x = i64::from(a);
        }
        // Only the old list's tail is reset to -1 (the row is as this env left it in the
        // last step); after a reset (`written` is `usize::MAX`) the whole rest of the row.
        let end = env.written.min(num_actions);
        if end > env.legal.len() {
            row[env.legal.len()..end].fill(-1);
        }
        env.written = env.legal.len();
        counts[k] = env.legal.len() as i64;
    }
    for (r, x) in b.rewards[k * width..(k + 1) * width].iter_mut().zip(&env.rewards) {
        *r = *x as f32;
    }
    b.terminations[k] = env.terminated;
    b.truncations[k] = false;
    b.seats[k] = env.seat as i64;
}

/// Adds the rewards of the last action: every seat's, or the learner's alone. Every game
/// pays only at the end ([`GameState::rewards`]), so a running game adds nothing and is
/// not asked (its rewards would be a vector allocated per env and step); debug builds,
/// the tests', check that they are zero.
fn add_rewards<S: GameState>(state: &S, learner: Option<usize>, into: &mut [f64]) {
    if !state.is_terminal() {
        debug_assert!(
            state.rewards().iter().all(|&r| r == 0.0),
            "a running game of {} paid a reward",
            <S::Game as Game>::NAME
        );
        return;
    }
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
    }
    // Not over: seat 0 moves in the first round of each of these four games, so the
    // bots cannot end a game before the learner's first move (`refresh` checks it in debug builds).
    env.refresh(opponents.map(|_| 0));
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
/// [`TypedState`] (the registry's list, `crate::registered_games!`; see its "Adding a
/// capability").
macro_rules! any_vector_env {
    ($([$variant:ident $module:ident $rules:ident])*) => {
        pub enum AnyVectorEnv {
            $($variant(VectorEnv<crate::$module::$rules>),)*
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
                    $(TypedState::$variant(s) => AnyVectorEnv::$variant(VectorEnv::new(
                        *s.game(),
                        n_envs,
                        seed,
                        opponents,
                        threads,
                    )?),)*
                })
            }
        }
    };
}
crate::registered_games!([any_vector_env]);

/// Evaluates `$body` with `$v` bound to the typed vector env.
#[macro_export]
macro_rules! with_vector {
    ($env:expr, $v:ident => $body:expr) => {
        $crate::registered_games!([$crate::__with_vector_arms], ($env), $v, ($body))
    };
}

/// The `match` of [`with_vector!`](crate::with_vector): an arm per registered game.
#[doc(hidden)]
#[macro_export]
macro_rules! __with_vector_arms {
    (($env:expr), $v:ident, ($body:expr), $([$variant:ident $module:ident $rules:ident])*) => {
        match $env {
            $($crate::vector::AnyVectorEnv::$variant($v) => $body,)*
        }
    };
}

impl AnyVectorEnv {
    /// See [`VectorEnv::reset`].
    pub fn reset(&mut self, seed: Option<u64>, out: Buffers<'_>) -> Result<()> {
        with_vector!(self, v => v.reset(seed, out))
    }
    /// See [`VectorEnv::step`].
    pub fn step(&mut self, actions: &[i64], out: Buffers<'_>) -> Result<()> {
        with_vector!(self, v => v.step(actions, out))
    }
    /// See [`VectorEnv::num_envs`].
    pub fn num_envs(&self) -> usize {
        with_vector!(self, v => v.num_envs())
    }
    /// See [`VectorEnv::reward_width`].
    pub fn reward_width(&self) -> usize {
        with_vector!(self, v => v.reward_width())
    }
    /// Env `index`'s position as a snapshot, with the seed it was dealt from.
    pub fn snapshot(&self, index: usize) -> Option<(Vec<u8>, u64)> {
        with_vector!(self, v => v.state(index).map(|(s, seed)| (s.to_snapshot(), seed)))
    }
}

#[cfg(test)]
mod tests;
