//! The binary snapshot of a state: the whole position in a few hundred bytes, read back
//! without replaying a single action and checked exactly like the readable JSON.
//!
//! Layout: the magic bytes `SWS`, the format's version ([`VERSION`]), the game's name
//! (one length byte, then the name), then the state in [postcard](https://docs.rs/postcard)
//! over the same serde types as its JSON. Cards, hands and sets go as their indices and
//! masks there (`is_human_readable` is false), everything else as in JSON, field for
//! field. Reading refuses another magic, version or game with a message saying which,
//! and trailing bytes; the game then checks the state as it checks one read from JSON
//! ([`crate::Game::check_state`]) and compares its options with its own.
//!
//! Untrusted input: postcard reads lengths as varints from the input and serde's own
//! collections preallocate at most 1 MiB whatever a length prefix claims, so memory grows
//! with the input's length, never with a forged prefix; every element must be present in
//! the input. [`read`] also refuses input longer than [`MAX_LEN`] up front.

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::{Error, Message, Result};
use crate::lang::Lang;

/// The first bytes of every snapshot, by which [`is_snapshot`] knows one.
pub const MAGIC: &[u8; 3] = b"SWS";
/// The layout's version: a snapshot of another version is refused, never misread.
pub const VERSION: u8 = 1;
/// The longest snapshot read: far above any game's (a Dog game of 10,000 turns with its
/// history is about 30 kB), far below what could hurt.
pub const MAX_LEN: usize = 1 << 24;

