//! The games by name. A new game is added here and nowhere else shared.

use serde_json::{Map, Value};

use crate::bots::Heuristic;
use crate::caravan::CaravanGame;
use crate::dog::Dog;
use crate::dynamic::DynGame;
use crate::error::{Error, Result};
use crate::game::Game;
use crate::schotten_totten::SchottenTotten;
use crate::the_game::TheGame;

type Loader = fn(&Map<String, Value>) -> Result<Box<dyn DynGame>>;

/// A registered game plays with every bot, so its state carries the bots' hooks.
fn loader<G: Game>(options: &Map<String, Value>) -> Result<Box<dyn DynGame>>
where
    G::State: Heuristic,
{
    Ok(Box::new(G::from_options(options)?))
}

/// Every game, sorted by name.
const GAMES: &[(&str, Loader)] = &[
    (CaravanGame::NAME, loader::<CaravanGame>),
    (Dog::NAME, loader::<Dog>),
    (SchottenTotten::NAME, loader::<SchottenTotten>),
    (TheGame::NAME, loader::<TheGame>),
];

/// The names of the games available, sorted.
pub fn list_games() -> Vec<&'static str> {
    GAMES.iter().map(|(name, _)| *name).collect()
}

/// Loads a game by name with its options (JSON values by option name).
pub fn load_game(name: &str, options: &Map<String, Value>) -> Result<Box<dyn DynGame>> {
    match GAMES.iter().find(|(n, _)| *n == name) {
        Some((_, load)) => load(options),
        None => Err(Error::UnknownGame {
            name: name.to_string(),
            available: list_games().join(", "),
        }),
    }
}
