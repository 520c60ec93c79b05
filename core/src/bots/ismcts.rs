//! Single-observer information-set Monte Carlo tree search (SO-ISMCTS; Cowling, Powley
//! and Whitehouse, "Information Set Monte Carlo Tree Search", 2012).
//!
//! One tree for the searching seat, keyed by action ids. Each iteration deals the cards
//! the seat cannot see anew with `resample(seat, …)` (a determinization: the true hidden
//! state is never read), descends from the root choosing among the children legal in
//! that deal by UCB1, expands one node, plays the rest at random and backs the result up.
//! A node belongs to the player who acted there, and keeps that player's reward, so
//! opponents search for themselves in the same tree; the actions other seats take that
//! the searcher cannot see (Dog's exchange picks) are simply the determinization's.
//!
//! A child's exploration term counts how often it was *available* (legal in the deal of
//! a visit to its parent), not the parent's visits: the paper's fix for actions that are
//! legal in only some deals.
//!
//! With a `prior` > 0 the search leans on the game's heuristic (progressive bias,
//! Chaslot et al., "Progressive strategies for Monte-Carlo tree search", 2008): at each
//! node the child for the action the heuristic picks for the actor (at the root the
//! searching seat's own, computed once from its view; deeper the actor's in the current
//! deal) adds `prior / (1 + visits)` to its UCB value and is expanded first. An action not
//! yet tried is then no longer infinitely urgent: it scores as one visit at the neutral
//! reward ½ (first-play urgency), so a few iterations among 20–170 legal actions follow
//! the heuristic instead of trying every action once.

use std::time::{Duration, Instant};

use rand::{Rng as _, RngExt};
use serde_json::{Map, Value};

use crate::error::{Error, Message, Result};
use crate::game::{Action, Game};
use crate::meta::Utility;
use crate::rng;
use crate::simulate::random_playout;

use super::{Bot, Heuristic, Params, reject_unknown_params};

/// How an iteration plays on from the new node to the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rollout {
    /// Uniformly random legal actions.
    Random,
    /// Every seat plays its game's heuristic ([`Heuristic::heuristic_action`]).
    Heuristic,
}

impl Rollout {
    pub const NAMES: &'static [&'static str] = &["heuristic", "random"];

    pub fn name(self) -> &'static str {
        match self {
            Rollout::Random => "random",
            Rollout::Heuristic => "heuristic",
        }
    }
}

/// The parameters of [`Ismcts`].
#[derive(Clone, Debug, PartialEq)]
pub struct IsmctsParams {
    /// Iterations per decision (one determinization, descent, rollout and backup each).
    pub iterations: u64,
    /// A time budget per decision; the search stops at whichever limit comes first.
    /// Decisions under a time budget depend on the machine's speed.
    pub time_ms: Option<u64>,
    /// UCB1's exploration constant for rewards in [0, 1].
    pub c: f64,
    pub rollout: Rollout,
    /// The progressive bias towards the heuristic's action (0: none, plain UCB1).
    pub prior: f64,
    /// The most rollout actions before the game's estimate of the position
    /// ([`Heuristic::heuristic_value_into`]) stands in for the result (0: the new node
    /// itself is scored); `None`, or a game without an estimate, plays to the end.
    pub rollout_depth: Option<u32>,
    /// Takes the game's dominant actions ([`Heuristic::dominant_action`], e.g. Schotten
    /// Totten's provable claims) at once, in the tree and at the root, instead of
    /// searching them as choices.
    pub dominant: bool,
    /// Progressive widening by the heuristic's ranking
    /// ([`Heuristic::heuristic_scores_into`]; 0: off, every legal action is searched): a
    /// node weighs only the `widen` best-ranked actions of its actor in the deal, one more
    /// as its visits grow (see [`widened`]), so that iterations go deeper and each move is
    /// judged against good replies rather than all of them.
    pub widen: u32,
}

impl Default for IsmctsParams {
    fn default() -> Self {
        Self {
            iterations: 1000,
            time_ms: None,
            c: 0.7,
            rollout: Rollout::Random,
            prior: 0.0,
            rollout_depth: None,
            dominant: false,
            widen: 0,
        }
    }
}

