//! The language of texts for people: German first (the rule texts are German, and so is
//! every text a person reads unless they ask for English), English on request.
//!
//! Every text the engine writes for a person (a move, the last move, the result line, the
//! board, the match's end) takes a [`Lang`]; the rejection reasons carry both languages
//! side by side ([`crate::error::IllegalAction`]'s `reason` and `reason_de`).

use std::fmt;
use std::str::FromStr;

use crate::error::Error;

/// German or English. German is the default for people-facing output.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    #[default]
    De,
    En,
}

impl Lang {
    /// Both languages, German first.
    pub const ALL: [Lang; 2] = [Lang::De, Lang::En];

    /// The language's code, as `Accept-Language` and the bindings' `lang` spell it.
    pub const fn code(self) -> &'static str {
        match self {
            Lang::De => "de",
            Lang::En => "en",
        }
    }

    /// `de` in German, `en` in English: for the short words of a text.
    pub fn pick<T>(self, de: T, en: T) -> T {
        match self {
            Lang::De => de,
            Lang::En => en,
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

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
            let s = crate::error::shorten(s);
            Err(Error::InvalidArgument(crate::msg!(
                "no language '{s}': 'de' (German) or 'en' (English)",
                "keine Sprache '{s}': 'de' (Deutsch) oder 'en' (Englisch)"
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Lang;

    #[test]
    fn parses_codes_with_regions_and_refuses_others() {
        assert_eq!("de".parse::<Lang>().unwrap(), Lang::De);
        assert_eq!("EN-gb".parse::<Lang>().unwrap(), Lang::En);
        assert_eq!("de_CH".parse::<Lang>().unwrap(), Lang::De);
        assert!("fr".parse::<Lang>().is_err());
        assert!("".parse::<Lang>().is_err());
        assert_eq!(Lang::default(), Lang::De);
        for lang in Lang::ALL {
            assert_eq!(lang.code().parse::<Lang>().unwrap(), lang);
        }
    }
}
