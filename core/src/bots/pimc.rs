//! Determinized search: perfect-information Monte Carlo (PIMC) over the game's heuristic.
//!
//! Each decision deals the cards the seat cannot see anew, `samples` times, consistent
//! with its view (`resample(seat, …)`: the true hidden state is never read). In every deal
//! each candidate action is played and the game is played on by every seat's heuristic
//! to its end (or for `rollout_depth` actions, then scored by the game's estimate); the
//! action with the best mean reward over the deals is chosen. All candidates of one deal
//! share that deal and the rollout's random numbers (common random numbers), so their
//! difference is measured, not the luck of the deal.
//!
//! This is one step of policy improvement over the heuristic (Tesauro and Galperin 1996)
//! under determinization. Determinization suits a game whose hidden information matters
//! through what will be drawn rather than through what the others may infer (Long,
//! Sturtevant, Buro and Furtak, "Understanding the Success of Perfect Information Monte
//! Carlo Sampling in Game Tree Search", AAAI 2010): The Game's draw order and the
//! partners' hands are of that kind, and the heuristic's own weak points (when to stop a
//! turn, which pile to spend a card on) are what the deals measure.
//!
//! In a cooperative game the reward is the share of cards played, `1 − left / 98`, and a
//! perfect game (every card played, T6) earns `win_bonus` more, so that the search aims
//! at winning outright and not only at a good score.

use std::time::{Duration, Instant};

use serde_json::{Map, Value};

use crate::error::{Error, Message, Result};
use crate::game::{Action, Game};
use crate::meta::Utility;
use crate::rng;

use super::ismcts::Rollout;
use super::{Bot, Heuristic, Params, reject_unknown_params};

/// The parameters of [`Pimc`].
#[derive(Clone, Debug, PartialEq)]
pub struct PimcParams {
    /// Deals per decision; every candidate is played out once in each.
    pub samples: u32,
    /// A time budget per decision; the search stops after the deal that passes it (at
    /// least one deal is always played). Decisions then depend on the machine.
    pub time_ms: Option<u64>,
    /// How many of the heuristic's best-ranked actions are weighed (0: every legal action;
    /// a game that ranks none weighs every legal action). The heuristic's own choice is
    /// always weighed.
    pub width: u32,
    /// The most rollout actions before the game's estimate stands in for the result;
    /// `None`, or a game without an estimate, plays to the end.
    pub rollout_depth: Option<u32>,
    /// The reward of a perfect game on top of the share of cards played, in a cooperative
    /// game (The Game); ignored elsewhere.
    pub win_bonus: f64,
    /// Takes the game's dominant action at once (Schotten Totten's provable claims, S5).
    pub dominant: bool,
    /// How many standard errors another action's paired mean must beat the heuristic's
    /// choice by to be played instead (0: the best mean).
    pub confidence: f64,
}

impl Default for PimcParams {
    fn default() -> Self {
        Self {
            samples: 32,
            time_ms: None,
            width: 0,
            rollout_depth: None,
            win_bonus: 0.25,
            dominant: true,
            confidence: 1.0,
        }
    }
}

