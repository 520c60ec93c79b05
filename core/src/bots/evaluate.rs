//! The tally of seeded matches between bots, with seats rotated: counts, means and
//! their intervals (the runs that play them are `dynamic::evaluate`).
//!
//! A run of `n` games can be played in parts (`dynamic::evaluate::evaluate_games` on a
//! range of the game numbers, on this machine or spread over many) and the parts merged
//! ([`Evaluation::merge`]): the merged tally equals the one of the whole run to the last
//! bit, in any order of the parts, because every count is an integer and every mean is
//! taken from the count of each value seen, summed in one fixed order.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::meta::Utility;

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

/// A mean with its normal 95% interval (from the sample's standard deviation).
///
/// It keeps how often each value was seen rather than running sums: floating-point sums
/// depend on the order of the terms, and the tallies of parts of a run (threads, Ray
/// workers) must merge into exactly the figures of the whole run. Returns take few
/// distinct values (win, draw, loss; cards left), so the counts stay small.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Mean {
    pub n: u64,
    /// How often each value was seen, keyed by its bits (a fixed order for the sums).
    counts: BTreeMap<u64, u64>,
}

impl Mean {
    fn add(&mut self, x: f64) {
        self.n += 1;
        *self.counts.entry(x.to_bits()).or_default() += 1;
    }
    fn merge(&mut self, other: &Mean) {
        self.n += other.n;
        for (&bits, &count) in &other.counts {
            *self.counts.entry(bits).or_default() += count;
        }
    }
    /// The sum and the sum of squares, always added up in the order of the keys.
    fn sums(&self) -> (f64, f64) {
        self.counts
            .iter()
            .fold((0.0, 0.0), |(sum, squares), (&bits, &count)| {
                let (x, count) = (f64::from_bits(bits), count as f64);
                (sum + x * count, squares + x * x * count)
            })
    }
    /// Whether the counts add up to `n` (a tally read from outside may not).
    fn consistent(&self) -> bool {
        self.counts
            .values()
            .try_fold(0u64, |sum, &count| sum.checked_add(count))
            == Some(self.n)
    }
    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.sums().0 / self.n as f64
        }
    }
    pub fn interval(&self) -> (f64, f64) {
        let mean = self.mean();
        if self.n < 2 {
            return (mean, mean);
        }
        let n = self.n as f64;
        let (sum, squares) = self.sums();
        let variance = ((squares - sum * sum / n) / (n - 1.0)).max(0.0);
        let half = Z95 * (variance / n).sqrt();
        (mean - half, mean + half)
    }
}

/// How one bot did over the games it played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
    /// The figures people read off this standing: rates with their 95% intervals (Wilson
    /// for shares, normal for means) and, in a cooperative game (`cooperative`: The Game),
    /// the perfect games, the games under 10 cards left and the mean cards left.
    pub fn figures(&self, cooperative: bool) -> Figures {
        let rate = |k: u64| {
            if self.games == 0 {
                0.0
            } else {
                k as f64 / self.games as f64
            }
        };
        let cards = cooperative.then(|| CardFigures {
            perfect_rate: rate(self.perfect),
            perfect_rate_ci: wilson(self.perfect, self.games),
            under_10_rate: rate(self.under_10),
            under_10_ci: wilson(self.under_10, self.games),
            mean_cards_left: self.cards_left.mean(),
            mean_cards_left_ci: self.cards_left.interval(),
        });
        Figures {
            win_rate: self.win_rate(),
            win_rate_ci: self.win_rate_interval(),
            mean_return: self.returns.mean(),
            mean_return_ci: self.returns.interval(),
            cards,
        }
    }
    fn merge(&mut self, other: &Standing) {
        self.games += other.games;
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        self.returns.merge(&other.returns);
        self.perfect += other.perfect;
        self.under_10 += other.under_10;
        self.cards_left.merge(&other.cards_left);
    }
}

/// A standing's rates and means with their 95% intervals ([`Standing::figures`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Figures {
    pub win_rate: f64,
    pub win_rate_ci: (f64, f64),
    pub mean_return: f64,
    pub mean_return_ci: (f64, f64),
    /// Cooperative games only (T6: cards left).
    pub cards: Option<CardFigures>,
}

/// The cooperative game's figures of a standing (T6): perfect games, games under 10
/// cards left, cards left.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CardFigures {
    pub perfect_rate: f64,
    pub perfect_rate_ci: (f64, f64),
    pub under_10_rate: f64,
    pub under_10_ci: (f64, f64),
    pub mean_cards_left: f64,
    pub mean_cards_left_ci: (f64, f64),
}

/// What an evaluation found: one standing per bot, in the order given.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Evaluation {
    pub utility: Utility,
    pub games: u64,
    pub standings: Vec<Standing>,
}

