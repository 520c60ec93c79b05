//! Typed errors. Every message says what was wrong and what is allowed.
//!
//! Two kinds of "no": [`Error`] for input that is malformed or does not fit the game
//! (an unknown game, a bad option, a state or move that cannot be read), and
//! [`IllegalAction`] for a well-formed action that the rules forbid in this position.
//! The bindings turn both into Python exceptions of one family (`SpielwerkError`).

use std::fmt;

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

// -- serde's messages in German ---------------------------------------------------------

thread_local! {
    /// The German of the last few custom messages this thread's `Deserialize` impls gave
    /// serde ([`custom`]), by their English text: serde carries one text only, and
    /// [`serde_message`] finds the German here when the error comes back.
    static CUSTOM_DE: std::cell::RefCell<Vec<(String, String)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// How many custom messages [`CUSTOM_DE`] remembers (a deserialization stops at its first
/// error, so one is the usual number).
const CUSTOM_KEPT: usize = 8;

/// A serde error with a custom message in both languages: serde gets the English text,
/// and the German one is remembered for [`serde_message`].
pub fn custom<E: serde::de::Error>(message: Message) -> E {
    CUSTOM_DE.with(|kept| {
        let mut kept = kept.borrow_mut();
        if kept.len() >= CUSTOM_KEPT {
            kept.remove(0);
        }
        kept.push((message.en.clone(), message.de));
    });
    E::custom(message.en)
}

/// An error from serde (`serde_json`'s, through `Display`) in both languages: serde's and
/// `serde_json`'s fixed messages in German, caller input quoted as it was and cut short
/// ([`shorten_message`]); a custom message of ours in the German given to [`custom`].
pub fn serde_message(error: &dyn fmt::Display) -> Message {
    // Worded in German whole, then both cut (a cut message has lost the words to match).
    let full = error.to_string();
    let de = serde_german(&full);
    Message {
        en: shorten_message(&full),
        de: shorten_message(&de),
    }
}

/// serde's and `serde_json`'s message forms, English to German (their words only: quoted
/// input, type names and numbers are kept).
fn serde_german(en: &str) -> String {
    // serde_json ends with the place: "… at line 1 column 5".
    let (head, place) = match en.rfind(" at line ") {
        Some(at) if en[at..].contains(" column ") => {
            let rest = &en[at + " at line ".len()..];
            let (line, column) = rest.split_once(" column ").unwrap_or((rest, ""));
            (&en[..at], format!(" (Zeile {line}, Spalte {column})"))
        }
        _ => (en, String::new()),
    };
    let kept = CUSTOM_DE.with(|kept| {
        kept.borrow()
            .iter()
            .rev()
            .find(|(e, _)| head.ends_with(e.as_str()))
            .map(|(e, d)| {
                // (A path in front, "stones[3]: …", is kept as it is.)
                format!("{}{d}", &head[..head.len() - e.len()])
            })
    });
    let de = kept.unwrap_or_else(|| serde_head_german(head));
    format!("{de}{place}")
}

/// One of serde's messages (without `serde_json`'s place) in German.
fn serde_head_german(head: &str) -> String {
    const FIXED: &[(&str, &str)] = &[
        ("EOF while parsing a list", "das JSON endet mitten in einer Liste"),
        (
            "EOF while parsing an object",
            "das JSON endet mitten in einem Objekt",
        ),
        (
            "EOF while parsing a string",
            "das JSON endet mitten in einer Zeichenkette",
        ),
        ("EOF while parsing a value", "das JSON endet, bevor ein Wert kam"),
        ("expected `:`", "erwartet: `:`"),
        ("expected `,` or `]`", "erwartet: `,` oder `]`"),
        ("expected `,` or `}`", "erwartet: `,` oder `}`"),
        ("expected ident", "erwartet: ein Wort (true, false oder null)"),
        ("expected value", "erwartet: ein JSON-Wert"),
        ("expected `\"`", "erwartet: `\"`"),
        ("invalid escape", "ungültige Escape-Folge"),
        ("invalid number", "ungültige Zahl"),
        ("number out of range", "Zahl außerhalb des Bereichs"),
        ("invalid unicode code point", "ungültiger Unicode-Codepunkt"),
        (
            "control character (\\u0000-\\u001F) found while parsing a string",
            "Steuerzeichen (\\u0000-\\u001F) in einer Zeichenkette",
        ),
        ("key must be a string", "Schlüssel müssen Zeichenketten sein"),
        (
            "lone leading surrogate in hex escape",
            "einzelnes Ersatzzeichen in einer Escape-Folge",
        ),
        ("trailing comma", "Komma am Ende"),
        ("trailing characters", "Zeichen nach dem Ende des JSON"),
        ("unexpected end of hex escape", "unvollständige Escape-Folge"),
        ("recursion limit exceeded", "zu tief verschachtelt"),
        (
            "invalid value: expected key to be a number in quotes",
            "ungültiger Wert: erwartet war ein Schlüssel, der eine Zahl in Anführungszeichen ist",
        ),
        (
            "float key must be finite (got NaN or +/-inf)",
            "ein Schlüssel als Kommazahl muss endlich sein (nicht NaN oder +/-inf)",
        ),
    ];
    if let Some((_, de)) = FIXED.iter().find(|(en, _)| *en == head) {
        return (*de).to_string();
    }
    // "invalid type: string \"x\", expected u8" and its kin.
    for (en, de) in [
        ("invalid type: ", "falscher Typ: "),
        ("invalid value: ", "ungültiger Wert: "),
    ] {
        if let Some(rest) = head.strip_prefix(en)
            && let Some((unexpected, expected)) = rest.split_once(", expected ")
        {
            return format!(
                "{de}{}, erwartet: {}",
                unexpected_german(unexpected),
                expected_german(expected)
            );
        }
    }
    if let Some(rest) = head.strip_prefix("invalid length ")
        && let Some((len, expected)) = rest.split_once(", expected ")
    {
        return format!("falsche Länge {len}, erwartet: {}", expected_german(expected));
    }
    for (en, de, none_en, none_de) in [
        (
            "unknown variant ",
            "unbekannte Art ",
            "there are no variants",
            "es gibt keine Arten",
        ),
        (
            "unknown field ",
            "unbekanntes Feld ",
            "there are no fields",
            "es gibt keine Felder",
        ),
    ] {
        if let Some(rest) = head.strip_prefix(en) {
            return match rest.split_once(", expected ") {
                Some((name, allowed)) => {
                    format!("{de}{name}, erlaubt: {}", expected_german(allowed))
                }
                None => match rest.split_once(", ") {
                    Some((name, tail)) if tail == none_en => format!("{de}{name}, {none_de}"),
                    _ => format!("{de}{rest}"),
                },
            };
        }
    }
    for (en, de) in [
        ("missing field ", "fehlendes Feld "),
        ("duplicate field ", "doppeltes Feld "),
    ] {
        if let Some(name) = head.strip_prefix(en) {
            return format!("{de}{name}");
        }
    }
    // A message of its own (a Deserialize impl's custom text that was not remembered):
    // kept as it is.
    head.to_string()
}

/// serde's `Unexpected` (what the input held) in German.
fn unexpected_german(text: &str) -> String {
    const KINDS: &[(&str, &str)] = &[
        ("boolean ", "Wahrheitswert "),
        ("integer ", "ganze Zahl "),
        ("floating point ", "Kommazahl "),
        ("character ", "Zeichen "),
        ("string ", "Zeichenkette "),
    ];
    const WHOLE: &[(&str, &str)] = &[
        ("byte array", "Bytefolge"),
        ("unit value", "leerer Wert"),
        ("null", "null"),
        ("Option value", "optionaler Wert"),
        ("newtype struct", "Wert"),
        ("sequence", "Liste"),
        ("map", "Objekt"),
        ("enum", "Aufzählung"),
        ("unit variant", "Art ohne Felder"),
        ("newtype variant", "Art mit Wert"),
        ("tuple variant", "Art mit Werten"),
        ("struct variant", "Art mit Feldern"),
    ];
    if let Some((_, de)) = WHOLE.iter().find(|(en, _)| *en == text) {
        return (*de).to_string();
    }
    KINDS
        .iter()
        .find_map(|(en, de)| text.strip_prefix(en).map(|rest| format!("{de}{rest}")))
        .unwrap_or_else(|| text.to_string())
}

/// serde's `Expected` (what was allowed) in German: its common forms; type names (`u8`,
/// `struct State`) and our own phrases are kept.
fn expected_german(text: &str) -> String {
    const WHOLE: &[(&str, &str)] = &[
        ("a string", "eine Zeichenkette"),
        ("a borrowed string", "eine Zeichenkette"),
        ("a sequence", "eine Liste"),
        ("a map", "ein Objekt"),
        ("a boolean", "ein Wahrheitswert"),
        ("a character", "ein Zeichen"),
        ("unit", "ein leerer Wert"),
        ("option", "ein Wert oder null"),
        ("a tuple", "eine Liste fester Länge"),
        ("a byte array", "eine Bytefolge"),
        ("an entry in range", "ein Eintrag im Bereich"),
        (
            "the index of one of the game's cards",
            "die Nummer einer Karte des Spiels",
        ),
        ("map with a single key", "ein Objekt mit genau einem Schlüssel"),
        ("unit variant", "eine Art ohne Felder"),
        ("newtype variant", "eine Art mit Wert"),
        ("tuple variant", "eine Art mit Werten"),
        ("struct variant", "eine Art mit Feldern"),
        ("variant identifier", "der Name einer Art"),
        ("field identifier", "der Name eines Feldes"),
        ("fewer elements in map", "weniger Einträge im Objekt"),
        ("fewer elements in array", "weniger Elemente in der Liste"),
        ("a negative integer", "eine negative ganze Zahl"),
        ("an integer", "eine ganze Zahl"),
        ("a float", "eine Kommazahl"),
        ("a char", "ein Zeichen"),
        ("an enum", "eine Aufzählung"),
        ("an optional", "ein optionaler Wert"),
        ("a JSON number", "eine JSON-Zahl"),
        ("any valid JSON value", "ein gültiger JSON-Wert"),
        ("a string key", "ein Schlüssel als Zeichenkette"),
        ("an empty array", "eine leere Liste"),
        ("a tuple struct", "eine Liste fester Länge"),
        ("a borrowed byte array", "eine Bytefolge"),
    ];
    if let Some((_, de)) = WHOLE.iter().find(|(en, _)| *en == text) {
        return (*de).to_string();
    }
    if let Some(n) = text
        .strip_prefix("an array of length ")
        .or_else(|| text.strip_prefix("a tuple of size "))
        .or_else(|| text.strip_prefix("a sequence of length "))
    {
        return format!("eine Liste der Länge {n}");
    }
    // serde's derives: "struct X with 3 elements", "tuple of 3 elements".
    if let Some((what, n)) = text.rsplit_once(" with ").or_else(|| text.rsplit_once(" of "))
        && let Some(n) = n.strip_suffix(" elements").or_else(|| n.strip_suffix(" element"))
    {
        let what = match what {
            "tuple" => "eine Liste".to_string(),
            _ => match what
                .strip_prefix("tuple struct ")
                .or_else(|| what.strip_prefix("struct "))
            {
                Some(name) => format!("ein Objekt `{name}`"),
                None => what.to_string(),
            },
        };
        return format!("{what} mit {n} Elementen");
    }
    // Type names stay as they are, in backticks: they are names, not words.
    if let Some(name) = text.strip_prefix("tuple struct ") {
        return format!("eine Liste `{name}`");
    }
    if let Some(name) = text.strip_prefix("struct ") {
        return format!("ein Objekt `{name}`");
    }
    if let Some(name) = text.strip_prefix("internally tagged enum ") {
        return format!("ein Objekt `{name}` mit dem Feld `type`");
    }
    if let Some(name) = text.strip_prefix("enum ") {
        return format!("eine Aufzählung `{name}`");
    }
    if let Some(rest) = text.strip_prefix("one of ") {
        return format!("eine von {rest}");
    }
    // "`a` or `b`" (the names stay), "string or map" (an untagged enum's kinds).
    text.split(" or ")
        .map(|kind| match BARE.iter().find(|(en, _)| *en == kind) {
            Some((_, de)) => (*de).to_string(),
            None => kind.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" oder ")
}

/// The bare kinds of JSON value serde's messages name ("string or map").
const BARE: &[(&str, &str)] = &[
    ("string", "Zeichenkette"),
    ("map", "Objekt"),
    ("sequence", "Liste"),
    ("integer", "ganze Zahl"),
    ("number", "Zahl"),
    ("boolean", "Wahrheitswert"),
    ("null", "null"),
];

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_input_is_cut_short() {
        let junk = "x".repeat(1_000_000);
        let shown = Error::InvalidCard {
            card: junk,
            allowed: crate::msg!("cards are B5, …", "die Karten sind B5, …"),
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
    fn every_error_says_it_in_german_too() {
        let message = || crate::msg!("a card twice", "eine Karte zweimal");
        let errors = [
            Error::UnknownGame {
                name: "chess".into(),
                available: "caravan, dog".into(),
            },
            Error::InvalidOption {
                game: "dog",
                message: message(),
            },
            Error::InvalidCard {
                card: "ZZ".into(),
                allowed: message(),
            },
            Error::InvalidMove(message()),
            Error::InvalidState(message()),
            Error::InvalidView(message()),
            Error::InvalidArgument(message()),
            Error::UnknownBot {
                name: "nobody".into(),
                game: "dog",
                available: "random".into(),
            },
            Error::InvalidBotParams(message()),
            Error::Illegal(IllegalAction::new(
                "S5",
                "not_provable",
                "not provable",
                "nicht beweisbar",
            )),
            Error::Interrupted,
        ];
        for e in errors {
            let (en, de) = (e.message(Lang::En), e.message(Lang::De));
            assert_eq!(en, e.to_string());
            assert!(!de.is_empty() && de != en, "{en} / {de}");
            assert_eq!(e.texts(), Message::new(en.clone(), de.clone()));
            if let Error::InvalidState(m) = &e {
                assert_eq!(en, format!("invalid state: {}", m.en));
                assert_eq!(de, format!("ungültige Stellung: {}", m.de));
            }
        }
        let m = message().map(|text, lang| format!("{} 3: {text}", lang.pick("Stein", "stone")));
        assert_eq!(
            (m.get(Lang::En), m.get(Lang::De)),
            ("stone 3: a card twice", "Stein 3: eine Karte zweimal")
        );
        assert_eq!(m.to_string(), m.en);
    }

    /// serde's and `serde_json`'s fixed messages in German, the input they quote kept; the
    /// engine's own messages given to serde in the German they were given with.
    #[test]
    fn serde_messages_are_german_too() {
        #[derive(Debug, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Two {
            a: u8,
            b: Vec<u8>,
        }
        let german = |json: &str| {
            let e = serde_json::from_str::<Two>(json).unwrap_err();
            let m = serde_message(&e);
            assert_eq!(m.en, e.to_string());
            m.de
        };
        assert_eq!(
            german(r#"{"a": "x", "b": []}"#),
            r#"falscher Typ: Zeichenkette "x", erwartet: u8 (Zeile 1, Spalte 9)"#
        );
        assert_eq!(german(r#"{"b": []}"#), "fehlendes Feld `a` (Zeile 1, Spalte 9)");
        assert_eq!(
            german(r#"{"a": 1, "b": [], "c": 0}"#),
            "unbekanntes Feld `c`, erlaubt: `a` oder `b` (Zeile 1, Spalte 21)"
        );
        assert_eq!(
            german(r#"{"a": 300, "b": []}"#),
            "ungültiger Wert: ganze Zahl `300`, erwartet: u8 (Zeile 1, Spalte 9)"
        );
        assert_eq!(
            german(r#"{"a": 1, "b": {}}"#),
            "falscher Typ: Objekt, erwartet: eine Liste (Zeile 1, Spalte 14)"
        );
        assert_eq!(expected_german("string or map"), "Zeichenkette oder Objekt");
        assert_eq!(expected_german("`a` or `b`"), "`a` oder `b`");
        assert_eq!(
            expected_german("struct Stone with 4 elements"),
            "ein Objekt `Stone` mit 4 Elementen"
        );
        assert_eq!(
            expected_german("tuple of 2 elements"),
            "eine Liste mit 2 Elementen"
        );
        assert_eq!(
            expected_german("map with a single key"),
            "ein Objekt mit genau einem Schlüssel"
        );
        assert_eq!(
            expected_german("internally tagged enum Move"),
            "ein Objekt `Move` mit dem Feld `type`"
        );
        // The place is `serde_json`'s (where it gives one), in German words.
        let place = |m: &Message| {
            if let Some((_, at)) = m.en.rsplit_once(" at line ") {
                let (line, column) = at.split_once(" column ").unwrap();
                assert!(
                    m.de.ends_with(&format!(" (Zeile {line}, Spalte {column})")),
                    "{m:?}"
                );
                m.de[..m.de.rfind(" (Zeile ").unwrap()].to_string()
            } else {
                assert!(!m.de.contains("(Zeile "), "{m:?}");
                m.de.clone()
            }
        };
        let of = |json: &str| serde_message(&serde_json::from_str::<Two>(json).unwrap_err());
        assert_eq!(place(&of("{")), "das JSON endet mitten in einem Objekt");
        assert_eq!(
            place(&of(r#"{"a": 1, "b": []} x"#)),
            "Zeichen nach dem Ende des JSON"
        );
        // A message of ours through serde: the German it was given with.
        let e =
            serde_json::from_str::<crate::schotten_totten::cards::CardSet>(r#"["R1", "R1"]"#).unwrap_err();
        assert_eq!(place(&serde_message(&e)), "eine Karte kommt zweimal vor");
        let e = serde_json::from_str::<crate::caravan::cards::Card>(r#""ZZ""#).unwrap_err();
        let m = serde_message(&e);
        assert!(
            m.en.starts_with("invalid card 'ZZ': a card is a rank"),
            "{}",
            m.en
        );
        assert!(
            place(&m).starts_with("ungültige Karte 'ZZ': eine Karte ist ein Rang"),
            "{}",
            m.de
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
