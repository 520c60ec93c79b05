//! The object-safe layer: games, states and bots behind `dyn`, as the registry hands them
//! out and the Python bindings hold them.
//!
//! It sits above the rules ([`crate::game`]) and the algorithms ([`crate::bots`],
//! [`crate::simulate`]) and imports both; neither imports it. [`DynGame`] and
//! [`DynState`] are implemented once for every [`Game`] and [`GameState`] by the blanket
//! impls below; [`DynBot`] is a [`crate::bots::Bot`] made for one game by name ([`make`]).

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::bots::{Evaluation, Heuristic};
use crate::error::{Error, IllegalAction, Result};
use crate::game::{Action, Game, GameState, History};
use crate::meta::{OptionSpec, Utility};

mod bots;
pub mod evaluate;

pub use crate::bots::never;
pub use bots::{DynBot, NAMES, make, names, step_many};

/// The object-safe face of a [`Game`], as the registry and the bindings use it.
pub trait DynGame: Send + Sync {
    fn name(&self) -> &'static str;
    fn options(&self) -> Map<String, Value>;
    /// The options as compact JSON, fields in the rules struct's order (cheaper than
    /// [`DynGame::options`], which builds a map).
    fn options_json(&self) -> String;
    fn option_specs(&self) -> Vec<OptionSpec>;
    fn num_players(&self) -> usize;
    fn num_distinct_actions(&self) -> usize;
    fn utility(&self) -> Utility;
    fn max_game_length(&self) -> u64;
    fn ranked(&self) -> bool;
    fn has_playing_time(&self) -> bool;
    fn has_table_talk(&self) -> bool;
    /// The JSON Schema of the game's view (`view(p)`, `public_view()`).
    fn view_schema(&self) -> Value;
    /// The JSON Schema of the game's moves.
    fn move_schema(&self) -> Value;
    fn new_initial_state(&self, seed: u64) -> Box<dyn DynState>;
    /// Reads a serialized state and refuses one that is inconsistent, including a
    /// running game in which nobody has a legal action.
    fn deserialize_state(&self, json: &str) -> Result<Box<dyn DynState>>;
    /// As [`DynGame::deserialize_state`], from a binary snapshot.
    fn deserialize_snapshot(&self, bytes: &[u8]) -> Result<Box<dyn DynState>>;
    /// [`Game::state_from_view`] on a view given as JSON.
    fn state_from_view(&self, view: &Value, seed: u64) -> Result<Box<dyn DynState>>;
    /// Plays `n_games` uniformly random games on `threads` threads (all cores if `None`);
    /// stops early with [`Error::Interrupted`] once `stop` returns true.
    fn simulate(
        &self,
        n_games: u64,
        seed: u64,
        threads: Option<usize>,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<crate::Summary>;
    fn clone_box(&self) -> Box<dyn DynGame>;
    /// The names of the bots that play this game, sorted.
    fn bot_names(&self) -> Vec<&'static str>;
    /// Makes the bot `name` for this game (see [`make`]).
    fn make_bot(&self, name: &str, params: &Map<String, Value>, seed: u64) -> Result<Box<dyn DynBot>>;
    /// Plays seeded matches between `bots` (see [`evaluate::evaluate`]).
    fn evaluate(
        &self,
        bots: &[&dyn DynBot],
        n_games: u64,
        seed: u64,
        threads: Option<usize>,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<Evaluation>;
    /// Plays the games numbered `games` of that run: one part of it, to merge with
    /// [`Evaluation::merge`] (see [`evaluate::evaluate_games`]).
    fn evaluate_games(
        &self,
        bots: &[&dyn DynBot],
        games: std::ops::Range<u64>,
        seed: u64,
        threads: Option<usize>,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<Evaluation>;
}

/// The schema of `T` as a JSON value.
fn schema_value<T: JsonSchema>() -> Value {
    schemars::schema_for!(T).to_value()
}

impl<G: Game> DynGame for G
where
    G::State: Heuristic,
{
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn options(&self) -> Map<String, Value> {
        Game::options(self)
    }
    fn options_json(&self) -> String {
        serde_json::to_string(self).expect("game options serialize")
    }
    fn option_specs(&self) -> Vec<OptionSpec> {
        Game::option_specs(self)
    }
    fn num_players(&self) -> usize {
        Game::num_players(self)
    }
    fn num_distinct_actions(&self) -> usize {
        Game::num_distinct_actions(self)
    }
    fn utility(&self) -> Utility {
        Game::utility(self)
    }
    fn max_game_length(&self) -> u64 {
        Game::max_game_length(self)
    }
    fn ranked(&self) -> bool {
        Game::ranked(self)
    }
    fn has_playing_time(&self) -> bool {
        Game::has_playing_time(self)
    }
    fn has_table_talk(&self) -> bool {
        Game::has_table_talk(self)
    }
    fn view_schema(&self) -> Value {
        schema_value::<G::View>()
    }
    fn move_schema(&self) -> Value {
        schema_value::<G::Move>()
    }
    fn new_initial_state(&self, seed: u64) -> Box<dyn DynState> {
        Box::new(Game::new_initial_state(self, seed))
    }
    fn deserialize_state(&self, json: &str) -> Result<Box<dyn DynState>> {
        playable(self.state_from_json(json)?)
    }
    fn deserialize_snapshot(&self, bytes: &[u8]) -> Result<Box<dyn DynState>> {
        playable(self.state_from_snapshot(bytes)?)
    }
    fn state_from_view(&self, view: &Value, seed: u64) -> Result<Box<dyn DynState>> {
        let view = G::View::deserialize(view).map_err(|e| {
            Error::InvalidView(crate::error::serde_message(&e).map(|text, lang| match lang {
                crate::Lang::De => format!("keine Sicht von {}: {text}", G::NAME),
                crate::Lang::En => format!("not a {} view: {text}", G::NAME),
            }))
        })?;
        Ok(Box::new(Game::state_from_view(self, &view, seed)?))
    }
    fn simulate(
        &self,
        n_games: u64,
        seed: u64,
        threads: Option<usize>,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<crate::Summary> {
        crate::simulate::simulate_until(self, n_games, seed, threads, stop)
    }
    fn clone_box(&self) -> Box<dyn DynGame> {
        Box::new(self.clone())
    }
    fn bot_names(&self) -> Vec<&'static str> {
        bots::names::<G>()
    }
    fn make_bot(&self, name: &str, params: &Map<String, Value>, seed: u64) -> Result<Box<dyn DynBot>> {
        bots::make::<G>(name, params, seed)
    }
    fn evaluate(
        &self,
        bots: &[&dyn DynBot],
        n_games: u64,
        seed: u64,
        threads: Option<usize>,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<Evaluation> {
        evaluate::evaluate(self, bots, n_games, seed, threads, stop)
    }
    fn evaluate_games(
        &self,
        bots: &[&dyn DynBot],
        games: std::ops::Range<u64>,
        seed: u64,
        threads: Option<usize>,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<Evaluation> {
        evaluate::evaluate_games(self, bots, games, seed, threads, stop)
    }
}

/// A state read from outside, refused if the game is not over yet nobody has a legal action.
fn playable<S: GameState>(state: S) -> Result<Box<dyn DynState>> {
    if !GameState::is_terminal(&state) {
        let mut actions = Vec::new();
        GameState::legal_actions_into(&state, &mut actions);
        if actions.is_empty() {
            return Err(Error::InvalidState(crate::msg!(
                "nobody has a legal action, yet the game is not over",
                "niemand hat eine erlaubte Aktion, doch das Spiel ist nicht vorbei"
            )));
        }
    }
    Ok(Box::new(state))
}

/// The object-safe face of a [`GameState`].
pub trait DynState: Send + Sync {
    fn current_player(&self) -> Option<usize>;
    fn seats_to_move(&self) -> Vec<usize>;
    fn legal_actions_into(&self, out: &mut Vec<Action>);
    fn legal_actions_for(&self, seat: usize, out: &mut Vec<Action>);
    fn check_action(&self, action: Action) -> Result<(), IllegalAction>;
    fn check_action_for(&self, seat: usize, action: Action) -> Result<(), IllegalAction>;
    fn apply_action(&mut self, action: Action) -> Result<(), IllegalAction>;
    fn apply_action_for(&mut self, seat: usize, action: Action) -> Result<(), IllegalAction>;
    fn is_terminal(&self) -> bool;
    fn returns(&self) -> Vec<f64>;
    fn rewards(&self) -> Vec<f64>;
    fn result_text(&self) -> Option<String>;
    fn history(&self) -> &History;
    fn history_for(&self, player: usize) -> Vec<Option<Action>>;
    fn history_seats(&self) -> Option<Vec<usize>>;
    fn view(&self, player: usize) -> Value;
    fn public_view(&self) -> Value;
    fn view_json(&self, seat: Option<usize>) -> Vec<u8>;
    fn information_state_key(&self, player: usize) -> Vec<u8>;
    fn action_to_string(&self, action: Action) -> String;
    fn action_to_move(&self, action: Action) -> Value;
    fn action_from_move(&self, mv: &Value) -> Result<Action>;
    fn check_move(&self, mv: &Value, seat: Option<usize>) -> Result<Option<IllegalAction>>;
    fn resample(&self, player: usize, seed: u64) -> Result<Box<dyn DynState>>;
    fn hand(&self, player: usize) -> Vec<String>;
    fn render(&self) -> String;
    fn to_json(&self) -> String;
    fn to_snapshot(&self) -> Vec<u8>;
    fn clone_box(&self) -> Box<dyn DynState>;
    /// The concrete state, for code generic over a game behind this layer (bots).
    fn as_any(&self) -> &dyn std::any::Any;
}

impl<S: GameState> DynState for S {
    fn current_player(&self) -> Option<usize> {
        GameState::current_player(self)
    }
    fn seats_to_move(&self) -> Vec<usize> {
        GameState::seats_to_move(self)
    }
    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        GameState::legal_actions_into(self, out);
    }
    fn legal_actions_for(&self, seat: usize, out: &mut Vec<Action>) {
        GameState::legal_actions_for(self, seat, out);
    }
    fn check_action(&self, action: Action) -> Result<(), IllegalAction> {
        GameState::check_action(self, action)
    }
    fn check_action_for(&self, seat: usize, action: Action) -> Result<(), IllegalAction> {
        GameState::check_action_for(self, seat, action)
    }
    fn apply_action(&mut self, action: Action) -> Result<(), IllegalAction> {
        GameState::apply_action(self, action)
    }
    fn apply_action_for(&mut self, seat: usize, action: Action) -> Result<(), IllegalAction> {
        GameState::apply_action_for(self, seat, action)
    }
    fn is_terminal(&self) -> bool {
        GameState::is_terminal(self)
    }
    fn returns(&self) -> Vec<f64> {
        GameState::returns(self)
    }
    fn rewards(&self) -> Vec<f64> {
        GameState::rewards(self)
    }
    fn result_text(&self) -> Option<String> {
        GameState::result_text(self)
    }
    fn history(&self) -> &History {
        GameState::history(self)
    }
    fn history_for(&self, player: usize) -> Vec<Option<Action>> {
        GameState::history_for(self, player)
    }
    fn history_seats(&self) -> Option<Vec<usize>> {
        GameState::history_seats(self)
    }
    fn view(&self, player: usize) -> Value {
        GameState::view(self, player)
    }
    fn public_view(&self) -> Value {
        GameState::public_view(self)
    }
    fn view_json(&self, seat: Option<usize>) -> Vec<u8> {
        GameState::view_json(self, seat)
    }
    fn information_state_key(&self, player: usize) -> Vec<u8> {
        GameState::information_state_key(self, player)
    }
    fn action_to_string(&self, action: Action) -> String {
        GameState::action_to_string(self, action)
    }
    fn action_to_move(&self, action: Action) -> Value {
        GameState::action_to_move(self, action)
    }
    fn action_from_move(&self, mv: &Value) -> Result<Action> {
        GameState::action_from_move(self, mv)
    }
    fn check_move(&self, mv: &Value, seat: Option<usize>) -> Result<Option<IllegalAction>> {
        GameState::check_move(self, mv, seat)
    }
    fn resample(&self, player: usize, seed: u64) -> Result<Box<dyn DynState>> {
        Ok(Box::new(GameState::resample(self, player, seed)?))
    }
    fn hand(&self, player: usize) -> Vec<String> {
        GameState::hand(self, player)
    }
    fn render(&self) -> String {
        GameState::render(self)
    }
    fn to_json(&self) -> String {
        GameState::to_json(self)
    }
    fn to_snapshot(&self) -> Vec<u8> {
        GameState::to_snapshot(self)
    }
    fn clone_box(&self) -> Box<dyn DynState> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
