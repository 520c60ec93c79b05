//! Table talk (T7): no numbers in any form.
//!
//! A message mentions a number if it holds a digit (any Unicode numeric character) or
//! a word that is wholly made of German or English number words: "drei", "63",
//! "dreiundsechzig", "sixty-three", "twentytwo". Whole words are tested, never
//! substrings, so ordinary talk passes ("achten", "helfen", "often", "Zehnersprung",
//! "Rückwärts-Trick", "backward trick", "einen ganz kleinen Sprung"). The German
//! article "ein" and the English pronoun "one" after a determiner ("this one", "the
//! small one") are not numbers; ordinals ("der zweite Stapel") name piles, not values,
//! and pass. Decades, times and multiples ("Sechzigern", "sixties", "dreimal") are numbers.

/// German number morphemes after folding umlauts (ü → ue, ß → ss), longest first
/// where one is a prefix of another, so the segmentation tries the whole word first.
const GERMAN: &[&str] = &[
    "null",
    "eins",
    "ein",
    "zwei",
    "zwo",
    "drei",
    "vier",
    "fuenf",
    "funf",
    "sechs",
    "sieben",
    "acht",
    "neun",
    "zehn",
    "elf",
    "zwoelf",
    "zwolf",
    "dreizehn",
    "vierzehn",
    "fuenfzehn",
    "funfzehn",
    "sechzehn",
    "siebzehn",
    "achtzehn",
    "neunzehn",
    "zwanzig",
    "dreissig",
    "vierzig",
    "fuenfzig",
    "funfzig",
    "sechzig",
    "siebzig",
    "achtzig",
    "neunzig",
    "hundert",
    "tausend",
    "million",
    "millionen",
    "dutzend",
    "einhalb",
    "und",
];

/// German endings that keep a number a number: decades ("Sechziger", "in den Sechzigern"),
/// times ("dreimal") and multiples ("dreifach").
const GERMAN_ENDINGS: &[&str] = &["er", "ern", "ers", "mal", "fach"];

const ENGLISH: &[&str] = &[
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
    "thirty",
    "forty",
    "fourty",
    "fifty",
    "sixty",
    "seventy",
    "eighty",
    "ninety",
    "hundred",
    "thousand",
    "million",
    "dozen",
    "twenties",
    "thirties",
    "forties",
    "fifties",
    "sixties",
    "seventies",
    "eighties",
    "nineties",
    "hundreds",
    "thousands",
    "dozens",
    "and",
];

/// Words before which "one" is a pronoun ("this one"), not a number.
const ONE_AS_PRONOUN_AFTER: &[&str] = &[
    "the", "this", "that", "a", "no", "any", "every", "each", "which", "another", "other", "next", "last",
    "same", "right", "wrong", "little", "small", "smaller", "big", "bigger", "low", "lower", "high",
    "higher", "good", "better", "bad", "new", "old", "someone", "everyone",
];

/// Connectors ("und", "and") join number words but are not numbers by themselves.
const CONNECTORS: &[&str] = &["und", "and"];

/// True if `word` splits wholly into `morphemes` with at least one that is not a connector.
fn is_compound_of(word: &str, morphemes: &[&str]) -> bool {
    // reachable[i]: word[..i] splits into morphemes; numeric[i]: and one of them is a number.
    let n = word.len();
    let mut reachable = vec![false; n + 1];
    let mut numeric = vec![false; n + 1];
    reachable[0] = true;
    for i in 0..n {
        if !reachable[i] {
            continue;
        }
        for m in morphemes {
            if word[i..].starts_with(m) {
                let j = i + m.len();
                reachable[j] = true;
                numeric[j] |= numeric[i] || !CONNECTORS.contains(m);
            }
        }
    }
    reachable[n] && numeric[n]
}

fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars().flat_map(char::to_lowercase) {
        match c {
            'ä' => out.push_str("ae"),
            'ö' => out.push_str("oe"),
            'ü' => out.push_str("ue"),
            'ß' => out.push_str("ss"),
            c => out.push(c),
        }
    }
    out
}

