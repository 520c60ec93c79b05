use super::serde_german::expected_german;
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
    // The caller's input may hold serde's own words: the split is at the last of them.
    assert_eq!(
        german(r#"{"a": "y, expected z", "b": []}"#),
        r#"falscher Typ: Zeichenkette "y, expected z", erwartet: u8 (Zeile 1, Spalte 21)"#
    );
    assert_eq!(
        german(r#"{"a": 1, "b": [], "c, expected d": 0}"#),
        "unbekanntes Feld `c, expected d`, erlaubt: `a` oder `b` (Zeile 1, Spalte 33)"
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
    let e = serde_json::from_str::<crate::schotten_totten::cards::CardSet>(r#"["R1", "R1"]"#).unwrap_err();
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
        "turn: it is not player 2's turn: player 1 is to move"
    );
    let e = IllegalAction::not_your_turn(3, &[0, 1, 2]);
    assert!(
        e.reason.contains("players 1, 2 and 3 are to move"),
        "{}",
        e.reason
    );
    assert!(e.reason_de.contains("Spieler 1, 2 und 3"), "{}", e.reason_de);
}
