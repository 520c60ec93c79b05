//! Many games in Rust without the GIL: random games (`spielwerk.simulate`) and seeded
//! matches between bots (`spielwerk.evaluate`, `spielwerk.evaluate_games`).

use pyo3::prelude::*;
use pyo3::types::PyDict;
use spielwerk_core::dynamic::DynBot;
use spielwerk_core::{Error, Utility, bots};

use crate::bots::bots_arg;
use crate::convert::{Int, Reduce, Seed, Text, count_arg, run_interruptibly, threads_arg};
use crate::errors::{err, invalid_argument, raise};
use crate::games::game_arg;

/// What a batch of random games came to, counted as the game's utility says.
#[pyclass(frozen, module = "spielwerk", get_all)]
pub struct SimulationSummary {
    utility: &'static str,
    games: u64,
    wins: Vec<u64>,
    draws: u64,
    mean_length: f64,
    mean_returns: Vec<f64>,
    team_wins: Vec<u64>,
    perfect_games: u64,
    cards_left: Vec<u64>,
    mean_cards_left: f64,
}

#[pymethods]
impl SimulationSummary {
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("utility", self.utility)?;
        d.set_item("games", self.games)?;
        d.set_item("wins", self.wins.clone())?;
        d.set_item("draws", self.draws)?;
        d.set_item("mean_length", self.mean_length)?;
        d.set_item("mean_returns", self.mean_returns.clone())?;
        d.set_item("team_wins", self.team_wins.clone())?;
        d.set_item("perfect_games", self.perfect_games)?;
        d.set_item("cards_left", self.cards_left.clone())?;
        d.set_item("mean_cards_left", self.mean_cards_left)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        let head = format!(
            "SimulationSummary(utility='{}', games={}, mean_length={:.2}",
            self.utility, self.games, self.mean_length
        );
        let tail = match self.utility {
            "cooperative" => format!(
                "perfect_games={}, mean_cards_left={:.2}, mean_returns={:?}",
                self.perfect_games, self.mean_cards_left, self.mean_returns
            ),
            "team_zero_sum" => format!(
                "team_wins={:?}, draws={}, wins={:?}, mean_returns={:?}",
                self.team_wins, self.draws, self.wins, self.mean_returns
            ),
            _ => format!(
                "wins={:?}, draws={}, mean_returns={:?}",
                self.wins, self.draws, self.mean_returns
            ),
        };
        format!("{head}, {tail})")
    }
}

/// Plays `n_games` uniformly random games in Rust on `threads` threads (all cores if
/// None), without the GIL. The result depends on `seed` only, never on `threads`.
/// Ctrl-C stops it (`KeyboardInterrupt`).
#[pyfunction]
#[pyo3(
    signature = (game, n_games, seed = Seed(0), threads = None),
    text_signature = "(game, n_games, seed=0, threads=None)"
)]
pub fn simulate(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    n_games: Int,
    seed: Seed,
    threads: Option<Int>,
) -> PyResult<SimulationSummary> {
    let n_games = count_arg(py, n_games, "n_games")?;
    let threads = threads_arg(py, threads)?;
    let game = game_arg(py, game)?;
    let game = &game.get().inner;
    let s = run_interruptibly(py, |stop| game.simulate(n_games, seed.0, threads, stop))?.map_err(err(py))?;
    Ok(SimulationSummary {
        utility: s.utility.name(),
        perfect_games: s.perfect_games(),
        games: s.games,
        wins: s.wins,
        draws: s.draws,
        mean_length: s.mean_length,
        mean_returns: s.mean_returns,
        team_wins: s.team_wins,
        cards_left: s.cards_left,
        mean_cards_left: s.mean_cards_left,
    })
}

/// How one bot did in `spielwerk.evaluate`: counts, rates with their 95% intervals
/// (Wilson for shares, normal for means), and for The Game the cards left.
#[pyclass(frozen, module = "spielwerk", get_all)]
pub struct BotStanding {
    name: String,
    games: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    win_rate: f64,
    win_rate_ci: (f64, f64),
    mean_return: f64,
    mean_return_ci: (f64, f64),
    perfect_rate: Option<f64>,
    perfect_rate_ci: Option<(f64, f64)>,
    under_10_rate: Option<f64>,
    under_10_ci: Option<(f64, f64)>,
    mean_cards_left: Option<f64>,
    mean_cards_left_ci: Option<(f64, f64)>,
}

