//! The game trait that all four games implement, and its object-safe twin.
//!
//! A game is a rule set with options ([`Game`]); a state is one position of it
//! ([`GameState`]). Actions are integers in a fixed space `0..num_distinct_actions()`
//! per game, so that bots can use masks and tensors. Shuffles are done at the start
//! from the seed (see [`crate::rng`]): there are no chance nodes, and the state holds
//! everything needed to go on, which is why it can be serialized, cloned and resampled.

use serde::{Serialize, de::DeserializeOwned};
use serde_json::{Map, Value};

use crate::error::{Error, IllegalAction, Result};

/// An action id: an index into the game's fixed action space.
pub type Action = u32;

/// A rule set with its options.
pub trait Game: Clone + Send + Sync + Serialize + 'static {
    type State: GameState;

    /// The registry name, e.g. `"schotten_totten"`.
    const NAME: &'static str;

    /// Builds the game from options given as JSON values. Unknown names and
    /// values out of range are rejected with [`Error::InvalidOption`].
    fn from_options(options: &Map<String, Value>) -> Result<Self>;
    /// Every option with its value, defaults included (round-trips through `from_options`):
    /// the rules struct's fields.
    fn options(&self) -> Map<String, Value> {
        match serde_json::to_value(self) {
            Ok(Value::Object(map)) => map,
            _ => unreachable!("game options serialize as a JSON object"),
        }
    }
    fn num_players(&self) -> usize;
    fn num_distinct_actions(&self) -> usize;
    /// Whether results count for a ranking: false once any house-rule variant is on.
    fn ranked(&self) -> bool {
        true
    }
    /// The seeded initial state: the same seed gives the same game on every machine.
    fn new_initial_state(&self, seed: u64) -> Self::State;
    /// Reads a state written by [`GameState::to_json`]; checks that it belongs to this
    /// game with these options and that it is consistent (every card exactly once, …).
    fn state_from_json(&self, json: &str) -> Result<Self::State>;
}

/// One position of a game.
pub trait GameState: Clone + Send + Sync + Serialize + DeserializeOwned + 'static {
    /// The seat to move, `None` once the game is over.
    fn current_player(&self) -> Option<usize>;
    /// Appends the legal actions, sorted ascending, to `out` (which is cleared first).
    fn legal_actions_into(&self, out: &mut Vec<Action>);
    /// Says why `action` is illegal here, without changing anything.
    fn check_action(&self, action: Action) -> Result<(), IllegalAction>;
    /// Applies a legal action. An illegal one is rejected and the state is unchanged.
    fn apply_action(&mut self, action: Action) -> Result<(), IllegalAction>;
    fn is_terminal(&self) -> bool {
        self.current_player().is_none()
    }
    /// Per-player returns (R1); all zero while the game is running.
    fn returns(&self) -> Vec<f64>;
    /// Every action applied since the initial state (the referee's record).
    fn history(&self) -> &[Action];
    /// The history as `player` saw it: `None` where the action is hidden from them (in
    /// Dog another seat's face-down pick for the exchange). In the other games every
    /// action is public.
    fn history_for(&self, player: usize) -> Vec<Option<Action>> {
        let _ = player;
        self.history().iter().copied().map(Some).collect()
    }
    /// Exactly what `player` may see, as JSON.
    fn view(&self, player: usize) -> Value;
    /// A short readable text for an action (in the context of this state).
    fn action_to_string(&self, action: Action) -> String;
    /// The action as a JSON move, e.g. `{"type": "play", "card": "B5", "stone": 3}`.
    fn action_to_move(&self, action: Action) -> Value;
    /// Parses a JSON move into an action id; malformed moves are [`Error::InvalidMove`].
    /// Legality is not checked here (see [`GameState::check_action`]).
    fn action_from_move(&self, mv: &Value) -> Result<Action>;
    /// A full state whose `view(player)` is identical to this one's, with every card
    /// hidden from `player` dealt anew from `seed`.
    fn resample(&self, player: usize, seed: u64) -> Self;
    /// The cards in `player`'s hand, in notation (for analyses and tests).
    fn hand(&self, player: usize) -> Vec<String>;
    /// A readable picture of the whole position (all hands shown), for terminals and logs.
    fn render(&self) -> String;

    fn legal_actions(&self) -> Vec<Action> {
        let mut out = Vec::new();
        self.legal_actions_into(&mut out);
        out
    }
    /// Parses and checks a JSON move: `Ok(None)` if legal, `Ok(Some(reason))` if not.
    fn check_move(&self, mv: &Value) -> Result<Option<String>> {
        let action = self.action_from_move(mv)?;
        Ok(self.check_action(action).err().map(|e| e.to_string()))
    }
    fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a game state always serializes")
    }
}

/// The object-safe face of a [`Game`], as the registry and the bindings use it.
pub trait DynGame: Send + Sync {
    fn name(&self) -> &'static str;
    fn options(&self) -> Map<String, Value>;
    fn num_players(&self) -> usize;
    fn num_distinct_actions(&self) -> usize;
    fn ranked(&self) -> bool;
    fn new_initial_state(&self, seed: u64) -> Box<dyn DynState>;
    fn deserialize_state(&self, json: &str) -> Result<Box<dyn DynState>>;
    /// Plays `n_games` uniformly random games on `threads` threads (all cores if `None`).
    fn simulate(&self, n_games: u64, seed: u64, threads: Option<usize>) -> Result<crate::Summary>;
    fn clone_box(&self) -> Box<dyn DynGame>;
}