impl IsmctsParams {
    pub const NAMES: &'static [&'static str] = &[
        "c",
        "dominant",
        "iterations",
        "prior",
        "rollout",
        "rollout_depth",
        "time_ms",
        "widen",
    ];
    /// The most iterations a decision may ask for.
    pub const MAX_ITERATIONS: u64 = 100_000_000;

    /// Reads the parameters from JSON values by name; missing ones take their defaults,
    /// except that `time_ms` alone lifts the iteration limit.
    pub fn from_json(params: &Map<String, Value>) -> Result<Self> {
        reject_unknown_params("ismcts", params, Self::NAMES)?;
        let bad = |name: &str, allowed: Message| {
            let value = crate::error::shorten(&params[name].to_string());
            Error::InvalidBotParams(allowed.map(|allowed, _| format!("ismcts: {name}={value}: {allowed}")))
        };
        let mut out = Self::default();
        let time_ms = params.get("time_ms").filter(|v| !v.is_null());
        if let Some(v) = time_ms {
            out.time_ms = Some(
                v.as_u64()
                    .filter(|&t| (1..=3_600_000).contains(&t))
                    .ok_or_else(|| {
                        bad(
                            "time_ms",
                            crate::msg!(
                                "a whole number of milliseconds from 1 to 3600000, or null",
                                "eine ganze Zahl von Millisekunden von 1 bis 3600000, oder null"
                            ),
                        )
                    })?,
            );
            out.iterations = Self::MAX_ITERATIONS;
        }
        if let Some(v) = params.get("iterations") {
            out.iterations = v
                .as_u64()
                .filter(|&n| (1..=Self::MAX_ITERATIONS).contains(&n))
                .ok_or_else(|| {
                    bad(
                        "iterations",
                        crate::msg!(
                            "a whole number from 1 to 100000000",
                            "eine ganze Zahl von 1 bis 100000000"
                        ),
                    )
                })?;
        }
        if let Some(v) = params.get("c") {
            out.c = v
                .as_f64()
                .filter(|c| c.is_finite() && (0.0..=100.0).contains(c))
                .ok_or_else(|| {
                    bad(
                        "c",
                        crate::msg!("a number from 0 to 100", "eine Zahl von 0 bis 100"),
                    )
                })?;
        }
        if let Some(v) = params.get("prior") {
            out.prior = v
                .as_f64()
                .filter(|p| p.is_finite() && (0.0..=100.0).contains(p))
                .ok_or_else(|| {
                    bad(
                        "prior",
                        crate::msg!("a number from 0 to 100", "eine Zahl von 0 bis 100"),
                    )
                })?;
        }
        if let Some(v) = params.get("rollout_depth").filter(|v| !v.is_null()) {
            out.rollout_depth = Some(
                v.as_u64()
                    .and_then(|d| u32::try_from(d).ok())
                    .filter(|&d| d <= 10_000)
                    .ok_or_else(|| {
                        bad(
                            "rollout_depth",
                            crate::msg!(
                                "a whole number from 0 to 10000, or null",
                                "eine ganze Zahl von 0 bis 10000, oder null"
                            ),
                        )
                    })?,
            );
        }
        if let Some(v) = params.get("dominant") {
            out.dominant = v
                .as_bool()
                .ok_or_else(|| bad("dominant", crate::msg!("true or false", "true oder false")))?;
        }
        if let Some(v) = params.get("widen") {
            out.widen = v
                .as_u64()
                .and_then(|k| u32::try_from(k).ok())
                .filter(|&k| k <= 1000)
                .ok_or_else(|| {
                    bad(
                        "widen",
                        crate::msg!("a whole number from 0 to 1000", "eine ganze Zahl von 0 bis 1000"),
                    )
                })?;
        }
        if let Some(v) = params.get("rollout") {
            out.rollout = match v.as_str() {
                Some("random") => Rollout::Random,
                Some("heuristic") => Rollout::Heuristic,
                _ => {
                    let names = Rollout::NAMES.join(", ");
                    return Err(bad("rollout", crate::msg!("one of {names}", "eines von {names}")));
                }
            };
        }
        Ok(out)
    }

    /// Every parameter with its value (read back by [`IsmctsParams::from_json`]).
    pub fn to_json(&self) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("c".into(), self.c.into());
        m.insert("dominant".into(), self.dominant.into());
        m.insert("iterations".into(), self.iterations.into());
        m.insert("prior".into(), self.prior.into());
        m.insert("rollout".into(), self.rollout.name().into());
        m.insert(
            "rollout_depth".into(),
            self.rollout_depth.map_or(Value::Null, Value::from),
        );
        m.insert("time_ms".into(), self.time_ms.map_or(Value::Null, Value::from));
        m.insert("widen".into(), self.widen.into());
        m
    }
}

/// The SO-ISMCTS player.
#[derive(Clone, Debug, Default)]
pub struct Ismcts {
    pub params: IsmctsParams,
}

