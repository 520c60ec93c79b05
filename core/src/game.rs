//! The game trait that all four games implement: the rules and nothing else.
//!
//! A game is a rule set with options ([`Game`]); a state is one position of it
//! ([`GameState`]). Actions are integers in a fixed space `0..num_distinct_actions()`
//! per game, so that bots can use masks and tensors. Shuffles are done at the start
//! from the seed (see [`crate::rng`]): there are no chance nodes, and the state holds
//! everything needed to go on, which is why it can be serialized, cloned and resampled.
//!
//! What one seat may see is a typed [`Game::View`]: an information state. Everything a
//! seat could know is in it, nothing it could not; `state_from_view` turns a view back
//! into a full state by dealing the unseen cards at random, which is what search over
//! hidden information (and a server that only has one seat's view) needs.
//!
//! The rules know no algorithm (as OpenSpiel's `State` knows none): the bots' hooks
//! (each game's heuristic, its position value, its dominant actions) are the trait
//! `bots::Heuristic`, and the object-safe layer that the registry and the bindings hold
//! is the module `dynamic`, above both. This module imports neither.

use schemars::JsonSchema;
use serde::{Serialize, de::DeserializeOwned};
use serde_json::{Map, Value};

use crate::error::{Error, IllegalAction, Message, Result};
pub use crate::history::History;
pub use crate::lang::Lang;
use crate::meta::{OptionSpec, Utility};
pub use crate::names::Names;
use crate::names::team_number;
pub use crate::tensor::ObservationTensor;

/// An action id: an index into the game's fixed action space.
pub type Action = u32;

/// A rule set with its options.
///
/// Its observation tensor is the supertrait [`ObservationTensor`], written in each game's
/// `tensor` module.
pub trait Game:
    Clone
    + PartialEq
    + Send
    + Sync
    + Serialize
    + ObservationTensor<<Self as Game>::View, <Self as Game>::State>
    + 'static
{
    type State: GameState<Game = Self>;
    /// Exactly what one seat (or a spectator) may see: an information state.
    type View: Serialize + DeserializeOwned + JsonSchema + Clone + PartialEq + std::fmt::Debug + Send + Sync;
    /// A move as JSON: one serde-tagged enum, so that parsing and the schema agree.
    type Move: Serialize + DeserializeOwned + JsonSchema;

    /// The registry name, e.g. `"schotten_totten"`.
    const NAME: &'static str;
    /// What a move looks like, for people: every error about a malformed move ends with
    /// it, so that the message says what is allowed. (The exact form is `move_schema()`.)
    const MOVE_SYNTAX: &'static str;
    /// [`Game::MOVE_SYNTAX`] in German (the JSON is the same, the words around it German).
    const MOVE_SYNTAX_DE: &'static str;

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
    /// Every option the game takes: name, type, default, allowed values, description.
    fn option_specs(&self) -> Vec<OptionSpec>;
    fn num_players(&self) -> usize;
    fn num_distinct_actions(&self) -> usize;
    /// How the players' returns relate (R1).
    fn utility(&self) -> Utility;
    /// An upper bound on the number of actions in any game under these options.
    fn max_game_length(&self) -> u64;
    /// Whether results count for a ranking: false once any house-rule variant is on.
    fn ranked(&self) -> bool {
        true
    }
    /// Whether a match may have a playing time after which the game is scored as it
    /// stands (Dog's D13); a match service offers that setting only where this holds.
    fn has_playing_time(&self) -> bool {
        false
    }
    /// Whether the players may talk at the table (The Game's T7: without numbers, see
    /// `the_game::check_talk`); a match service offers table talk only where this holds.
    fn has_table_talk(&self) -> bool {
        false
    }
    /// The seeded initial state: the same seed gives the same game on every machine.
    fn new_initial_state(&self, seed: u64) -> Self::State;
    /// Reads a state written by [`GameState::to_json`]; checks that it belongs to this
    /// game with these options and that it is consistent (every card exactly once, …).
    fn state_from_json(&self, json: &str) -> Result<Self::State>;
    /// The checks every state read from outside passes (JSON or snapshot) beyond what
    /// reading its types checks: that it is consistent, with what can be derived (the
    /// outcome, the player to move) derived and compared. After them a state plays to its
    /// end without panicking. Its options are compared separately.
    fn check_state(&self, state: &Self::State) -> Result<()>;
    /// Reads a binary snapshot written by [`GameState::to_snapshot`] and checks it like
    /// [`Game::state_from_json`]: the snapshot's header, its options, then
    /// [`Game::check_state`].
    fn state_from_snapshot(&self, bytes: &[u8]) -> Result<Self::State> {
        let state: Self::State = crate::snapshot::read(Self::NAME, bytes)?;
        check_options(state.game(), self)?;
        self.check_state(&state)?;
        Ok(state)
    }
    /// A full state whose view for the view's seat equals `view`, with every card that
    /// seat cannot see dealt uniformly at random from `seed`, as far as the view allows
    /// (hand sizes, cards known to be elsewhere, …). Depends on `view` and `seed` only.
    /// A view that no state could have is refused with [`Error::InvalidView`].
    fn state_from_view(&self, view: &Self::View, seed: u64) -> Result<Self::State>;
}

