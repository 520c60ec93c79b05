//! serde's messages in German: serde and `serde_json` word their errors in English only,
//! and a person reading a refused state or move reads German first.

use std::fmt;

use super::{Message, shorten_message};

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
    // "invalid type: string \"x\", expected u8" and its kin. Split at the last ", expected "
    // and ", ": what follows is serde's own words, what comes before may quote the caller's
    // input, which may hold the same words.
    for (en, de) in [
        ("invalid type: ", "falscher Typ: "),
        ("invalid value: ", "ungültiger Wert: "),
    ] {
        if let Some(rest) = head.strip_prefix(en)
            && let Some((unexpected, expected)) = rest.rsplit_once(", expected ")
        {
            return format!(
                "{de}{}, erwartet: {}",
                unexpected_german(unexpected),
                expected_german(expected)
            );
        }
    }
    if let Some(rest) = head.strip_prefix("invalid length ")
        && let Some((len, expected)) = rest.rsplit_once(", expected ")
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
            return match rest.rsplit_once(", expected ") {
                Some((name, allowed)) => {
                    format!("{de}{name}, erlaubt: {}", expected_german(allowed))
                }
                None => match rest.rsplit_once(", ") {
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
pub(super) fn expected_german(text: &str) -> String {
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