impl Params for Ismcts {
    fn params(&self) -> Map<String, Value> {
        self.params.to_json()
    }
}

impl<S: Heuristic> Bot<S> for Ismcts {
    fn searches(&self) -> bool {
        true
    }

    fn choose(&self, state: &S, seat: usize, seed: u64) -> Result<Option<Action>> {
        self.search(state, seat, seed).map(|s| s.map(|s| s.action))
    }

    fn choose_until(
        &self,
        state: &S,
        seat: usize,
        seed: u64,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<Option<Action>> {
        self.search_until(state, seat, seed, stop)
            .map(|s| s.map(|s| s.action))
    }
}

/// No node: the end of a child or sibling list.
const NONE: u32 = u32::MAX;

/// A node of the tree: the position reached by `action` from its parent, chosen by `seat`.
#[derive(Clone, Debug)]
struct Node {
    action: Action,
    /// The seat that chose `action`: the node's reward is from its point of view.
    seat: u32,
    first_child: u32,
    next_sibling: u32,
    visits: u32,
    /// Visits to the parent in whose deal `action` was legal.
    available: u32,
    /// Sum of the rewards of `seat` over the visits, each in [0, 1].
    reward: f64,
}

/// What one decision found: the action and the statistics behind it.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    pub action: Action,
    /// Iterations run.
    pub iterations: u64,
    /// Nodes in the tree, the root included.
    pub nodes: usize,
    /// Per legal action of the root: its visits and mean reward for the searching seat.
    pub children: Vec<(Action, u32, f64)>,
}

/// Set and clear bits of a mask over the action space, reused across iterations.
struct Mask(Vec<u64>);

impl Mask {
    fn set(&mut self, a: Action) {
        self.0[(a >> 6) as usize] |= 1 << (a & 63);
    }
    /// Clears the bit and says whether it was set.
    fn take(&mut self, a: Action) -> bool {
        let word = &mut self.0[(a >> 6) as usize];
        let bit = 1 << (a & 63);
        let was = *word & bit != 0;
        *word &= !bit;
        was
    }
}

/// The reward of each seat in [0, 1] from the returns of a finished game: a side's own
/// return (zero-sum; in team games partners share it) mapped from [-1, 1]; in a
/// cooperative game the shared return, −(cards left), as 1 − cards left / 98 (T1, T6).
fn rewards_into(utility: Utility, returns: &[f64], out: &mut Vec<f64>) {
    out.clear();
    out.extend(returns.iter().map(|&r| match utility {
        Utility::ZeroSum | Utility::TeamZeroSum => f64::midpoint(r, 1.0).clamp(0.0, 1.0),
        Utility::Cooperative => (1.0 + r / 98.0).clamp(0.0, 1.0),
    }));
}

/// The UCB value of an action not yet tried when the search has a prior: one visit at the
/// neutral reward ½ out of `available` (first-play urgency), instead of infinity.
fn untried_score(c: f64, available: f64) -> f64 {
    0.5 + c * available.ln().sqrt()
}

/// Plays at most `depth` actions of `state` by `rollout`'s policy, stopping at the end.
pub(super) fn short_playout<S: Heuristic>(
    state: &mut S,
    rollout: Rollout,
    depth: u32,
    rng: &mut rng::Rng,
    buf: &mut Vec<Action>,
) {
    for _ in 0..depth {
        let Some(seat) = state.current_player() else {
            return;
        };
        let action = match rollout {
            Rollout::Random => {
                state.legal_actions_into(buf);
                buf[rng.random_range(0..buf.len())]
            }
            Rollout::Heuristic => state
                .heuristic_action(seat, rng)
                .expect("the player to move has a legal action"),
        };
        state.apply_action(action).expect("a legal action applies");
    }
}

/// How many of the best-ranked actions a node with `visits` weighs under progressive
/// widening from `widen`: one more each time the square root of its visits grows by
/// [`WIDEN_STEP`].
fn widened(widen: u32, visits: u32) -> usize {
    widen as usize + (f64::from(visits).sqrt() / WIDEN_STEP) as usize
}

/// See [`widened`]: 4 played better than 2, 8 or no growth at all (benches/README.md).
const WIDEN_STEP: f64 = 4.0;

/// Sorts scored actions best first (ties to the lower id, so that the order does not
/// depend on the order the game lists them in).
fn rank(scores: &mut [(Action, f32)]) {
    scores.sort_unstable_by(|x, y| y.1.total_cmp(&x.1).then(x.0.cmp(&y.0)));
}

