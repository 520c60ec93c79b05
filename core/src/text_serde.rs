//! Cards travel in JSON as their notation (`"B5"`, `"10H"`, `"JK"`), not as numbers; in
//! binary formats (the snapshots of [`crate::snapshot`]) as one byte, their index.

/// Implements `Serialize` by `Display` and `Deserialize` by `FromStr` for a card type
/// (a tuple struct of its index `u8`), so that a malformed card in a position is refused
/// with the notation's own error message, and `JsonSchema` as a string with the
/// notation's pattern. `$name` is the schema's name, unique across games because the web
/// API puts every game's schemas side by side. Formats that are not human-readable get
/// the index instead, below `$count`: formatting and parsing text would cost more than
/// the rest of a snapshot.
macro_rules! serde_as_text {
    ($t:ident, $count:expr, $name:literal, $description:literal, $pattern:literal) => {
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                if s.is_human_readable() {
                    s.collect_str(self)
                } else {
                    s.serialize_u8(self.0)
                }
            }
        }

        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                if !d.is_human_readable() {
                    let index = <u8 as serde::Deserialize<'de>>::deserialize(d)?;
                    return if usize::from(index) < $count {
                        Ok($t(index))
                    } else {
                        Err(serde::de::Error::invalid_value(
                            serde::de::Unexpected::Unsigned(u64::from(index)),
                            &"the index of one of the game's cards",
                        ))
                    };
                }
                let s = <std::borrow::Cow<'de, str> as serde::Deserialize<'de>>::deserialize(d)?;
                // The notation's own message, in both languages.
                s.parse().map_err(|e: $crate::error::Error| $crate::error::custom(e.texts()))
            }
        }

        impl schemars::JsonSchema for $t {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                $name.into()
            }

            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!({
                    "type": "string",
                    "description": $description,
                    "pattern": $pattern,
                })
            }
        }
    };
}

pub(crate) use serde_as_text;
