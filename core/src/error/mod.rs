//! Typed errors. Every message says what was wrong and what is allowed.
//!
//! Two kinds of "no": [`Error`] for input that is malformed or does not fit the game
//! (an unknown game, a bad option, a state or move that cannot be read), and
//! [`IllegalAction`] for a well-formed action that the rules forbid in this position.
//! The bindings turn both into Python exceptions of one family (`SpielwerkError`).

use std::fmt;
use std::str::FromStr;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::lang::Lang;

/// The longest piece of caller input that an error message repeats.
const SHOWN_CHARS: usize = 40;

/// Caller input as an error message repeats it: at most [`SHOWN_CHARS`] characters, so a
/// megabyte of junk is not echoed back whole.
pub fn shorten(text: &str) -> String {
    match text.char_indices().nth(SHOWN_CHARS) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}… ({} characters)", &text[..cut], text.chars().count()),
    }
}

/// The longest error message passed on whole; longer ones (which can only come from
/// repeating caller input) are cut.
const MESSAGE_CHARS: usize = 300;

/// An error message that may repeat caller input (serde quotes it in backticks): each
/// quoted piece is cut short, and the whole to [`MESSAGE_CHARS`] characters.
pub fn shorten_message(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(MESSAGE_CHARS + 16));
    for (i, piece) in text.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        // Odd pieces lie between backticks: quoted input.
        if i % 2 == 1 {
            out.push_str(&shorten(piece));
        } else {
            out.push_str(piece);
        }
    }
    match out.char_indices().nth(MESSAGE_CHARS) {
        None => out,
        Some((cut, _)) => format!("{}… (cut)", &out[..cut]),
    }
}

/// A well-formed action that the rules forbid in this state.
///
/// `rule` is the ruling that forbids it (e.g. `"S5"`), `code` a stable identifier a
/// client can branch on (e.g. `"not_provable"`), `params` the values the reason names
/// (the stone, the card, …), and the reason is given in English and in German (the seeds
/// are German, and so is the web page first). The state it was checked against is left
/// exactly as it was. `Display` shows `"{rule}: {reason}"`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{rule}: {reason}")]
pub struct IllegalAction {
    pub rule: &'static str,
    pub code: &'static str,
    pub params: Map<String, Value>,
    pub reason: String,
    pub reason_de: String,
}

impl IllegalAction {
    /// A rejection under `rule` with a stable `code` and the reason in English and German.
    pub fn new(
        rule: &'static str,
        code: &'static str,
        reason: impl Into<String>,
        reason_de: impl Into<String>,
    ) -> Self {
        Self {
            rule,
            code,
            params: Map::new(),
            reason: reason.into(),
            reason_de: reason_de.into(),
        }
    }

    /// `"{rule}: {reason}"` in both languages (as `Display` shows it in English).
    pub fn texts(&self) -> Message {
        Message::new(
            format!("{}: {}", self.rule, self.reason),
            format!("{}: {}", self.rule, self.reason_de),
        )
    }