impl Ismcts {
    pub fn new(params: IsmctsParams) -> Self {
        Self { params }
    }

    /// Searches for `seat`'s action in `state`, which it reads only through
    /// `resample(seat, …)`: `None` if `seat` may not move.
    pub fn search<S: Heuristic>(&self, state: &S, seat: usize, seed: u64) -> Result<Option<SearchResult>> {
        self.search_until(state, seat, seed, &super::never)
    }

    /// As [`Ismcts::search`], giving up with [`Error::Interrupted`] once `stop` returns
    /// true (asked every 16 iterations).
    pub fn search_until<S: Heuristic>(
        &self,
        state: &S,
        seat: usize,
        seed: u64,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<Option<SearchResult>> {
        let mut rng = rng::seeded(seed, rng::STREAM_POLICY);
        let mut legal = Vec::new();
        // The root's actions are the seat's own: the same in every deal.
        let first = state.resample(seat, rng.next_u64())?;
        first.legal_actions_for(seat, &mut legal);
        let dominant = self.params.dominant;
        if dominant
            && first.current_player() == Some(seat)
            && let Some(action) = first.dominant_action()
        {
            return Ok(Some(SearchResult {
                action,
                iterations: 0,
                nodes: 1,
                children: vec![(action, 0, 0.0)],
            }));
        }
        match legal.len() {
            0 => return Ok(None),
            1 => {
                return Ok(Some(SearchResult {
                    action: legal[0],
                    iterations: 0,
                    nodes: 1,
                    children: vec![(legal[0], 0, 0.0)],
                }));
            }
            _ => {}
        }
        let game = state.game();
        let utility = game.utility();
        let c = self.params.c;
        let prior = self.params.prior;
        // The seat's own heuristic action, from a deal of its view (the heuristic reads
        // only the view, so any deal gives the same): the root's favourite in every deal.
        let root_favourite = if prior > 0.0 {
            first.heuristic_action(seat, &mut rng)
        } else {
            None
        };
        // Progressive widening: the root's ranking is the seat's own, from its view (the
        // heuristic reads only the view, so any deal gives the same).
        let widen = self.params.widen;
        let mut root_ranking: Vec<(Action, f32)> = Vec::new();
        let mut ranking: Vec<(Action, f32)> = Vec::new();
        if widen > 0 {
            first.heuristic_scores_into(seat, &mut root_ranking);
            rank(&mut root_ranking);
        }
        let deadline = self
            .params
            .time_ms
            .map(|ms| Instant::now() + Duration::from_millis(ms));
        let cap = usize::try_from(self.params.iterations.min(1 << 24)).unwrap_or(1 << 24) + 1;
        let mut nodes: Vec<Node> = Vec::with_capacity(cap.min(1 << 16));
        nodes.push(Node {
            action: 0,
            seat: seat as u32,
            first_child: NONE,
            next_sibling: NONE,
            visits: 0,
            available: 0,
            reward: 0.0,
        });
        let mut mask = Mask(vec![0; game.num_distinct_actions().div_ceil(64)]);
        let mut untried: Vec<Action> = Vec::new();
        let mut path: Vec<u32> = Vec::new();
        let mut rewards: Vec<f64> = Vec::new();
        let mut first = Some(first);
        let mut done = 0;
        while done < self.params.iterations {
            if done.is_multiple_of(16) {
                if stop() {
                    return Err(Error::Interrupted);
                }
                if let Some(deadline) = deadline
                    && done > 0
                    && Instant::now() >= deadline
                {
                    break;
                }
            }
            done += 1;
            let mut deal = match first.take() {
                Some(deal) => deal,
                None => state.resample(seat, rng.next_u64())?,
            };
            path.clear();
            path.push(0);
            let mut node = 0usize;
            // Selection and expansion.
            while !deal.is_terminal() {
                // Below the root (which has none, see above), a dominant action is
                // taken without a node of its own.
                if dominant
                    && node != 0
                    && let Some(action) = deal.dominant_action()
                {
                    deal.apply_action(action).expect("a dominant action is legal");
                    continue;
                }
                let actor = if node == 0 {
                    seat
                } else {
                    deal.current_player()
                        .expect("a running game has a player to move")
                };
                if node == 0 {
                    deal.legal_actions_for(seat, &mut legal);
                } else {
                    deal.legal_actions_into(&mut legal);
                }
                // Widening: only the best-ranked actions of the actor in this deal, best
                // first (the ranking holds only legal actions).
                let mut widened_here = false;
                if widen > 0 {
                    let ranked = if node == 0 {
                        &root_ranking
                    } else {
                        deal.heuristic_scores_into(actor, &mut ranking);
                        rank(&mut ranking);
                        &ranking
                    };
                    if !ranked.is_empty() {
                        let k = widened(widen, nodes[node].visits);
                        legal.clear();
                        legal.extend(ranked.iter().take(k).map(|&(a, _)| a));
                        widened_here = true;
                    }
                }
                for &a in &legal {
                    mask.set(a);
                }
                let favourite = if prior == 0.0 {
                    None
                } else if node == 0 {
                    root_favourite
                } else {
                    deal.heuristic_action(actor, &mut rng)
                };
                let mut best = NONE;
                let mut best_score = f64::NEG_INFINITY;
                let mut child = nodes[node].first_child;
                while child != NONE {
                    let n = &mut nodes[child as usize];
                    if mask.take(n.action) {
                        n.available += 1;
                        let visits = f64::from(n.visits);
                        let mut score = n.reward / visits + c * (f64::from(n.available).ln() / visits).sqrt();
                        if favourite == Some(n.action) {
                            score += prior / (1.0 + visits);
                        }
                        if score > best_score {
                            best_score = score;
                            best = child;
                        }
                    }
                    child = n.next_sibling;
                }
                untried.clear();
                untried.extend(legal.iter().copied().filter(|&a| mask.take(a)));
                // Plain UCB1 tries every legal action once before choosing among them;
                // with a prior, the heuristic's action first, then an untried one only
                // when no tried child scores above one neutral visit.
                let expand = !untried.is_empty()
                    && (prior == 0.0
                        || favourite.is_some_and(|f| untried.contains(&f))
                        || best == NONE
                        || best_score <= untried_score(c, f64::from(nodes[node].visits + 1)));
                let (next, action) = if expand {
                    let action = match favourite {
                        Some(f) if untried.contains(&f) => f,
                        // The best-ranked action not yet tried.
                        _ if widened_here => untried[0],
                        _ => untried[rng.random_range(0..untried.len())],
                    };
                    let id = u32::try_from(nodes.len()).expect("fewer than 2^32 nodes");
                    nodes.push(Node {
                        action,
                        seat: actor as u32,
                        first_child: NONE,
                        next_sibling: nodes[node].first_child,
                        visits: 0,
                        available: 1,
                        reward: 0.0,
                    });
                    nodes[node].first_child = id;
                    (id, action)
                } else {
                    (best, nodes[best as usize].action)
                };
                if node == 0 {
                    deal.apply_action_for(seat, action)
                } else {
                    deal.apply_action(action)
                }
                .expect("a legal action of the deal applies");
                path.push(next);
                node = next as usize;
                if expand {
                    break;
                }
            }
            // Simulation: a few actions and the game's estimate, or on to the end.
            let estimated = self.params.rollout_depth.is_some_and(|depth| {
                short_playout(&mut deal, self.params.rollout, depth, &mut rng, &mut legal);
                !deal.is_terminal() && deal.heuristic_value_into(&mut rewards)
            });
            if !estimated {
                match self.params.rollout {
                    Rollout::Random => {
                        random_playout(&mut deal, &mut rng, &mut legal);
                    }
                    Rollout::Heuristic => {
                        super::heuristic_playout(&mut deal, &mut rng);
                    }
                }
                rewards_into(utility, &deal.returns(), &mut rewards);
            }
            // Backpropagation.
            for &n in &path {
                let n = &mut nodes[n as usize];
                n.visits += 1;
                n.reward += rewards[n.seat as usize];
            }
        }
        // The most visited action (the most robust); ties to the better mean, then the
        // lower id, so that the choice does not depend on the order of the children.
        let mut children = Vec::new();
        let mut child = nodes[0].first_child;
        while child != NONE {
            let n = &nodes[child as usize];
            let mean = if n.visits == 0 {
                0.0
            } else {
                n.reward / f64::from(n.visits)
            };
            children.push((n.action, n.visits, mean));
            child = n.next_sibling;
        }
        children.sort_by_key(|&(a, _, _)| a);
        let &(action, _, _) = children
            .iter()
            .max_by(|x, y| x.1.cmp(&y.1).then(x.2.total_cmp(&y.2)).then(y.0.cmp(&x.0)))
            .expect("the root has a child after one iteration");
        Ok(Some(SearchResult {
            action,
            iterations: done,
            nodes: nodes.len(),
            children,
        }))
    }
}
