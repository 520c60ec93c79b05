//! The games by name, and how a capability of every game reaches the bindings. A new
//! game is one line in [`registered_games!`](crate::registered_games) and its folder:
//! every list of the games (names, loaders, [`TypedState`], [`with_state!`](crate::with_state),
//! the tensors, the vector envs) is generated from that line.
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
use crate::dynamic::{DynGame, DynState};
use crate::error::{Error, Result};
use crate::game::Game;

type Loader = fn(&Map<String, Value>) -> Result<Box<dyn DynGame>>;

/// A registered game plays with every bot, so its state carries the bots' hooks.
fn loader<G: Game>(options: &Map<String, Value>) -> Result<Box<dyn DynGame>>
where
    G::State: Heuristic,
{
    Ok(Box::new(G::from_options(options)?))
}

/// **The registered games, each once**: its variant, its folder under `core/src/` and its
/// rules type, sorted by the game's name. A new game is one line here (and its folder).
///
/// Everything that lists the games is generated from this list: the names and loaders
/// ([`list_games`], [`load_game`]), [`TypedState`] and [`with_state!`](crate::with_state),
/// the observation tensors ([`crate::tensor`]) and [`AnyVectorEnv`](crate::vector::AnyVectorEnv)
/// with `with_vector!`. It hands the list to the macro named in brackets, after any
/// tokens given to pass on: `registered_games!([callback], a, b)` expands to
/// `callback! { a, b, [Caravan caravan CaravanGame] [Dog dog Dog] … }`.
#[doc(hidden)]
#[macro_export]
macro_rules! registered_games {
    ([$($callback:tt)+] $(, $pass:tt)*) => {
        $($callback)+! {
            $($pass,)*
            [Caravan caravan CaravanGame]
            [Dog dog Dog]
            [SchottenTotten schotten_totten SchottenTotten]
            [TheGame the_game TheGame]
        }
    };
}

/// The names and loaders of the registered games, in the list's order (sorted by name).
macro_rules! games_table {
    ($([$variant:ident $module:ident $rules:ident])*) => {
        const GAMES: &[(&str, Loader)] = &[
            $((<crate::$module::$rules as Game>::NAME, loader::<crate::$module::$rules>),)*
        ];
    };
}
registered_games!([games_table]);

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
macro_rules! typed_state {
    ($([$variant:ident $module:ident $rules:ident])*) => {
        #[derive(Clone, Copy)]
        pub enum TypedState<'a> {
            $($variant(&'a crate::$module::State),)*
        }

        impl<'a> TypedState<'a> {
            /// The typed state behind `state`. Every state the registry deals is one of these.
            pub fn of(state: &'a dyn DynState) -> TypedState<'a> {
                let any = state.as_any();
                $(
                    if let Some(s) = any.downcast_ref::<crate::$module::State>() {
                        return TypedState::$variant(s);
                    }
                )*
                unreachable!("every state behind DynState is one of a registered game")
            }
        }
    };
}
registered_games!([typed_state]);

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
        $crate::registered_games!([$crate::__with_state_arms], ($state), $s, ($body))
    };
}

/// The `match` of [`with_state!`](crate::with_state): an arm per registered game.
#[doc(hidden)]
#[macro_export]
macro_rules! __with_state_arms {
    (($state:expr), $s:ident, ($body:expr), $([$variant:ident $module:ident $rules:ident])*) => {
        match $crate::registry::TypedState::of($state) {
            $($crate::registry::TypedState::$variant($s) => $body,)*
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

    /// The registry's list is sorted by name (what `list_games` promises), and every name
    /// loads the game of that name.
    #[test]
    fn the_list_of_games_is_sorted_and_each_loads_by_its_name() {
        let names = list_games();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        assert_eq!(names, sorted);
        assert_eq!(names, ["caravan", "dog", "schotten_totten", "the_game"]);
        for name in names {
            assert_eq!(load_game(name, &Map::new()).unwrap().name(), name);
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
