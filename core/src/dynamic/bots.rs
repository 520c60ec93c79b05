//! Bots behind `dyn`, made by name for one game.

use std::marker::PhantomData;

use serde_json::{Map, Value};

use crate::bots::levels;
use crate::bots::{
    Bot, Heuristic, HeuristicBot, Ismcts, IsmctsParams, Params, Pimc, PimcParams, RandomBot, never,
    reject_unknown_params, seed_for_view,
};
use crate::error::{Error, Result};
use crate::game::{Action, Game};

use super::DynState;

/// The object-safe face of a bot made for one game, as the registry, Python and
/// [`evaluate`](super::evaluate::evaluate) hold it.
pub trait DynBot: Send + Sync {
    /// The bot's name in the registry (`"ismcts"`, `"random"`).
    fn name(&self) -> &'static str;
    /// The level it was made as (`"strong"`), if it was made by a level's name
    /// ([`crate::bots::levels`]).
    fn level(&self) -> Option<&'static str> {
        None
    }
    /// The game the bot was made for.
    fn game_name(&self) -> &'static str;
    /// The bot's own seed: every decision is derived from it.
    fn seed(&self) -> u64;
    /// Every parameter with its value, defaults included (round-trips through [`make`]).
    fn params(&self) -> Map<String, Value>;
    /// As [`Bot::searches`].
    fn searches(&self) -> bool;
    /// As [`Bot::choose_until`]; a state of another game is refused.
    fn choose_until(
        &self,
        state: &dyn DynState,
        seat: usize,
        seed: u64,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<Option<Action>>;
    /// As [`Bot::choose`]; a state of another game is refused.
    fn choose(&self, state: &dyn DynState, seat: usize, seed: u64) -> Result<Option<Action>> {
        self.choose_until(state, seat, seed, &never)
    }
    fn clone_box(&self) -> Box<dyn DynBot>;

    /// The action of `seat` (the player to move if `None`), seeded by the bot's seed and
    /// the seat's information state, so equal views get equal moves. `None` once the
    /// game is over; a seat that may not move now is refused.
    fn step(&self, state: &dyn DynState, seat: Option<usize>) -> Result<Option<Action>> {
        self.step_until(state, seat, &never)
    }

    /// As [`DynBot::step`], giving up with [`Error::Interrupted`] once `stop` returns true.
    fn step_until(
        &self,
        state: &dyn DynState,
        seat: Option<usize>,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<Option<Action>> {
        let Some(seat) = seat.or_else(|| state.current_player()) else {
            return Ok(None);
        };
        let to_move = state.seats_to_move();
        if !to_move.contains(&seat) {
            return Err(Error::InvalidArgument(crate::msg!(
                "player {seat} may not move now (to move: {to_move:?})",
                "Spieler {seat} darf jetzt nicht ziehen (am Zug: {to_move:?})"
            )));
        }
        let seed = seed_for_view(self.seed(), &state.information_state_key(seat));
        self.choose_until(state, seat, seed, stop)
    }
}

impl Clone for Box<dyn DynBot> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// Decides for the player to move in each of `states` at once, on all cores: entry `i`
/// is `bot.step(states[i], None)` (`None` for a finished game), so the result depends
/// on the bot's seed and the states alone, never on the threads. Stops with
/// [`Error::Interrupted`] once `stop` returns true (asked before each state).
pub fn step_many(
    bot: &dyn DynBot,
    states: &[&dyn DynState],
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<Vec<Option<Action>>> {
    use rayon::prelude::*;
    states
        .par_iter()
        .map(|state| bot.step_until(*state, None, stop))
        .collect()
}

/// The names of the bots every game has, sorted.
pub const NAMES: &[&str] = &["heuristic", "ismcts", "pimc", "random"];

/// The bots available for `G`, sorted.
pub fn names<G: Game>() -> Vec<&'static str> {
    NAMES.to_vec()
}

/// Makes the bot `name` for the game `G` with `params` (JSON values by name) and `seed`;
/// `name` may also be a level's (`"strong"`, [`crate::bots::levels`]), which takes only
/// a time bound. An unknown name is [`Error::UnknownBot`], an unknown parameter or a
/// value out of range [`Error::InvalidBotParams`]; both name what is allowed.
pub fn make<G: Game>(name: &str, params: &Map<String, Value>, seed: u64) -> Result<Box<dyn DynBot>>
where
    G::State: Heuristic,
{
    if levels::is_level(name) {
        let level = levels::resolve(G::NAME, name, params)?;
        let inner = make::<G>(level.bot, &level.params, seed)?;
        return Ok(Box::new(AtLevel {
            level: level.name,
            inner,
        }));
    }
    match name {
        "random" => {
            reject_unknown_params("random", params, &[])?;
            Ok(Box::new(ForGame::<G, _>::new(
                "random",
                RandomBot::new(seed),
                seed,
            )))
        }
        "heuristic" => {
            reject_unknown_params("heuristic", params, &[])?;
            Ok(Box::new(ForGame::<G, _>::new("heuristic", HeuristicBot, seed)))
        }
        "ismcts" => {
            let bot = Ismcts::new(IsmctsParams::from_json(params)?);
            Ok(Box::new(ForGame::<G, _>::new("ismcts", bot, seed)))
        }
        "pimc" => {
            let bot = Pimc::new(PimcParams::from_json(params)?);
            Ok(Box::new(ForGame::<G, _>::new("pimc", bot, seed)))
        }
        _ => Err(Error::UnknownBot {
            name: name.to_string(),
            game: G::NAME,
            available: names::<G>()
                .into_iter()
                .chain(levels::NAMES.iter().copied())
                .collect::<Vec<_>>()
                .join(", "),
        }),
    }
}

/// A bot made by a level's name: the level's bot, which says which level it is.
struct AtLevel {
    level: &'static str,
    inner: Box<dyn DynBot>,
}

impl DynBot for AtLevel {
    fn name(&self) -> &'static str {
        self.inner.name()
    }
    fn level(&self) -> Option<&'static str> {
        Some(self.level)
    }
    fn game_name(&self) -> &'static str {
        self.inner.game_name()
    }
    fn seed(&self) -> u64 {
        self.inner.seed()
    }
    fn params(&self) -> Map<String, Value> {
        self.inner.params()
    }
    fn searches(&self) -> bool {
        self.inner.searches()
    }
    fn choose_until(
        &self,
        state: &dyn DynState,
        seat: usize,
        seed: u64,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<Option<Action>> {
        self.inner.choose_until(state, seat, seed, stop)
    }
    fn clone_box(&self) -> Box<dyn DynBot> {
        Box::new(AtLevel {
            level: self.level,
            inner: self.inner.clone_box(),
        })
    }
}