    /// Adds a value the reason refers to (`"stone"`, `"card"`, …) for clients to show
    /// in their own words.
    #[must_use]
    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.params.insert(key.to_string(), value.into());
        self
    }

    /// An id outside the game's action space `0..num_actions`: any integer a caller may
    /// give (Python's have no width), in `params` as a number where JSON's integers hold
    /// it and as its digits otherwise.
    pub fn no_such_action(action: impl Into<i128>, num_actions: usize) -> Self {
        let action: i128 = action.into();
        let last = num_actions.saturating_sub(1);
        let value = i64::try_from(action).map_or_else(|_| Value::String(action.to_string()), Value::from);
        Self::new(
            "actions",
            "no_such_action",
            format!("action {action} does not exist: actions are 0-{last}"),
            format!("Aktion {action} gibt es nicht: Aktionen sind 0-{last}"),
        )
        .with("action", value)
        .with("num_actions", num_actions)
    }

    /// A card the mover does not hold, under `rule`: `card` in notation (the English text and
    /// `params`), `card_de` as a German player says it; the seat counted from 1 in the texts.
    /// The caller adds the seat to `params` under its game's key.
    pub fn card_not_in_hand(rule: &'static str, card: &str, card_de: &str, seat: usize) -> Self {
        use crate::names::seat_number;
        let (who, who_de) = (seat_number(seat, Lang::En), seat_number(seat, Lang::De));
        Self::new(
            rule,
            "card_not_in_hand",
            format!("{card} is not in {who}'s hand"),
            format!("{card_de} ist nicht auf der Hand von {who_de}"),
        )
        .with("card", card)
    }

    /// A move by a seat that is not to move now. `to_move` are the seats that are.
    /// Seats are counted from 1 in the texts, as a person counts ("Spieler 1 ist nicht am
    /// Zug: am Zug ist Spieler 2"); `params` keep the ids.
    pub fn not_your_turn(seat: usize, to_move: &[usize]) -> Self {
        use crate::names::{and_list, seat_number, shown};
        // "2", "1, 2 und 3": the seats to move by their numbers.
        let numbers: Vec<String> = to_move.iter().map(|&s| shown(s).to_string()).collect();
        let list = |lang: Lang| and_list(&numbers, lang);
        let (who, who_de) = (seat_number(seat, Lang::En), seat_number(seat, Lang::De));
        let (reason, reason_de) = if to_move.is_empty() {
            (
                format!("{who} cannot move: the game is over"),
                format!("{who_de} kann nicht ziehen: das Spiel ist vorbei"),
            )
        } else if to_move.len() == 1 {
            (
                format!("it is not {who}'s turn: player {} is to move", list(Lang::En)),
                format!("{who_de} ist nicht am Zug: am Zug ist Spieler {}", list(Lang::De)),
            )
        } else {
            (
                format!("it is not {who}'s turn: players {} are to move", list(Lang::En)),
                format!(
                    "{who_de} ist nicht am Zug: am Zug sind die Spieler {}",
                    list(Lang::De)
                ),
            )
        };
        Self::new("turn", "not_your_turn", reason, reason_de)
            .with("seat", seat)
            .with("to_move", to_move.to_vec())
    }
}

/// A text for people in English and in German, side by side (as a rejection's `reason`
/// and `reason_de`): what an [`Error`] says. `Display` shows the English one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Message {
    pub en: String,
    pub de: String,
}

impl Message {
    /// The text in English and in German.
    pub fn new(en: impl Into<String>, de: impl Into<String>) -> Self {
        Self {
            en: en.into(),
            de: de.into(),
        }
    }

    /// The text in `lang`.
    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::De => &self.de,
            Lang::En => &self.en,
        }
    }

    /// Each text rewritten by `f` (given the text and its language), e.g. to put a
    /// place before it in its own language.
    #[must_use]
    pub fn map(self, f: impl Fn(String, Lang) -> String) -> Self {
        Self {
            en: f(self.en, Lang::En),
            de: f(self.de, Lang::De),
        }
    }
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.en)
    }
}

/// A [`Message`] from two format strings, English first, each with the values it names
/// (`msg!("card {card} twice", "Karte {card} doppelt")`).
#[macro_export]
macro_rules! msg {
    ($en:literal, $de:literal $(,)?) => {
        $crate::error::Message::new(format!($en), format!($de))
    };
}