/// One position of a game.
pub trait GameState: Clone + Send + Sync + Serialize + DeserializeOwned + 'static {
    type Game: Game<State = Self>;

    /// The rules this state is played under.
    fn game(&self) -> &Self::Game;
    /// The seat to move, `None` once the game is over. Where several seats may move
    /// (Dog's exchange), the first of [`GameState::seats_to_move`].
    fn current_player(&self) -> Option<usize>;
    /// Every seat that may move now, ascending; empty once the game is over.
    fn seats_to_move(&self) -> Vec<usize> {
        self.current_player().into_iter().collect()
    }
    /// Appends the legal actions of the current player, sorted ascending, to `out`
    /// (which is cleared first).
    fn legal_actions_into(&self, out: &mut Vec<Action>);
    /// The legal actions of `seat` (empty if it may not move now).
    fn legal_actions_for(&self, seat: usize, out: &mut Vec<Action>) {
        if self.current_player() == Some(seat) {
            self.legal_actions_into(out);
        } else {
            out.clear();
        }
    }
    /// Says why `action` is illegal here, without changing anything.
    fn check_action(&self, action: Action) -> Result<(), IllegalAction>;
    /// As [`GameState::check_action`], for the action of `seat`: a seat not to move is
    /// refused with the code `not_your_turn`.
    fn check_action_for(&self, seat: usize, action: Action) -> Result<(), IllegalAction> {
        // Once the game is over every seat hears that (with the game's own ruling).
        if self.current_player() == Some(seat) || self.is_terminal() {
            self.check_action(action)
        } else {
            Err(IllegalAction::not_your_turn(seat, &self.seats_to_move()))
        }
    }
    /// Applies a legal action. An illegal one is rejected and the state is unchanged.
    fn apply_action(&mut self, action: Action) -> Result<(), IllegalAction>;
    /// As [`GameState::apply_action`], for the action of `seat`.
    fn apply_action_for(&mut self, seat: usize, action: Action) -> Result<(), IllegalAction> {
        if self.current_player() == Some(seat) || self.is_terminal() {
            self.apply_action(action)
        } else {
            Err(IllegalAction::not_your_turn(seat, &self.seats_to_move()))
        }
    }
    fn is_terminal(&self) -> bool {
        self.current_player().is_none()
    }
    /// Per-player returns (R1); all zero while the game is running.
    fn returns(&self) -> Vec<f64>;
    /// Per-player rewards of the last action; summed over the game they give
    /// [`GameState::returns`]. Every game here pays only at the end.
    fn rewards(&self) -> Vec<f64> {
        self.returns()
    }
    /// The result in one line for people, in English, e.g. "player 2 wins: three
    /// adjacent stones (4-5-6)" (seats counted from 1); `None` while the game is running.
    /// See [`GameState::result_text_named`].
    fn result_text(&self) -> Option<String> {
        self.result_text_in(Lang::En)
    }
    /// The result in one line for people in `lang` ("Spieler 2 gewinnt: drei benachbarte
    /// Steine (4-5-6)"); `None` while the game is running.
    fn result_text_in(&self, lang: Lang) -> Option<String> {
        self.result_text_named(lang, &Names::default())
    }
    /// The result in one line in `lang`, naming the seats by `names` ("Anna gewinnt: drei
    /// benachbarte Steine (4-5-6)"); `None` while the game is running. A game with its own
    /// words for its end overrides this one.
    fn result_text_named(&self, lang: Lang, names: &Names) -> Option<String> {
        let returns = self.returns();
        default_result_text(
            self.is_terminal(),
            Game::utility(self.game()),
            &returns,
            lang,
            names,
        )
    }
    /// The returns if `seat`'s side loses now by a match rule (resigning, the clock,
    /// leaving; C11, R1): in a zero-sum game the seat −1 and the others +1, in Dog its
    /// team −1 and the other +1. A cooperative game overrides it with its own loss.
    fn forfeit_returns(&self, seat: usize) -> Vec<f64> {
        let n = Game::num_players(self.game());
        match Game::utility(self.game()) {
            Utility::TeamZeroSum => (0..n)
                .map(|p| if p % 2 == seat % 2 { -1.0 } else { 1.0 })
                .collect(),
            Utility::ZeroSum => (0..n).map(|p| if p == seat { -1.0 } else { 1.0 }).collect(),
            Utility::Cooperative => vec![0.0; n],
        }
    }
    /// Each team's points if the playing time ran out now (Dog's D13: a point per marble
    /// in the goal); `None` in games without points.
    fn playing_time_points(&self) -> Option<[u32; 2]> {
        None
    }
    /// The result of a match that `end` stops now, before its game is over: the returns
    /// and the line for people in English, worded like [`GameState::result_text`] (seats
    /// counted from 1). See [`GameState::match_ending_named`].
    fn match_ending(&self, end: MatchEnd) -> Ending {
        self.match_ending_in(end, Lang::En)
    }
    /// As [`GameState::match_ending`], the line for people in `lang`.
    fn match_ending_in(&self, end: MatchEnd, lang: Lang) -> Ending {
        self.match_ending_named(end, lang, &Names::default())
    }
    /// As [`GameState::match_ending_in`], naming the seats by `names`. The line says what
    /// happened; the rule that ended the match (C11, D13) is the ending's `rule`, for a
    /// link to its text, never a code in the sentence.
    fn match_ending_named(&self, end: MatchEnd, lang: Lang, names: &Names) -> Ending {
        let n = Game::num_players(self.game());
        let Some((seat, why)) = end.loser(lang) else {
            let no_winner = |points, rule, text| Ending {
                returns: vec![0.0; n],
                points,
                rule,
                text,
            };
            return match (end, self.playing_time_points()) {
                (MatchEnd::Aborted(seat), _) => {
                    let who = names.seat(seat, lang);
                    no_winner(
                        None,
                        Some("C11"),
                        match lang {
                            Lang::De => {
                                format!("abgebrochen: {who} hat den ersten Zug nicht rechtzeitig gemacht")
                            }
                            Lang::En => format!("aborted: {who} did not make a first move in time"),
                        },
                    )
                }
                (MatchEnd::Withdrawn, _) => no_winner(
                    None,
                    None,
                    lang.pick(
                        "zurückgezogen: ein offener Platz wurde nicht rechtzeitig besetzt, \
                         die Partie hat also nie begonnen (niemand gewinnt)",
                        "withdrawn: nobody took an open seat in time, so the match never began \
                         (nobody wins)",
                    )
                    .to_string(),
                ),
                (_, Some([a, b])) => no_winner(
                    Some([a, b]),
                    Some("D13"),
                    match lang {
                        Lang::De => format!(
                            "kein Sieger: die Spielzeit ist abgelaufen; ein Punkt je Murmel im Zielraum: {a}:{b}"
                        ),
                        Lang::En => {
                            format!("no winner: the playing time is over; a point per marble home: {a}:{b}")
                        }
                    },
                ),
                (_, None) => no_winner(
                    None,
                    None,
                    lang.pick(
                        "unentschieden: die Spielzeit ist abgelaufen",
                        "a draw: the playing time is over",
                    )
                    .to_string(),
                ),
            };
        };
        let returns = self.forfeit_returns(seat);
        let outcome = default_result_text(true, Game::utility(self.game()), &returns, lang, names)
            .unwrap_or_default()
            .replace("a draw", "nobody wins")
            .replace("unentschieden", "niemand gewinnt");
        let who = names.seat(seat, lang);
        Ending {
            returns,
            points: None,
            rule: end.rule(),
            text: format!("{who} {why}: {outcome}"),
        }
    }
    /// Every action applied since the initial state (the referee's record), shared
    /// between clones: a clone costs the same early and late in a game.
    fn history(&self) -> &History;
    /// The seat behind each action of the history, where a game lets several seats move
    /// (Dog's exchange); `None` where every action was the player to move's, so that the
    /// history alone replays the game.
    fn history_seats(&self) -> Option<Vec<usize>> {
        None
    }
    /// The history as `player` saw it: `None` where the action is hidden from them (in
    /// Dog another seat's face-down pick for the exchange). In the other games every
    /// action is public.
    fn history_for(&self, player: usize) -> Vec<Option<Action>> {
        let _ = player;
        self.history().iter().map(Some).collect()
    }
    /// What `seat` may see, or with `None` what every seat may see (a spectator).
    ///
    /// Seats, here and in every method that takes a player, are `0..num_players()`; the
    /// caller checks them (the Python bindings refuse any other with a `SpielwerkError`
    /// before they reach the engine), and a game may panic on a seat it does not have.
    fn view_of(&self, seat: Option<usize>) -> <Self::Game as Game>::View;
    /// The observation tensor of `seat` (`None`: the public view) into `out`: what
    /// [`ObservationTensor::write_observation`] writes of `view_of(seat)` (by
    /// [`ObservationTensor::write_observation_of`], which skips building the view), so it holds
    /// exactly what the seat may see
    /// ([`crate::tensor`]). A seat the game does not have or a buffer whose length is not
    /// [`ObservationTensor::observation_tensor_len`] is [`Error::InvalidArgument`], and `out` is left
    /// as it was.
    fn observation_tensor_into(&self, seat: Option<usize>, out: &mut [f32]) -> Result<()> {
        let game = self.game();
        if let Some(seat) = seat {
            let players = game.num_players();
            if seat >= players {
                let last = players - 1;
                return Err(Error::InvalidArgument(crate::msg!(
                    "seat {seat}: the seats of this game are 0 to {last}",
                    "Platz {seat}: die Plätze dieses Spiels sind 0 bis {last}"
                )));
            }
        }
        let len = game.observation_tensor_len();
        if out.len() != len {
            let (game, given) = (<Self::Game as Game>::NAME, out.len());
            return Err(Error::InvalidArgument(crate::msg!(
                "the observation tensor of {game} under these options has {len} elements, the buffer {given}",
                "der Beobachtungstensor von {game} hat mit diesen Optionen {len} Elemente, der Puffer {given}"
            )));
        }
        game.write_observation_of(self, seat, out);
        Ok(())
    }
    /// The observation tensor of `seat` (`None`: the public view) in a new vector.
    fn observation_tensor(&self, seat: Option<usize>) -> Result<Vec<f32>> {
        let mut out = vec![0.0; self.game().observation_tensor_len()];
        self.observation_tensor_into(seat, &mut out)?;
        Ok(out)
    }
    /// The information-state tensor: in all four games the observation tensor, because
    /// every view already is an information state (the seat's own past decisions that
    /// are not on the table included, as Dog's exchange pick; see [`crate::tensor`]).
    fn information_state_tensor_into(&self, seat: Option<usize>, out: &mut [f32]) -> Result<()> {
        self.observation_tensor_into(seat, out)
    }
    /// Exactly what `player` may see, as JSON.
    fn view(&self, player: usize) -> Value {
        serde_json::to_value(self.view_of(Some(player))).expect("a view always serializes")
    }
    /// What every seat may see, as JSON (for spectators).
    fn public_view(&self) -> Value {
        serde_json::to_value(self.view_of(None)).expect("a view always serializes")
    }
    /// The view of `seat` (`None`: the public view) as compact JSON bytes.
    fn view_json(&self, seat: Option<usize>) -> Vec<u8> {
        serde_json::to_vec(&self.view_of(seat)).expect("a view always serializes")
    }
    /// Bytes that are equal exactly when `view(player)` is equal: the view's canonical
    /// JSON (struct fields in declaration order, no maps with free key order).
    fn information_state_key(&self, player: usize) -> Vec<u8> {
        self.view_json(Some(player))
    }
    /// A short readable text for an action (in the context of this state), in English:
    /// [`GameState::action_text`] in [`Lang::En`], as the Python API has always had it.
    fn action_to_string(&self, action: Action) -> String {
        self.action_text(action, Lang::En)
    }
    /// A short readable text for an action in `lang` (in the context of this state), e.g.
    /// "Blau 5 an Stein 4 legen" / "play B5 at stone 4". Distinct legal actions have distinct
    /// texts in each language, so a person can name a move by its text.
    fn action_text(&self, action: Action, lang: Lang) -> String;
    /// The action as a JSON move, e.g. `{"type": "play", "card": "B5", "stone": 3}`.
    fn action_to_move(&self, action: Action) -> Value;
    /// The action id of a parsed move; malformed moves are [`Error::InvalidMove`].
    /// Legality is not checked here (see [`GameState::check_action`]).
    fn encode_move(&self, mv: &<Self::Game as Game>::Move) -> Result<Action>;
    /// Parses a JSON move into an action id through the game's move enum. A malformed
    /// move is [`Error::InvalidMove`] saying what is wrong and what a move looks like.
    fn action_from_move(&self, mv: &Value) -> Result<Action> {
        let syntax = Message::new(
            <Self::Game as Game>::MOVE_SYNTAX,
            <Self::Game as Game>::MOVE_SYNTAX_DE,
        );
        // What was wrong, then what a move looks like, in each language.
        let with_syntax = |what: Message| what.map(|text, lang| format!("{text}; {}", syntax.get(lang)));
        if !mv.is_object() {
            // Serde would also take a tagged enum from a list (`["pass"]`): not a move.
            let got = crate::error::shorten(&mv.to_string());
            return Err(Error::InvalidMove(with_syntax(crate::msg!(
                "a move is a JSON object, got {got}",
                "ein Zug ist ein JSON-Objekt, nicht {got}"
            ))));
        }
        let parsed: <Self::Game as Game>::Move = serde_path_to_error::deserialize(mv).map_err(|e| {
            // Name the field a value of the wrong type sits in. serde_path_to_error knows it
            // for the tag; inside a tagged variant serde buffers the fields and forgets
            // where it was, so the move's schema tells which field does not fit.
            let path = e.path().to_string();
            let what = crate::error::serde_message(&e.into_inner());
            let field = if path == "." {
                wrong_field(&schemars::schema_for!(<Self::Game as Game>::Move).to_value(), mv)
            } else {
                Some(path)
            };
            Error::InvalidMove(with_syntax(match field {
                Some(field) => {
                    what.map(|text, lang| format!("{} `{field}`: {text}", lang.pick("Feld", "field")))
                }
                None => what,
            }))
        })?;
        self.encode_move(&parsed).map_err(|e| match e {
            // A game's own message may already end with the syntax: say it once.
            Error::InvalidMove(what) if !what.en.contains(&syntax.en) => {
                Error::InvalidMove(with_syntax(what))
            }
            other => other,
        })
    }
    /// The same position with `player`'s unseen cards dealt anew: exactly
    /// `state_from_view(view_of(player), seed)`, so it depends on nothing the seat
    /// cannot see.
    fn resample(&self, player: usize, seed: u64) -> Result<Self> {
        Game::state_from_view(self.game(), &self.view_of(Some(player)), seed)
    }
    /// The cards in `player`'s hand, in notation (for analyses and tests).
    fn hand(&self, player: usize) -> Vec<String>;
    /// A readable picture of the whole position (all hands shown), for terminals and logs,
    /// in English: [`GameState::render_for`] with no seat.
    fn render(&self) -> String {
        self.render_for(None, Lang::En)
    }
    /// The board as a terminal shows it, in `lang`: with `seat` `None` the whole position
    /// (every hand, as watched bot games print it); with a seat exactly what that seat may
    /// see (its own hand, every other hand as its size), for a person playing in a terminal.
    fn render_for(&self, seat: Option<usize>, lang: Lang) -> String;

    fn legal_actions(&self) -> Vec<Action> {
        let mut out = Vec::new();
        self.legal_actions_into(&mut out);
        out
    }
    /// Parses and checks a JSON move for `seat` (the current player if `None`):
    /// `Ok(None)` if legal, `Ok(Some(rejection))` if not.
    fn check_move(&self, mv: &Value, seat: Option<usize>) -> Result<Option<IllegalAction>> {
        let action = self.action_from_move(mv)?;
        Ok(match seat {
            Some(seat) => self.check_action_for(seat, action),
            None => self.check_action(action),
        }
        .err())
    }
    fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a game state always serializes")
    }
    /// The whole state as a binary snapshot (see [`crate::snapshot`]), read back by
    /// [`Game::state_from_snapshot`] without replaying anything.
    fn to_snapshot(&self) -> Vec<u8> {
        crate::snapshot::write(<Self::Game as Game>::NAME, self)
    }
}