impl Evaluation {
    /// Adds the tally of other games between the same bots (another part of a run; see
    /// [`evaluate_games`]). Which games each part played is the caller's to keep apart:
    /// merging a part twice counts its games twice.
    pub fn merge(&mut self, other: &Evaluation) -> Result<()> {
        let same_bots = self.standings.len() == other.standings.len()
            && self
                .standings
                .iter()
                .zip(&other.standings)
                .all(|(a, b)| a.name == b.name && a.params == b.params);
        let Some(games) = self.games.checked_add(other.games) else {
            return Err(Error::InvalidArgument(format!(
                "these parts tally more games together than can be counted ({} and {})",
                self.games, other.games
            )));
        };
        if self.utility != other.utility || !same_bots {
            let bots = |e: &Evaluation| {
                e.standings
                    .iter()
                    .map(|s| s.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            return Err(Error::InvalidArgument(format!(
                "only parts of one evaluation merge: bots [{}] and [{}]",
                bots(self),
                bots(other)
            )));
        }
        // Every count of a consistent part is at most its games (`validate`), so no sum
        // below can overflow once the games do not.
        self.games = games;
        for (mine, theirs) in self.standings.iter_mut().zip(&other.standings) {
            mine.merge(theirs);
        }
        Ok(())
    }
}

impl Evaluation {
    /// Refuses a tally no run could have produced (a forged or damaged pickle): a bot with
    /// more games than the run, outcomes or means that do not add up to its games.
    pub fn validate(&self) -> Result<()> {
        for s in &self.standings {
            let outcomes = s.wins.checked_add(s.draws).and_then(|n| n.checked_add(s.losses));
            let fits = s.games <= self.games
                && outcomes.is_some_and(|n| n <= s.games)
                && s.perfect <= s.games
                && s.under_10 <= s.games
                && s.returns.n == s.games
                && s.cards_left.n <= s.games
                && s.returns.consistent()
                && s.cards_left.consistent();
            if !fits {
                return Err(Error::InvalidState(format!(
                    "the tally of bot '{}' does not add up: {} games of {}, {} wins, {} draws, {} losses",
                    crate::error::shorten(&s.name),
                    s.games,
                    self.games,
                    s.wins,
                    s.draws,
                    s.losses
                )));
            }
        }
        Ok(())
    }
}

/// The bot at `seat` in rotation `rotation`: seat `p` takes bot `(p + rotation) % k`, so
/// with two bots partners play for the same bot (Dog) and two-player games swap seats.
pub fn bot_at(seat: usize, rotation: usize, bots: usize) -> usize {
    (seat + rotation) % bots
}

impl Evaluation {
    /// The tally of no game yet between `bots` (each bot's name and parameters).
    pub fn empty(utility: Utility, bots: impl IntoIterator<Item = (String, Map<String, Value>)>) -> Self {
        let standings = bots
            .into_iter()
            .map(|(name, params)| Standing {
                name,
                params,
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
        Evaluation {
            utility,
            games: 0,
            standings,
        }
    }

    /// Counts game number `i` of a run of `k` bots (its rotation is `i % k`, see
    /// [`bot_at`]), which ended with `returns`.
    pub fn add_game(&mut self, i: u64, k: usize, returns: &[f64]) {
        let players = returns.len();
        let utility = self.utility;
        self.games += 1;
        let standings = &mut self.standings;
        let rotation = (i % k as u64) as usize;
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
}

#[cfg(test)]
mod tests {
    use serde_json::{Map, json};

    use super::Evaluation;
    use crate::caravan::CaravanGame;
    use crate::dynamic::evaluate::{evaluate, evaluate_games};
    use crate::dynamic::{DynBot, make};
    use crate::error::Error;
    use crate::game::Game;
    use crate::meta::Utility;
    use crate::the_game::TheGame;

    fn params(v: serde_json::Value) -> Map<String, serde_json::Value> {
        let serde_json::Value::Object(map) = v else {
            panic!("parameters are a JSON object")
        };
        map
    }

    /// Plays `0..n` as the parts cut at `cuts`, merged in reverse order.
    fn in_parts<G: Game>(game: &G, bots: &[&dyn DynBot], n: u64, cuts: &[u64]) -> Evaluation {
        let mut bounds = vec![0];
        bounds.extend_from_slice(cuts);
        bounds.push(n);
        let mut parts: Vec<Evaluation> = bounds
            .windows(2)
            .map(|w| evaluate_games(game, bots, w[0]..w[1], 7, Some(1), &|| false).unwrap())
            .collect();
        let mut merged = parts.pop().unwrap();
        while let Some(part) = parts.pop() {
            merged.merge(&part).unwrap();
        }
        merged
    }

    #[test]
    fn parts_of_a_run_merge_into_the_whole_run() {
        // Odd cuts split a deal's two seatings between parts.
        let g = CaravanGame::from_options(&Map::new()).unwrap();
        // Random bots with their own seeds: cheap in debug builds, and seat order matters.
        let a = make::<CaravanGame>("random", &Map::new(), 5).unwrap();
        let b = make::<CaravanGame>("random", &Map::new(), 6).unwrap();
        let bots = [a.as_ref(), b.as_ref()];
        let whole = evaluate(&g, &bots, 14, 7, None, &|| false).unwrap();
        assert_eq!(in_parts(&g, &bots, 14, &[3, 4, 11]), whole);
        assert_eq!(in_parts(&g, &bots, 14, &[0, 13]), whole);
        // The Game: means of the cards left, whose values are many.
        let g = TheGame::from_options(&params(json!({"players": 2}))).unwrap();
        let r = make::<TheGame>("random", &Map::new(), 1).unwrap();
        let whole = evaluate(&g, &[r.as_ref()], 40, 7, None, &|| false).unwrap();
        let parts = in_parts(&g, &[r.as_ref()], 40, &[1, 17, 18, 39]);
        assert_eq!(parts, whole);
        assert_eq!(
            parts.standings[0].cards_left.interval(),
            whole.standings[0].cards_left.interval()
        );
        assert_eq!(whole.games, 40);
        // A part round-trips through JSON (how parts travel between machines).
        let text = serde_json::to_string(&whole).unwrap();
        assert_eq!(serde_json::from_str::<Evaluation>(&text).unwrap(), whole);
        whole.validate().unwrap();
    }

    /// A tally read from outside (a pickle) is refused unless it adds up, and parts whose
    /// games together overflow do not merge.
    #[test]
    fn forged_tallies_are_refused() {
        let g = CaravanGame::from_options(&Map::new()).unwrap();
        let r = make::<CaravanGame>("random", &Map::new(), 1).unwrap();
        let i = make::<CaravanGame>("random", &Map::new(), 2).unwrap();
        let real = evaluate(&g, &[r.as_ref(), i.as_ref()], 6, 1, None, &|| false).unwrap();
        real.validate().unwrap();
        let mut more_wins = real.clone();
        more_wins.standings[0].wins = real.standings[0].games + 1;
        let mut more_games = real.clone();
        more_games.standings[1].games = real.games + 1;
        let mut lost_returns = real.clone();
        lost_returns.standings[0].returns = super::Mean::default();
        let mut huge = real.clone();
        huge.standings[0].wins = u64::MAX;
        huge.standings[0].draws = u64::MAX;
        for forged in [&more_wins, &more_games, &lost_returns, &huge] {
            let e = forged.validate().unwrap_err();
            assert_eq!(e.code(), "invalid_state", "{e}");
        }
        let mut all = real.clone();
        all.games = u64::MAX;
        let e = all.clone().merge(&real).unwrap_err();
        assert!(e.to_string().contains("more games"), "{e}");
    }

    #[test]
    fn only_parts_of_one_evaluation_merge() {
        let g = CaravanGame::from_options(&Map::new()).unwrap();
        let r = make::<CaravanGame>("random", &Map::new(), 1).unwrap();
        let i = make::<CaravanGame>("ismcts", &params(json!({"iterations": 4})), 1).unwrap();
        let mut one = evaluate_games(&g, &[r.as_ref(), i.as_ref()], 0..2, 1, None, &|| false).unwrap();
        let other = evaluate_games(&g, &[i.as_ref(), r.as_ref()], 2..4, 1, None, &|| false).unwrap();
        assert!(matches!(one.merge(&other), Err(Error::InvalidArgument(_))));
        #[allow(clippy::reversed_empty_ranges)] // a range backwards on purpose
        let backwards = 3..2;
        assert!(matches!(
            evaluate_games(&g, &[r.as_ref()], backwards, 1, None, &|| false),
            Err(Error::InvalidArgument(_))
        ));
        let empty = evaluate_games(&g, &[r.as_ref(), i.as_ref()], 5..5, 1, None, &|| false).unwrap();
        assert_eq!(empty.games, 0);
    }
    #[test]
    fn figures_are_the_rates_and_intervals_of_the_counts() {
        let mut tally = Evaluation::empty(Utility::Cooperative, [("b".to_string(), Map::new())]);
        for (i, left) in [0.0, 3.0, 12.0, 0.0, 9.0].into_iter().enumerate() {
            tally.add_game(i as u64, 1, &[-left, -left]);
        }
        let s = &tally.standings[0];
        let f = s.figures(true);
        assert_eq!((s.games, s.wins, s.perfect, s.under_10), (5, 2, 2, 4));
        assert_eq!(f.win_rate, 0.4);
        assert_eq!(f.win_rate_ci, super::wilson(2, 5));
        assert_eq!(f.mean_return, -4.8);
        let cards = f.cards.unwrap();
        assert_eq!((cards.perfect_rate, cards.under_10_rate), (0.4, 0.8));
        assert_eq!(cards.under_10_ci, super::wilson(4, 5));
        assert_eq!(cards.mean_cards_left, 4.8);
        assert_eq!(cards.mean_cards_left_ci, s.cards_left.interval());
        assert!(s.figures(false).cards.is_none());
        let none = Evaluation::empty(Utility::ZeroSum, [("b".to_string(), Map::new())]);
        let f = none.standings[0].figures(false);
        assert_eq!((f.win_rate, f.win_rate_ci), (0.0, (0.0, 1.0)));
    }
}