impl BotStanding {
    /// The standings of an evaluation, their figures computed by the engine.
    fn all(e: &bots::Evaluation) -> Vec<BotStanding> {
        let cooperative = e.utility == Utility::Cooperative;
        e.standings
            .iter()
            .map(|s| {
                let f = s.figures(cooperative);
                BotStanding {
                    name: s.name.clone(),
                    games: s.games,
                    wins: s.wins,
                    draws: s.draws,
                    losses: s.losses,
                    win_rate: f.win_rate,
                    win_rate_ci: f.win_rate_ci,
                    mean_return: f.mean_return,
                    mean_return_ci: f.mean_return_ci,
                    perfect_rate: f.cards.map(|c| c.perfect_rate),
                    perfect_rate_ci: f.cards.map(|c| c.perfect_rate_ci),
                    under_10_rate: f.cards.map(|c| c.under_10_rate),
                    under_10_ci: f.cards.map(|c| c.under_10_ci),
                    mean_cards_left: f.cards.map(|c| c.mean_cards_left),
                    mean_cards_left_ci: f.cards.map(|c| c.mean_cards_left_ci),
                }
            })
            .collect()
    }
}

#[pymethods]
impl BotStanding {
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("name", &self.name)?;
        d.set_item("games", self.games)?;
        d.set_item("wins", self.wins)?;
        d.set_item("draws", self.draws)?;
        d.set_item("losses", self.losses)?;
        d.set_item("win_rate", self.win_rate)?;
        d.set_item("win_rate_ci", self.win_rate_ci)?;
        d.set_item("mean_return", self.mean_return)?;
        d.set_item("mean_return_ci", self.mean_return_ci)?;
        d.set_item("perfect_rate", self.perfect_rate)?;
        d.set_item("perfect_rate_ci", self.perfect_rate_ci)?;
        d.set_item("under_10_rate", self.under_10_rate)?;
        d.set_item("under_10_ci", self.under_10_ci)?;
        d.set_item("mean_cards_left", self.mean_cards_left)?;
        d.set_item("mean_cards_left_ci", self.mean_cards_left_ci)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        let ci = |(lo, hi): (f64, f64)| format!("[{lo:.3}, {hi:.3}]");
        let head = format!(
            "BotStanding(name='{}', games={}, wins={}, draws={}, losses={}, win_rate={:.3} {}, mean_return={:.3} {}",
            self.name,
            self.games,
            self.wins,
            self.draws,
            self.losses,
            self.win_rate,
            ci(self.win_rate_ci),
            self.mean_return,
            ci(self.mean_return_ci)
        );
        match (
            self.perfect_rate,
            self.perfect_rate_ci,
            self.under_10_rate,
            self.under_10_ci,
            self.mean_cards_left,
            self.mean_cards_left_ci,
        ) {
            (Some(p), Some(pc), Some(u), Some(uc), Some(m), Some(mc)) => format!(
                "{head}, perfect_rate={p:.3} {}, under_10_rate={u:.3} {}, mean_cards_left={m:.2} {})",
                ci(pc),
                ci(uc),
                ci(mc)
            ),
            _ => format!("{head})"),
        }
    }
}

/// Plays `n_games` seeded games between `bots` in Rust on `threads` threads (all cores if
/// None), without the GIL, with the seats rotated (two-player games: each deal twice,
/// swapped); one standing per bot. The result depends on `seed` only, never on
/// `threads`. Ctrl-C stops it (`KeyboardInterrupt`).
#[pyfunction]
#[pyo3(
    signature = (game, bots, n_games, seed = Seed(0), threads = None),
    text_signature = "(game, bots, n_games, seed=0, threads=None)"
)]
pub fn evaluate(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    bots: &Bound<'_, PyAny>,
    n_games: Int,
    seed: Seed,
    threads: Option<Int>,
) -> PyResult<Vec<BotStanding>> {
    let n_games = count_arg(py, n_games, "n_games")?;
    let threads = threads_arg(py, threads)?;
    let game = game_arg(py, game)?;
    let game = game.get();
    let made = bots_arg(py, game, bots)?;
    let seated: Vec<&dyn DynBot> = made.iter().map(AsRef::as_ref).collect();
    let inner = &game.inner;
    let e = run_interruptibly(py, |stop| inner.evaluate(&seated, n_games, seed.0, threads, stop))?
        .map_err(err(py))?;
    Ok(BotStanding::all(&e))
}

