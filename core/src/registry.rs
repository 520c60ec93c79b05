//! The games by name, and how a capability of every game reaches the bindings. A new
//! game is added here and nowhere else shared.
//!
//! # Adding a capability
//!
//! A capability that every game has (a method on a position, say the observation tensor
//! of the RL issue) takes four places, one of them shared:
//!
//! 1. **its declaration**, once, on the rules trait: a method of
//!    [`GameState`](crate::game::GameState) (or of
//!    [`Game`] for a property of the rule set), with a default where one fits;
//! 2. **each game's implementation**, in that game's folder (where it has no default);
//! 3. **its binding**, which reaches the typed state of whichever game it holds through
//!    [`with_state!`](crate::with_state) (a `match` over the registered games, below) and
//!    converts the result: `with_state!(state, s => s.observation_tensor(seat))`;
//! 4. **its stub** in `python/spielwerk/_spielwerk.pyi`.
//!
//! The object-safe layer ([`crate::dynamic`]) is not extended for it: `DynState` and
//! `DynGame` carry what code generic over *any* game behind `dyn` needs (bots,
//! evaluations, compact records), and grow only when such code needs more.
//!
//! Why a closed enum and not an object-safe trait: the games are a closed set, registered
//! here, so a `match` over them is exhaustive and checked by the compiler (a new game
//! that misses a capability does not build), each arm calls the typed method directly
//! (monomorphised, inlined, typed results: no `Box`, no `Value`), and nothing has to be
//! declared twice. An object-safe trait makes every capability a second declaration and a
//! forwarding impl in the dyn twin, and only admits signatures that are object-safe.

use serde_json::{Map, Value};

use crate::bots::Heuristic;
use crate::caravan::CaravanGame;
use crate::dog::Dog;
use crate::dynamic::{DynGame, DynState};
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

/// The typed state behind a [`DynState`] of a registered game: one variant per game, so
/// that a `match` reaches any capability of [`GameState`](crate::game::GameState)
/// without the dyn layer.
#[derive(Clone, Copy)]
pub enum TypedState<'a> {
    Caravan(&'a crate::caravan::State),
    Dog(&'a crate::dog::State),
    SchottenTotten(&'a crate::schotten_totten::State),
    TheGame(&'a crate::the_game::State),
}

impl<'a> TypedState<'a> {
    /// The typed state behind `state`. Every state the registry deals is one of these.
    pub fn of(state: &'a dyn DynState) -> TypedState<'a> {
        let any = state.as_any();
        if let Some(s) = any.downcast_ref::<crate::caravan::State>() {
            TypedState::Caravan(s)
        } else if let Some(s) = any.downcast_ref::<crate::dog::State>() {
            TypedState::Dog(s)
        } else if let Some(s) = any.downcast_ref::<crate::schotten_totten::State>() {
            TypedState::SchottenTotten(s)
        } else if let Some(s) = any.downcast_ref::<crate::the_game::State>() {
            TypedState::TheGame(s)
        } else {
            unreachable!("every state behind DynState is one of a registered game")
        }
    }
}

/// Evaluates `$body` with `$s` bound to the typed state (`&impl GameState`) behind
/// `$state` (a `&dyn DynState` of a registered game): a `match` over the registered
/// games, each arm monomorphised. See the module docs, "Adding a capability".
///
/// ```
/// use serde_json::Map;
/// use spielwerk_core::game::GameState;
///
/// let game = spielwerk_core::load_game("dog", &Map::new()).unwrap();
/// let state = game.new_initial_state(1);
/// // The typed method, reached through the registered game's own state type.
/// let actions = spielwerk_core::with_state!(state.as_ref(), s => s.legal_actions());
/// let mut through_dyn = Vec::new();
/// state.legal_actions_into(&mut through_dyn);
/// assert_eq!(actions, through_dyn);
/// ```
#[macro_export]
macro_rules! with_state {
    ($state:expr, $s:ident => $body:expr) => {
        match $crate::registry::TypedState::of($state) {
            $crate::registry::TypedState::Caravan($s) => $body,
            $crate::registry::TypedState::Dog($s) => $body,
            $crate::registry::TypedState::SchottenTotten($s) => $body,
            $crate::registry::TypedState::TheGame($s) => $body,
        }
    };
}

#[cfg(test)]
mod tests {
    use serde_json::Map;

    use super::{list_games, load_game};
    use crate::game::{Game, GameState};

    /// Every registered game has its arm: `with_state!` reaches the same position as the
    /// dyn layer does, for every game the registry hands out.
    #[test]
    fn every_registered_game_is_reached_by_with_state() {
        for name in list_games() {
            let game = load_game(name, &Map::new()).unwrap();
            let state = game.new_initial_state(2);
            let typed =
                crate::with_state!(state.as_ref(), s => (GameState::to_json(s), Game::num_players(s.game())));
            assert_eq!(typed, (state.to_json(), game.num_players()), "{name}");
        }
    }

    /// The match rules each game carries, as the seeds give them: a playing time in Dog
    /// only (D13), table talk in The Game only (T7).
    #[test]
    fn playing_time_and_table_talk_are_the_games_own() {
        for name in list_games() {
            let game = load_game(name, &Map::new()).unwrap();
            assert_eq!(game.has_playing_time(), name == "dog", "{name}");
            assert_eq!(game.has_table_talk(), name == "the_game", "{name}");
        }
    }
}
