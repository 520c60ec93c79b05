//! The language of texts for people: German first (the rule texts are German, and so is
//! every text a person reads unless they ask for English), English on request.
//!
//! Every text the engine writes for a person (a move, the last move, the result line, the
//! board, the match's end) takes a [`Lang`]; the rejection reasons carry both languages
//! side by side ([`crate::error::IllegalAction`]'s `reason` and `reason_de`). Reading a
//! language's code (`"de-CH".parse::<Lang>()`) is the error module's: a wrong one is an
//! [`crate::error::Error`], and the error module names texts by their language.

use std::fmt;

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