impl PimcParams {
    pub const NAMES: &'static [&'static str] = &[
        "confidence",
        "dominant",
        "rollout_depth",
        "samples",
        "time_ms",
        "width",
        "win_bonus",
    ];
    /// The most deals a decision may ask for.
    pub const MAX_SAMPLES: u32 = 1_000_000;

    /// Reads the parameters from JSON values by name; missing ones take their defaults,
    /// except that `time_ms` alone lifts the limit on deals.
    pub fn from_json(params: &Map<String, Value>) -> Result<Self> {
        reject_unknown_params("pimc", params, Self::NAMES)?;
        let bad = |name: &str, allowed: Message| {
            let value = crate::error::shorten(&params[name].to_string());
            Error::InvalidBotParams(allowed.map(|allowed, _| format!("pimc: {name}={value}: {allowed}")))
        };
        let whole = |name: &str, max: u64| -> Result<Option<u64>> {
            match params.get(name).filter(|v| !v.is_null()) {
                None => Ok(None),
                Some(v) => v.as_u64().filter(|&n| n <= max).map(Some).ok_or_else(|| {
                    bad(
                        name,
                        crate::msg!(
                            "a whole number from 0 to {max}",
                            "eine ganze Zahl von 0 bis {max}"
                        ),
                    )
                }),
            }
        };
        let mut out = Self::default();
        if let Some(ms) = whole("time_ms", 3_600_000)? {
            if ms == 0 {
                return Err(bad(
                    "time_ms",
                    crate::msg!(
                        "a whole number of milliseconds from 1 to 3600000, or null",
                        "eine ganze Zahl von Millisekunden von 1 bis 3600000, oder null"
                    ),
                ));
            }
            out.time_ms = Some(ms);
            out.samples = Self::MAX_SAMPLES;
        }
        if let Some(n) = whole("samples", u64::from(Self::MAX_SAMPLES))? {
            if n == 0 {
                return Err(bad(
                    "samples",
                    crate::msg!(
                        "a whole number from 1 to 1000000",
                        "eine ganze Zahl von 1 bis 1000000"
                    ),
                ));
            }
            out.samples = u32::try_from(n).expect("at most MAX_SAMPLES");
        }
        if let Some(k) = whole("width", 1000)? {
            out.width = u32::try_from(k).expect("at most 1000");
        }
        if params.get("rollout_depth").is_some_and(|v| !v.is_null()) {
            out.rollout_depth =
                whole("rollout_depth", 10_000)?.map(|d| u32::try_from(d).expect("at most 10000"));
        }
        if let Some(v) = params.get("win_bonus") {
            out.win_bonus = v
                .as_f64()
                .filter(|b| b.is_finite() && (0.0..=10.0).contains(b))
                .ok_or_else(|| {
                    bad(
                        "win_bonus",
                        crate::msg!("a number from 0 to 10", "eine Zahl von 0 bis 10"),
                    )
                })?;
        }
        if let Some(v) = params.get("confidence") {
            out.confidence = v
                .as_f64()
                .filter(|z| z.is_finite() && (0.0..=10.0).contains(z))
                .ok_or_else(|| {
                    bad(
                        "confidence",
                        crate::msg!("a number from 0 to 10", "eine Zahl von 0 bis 10"),
                    )
                })?;
        }
        if let Some(v) = params.get("dominant") {
            out.dominant = v
                .as_bool()
                .ok_or_else(|| bad("dominant", crate::msg!("true or false", "true oder false")))?;
        }
        Ok(out)
    }

    /// Every parameter with its value (read back by [`PimcParams::from_json`]).
    pub fn to_json(&self) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("confidence".into(), self.confidence.into());
        m.insert("dominant".into(), self.dominant.into());
        m.insert(
            "rollout_depth".into(),
            self.rollout_depth.map_or(Value::Null, Value::from),
        );
        m.insert("samples".into(), self.samples.into());
        m.insert("time_ms".into(), self.time_ms.map_or(Value::Null, Value::from));
        m.insert("width".into(), self.width.into());
        m.insert("win_bonus".into(), self.win_bonus.into());
        m
    }
}

/// The PIMC player.
#[derive(Clone, Debug, Default)]
pub struct Pimc {
    pub params: PimcParams,
}

impl Params for Pimc {
    fn params(&self) -> Map<String, Value> {
        self.params.to_json()
    }
}

/// What one decision found: the action and each candidate's mean reward.
#[derive(Clone, Debug, PartialEq)]
pub struct PimcResult {
    pub action: Action,
    /// Deals played.
    pub samples: u32,
    /// Per candidate: its mean reward for the deciding seat, sorted by action.
    pub candidates: Vec<(Action, f64)>,
}

impl<S: Heuristic> Bot<S> for Pimc {
    fn searches(&self) -> bool {
        true
    }

    fn choose(&self, state: &S, seat: usize, seed: u64) -> Result<Option<Action>> {
        self.search_until(state, seat, seed, &super::never)
            .map(|r| r.map(|r| r.action))
    }

    fn choose_until(
        &self,
        state: &S,
        seat: usize,
        seed: u64,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<Option<Action>> {
        self.search_until(state, seat, seed, stop)
            .map(|r| r.map(|r| r.action))
    }
}

/// A candidate's rewards over the deals, and their differences from the heuristic's
/// choice in the same deals (paired: the deal's luck cancels out).
#[derive(Clone, Copy, Debug, Default)]
struct Paired {
    sum: f64,
    diff: f64,
    diff_squares: f64,
}

impl Paired {
    fn add(&mut self, reward: f64, diff: f64) {
        self.sum += reward;
        self.diff += diff;
        self.diff_squares += diff * diff;
    }

    /// The mean difference from the heuristic's choice less `z` standard errors: above
    /// zero when the candidate is better by more than the deals' noise.
    fn lower_bound(&self, n: f64, z: f64) -> f64 {
        let mean = self.diff / n;
        if n < 2.0 {
            return mean;
        }
        let variance = ((self.diff_squares - self.diff * self.diff / n) / (n - 1.0)).max(0.0);
        mean - z * (variance / n).sqrt()
    }
}

impl Pimc {
    pub fn new(params: PimcParams) -> Self {
        Self { params }
    }

    /// The candidate to play: the heuristic's choice unless another beats it by more than
    /// the noise of the deals (its paired lower bound above zero), then the best mean of
    /// those. Taking the best mean alone picks whichever candidate was luckiest among
    /// dozens (the winner's curse): it played worse than the heuristic it searched over.
    /// Ties go to the lower id.
    fn choice(&self, candidates: &[Action], totals: &[Paired], favourite: Option<Action>, n: f64) -> Action {
        let best_mean = |pick: &dyn Fn(usize) -> bool| {
            (0..candidates.len())
                .filter(|&i| pick(i))
                .max_by(|&i, &j| {
                    totals[i]
                        .sum
                        .total_cmp(&totals[j].sum)
                        .then(candidates[j].cmp(&candidates[i]))
                })
                .map(|i| candidates[i])
        };
        match favourite.filter(|f| candidates.contains(f)) {
            None => best_mean(&|_| true).expect("at least two candidates"),
            Some(f) => {
                best_mean(&|i| candidates[i] != f && totals[i].lower_bound(n, self.params.confidence) > 0.0)
                    .unwrap_or(f)
            }
        }
    }