/// The first field of `mv` whose JSON type its variant's schema does not allow (moves are
/// tagged by `"type"`; the schema is schemars' for the game's move enum).
fn wrong_field(schema: &Value, mv: &Value) -> Option<String> {
    let defs = &schema["$defs"];
    let resolve = |s: &'_ Value| -> Value {
        match s.get("$ref").and_then(Value::as_str) {
            Some(r) => defs[r.trim_start_matches("#/$defs/")].clone(),
            None => s.clone(),
        }
    };
    let tag = mv.get("type")?.as_str()?;
    let variants = schema.get("oneOf").or_else(|| schema.get("anyOf"))?.as_array()?;
    let variant = variants
        .iter()
        .map(&resolve)
        .find(|v| v["properties"]["type"]["const"].as_str() == Some(tag))?;
    let props = variant["properties"].as_object()?;
    mv.as_object()?.iter().find_map(|(key, value)| {
        let prop = resolve(props.get(key)?);
        let ok = fits(&prop, value)
            || prop
                .get("anyOf")
                .and_then(Value::as_array)
                .is_some_and(|alts| alts.iter().any(|alt| fits(&resolve(alt), value)));
        (!ok).then(|| key.clone())
    })
}

/// Whether `value`'s JSON type is one that `schema`'s `"type"` allows (any without one).
fn fits(schema: &Value, value: &Value) -> bool {
    let kind = |t: &str| match t {
        "integer" => value.is_i64() || value.is_u64(),
        "number" => value.is_number(),
        "string" => value.is_string(),
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        "object" => value.is_object(),
        "array" => value.is_array(),
        _ => true,
    };
    match &schema["type"] {
        Value::String(t) => kind(t),
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).any(kind),
        _ => true,
    }
}