/// A [`Bot`] of game `G` behind [`DynBot`].
struct ForGame<G, B> {
    name: &'static str,
    bot: B,
    seed: u64,
    game: PhantomData<fn() -> G>,
}

impl<G, B> ForGame<G, B> {
    fn new(name: &'static str, bot: B, seed: u64) -> Self {
        Self {
            name,
            bot,
            seed,
            game: PhantomData,
        }
    }
}

impl<G: Game, B: Bot<G::State> + Params + Clone + 'static> DynBot for ForGame<G, B> {
    fn name(&self) -> &'static str {
        self.name
    }
    fn game_name(&self) -> &'static str {
        G::NAME
    }
    fn seed(&self) -> u64 {
        self.seed
    }
    fn params(&self) -> Map<String, Value> {
        self.bot.params()
    }
    fn searches(&self) -> bool {
        Bot::<G::State>::searches(&self.bot)
    }
    fn choose_until(
        &self,
        state: &dyn DynState,
        seat: usize,
        seed: u64,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<Option<Action>> {
        let state = state.as_any().downcast_ref::<G::State>().ok_or_else(|| {
            let (name, game) = (&self.name, G::NAME);
            Error::InvalidArgument(crate::msg!(
                "this {name} bot plays {game}: the state is of another game",
                "dieser Bot {name} spielt {game}: die Stellung ist von einem anderen Spiel"
            ))
        })?;
        self.bot.choose_until(state, seat, seed, stop)
    }
    fn clone_box(&self) -> Box<dyn DynBot> {
        Box::new(Self::new(self.name, self.bot.clone(), self.seed))
    }
}

impl RandomBot {
    /// As [`RandomBot::step`], for a state behind the object-safe layer.
    pub fn step_dyn(&mut self, state: &dyn DynState) -> Option<Action> {
        self.step_with(|buf| state.legal_actions_into(buf))
    }
}
