//! The compact form of a state: the seed, the options and the actions, replayed on reading.
//!
//! A state dealt from a seed is fully described by that seed and its actions, and such a
//! record is consistent by construction: reading it replays every action through the move
//! check, so a forged record is refused like an illegal move. It is much shorter than the
//! readable JSON of [`crate::GameState::to_json`] and, for games of a few hundred actions,
//! faster to write and read. States that were not dealt from a seed (read from JSON,
//! built from a view) have no compact form.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::{Error, Result, shorten};
use crate::game::{Action, DynGame, DynState};

/// The first bytes of every compact record, by which [`is_compact`] knows one.
const TAG: &str = "{\"compact\":1,";

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Record {
    compact: u8,
    game: String,
    options: Map<String, Value>,
    seed: u64,
    actions: Vec<Action>,
    /// The seat of every action, only for games where several seats may move (Dog's
    /// exchange); otherwise each action is the player to move's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    seats: Option<Vec<usize>>,
}

/// Whether `text` is a compact record (rather than a state's readable JSON).
pub fn is_compact(text: &str) -> bool {
    text.starts_with(TAG)
}

/// The compact record of `state`, dealt from `seed`.
pub fn write(game: &dyn DynGame, seed: u64, state: &dyn DynState) -> String {
    let record = Record {
        compact: 1,
        game: game.name().to_string(),
        options: game.options(),
        seed,
        actions: state.history().to_vec(),
        seats: state.history_seats(),
    };
    serde_json::to_string(&record).expect("a record serializes")
}

/// Reads a compact record: checks the game and its options, then deals from the seed and
/// replays every action through the move check. Work is bounded by the game's length.
pub fn read(game: &dyn DynGame, text: &str) -> Result<(u64, Box<dyn DynState>)> {
    let record: Record = serde_json::from_str(text).map_err(|e| {
        Error::InvalidState(format!(
            "not a compact record: {}",
            crate::error::shorten_message(&e.to_string())
        ))
    })?;
    if record.game != game.name() {
        return Err(Error::InvalidState(format!(
            "the record is of the game '{}', not {}",
            shorten(&record.game),
            game.name()
        )));
    }
    if record.options != game.options() {
        return Err(Error::InvalidState(format!(
            "the record was played with the options {}, this game has {}",
            shorten(&Value::Object(record.options).to_string()),
            Value::Object(game.options())
        )));
    }
    if record.actions.len() as u64 > game.max_game_length() {
        return Err(Error::InvalidState(format!(
            "the record has {} actions; no game of {} lasts more than {}",
            record.actions.len(),
            game.name(),
            game.max_game_length()
        )));
    }
    if record
        .seats
        .as_ref()
        .is_some_and(|s| s.len() != record.actions.len())
    {
        return Err(Error::InvalidState(
            "the record's seats must name the seat of every action".into(),
        ));
    }
    let mut state = game.new_initial_state(record.seed);
    for (i, &action) in record.actions.iter().enumerate() {
        let applied = match &record.seats {
            Some(seats) if seats[i] < game.num_players() => state.apply_action_for(seats[i], action),
            Some(seats) => {
                return Err(Error::InvalidState(format!(
                    "seat {} of action {i} does not exist: seats are 0-{}",
                    seats[i],
                    game.num_players() - 1
                )));
            }
            None => state.apply_action(action),
        };
        applied.map_err(|e| {
            Error::InvalidState(format!(
                "action {i} of the record ({action}) cannot be replayed: {e}"
            ))
        })?;
    }
    Ok((record.seed, state))
}
