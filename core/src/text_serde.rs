//! Cards travel in JSON as their notation (`"B5"`, `"10H"`, `"JK"`), not as numbers.

/// Implements `Serialize` by `Display` and `Deserialize` by `FromStr` for a type, so that
/// a malformed card in a position is refused with the notation's own error message, and
/// `JsonSchema` as a string with the notation's pattern. `$name` is the schema's name,
/// unique across games because the web API puts every game's schemas side by side.
macro_rules! serde_as_text {
    ($t:ty, $name:literal, $description:literal, $pattern:literal) => {
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                let s = <std::borrow::Cow<'de, str> as serde::Deserialize<'de>>::deserialize(d)?;
                s.parse().map_err(serde::de::Error::custom)
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