/// The result line of [`GameState::result_text_named`] from the returns alone, naming the
/// seats by `names`.
pub fn default_result_text(
    terminal: bool,
    utility: Utility,
    returns: &[f64],
    lang: Lang,
    names: &Names,
) -> Option<String> {
    if !terminal {
        return None;
    }
    let best = returns.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let winners: Vec<usize> = (0..returns.len()).filter(|&p| returns[p] == best).collect();
    Some(match (utility, lang) {
        (Utility::Cooperative, Lang::De) => match -best {
            0.0 => "die Spieler gewinnen: jede Karte ist gespielt".to_string(),
            left => format!("die Spieler verlieren mit {left} Karten übrig"),
        },
        (Utility::Cooperative, Lang::En) => match -best {
            0.0 => "the players win: every card is played".to_string(),
            left => format!("the players lose with {left} cards left"),
        },
        _ if winners.len() == returns.len() => lang.pick("unentschieden", "a draw").to_string(),
        (Utility::TeamZeroSum, _) => {
            let (team, who) = (team_number(winners[0] % 2, lang), names.seats(&winners, lang));
            lang.pick(format!("{team} ({who}) gewinnt"), format!("{team} ({who}) wins"))
        }
        (Utility::ZeroSum, _) => {
            let who = names.seat(winners[0], lang);
            lang.pick(format!("{who} gewinnt"), format!("{who} wins"))
        }
    })
}