/// Whether `bytes` begin like a snapshot (rather than JSON text).
pub fn is_snapshot(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// postcard's output: a vector that already holds the header.
struct Out(Vec<u8>);

impl postcard::ser_flavors::Flavor for Out {
    type Output = Vec<u8>;
    fn try_push(&mut self, byte: u8) -> postcard::Result<()> {
        self.0.push(byte);
        Ok(())
    }
    fn try_extend(&mut self, bytes: &[u8]) -> postcard::Result<()> {
        // postcard writes every varint as a slice of 1-10 bytes: pushing them one by one
        // beats a call to `memcpy` per number (the history is most of a long snapshot).
        if bytes.len() <= 10 {
            for &byte in bytes {
                self.0.push(byte);
            }
        } else {
            self.0.extend_from_slice(bytes);
        }
        Ok(())
    }
    fn finalize(self) -> postcard::Result<Vec<u8>> {
        Ok(self.0)
    }
}

/// The snapshot of `value`, a state of the game `game` (its registry name).
pub fn write<T: Serialize>(game: &str, value: &T) -> Vec<u8> {
    let name = game.as_bytes();
    let mut out = Vec::with_capacity(512);
    out.extend_from_slice(MAGIC);
    out.push(VERSION);
    out.push(u8::try_from(name.len()).expect("game names are short"));
    out.extend_from_slice(name);
    postcard::serialize_with_flavor(value, Out(out)).expect("a game state always serializes")
}

/// Reads a snapshot written by [`write`] for the game `game` into a `T`, checking the
/// header and that nothing follows. The caller checks the state itself.
pub fn read<T: DeserializeOwned>(game: &str, bytes: &[u8]) -> Result<T> {
    let refuse = |what: Message| {
        Error::InvalidState(what.map(|text, lang| match lang {
            Lang::De => format!("kein Schnappschuss von {game}: {text}"),
            Lang::En => format!("not a {game} snapshot: {text}"),
        }))
    };
    if bytes.len() > MAX_LEN {
        let len = bytes.len();
        return Err(refuse(crate::msg!(
            "{len} bytes; no snapshot is longer than {MAX_LEN}",
            "{len} Bytes; kein Schnappschuss ist länger als {MAX_LEN}"
        )));
    }
    let Some(rest) = bytes.strip_prefix(MAGIC) else {
        return Err(refuse(crate::msg!(
            "it does not begin with the snapshot's magic bytes 'SWS'",
            "er beginnt nicht mit den Kennbytes 'SWS' eines Schnappschusses"
        )));
    };
    let Some((&version, rest)) = rest.split_first() else {
        return Err(refuse(crate::msg!(
            "it ends after the magic bytes",
            "er endet nach den Kennbytes"
        )));
    };
    if version != VERSION {
        return Err(refuse(crate::msg!(
            "its layout is version {version}; this engine reads version {VERSION}",
            "sein Aufbau hat die Version {version}; diese Engine liest Version {VERSION}"
        )));
    }
    let name_len = rest.first().map_or(0, |&n| usize::from(n));
    let Some(name) = rest.get(1..=name_len) else {
        return Err(refuse(crate::msg!(
            "it ends inside the game's name",
            "er endet im Namen des Spiels"
        )));
    };
    if name != game.as_bytes() {
        let other = crate::error::shorten(&String::from_utf8_lossy(name));
        return Err(refuse(crate::msg!(
            "it is a snapshot of the game '{other}'",
            "er ist ein Schnappschuss des Spiels '{other}'"
        )));
    }
    let body = &rest[1 + name_len..];
    match postcard::take_from_bytes::<T>(body) {
        Ok((value, [])) => Ok(value),
        Ok((_, trailing)) => {
            let n = trailing.len();
            Err(refuse(crate::msg!(
                "{n} bytes follow the state",
                "nach der Stellung folgen {n} Bytes"
            )))
        }
        Err(e) => Err(refuse(explain::<T>(body, e))),
    }
}

/// What postcard found wrong, and where: the failed read is repeated (only on failure)
/// with the path of the field it stopped in. postcard keeps no message of a type's own
/// (a card index out of range, a count above the deck's), only the kind of error.
#[cold]
fn explain<T: DeserializeOwned>(body: &[u8], error: postcard::Error) -> Message {
    let what = match error {
        postcard::Error::DeserializeUnexpectedEnd => crate::msg!("it ends too early", "er endet zu früh"),
        postcard::Error::SerdeDeCustom => crate::msg!(
            "a value is out of range",
            "ein Wert liegt außerhalb seines Bereichs"
        ),
        postcard::Error::DeserializeBadVarint => crate::msg!(
            "a number is not a valid varint",
            "eine Zahl ist kein gültiger Varint"
        ),
        postcard::Error::DeserializeBadBool => crate::msg!(
            "a truth value is neither 0 nor 1",
            "ein Wahrheitswert ist weder 0 noch 1"
        ),
        postcard::Error::DeserializeBadUtf8 => {
            crate::msg!("a text is not valid UTF-8", "ein Text ist kein gültiges UTF-8")
        }
        postcard::Error::DeserializeBadEnum => {
            crate::msg!("a kind of value is unknown", "eine Art von Wert ist unbekannt")
        }
        postcard::Error::DeserializeBadOption => crate::msg!(
            "an optional value is malformed",
            "ein optionaler Wert ist fehlerhaft"
        ),
        postcard::Error::DeserializeBadChar => crate::msg!(
            "a character is not valid Unicode",
            "ein Zeichen ist kein gültiges Unicode"
        ),
        other => {
            // (postcard's other errors are the writer's, or of formats no snapshot uses.)
            let shown = other.to_string();
            crate::msg!(
                "{shown}",
                "die Bytes passen nicht zum Aufbau einer Stellung: `{shown}`"
            )
        }
    };
    let mut deserializer = postcard::Deserializer::from_bytes(body);
    match serde_path_to_error::deserialize::<_, T>(&mut deserializer) {
        Err(e) if e.path().to_string() != "." => {
            let path = e.path().to_string();
            what.map(|text, lang| match lang {
                Lang::De => format!("bei {path}: {text}"),
                Lang::En => format!("at {path}: {text}"),
            })
        }
        _ => what,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_is_checked_before_the_body() {
        let bytes = write("dog", &(1u8, vec![2u32, 300]));
        assert!(is_snapshot(&bytes));
        assert_eq!(read::<(u8, Vec<u32>)>("dog", &bytes).unwrap(), (1, vec![2, 300]));
        let message = |bytes: &[u8]| read::<(u8, Vec<u32>)>("dog", bytes).unwrap_err().to_string();
        assert!(message(&bytes[..2]).contains("magic"));
        assert!(message(&bytes[..3]).contains("ends after the magic"));
        let mut other = bytes.clone();
        other[3] = 9;
        assert!(message(&other).contains("version 9"), "{}", message(&other));
        let caravan = write("caravan", &(1u8, vec![2u32, 300]));
        assert!(message(&caravan).contains("of the game 'caravan'"));
        assert!(message(&bytes[..6]).contains("inside the game's name"));
        assert!(message(&bytes[..bytes.len() - 1]).contains("ends too early"));
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(message(&longer).contains("1 bytes follow"));
    }

    #[test]
    fn a_forged_length_allocates_nothing_it_cannot_fill() {
        // A vector claiming 2^62 entries in a few bytes: refused at the end of the input.
        let mut bytes = write("dog", &(1u8, Vec::<u32>::new()));
        bytes.pop();
        bytes.extend_from_slice(&[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x3f]);
        let e = read::<(u8, Vec<u32>)>("dog", &bytes).unwrap_err().to_string();
        assert!(e.contains("ends too early"), "{e}");
    }
}
