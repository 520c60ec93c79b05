//! What a game says about itself: how returns relate, and which options it takes.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How the players' returns relate (R1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Utility {
    /// Two sides, one's gain the other's loss (Schotten Totten, Caravan).
    ZeroSum,
    /// Two teams; partners get the same return (Dog).
    TeamZeroSum,
    /// Everyone gets the same return (The Game).
    Cooperative,
}

impl Utility {
    pub fn name(self) -> &'static str {
        match self {
            Utility::ZeroSum => "zero_sum",
            Utility::TeamZeroSum => "team_zero_sum",
            Utility::Cooperative => "cooperative",
        }
    }
}

/// The type of an option's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OptionType {
    Bool,
    Int,
}

/// One option of a game, for forms, documentation and the web API.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OptionSpec {
    pub name: &'static str,
    #[serde(rename = "type")]
    pub kind: OptionType,
    pub default: Value,
    /// Every allowed value, where there are few (booleans, a seat); else `None`.
    pub allowed: Option<Vec<Value>>,
    /// The smallest and largest allowed value of an integer option.
    pub min: Option<i64>,
    pub max: Option<i64>,
    pub description: &'static str,
    /// The seed's German name of a variant (Caravan's C10: "Damen überall", …), or of
    /// the option.
    pub name_de: Option<&'static str>,
    /// The description in German (texts for people are German first).
    pub description_de: Option<&'static str>,
}

impl OptionSpec {
    /// A yes/no option (a variant), off or on by `default`.
    pub fn flag(name: &'static str, default: bool, description: &'static str) -> Self {
        Self {
            name,
            kind: OptionType::Bool,
            default: Value::Bool(default),
            allowed: Some(vec![Value::Bool(false), Value::Bool(true)]),
            min: None,
            max: None,
            description,
            name_de: None,
            description_de: None,
        }
    }

    /// An integer option from `min` to `max`; the values are listed when they are few.
    pub fn int(name: &'static str, default: i64, min: i64, max: i64, description: &'static str) -> Self {
        let allowed = (max - min < 10).then(|| (min..=max).map(Value::from).collect());
        Self {
            name,
            kind: OptionType::Int,
            default: Value::from(default),
            allowed,
            min: Some(min),
            max: Some(max),
            description,
            name_de: None,
            description_de: None,
        }
    }

    /// The seed's German name for the option.
    #[must_use]
    pub fn german(mut self, name_de: &'static str) -> Self {
        self.name_de = Some(name_de);
        self
    }

    /// The option's description in German.
    #[must_use]
    pub fn german_description(mut self, description_de: &'static str) -> Self {
        self.description_de = Some(description_de);
        self
    }
}
