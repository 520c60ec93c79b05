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

use crate::dynamic::{DynGame, DynState};
use crate::error::{Error, Result, shorten};
use crate::game::Action;
use crate::lang::Lang;

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

/// Whether `text` is a compact record (rather than a state's readable JSON): a JSON
/// object with the field `compact`, in any spacing and field order (`json.dumps` writes
/// `", "` and `": "`, `sort_keys` puts `actions` first). No state's JSON has that field.
pub fn is_compact(text: &str) -> bool {
    if text.starts_with(TAG) {
        return true;
    }
    // Only a text that names the field at all is read to find it at the top level.
    text.contains("\"compact\"")
        && serde_json::from_str::<Map<String, Value>>(text).is_ok_and(|fields| fields.contains_key("compact"))
}

/// The compact record of `state`, dealt from `seed`: written by hand (the record is a
/// fixed layout of names and numbers), the options in the rules struct's order.
pub fn write(game: &dyn DynGame, seed: u64, state: &dyn DynState) -> String {
    use crate::json_out::{name, number, numbers};
    let history = state.history();
    let mut out = Vec::with_capacity(96 + 5 * history.len());
    out.extend_from_slice(TAG.as_bytes());
    out.extend_from_slice(br#""game":"#);
    name(&mut out, game.name());
    out.extend_from_slice(br#","options":"#);
    out.extend_from_slice(game.options_json().as_bytes());
    out.extend_from_slice(br#","seed":"#);
    number(&mut out, seed);
    out.extend_from_slice(br#","actions":"#);
    numbers(&mut out, history.iter().map(u64::from));
    if let Some(seats) = state.history_seats() {
        out.extend_from_slice(br#","seats":"#);
        numbers(&mut out, seats.into_iter().map(|s| s as u64));
    }
    out.push(b'}');
    String::from_utf8(out).expect("the record is ASCII")
}

/// A record exactly as [`write`] lays it out for `game` with its options, read without
/// serde; `None` for anything else (other spacing, key order, options or game, numbers
/// out of range), which the serde path then reads or refuses with its message.
fn read_own_layout(game: &dyn DynGame, text: &str) -> Option<Record> {
    struct Cursor<'a>(&'a [u8]);
    impl Cursor<'_> {
        fn eat(&mut self, prefix: &[u8]) -> Option<()> {
            self.0 = self.0.strip_prefix(prefix)?;
            Some(())
        }
        fn number(&mut self) -> Option<u64> {
            let digits = self.0.iter().take_while(|b| b.is_ascii_digit()).count();
            // No leading zeros (JSON has none), at most u64's 20 digits.
            if digits == 0 || digits > 20 || (digits > 1 && self.0[0] == b'0') {
                return None;
            }
            let mut n: u64 = 0;
            for &b in &self.0[..digits] {
                n = n.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
            }
            self.0 = &self.0[digits..];
            Some(n)
        }
        fn numbers(&mut self) -> Option<Vec<u64>> {
            self.eat(b"[")?;
            let mut out = Vec::new();
            if self.eat(b"]").is_some() {
                return Some(out);
            }
            loop {
                out.push(self.number()?);
                if self.eat(b",").is_none() {
                    self.eat(b"]")?;
                    return Some(out);
                }
            }
        }
    }
    let mut c = Cursor(text.as_bytes());
    c.eat(TAG.as_bytes())?;
    c.eat(br#""game":""#)?;
    c.eat(game.name().as_bytes())?;
    c.eat(br#"","options":"#)?;
    c.eat(game.options_json().as_bytes())?;
    c.eat(br#","seed":"#)?;
    let seed = c.number()?;
    c.eat(br#","actions":"#)?;
    let actions = c
        .numbers()?
        .into_iter()
        .map(|a| Action::try_from(a).ok())
        .collect::<Option<Vec<Action>>>()?;
    let seats = if c.eat(br#","seats":"#).is_some() {
        Some(
            c.numbers()?
                .into_iter()
                .map(|s| usize::try_from(s).ok())
                .collect::<Option<Vec<usize>>>()?,
        )
    } else {
        None
    };
    c.eat(b"}")?;
    if !c.0.is_empty() {
        return None;
    }
    Some(Record {
        compact: 1,
        game: String::new(),
        options: Map::new(),
        seed,
        actions,
        seats,
    })
}

/// Reads a compact record: checks the game and its options, then deals from the seed and
/// replays every action through the move check. Work is bounded by the game's length.
pub fn read(game: &dyn DynGame, text: &str) -> Result<(u64, Box<dyn DynState>)> {
    let record = match read_own_layout(game, text) {
        Some(record) => record,
        None => read_any_layout(game, text)?,
    };
    replay(game, &record).map(|state| (record.seed, state))
}

/// Any JSON layout of a record, through serde; checks the game and its options.
fn read_any_layout(game: &dyn DynGame, text: &str) -> Result<Record> {
    let record: Record = serde_json::from_str(text).map_err(|e| {
        Error::InvalidState(crate::error::serde_message(&e).map(|text, lang| match lang {
            Lang::De => format!("kein kompakter Datensatz: {text}"),
            Lang::En => format!("not a compact record: {text}"),
        }))
    })?;
    if record.game != game.name() {
        let (other, name) = (shorten(&record.game), game.name());
        return Err(Error::InvalidState(crate::msg!(
            "the record is of the game '{other}', not {name}",
            "der Datensatz ist vom Spiel '{other}', nicht von {name}"
        )));
    }
    if record.options != game.options() {
        let played = shorten(&Value::Object(record.options).to_string());
        let this = Value::Object(game.options());
        return Err(Error::InvalidState(crate::msg!(
            "the record was played with the options {played}, this game has {this}",
            "der Datensatz wurde mit den Optionen {played} gespielt, dieses Spiel hat {this}"
        )));
    }
    Ok(record)
}

/// Deals from the record's seed and replays every action through the move check.
fn replay(game: &dyn DynGame, record: &Record) -> Result<Box<dyn DynState>> {
    if record.actions.len() as u64 > game.max_game_length() {
        let (n, name, most) = (record.actions.len(), game.name(), game.max_game_length());
        return Err(Error::InvalidState(crate::msg!(
            "the record has {n} actions; no game of {name} lasts more than {most}",
            "der Datensatz hat {n} Aktionen; kein Spiel {name} dauert länger als {most}"
        )));
    }
    if record
        .seats
        .as_ref()
        .is_some_and(|s| s.len() != record.actions.len())
    {
        return Err(Error::InvalidState(crate::msg!(
            "the record's seats must name the seat of every action",
            "die Plätze des Datensatzes müssen den Platz jeder Aktion nennen"
        )));
    }
    let mut state = game.new_initial_state(record.seed);
    for (i, &action) in record.actions.iter().enumerate() {
        let applied = match &record.seats {
            Some(seats) if seats[i] < game.num_players() => state.apply_action_for(seats[i], action),
            Some(seats) => {
                let (seat, last) = (seats[i], game.num_players() - 1);
                return Err(Error::InvalidState(crate::msg!(
                    "seat {seat} of action {i} does not exist: seats are 0-{last}",
                    "Platz {seat} der Aktion {i} gibt es nicht: die Plätze sind 0-{last}"
                )));
            }
            None => state.apply_action(action),
        };
        applied.map_err(|e| {
            Error::InvalidState(e.texts().map(|text, lang| match lang {
                Lang::De => {
                    format!("Aktion {i} des Datensatzes ({action}) lässt sich nicht nachspielen: {text}")
                }
                Lang::En => format!("action {i} of the record ({action}) cannot be replayed: {text}"),
            }))
        })?;
    }
    Ok(state)
}

#[cfg(test)]
mod tests {
    use serde_json::{Map, Value};

    use crate::bots::RandomBot;
    use crate::registry::{list_games, load_game};

    #[test]
    fn the_own_layout_and_any_other_read_alike() {
        for name in list_games() {
            let game = load_game(name, &Map::new()).unwrap();
            let mut state = game.new_initial_state(4);
            let mut bot = RandomBot::new(4);
            for _ in 0..40 {
                let Some(a) = bot.step_dyn(state.as_ref()) else {
                    break;
                };
                state.apply_action(a).unwrap();
            }
            let text = super::write(game.as_ref(), 4, state.as_ref());
            assert!(super::is_compact(&text));
            assert!(super::read_own_layout(game.as_ref(), &text).is_some(), "{text}");
            let (seed, read) = super::read(game.as_ref(), &text).unwrap();
            assert_eq!((seed, read.to_json()), (4, state.to_json()));
            // serde's layout (sorted options, other spacing) takes the other path.
            let value: Value = serde_json::from_str(&text).unwrap();
            let spaced = text.replacen(",\"options\":", ", \"options\" : ", 1);
            let sorted = text.replacen(
                &game.options_json(),
                &Value::Object(game.options()).to_string(),
                1,
            );
            for other in [spaced, sorted] {
                assert!(super::is_compact(&other));
                if other != text {
                    assert!(super::read_own_layout(game.as_ref(), &other).is_none());
                }
                assert_eq!(
                    super::read(game.as_ref(), &other).unwrap().1.to_json(),
                    state.to_json()
                );
            }
            // Forged or malformed records are refused on either path, never a panic.
            let actions = value["actions"].as_array().unwrap();
            let first = actions[0].as_u64().unwrap();
            for forged in [
                text.replacen(&format!("\"actions\":[{first}"), "\"actions\":[99999", 1),
                text.replacen(
                    &format!("\"actions\":[{first}"),
                    &format!("\"actions\":[0{first}"),
                    1,
                ),
                text.replacen("\"seed\":4", "\"seed\":99999999999999999999999", 1),
                text.replacen("\"seed\":4", "\"seed\":-4", 1),
                format!("{text} x"),
                text.replacen("\"actions\":[", "\"actions\":[4294967296,", 1),
                text[..text.len() - 2].to_string(),
            ] {
                assert!(super::read(game.as_ref(), &forged).is_err(), "{forged}");
            }
        }
    }
}