    /// The reward of `seat` in a finished deal, in [0, 1 + `win_bonus`].
    fn reward<S: Heuristic>(&self, deal: &S, seat: usize, utility: Utility) -> f64 {
        let r = deal.returns()[seat];
        match utility {
            Utility::ZeroSum | Utility::TeamZeroSum => f64::midpoint(r, 1.0).clamp(0.0, 1.0),
            // T6: the return is −(cards left); none left is the perfect game.
            Utility::Cooperative => {
                let played = (1.0 + r / 98.0).clamp(0.0, 1.0);
                if r == 0.0 {
                    played + self.params.win_bonus
                } else {
                    played
                }
            }
        }
    }

    /// Searches for `seat`'s action in `state`, which it reads only through
    /// `resample(seat, …)`: `None` if `seat` may not move. Gives up with
    /// [`Error::Interrupted`] once `stop` returns true (asked before every deal).
    pub fn search_until<S: Heuristic>(
        &self,
        state: &S,
        seat: usize,
        seed: u64,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<Option<PimcResult>> {
        let mut rng = rng::seeded(seed, rng::STREAM_POLICY);
        let first = state.resample(seat, rand::Rng::next_u64(&mut rng))?;
        let mut legal = Vec::new();
        first.legal_actions_for(seat, &mut legal);
        let single = |action| PimcResult {
            action,
            samples: 0,
            candidates: vec![(action, 0.0)],
        };
        if self.params.dominant
            && first.current_player() == Some(seat)
            && let Some(action) = first.dominant_action()
        {
            return Ok(Some(single(action)));
        }
        match legal.len() {
            0 => return Ok(None),
            1 => return Ok(Some(single(legal[0]))),
            _ => {}
        }
        // The heuristic reads only the seat's view, so any deal gives the same choice and
        // ranking: it is weighed always, and breaks ties.
        let favourite = first.heuristic_action(seat, &mut rng);
        let mut candidates = legal;
        if self.params.width > 0 {
            let mut ranking = Vec::new();
            first.heuristic_scores_into(seat, &mut ranking);
            if !ranking.is_empty() {
                ranking.sort_unstable_by(|x, y| y.1.total_cmp(&x.1).then(x.0.cmp(&y.0)));
                candidates = ranking
                    .iter()
                    .take(self.params.width as usize)
                    .map(|&(a, _)| a)
                    .collect();
                if let Some(f) = favourite
                    && !candidates.contains(&f)
                {
                    candidates.push(f);
                }
            }
        }
        candidates.sort_unstable();
        let utility = state.game().utility();
        let deadline = self
            .params
            .time_ms
            .map(|ms| Instant::now() + Duration::from_millis(ms));
        let mut totals = vec![Paired::default(); candidates.len()];
        let base = favourite.and_then(|f| candidates.iter().position(|&a| a == f));
        let mut rewards = vec![0.0; candidates.len()];
        let mut estimate = Vec::new();
        let mut buf = Vec::new();
        let mut first = Some(first);
        let mut done = 0;
        while done < self.params.samples {
            if stop() {
                return Err(Error::Interrupted);
            }
            if done > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            let deal = match first.take() {
                Some(deal) => deal,
                None => state.resample(seat, rand::Rng::next_u64(&mut rng))?,
            };
            let rollout_seed = rand::Rng::next_u64(&mut rng);
            for (reward, &action) in rewards.iter_mut().zip(&candidates) {
                let mut line = deal.clone();
                line.apply_action_for(seat, action)
                    .expect("a legal action of the seat applies in every deal");
                let mut playout = rng::seeded(rollout_seed, rng::STREAM_POLICY);
                // A few actions and the game's estimate, or on to the end.
                let estimated = self.params.rollout_depth.is_some_and(|depth| {
                    super::ismcts::short_playout(
                        &mut line,
                        Rollout::Heuristic,
                        depth,
                        &mut playout,
                        &mut buf,
                    );
                    !line.is_terminal() && line.heuristic_value_into(&mut estimate)
                });
                *reward = if estimated {
                    estimate[seat]
                } else {
                    line.heuristic_playout(&mut playout);
                    self.reward(&line, seat, utility)
                };
            }
            let baseline = base.map_or(0.0, |b| rewards[b]);
            for (total, &reward) in totals.iter_mut().zip(&rewards) {
                total.add(reward, reward - baseline);
            }
            done += 1;
        }
        let n = f64::from(done);
        let means: Vec<(Action, f64)> = candidates
            .iter()
            .zip(&totals)
            .map(|(&a, t)| (a, t.sum / n))
            .collect();
        let action = self.choice(&candidates, &totals, favourite, n);
        Ok(Some(PimcResult {
            action,
            samples: done,
            candidates: means,
        }))
    }
}
