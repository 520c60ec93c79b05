//! What a bot asks of a game beyond its rules ([`Heuristic`]), and the rules-based player
//! built on it ([`HeuristicBot`]).

use crate::error::Result;
use crate::game::{Action, GameState};
use crate::rng;

use super::Bot;

/// A game's own knowledge for its bots: the rules-based player of its `heuristic.rs`, and
/// what search may use of it. The rules ([`GameState`]) know nothing of it; each game
/// implements it in its `heuristic.rs`, and only `heuristic_action` is required.
pub trait Heuristic: GameState {
    /// The `heuristic` bot's action for `seat` (`None` if it may not move now): a
    /// rules-based player a good human would recognise, deciding from nothing `seat`
    /// cannot see (the bots' tests check it against `resample`) and breaking ties with
    /// `rng`. It is also the rollout policy of `ismcts` with `rollout="heuristic"`.
    fn heuristic_action(&self, seat: usize, rng: &mut rng::Rng) -> Option<Action>;
    /// An estimate of each seat's reward in [0, 1] (its chance to win) in this position,
    /// written to `out`, for search that stops its rollouts early (`ismcts`'s
    /// `rollout_depth`); `false` where the game has none, and the rollout plays to the
    /// end. It may read every card of the state: search calls it on its own deals.
    fn heuristic_value_into(&self, out: &mut Vec<f64>) -> bool {
        let _ = out;
        false
    }
    /// An action of the player to move that is at least as good as any other, so that
    /// search may take it without weighing the rest (`ismcts`'s `dominant`): in Schotten
    /// Totten a provable claim (S3b, S5). `None` where the game knows of none.
    fn dominant_action(&self) -> Option<Action> {
        None
    }
    /// The actions of `seat` that the game's heuristic ranks, each with its score
    /// (higher is better: the heuristic plays a best one), written to `out`, for search
    /// that widens its tree by them (`ismcts`'s `widen`); left empty where the game ranks
    /// none (then search weighs every legal action). Like the heuristic, it decides from
    /// nothing `seat` cannot see.
    fn heuristic_scores_into(&self, seat: usize, out: &mut Vec<(Action, f32)>) {
        let _ = seat;
        out.clear();
    }
    /// Plays to the end with every seat following [`Heuristic::heuristic_action`];
    /// returns the number of actions. A game may override it with a faster loop that
    /// makes exactly the same decisions (its tests compare the two).
    fn heuristic_playout(&mut self, rng: &mut rng::Rng) -> u64
    where
        Self: Sized,
    {
        let mut n = 0;
        while let Some(seat) = self.current_player() {
            let action = self
                .heuristic_action(seat, rng)
                .expect("the player to move has a legal action");
            self.apply_action(action).expect("a heuristic action is legal");
            n += 1;
        }
        n
    }
}

/// Plays each game's heuristic: what a good human would do by rule of thumb, from the
/// seat's view alone, ties broken by the decision's seed.
#[derive(Clone, Copy, Debug, Default)]
pub struct HeuristicBot;

impl<S: Heuristic> Bot<S> for HeuristicBot {
    fn choose(&self, state: &S, seat: usize, seed: u64) -> Result<Option<Action>> {
        Ok(state.heuristic_action(seat, &mut rng::seeded(seed, rng::STREAM_POLICY)))
    }
}

/// Plays `state` to the end with every seat following its heuristic; returns the
/// number of actions. Ties are drawn from `rng`.
pub fn heuristic_playout<S: Heuristic>(state: &mut S, rng: &mut rng::Rng) -> u64 {
    state.heuristic_playout(rng)
}