impl<G: Game> DynGame for G {
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn options(&self) -> Map<String, Value> {
        Game::options(self)
    }
    fn num_players(&self) -> usize {
        Game::num_players(self)
    }
    fn num_distinct_actions(&self) -> usize {
        Game::num_distinct_actions(self)
    }
    fn ranked(&self) -> bool {
        Game::ranked(self)
    }
    fn new_initial_state(&self, seed: u64) -> Box<dyn DynState> {
        Box::new(Game::new_initial_state(self, seed))
    }
    fn deserialize_state(&self, json: &str) -> Result<Box<dyn DynState>> {
        Ok(Box::new(self.state_from_json(json)?))
    }
    fn simulate(&self, n_games: u64, seed: u64, threads: Option<usize>) -> Result<crate::Summary> {
        crate::simulate::simulate(self, n_games, seed, threads)
    }
    fn clone_box(&self) -> Box<dyn DynGame> {
        Box::new(self.clone())
    }
}

/// The object-safe face of a [`GameState`].
pub trait DynState: Send + Sync {
    fn current_player(&self) -> Option<usize>;
    fn legal_actions_into(&self, out: &mut Vec<Action>);
    fn check_action(&self, action: Action) -> Result<(), IllegalAction>;
    fn apply_action(&mut self, action: Action) -> Result<(), IllegalAction>;
    fn is_terminal(&self) -> bool;
    fn returns(&self) -> Vec<f64>;
    fn history(&self) -> &[Action];
    fn history_for(&self, player: usize) -> Vec<Option<Action>>;
    fn view(&self, player: usize) -> Value;
    fn action_to_string(&self, action: Action) -> String;
    fn action_to_move(&self, action: Action) -> Value;
    fn action_from_move(&self, mv: &Value) -> Result<Action>;
    fn check_move(&self, mv: &Value) -> Result<Option<String>>;
    fn resample(&self, player: usize, seed: u64) -> Box<dyn DynState>;
    fn hand(&self, player: usize) -> Vec<String>;
    fn render(&self) -> String;
    fn to_json(&self) -> String;
    fn clone_box(&self) -> Box<dyn DynState>;
}

impl<S: GameState> DynState for S {
    fn current_player(&self) -> Option<usize> {
        GameState::current_player(self)
    }
    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        GameState::legal_actions_into(self, out)
    }
    fn check_action(&self, action: Action) -> Result<(), IllegalAction> {
        GameState::check_action(self, action)
    }
    fn apply_action(&mut self, action: Action) -> Result<(), IllegalAction> {
        GameState::apply_action(self, action)
    }
    fn is_terminal(&self) -> bool {
        GameState::is_terminal(self)
    }
    fn returns(&self) -> Vec<f64> {
        GameState::returns(self)
    }
    fn history(&self) -> &[Action] {
        GameState::history(self)
    }
    fn history_for(&self, player: usize) -> Vec<Option<Action>> {
        GameState::history_for(self, player)
    }
    fn view(&self, player: usize) -> Value {
        GameState::view(self, player)
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
    fn check_move(&self, mv: &Value) -> Result<Option<String>> {
        GameState::check_move(self, mv)
    }
    fn resample(&self, player: usize, seed: u64) -> Box<dyn DynState> {
        Box::new(GameState::resample(self, player, seed))
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
    fn clone_box(&self) -> Box<dyn DynState> {
        Box::new(self.clone())
    }
}

/// Reads a state written by [`GameState::to_json`] and checks that it was played under
/// `rules` (`rules_of` finds them in the state); the game checks the rest.
pub fn parse_state<S: DeserializeOwned, R: PartialEq + Serialize>(
    json: &str,
    game: &str,
    rules: &R,
    rules_of: impl Fn(&S) -> &R,
) -> Result<S> {
    let state: S =
        serde_json::from_str(json).map_err(|e| Error::InvalidState(format!("not a {game} state: {e}")))?;
    if rules_of(&state) != rules {
        // Name only the options that differ: "kings_add=true, this game has kings_add=false".
        let (played, this) = (
            serde_json::to_value(rules_of(&state)),
            serde_json::to_value(rules),
        );
        let (Ok(Value::Object(played)), Ok(Value::Object(this))) = (played, this) else {
            return Err(Error::InvalidState(
                "the state was played with other options".into(),
            ));
        };
        let differ: Vec<&String> = played.keys().filter(|k| played.get(*k) != this.get(*k)).collect();
        let show = |m: &Map<String, Value>| {
            differ
                .iter()
                .map(|k| format!("{k}={}", m[k.as_str()]))
                .collect::<Vec<_>>()
                .join(", ")
        };
        return Err(Error::InvalidState(format!(
            "the state was played with the options {}, this game has {}",
            show(&played),
            show(&this)
        )));
    }
    Ok(state)
}

/// R1: +1 for each player on the winning side, −1 for the others; 0 for all while the
/// game runs or after a draw. `side` maps a player to their side (a team in Dog).
pub fn winner_returns(players: usize, winner: Option<usize>, side: impl Fn(usize) -> usize) -> Vec<f64> {
    match winner {
        Some(w) => (0..players)
            .map(|p| if side(p) == w { 1.0 } else { -1.0 })
            .collect(),
        None => vec![0.0; players],
    }
}

/// Rejects option names a game does not know, naming the ones it does.
pub fn reject_unknown_options(
    game: &'static str,
    options: &Map<String, Value>,
    known: &[&str],
) -> Result<()> {
    for name in options.keys() {
        if !known.contains(&name.as_str()) {
            let allowed = if known.is_empty() {
                "it has no options".to_string()
            } else {
                format!("allowed: {}", known.join(", "))
            };
            return Err(Error::InvalidOption {
                game,
                message: format!("unknown option '{name}' ({allowed})"),
            });
        }
    }
    Ok(())
}