/// Everything that can go wrong when talking to the engine. Every text is in English
/// (`Display`) and in German ([`Error::message`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    #[error("unknown game '{}': available games are {available}", shorten(.name))]
    UnknownGame { name: String, available: String },
    #[error("invalid option for {game}: {message}")]
    InvalidOption { game: &'static str, message: Message },
    #[error("invalid card '{}': {allowed}", shorten(.card))]
    InvalidCard { card: String, allowed: Message },
    #[error("invalid move: {0}")]
    InvalidMove(Message),
    #[error("invalid state: {0}")]
    InvalidState(Message),
    #[error("invalid view: {0}")]
    InvalidView(Message),
    #[error("invalid argument: {0}")]
    InvalidArgument(Message),
    #[error("unknown bot '{}' for {game}: available bots are {available}", shorten(.name))]
    UnknownBot {
        name: String,
        game: &'static str,
        available: String,
    },
    #[error("invalid bot parameters: {0}")]
    InvalidBotParams(Message),
    #[error("illegal action: {0}")]
    Illegal(#[from] IllegalAction),
    #[error("interrupted")]
    Interrupted,
}

impl Error {
    /// A stable identifier of the kind of error, for clients to branch on.
    pub fn code(&self) -> &'static str {
        match self {
            Error::UnknownGame { .. } => "unknown_game",
            Error::InvalidOption { .. } => "invalid_option",
            Error::InvalidCard { .. } => "invalid_card",
            Error::InvalidMove(_) => "invalid_move",
            Error::InvalidState(_) => "invalid_state",
            Error::InvalidView(_) => "invalid_view",
            Error::InvalidArgument(_) => "invalid_argument",
            Error::UnknownBot { .. } => "unknown_bot",
            Error::InvalidBotParams(_) => "invalid_bot_params",
            Error::Illegal(e) => e.code,
            Error::Interrupted => "interrupted",
        }
    }

    /// What went wrong, in `lang`: in English exactly `to_string()`, in German the same
    /// facts in German (what was refused and what is allowed).
    pub fn message(&self, lang: Lang) -> String {
        if lang == Lang::En {
            return self.to_string();
        }
        match self {
            Error::UnknownGame { name, available } => {
                format!(
                    "unbekanntes Spiel '{}': es gibt die Spiele {available}",
                    shorten(name)
                )
            }
            Error::InvalidOption { game, message } => {
                format!("ungültige Option für {game}: {}", message.de)
            }
            Error::InvalidCard { card, allowed } => {
                format!("ungültige Karte '{}': {}", shorten(card), allowed.de)
            }
            Error::InvalidMove(m) => format!("ungültiger Zug: {}", m.de),
            Error::InvalidState(m) => format!("ungültige Stellung: {}", m.de),
            Error::InvalidView(m) => format!("ungültige Sicht: {}", m.de),
            Error::InvalidArgument(m) => format!("ungültige Angabe: {}", m.de),
            Error::UnknownBot {
                name,
                game,
                available,
            } => format!(
                "unbekannter Bot '{}' für {game}: es gibt die Bots {available}",
                shorten(name)
            ),
            Error::InvalidBotParams(m) => format!("ungültige Bot-Einstellungen: {}", m.de),
            Error::Illegal(e) => format!("Zug gegen die Regeln: {}: {}", e.rule, e.reason_de),
            Error::Interrupted => "unterbrochen".to_string(),
        }
    }

    /// The error's own text (without the kind's words in front) in both languages, for
    /// an error that becomes part of another (`"env 3: …"`).
    pub fn texts(&self) -> Message {
        Message::new(self.to_string(), self.message(Lang::De))
    }
}

mod serde_german;

pub use serde_german::{custom, serde_message};

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Reading a language's code: here rather than in `lang.rs`, so that the language stays
/// below the errors that name texts by it.
impl FromStr for Lang {
    type Err = Error;

    /// `"de"` or `"en"` (any case, a region such as `de-CH` allowed); anything else is
    /// [`Error::InvalidArgument`].
    fn from_str(s: &str) -> Result<Self, Error> {
        let primary = s.split(['-', '_']).next().unwrap_or("").trim();
        if primary.eq_ignore_ascii_case("de") {
            Ok(Lang::De)
        } else if primary.eq_ignore_ascii_case("en") {
            Ok(Lang::En)
        } else {
            let s = shorten(s);
            Err(Error::InvalidArgument(crate::msg!(
                "no language '{s}': 'de' (German) or 'en' (English)",
                "keine Sprache '{s}': 'de' (Deutsch) oder 'en' (Englisch)"
            )))
        }
    }
}

#[cfg(test)]
mod tests;