/// A match rule that stops a match before its game is over (C11; Dog's playing time, D13).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchEnd {
    /// The seat resigned: its side loses.
    Resigned(usize),
    /// The seat's clock ran out: its side loses.
    Time(usize),
    /// The seat was gone longer than the match allows: its side loses.
    Left(usize),
    /// The seat did not move in the time a move without a clock has: its side loses.
    NoMove(usize),
    /// The seat did not make its first move in time against a person: nobody wins.
    Aborted(usize),
    /// The playing time ran out ("nach Ablauf der Spielzeit", D13).
    PlayingTime,
    /// The match never began: a seat left open for a person was not taken in the time
    /// the match waits for one. Nobody played, so nobody wins or loses, and no seat is to
    /// blame (unlike [`MatchEnd::Aborted`], which names the seat whose first move never
    /// came, C11).
    Withdrawn,
}

impl MatchEnd {
    /// Every kind, as [`MatchEnd::parse`] takes it.
    pub const KINDS: &'static [&'static str] = &[
        "aborted",
        "left",
        "no_move",
        "playing_time",
        "resigned",
        "time",
        "withdrawn",
    ];

    /// The kind by name, with the seat it concerns (none for `playing_time` and
    /// `withdrawn`).
    pub fn parse(kind: &str, seat: Option<usize>) -> Result<Self> {
        let need = |seat: Option<usize>| {
            seat.ok_or_else(|| {
                Error::InvalidArgument(crate::msg!(
                    "a match ended by '{kind}' needs the seat it concerns",
                    "eine Partie, die durch '{kind}' endet, braucht den Platz, den es betrifft"
                ))
            })
        };
        Ok(match kind {
            "resigned" => MatchEnd::Resigned(need(seat)?),
            "time" => MatchEnd::Time(need(seat)?),
            "left" => MatchEnd::Left(need(seat)?),
            "no_move" => MatchEnd::NoMove(need(seat)?),
            "aborted" => MatchEnd::Aborted(need(seat)?),
            "playing_time" if seat.is_none() => MatchEnd::PlayingTime,
            "playing_time" => {
                return Err(Error::InvalidArgument(crate::msg!(
                    "the playing time ends the match for every seat: give no seat",
                    "die Spielzeit beendet die Partie für jeden Platz: gib keinen Platz an"
                )));
            }
            "withdrawn" if seat.is_none() => MatchEnd::Withdrawn,
            "withdrawn" => {
                return Err(Error::InvalidArgument(crate::msg!(
                    "a withdrawn match never began, so no seat is to blame: give no seat",
                    "eine zurückgezogene Partie hat nie begonnen, kein Platz ist schuld: gib keinen Platz an"
                )));
            }
            _ => {
                let (kind, kinds) = (crate::error::shorten(kind), Self::KINDS.join(", "));
                return Err(Error::InvalidArgument(crate::msg!(
                    "no match rule '{kind}' (one of {kinds})",
                    "keine Partieregel '{kind}' (eine von {kinds})"
                )));
            }
        })
    }

    /// The seat concerned, if any.
    pub fn seat(self) -> Option<usize> {
        match self {
            MatchEnd::Resigned(s)
            | MatchEnd::Time(s)
            | MatchEnd::Left(s)
            | MatchEnd::NoMove(s)
            | MatchEnd::Aborted(s) => Some(s),
            MatchEnd::PlayingTime | MatchEnd::Withdrawn => None,
        }
    }

    /// The seat whose side loses and what it did, for the ends that make someone lose.
    fn loser(self, lang: Lang) -> Option<(usize, &'static str)> {
        match self {
            MatchEnd::Resigned(s) => Some((s, lang.pick("hat aufgegeben", "resigned"))),
            MatchEnd::Time(s) => Some((s, lang.pick("hat die Zeit überschritten", "ran out of time"))),
            MatchEnd::Left(s) => Some((s, lang.pick("hat die Partie verlassen", "left the match"))),
            MatchEnd::NoMove(s) => Some((
                s,
                lang.pick("hat nicht rechtzeitig gezogen", "did not move in time"),
            )),
            MatchEnd::Aborted(_) | MatchEnd::PlayingTime | MatchEnd::Withdrawn => None,
        }
    }

    /// The ruling that ends a match this way, for a link to its text: C11 for the clock,
    /// leaving, a missed move and the first move; none for resigning or a withdrawn match.
    /// (Dog's playing time, D13, is the game's: see [`GameState::match_ending_named`].)
    pub fn rule(self) -> Option<&'static str> {
        match self {
            MatchEnd::Time(_) | MatchEnd::Left(_) | MatchEnd::NoMove(_) | MatchEnd::Aborted(_) => Some("C11"),
            MatchEnd::Resigned(_) | MatchEnd::PlayingTime | MatchEnd::Withdrawn => None,
        }
    }
}