/// T7: does `text` name a number in any form (digits or German/English number words)?
pub fn mentions_number(text: &str) -> bool {
    if text.chars().any(char::is_numeric) {
        return true;
    }
    let folded = fold(text);
    let words: Vec<&str> = folded
        .split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty())
        .collect();
    words.iter().enumerate().any(|(i, &word)| {
        if !word.is_ascii() || word == "ein" {
            return false;
        }
        if word == "one" || word == "ones" {
            return !(i > 0 && ONE_AS_PRONOUN_AFTER.contains(&words[i - 1]));
        }
        is_compound_of(word, GERMAN)
            || is_compound_of(word, ENGLISH)
            || GERMAN_ENDINGS.iter().any(|e| {
                word.strip_suffix(e)
                    .is_some_and(|stem| stem != "ein" && is_compound_of(stem, GERMAN))
            })
    })
}

#[cfg(test)]
mod tests {
    use super::mentions_number;

    /// (phrase, mentions a number)
    const PHRASES: &[(&str, bool)] = &[
        ("63", true),
        ("ich habe die 63", true),
        ("dreiundsechzig", true),
        ("Dreiundsechzig!", true),
        ("sixty-three", true),
        ("sixty three", true),
        ("sixtythree", true),
        ("zweiundzwanzig", true),
        ("twenty two", true),
        ("twenty-two", true),
        ("drei", true),
        ("Ich habe eine Fünf", true),
        ("fuenf", true),
        ("zwölf", true),
        ("zwoelf", true),
        ("dreißig", true),
        ("dreissig", true),
        ("neunundneunzig", true),
        ("hundert", true),
        ("einhundert", true),
        ("eins", true),
        ("null", true),
        ("elf", true),
        ("siebzehn", true),
        ("sechzehn", true),
        ("achtzig", true),
        ("zwo", true),
        ("one", true),
        ("I have one card", true),
        ("play ninety-nine", true),
        ("thirteen", true),
        ("seventy", true),
        ("a hundred", true),
        ("a dozen", true),
        ("ein Dutzend", true),
        ("two", true),
        ("ELEVEN", true),
        ("the 5", true),
        ("½", true),
        ("²", true),
        ("Ⅻ", true),
        ("zwei und zwanzig", true),
        ("Zehnersprung", false),
        ("Rückwärts-Trick", false),
        ("backward trick", false),
        ("bitte nur noch einen ganz kleinen Sprung", false),
        ("Bitte nicht auf den unteren Stapel legen", false),
        ("Hier bitte nur noch einen ganz kleinen Sprung", false),
        ("Ich kann einen Zehnersprung machen", false),
        ("I can do a backward trick on the left pile", false),
        ("this one is risky", false),
        ("the small one please", false),
        ("Achtung, der Stapel ist fast voll", false),
        ("Kannst du mir helfen?", false),
        ("often I wait", false),
        ("we should attend to the descending pile", false),
        ("Ich habe eine gute Karte", false),
        ("Einer von uns muss spielen", false),
        ("don't play there", false),
        ("Nicht auf den zweiten Stapel", false),
        ("Warte bitte", false),
        ("someone should play low", false),
        ("Ich habe nichts Gutes", false),
        ("tonight we win", false),
        ("Ich habe was in den Sechzigern", true),
        ("something in the sixties", true),
        ("Ich brauche zweieinhalb Runden", true),
        ("das geht dreimal", true),
        ("Nimm die Zwanziger", true),
        ("Lass uns den Rückwärts-Trick machen", false),
        ("Das ist ein Zehnersprung-Kandidat", false),
    ];

    #[test]
    fn phrase_table_both_ways() {
        for &(phrase, expected) in PHRASES {
            assert_eq!(mentions_number(phrase), expected, "{phrase:?}");
        }
        assert!(PHRASES.len() >= 60);
    }
}