/// The tally of some of a run's games (`spielwerk.evaluate_games`): parts merge exactly
/// into the tally of the whole run, so a run can be spread over processes or machines.
/// Pickles (as JSON) to travel between them.
#[pyclass(frozen, module = "spielwerk")]
pub struct EvaluationPart {
    inner: bots::Evaluation,
}

#[pymethods]
impl EvaluationPart {
    /// How many games this part tallies.
    #[getter]
    fn games(&self) -> u64 {
        self.inner.games
    }

    /// One standing per bot, as `spielwerk.evaluate` gives them for the whole run.
    fn standings(&self) -> Vec<BotStanding> {
        BotStanding::all(&self.inner)
    }

    /// This part and `other` (other games of the same run) together; parts of different
    /// bots are a `SpielwerkError`.
    fn merge(&self, py: Python<'_>, other: &EvaluationPart) -> PyResult<EvaluationPart> {
        let mut inner = self.inner.clone();
        inner.merge(&other.inner).map_err(err(py))?;
        Ok(EvaluationPart { inner })
    }

    fn to_json(&self) -> String {
        serde_json::to_string(&self.inner).expect("an evaluation serializes")
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduce<'py, (String,)>> {
        let restore = py
            .import("spielwerk._spielwerk")?
            .getattr("_restore_evaluation_part")?;
        Ok((restore, (self.to_json(),)))
    }

    fn __repr__(&self) -> String {
        let names: Vec<&str> = self.inner.standings.iter().map(|s| s.name.as_str()).collect();
        format!("EvaluationPart(games={}, bots={names:?})", self.inner.games)
    }
}

#[pyfunction]
pub fn _restore_evaluation_part(py: Python<'_>, data: Text) -> PyResult<EvaluationPart> {
    let inner: bots::Evaluation = serde_json::from_str(data.0)
        .map_err(|e| raise(py, &Error::InvalidState(format!("pickled evaluation: {e}"))))?;
    // Read from outside: derived figures are trusted only once they add up.
    inner.validate().map_err(err(py))?;
    Ok(EvaluationPart { inner })
}

/// Plays the games numbered `start` to `stop` (excluded) of the run
/// `evaluate(game, bots, n, seed)`, as that run plays them; merged, the parts of a run give
/// its standings exactly, however it was cut. Threads and Ctrl-C as in `evaluate`.
#[pyfunction]
#[pyo3(
    signature = (game, bots, start, stop, seed = Seed(0), threads = None),
    text_signature = "(game, bots, start, stop, seed=0, threads=None)"
)]
pub fn evaluate_games(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    bots: &Bound<'_, PyAny>,
    start: Int,
    stop: Int,
    seed: Seed,
    threads: Option<Int>,
) -> PyResult<EvaluationPart> {
    let (start, end) = (count_arg(py, start, "start")?, count_arg(py, stop, "stop")?);
    if start > end {
        return Err(invalid_argument(py, format!("start {start} is after stop {end}")));
    }
    let threads = threads_arg(py, threads)?;
    let game = game_arg(py, game)?;
    let game = game.get();
    let made = bots_arg(py, game, bots)?;
    let seated: Vec<&dyn DynBot> = made.iter().map(AsRef::as_ref).collect();
    let inner = &game.inner;
    let e = run_interruptibly(py, |stop| {
        inner.evaluate_games(&seated, start..end, seed.0, threads, stop)
    })?
    .map_err(err(py))?;
    Ok(EvaluationPart { inner: e })
}