/// How a match stopped by a [`MatchEnd`] ends: returns as R1 has them, D13's points where
/// the game has points, the ruling that ended it (for a "Regel" link; never in the text)
/// and the line for people.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ending {
    pub returns: Vec<f64>,
    pub points: Option<[u32; 2]>,
    pub rule: Option<&'static str>,
    pub text: String,
}

/// Reads a state written by [`GameState::to_json`] and checks that it was played under
/// `rules` (`rules_of` finds them in the state); the game checks the rest.
pub fn parse_state<S: DeserializeOwned, R: PartialEq + Serialize>(
    json: &str,
    game: &str,
    rules: &R,
    rules_of: impl Fn(&S) -> &R,
) -> Result<S> {
    let state: S = serde_json::from_str(json).map_err(|e| Error::InvalidState(not_a_state(game, &e)))?;
    check_options(rules_of(&state), rules)?;
    Ok(state)
}

/// "not a {game} state: {what serde says}", in both languages.
pub fn not_a_state(game: &str, error: &dyn std::fmt::Display) -> Message {
    crate::error::serde_message(error).map(|text, lang| match lang {
        Lang::De => format!("keine Stellung von {game}: {text}"),
        Lang::En => format!("not a {game} state: {text}"),
    })
}

/// Refuses a state read from outside that was `played` under other options than `this`
/// game's, naming the options that differ.
pub fn check_options<R: PartialEq + Serialize>(played: &R, this: &R) -> Result<()> {
    if played != this {
        // Name only the options that differ: "kings_add=true, this game has kings_add=false".
        let (played, this) = (serde_json::to_value(played), serde_json::to_value(this));
        let (Ok(Value::Object(played)), Ok(Value::Object(this))) = (played, this) else {
            return Err(Error::InvalidState(crate::msg!(
                "the state was played with other options",
                "die Stellung wurde mit anderen Optionen gespielt"
            )));
        };
        let differ: Vec<&String> = played.keys().filter(|k| played.get(*k) != this.get(*k)).collect();
        let show = |m: &Map<String, Value>| {
            differ
                .iter()
                .map(|k| format!("{k}={}", m[k.as_str()]))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let (played, this) = (show(&played), show(&this));
        return Err(Error::InvalidState(crate::msg!(
            "the state was played with the options {played}, this game has {this}",
            "die Stellung wurde mit den Optionen {played} gespielt, dieses Spiel hat {this}"
        )));
    }
    Ok(())
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
            let (name, known) = (crate::error::shorten(name), known.join(", "));
            return Err(Error::InvalidOption {
                game,
                message: if known.is_empty() {
                    crate::msg!(
                        "unknown option '{name}' (it has no options)",
                        "unbekannte Option '{name}' (es hat keine Optionen)"
                    )
                } else {
                    crate::msg!(
                        "unknown option '{name}' (allowed: {known})",
                        "unbekannte Option '{name}' (erlaubt: {known})"
                    )
                },
            });
        }
    }
    Ok(())
}
