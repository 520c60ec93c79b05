//! Typed errors. Every message says what was wrong and what is allowed.
//!
//! Two kinds of "no": [`Error`] for input that is malformed or does not fit the game
//! (an unknown game, a bad option, a state or move that cannot be read), and
//! [`IllegalAction`] for a well-formed action that the rules forbid in this position.
//! The bindings turn both into Python exceptions of one family (`SpielwerkError`).

use serde::Serialize;
use serde_json::{Map, Value};

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

    /// A move by a seat that is not to move now. `to_move` are the seats that are.
    pub fn not_your_turn(seat: usize, to_move: &[usize]) -> Self {
        let list = |and: &str| match to_move {
            [] => String::new(),
            [one] => one.to_string(),
            [rest @ .., last] => {
                let rest: Vec<String> = rest.iter().map(usize::to_string).collect();
                format!("{} {and} {last}", rest.join(", "))
            }
        };
        let (reason, reason_de) = if to_move.is_empty() {
            (
                format!("player {seat} cannot move: the game is over"),
                format!("Spieler {seat} kann nicht ziehen: das Spiel ist vorbei"),
            )
        } else if to_move.len() == 1 {
            (
                format!(
                    "it is not player {seat}'s turn: player {} is to move",
                    list("and")
                ),
                format!(
                    "Spieler {seat} ist nicht am Zug: am Zug ist Spieler {}",
                    list("und")
                ),
            )
        } else {
            (
                format!(
                    "it is not player {seat}'s turn: players {} are to move",
                    list("and")
                ),
                format!(
                    "Spieler {seat} ist nicht am Zug: am Zug sind die Spieler {}",
                    list("und")
                ),
            )
        };
        Self::new("turn", "not_your_turn", reason, reason_de)
            .with("seat", seat)
            .with("to_move", to_move.to_vec())
    }
}

/// Everything that can go wrong when talking to the engine.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    #[error("unknown game '{}': available games are {available}", shorten(.name))]
    UnknownGame { name: String, available: String },
    #[error("invalid option for {game}: {message}")]
    InvalidOption { game: &'static str, message: String },
    #[error("invalid card '{}': {allowed}", shorten(.card))]
    InvalidCard { card: String, allowed: String },
    #[error("invalid move: {0}")]
    InvalidMove(String),
    #[error("invalid state: {0}")]
    InvalidState(String),
    #[error("invalid view: {0}")]
    InvalidView(String),
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
    #[error("unknown bot '{}' for {game}: available bots are {available}", shorten(.name))]
    UnknownBot {
        name: String,
        game: &'static str,
        available: String,
    },
    #[error("invalid bot parameters: {0}")]
    InvalidBotParams(String),
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
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_input_is_cut_short() {
        let junk = "x".repeat(1_000_000);
        let shown = Error::InvalidCard {
            card: junk,
            allowed: "cards are B5, …".into(),
        }
        .to_string();
        assert!(shown.len() < 200, "{shown}");
        assert!(shown.contains("1000000 characters"));
        assert_eq!(shorten("B5"), "B5");
        let serde = format!(
            "unknown variant `{}`, expected one of `play`, `pass`",
            "x".repeat(10_000)
        );
        let cut = shorten_message(&serde);
        assert!(
            cut.len() < 150 && cut.ends_with("expected one of `play`, `pass`"),
            "{cut}"
        );
    }

    #[test]
    fn not_your_turn_names_who_is() {
        let e = IllegalAction::not_your_turn(1, &[0]);
        assert_eq!(e.code, "not_your_turn");
        assert_eq!(
            e.to_string(),
            "turn: it is not player 1's turn: player 0 is to move"
        );
        let e = IllegalAction::not_your_turn(3, &[0, 1, 2]);
        assert!(
            e.reason.contains("players 0, 1 and 2 are to move"),
            "{}",
            e.reason
        );
        assert!(e.reason_de.contains("Spieler 0, 1 und 2"), "{}", e.reason_de);
    }
}
